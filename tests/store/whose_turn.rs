//! Whose turn it is, stored with the position (the `bot_to_move` column, migration
//! 20261207000001): right after every kind of write, filled in rows written before it, kept
//! right by a process of the previous version writing during an upgrade, and what the owed-turn
//! sweep reads (docs/design/bot-reliability.md#robustness).

use super::new_game;
use super::stored_once::{encode_as_before, STORED_ONCE};
use settai::domain::{Finish, GameRecord, GameResult, GameStatus, NewGame, NewMove, TERMINAL_CHANNEL};
use settai::store::Store;
use settai_core::{doubutsu, Game, GameKind, GameMove, Level, Side};
use sqlx::PgPool;
use std::time::Duration;

/// The migration that adds the column.
const WHOSE_TURN: i64 = 20261207000001;

/// The column as stored (`None`: NULL).
async fn stored(pool: &PgPool, id: i64) -> Option<bool> {
    sqlx::query_scalar("SELECT bot_to_move FROM games WHERE id = $1").bind(id).fetch_one(pool).await.unwrap()
}

/// How `game` ends, if it is over, from the player's seat `human`.
fn finish(game: &Game, human: Side) -> Option<Finish> {
    game.outcome().map(|o| Finish {
        status: GameStatus::Finished,
        result: match o.winner {
            None => GameResult::Draw,
            Some(w) if w == human => GameResult::Human,
            Some(_) => GameResult::Bot,
        },
        score: o.score,
    })
}

/// A game of `kind` in `channel`, the player in seat `human`.
fn new_of(kind: GameKind, channel: u64, human: Side) -> NewGame {
    let level = match kind {
        GameKind::Reversi => new_game(channel).level,
        GameKind::Doubutsu => Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest),
    };
    NewGame { human_side: human, level, game: Game::new(kind), ..new_game(channel) }
}

/// Plays whole games of both kinds from both seats, one move a write (reversi's forced passes
/// among them), with a take-back in each, then resigns, closes as void or as idle what is left:
/// after every write the column says what the decoded game says.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn whose_turn_is_right_after_every_write(pool: PgPool) {
    let store = Store::from_pool(pool.clone());
    let check = |record: GameRecord| {
        let pool = pool.clone();
        async move {
            let read = store_read(&pool, record.id).await;
            assert_eq!(stored(&pool, record.id).await, Some(record.bot_to_move()), "{:?}", record.game.encode());
            assert_eq!(read.bot_to_move(), record.bot_to_move(), "the record read back agrees");
            record
        }
    };
    let (mut channel, mut passes, mut bot_moves, mut take_backs) = (800, 0, 0, 0);
    for kind in GameKind::ALL {
        for human in [Side::First, Side::Second] {
            for seed in 1..=4u64 {
                channel += 1;
                let mut record = check(store.create_game(&new_of(kind, channel, human)).await.unwrap()).await;
                let mut positions = vec![record.game.clone()];
                let (mut taken_back, mut choice) = (false, seed);
                while record.status == GameStatus::Active && record.ply < 80 {
                    let game = record.game.clone();
                    let legal = game.legal_moves();
                    // Any legal move, by a fixed sequence (xorshift): the same games every run.
                    choice ^= choice << 13;
                    choice ^= choice >> 7;
                    choice ^= choice << 17;
                    let mv = legal[(choice % legal.len() as u64) as usize];
                    let by_bot = game.to_move() != Some(human);
                    passes += usize::from(mv.is_pass());
                    bot_moves += usize::from(by_bot);
                    let next = game.play(mv).unwrap();
                    let user_id = (!by_bot && !mv.is_pass()).then_some(7);
                    let moves = [NewMove { mv, by_bot, user_id }];
                    record =
                        check(store.record_moves(&record, &moves, &next, finish(&next, human)).await.unwrap()).await;
                    positions.push(next);
                    if record.ply == 4 && !taken_back && record.status == GameStatus::Active {
                        taken_back = true;
                        take_backs += 1;
                        let back = positions[1].clone();
                        positions.truncate(2);
                        record = check(store.take_back(&record, 1, &back, false).await.unwrap()).await;
                    }
                }
                if record.status == GameStatus::Active {
                    check(store.end_game(&record, GameStatus::Resigned, GameResult::Bot).await.unwrap()).await;
                }
            }
        }
    }
    assert!(
        passes > 0 && bot_moves > 0 && take_backs > 0,
        "{passes} passes, {bot_moves} bot's moves, {take_backs} take-backs"
    );

    // A game the bot is to move in leaves the sweep's rows however it ends: resigned, void, idle.
    let mut owed = Vec::new();
    for _ in 0..3 {
        channel += 1;
        let record = check(store.create_game(&new_of(GameKind::Reversi, channel, Side::Second)).await.unwrap()).await;
        assert_eq!(stored(&pool, record.id).await, Some(true));
        owed.push(record);
    }
    check(store.end_game(&owed[0], GameStatus::Resigned, GameResult::Bot).await.unwrap()).await;
    assert!(store.void_game(owed[1].id, Some(owed[1].version)).await.unwrap());
    sqlx::query("UPDATE games SET updated_at = now() - interval '15 days' WHERE id = $1")
        .bind(owed[2].id)
        .execute(&pool)
        .await
        .unwrap();
    let expired = store.expire_idle_games().await.unwrap().all_sound().unwrap();
    assert_eq!(expired.iter().map(|(r, _)| r.id).collect::<Vec<_>>(), [owed[2].id]);
    for (record, _) in expired {
        check(record).await;
    }
    let left: i64 =
        sqlx::query_scalar("SELECT count(*) FROM games WHERE bot_to_move IS NOT FALSE").fetch_one(&pool).await.unwrap();
    assert_eq!(left, 0, "no game over is owed a turn");
}

