//! Operations (docs/design/bot-reliability.md#operations): `settai serve` as an operator sees it —
//! one log line per startup step, errors with their cause once, a clear word while Discord cannot
//! be reached, a token of the wrong shape refused before connecting, and SIGTERM (systemd,
//! containers) stopping it as Ctrl-C does.

#![cfg(target_os = "linux")]

mod support;

use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

use sqlx::PgPool;
use support::{database_url, StandIn};

const T: Duration = Duration::from_secs(60);

/// A `settai serve` process and its log, line by line.
struct Serve {
    child: Child,
    /// Filled by a thread reading the process's stderr; awaited, so that the test's runtime
    /// (which also runs the stand-in) keeps running while a test waits.
    lines: UnboundedReceiver<String>,
    log: Vec<String>,
}

impl Serve {
    fn start(env: &[(&str, &str)]) -> Serve {
        use std::io::BufRead;
        let mut command = Command::new(env!("CARGO_BIN_EXE_settai"));
        // The developer's .env never reaches a test (src/config.rs env_file).
        command.env("SETTAI_ENV_FILE", "/dev/null");
        command
            .arg("serve")
            .env("DISCORD_TOKEN", StandIn::TOKEN)
            .env("DISCORD_GUILD_ID", "")
            .env("DISCORD_API_BASE", "")
            .env("DISCORD_API_CA", StandIn::certificate())
            .env("RUST_LOG", "settai=info")
            .env("NO_COLOR", "1")
            .env_remove("CARGO")
            .env_remove("CARGO_MANIFEST_DIR")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = command.spawn().expect("the settai binary starts");
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = unbounded_channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Serve { child, lines, log: Vec::new() }
    }

    /// Waits for a log line containing `needle`; returns it.
    async fn wait_for(&mut self, needle: &str) -> String {
        loop {
            match tokio::time::timeout(T, self.lines.recv()).await {
                Ok(Some(line)) => {
                    self.log.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Ok(None) => panic!("the process ended before logging {needle:?}; the log:\n{}", self.log.join("\n")),
                Err(_) => panic!("no log line with {needle:?} within {T:?}; the log:\n{}", self.log.join("\n")),
            }
        }
    }

    fn signal(&self, signal: i32) {
        // SAFETY: sends a signal to the child this test started and still owns.
        assert_eq!(unsafe { libc::kill(self.child.id() as i32, signal) }, 0);
    }

    /// Waits for the process to end (its log closes first); the whole log and whether it succeeded.
    async fn finish(mut self) -> (String, bool) {
        loop {
            match tokio::time::timeout(T, self.lines.recv()).await {
                Ok(Some(line)) => self.log.push(line),
                Ok(None) => break,
                Err(_) => panic!("the process did not end within {T:?}; the log:\n{}", self.log.join("\n")),
            }
        }
        let status = self.child.wait().unwrap();
        (self.log.join("\n"), status.success())
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn startup_is_told_step_by_step_and_sigterm_stops_the_bot_gracefully(pool: PgPool) {
    let standin = StandIn::start().await;
    let url = database_url(&pool);
    let base = standin.api_base();
    let mut bot = Serve::start(&[("DATABASE_URL", &url), ("DISCORD_API_BASE", &base)]);
    for step in [
        "opening the database",
        "database ready",
        "connecting to Discord",
        "Discord accepted the token",
        "connecting to the Discord gateway",
        "connected to Discord",
    ] {
        bot.wait_for(step).await;
    }
    standin.wait_sessions(1, T).await;
    bot.signal(libc::SIGTERM);
    bot.wait_for("SIGTERM received: shutting down").await;
    bot.wait_for("closing the gateway connection").await;
    let (log, ok) = bot.finish().await;
    assert!(ok, "SIGTERM ends the bot with success:\n{log}");
    assert!(log.contains("stopped"), "{log}");
    standin.wait_disconnected(T).await;
    standin.assert_none_refused();
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn without_a_network_the_bot_says_what_it_is_doing(pool: PgPool) {
    // A port where nothing listens: every request to "Discord" is refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let url = database_url(&pool);
    let base = format!("https://{closed}");
    let mut bot = Serve::start(&[("DATABASE_URL", &url), ("DISCORD_API_BASE", &base)]);
    bot.wait_for("database ready").await;
    let warning = bot.wait_for("could not reach Discord").await;
    assert!(warning.contains("(attempt 1)") && warning.contains("retrying in 5 s"), "{warning}");
    assert!(warning.contains("network"), "the warning gives a hint: {warning}");
    assert!(!warning.contains(StandIn::TOKEN.split('.').nth(2).unwrap()), "{warning}");
    // Ctrl-C's way out works while it waits.
    bot.signal(libc::SIGTERM);
    let (log, ok) = bot.finish().await;
    assert!(ok && log.contains("SIGTERM received: shutting down"), "{log}");
}

#[tokio::test]
async fn a_database_error_says_its_cause_once() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let url = format!("postgres://postgres@{closed}/settai");
    let bot = Serve::start(&[("DATABASE_URL", &url)]);
    let (log, ok) = bot.finish().await;
    assert!(!ok, "{log}");
    let error = log.lines().last().unwrap();
    // What happened and its fix, in the one line (store/opening.rs), said once.
    assert!(error.starts_with(&format!("error: nothing is listening at {url}: ")), "{log}");
    assert_eq!(log.matches("nothing is listening").count(), 1, "the cause once:\n{log}");
    assert!(error.contains("DATABASE_URL"), "with its fix:\n{log}");
}

#[tokio::test]
async fn a_token_of_the_wrong_shape_is_refused_before_connecting() {
    let public_key = "5866666666666666666666666666666666666666666666666666666666666666";
    for (token, why) in [(public_key, "public key"), ("Bot abc.def.ghi", "`Bot `"), ("hunter2", "three parts")] {
        // Nothing listens at this database: the check comes before any connection.
        let bot = Serve::start(&[("DISCORD_TOKEN", token), ("DATABASE_URL", "postgres://nobody@127.0.0.1:1/x")]);
        let (log, ok) = bot.finish().await;
        assert!(!ok);
        assert_eq!(log.lines().count(), 1, "{log}");
        assert!(log.starts_with("error: DISCORD_TOKEN") && log.contains(why), "{log}");
        assert!(!log.contains(token), "the token is not repeated: {log}");
    }
}
