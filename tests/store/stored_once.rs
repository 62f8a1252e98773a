//! A game stored once (migration 20261208000001, docs/design/storage.md#one-record-of-the-moves):
//! the moves are in `moves` only and the game's text holds its position and, for a set-up, its
//! start. What the current version writes reads back from its moves; rows the previous version
//! wrote read the same after the migration; and a process of the previous version meets the
//! version gate: its statements fail, so it never reads the new text and closes no live game.

use super::new_game;
use settai::domain::{GameStatus, NewGame, NewMove, Place};
use settai::store::{Store, StoreError};
use settai_core::{doubutsu, DoubutsuGame, Game, GameKind, GameMove, Level, Side};
use sqlx::PgPool;

/// The migration that stores a game once.
pub(super) const STORED_ONCE: i64 = 20261208000001;

/// A game's text as the previous version's `Game::encode` wrote it: a doubutsu game's whole move
/// list after its position, and its start when it began elsewhere (`position;moves[;start]`).
pub(super) fn encode_as_before(game: &Game) -> String {
    match game {
        Game::Reversi(_) => game.encode(),
        Game::Doubutsu(g) => {
            let moves: Vec<String> = g.history().moves().iter().map(|m| m.to_string()).collect();
            let mut text = format!("{};{}", g.history().position(), moves.join(" "));
            if *g.history().start() != doubutsu::Position::start() {
                text.push_str(&format!(";{}", g.history().start()));
            }
            text
        }
    }
}

/// The previous version's columns of a game row (its `GAME_COLUMNS`), which every one of its
/// reads of a game selected.
const COLUMNS_BEFORE: &str = "id, guild_id, channel_id, parent_id, kind, level, human_id, human_name, human_side, \
                              position, ply, status, result, version, created_at, updated_at, board_message_id, \
                              private_channel, house_takeback, house_commentary, withdrew_blunder";

/// The previous version's `create_game`, at the text `position`; returns the game's id.
async fn create_before(pool: &PgPool, channel: u64, kind: GameKind, position: &str) -> Result<i64, sqlx::Error> {
    let level = match kind {
        GameKind::Reversi => new_game(channel).level,
        GameKind::Doubutsu => Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest),
    };
    sqlx::query_scalar(&format!(
        "INSERT INTO games (guild_id, channel_id, kind, level, human_id, human_side, position, human_name, parent_id,
                            private_channel, house_takeback, house_commentary)
         VALUES (1, $1, $2, $3, 7, 0, $4, 'Mika', NULL, FALSE, NULL, NULL)
         RETURNING {COLUMNS_BEFORE}"
    ))
    .bind(channel as i64)
    .bind(kind.as_str())
    .bind(level.as_str())
    .bind(position)
    .fetch_one(pool)
    .await
}

/// The previous version's `record_moves`: `mv` played as ply `ply` on game `id` at `version`,
/// leading to `after` (written in that version's format), with `status`.
async fn move_before(
    pool: &PgPool,
    id: i64,
    version: i32,
    ply: i32,
    mv: GameMove,
    after: &Game,
    status: &str,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(&format!(
        "WITH updated AS (
             UPDATE games SET position = $1, ply = $2, status = $3, result = $4, final_score = $5,
                    version = version + 1, updated_at = now(), reminded_at = NULL, final_notice_at = NULL,
                    finished_at = CASE WHEN $3 = 'active' THEN NULL ELSE now() END
             WHERE id = $6 AND version = $7 AND status = 'active'
             RETURNING {COLUMNS_BEFORE}
         ), added AS (
             INSERT INTO moves (game_id, ply, notation, actor, user_id)
             SELECT updated.id, m.ply, m.notation, m.actor, m.user_id
             FROM updated, unnest($8::INTEGER[], $9::TEXT[], $10::TEXT[], $11::BIGINT[])
                  AS m(ply, notation, actor, user_id)
         )
         SELECT * FROM updated"
    ))
    .bind(encode_as_before(after))
    .bind(ply)
    .bind(status)
    .bind((status != "active").then_some("bot"))
    .bind(None::<String>)
    .bind(id)
    .bind(version)
    .bind(vec![ply])
    .bind(vec![mv.to_string()])
    .bind(vec!["human"])
    .bind(vec![Some(7i64)])
    .fetch_optional(pool)
    .await?;
    Ok(u64::from(done.is_some()))
}

/// The previous version's owed-turn sweep (its `games_awaiting_bot`): a read whose rows, when
/// they did not read back, it closed as void.
async fn sweep_before(pool: &PgPool) -> Result<usize, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS_BEFORE} FROM games
         WHERE bot_to_move IS NOT FALSE AND status = 'active' AND channel_id <> $2
           AND updated_at <= now() - make_interval(secs => $1)
         ORDER BY id"
    ))
    .bind(0.0f64)
    .bind(-1i64)
    .fetch_all(pool)
    .await?;
    Ok(rows.len())
}