/// A game as stored, read by id.
async fn store_read(pool: &PgPool, id: i64) -> GameRecord {
    Store::from_pool(pool.clone()).game(id).await.unwrap().unwrap()
}

/// Writes a game as a process of the version before the column did (its `create_game`, naming
/// no `bot_to_move`), at `position`, the player in seat `human`; returns its id.
async fn create_as_before(pool: &PgPool, channel: u64, game: &Game, human: Side, position: &str) -> i64 {
    let level = new_of(game.kind(), channel, human).level;
    sqlx::query_scalar(
        "INSERT INTO games (guild_id, channel_id, kind, level, human_id, human_side, position, human_name, parent_id,
                            private_channel, house_takeback, house_commentary)
         VALUES (1, $1, $2, $3, 7, $4, $5, 'Mika', NULL, FALSE, NULL, NULL)
         RETURNING id",
    )
    .bind(channel as i64)
    .bind(game.kind().as_str())
    .bind(level.as_str())
    .bind(human.index())
    .bind(position)
    .fetch_one(pool)
    .await
    .unwrap()
}

/// Stores the first move `mv` on game `id`, leading to `position`, as the version before the
/// column did (its `record_moves`, in the text's format of then).
async fn move_as_before(pool: &PgPool, id: i64, mv: GameMove, position: &Game, status: &str, result: Option<&str>) {
    sqlx::query(
        "WITH updated AS (
             UPDATE games SET position = $1, ply = 1, status = $2, result = $3, version = version + 1,
                    updated_at = now(), reminded_at = NULL, final_notice_at = NULL,
                    finished_at = CASE WHEN $2 = 'active' THEN NULL ELSE now() END
             WHERE id = $4
             RETURNING id
         )
         INSERT INTO moves (game_id, ply, notation, actor, user_id) SELECT id, 1, $5, 'human', 7 FROM updated",
    )
    .bind(encode_as_before(position))
    .bind(status)
    .bind(result)
    .bind(id)
    .bind(mv.to_string())
    .execute(pool)
    .await
    .unwrap();
}

