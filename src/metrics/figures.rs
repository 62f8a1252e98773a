//! The figures the bot keeps for its host (docs/design/operations.md#the-figures): counters and
//! histograms bumped where things happen, gauges set when a scrape asks (see `watch.rs`).
//! Labels are fixed words (a game, a level, what an interaction asked for), never ids: a
//! series per player or channel would grow without end.

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use super::watch::{check_parts, Watched};

/// The label value for "no game" or "no level" (a `/settings` command, a refusal before the game
/// was known).
pub const NONE: &str = "none";

/// One interaction: what it asked for, in which game at which level, and how it ended.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct InteractionLabels {
    kind: &'static str,
    game: &'static str,
    level: &'static str,
    outcome: &'static str,
}

/// What an interaction asked for, in which game at which level.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct AskLabels {
    kind: &'static str,
    game: &'static str,
    level: &'static str,
}

/// A game and the bot's level in it.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LevelLabels {
    game: &'static str,
    level: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct GameLabel {
    game: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReasonLabel {
    reason: &'static str,
}

/// Why the AI pool turns a move away (docs/design/operations.md#fairness): it is full, or the
/// move's server (or channel outside servers) holds its share of it.
pub const AI_REFUSAL_REASONS: [&str; 2] = ["pool_full", "server_share"];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SweepLabel {
    sweep: &'static str,
}

/// The sweeps that read many games at once and close a corrupt one they find
/// (docs/design/operations.md#the-figures): games idle past their limit, games owed a reminder,
/// games owed the bot's turn.
pub const SWEEPS: [&str; 3] = ["idle", "reminders", "owed_turns"];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabel {
    state: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ShardLabel {
    shard: u32,
}

type Seconds = Gauge<f64, AtomicU64>;
type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// Acknowledgements: Discord drops an interaction unanswered after 3 s, and the bot
/// acknowledges by itself at 1 s (docs/design/bot-reliability.md), so the buckets crowd there.
fn ack_buckets() -> Histogram {
    Histogram::new([0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0])
}

/// The bot's thinking: a table lookup takes a millisecond, a reversi search up to 2.4 s, and
/// a wait for a free AI thread adds to either.
fn think_buckets() -> Histogram {
    Histogram::new([0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0])
}

/// The bot's figures; cheap to clone (every clone bumps the same numbers). A `Figures` made
/// with `default()` counts for nobody (tests and the terminal keep one without a registry);
/// [`super::Metrics`] registers its own for scraping.
#[derive(Clone)]
pub struct Figures {
    ready: Gauge,
    interactions: Family<InteractionLabels, Counter>,
    ack_seconds: Histograms<AskLabels>,
    think_seconds: Histograms<LevelLabels>,
    ai_queue_depth: Gauge,
    ai_refusals: Family<ReasonLabel, Counter>,
    active_games: Family<GameLabel, Gauge>,
    reminders_sent: Family<KindLabel, Counter>,
    corrupt_games: Family<SweepLabel, Counter>,
    table_state: Family<StateLabel, Gauge>,
    table_ready_in: Seconds,
    db_connections: Family<StateLabel, Gauge>,
    db_max_connections: Gauge,
    db_errors: Counter,
    gateway_latency: Family<ShardLabel, Seconds>,
    shard_up: Family<ShardLabel, Gauge>,
    /// The parts of the bot a scrape or a readiness check asks (held weakly: a part that is
    /// gone is no longer asked, and nothing here keeps it alive).
    watched: Arc<Mutex<Vec<Weak<dyn Watched>>>>,
}

impl Default for Figures {
    fn default() -> Figures {
        let ai_refusals = Family::<ReasonLabel, Counter>::default();
        // Every reason shows from the start, at 0, so that a rate over it is never empty.
        for reason in AI_REFUSAL_REASONS {
            ai_refusals.get_or_create(&ReasonLabel { reason }).inc_by(0);
        }
        let corrupt_games = Family::<SweepLabel, Counter>::default();
        for sweep in SWEEPS {
            corrupt_games.get_or_create(&SweepLabel { sweep }).inc_by(0);
        }
        Figures {
            ready: Gauge::default(),
            interactions: Family::default(),
            ack_seconds: Family::new_with_constructor(ack_buckets),
            think_seconds: Family::new_with_constructor(think_buckets),
            ai_queue_depth: Gauge::default(),
            ai_refusals,
            active_games: Family::default(),
            reminders_sent: Family::default(),
            corrupt_games,
            table_state: Family::default(),
            table_ready_in: Seconds::default(),
            db_connections: Family::default(),
            db_max_connections: Gauge::default(),
            db_errors: Counter::default(),
            gateway_latency: Family::default(),
            shard_up: Family::default(),
            watched: Arc::default(),
        }
    }
}

impl std::fmt::Debug for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Figures").finish_non_exhaustive()
    }
}

