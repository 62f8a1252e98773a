//! The store against a real Postgres: one fresh database per test (`#[sqlx::test]`).

use settai::domain::{Change, Finish, GameResult, GameStatus, NewGame, NewMove, Place, Scope, Setting, Settings};
use settai::i18n::Lang;
use settai::store::{Batch, Store, StoreError};
use settai_core::{doubutsu, reversi, Game, GameKind, GameMove, Level, Side};
use sqlx::PgPool;

#[path = "store/board_message.rs"]
mod board_message;
#[path = "store/stored_once.rs"]
mod stored_once;
#[path = "store/whose_turn.rs"]
mod whose_turn;

fn new_game(channel_id: u64) -> NewGame {
    NewGame {
        guild_id: Some(1),
        channel_id,
        human_id: 7,
        human_name: "Mika".into(),
        parent_id: None,
        human_side: Side::First,
        level: Level::Reversi(reversi::ReversiLevel::Standard),
        game: Game::new(GameKind::Reversi),
        private_channel: false,
        house_rules: None,
    }
}

/// A reversi move from its notation.
fn mv(notation: &str) -> GameMove {
    GameMove::parse(GameKind::Reversi, notation).unwrap()
}

fn human(notation: &str) -> NewMove {
    NewMove { mv: mv(notation), by_bot: false, user_id: Some(7) }
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn one_active_game_per_channel_is_enforced_by_the_database(pool: PgPool) {
    let store = Store::from_pool(pool.clone());
    let first = store.create_game(&new_game(100)).await.unwrap();
    assert!(matches!(store.create_game(&new_game(100)).await, Err(StoreError::ChannelBusy)));
    // Another channel is free.
    store.create_game(&new_game(101)).await.unwrap();
    // The index itself refuses a second active row, whatever the code does.
    let raw = sqlx::query("INSERT INTO games (channel_id, kind, level, human_id, human_side, position_and_start) VALUES (100, 'reversi', 'standard', 1, 0, 'x')")
        .execute(&pool)
        .await;
    assert!(raw.is_err());
    // Once the game ends, the channel takes a new one.
    store.end_game(&first, GameStatus::Resigned, GameResult::Bot).await.unwrap();
    let second = store.create_game(&new_game(100)).await.unwrap();
    assert_ne!(first.id, second.id);
    assert_eq!(store.active_game(100).await.unwrap().unwrap().id, second.id);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn moves_are_recorded_with_the_position_in_one_step(pool: PgPool) {
    let store = Store::from_pool(pool);
    let record = store.create_game(&new_game(5)).await.unwrap();
    assert_eq!((record.ply, record.version, record.status), (0, 0, GameStatus::Active));
    let after = record.game.play(mv("f5")).unwrap();
    let after2 = after.play(mv("d6")).unwrap();
    let updated = store
        .record_moves(&record, &[human("f5"), NewMove { mv: mv("d6"), by_bot: true, user_id: None }], &after2, None)
        .await
        .unwrap();
    assert_eq!(updated.ply, 2);
    assert_eq!(updated.version, 1);
    assert_eq!(updated.game, after2);
    let reloaded = store.game(record.id).await.unwrap().unwrap();
    assert_eq!(reloaded.game, after2);
    let moves = store.moves(record.id).await.unwrap();
    assert_eq!(
        moves.iter().map(|m| (m.ply, m.notation.as_str(), m.by_bot)).collect::<Vec<_>>(),
        vec![(1, "f5", false), (2, "d6", true)]
    );
    assert_eq!(moves[0].user_id, Some(7));
    assert_eq!(moves[1].user_id, None);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_stale_version_changes_nothing(pool: PgPool) {
    let store = Store::from_pool(pool);
    let record = store.create_game(&new_game(5)).await.unwrap();
    let after = record.game.play(mv("f5")).unwrap();
    store.record_moves(&record, &[human("f5")], &after, None).await.unwrap();
    // Same read version again: refused, nothing written.
    let other = record.game.play(mv("c4")).unwrap();
    assert!(matches!(store.record_moves(&record, &[human("c4")], &other, None).await, Err(StoreError::Conflict)));
    let reloaded = store.game(record.id).await.unwrap().unwrap();
    assert_eq!(reloaded.game, after);
    assert_eq!(reloaded.ply, 1);
    assert_eq!(store.moves(record.id).await.unwrap().len(), 1);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn concurrent_moves_on_one_version_apply_exactly_once(pool: PgPool) {
    let store = Store::from_pool(pool);
    let record = store.create_game(&new_game(9)).await.unwrap();
    let mut tasks = Vec::new();
    for text in ["f5", "e6", "d3", "c4"] {
        let (store, record) = (store.clone(), record.clone());
        tasks.push(tokio::spawn(async move {
            let after = record.game.play(mv(text)).unwrap();
            store.record_moves(&record, &[human(text)], &after, None).await
        }));
    }
    let mut ok = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => ok += 1,
            Err(StoreError::Conflict) => {}
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    assert_eq!(ok, 1);
    assert_eq!(store.moves(record.id).await.unwrap().len(), 1);
    assert_eq!(store.game(record.id).await.unwrap().unwrap().ply, 1);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn finishing_records_result_and_frees_the_channel(pool: PgPool) {
    let store = Store::from_pool(pool);
    let record = store.create_game(&new_game(3)).await.unwrap();
    let finish = Finish { status: GameStatus::Finished, result: GameResult::Human, score: Some((40, 24)) };
    let done = store.record_moves(&record, &[], &record.game, Some(finish)).await.unwrap();
    assert_eq!(done.status, GameStatus::Finished);
    assert_eq!(done.result, Some(GameResult::Human));
    assert!(store.active_game(3).await.unwrap().is_none());
    // A finished game takes no more moves.
    let after = done.game.play(mv("f5")).unwrap();
    assert!(matches!(store.record_moves(&done, &[human("f5")], &after, None).await, Err(StoreError::Conflict)));
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_corrupt_stored_position_is_reported_not_trusted(pool: PgPool) {
    let store = Store::from_pool(pool.clone());
    let record = store.create_game(&new_game(4)).await.unwrap();
    sqlx::query("UPDATE games SET position_and_start = 'garbage' WHERE id = $1")
        .bind(record.id)
        .execute(&pool)
        .await
        .unwrap();
    match store.active_game(4).await {
        Err(StoreError::Corrupt { game_id, .. }) => assert_eq!(game_id, record.id),
        other => panic!("expected a corrupt-game error, got {other:?}"),
    }
}

/// The ids of a batch read's sound games, and its corrupt games with the version each was read at.
fn apart<T>(batch: &Batch<T>, id: impl Fn(&T) -> i64) -> (Vec<i64>, Vec<(i64, i32)>) {
    let mut sound: Vec<i64> = batch.sound.iter().map(id).collect();
    sound.sort();
    (sound, batch.corrupt.iter().map(|bad| (bad.game_id, bad.version)).collect())
}

/// Every batch read sets a game whose row does not read back apart, with the version it read,
/// and reads the others (docs/design/bot-reliability.md#robustness). The idle sweep's one
/// statement closes the bad game with the others; it is then closed as void at that version.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_batch_read_sets_a_bad_row_apart_and_reads_the_others(pool: PgPool) {
    let store = Store::from_pool(pool.clone());
    let mut ids = Vec::new();
    for channel in [600, 601, 602] {
        ids.push(store.create_game(&new_game(channel)).await.unwrap().id);
    }
    sqlx::query("UPDATE games SET position_and_start = 'garbage', updated_at = now() - interval '15 days'")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("UPDATE games SET position_and_start = $1 WHERE id <> $2")
        .bind(Game::new(GameKind::Reversi).encode())
        .bind(ids[1])
        .execute(&pool)
        .await
        .unwrap();
    let (sound, bad) = (vec![ids[0], ids[2]], ids[1]);

    let active = store.active_games_each().await.unwrap();
    assert_eq!(apart(&active, |g| g.id), (sound.clone(), vec![(bad, 0)]));
    assert!(!active.corrupt[0].reason.is_empty());
    match store.active_games().await {
        Err(StoreError::Corrupt { game_id, .. }) => assert_eq!(game_id, bad),
        other => panic!("the strict read trusts every row or none, got {other:?}"),
    }
    let owed = store.games_owed_nudges().await.unwrap();
    assert_eq!(apart(&owed, |(g, _)| g.id), (sound.clone(), vec![(bad, 0)]));

    let expired = store.expire_idle_games().await.unwrap();
    assert_eq!(apart(&expired, |(g, _)| g.id), (sound, vec![(bad, 1)]), "every sound game closed is returned");
    assert!(!store.void_game(bad, Some(0)).await.unwrap(), "not at a version it left");
    assert!(store.void_game(bad, Some(1)).await.unwrap());
    assert!(!store.void_game(bad, None).await.unwrap(), "closed once");
    let statuses: Vec<String> =
        sqlx::query_scalar("SELECT status FROM games ORDER BY id").fetch_all(&pool).await.unwrap();
    assert_eq!(statuses, ["expired", "void", "expired"]);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn settings_default_then_follow_the_server_then_the_channel_then_the_thread(pool: PgPool) {
    let store = Store::from_pool(pool);
    let (guild, channel, thread, other) = (55, 700, 701, 702);
    let in_channel = Place { guild_id: Some(guild), channel_id: channel, parent_id: None };
    let in_thread = Place { guild_id: Some(guild), channel_id: thread, parent_id: Some(channel) };
    let elsewhere = Place { guild_id: Some(guild), channel_id: other, parent_id: None };
    let dm = Place { guild_id: None, channel_id: 9, parent_id: None };
    for place in [&in_channel, &in_thread, &elsewhere, &dm] {
        assert_eq!(store.settings(place).await.unwrap(), Settings::default());
    }
    // The server's choice holds everywhere on it (not in direct messages, nor on other servers).
    store
        .change_setting(
            guild,
            &in_channel,
            Scope::Server,
            Change::Level(Level::Reversi(reversi::ReversiLevel::NoMercy)),
        )
        .await
        .unwrap();
    store.change_setting(guild, &in_channel, Scope::Server, Change::IdleDays(3)).await.unwrap();
    for place in [&in_channel, &in_thread, &elsewhere] {
        let s = store.settings(place).await.unwrap();
        assert_eq!(
            (s.level(GameKind::Reversi), s.idle_days, s.from_channel.len()),
            (Level::Reversi(reversi::ReversiLevel::NoMercy), 3, 0)
        );
    }
    assert_eq!(store.settings(&dm).await.unwrap(), Settings::default());
    let other_server = Place { guild_id: Some(56), ..in_channel };
    assert_eq!(
        store.settings(&other_server).await.unwrap().level(GameKind::Reversi),
        Level::Reversi(reversi::ReversiLevel::Standard)
    );
    // A channel's override holds there and in its threads, and is marked as the channel's.
    store
        .change_setting(
            guild,
            &in_channel,
            Scope::Channel,
            Change::Level(Level::Reversi(reversi::ReversiLevel::Highest)),
        )
        .await
        .unwrap();
    store.change_setting(guild, &in_channel, Scope::Channel, Change::Commentary(true)).await.unwrap();
    for place in [&in_channel, &in_thread] {
        let s = store.settings(place).await.unwrap();
        assert_eq!(
            (s.level(GameKind::Reversi), s.commentary, s.idle_days),
            (Level::Reversi(reversi::ReversiLevel::Highest), true, 3)
        );
        assert_eq!(s.from_channel, vec![Setting::ReversiLevel, Setting::Commentary]);
    }
    let s = store.settings(&elsewhere).await.unwrap();
    assert_eq!((s.level(GameKind::Reversi), s.commentary), (Level::Reversi(reversi::ReversiLevel::NoMercy), false));
    // A thread's own override wins over its channel's; a server change does not undo overrides.
    store.change_setting(guild, &in_thread, Scope::Channel, Change::Commentary(false)).await.unwrap();
    store.change_setting(guild, &in_thread, Scope::Channel, Change::Language(Some(Lang::Ja))).await.unwrap();
    store
        .change_setting(
            guild,
            &in_channel,
            Scope::Server,
            Change::Level(Level::Reversi(reversi::ReversiLevel::Standard)),
        )
        .await
        .unwrap();
    let s = store.settings(&in_thread).await.unwrap();
    assert_eq!(
        (s.level(GameKind::Reversi), s.commentary, s.language),
        (Level::Reversi(reversi::ReversiLevel::Highest), false, Some(Lang::Ja))
    );
    assert!(store.settings(&in_channel).await.unwrap().commentary);
    // Resetting the channel brings back the server's values there; the thread keeps its own.
    assert!(store.clear_channel_settings(guild, &in_channel).await.unwrap());
    assert!(!store.clear_channel_settings(guild, &in_channel).await.unwrap(), "nothing left to clear");
    let s = store.settings(&in_channel).await.unwrap();
    assert_eq!(
        (s.level(GameKind::Reversi), s.commentary, s.from_channel.len()),
        (Level::Reversi(reversi::ReversiLevel::Standard), false, 0)
    );
    let s = store.settings(&in_thread).await.unwrap();
    assert_eq!(
        (s.level(GameKind::Reversi), s.language),
        (Level::Reversi(reversi::ReversiLevel::Standard), Some(Lang::Ja))
    );
    // Every kind of change reads back.
    for change in [
        Change::Level(Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest)),
        Change::TeamPlay(true),
        Change::LevelChoice(true),
        Change::IdleDays(365),
        Change::Language(None),
    ] {
        store.change_setting(guild, &elsewhere, Scope::Channel, change).await.unwrap();
    }
    let s = store.settings(&elsewhere).await.unwrap();
    assert_eq!(
        (s.level(GameKind::Doubutsu), s.team_play, s.level_choice, s.idle_days, s.language),
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest), true, true, 365, None)
    );
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_channels_idle_limit_closes_its_games_and_its_threads_games(pool: PgPool) {
    let store = Store::from_pool(pool.clone());
    let mut in_channel = new_game(800);
    in_channel.guild_id = Some(55);
    let mut in_thread = new_game(801);
    in_thread.guild_id = Some(55);
    in_thread.parent_id = Some(800);
    let mut elsewhere = new_game(802);
    elsewhere.guild_id = Some(55);
    let place = Place { guild_id: Some(55), channel_id: 800, parent_id: None };
    store.change_setting(55, &place, Scope::Channel, Change::IdleDays(2)).await.unwrap();
    let mut ids = Vec::new();
    for g in [&in_channel, &in_thread, &elsewhere] {
        ids.push(store.create_game(g).await.unwrap().id);
    }
    // Three days without a move: past the channel's 2 days, within the server's default 14.
    sqlx::query("UPDATE games SET updated_at = now() - interval '3 days'").execute(&pool).await.unwrap();
    let expired = store.expire_idle_games().await.unwrap().sound;
    let mut closed: Vec<(i64, u32)> = expired.iter().map(|(g, d)| (g.id, *d)).collect();
    closed.sort();
    assert_eq!(closed, vec![(ids[0], 2), (ids[1], 2)]);
    assert_eq!(store.active_game(802).await.unwrap().map(|g| g.id), Some(ids[2]));
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn migrations_can_run_again(pool: PgPool) {
    let store = Store::from_pool(pool);
    store.migrate().await.unwrap();
    store.migrate().await.unwrap();
}

#[tokio::test]
async fn connect_creates_a_missing_database_and_migrates_it() {
    use sqlx::migrate::MigrateDatabase;
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let (server, _) = base.rsplit_once('/').unwrap();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    let url = format!("{server}/settai_connect_test_{}_{nanos}", std::process::id());
    assert!(!sqlx::Postgres::database_exists(&url).await.unwrap());
    let store = Store::connect(&url).await.unwrap();
    let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(store.pool()).await.unwrap();
    assert_eq!(games, 0);
    // Connecting again finds it and keeps it.
    let again = Store::connect(&url).await.unwrap();
    again.pool().close().await;
    store.pool().close().await;
    sqlx::Postgres::drop_database(&url).await.unwrap();
}

#[tokio::test]
async fn an_unreachable_database_is_a_clear_error() {
    let err = Store::connect("postgres://postgres@127.0.0.1:1/settai").await.unwrap_err();
    assert!(matches!(err, StoreError::Database(_)), "{err}");
}

/// A blunder its player took back stays with the game: the record no longer holds the move,
/// but the game read back says the player withdrew one, and a later take-back of a sound move
/// does not forget it.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_blunder_taken_back_is_remembered_with_the_game(pool: PgPool) {
    let store = Store::from_pool(pool);
    let new = NewGame {
        level: Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest),
        game: Game::new(GameKind::Doubutsu),
        ..new_game(9)
    };
    let record = store.create_game(&new).await.unwrap();
    let dob = |n: &str| GameMove::parse(GameKind::Doubutsu, n).unwrap();
    let (first, reply) = (dob("C4C3"), dob("A1A2"));
    let after = record.game.play(first).unwrap().play(reply).unwrap();
    let moves =
        [NewMove { mv: first, by_bot: false, user_id: Some(7) }, NewMove { mv: reply, by_bot: true, user_id: None }];
    let played = store.record_moves(&record, &moves, &after, None).await.unwrap();
    assert!(!played.game.withdrew_blunder(Side::First));
    let back = store.take_back(&played, 0, &record.game, true).await.unwrap();
    assert!(back.game.withdrew_blunder(Side::First) && !back.game.withdrew_blunder(Side::Second));
    let reloaded = store.game(record.id).await.unwrap().unwrap();
    assert!(reloaded.game.withdrew_blunder(Side::First), "read back from the database");
    assert_eq!(reloaded.game, record.game, "the moves are gone");
    let again = store.record_moves(&reloaded, &moves, &after, None).await.unwrap();
    let sound = store.take_back(&again, 0, &record.game, false).await.unwrap();
    assert!(sound.game.withdrew_blunder(Side::First), "remembered for the game's life");
}

/// The queries the store builds at run time (their columns come from one list in code), which
/// the offline check of `.sqlx/` cannot see: where they are, counted so that a new one is added
/// here.
const QUERIES_BUILT_AT_RUN_TIME: [(&str, usize); 3] =
    [("src/store/games.rs", 9), ("src/store/reminders.rs", 1), ("src/store/settings.rs", 2)];

/// Each query built at run time runs against the schema here, with rows to decode:
/// `create_game`, `record_moves`, `take_back`, `snapshot`, `active_game`, `game`,
/// `active_games_each`, `games_awaiting_bot` and `expire_idle_games` (games.rs),
/// `games_owed_nudges` (reminders.rs), `settings` and `change_setting` for every setting at both
/// scopes (settings.rs). Another such query fails the count until it is run here too.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn every_query_built_at_run_time_runs_against_the_schema(pool: PgPool) {
    for (file, expected) in QUERIES_BUILT_AT_RUN_TIME {
        let source = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert_eq!(
            built_at_run_time(&source),
            expected,
            "{file}: a query built at run time was added or removed; run it here"
        );
    }
    let built: usize = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src/store"))
        .unwrap()
        .map(|e| built_at_run_time(&std::fs::read_to_string(e.unwrap().path()).unwrap()))
        .sum();
    assert_eq!(built, QUERIES_BUILT_AT_RUN_TIME.iter().map(|q| q.1).sum::<usize>(), "a store file not listed has one");

    let store = Store::from_pool(pool.clone());
    let place = Place { guild_id: Some(1), channel_id: 900, parent_id: None };
    let changes = [
        Change::Level(Level::Reversi(reversi::ReversiLevel::Highest)),
        Change::Level(Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest)),
        Change::Commentary(true),
        Change::IdleDays(2),
        Change::TeamPlay(true),
        Change::Language(Some(Lang::Ja)),
        Change::LevelChoice(true),
        Change::ReminderHours(1),
        Change::Takeback(true),
        Change::Hints(true),
    ];
    let mut covered: Vec<Setting> = changes.iter().map(|c| c.setting()).collect();
    covered.sort_by_key(|s| format!("{s:?}"));
    covered.dedup();
    assert_eq!(covered.len(), Setting::ALL.len(), "every setting is changed");
    for scope in [Scope::Server, Scope::Channel] {
        for change in changes {
            store.change_setting(1, &place, scope, change).await.unwrap();
        }
    }
    let settings = store.settings(&place).await.unwrap();
    assert_eq!(settings.idle_days, 2);

    let record = store.create_game(&new_game(900)).await.unwrap();
    let after = record.game.play(mv("f5")).unwrap();
    let played = store.record_moves(&record, &[human("f5")], &after, None).await.unwrap();
    assert_eq!(played.ply, 1);
    let snapshot = store.snapshot(&place, Some(7)).await.unwrap();
    assert_eq!(snapshot.game.map(|g| g.record.id), Some(record.id));
    assert_eq!(store.active_game(900).await.unwrap().map(|g| g.ply), Some(1));
    assert_eq!(store.game(record.id).await.unwrap().map(|g| g.game), Some(after));
    assert_eq!(store.active_games_each().await.unwrap().sound.len(), 1);
    let back = store.take_back(&played, 0, &record.game, false).await.unwrap();
    assert_eq!(back.ply, 0);
    // The bot to move (the player's seat is black's): the owed-turn sweep's read finds it.
    let owed = NewGame { human_side: Side::Second, ..new_game(901) };
    let owed = store.create_game(&owed).await.unwrap();
    let found = store.games_awaiting_bot(std::time::Duration::ZERO).await.unwrap().sound;
    assert_eq!(found.iter().map(|g| g.id).collect::<Vec<_>>(), [owed.id]);
    store.end_game(&owed, GameStatus::Resigned, GameResult::Human).await.unwrap();

    // An hour and more without a move: the reminder is owed; three days: past the two allowed.
    sqlx::query("UPDATE games SET updated_at = now() - interval '2 hours'").execute(&pool).await.unwrap();
    let owed = store.games_owed_nudges().await.unwrap().sound;
    assert_eq!(owed.iter().map(|(g, _)| g.id).collect::<Vec<_>>(), [record.id]);
    sqlx::query("UPDATE games SET updated_at = now() - interval '3 days'").execute(&pool).await.unwrap();
    let expired = store.expire_idle_games().await.unwrap().sound;
    assert_eq!(expired.iter().map(|(g, days)| (g.id, *days)).collect::<Vec<_>>(), [(record.id, 2)]);
}

/// How many queries in `source` are built at run time: `sqlx::query`, `query_as` or
/// `query_scalar` given a borrowed string rather than a literal (the checked macros are
/// `query!` and `query_as!`).
fn built_at_run_time(source: &str) -> usize {
    ["sqlx::query(&", "sqlx::query_as(&", "sqlx::query_scalar(&"].iter().map(|p| source.matches(p).count()).sum()
}
