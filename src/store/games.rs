//! Games and moves.

use sqlx::Row;

use super::{Store, StoreError};
use crate::domain::{
    Finish, GameRecord, GameResult, GameStatus, MoveRecord, NewGame, NewMove, PlayerRecord, DEFAULT_IDLE_DAYS,
    TERMINAL_CHANNEL,
};
use settai_core::{Game, GameKind, Level, Side};

/// The settings that apply to game `a`, from the most specific: `t` its channel, `p` the
/// channel its thread belongs to, `s` its server (SQL `FROM` clause; pick with `COALESCE`).
pub(super) const SETTINGS_OF_GAME: &str = "FROM games a LEFT JOIN guild_settings s ON s.guild_id = a.guild_id
                   LEFT JOIN channel_settings t ON t.channel_id = a.channel_id AND t.guild_id = a.guild_id
                   LEFT JOIN channel_settings p ON p.channel_id = a.parent_id AND p.guild_id = a.guild_id";

impl GameStatus {
    fn as_str(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Resigned => "resigned",
            GameStatus::Expired => "expired",
            GameStatus::Void => "void",
        }
    }

    fn parse(s: &str) -> Option<GameStatus> {
        Some(match s {
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            "resigned" => GameStatus::Resigned,
            "expired" => GameStatus::Expired,
            "void" => GameStatus::Void,
            _ => return None,
        })
    }
}

impl GameResult {
    fn as_str(self) -> &'static str {
        match self {
            GameResult::Human => "human",
            GameResult::Bot => "bot",
            GameResult::Draw => "draw",
        }
    }

    fn parse(s: &str) -> Option<GameResult> {
        Some(match s {
            "human" => GameResult::Human,
            "bot" => GameResult::Bot,
            "draw" => GameResult::Draw,
            _ => return None,
        })
    }
}

pub(super) const GAME_COLUMNS: &str =
    "id, guild_id, channel_id, parent_id, kind, level, human_id, human_name, human_side, position, ply, \
                            status, result, version, created_at, updated_at, board_message_id";

pub(super) fn decode_game(row: &sqlx::postgres::PgRow) -> Result<GameRecord, StoreError> {
    let id: i64 = row.try_get("id")?;
    let corrupt = |reason: String| StoreError::Corrupt { game_id: id, reason };
    let kind_text: String = row.try_get("kind")?;
    let kind: GameKind = kind_text.parse().map_err(|e: settai_core::UnknownGame| corrupt(e.to_string()))?;
    let level_text: String = row.try_get("level")?;
    let level = Level::parse(kind, &level_text).map_err(|e| corrupt(e.to_string()))?;
    let position: String = row.try_get("position")?;
    let game = Game::decode(kind, &position).map_err(|e| corrupt(e.to_string()))?;
    let side: i16 = row.try_get("human_side")?;
    let status_text: String = row.try_get("status")?;
    let result_text: Option<String> = row.try_get("result")?;
    let ply: i32 = row.try_get("ply")?;
    Ok(GameRecord {
        id,
        guild_id: row.try_get::<Option<i64>, _>("guild_id")?.map(|g| g as u64),
        channel_id: row.try_get::<i64, _>("channel_id")? as u64,
        parent_id: row.try_get::<Option<i64>, _>("parent_id")?.map(|p| p as u64),
        level,
        human_id: row.try_get::<i64, _>("human_id")? as u64,
        human_name: row.try_get("human_name")?,
        human_side: Side::from_index(side).ok_or_else(|| corrupt(format!("human_side {side}")))?,
        game,
        ply: u32::try_from(ply).map_err(|_| corrupt(format!("ply {ply}")))?,
        status: GameStatus::parse(&status_text).ok_or_else(|| corrupt(format!("status {status_text:?}")))?,
        result: match result_text {
            None => None,
            Some(r) => Some(GameResult::parse(&r).ok_or_else(|| corrupt(format!("result {r:?}")))?),
        },
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        board_message_id: row.try_get::<Option<i64>, _>("board_message_id")?.map(|m| m as u64),
    })
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.code().as_deref() == Some("23505"))
}