/// How an interaction ended, as the figures count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handled {
    /// Done as asked.
    Ok,
    /// Refused before anything changed (a bad move, someone else's game, busy).
    Refused,
    /// Failed: the database, the AI or Discord.
    Error,
}

impl Handled {
    /// The label value.
    pub fn as_str(self) -> &'static str {
        match self {
            Handled::Ok => "ok",
            Handled::Refused => "refused",
            Handled::Error => "error",
        }
    }
}

impl Figures {
    /// Registers every figure in `registry` under its name (the registry adds `settai_`).
    pub(super) fn register(&self, registry: &mut Registry) {
        let r = registry;
        r.register(
            "ready",
            "1 when the last scrape found the bot ready (as /readyz would answer 200), else 0",
            self.ready.clone(),
        );
        r.register(
            "interactions",
            "Interactions answered, by what they asked for, game, level and outcome",
            self.interactions.clone(),
        );
        r.register(
            "ack_seconds",
            "Time from receiving an interaction to its first response (an answer or an acknowledgement)",
            self.ack_seconds.clone(),
        );
        r.register(
            "think_seconds",
            "Time the bot took to find its move, waiting for a free AI thread included",
            self.think_seconds.clone(),
        );
        r.register("ai_queue_depth", "AI requests waiting for or running on the AI pool", self.ai_queue_depth.clone());
        r.register(
            "ai_refusals",
            "Moves refused as busy, by reason: the AI pool was full, or the server held its share of it",
            self.ai_refusals.clone(),
        );
        r.register("active_games", "Games in progress in the database, by game", self.active_games.clone());
        r.register("reminders_sent", "Reminders and final notices posted, by kind", self.reminders_sent.clone());
        r.register(
            "corrupt_games",
            "Stored games a sweep found corrupt and closed (void), by sweep: idle, reminders, owed_turns",
            self.corrupt_games.clone(),
        );
        r.register(
            "doubutsu_table_state",
            "The doubutsu table: 1 for its current state (ready, building, unavailable)",
            self.table_state.clone(),
        );
        r.register(
            "doubutsu_table_ready_in_seconds",
            "While the doubutsu table is being built: the estimate of the time left",
            self.table_ready_in.clone(),
        );
        r.register(
            "db_connections",
            "Connections of the database pool, by state (busy, idle)",
            self.db_connections.clone(),
        );
        r.register(
            "db_max_connections",
            "The most connections the database pool opens",
            self.db_max_connections.clone(),
        );
        r.register("db_errors", "Requests and sweeps that failed on the database", self.db_errors.clone());
        r.register(
            "gateway_latency_seconds",
            "Each gateway shard's last heartbeat round trip",
            self.gateway_latency.clone(),
        );
        r.register("gateway_shard_up", "Each gateway shard of this process: 1 when connected", self.shard_up.clone());
    }

    /// Counts an interaction, and how long its first response took when it had one.
    pub fn interaction(
        &self,
        kind: &'static str,
        (game, level): (&'static str, &'static str),
        handled: Handled,
        acknowledged_after: Option<Duration>,
    ) {
        // The label keeps the name `outcome` that dashboards query (ARCHITECTURE.md's Words
        // allow it as an external name).
        let outcome = handled.as_str();
        self.interactions.get_or_create(&InteractionLabels { kind, game, level, outcome }).inc();
        if let Some(after) = acknowledged_after {
            self.ack_seconds.get_or_create(&AskLabels { kind, game, level }).observe(after.as_secs_f64());
        }
    }

