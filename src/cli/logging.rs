//! Where the log goes: to stderr, filtered by `RUST_LOG`, as text for people or as one JSON
//! object a line for log shippers (`SETTAI_LOG_FORMAT=json`), each line carrying the spans it
//! was written in, so that an interaction's ids come with everything logged for it
//! (docs/design/operations.md#traces).

use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    /// One readable line per event (the default).
    Text,
    /// One JSON object per line, with the current span and the list of spans it is in.
    Json,
}

impl LogFormat {
    /// The format `SETTAI_LOG_FORMAT` names: `json`, or `text` when unset or empty; `Err`
    /// gives back any other value.
    pub fn named(value: Option<&str>) -> Result<LogFormat, String> {
        match value.map(str::trim) {
            None | Some("") => Ok(LogFormat::Text),
            Some(v) if v.eq_ignore_ascii_case("text") => Ok(LogFormat::Text),
            Some(v) if v.eq_ignore_ascii_case("json") => Ok(LogFormat::Json),
            Some(v) => Err(v.to_string()),
        }
    }
}

/// The subscriber writing `format` to `writer`, filtered by `filter`.
fn subscriber<W>(format: LogFormat, filter: EnvFilter, writer: W) -> Box<dyn tracing::Subscriber + Send + Sync>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(writer);
    match format {
        LogFormat::Text => Box::new(builder.finish()),
        LogFormat::Json => Box::new(builder.json().with_current_span(true).with_span_list(true).finish()),
    }
}

/// Logs to stderr, filtered by `RUST_LOG` (default: settai at info, serenity at warn), in the
/// format `SETTAI_LOG_FORMAT` names.
pub fn init_tracing() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("settai=info,serenity=warn"));
    let named = LogFormat::named(std::env::var("SETTAI_LOG_FORMAT").ok().as_deref());
    let _ = subscriber(named.clone().unwrap_or(LogFormat::Text), filter, std::io::stderr).try_init();
    if let Err(value) = named {
        tracing::warn!("SETTAI_LOG_FORMAT is {value:?}, which is neither `text` nor `json`; writing text");
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A writer into memory the test reads back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_format_is_named_by_the_environment() {
        assert_eq!(LogFormat::named(None), Ok(LogFormat::Text));
        assert_eq!(LogFormat::named(Some(" ")), Ok(LogFormat::Text));
        assert_eq!(LogFormat::named(Some("JSON")), Ok(LogFormat::Json));
        assert_eq!(LogFormat::named(Some("text")), Ok(LogFormat::Text));
        assert_eq!(LogFormat::named(Some("logfmt")), Err("logfmt".to_string()));
    }

    /// Each line is one JSON object carrying the interaction's span: its ids, and the game once
    /// known, on every line logged inside it (here by a service span within it).
    #[test]
    fn json_lines_parse_and_carry_the_interactions_ids() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = subscriber(LogFormat::Json, EnvFilter::new("debug"), move || writer.clone());
        tracing::subscriber::with_default(subscriber, || {
            let interaction = crate::discord::interaction_span(1001, Some(2002), 3003, 4004);
            interaction.in_scope(|| {
                tracing::Span::current().record("game", 55_i64);
                tracing::debug_span!("bot_turn", game = 55_i64).in_scope(|| tracing::info!(ply = 3, "the bot moved"));
            });
            tracing::warn!("outside any interaction");
        });
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<serde_json::Value> =
            text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
        assert_eq!(lines.len(), 2, "{text}");
        let moved = &lines[0];
        assert_eq!(moved["fields"]["message"], "the bot moved", "{moved}");
        assert_eq!(moved["fields"]["ply"], 3);
        assert_eq!(moved["level"], "INFO");
        assert_eq!(moved["span"]["name"], "bot_turn", "the innermost span: {moved}");
        let spans = moved["spans"].as_array().expect("the spans the line is in");
        let interaction = &spans[0];
        assert_eq!(interaction["name"], "interaction", "{moved}");
        for (field, id) in [("id", 1001), ("guild", 2002), ("channel", 3003), ("user", 4004), ("game", 55)] {
            assert_eq!(interaction[field], id, "{field} in {moved}");
        }
        assert!(lines[1].get("span").is_none() && lines[1]["fields"]["message"] == "outside any interaction");
    }
}