impl Store {
    /// Creates a game; fails with [`StoreError::ChannelBusy`] when the channel has one.
    pub async fn create_game(&self, new: &NewGame) -> Result<GameRecord, StoreError> {
        let row = sqlx::query(&format!(
            "INSERT INTO games (guild_id, channel_id, kind, level, human_id, human_side, position, human_name, parent_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING {GAME_COLUMNS}"
        ))
        .bind(new.guild_id.map(|g| g as i64))
        .bind(new.channel_id as i64)
        .bind(new.game.kind().as_str())
        .bind(new.level.as_str())
        .bind(new.human_id as i64)
        .bind(new.human_side.index())
        .bind(new.game.encode())
        .bind(&new.human_name)
        .bind(new.parent_id.map(|p| p as i64))
        .fetch_one(&self.pool)
        .await
        .map_err(|e| if is_unique_violation(&e) { StoreError::ChannelBusy } else { e.into() })?;
        decode_game(&row)
    }

    /// The results of `user_id`'s finished games on one server (`None`: in direct messages),
    /// per game kind.
    pub async fn player_record(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
    ) -> Result<Vec<(GameKind, PlayerRecord)>, StoreError> {
        let rows: Vec<(String, String, i64)> = sqlx::query_as(
            "SELECT kind, result, count(*) FROM games
             WHERE human_id = $1 AND guild_id IS NOT DISTINCT FROM $2 AND status IN ('finished', 'resigned')
             GROUP BY kind, result",
        )
        .bind(user_id as i64)
        .bind(guild_id.map(|g| g as i64))
        .fetch_all(&self.pool)
        .await?;
        let mut out: Vec<(GameKind, PlayerRecord)> =
            GameKind::ALL.iter().map(|&k| (k, PlayerRecord::default())).collect();
        let taken: Vec<(String, i64)> = sqlx::query_as(
            "SELECT kind, COALESCE(SUM(takebacks), 0)::BIGINT FROM games
             WHERE human_id = $1 AND guild_id IS NOT DISTINCT FROM $2 GROUP BY kind",
        )
        .bind(user_id as i64)
        .bind(guild_id.map(|g| g as i64))
        .fetch_all(&self.pool)
        .await?;
        for (kind, n) in taken {
            if let Some((_, record)) = kind.parse::<GameKind>().ok().and_then(|k| out.iter_mut().find(|(o, _)| *o == k))
            {
                record.takebacks = n as u32;
            }
        }
        for (kind, result, n) in rows {
            let (Ok(kind), Some(result)) = (kind.parse::<GameKind>(), GameResult::parse(&result)) else { continue };
            let record = &mut out.iter_mut().find(|(k, _)| *k == kind).expect("every kind listed").1;
            let n = n as u32;
            match result {
                GameResult::Human => record.wins += n,
                GameResult::Bot => record.losses += n,
                GameResult::Draw => record.draws += n,
            }
        }
        Ok(out)
    }

    /// Closes every active game that waited longer than its channel's or server's idle limit (14 days in
    /// direct messages or without a setting): status `expired`, no winner. The terminal's game
    /// waits for its player however long. Returns each game as
    /// now stored with the limit that applied. One statement: a move racing the sweep either
    /// lands first (and the game is no longer idle) or finds the game closed.
    pub async fn expire_idle_games(&self) -> Result<Vec<(GameRecord, u32)>, StoreError> {
        let columns: Vec<String> = GAME_COLUMNS.split(',').map(|c| format!("g.{}", c.trim())).collect();
        let rows = sqlx::query(&format!(
            "UPDATE games g SET status = 'expired', result = 'draw', finished_at = now(), updated_at = now(),
                    version = g.version + 1
             FROM (SELECT a.id, COALESCE(t.idle_days, p.idle_days, s.idle_days, {DEFAULT_IDLE_DAYS}) AS days
                   {SETTINGS_OF_GAME}
                   WHERE a.status = 'active') AS limits
             WHERE g.id = limits.id AND g.status = 'active' AND g.channel_id <> {TERMINAL_CHANNEL}
               AND g.updated_at < now() - make_interval(days => limits.days)
             RETURNING {}, limits.days",
            columns.join(", ")
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let days: i32 = row.try_get("days")?;
                Ok((decode_game(row)?, days as u32))
            })
            .collect()
    }

