//! A database that does not open says what happened and what to do, the same in `settai play`
//! and `settai serve`: nothing listening, a role the server does not have, a database that does
//! not exist (and may not be created), no answer in time. Each is a real failure of a real
//! server (src/store/opening.rs).

mod support;

use std::net::TcpListener;
use std::process::{Command, Output, Stdio};

use sqlx::PgPool;

/// A token shaped like Discord's, so that `serve` gets as far as the database.
const TOKEN: &str = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.standin.bot-token-for-tests-only";

/// `settai play reversi` and `settai serve` on `url`, started together; their outputs.
fn play_and_serve(url: &str) -> [Output; 2] {
    let start = |args: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_settai"));
        command
            .args(args)
            // The developer's .env never reaches a test (src/config.rs env_file).
            .env("SETTAI_ENV_FILE", "/dev/null")
            .env("DATABASE_URL", url)
            .env("DISCORD_TOKEN", TOKEN)
            // Never the real Discord, should the database step be passed by mistake.
            .env("DISCORD_API_BASE", "https://127.0.0.1:9")
            .env_remove("CARGO")
            .env_remove("CARGO_MANIFEST_DIR")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command.spawn().expect("the binary runs")
    };
    let play = start(&["play", "reversi"]);
    let serve = start(&["serve"]);
    [play.wait_with_output().unwrap(), serve.wait_with_output().unwrap()]
}

/// Both commands failed, each with one line naming every one of `needles`, and no driver's
/// words.
fn assert_said(url: &str, needles: &[&str]) {
    for (command, out) in ["play", "serve"].into_iter().zip(play_and_serve(url)) {
        assert!(!out.status.success(), "{command} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        let error_lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
        assert_eq!(error_lines.len(), 1, "{command}: {err}");
        let line = error_lines[0];
        for needle in needles {
            assert!(line.contains(needle), "{command}: {needle:?} not in {line}");
        }
        for raw in ["sqlx", "os error", "panicked", "error returned from database"] {
            assert!(!line.contains(raw), "{command}: {raw:?} in {line}");
        }
    }
}

/// The test server's address with another role and database.
fn url_as(role: &str, database: &str) -> String {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL is set for the tests");
    let (scheme, rest) = base.split_once("://").unwrap();
    let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    let host = host.split('/').next().unwrap();
    format!("{scheme}://{role}@{host}/{database}")
}

#[test]
fn nothing_listening_says_to_start_postgresql() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    // The listener is gone: the port refuses.
    let url = format!("postgres://postgres@127.0.0.1:{port}/settai");
    assert_said(
        &url,
        &["nothing is listening at", &format!("127.0.0.1:{port}"), "systemctl start postgresql", "DATABASE_URL"],
    );
}

#[test]
fn a_role_the_server_lacks_is_named_with_the_command_that_creates_it() {
    let url = url_as("settai_no_such_role", "settai");
    assert_said(&url, &["has no role \"settai_no_such_role\"", "createuser --createdb settai_no_such_role"]);
}

#[sqlx::test]
async fn a_database_that_may_not_be_created_is_named_with_the_command_that_creates_it(pool: PgPool) {
    let role = format!("settai_nocreate_{}", std::process::id());
    sqlx::query(&format!("DROP ROLE IF EXISTS {role}")).execute(&pool).await.unwrap();
    sqlx::query(&format!("CREATE ROLE {role} LOGIN NOCREATEDB")).execute(&pool).await.unwrap();
    let url = url_as(&role, "settai_no_such_database");
    let checked = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(|| {
            assert_said(
                &url,
                &[
                    "has no database \"settai_no_such_database\"",
                    &format!("createdb -O {role} settai_no_such_database"),
                    "CREATEDB",
                ],
            )
        })
    })
    .await
    .unwrap();
    let role = format!("settai_nocreate_{}", std::process::id());
    sqlx::query(&format!("DROP ROLE {role}")).execute(&pool).await.unwrap();
    if let Err(panic) = checked {
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn a_server_that_never_answers_is_timed_out() {
    // Something that takes connections and says nothing: the processes wait their 10 s.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    let url = format!("postgres://postgres@127.0.0.1:{port}/settai");
    assert_said(&url, &["did not answer within 10 s", &format!("127.0.0.1:{port}"), "firewall"]);
}
