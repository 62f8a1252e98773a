//! What the bot logs, caught for a test: every event of `settai`'s own targets at INFO or
//! above, with its level, message and fields, on the test's thread. `#[sqlx::test]` runs its
//! test on a runtime of one thread, so the bot's tasks log there too.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};

/// The lines logged so far; a change wakes the waiting test.
#[derive(Clone)]
pub struct Logs {
    lines: Arc<Mutex<Vec<(Level, String)>>>,
    changed: Arc<tokio::sync::watch::Sender<usize>>,
}

impl Logs {
    /// Catches the bot's log on this thread until the guard is dropped.
    pub fn catch() -> (Logs, tracing::subscriber::DefaultGuard) {
        let logs = Logs { lines: Arc::default(), changed: Arc::new(tokio::sync::watch::channel(0).0) };
        let guard = tracing::subscriber::set_default(tracing_subscriber::registry().with(Catcher(logs.clone())));
        (logs, guard)
    }

    /// Every line at `level`, as `message field=value ...`.
    pub fn at(&self, level: Level) -> Vec<String> {
        self.lines.lock().unwrap().iter().filter(|(l, _)| *l == level).map(|(_, line)| line.clone()).collect()
    }

    /// Waits for a line containing `needle` and returns it. Panics after `timeout`, with the log.
    pub async fn wait_for(&self, needle: &str, timeout: Duration) -> String {
        let mut changed = self.changed.subscribe();
        let found = tokio::time::timeout(timeout, async {
            loop {
                let seen = self.lines.lock().unwrap().iter().find(|(_, l)| l.contains(needle)).map(|(_, l)| l.clone());
                if let Some(line) = seen {
                    return line;
                }
                changed.changed().await.expect("the logs live as long as the test");
            }
        })
        .await;
        found.unwrap_or_else(|_| panic!("no log line with {needle:?} within {timeout:?}:\n{}", self.all().join("\n")))
    }

    fn all(&self) -> Vec<String> {
        self.lines.lock().unwrap().iter().map(|(l, line)| format!("{l} {line}")).collect()
    }
}

struct Catcher(Logs);

impl<S: Subscriber> Layer<S> for Catcher {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let meta = event.metadata();
        if !meta.target().starts_with("settai") || *meta.level() > Level::INFO {
            return;
        }
        let mut line = Line::default();
        event.record(&mut line);
        self.0.lines.lock().unwrap().push((*meta.level(), line.0));
        self.0.changed.send_modify(|n| *n += 1);
    }
}

/// An event as `message field=value ...`.
#[derive(Default)]
struct Line(String);

impl Visit for Line {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0.insert_str(0, &format!("{value:?}"));
        } else {
            let _ = write!(self.0, " {}={value:?}", field.name());
        }
    }
}
