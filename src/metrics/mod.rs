//! What a host watches (docs/design/operations.md): the bot's figures in the Prometheus text
//! format, and whether the process answers and can serve, on a port of its own
//! (`SETTAI_METRICS_ADDR`).
//!
//! The service and the Discord shell bump the [`Figures`] they are handed (a clone shares the
//! numbers), so each can be tested with figures of its own; the parts that know something only
//! when asked (the database, the gateway shards) are [`Watched`] at each scrape. This room names
//! no other room of the bot: it is told everything.

mod figures;
mod process;
mod server;
mod watch;

use prometheus_client::registry::Registry;

pub use figures::{Figures, Handled, AI_REFUSAL_REASONS, NONE, SWEEPS};
pub use server::serve;
pub use watch::{Check, Watched, CHECK_TIMEOUT};

/// The `Content-Type` of the Prometheus text format (0.0.4), which every scraper reads.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// The registry a scrape reads: the bot's figures, named `settai_...`.
pub struct Metrics {
    registry: Registry,
    figures: Figures,
    process: process::Process,
}

impl Metrics {
    /// Fresh figures, registered for scraping.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("settai");
        let figures = Figures::default();
        figures.register(&mut registry);
        let process = process::Process::default();
        process.register(&mut registry);
        Metrics { registry, figures, process }
    }

    /// The figures to hand to the service and the Discord shell.
    pub fn figures(&self) -> &Figures {
        &self.figures
    }

    /// Every figure as it stands (the process's read now), in the Prometheus text format.
    pub fn encode(&self) -> Result<String, std::fmt::Error> {
        self.process.read();
        let mut text = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry)?;
        Ok(text)
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn figures_read_as_prometheus_text_with_their_labels() {
        let metrics = Metrics::new();
        let figures = metrics.figures().clone();
        figures.interaction("move", ("reversi", "standard"), Handled::Ok, Some(Duration::from_millis(30)));
        figures.interaction("move", ("reversi", "standard"), Handled::Refused, None);
        figures.thought("doubutsu", "settai", Duration::from_millis(2));
        figures.set_table("building", Some(Duration::from_secs(90)));
        figures.set_shard(0, true, Some(Duration::from_millis(40)));
        figures.corrupt_game_closed("reminders");
        let text = metrics.encode().unwrap();
        for line in [
            "# TYPE settai_interactions_total counter",
            r#"settai_interactions_total{kind="move",game="reversi",level="standard",outcome="ok"} 1"#,
            r#"settai_interactions_total{kind="move",game="reversi",level="standard",outcome="refused"} 1"#,
            r#"settai_ack_seconds_bucket{kind="move",game="reversi",level="standard",le="0.05"} 1"#,
            r#"settai_ack_seconds_count{kind="move",game="reversi",level="standard"} 1"#,
            r#"settai_think_seconds_count{game="doubutsu",level="settai"} 1"#,
            r#"settai_doubutsu_table_state{state="building"} 1"#,
            r#"settai_doubutsu_table_state{state="ready"} 0"#,
            "settai_doubutsu_table_ready_in_seconds 90.0",
            r#"settai_gateway_latency_seconds{shard="0"} 0.04"#,
            r#"settai_gateway_shard_up{shard="0"} 1"#,
            r#"settai_ai_refusals_total{reason="pool_full"} 0"#,
            r#"settai_ai_refusals_total{reason="server_share"} 0"#,
            r#"settai_corrupt_games_total{sweep="idle"} 0"#,
            r#"settai_corrupt_games_total{sweep="owed_turns"} 0"#,
            r#"settai_corrupt_games_total{sweep="reminders"} 1"#,
        ] {
            assert!(text.lines().any(|l| l == line), "no line {line:?} in\n{text}");
        }
    }
}
