//! How many statements the database runs for one tap of a move, as the Discord flow makes it
//! (the read of the place, the human's move, the bot's move), counted from sqlx's own log
//! of every statement it runs: a change that adds round trips to a tap shows here.
//!
//! Its own test binary: the count is process-wide, so nothing else may run beside it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

use settai::domain::{Change, Scope, Venue};
use settai::service::{Caller, Service};
use settai::store::Store;
use settai_core::{doubutsu, GameKind, Level, Side};
use sqlx::PgPool;
use tracing_subscriber::layer::{Context, SubscriberExt as _};
use tracing_subscriber::{EnvFilter, Layer};

/// Statements sqlx has run in this process since the counter was installed.
static STATEMENTS: AtomicUsize = AtomicUsize::new(0);

/// Counts sqlx's statement events (target `sqlx::query`, one per statement run).
struct CountStatements;

impl<S: tracing::Subscriber> Layer<S> for CountStatements {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        if event.metadata().target() == "sqlx::query" {
            STATEMENTS.fetch_add(1, Ordering::SeqCst);
        }
    }
}

fn count_statements() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let layer = CountStatements.with_filter(EnvFilter::new("sqlx::query=trace"));
        tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer))
            .expect("the only subscriber of this test binary");
    });
}

fn caller(channel_id: u64) -> Caller {
    Caller { guild_id: Some(1), channel_id, parent_id: None, user_id: 11, name: "Alice".into(), venue: Venue::Server }
}

/// The statements of one tap: what `discord::flows` runs for a move chosen on a board.
async fn one_tap(service: &Service, caller: &Caller, mv: &str) -> usize {
    let game = service.snapshot(&caller.place(), Some(caller.user_id)).await.unwrap().game.unwrap().record;
    let before = STATEMENTS.load(Ordering::SeqCst);
    // The handler reads the place once for the interaction: its settings and its game.
    let snapshot = service.snapshot(&caller.place(), Some(caller.user_id)).await.unwrap();
    let human = service.human_move(caller, &snapshot, mv, Some((game.id, game.ply))).await.unwrap();
    let bot = service.bot_turn(human.game).await.unwrap();
    assert_eq!(bot.game.record.ply, game.ply + 2, "the move and the bot's were stored");
    STATEMENTS.load(Ordering::SeqCst) - before
}

/// Statements a tap may cost, per game: one read of the place (settings, game and moves
/// together), one statement storing the player's move, one storing the bot's move. Before
/// the one-load request (2026-12-04) a tap ran 10 (reversi) and 9 (doubutsu): the game, its
/// move list and the settings were each read more than once (docs/notebook/2026-12-04-the-house.md).
/// A ceiling only moves down.
const CEILINGS: [(GameKind, usize); 2] = [(GameKind::Reversi, 3), (GameKind::Doubutsu, 3)];

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_tap_costs_a_bounded_number_of_round_trips(pool: PgPool) {
    count_statements();
    let service = Service::new(Store::from_pool(pool)).with_seed(Some(1));
    let mut counts = Vec::new();
    for (channel, (kind, mv)) in [(700, (GameKind::Reversi, "f5")), (701, (GameKind::Doubutsu, "B3B2"))] {
        let caller = caller(channel);
        if kind == GameKind::Doubutsu {
            // The default doubutsu level plays from the table, which this test does not build.
            let weakest = Change::Level(Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest));
            service.change_setting(1, &caller.place(), Scope::Server, weakest).await.unwrap();
        }
        let snapshot = service.snapshot(&caller.place(), Some(caller.user_id)).await.unwrap();
        service.start(&caller, &snapshot, kind, Side::First, None).await.unwrap();
        let statements = one_tap(&service, &caller, mv).await;
        eprintln!("{kind}: one tap ran {statements} statements");
        counts.push(statements);
    }
    for ((kind, ceiling), statements) in CEILINGS.into_iter().zip(counts) {
        assert!(statements >= 1, "{kind}: the counter sees the statements ({statements})");
        assert!(statements <= ceiling, "{kind}: a tap ran {statements} statements, more than {ceiling}");
    }
}
