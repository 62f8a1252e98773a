//! Games and moves.

use sqlx::Row;

use super::rows::{
    game_columns, moves_of_game, settings_columns, GameRow, GameWithMoves, MoveRow, SettingsRow, GAME_COLUMNS,
};
use super::settings::SETTINGS_OF_PLACE;
use super::{Batch, Store, StoreError};
use crate::domain::{
    Finish, GameRecord, GameResult, GameStatus, MoveRecord, NewGame, NewMove, Place, PlaceRead, PlayerResults,
    DEFAULT_IDLE_DAYS, TERMINAL_CHANNEL,
};
use settai_core::{Game, GameKind};
use sqlx::FromRow;

/// The settings that apply to game `a`, from the most specific: `t` its channel, `p` the
/// channel its thread belongs to, `s` its server (SQL `FROM` clause; pick with `COALESCE`).
pub(super) const SETTINGS_OF_GAME: &str = "FROM games a LEFT JOIN guild_settings s ON s.guild_id = a.guild_id
                   LEFT JOIN channel_settings t ON t.channel_id = a.channel_id AND t.guild_id = a.guild_id
                   LEFT JOIN channel_settings p ON p.channel_id = a.parent_id AND p.guild_id = a.guild_id";

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.code().as_deref() == Some("23505"))
}

impl Store {
    /// How many games are in progress, per game (`kind` as stored); one statement, the
    /// figure a host watches (docs/design/operations.md#the-figures).
    pub async fn active_games_by_kind(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let counts = sqlx::query_as("SELECT kind, count(*) FROM games WHERE status = 'active' GROUP BY kind")
            .fetch_all(&self.pool)
            .await?;
        Ok(counts)
    }

    /// Creates a game; fails with [`StoreError::ChannelBusy`] when the channel has one.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn create_game(&self, new: &NewGame) -> Result<GameRecord, StoreError> {
        let row: GameRow = sqlx::query_as(&format!(
            "INSERT INTO games (guild_id, channel_id, kind, level, human_id, human_side, position_and_start, human_name,
                                parent_id, private_channel, house_takeback, house_commentary)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             RETURNING {GAME_COLUMNS}"
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
        .bind(new.private_channel)
        .bind(new.house_rules.map(|r| r.takeback))
        .bind(new.house_rules.map(|r| r.commentary))
        .fetch_one(&self.pool)
        .await
        .map_err(|e| if is_unique_violation(&e) { StoreError::ChannelBusy } else { e.into() })?;
        row.into_record_holding(&new.game)
    }