    /// Records how long the bot took to find a move in `game` at `level`.
    pub fn thought(&self, game: &'static str, level: &'static str, took: Duration) {
        self.think_seconds.get_or_create(&LevelLabels { game, level }).observe(took.as_secs_f64());
    }

    /// Counts a move refused as busy, for `reason` (one of [`AI_REFUSAL_REASONS`]).
    pub fn ai_refused(&self, reason: &'static str) {
        self.ai_refusals.get_or_create(&ReasonLabel { reason }).inc();
    }

    /// Sets how many AI requests wait or run.
    pub fn set_ai_queue_depth(&self, depth: usize) {
        self.ai_queue_depth.set(i64::try_from(depth).unwrap_or(i64::MAX));
    }

    /// Counts a reminder (`kind`: `reminder` or `final_notice`) posted.
    pub fn reminder_sent(&self, kind: &'static str) {
        self.reminders_sent.get_or_create(&KindLabel { kind }).inc();
    }

    /// Counts a stored game that `sweep` (one of [`SWEEPS`]) found corrupt and closed.
    pub fn corrupt_game_closed(&self, sweep: &'static str) {
        self.corrupt_games.get_or_create(&SweepLabel { sweep }).inc();
    }

    /// Counts a request or sweep that failed on the database.
    pub fn database_error(&self) {
        self.db_errors.inc();
    }

    /// Sets the games in progress, per game (every game the bot plays should be listed, with 0
    /// where there is none).
    pub fn set_active_games(&self, counts: &[(&'static str, i64)]) {
        for &(game, count) in counts {
            self.active_games.get_or_create(&GameLabel { game }).set(count);
        }
    }

    /// Sets the doubutsu table's state (`ready`, `building` or `unavailable`) and, while it is
    /// being built, the estimate of the time left.
    pub fn set_table(&self, state: &'static str, ready_in: Option<Duration>) {
        for s in ["ready", "building", "unavailable"] {
            self.table_state.get_or_create(&StateLabel { state: s }).set(i64::from(s == state));
        }
        self.table_ready_in.set(ready_in.map_or(0.0, |d| d.as_secs_f64()));
    }

    /// Sets the database pool's use: connections open, of which idle, and the most it opens.
    pub fn set_database_pool(&self, open: u32, idle: usize, max: u32) {
        let idle = i64::try_from(idle).unwrap_or(i64::MAX);
        self.db_connections.get_or_create(&StateLabel { state: "idle" }).set(idle);
        self.db_connections.get_or_create(&StateLabel { state: "busy" }).set((i64::from(open) - idle).max(0));
        self.db_max_connections.set(i64::from(max));
    }

    /// Sets a gateway shard's state and, once a heartbeat came back, its latency.
    pub fn set_shard(&self, shard: u32, connected: bool, latency: Option<Duration>) {
        self.shard_up.get_or_create(&ShardLabel { shard }).set(i64::from(connected));
        if let Some(latency) = latency {
            self.gateway_latency.get_or_create(&ShardLabel { shard }).set(latency.as_secs_f64());
        }
    }

    /// Asks `part` at every scrape and readiness check from now on, for as long as it lives
    /// elsewhere.
    pub fn watch<W: Watched + 'static>(&self, part: &Arc<W>) {
        let part: Arc<dyn Watched> = part.clone();
        let mut watched = self.watched.lock().unwrap_or_else(|e| e.into_inner());
        watched.retain(|w| w.strong_count() > 0);
        watched.push(Arc::downgrade(&part));
    }

    /// Asks every part watched that is still alive: the figures they read on demand are
    /// brought up to date, and the bot is ready when at least one part is watched (it serves)
    /// and every one is. `Err` lists what is wrong.
    pub async fn check_all(&self) -> Result<(), Vec<String>> {
        let parts: Vec<Arc<dyn Watched>> = {
            let watched = self.watched.lock().unwrap_or_else(|e| e.into_inner());
            watched.iter().filter_map(Weak::upgrade).collect()
        };
        let checked = check_parts(parts).await;
        self.ready.set(i64::from(checked.is_ok()));
        checked
    }
}
