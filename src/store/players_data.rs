//! A player's data on request (docs/design/players-data.md): counted, exported, erased; and
//! the servers that removed the bot, whose data is deleted after a grace period.

use super::{Store, StoreError};
use crate::domain::{DataCounts, Forgotten, GameData, MoveData, PlayerChoices, PlayerData, FORGOTTEN_PLAYER};

impl Store {
    /// What is kept about `user_id`, counted (one statement).
    pub async fn data_counts(&self, user_id: u64) -> Result<DataCounts, StoreError> {
        let row = sqlx::query!(
            r#"SELECT
                 (SELECT count(*) FROM games WHERE human_id = $1 AND status <> 'active') AS "finished!",
                 (SELECT count(*) FROM games WHERE human_id = $1 AND status = 'active') AS "active!",
                 (SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id
                   WHERE m.user_id = $1 AND g.human_id <> $1) AS "others!",
                 EXISTS (SELECT 1 FROM player_settings WHERE user_id = $1) AS "choices!""#,
            user_id as i64,
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(DataCounts {
            finished_games: row.finished as u64,
            games_in_progress: row.active as u64,
            moves_in_others_games: row.others as u64,
            choices: row.choices,
        })
    }

    /// Everything kept about `user_id`, read in one transaction (a consistent picture).
    pub async fn player_data(&self, user_id: u64) -> Result<PlayerData, StoreError> {
        let id = user_id as i64;
        let mut tx = self.pool.begin().await?;
        let choices = sqlx::query!("SELECT reminders, hints, updated_at FROM player_settings WHERE user_id = $1", id)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| PlayerChoices { reminders: r.reminders, hints: r.hints, updated_at: r.updated_at });
        let games = sqlx::query!(
            "SELECT id, guild_id, channel_id, kind, level, human_side, human_name, status, result, final_score,
                    takebacks, created_at, finished_at
             FROM games WHERE human_id = $1 ORDER BY id",
            id
        )
        .fetch_all(&mut *tx)
        .await?;
        let moves = sqlx::query!(
            "SELECT m.game_id, m.ply, m.notation, m.actor, m.user_id, m.played_at
             FROM moves m JOIN games g ON g.id = m.game_id WHERE g.human_id = $1 ORDER BY m.game_id, m.ply",
            id
        )
        .fetch_all(&mut *tx)
        .await?;
        let others = sqlx::query!(
            "SELECT m.game_id, m.ply, m.notation, m.played_at
             FROM moves m JOIN games g ON g.id = m.game_id
             WHERE m.user_id = $1 AND g.human_id <> $1 ORDER BY m.game_id, m.ply",
            id
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let by = |actor: &str, mover: Option<i64>| match (actor, mover) {
            ("bot", _) => "bot",
            (_, Some(m)) if m == id => "you",
            _ => "another player",
        };
        let mut moves = moves.into_iter().peekable();
        let games = games
            .into_iter()
            .map(|g| {
                let mut own = Vec::new();
                while let Some(m) = moves.next_if(|m| m.game_id == g.id) {
                    own.push(MoveData {
                        game_id: m.game_id,
                        ply: m.ply,
                        by: by(&m.actor, m.user_id),
                        notation: m.notation,
                        played_at: m.played_at,
                    });
                }
                GameData {
                    id: g.id,
                    guild_id: g.guild_id.map(|g| g as u64),
                    channel_id: g.channel_id as u64,
                    game: g.kind,
                    level: g.level,
                    moved_first: g.human_side == 0,
                    name: g.human_name,
                    status: g.status,
                    result: g.result,
                    final_score: g.final_score,
                    takebacks: g.takebacks,
                    created_at: g.created_at,
                    finished_at: g.finished_at,
                    moves: own,
                }
            })
            .collect();
        let moves_in_others_games = others
            .into_iter()
            .map(|m| MoveData {
                game_id: m.game_id,
                ply: m.ply,
                notation: m.notation,
                by: "you",
                played_at: m.played_at,
            })
            .collect();
        Ok(PlayerData { user_id, choices, games, moves_in_others_games })
    }

    /// Erases `user_id` in one transaction: their games still on are ended (resigned), every
    /// game they started keeps [`FORGOTTEN_PLAYER`] and no name in place of theirs (its moves
    /// stay, so the other players' games and results are intact), their moves in others' games
    /// lose their id, and their own choices are deleted. Their results and take-backs go with
    /// their id.
    pub async fn forget_player(&self, user_id: u64) -> Result<Forgotten, StoreError> {
        let id = user_id as i64;
        let mut tx = self.pool.begin().await?;
        let ended = sqlx::query_scalar!(
            "UPDATE games SET status = 'resigned', result = 'bot', finished_at = now(), updated_at = now(),
                              version = version + 1
             WHERE human_id = $1 AND status = 'active' RETURNING id",
            id
        )
        .fetch_all(&mut *tx)
        .await?;
        let games = sqlx::query!(
            "UPDATE games SET human_id = $2, human_name = '' WHERE human_id = $1",
            id,
            FORGOTTEN_PLAYER as i64
        )
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let moves = sqlx::query!("UPDATE moves SET user_id = NULL WHERE user_id = $1", id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let choices =
            sqlx::query!("DELETE FROM player_settings WHERE user_id = $1", id).execute(&mut *tx).await?.rows_affected()
                > 0;
        tx.commit().await?;
        Ok(Forgotten { games, ended, moves, choices })
    }

    /// What is kept about `guild_id`: its games, and whether it has settings of its own (for
    /// the server or any of its channels).
    pub async fn guild_data_counts(&self, guild_id: u64) -> Result<(u64, bool), StoreError> {
        let row = sqlx::query!(
            r#"SELECT (SELECT count(*) FROM games WHERE guild_id = $1) AS "games!",
                      (EXISTS (SELECT 1 FROM guild_settings WHERE guild_id = $1)
                       OR EXISTS (SELECT 1 FROM channel_settings WHERE guild_id = $1)) AS "settings!""#,
            guild_id as i64
        )
        .fetch_one(&self.pool)
        .await?;
        Ok((row.games as u64, row.settings))
    }

    /// Records that the bot was removed from `guild_id` (now, unless already recorded).
    pub async fn guild_left(&self, guild_id: u64) -> Result<(), StoreError> {
        sqlx::query!(
            "INSERT INTO guild_departures (guild_id) VALUES ($1) ON CONFLICT (guild_id) DO NOTHING",
            guild_id as i64
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records that the bot is in `guild_id` (again): nothing of it is to be deleted.
    pub async fn guild_present(&self, guild_id: u64) -> Result<(), StoreError> {
        sqlx::query!("DELETE FROM guild_departures WHERE guild_id = $1", guild_id as i64).execute(&self.pool).await?;
        Ok(())
    }

    /// Deletes the settings and games (with their moves) of every server that removed the bot
    /// at least `grace_days` ago, and forgets their departure; the servers deleted and how many
    /// games each had.
    pub async fn purge_departed_guilds(&self, grace_days: u32) -> Result<Vec<(u64, u64)>, StoreError> {
        let due = sqlx::query_scalar!(
            "SELECT guild_id FROM guild_departures WHERE left_at <= now() - make_interval(days => $1) ORDER BY guild_id",
            grace_days as i32
        )
        .fetch_all(&self.pool)
        .await?;
        let mut purged = Vec::with_capacity(due.len());
        for guild_id in due {
            let games = self.forget_guild(guild_id as u64).await?;
            purged.push((guild_id as u64, games));
        }
        Ok(purged)
    }

    /// Deletes everything kept about `guild_id` now, in one transaction: its settings, its
    /// channels' settings, its games with their moves, its departure; how many games it had.
    pub async fn forget_guild(&self, guild_id: u64) -> Result<u64, StoreError> {
        let id = guild_id as i64;
        let mut tx = self.pool.begin().await?;
        let games = sqlx::query!("DELETE FROM games WHERE guild_id = $1", id).execute(&mut *tx).await?.rows_affected();
        sqlx::query!("DELETE FROM channel_settings WHERE guild_id = $1", id).execute(&mut *tx).await?;
        sqlx::query!("DELETE FROM guild_settings WHERE guild_id = $1", id).execute(&mut *tx).await?;
        sqlx::query!("DELETE FROM guild_departures WHERE guild_id = $1", id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(games)
    }
}
