//! The players' data on request, against a real Postgres (docs/design/players-data.md): a
//! player's data exported and erased, and a server's deleted after it removed the bot, through
//! the service and through `settai data`. Nothing of the player may remain; nobody else's games
//! or results may change.

mod support;

use std::process::Command;

use serde_json::Value;
use settai::domain::{
    Change, DataCounts, GameStatus, Scope, StoredGame, Venue, DEPARTED_GUILD_GRACE_DAYS, FORGOTTEN_PLAYER,
};
use settai::service::{Caller, Service};
use settai::store::Store;
use settai_core::doubutsu::DoubutsuLevel;
use settai_core::{GameKind, Level, Side};
use sqlx::PgPool;

/// Players and servers with ids shaped like Discord's, so that no other column holds them by
/// chance.
const ALICE: u64 = 1_200_000_000_000_000_011;
const BOB: u64 = 1_200_000_000_000_000_012;
const HOME: u64 = 1_200_000_000_000_000_100;
const AWAY: u64 = 1_200_000_000_000_000_200;
const ALICE_NAME: &str = "Alice the Careful";

fn caller(guild: u64, channel: u64, user_id: u64) -> Caller {
    let name = if user_id == ALICE { ALICE_NAME.to_string() } else { format!("player {user_id}") };
    Caller { guild_id: Some(guild), channel_id: channel, parent_id: None, user_id, name, venue: Venue::Server }
}

/// The game in `caller`'s channel, as a request reads it.
async fn current(service: &Service, caller: &Caller) -> StoredGame {
    service.snapshot(&caller.place(), Some(caller.user_id)).await.unwrap().game.expect("a game here")
}

/// Starts doubutsu shogi for `caller`.
async fn start(service: &Service, caller: &Caller) -> StoredGame {
    let snapshot = service.snapshot(&caller.place(), Some(caller.user_id)).await.unwrap();
    service.start(caller, &snapshot, GameKind::Doubutsu, Side::First, None).await.unwrap()
}

/// `caller` plays the first legal move of the channel's game that does not lose at once, and
/// the bot answers.
async fn play_one(service: &Service, caller: &Caller) {
    let game = current(service, caller).await.record.game;
    let mv = game.legal_moves().into_iter().find(|&m| !game.loses_at_once(m)).expect("a safe move").to_string();
    let snapshot = service.snapshot(&caller.place(), Some(caller.user_id)).await.unwrap();
    let turn = service.human_move(caller, &snapshot, &mv, None).await.unwrap();
    service.finish_turn(turn).await.unwrap();
}

async fn resign(service: &Service, caller: &Caller) {
    let snapshot = service.snapshot(&caller.place(), Some(caller.user_id)).await.unwrap();
    service.resign(caller, &snapshot, None).await.unwrap();
}

/// HOME, in team play with take-backs, where:
/// - Alice played, took back, played again and resigned in channel 500 (a finished game);
/// - Alice has a game on in channel 501;
/// - Bob started a game in channel 502 where Alice and Bob each moved, then Bob resigned;
/// - Alice chose no reminders and her own hints.
///
/// And AWAY, with settings of its own and a game of Bob's. Returns the ids of Alice's game on
/// and of Bob's game at HOME.
async fn a_family_server(service: &Service) -> (i64, i64) {
    for guild in [HOME, AWAY] {
        let place = caller(guild, 500, BOB).place();
        let weakest = Change::Level(Level::Doubutsu(DoubutsuLevel::Weakest));
        service.change_setting(guild, &place, Scope::Server, weakest).await.unwrap();
    }
    let home = caller(HOME, 500, BOB).place();
    service.change_setting(HOME, &home, Scope::Server, Change::TeamPlay(true)).await.unwrap();
    service.change_setting(HOME, &home, Scope::Server, Change::Takeback(true)).await.unwrap();
    let away = caller(AWAY, 700, BOB).place();
    service.change_setting(AWAY, &away, Scope::Channel, Change::Commentary(true)).await.unwrap();

    let alice = caller(HOME, 500, ALICE);
    start(service, &alice).await;
    play_one(service, &alice).await;
    let snapshot = service.snapshot(&alice.place(), Some(ALICE)).await.unwrap();
    service.take_back(&alice, &snapshot, None).await.unwrap();
    play_one(service, &alice).await;
    resign(service, &alice).await;

    let on = caller(HOME, 501, ALICE);
    start(service, &on).await;
    play_one(service, &on).await;
    let alice_on = current(service, &on).await.record.id;

    let bob = caller(HOME, 502, BOB);
    start(service, &bob).await;
    play_one(service, &caller(HOME, 502, ALICE)).await;
    play_one(service, &bob).await;
    let bobs = current(service, &bob).await.record.id;
    resign(service, &bob).await;

    service.set_reminders_wanted(&alice, false).await.unwrap();
    service.set_hints_choice(&alice, Some(true)).await.unwrap();

    let away_game = caller(AWAY, 700, BOB);
    start(service, &away_game).await;
    play_one(service, &away_game).await;
    (alice_on, bobs)
}

