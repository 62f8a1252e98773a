//! The statements the database runs for each interaction, counted where Discord triggers them:
//! sqlx logs every statement it runs (target `sqlx::query`), and each is put down to the
//! interaction whose span it runs in (`settai::discord::interaction_span`, keyed by the
//! interaction's id). Tests of one binary run side by side, each with interactions of its own,
//! so nothing else may be running for the count to hold.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, Once, OnceLock};
use std::time::Duration;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing::{Event, Subscriber};
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};
use tracing_subscriber::registry::LookupSpan;

/// The statements of every interaction seen since [`install`], and those whose span closed.
#[derive(Default)]
struct Book {
    statements: Mutex<HashMap<u64, Vec<String>>>,
    closed: Mutex<HashSet<u64>>,
    changed: tokio::sync::Notify,
}

fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(Book::default)
}

/// Puts the counter in as this test binary's subscriber (once; later calls do nothing).
pub fn install() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let wanted = filter_fn(|m| m.target() == "sqlx::query" || (m.is_span() && m.name() == "interaction"));
        let subscriber = tracing_subscriber::registry().with(Counter.with_filter(wanted));
        tracing::subscriber::set_global_default(subscriber).expect("the only subscriber of this test binary");
    });
}

/// What one interaction ran, once its span closed (everything done for it, answer and
/// bookkeeping included).
#[derive(Debug, Clone)]
pub struct Cost {
    /// Each statement's text, in the order run.
    pub statements: Vec<String>,
}

impl Cost {
    /// The statements that change nothing.
    pub fn reads(&self) -> Vec<&str> {
        self.statements.iter().map(String::as_str).filter(|s| !is_write(s)).collect()
    }

    /// The statements that insert, update or delete.
    pub fn writes(&self) -> Vec<&str> {
        self.statements.iter().map(String::as_str).filter(|s| is_write(s)).collect()
    }
}

fn is_write(statement: &str) -> bool {
    let upper = statement.to_uppercase();
    ["INSERT ", "UPDATE ", "DELETE "].iter().any(|verb| upper.contains(verb))
}

/// The cost of interaction `id`, once its span has closed (waited for as an event, up to
/// `timeout`).
pub async fn cost_of(id: u64, timeout: Duration) -> Cost {
    let book = book();
    let closed = async {
        loop {
            let changed = book.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if book.closed.lock().unwrap().contains(&id) {
                return;
            }
            changed.await;
        }
    };
    tokio::time::timeout(timeout, closed).await.unwrap_or_else(|_| panic!("interaction {id} never finished"));
    let statements = book.statements.lock().unwrap().get(&id).cloned().unwrap_or_default();
    Cost { statements }
}

/// The id an interaction span carries.
struct InteractionId(u64);

/// Reads a field of type u64 named `name`, or a string one.
struct Find<'a> {
    name: &'a str,
    number: Option<u64>,
    text: Option<String>,
}

impl Visit for Find<'_> {
    fn record_u64(&mut self, field: &Field, value: u64) {
        if field.name() == self.name {
            self.number = Some(value);
        }
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == self.name {
            self.text = Some(value.to_string());
        }
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == self.name && self.text.is_none() {
            self.text = Some(format!("{value:?}"));
        }
    }
}

fn find(name: &str, record: impl FnOnce(&mut Find<'_>)) -> Find<'_> {
    let mut found = Find { name, number: None, text: None };
    record(&mut found);
    found
}

/// The layer that keeps the [`Book`].
struct Counter;

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Counter {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if attrs.metadata().name() != "interaction" {
            return;
        }
        if let (Some(number), Some(span)) = (find("id", |f| attrs.record(f)).number, ctx.span(id)) {
            span.extensions_mut().insert(InteractionId(number));
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        if event.metadata().target() != "sqlx::query" {
            return;
        }
        let Some(interaction) = ctx
            .event_scope(event)
            .and_then(|scope| scope.into_iter().find_map(|s| s.extensions().get::<InteractionId>().map(|i| i.0)))
        else {
            return;
        };
        // The whole statement when sqlx shortened its summary, else the summary is the whole.
        let whole = find("db.statement", |f| event.record(f)).text.filter(|s| !s.trim().is_empty());
        let statement = whole.or_else(|| find("summary", |f| event.record(f)).text).unwrap_or_default();
        book().statements.lock().unwrap().entry(interaction).or_default().push(statement.trim().to_string());
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        let number = span.extensions().get::<InteractionId>().map(|i| i.0);
        if let Some(number) = number {
            book().closed.lock().unwrap().insert(number);
            book().changed.notify_waiters();
        }
    }
}