/// Games as the version before the column left them, of both kinds, from both seats: just
/// started, a move on, over, at the terminal, and one whose position does not read. Returns
/// the ids of the games and of the unreadable one.
async fn games_as_before(pool: &PgPool, first_channel: u64) -> (Vec<i64>, i64) {
    let mut ids = Vec::new();
    let mut channel = first_channel;
    for kind in GameKind::ALL {
        for human in [Side::First, Side::Second] {
            let start = Game::new(kind);
            channel += 1;
            let text = encode_as_before(&start);
            ids.push(create_as_before(pool, channel, &start, human, &text).await);
            // An older version stored the player's move alone, then the bot's turn: owed.
            channel += 1;
            let id = create_as_before(pool, channel, &start, human, &text).await;
            let mv = start.legal_moves()[0];
            let moved = start.play(mv).unwrap();
            move_as_before(pool, id, mv, &moved, "active", None).await;
            ids.push(id);
            channel += 1;
            let id = create_as_before(pool, channel, &start, human, &text).await;
            move_as_before(pool, id, mv, &moved, "resigned", Some("bot")).await;
            ids.push(id);
        }
    }
    let reversi = Game::new(GameKind::Reversi);
    ids.push(create_as_before(pool, TERMINAL_CHANNEL, &reversi, Side::Second, &encode_as_before(&reversi)).await);
    let bad = create_as_before(pool, channel + 1, &reversi, Side::Second, "garbage").await;
    (ids, bad)
}

/// What the owed-turn sweep must find among `ids`: the sound games the bot is to move in, away
/// from the terminal, as their decoded records say; and the unreadable `bad`, set apart.
async fn check_the_sweep_finds_them(pool: &PgPool, ids: &[i64], bad: i64) {
    let store = Store::from_pool(pool.clone());
    let mut owed = Vec::new();
    for &id in ids {
        let record = store_read(pool, id).await;
        assert_eq!(stored(pool, id).await, Some(record.bot_to_move()), "{:?}", record.game.encode());
        if record.bot_to_move() && !record.at_terminal() {
            owed.push(id);
        }
    }
    assert!(!owed.is_empty() && owed.len() < ids.len(), "{} of {} owed", owed.len(), ids.len());
    assert_eq!(stored(pool, bad).await, None, "a position that does not say whose turn it is");
    let found = store.games_awaiting_bot(Duration::ZERO).await.unwrap();
    assert_eq!(found.sound.iter().map(|r| r.id).collect::<Vec<_>>(), owed);
    assert_eq!(found.corrupt.iter().map(|c| c.game_id).collect::<Vec<_>>(), [bad], "read, to be closed");
}

/// The migration fills the column of every row written before it.
#[sqlx::test(migrations = false)]
async fn the_migration_fills_whose_turn_in_older_rows(pool: PgPool) {
    let migrations = || settai::store::MIGRATOR.iter();
    for m in migrations().filter(|m| m.version < WHOSE_TURN) {
        sqlx::raw_sql(&m.sql).execute(&pool).await.unwrap();
    }
    let (ids, bad) = games_as_before(&pool, 900).await;
    for m in migrations().filter(|m| m.version >= WHOSE_TURN) {
        sqlx::raw_sql(&m.sql).execute(&pool).await.unwrap();
    }
    check_the_sweep_finds_them(&pool, &ids, bad).await;
}

/// During a rolling upgrade a process of the previous version, which knows nothing of the
/// column, goes on writing: the database sets the column from the row in the same statement,
/// and refuses any statement that would set it apart from the position. (Its statements name
/// the text's column of then: they run before the migration that renames it, 20261208000001,
/// after which the rows they left read as they did.)
#[sqlx::test(migrations = false)]
async fn a_previous_version_writing_during_an_upgrade_leaves_the_column_right(pool: PgPool) {
    let migrations = || settai::store::MIGRATOR.iter();
    for m in migrations().filter(|m| m.version < STORED_ONCE) {
        sqlx::raw_sql(&m.sql).execute(&pool).await.unwrap();
    }
    let (ids, bad) = games_as_before(&pool, 950).await;
    for m in migrations().filter(|m| m.version >= STORED_ONCE) {
        sqlx::raw_sql(&m.sql).execute(&pool).await.unwrap();
    }
    check_the_sweep_finds_them(&pool, &ids, bad).await;
    let refused = sqlx::query("UPDATE games SET bot_to_move = NOT bot_to_move").execute(&pool).await.unwrap_err();
    let code = refused.as_database_error().and_then(|e| e.code()).map(|c| c.into_owned());
    assert_eq!(code.as_deref(), Some("428C9"), "{refused}");
}