/// Every row of every table, as text: what a search for a player's traces looks at.
async fn every_row(pool: &PgPool) -> Vec<String> {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::TEXT FROM information_schema.tables
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_sqlx_migrations'",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert!(tables.len() >= 6, "the tables: {tables:?}");
    let mut rows = Vec::new();
    for table in tables {
        let found: Vec<String> =
            sqlx::query_scalar(&format!("SELECT t::TEXT FROM {table} t")).fetch_all(pool).await.unwrap();
        rows.extend(found.into_iter().map(|row| format!("{table}: {row}")));
    }
    rows
}

/// The rows that mention `needle`.
async fn rows_with(pool: &PgPool, needle: &str) -> Vec<String> {
    every_row(pool).await.into_iter().filter(|row| row.contains(needle)).collect()
}

/// A player's results and take-backs everywhere, as `/play stats` counts them.
async fn results(service: &Service, guild: u64, user_id: u64) -> Vec<String> {
    let record = service.results_of(&caller(guild, 500, user_id)).await.unwrap();
    record.iter().map(|(kind, r)| format!("{kind:?} {}/{}/{} tb {}", r.wins, r.losses, r.draws, r.takebacks)).collect()
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_player_is_erased_and_nobody_else_changes(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    let (alice_on, bobs) = a_family_server(&service).await;
    assert!(!rows_with(&pool, &ALICE.to_string()).await.is_empty() && !rows_with(&pool, ALICE_NAME).await.is_empty());
    let counts = service.data_counts(ALICE).await.unwrap();
    assert_eq!(
        counts,
        DataCounts { finished_games: 1, games_in_progress: 1, moves_in_others_games: 1, choices: true },
        "what the question names"
    );
    assert_eq!(results(&service, HOME, ALICE).await[1], "Doubutsu 0/1/0 tb 1");
    let bob_before = (results(&service, HOME, BOB).await, results(&service, AWAY, BOB).await);
    let rows_before: Vec<String> = every_row(&pool).await.into_iter().filter(|r| !r.contains("games:")).collect();

    let done = service.forget_player(ALICE).await.unwrap();
    assert_eq!(done.games, 2);
    assert_eq!(done.ended, vec![alice_on]);
    assert_eq!(done.moves, 3, "one in her finished game (the other taken back), one in the game on, one in Bob's");
    assert!(done.choices);

    // Nothing of hers anywhere: neither her id nor her name.
    assert_eq!(rows_with(&pool, &ALICE.to_string()).await, Vec::<String>::new());
    assert_eq!(rows_with(&pool, ALICE_NAME).await, Vec::<String>::new());
    assert!(service.data_counts(ALICE).await.unwrap().is_empty());
    assert!(results(&service, HOME, ALICE).await.iter().all(|r| r.ends_with("0/0/0 tb 0")));
    // Her game on ended, so the channel is free; Bob's results and games are as they were,
    // his game keeps every move (hers too, without her id).
    let store = Store::from_pool(pool.clone());
    let ended = store.game(alice_on).await.unwrap().unwrap();
    assert_eq!((ended.status, ended.human_id), (GameStatus::Resigned, FORGOTTEN_PLAYER));
    start(&service, &caller(HOME, 501, BOB)).await;
    assert_eq!((results(&service, HOME, BOB).await, results(&service, AWAY, BOB).await), bob_before);
    let moves = store.moves(bobs).await.unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves.iter().filter(|m| m.user_id == Some(BOB)).count(), 1);
    assert_eq!(moves.iter().filter(|m| m.user_id.is_none()).count(), 3, "{moves:?}");
    // Moves and settings other than hers are untouched (the games table changed by design).
    let rows_after: Vec<String> = every_row(&pool).await.into_iter().filter(|r| !r.contains("games:")).collect();
    let lost: Vec<&String> = rows_before.iter().filter(|r| !rows_after.contains(r)).collect();
    assert!(lost.iter().all(|r| r.starts_with("player_settings:") || r.starts_with("moves:")), "{lost:?}");
    assert_eq!(lost.iter().filter(|r| r.starts_with("moves:")).count(), 3);

    // Forgetting again finds nothing, and changes nothing.
    let rows = every_row(&pool).await;
    let again = service.forget_player(ALICE).await.unwrap();
    assert_eq!((again.games, again.moves, again.choices, again.ended.len()), (0, 0, false, 0));
    assert_eq!(every_row(&pool).await, rows);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_players_export_holds_all_of_theirs_and_nobody_elses_id(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    let (alice_on, bobs) = a_family_server(&service).await;
    let data = serde_json::to_value(service.player_data(ALICE).await.unwrap()).unwrap();
    let text = data.to_string();
    assert!(!text.contains(&BOB.to_string()), "another player's id in the export: {text}");
    assert_eq!(data["user_id"], Value::String(ALICE.to_string()));
    assert_eq!(data["choices"]["reminders"], Value::Bool(false));
    assert_eq!(data["choices"]["hints"], Value::Bool(true));
    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    let statuses: Vec<&str> = games.iter().map(|g| g["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["resigned", "active"]);
    assert_eq!(games[0]["takebacks"], 1);
    assert_eq!(games[0]["name"], ALICE_NAME);
    assert_eq!(games[0]["guild_id"], Value::String(HOME.to_string()));
    assert_eq!(games[1]["id"], alice_on);
    // Every move of her games, each said by whom, in order.
    let store = Store::from_pool(pool.clone());
    for game in games {
        let stored = store.moves(game["id"].as_i64().unwrap()).await.unwrap();
        let exported = game["moves"].as_array().unwrap();
        assert_eq!(exported.len(), stored.len());
        for (e, s) in exported.iter().zip(&stored) {
            assert_eq!(e["notation"].as_str().unwrap(), s.notation);
            assert_eq!(e["ply"].as_u64().unwrap(), u64::from(s.ply));
            let by = if s.user_id == Some(ALICE) { "you" } else { "bot" };
            assert_eq!(e["by"].as_str().unwrap(), by);
        }
    }
    let others = data["moves_in_others_games"].as_array().unwrap();
    assert_eq!(others.len(), 1);
    assert_eq!((others[0]["game_id"].as_i64(), others[0]["by"].as_str()), (Some(bobs), Some("you")));
    // Bob's own export names her move in his game as another player's.
    let bob = serde_json::to_value(service.player_data(BOB).await.unwrap()).unwrap();
    assert!(!bob.to_string().contains(&ALICE.to_string()));
    let his = bob["games"].as_array().unwrap().iter().find(|g| g["id"] == bobs).unwrap();
    let by: Vec<&str> = his["moves"].as_array().unwrap().iter().map(|m| m["by"].as_str().unwrap()).collect();
    assert_eq!(by, ["another player", "bot", "you", "bot"]);
}

/// When the server's departure was recorded, moved `days` into the past.
async fn left_days_ago(pool: &PgPool, guild: u64, days: i32) {
    sqlx::query("UPDATE guild_departures SET left_at = now() - make_interval(days => $2) WHERE guild_id = $1")
        .bind(guild as i64)
        .bind(days)
        .execute(pool)
        .await
        .unwrap();
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_server_that_removed_the_bot_is_deleted_after_the_grace_period(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    a_family_server(&service).await;
    let away_game: i64 = sqlx::query_scalar("SELECT id FROM games WHERE guild_id = $1")
        .bind(AWAY as i64)
        .fetch_one(&pool)
        .await
        .unwrap();
    let away_move = format!("moves: ({away_game},");
    let home_before: Vec<String> = every_row(&pool)
        .await
        .into_iter()
        .filter(|r| !r.contains(&AWAY.to_string()) && !r.starts_with(&away_move))
        .collect();
    assert!(!rows_with(&pool, &AWAY.to_string()).await.is_empty());
    let grace = DEPARTED_GUILD_GRACE_DAYS as i32;

    // Within the grace period nothing goes; a departure noted twice keeps its first date.
    service.guild_left(AWAY).await.unwrap();
    left_days_ago(&pool, AWAY, grace - 1).await;
    service.guild_left(AWAY).await.unwrap();
    assert_eq!(service.purge_departed_guilds().await.unwrap(), vec![]);
    // Coming back cancels it: even long after, nothing goes.
    service.guild_present(AWAY).await.unwrap();
    assert_eq!(service.purge_departed_guilds().await.unwrap(), vec![]);
    service.guild_left(AWAY).await.unwrap();
    left_days_ago(&pool, AWAY, grace + 1).await;
    service.guild_present(AWAY).await.unwrap();
    assert_eq!(service.purge_departed_guilds().await.unwrap(), vec![]);
    let moves_before: i64 = sqlx::query_scalar("SELECT count(*) FROM moves").fetch_one(&pool).await.unwrap();

    // Past it, the server's settings, channels' settings, games and moves go; HOME stays whole.
    service.guild_left(AWAY).await.unwrap();
    left_days_ago(&pool, AWAY, grace).await;
    assert_eq!(service.purge_departed_guilds().await.unwrap(), vec![(AWAY, 1)]);
    assert_eq!(rows_with(&pool, &AWAY.to_string()).await, Vec::<String>::new());
    let moves_after: i64 = sqlx::query_scalar("SELECT count(*) FROM moves").fetch_one(&pool).await.unwrap();
    assert_eq!(moves_after, moves_before - 2, "the away game's two moves went with it");
    let home_after: Vec<String> = every_row(&pool).await;
    assert_eq!(home_after, home_before);
    assert_eq!(service.purge_departed_guilds().await.unwrap(), vec![]);
}

// ── the operator's `settai data` ──

/// `settai data ...` on the test's database.
fn settai_data(pool: &PgPool, args: &[&str]) -> (bool, String, String) {
    let url = support::database_url(pool);
    let out = Command::new(env!("CARGO_BIN_EXE_settai"))
        // The developer's .env never reaches a test (src/config.rs env_file).
        .env("SETTAI_ENV_FILE", "/dev/null")
        .arg("data")
        .args(args)
        .env("DATABASE_URL", url)
        .env("DISCORD_TOKEN", "")
        .output()
        .expect("the binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_operator_exports_and_erases_only_when_told_yes(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    a_family_server(&service).await;
    let alice = ALICE.to_string();

    let (ok, json, err) = settai_data(&pool, &["export", "--user", &alice]);
    assert!(ok, "{err}");
    let exported: Value = serde_json::from_str(&json).expect("the export is JSON");
    assert_eq!(exported, serde_json::to_value(service.player_data(ALICE).await.unwrap()).unwrap());

    // Without --yes: what would go, and nothing goes.
    let rows = every_row(&pool).await;
    let (ok, said, err) = settai_data(&pool, &["forget", "--user", &alice]);
    assert!(ok, "{err}");
    assert!(said.contains("1 finished game, 1 game in progress") && said.contains("--yes"), "{said}");
    let (ok, said, err) = settai_data(&pool, &["forget", "--guild", &AWAY.to_string()]);
    assert!(ok && said.contains("1 game,") && said.contains("--yes"), "{said} {err}");
    assert_eq!(every_row(&pool).await, rows);

    let (ok, said, err) = settai_data(&pool, &["forget", "--user", &alice, "--yes"]);
    assert!(ok && said.contains("erased"), "{said} {err}");
    assert_eq!(rows_with(&pool, &alice).await, Vec::<String>::new());
    let (ok, said, _) = settai_data(&pool, &["forget", "--user", &alice, "--yes"]);
    assert!(ok && said.contains("nothing is kept"), "{said}");
    let (ok, said, err) = settai_data(&pool, &["forget", "--guild", &AWAY.to_string(), "--yes"]);
    assert!(ok && said.contains("deleted server"), "{said} {err}");
    assert_eq!(rows_with(&pool, &AWAY.to_string()).await, Vec::<String>::new());

    // Whom to forget must be said, once.
    let (ok, _, err) = settai_data(&pool, &["forget"]);
    assert!(!ok && err.contains("--user"), "{err}");
    let (ok, _, err) = settai_data(&pool, &["forget", "--user", &alice, "--guild", "1"]);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
}