    /// The results of `user_id`'s finished games on one server (`None`: in direct messages),
    /// per game kind.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn player_results(
        &self,
        guild_id: Option<u64>,
        user_id: u64,
    ) -> Result<Vec<(GameKind, PlayerResults)>, StoreError> {
        let rows = sqlx::query!(
            r#"SELECT kind, result AS "result!", count(*) AS "games!" FROM games
               WHERE human_id = $1 AND guild_id IS NOT DISTINCT FROM $2 AND status IN ('finished', 'resigned')
               GROUP BY kind, result"#,
            user_id as i64,
            guild_id.map(|g| g as i64),
        )
        .fetch_all(&self.pool)
        .await?;
        let mut out: Vec<(GameKind, PlayerResults)> =
            GameKind::ALL.iter().map(|&k| (k, PlayerResults::default())).collect();
        let taken = sqlx::query!(
            r#"SELECT kind, COALESCE(SUM(takebacks), 0)::BIGINT AS "takebacks!" FROM games
               WHERE human_id = $1 AND guild_id IS NOT DISTINCT FROM $2 GROUP BY kind"#,
            user_id as i64,
            guild_id.map(|g| g as i64),
        )
        .fetch_all(&self.pool)
        .await?;
        for (kind, n) in taken.into_iter().map(|t| (t.kind, t.takebacks)) {
            if let Some((_, record)) = kind.parse::<GameKind>().ok().and_then(|k| out.iter_mut().find(|(o, _)| *o == k))
            {
                record.takebacks = n as u32;
            }
        }
        for (kind, result, n) in rows.into_iter().map(|r| (r.kind, r.result, r.games)) {
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
    /// The rows come back only once the statement is done, so a game whose row does not read
    /// is set apart (closed as `expired` already): every sound game closed is returned, to be
    /// told (docs/design/bot-reliability.md#robustness).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn expire_idle_games(&self) -> Result<Batch<(GameRecord, u32)>, StoreError> {
        // The moves are joined to the rows closed (their table is not written here).
        let rows = sqlx::query(&format!(
            "WITH closed AS (
                 UPDATE games g SET status = 'expired', result = 'draw', finished_at = now(), updated_at = now(),
                        version = g.version + 1
                 FROM (SELECT a.id, COALESCE(t.idle_days, p.idle_days, s.idle_days, {DEFAULT_IDLE_DAYS}) AS days
                       {SETTINGS_OF_GAME}
                       WHERE a.status = 'active') AS limits
                 WHERE g.id = limits.id AND g.status = 'active' AND g.channel_id <> {TERMINAL_CHANNEL}
                   AND g.updated_at < now() - make_interval(days => limits.days)
                 RETURNING {}, limits.days
             )
             SELECT {}, mv.*, c.days FROM closed c {}",
            game_columns("g"),
            game_columns("c"),
            moves_of_game("c"),
        ))
        .fetch_all(&self.pool)
        .await?;
        // A value of the wrong type would be the schema's fault, the same for every row.
        rows.iter()
            .map(|row| {
                let days: i32 = row.try_get("days")?;
                Ok(GameWithMoves::from_row(row)?.into_record_or_corrupt().map(|record| (record, days as u32)))
            })
            .collect()
    }

    /// Closes a game whose stored record cannot be trusted (status `void`); its rows stay for
    /// inspection. Nothing is read back from it, so this works on any corrupt row. An active
    /// game, or one closed as idle (the idle sweep reads its rows only once it has closed
    /// them). With `version`, only if the game is still at that version (it was found corrupt
    /// there). Returns whether this call closed it (false: closed already, by another process
    /// too, or it moved on).
    #[tracing::instrument(level = "debug", skip_all, fields(game = game_id))]
    pub async fn void_game(&self, game_id: i64, version: Option<i32>) -> Result<bool, StoreError> {
        let done = sqlx::query!(
            "UPDATE games SET status = 'void', result = 'draw', finished_at = now(), updated_at = now(),
                    version = version + 1
             WHERE id = $1 AND status IN ('active', 'expired') AND ($2::INTEGER IS NULL OR version = $2)",
            game_id,
            version,
        )
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// What a request needs of `place`, in one statement (one consistent read): the server's
    /// settings with the channel's overrides (the service works out those in effect from them),
    /// the `reader`'s own choices (the player the request answers) and its
    /// active game with its moves, replayed. A game whose row or move list does not add up is
    /// [`StoreError::Corrupt`].
    #[tracing::instrument(level = "debug", skip_all, fields(channel = place.channel_id))]
    pub async fn snapshot(&self, place: &Place, reader: Option<u64>) -> Result<PlaceRead, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {}, {}, mv.*, r.hints AS hints_choice,
                    CASE WHEN a.id IS NULL THEN
                        (SELECT CASE WHEN e.private_channel THEN e.status END
                         FROM games e WHERE e.channel_id = $2 ORDER BY e.id DESC LIMIT 1)
                    END AS last_ended
             {SETTINGS_OF_PLACE}
             LEFT JOIN games a ON a.channel_id = $2 AND a.status = 'active'
             {}
             LEFT JOIN player_settings r ON r.user_id = $4",
            settings_columns(),
            game_columns("a"),
            moves_of_game("a"),
        ))
        .bind(place.guild_id.map(|g| g as i64))
        .bind(place.channel_id as i64)
        .bind(place.parent_id.map(|p| p as i64))
        .bind(reader.map(|r| r as i64))
        .fetch_one(&self.pool)
        .await?;
        // In direct messages nothing is joined: the defaults apply.
        let settings = SettingsRow::from_row(&row)?.into_settings();
        let hints_choice: Option<bool> = row.try_get("hints_choice")?;
        if row.try_get::<Option<i64>, _>("id")?.is_none() {
            // Only a message depends on it: a status that does not read is none.
            let last_ended = row.try_get::<Option<String>, _>("last_ended")?.and_then(|s| GameStatus::parse(&s));
            return Ok(PlaceRead { settings, game: None, hints_choice, last_ended });
        }
        let game = GameWithMoves::from_row(&row)?.into_stored_game()?;
        Ok(PlaceRead { settings, game: Some(game), hints_choice, last_ended: None })
    }

    /// The active game in a channel, if any, without its moves (requests read a
    /// [`Store::snapshot`]; this is for inspection).
    pub async fn active_game(&self, channel_id: u64) -> Result<Option<GameRecord>, StoreError> {
        let row: Option<GameWithMoves> = sqlx::query_as(&format!(
            "SELECT {}, mv.* FROM games a {} WHERE a.channel_id = $1 AND a.status = 'active'",
            game_columns("a"),
            moves_of_game("a"),
        ))
        .bind(channel_id as i64)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| row.into_stored_game().map(|game| game.record)).transpose()
    }

    /// The moves of a game as stored, in order (for inspection and export).
    pub async fn moves(&self, game_id: i64) -> Result<Vec<MoveRecord>, StoreError> {
        let rows = sqlx::query_as!(
            MoveRow,
            r#"SELECT ply, notation, actor = 'bot' AS "by_bot!", user_id FROM moves WHERE game_id = $1 ORDER BY ply"#,
            game_id,
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(MoveRow::into_move).collect())
    }

    /// A game by id.
    pub async fn game(&self, id: i64) -> Result<Option<GameRecord>, StoreError> {
        let row: Option<GameWithMoves> = sqlx::query_as(&format!(
            "SELECT {}, mv.* FROM games a {} WHERE a.id = $1",
            game_columns("a"),
            moves_of_game("a")
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| row.into_stored_game().map(|game| game.record)).transpose()
    }

    /// Every active game, oldest first; fails on the first whose row does not read back (for
    /// inspection: the owed-turn sweep reads [`Store::games_awaiting_bot`]).
    pub async fn active_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.active_games_each().await?.all_sound()
    }

    /// Every active game, oldest first, each row read on its own: a game whose row does not
    /// read back is set apart, the others are returned (docs/design/bot-reliability.md#robustness).
    pub async fn active_games_each(&self) -> Result<Batch<GameRecord>, StoreError> {
        let rows: Vec<GameWithMoves> = sqlx::query_as(&format!(
            "SELECT {}, mv.* FROM games a {} WHERE a.status = 'active' ORDER BY a.id",
            game_columns("a"),
            moves_of_game("a"),
        ))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(GameWithMoves::into_record_or_corrupt).collect())
    }

    /// The active games, oldest first, in which the bot has been to move for at least
    /// `waiting`, by the database's clock, as the `bot_to_move` column stored with each position
    /// says (an indexed predicate: no other game is read). Games whose position does not say
    /// whose turn it is come too, to be found corrupt; the terminal's game never does. Each row
    /// is read on its own: a game whose row does not read back is set apart
    /// (docs/design/bot-reliability.md#robustness).
    pub async fn games_awaiting_bot(&self, waiting: std::time::Duration) -> Result<Batch<GameRecord>, StoreError> {
        let rows: Vec<GameWithMoves> = sqlx::query_as(&format!(
            "SELECT {}, mv.* FROM games a {}
             WHERE a.bot_to_move IS NOT FALSE AND a.status = 'active' AND a.channel_id <> $2
               AND a.updated_at <= now() - make_interval(secs => $1)
             ORDER BY a.id",
            game_columns("a"),
            moves_of_game("a"),
        ))
        .bind(waiting.as_secs_f64())
        .bind(TERMINAL_CHANNEL as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(GameWithMoves::into_record_or_corrupt).collect())
    }

    /// Records `moves` played on `game` (as read, at `game.version`) leading to `position`, and
    /// ends the game if `finish` says so. All or nothing: fails with [`StoreError::Conflict`] and
    /// changes nothing when the game moved on since it was read.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn record_moves(
        &self,
        game: &GameRecord,
        moves: &[NewMove],
        position: &Game,
        finish: Option<Finish>,
    ) -> Result<GameRecord, StoreError> {
        let new_ply = game.ply + moves.len() as u32;
        let (status, result, score) = match finish {
            Some(f) => (f.status, Some(f.result), f.score),
            None => (GameStatus::Active, None, None),
        };
        let plies: Vec<i32> = (1..=moves.len() as u32).map(|i| (game.ply + i) as i32).collect();
        let notations: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
        let actors: Vec<&str> = moves.iter().map(|m| if m.by_bot { "bot" } else { "human" }).collect();
        let users: Vec<Option<i64>> = moves.iter().map(|m| m.user_id.map(|u| u as i64)).collect();
        // One statement, so all or nothing without a transaction: the moves are added only
        // when the guarded update found the game still as read.
        let row: Option<GameRow> = sqlx::query_as(&format!(
            "WITH updated AS (
                 UPDATE games SET position_and_start = $1, ply = $2, status = $3, result = $4, final_score = $5,
                        version = version + 1, updated_at = now(), reminded_at = NULL, final_notice_at = NULL,
                        finished_at = CASE WHEN $3 = 'active' THEN NULL ELSE now() END
                 WHERE id = $6 AND version = $7 AND status = 'active'
                 RETURNING {GAME_COLUMNS}
             ), added AS (
                 INSERT INTO moves (game_id, ply, notation, actor, user_id)
                 SELECT updated.id, m.ply, m.notation, m.actor, m.user_id
                 FROM updated, unnest($8::INTEGER[], $9::TEXT[], $10::TEXT[], $11::BIGINT[])
                      AS m(ply, notation, actor, user_id)
             )
             SELECT * FROM updated"
        ))
        .bind(position.encode())
        .bind(new_ply as i32)
        .bind(status.as_str())
        .bind(result.map(GameResult::as_str))
        .bind(score.map(|(a, b)| format!("{a}-{b}")))
        .bind(game.id)
        .bind(game.version)
        .bind(&plies)
        .bind(&notations)
        .bind(&actors)
        .bind(&users)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| if is_unique_violation(&e) { StoreError::Conflict } else { e.into() })?;
        row.ok_or(StoreError::Conflict)?.into_record_holding(position)
    }

    /// Takes `game` (as read) back to `ply`, fewer moves than it has, at `position` (where its
    /// first `ply` moves lead): the later moves are deleted and the take-back is counted. Guarded
    /// like a move: fails with [`StoreError::Conflict`] and changes nothing when the game moved
    /// on since it was read.
    #[tracing::instrument(level = "debug", skip_all, fields(game = game.id))]
    pub async fn take_back(
        &self,
        game: &GameRecord,
        ply: u32,
        position: &Game,
        withdraws_blunder: bool,
    ) -> Result<GameRecord, StoreError> {
        let row: Option<GameRow> = sqlx::query_as(&format!(
            "WITH updated AS (
                 UPDATE games SET position_and_start = $1, ply = $2, version = version + 1, updated_at = now(),
                        takebacks = takebacks + 1, reminded_at = NULL, final_notice_at = NULL,
                        withdrew_blunder = withdrew_blunder OR $5
                 WHERE id = $3 AND version = $4 AND status = 'active' AND ply > $2
                 RETURNING {GAME_COLUMNS}
             ), removed AS (
                 DELETE FROM moves WHERE game_id = (SELECT id FROM updated) AND ply > $2
             )
             SELECT * FROM updated"
        ))
        .bind(position.encode())
        .bind(ply as i32)
        .bind(game.id)
        .bind(game.version)
        .bind(withdraws_blunder)
        .fetch_optional(&self.pool)
        .await?;
        row.ok_or(StoreError::Conflict)?.into_record_holding(position)
    }

    /// Ends an active game without a move (resignation, expiry), guarded like a move.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn end_game(
        &self,
        game: &GameRecord,
        status: GameStatus,
        result: GameResult,
    ) -> Result<GameRecord, StoreError> {
        self.record_moves(game, &[], &game.game, Some(Finish { status, result, score: None })).await
    }
}
