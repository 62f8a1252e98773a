//! Each sweep reads only the games whose turn is its business, as the `bot_to_move` column
//! stored with each position says (docs/design/bot-reliability.md#robustness): the owed-turn
//! sweep the bot's, the reminders the players'.

use super::{caller, start};
use settai::metrics::Metrics;
use settai::service::{Caller, Service};
use settai::store::Store;
use settai_core::{GameKind, Side};
use sqlx::PgPool;
use std::collections::HashMap;
use std::time::Duration;

/// The channels of the games the owed-turn sweep answers now.
async fn owed_channels(service: &Service) -> Vec<u64> {
    let owed = service.games_awaiting_bot_for(Duration::ZERO).await.unwrap();
    owed.iter().map(|r| r.channel_id).collect()
}

/// A row the sweeps cannot read is closed as void by the first that reads it, so a row
/// spoiled where it still says whose turn it is shows which sweeps read it: the owed-turn sweep
/// never reads a game the player is to move in, nor the reminders one the bot is to move in.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn each_sweep_reads_only_the_games_whose_turn_is_its_business(pool: PgPool) {
    let metrics = Metrics::new();
    let service = Service::new(Store::from_pool(pool.clone())).with_figures(metrics.figures());
    // The bot is to move in 801 and 802, the player in 803 and 804.
    let (bots, bots_spoiled_later, players, players_spoiled) = (801, 802, 803, 804);
    let mut ids = HashMap::new();
    for (channel_id, side) in [(801, Side::Second), (802, Side::Second), (803, Side::First), (804, Side::First)] {
        let here = Caller { channel_id, ..caller(11) };
        ids.insert(channel_id, start(&service, &here, GameKind::Reversi, side).await.unwrap().record.id);
    }
    sqlx::query("UPDATE games SET updated_at = now() - interval '25 hours'").execute(&pool).await.unwrap();
    // The board spoiled, the side to move (the text's last two characters) kept.
    let spoil = |channel: u64| {
        let (id, pool) = (ids[&channel], pool.clone());
        async move {
            let sql =
                "UPDATE games SET position_and_start = repeat('?', 64) || right(position_and_start, 2) WHERE id = $1";
            sqlx::query(sql).bind(id).execute(&pool).await.unwrap()
        }
    };
    let status = |channel: u64| {
        let (id, pool) = (ids[&channel], pool.clone());
        async move {
            let sql = "SELECT status FROM games WHERE id = $1";
            sqlx::query_scalar::<_, String>(sql).bind(id).fetch_one(&pool).await.unwrap()
        }
    };
    let counted = |sweep: &str| {
        let scrape = metrics.encode().unwrap();
        let prefix = format!(r#"settai_corrupt_games_total{{sweep="{sweep}"}} "#);
        let line = scrape.lines().find_map(|l| l.strip_prefix(&prefix).map(str::to_string));
        line.unwrap_or_else(|| panic!("no {prefix:?} in\n{scrape}")).parse::<u32>().unwrap()
    };

    spoil(players_spoiled).await;
    assert_eq!(owed_channels(&service).await, [bots, bots_spoiled_later]);
    assert_eq!(status(players_spoiled).await, "active", "the owed-turn sweep did not read the player's game");
    assert_eq!(counted("owed_turns"), 0);

    spoil(bots_spoiled_later).await;
    let nudged = service.owed_nudges().await.unwrap();
    assert_eq!(nudged.iter().map(|(r, _)| r.channel_id).collect::<Vec<_>>(), [players]);
    assert_eq!(status(players_spoiled).await, "void", "the reminders read it");
    assert_eq!(status(bots_spoiled_later).await, "active", "the reminders did not read the bot's game");
    assert_eq!(counted("reminders"), 1);

    assert_eq!(owed_channels(&service).await, [bots]);
    assert_eq!(status(bots_spoiled_later).await, "void", "the owed-turn sweep read it");
    assert_eq!(counted("owed_turns"), 1);
}
