//! A fresh machine with no database chores (README: "The database"): with no `DATABASE_URL` and
//! nothing at the default address, `settai play` keeps a PostgreSQL of its own in the data
//! folder, a second run goes on with the game there, and a run with a server back at the default
//! address stays on the recorded choice.
//!
//! PostgreSQL refuses to run as root, and CI runs as root: there the test first checks that
//! settai refuses with the command to run instead, then runs settai as the system user
//! `settai-test` (made with `useradd` if missing) through `setpriv`. Run by anyone else, it runs
//! settai as that user.

use std::io::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sqlx::PgPool;

const USER: &str = "settai-test";

fn is_root() -> bool {
    let out = Command::new("id").arg("-u").output().expect("id runs");
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

/// The uid and gid of [`USER`], made a system user if missing.
fn test_user() -> (String, String) {
    let id = |flag: &str| {
        let out = Command::new("id").args([flag, USER]).output().unwrap();
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    if id("-u").is_none() {
        let made = Command::new("useradd")
            .args(["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER])
            .status()
            .expect("useradd runs");
        // 9: made meanwhile by another run.
        assert!(made.success() || made.code() == Some(9), "useradd {USER}: {made}");
    }
    (id("-u").expect("the user exists"), id("-g").expect("the user has a group"))
}

/// `program args` as the unprivileged user (as root: through setpriv).
fn unprivileged(program: &Path, args: &[&str]) -> Command {
    if !is_root() {
        let mut command = Command::new(program);
        command.args(args);
        return command;
    }
    let (uid, gid) = test_user();
    let mut command = Command::new("setpriv");
    command
        .args([&format!("--reuid={uid}"), &format!("--regid={gid}"), "--clear-groups", "--"])
        .arg(program)
        .args(args)
        .env("USER", USER)
        .env("HOME", "/tmp");
    command
}

/// `settai play reversi` on `data`, with the default address at `default_url`, typing `input`.
fn play(mut command: Command, data: &Path, default_url: &str, input: &str) -> Output {
    command
        // The developer's .env never reaches a test (src/config.rs env_file).
        .env("SETTAI_ENV_FILE", "/dev/null")
        .env_remove("DATABASE_URL")
        .env("SETTAI_DEFAULT_DATABASE_URL", default_url)
        .env("SETTAI_DATA_DIR", data)
        .env_remove("CARGO")
        .env_remove("CARGO_MANIFEST_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("settai runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(out: &Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The private cluster's pg_ctl, to stop it after the test.
fn pg_ctl() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| d.flatten().map(|e| e.path().join("bin/pg_ctl")).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    found.sort();
    found.pop().unwrap_or_else(|| PathBuf::from("pg_ctl"))
}

#[sqlx::test]
async fn a_fresh_machine_plays_on_a_private_cluster_and_keeps_to_it(system: PgPool) {
    let settai = Path::new(env!("CARGO_BIN_EXE_settai"));
    let root = PathBuf::from(format!("/tmp/settai-private-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    // A data folder deep enough that the cluster's socket cannot live in it (a socket's path
    // has at most 107 bytes): the socket goes to a short folder of its own.
    let data = root.join("a-parent-s-home-folder-with-a-long-name-that-passes-a-unix-sockets-limit").join("data");
    assert!(data.join("postgres/.s.PGSQL.5432").as_os_str().len() > 107);
    std::fs::create_dir_all(&root).unwrap();
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let closed = format!("postgres://postgres@127.0.0.1:{closed}/settai");

    if is_root() {
        // As root, settai refuses and names the command to run instead; nothing is recorded.
        let mut as_root = Command::new(settai);
        as_root.args(["play", "reversi"]);
        let out = play(as_root, &data, &closed, "quit\n");
        let (_, err) = text(&out);
        assert!(!out.status.success(), "{err}");
        assert!(err.contains("as root") && err.contains("runuser -u ") && err.contains("settai play reversi"), "{err}");
        assert!(!data.join("database").exists());
        let (uid, _) = test_user();
        assert!(Command::new("chown").args(["-R", &uid]).arg(&root).status().unwrap().success());
    }

    let played = data.clone();
    let run = move |default_url: &str, input: &str| {
        let command = unprivileged(settai, &["play", "reversi", "--level", "none", "--seed", "1"]);
        let out = play(command, &played, default_url, input);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}\n{stderr}");
        (stdout, stderr)
    };
    let checked = tokio::task::spawn_blocking({
        let data = data.clone();
        let system_url = support_url(&system);
        move || {
            std::panic::catch_unwind(move || {
                // The first run: nothing answers, so settai makes its own and records it.
                let (out, err) = run(&closed, "f5\nquit\n");
                assert!(err.contains("settai keeps its own PostgreSQL in"), "{err}");
                assert!(out.contains("The AI plays") && out.contains("The game is kept"), "{out}");
                let recorded = std::fs::read_to_string(data.join("database")).unwrap();
                assert_eq!(recorded.lines().next(), Some("private"), "{recorded}");
                // The second run goes on with the game on that cluster.
                let (out, err) = run(&closed, "quit\n");
                assert!(out.contains("Your unfinished game goes on from move 3"), "{out}\n{err}");
                assert!(!err.contains("keeps its own"), "{err}");
                // A server answers at the default address now: settai stays where its games are.
                let (out, err) = run(&system_url, "quit\n");
                assert!(out.contains("Your unfinished game goes on from move 3"), "{out}\n{err}");
            })
        }
    })
    .await
    .unwrap();
    // The server at the default address was never used: its database was not even made.
    let made: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_database WHERE datname = 'settai_private_never'")
        .fetch_one(&system)
        .await
        .unwrap();
    let cluster = data.join("postgres");
    let stopped =
        unprivileged(&pg_ctl(), &["-D", cluster.to_str().unwrap(), "-m", "immediate", "-w", "stop"]).output().unwrap();
    let _ = std::fs::remove_dir_all(&root);
    // The socket's own folder (empty once the cluster stopped).
    for entry in std::fs::read_dir("/tmp").unwrap().flatten() {
        if entry.file_name().to_string_lossy().starts_with("settai-settaitest-") {
            let _ = std::fs::remove_dir(entry.path());
        }
    }
    if let Err(panic) = checked {
        std::panic::resume_unwind(panic);
    }
    assert!(stopped.status.success(), "{}", String::from_utf8_lossy(&stopped.stderr));
    assert_eq!(made, 0);
}

/// The test server's address, with a database the test never makes.
fn support_url(_pool: &PgPool) -> String {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL is set for the tests");
    let (server, _) = base.rsplit_once('/').unwrap();
    format!("{server}/settai_private_never")
}