/// A game from `start` and `plies` moves, each the legal move a seeded step picks, stopping
/// when the game ends.
fn played(start: Game, plies: usize) -> Vec<(GameMove, Game)> {
    let (mut game, mut line) = (start, Vec::new());
    for step in 0..plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[(step * 7 + 2) % legal.len()];
        game = game.play(mv).unwrap();
        line.push((mv, game.clone()));
    }
    line
}

/// A doubutsu game that began at a set-up position.
fn set_up() -> Game {
    let start: doubutsu::Position = "1l1/1c1/1C1/1L1 b -".parse().unwrap();
    Game::Doubutsu(DoubutsuGame::new(doubutsu::History::from_position(start)))
}

/// The game's text as stored.
async fn text(pool: &PgPool, id: i64) -> String {
    sqlx::query_scalar("SELECT position_and_start FROM games WHERE id = $1").bind(id).fetch_one(pool).await.unwrap()
}

/// A game the current version writes holds its position (and a set-up's start) in its text and
/// its moves in `moves`; it reads back from them, through the snapshot and the reads by id, as
/// the game played. Moves that do not lead to the text's position make it corrupt.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_game_written_now_reads_back_from_its_moves(pool: PgPool) {
    let store = Store::from_pool(pool.clone());
    for (channel, start) in [(10, Game::new(GameKind::Doubutsu)), (11, set_up()), (12, Game::new(GameKind::Reversi))] {
        let level = match start.kind() {
            GameKind::Reversi => new_game(channel).level,
            GameKind::Doubutsu => Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest),
        };
        let mut record = store.create_game(&NewGame { level, game: start.clone(), ..new_game(channel) }).await.unwrap();
        let line = played(start.clone(), 9);
        let plies = line.len() as u32;
        assert!(plies >= 3, "{:?}: {plies} moves", start.kind());
        for (mv, after) in line {
            let by_bot = record.game.to_move() == Some(Side::Second);
            let moves = [NewMove { mv, by_bot, user_id: (!by_bot).then_some(7) }];
            record = store.record_moves(&record, &moves, &after, None).await.unwrap();
        }
        assert_eq!(record.ply, plies);
        let stored = text(&pool, record.id).await;
        if let Game::Doubutsu(g) = &record.game {
            let at = g.history().position().to_string();
            let want = if start == set_up() { format!("{at};1l1/1c1/1C1/1L1 b -") } else { at };
            assert_eq!(stored, want, "the position, no move list");
        }
        assert_eq!(Game::decode(start.kind(), &stored).unwrap(), record.game.stored_position());

        let place = Place { guild_id: Some(1), channel_id: channel, parent_id: None };
        let snapshot = store.snapshot(&place, Some(7)).await.unwrap().game.unwrap();
        assert_eq!(snapshot.record.game, record.game, "the game, its past included");
        assert_eq!(snapshot.history().len() as u32, plies);
        assert_eq!(store.game(record.id).await.unwrap().unwrap().game, record.game);

        // The last move taken out of the moves table: the moves no longer lead to the text.
        let last = plies as i32;
        let delete = "DELETE FROM moves WHERE game_id = $1 AND ply = $2";
        sqlx::query(delete).bind(record.id).bind(last).execute(&pool).await.unwrap();
        sqlx::query("UPDATE games SET ply = $2 WHERE id = $1")
            .bind(record.id)
            .bind(last - 1)
            .execute(&pool)
            .await
            .unwrap();
        assert!(matches!(store.snapshot(&place, None).await, Err(StoreError::Corrupt { .. })));
        assert!(matches!(store.game(record.id).await, Err(StoreError::Corrupt { .. })));
    }
}