    /// Closes a game whose stored record cannot be trusted (status `void`); its rows stay for
    /// inspection. Nothing is read back from it, so this works on any corrupt row. With
    /// `version`, only if the game is still at that version (it was found corrupt there).
    pub async fn void_game(&self, game_id: i64, version: Option<i32>) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE games SET status = 'void', result = 'draw', finished_at = now(), updated_at = now(),
                    version = version + 1
             WHERE id = $1 AND status = 'active' AND ($2::INTEGER IS NULL OR version = $2)",
        )
        .bind(game_id)
        .bind(version)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The active game in a channel, if any.
    pub async fn active_game(&self, channel_id: u64) -> Result<Option<GameRecord>, StoreError> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 AND status = 'active'"))
            .bind(channel_id as i64)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(decode_game).transpose()
    }

    /// A game by id.
    pub async fn game(&self, id: i64) -> Result<Option<GameRecord>, StoreError> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(decode_game).transpose()
    }

    /// Active games in which the bot is to move (left so by a crash between two moves).
    pub async fn active_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        let rows = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id"))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(decode_game).collect()
    }

    /// The moves of a game, in order.
    pub async fn moves(&self, game_id: i64) -> Result<Vec<MoveRecord>, StoreError> {
        let rows = sqlx::query("SELECT ply, notation, actor, user_id FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(game_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveRecord {
                    ply: r.try_get::<i32, _>("ply")? as u32,
                    notation: r.try_get("notation")?,
                    by_bot: r.try_get::<String, _>("actor")? == "bot",
                    user_id: r.try_get::<Option<i64>, _>("user_id")?.map(|u| u as u64),
                })
            })
            .collect()
    }

    /// Records `moves` played on `game` (as read, at `game.version`) leading to `position`, and
    /// ends the game if `finish` says so. All or nothing: fails with [`StoreError::Conflict`] and
    /// changes nothing when the game moved on since it was read.
    pub async fn record_moves(
        &self,
        game: &GameRecord,
        moves: &[NewMove],
        position: &Game,
        finish: Option<Finish>,
    ) -> Result<GameRecord, StoreError> {
        let mut tx = self.pool.begin().await?;
        let new_ply = game.ply + moves.len() as u32;
        let (status, result, score) = match finish {
            Some(f) => (f.status, Some(f.result), f.score),
            None => (GameStatus::Active, None, None),
        };
        let row = sqlx::query(&format!(
            "UPDATE games SET position = $1, ply = $2, status = $3, result = $4, final_score = $5,
                    version = version + 1, updated_at = now(), reminded_at = NULL, final_notice_at = NULL,
                    finished_at = CASE WHEN $3 = 'active' THEN NULL ELSE now() END
             WHERE id = $6 AND version = $7 AND status = 'active'
             RETURNING {GAME_COLUMNS}"
        ))
        .bind(position.encode())
        .bind(new_ply as i32)
        .bind(status.as_str())
        .bind(result.map(GameResult::as_str))
        .bind(score.map(|(a, b)| format!("{a}-{b}")))
        .bind(game.id)
        .bind(game.version)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Err(StoreError::Conflict) };
        for (i, new) in moves.iter().enumerate() {
            sqlx::query("INSERT INTO moves (game_id, ply, notation, actor, user_id) VALUES ($1, $2, $3, $4, $5)")
                .bind(game.id)
                .bind((game.ply + 1 + i as u32) as i32)
                .bind(new.mv.to_string())
                .bind(if new.by_bot { "bot" } else { "human" })
                .bind(new.user_id.map(|u| u as i64))
                .execute(&mut *tx)
                .await
                .map_err(|e| if is_unique_violation(&e) { StoreError::Conflict } else { e.into() })?;
        }
        let updated = decode_game(&row)?;
        tx.commit().await?;
        Ok(updated)
    }

    /// Takes `game` (as read) back to `ply`, fewer moves than it has, at `position` (where its
    /// first `ply` moves lead): the later moves are deleted and the take-back is counted. Guarded
    /// like a move: fails with [`StoreError::Conflict`] and changes nothing when the game moved
    /// on since it was read.
    pub async fn take_back(&self, game: &GameRecord, ply: u32, position: &Game) -> Result<GameRecord, StoreError> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(&format!(
            "UPDATE games SET position = $1, ply = $2, version = version + 1, updated_at = now(),
                    takebacks = takebacks + 1, reminded_at = NULL, final_notice_at = NULL
             WHERE id = $3 AND version = $4 AND status = 'active' AND ply > $2
             RETURNING {GAME_COLUMNS}"
        ))
        .bind(position.encode())
        .bind(ply as i32)
        .bind(game.id)
        .bind(game.version)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Err(StoreError::Conflict) };
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
            .bind(game.id)
            .bind(ply as i32)
            .execute(&mut *tx)
            .await?;
        let updated = decode_game(&row)?;
        tx.commit().await?;
        Ok(updated)
    }

    /// Ends an active game without a move (resignation, expiry), guarded like a move.
    pub async fn end_game(
        &self,
        game: &GameRecord,
        status: GameStatus,
        result: GameResult,
    ) -> Result<GameRecord, StoreError> {
        self.record_moves(game, &[], &game.game, Some(Finish { status, result, score: None })).await
    }
}