/// Rows the previous version wrote (its own statements, its text's format: the move list in
/// the text too) read after the migration as the games they were, each now stored once.
#[sqlx::test(migrations = false)]
async fn rows_the_previous_version_wrote_read_the_same_after_the_migration(pool: PgPool) {
    let migrations = || settai::store::MIGRATOR.iter();
    for m in migrations().filter(|m| m.version < STORED_ONCE) {
        sqlx::raw_sql(&m.sql).execute(&pool).await.unwrap();
    }
    let doubutsu = Game::new(GameKind::Doubutsu);
    let reversi = Game::new(GameKind::Reversi);
    // (channel, start, moves, status): mid-game, set up, not begun, over; and reversi.
    let cases = [
        (20, doubutsu.clone(), 7, "active"),
        (21, set_up(), 5, "active"),
        (22, doubutsu.clone(), 0, "active"),
        (23, set_up(), 0, "active"),
        (24, doubutsu.clone(), 6, "resigned"),
        (25, reversi.clone(), 10, "active"),
    ];
    let mut games = Vec::new();
    for (channel, start, plies, status) in cases {
        let id = create_before(&pool, channel, start.kind(), &encode_as_before(&start)).await.unwrap();
        let line = played(start.clone(), plies);
        let mut game = start.clone();
        for (i, (mv, after)) in line.iter().enumerate() {
            let last = i + 1 == line.len();
            let status = if last { status } else { "active" };
            assert_eq!(move_before(&pool, id, i as i32, i as i32 + 1, *mv, after, status).await.unwrap(), 1);
            game = after.clone();
        }
        let before = sqlx::query_scalar::<_, String>("SELECT position FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(before, encode_as_before(&game));
        games.push((id, channel, game, line.len()));
    }
    let garbage = create_before(&pool, 26, GameKind::Doubutsu, "garbage").await.unwrap();

    for m in migrations().filter(|m| m.version >= STORED_ONCE) {
        sqlx::raw_sql(&m.sql).execute(&pool).await.unwrap();
    }
    let store = Store::from_pool(pool.clone());
    for (id, channel, game, plies) in games {
        let record = store.game(id).await.unwrap().unwrap();
        assert_eq!(record.game, game, "game {id}: the same game, its past included");
        assert_eq!(record.ply as usize, plies);
        assert_eq!(text(&pool, id).await, game.encode(), "game {id}: stored once");
        if record.status == GameStatus::Active {
            let place = Place { guild_id: Some(1), channel_id: channel, parent_id: None };
            let snapshot = store.snapshot(&place, None).await.unwrap().game.unwrap();
            assert_eq!((snapshot.record.id, snapshot.history().len()), (id, plies));
        }
    }
    assert_eq!(text(&pool, garbage).await, "garbage", "a corrupt row is left as it was");
    assert!(matches!(store.game(garbage).await, Err(StoreError::Corrupt { .. })));
}

/// The version gate: a process of the previous version, still running after the migration,
/// finds no column of its text. Its reads and writes of games fail (its players hear "try
/// again") instead of reading the new text as corrupt and closing the game; the game is as it
/// was. Started after the migration, it does not start.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_process_of_the_previous_version_meets_the_gate_and_closes_nothing(pool: PgPool) {
    let store = Store::from_pool(pool.clone());
    let new = NewGame {
        level: Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest),
        game: Game::new(GameKind::Doubutsu),
        human_side: Side::Second,
        ..new_game(30)
    };
    let mut record = store.create_game(&new).await.unwrap();
    for (mv, after) in played(record.game.clone(), 2) {
        let moves = [NewMove { mv, by_bot: true, user_id: None }];
        record = store.record_moves(&record, &moves, &after, None).await.unwrap();
    }
    assert!(record.bot_to_move(), "a game the old sweep would read");

    let undefined_column = |e: sqlx::Error| e.as_database_error().and_then(|d| d.code()).map(|c| c.into_owned());
    let column = Some("42703".to_string());
    assert_eq!(sweep_before(&pool).await.map_err(undefined_column).unwrap_err(), column);
    let mv = record.game.legal_moves()[0];
    let after = record.game.play(mv).unwrap();
    let write = move_before(&pool, record.id, record.version, 3, mv, &after, "active").await;
    assert_eq!(write.map_err(undefined_column).unwrap_err(), column);
    let create = create_before(&pool, 31, GameKind::Doubutsu, &encode_as_before(&new.game)).await;
    assert_eq!(create.map_err(undefined_column).unwrap_err(), column);
    let read_by_id = format!("SELECT {COLUMNS_BEFORE} FROM games WHERE id = $1");
    let read = sqlx::query(&read_by_id).bind(record.id).fetch_one(&pool).await;
    assert_eq!(read.map_err(undefined_column).unwrap_err(), column);

    let now = store.game(record.id).await.unwrap().unwrap();
    assert_eq!((now.status, now.version, now.ply), (GameStatus::Active, record.version, 2), "nothing changed");
    assert_eq!(now.game, record.game);

    // Its migrator, which does not know the migration, refuses to start.
    let before: Vec<_> = settai::store::MIGRATOR.iter().filter(|m| m.version < STORED_ONCE).cloned().collect();
    let migrator_before =
        sqlx::migrate::Migrator { migrations: std::borrow::Cow::Owned(before), ..sqlx::migrate::Migrator::DEFAULT };
    let refused = migrator_before.run(&pool).await.unwrap_err();
    assert!(matches!(refused, sqlx::migrate::MigrateError::VersionMissing(STORED_ONCE)), "{refused}");
}
