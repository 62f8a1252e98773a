//! Reminders of games waiting for a player: which are due, what was sent (so a restart or a
//! second process never sends one twice), each player's own choice, and the board message a
//! reminder links to.

use sqlx::Row;

use super::games::SETTINGS_OF_GAME;
use super::rows::{game_columns, moves_of_game, GameWithMoves};
use super::{Batch, Store, StoreError};
use crate::domain::{BoardRemembered, GameRecord, Nudge, DEFAULT_IDLE_DAYS, DEFAULT_REMINDER_HOURS, TERMINAL_CHANNEL};
use sqlx::FromRow;

impl Store {
    /// Active games owed a reminder or a final notice now, by the settings of their place and
    /// their player's own choice: the reminder after the place's reminder hours without a
    /// change, the final notice one day before the idle limit (limits of two days or more).
    /// Nothing is owed where reminders are off, nor at the terminal, nor in a game the bot is
    /// to move in (the `bot_to_move` column stored with the position; one whose position does
    /// not say whose turn it is comes, to be found corrupt). A game whose row does not read back
    /// is set apart, the others are returned (docs/design/bot-reliability.md#robustness).
    pub async fn games_owed_nudges(&self) -> Result<Batch<(GameRecord, Nudge)>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {}, mv.*, limits.days,
                    (g.final_notice_at IS NULL AND limits.days >= 2
                     AND g.updated_at <= now() - make_interval(days => limits.days - 1)) AS final_due
             FROM games g
             JOIN (SELECT a.id, COALESCE(t.idle_days, p.idle_days, s.idle_days, {DEFAULT_IDLE_DAYS}) AS days,
                          COALESCE(t.reminder_hours, p.reminder_hours, s.reminder_hours, {DEFAULT_REMINDER_HOURS})
                              AS hours
                   {SETTINGS_OF_GAME}
                   WHERE a.status = 'active') AS limits ON limits.id = g.id
             LEFT JOIN player_settings ps ON ps.user_id = g.human_id
             {}
             WHERE g.status = 'active' AND g.bot_to_move IS NOT TRUE AND g.channel_id <> {TERMINAL_CHANNEL}
               AND limits.hours > 0
               AND COALESCE(ps.reminders, TRUE)
               AND ((g.reminded_at IS NULL AND g.updated_at <= now() - make_interval(hours => limits.hours))
                    OR (g.final_notice_at IS NULL AND limits.days >= 2
                        AND g.updated_at <= now() - make_interval(days => limits.days - 1)))
             ORDER BY g.id",
            game_columns("g"),
            moves_of_game("g"),
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let days: i32 = row.try_get("days")?;
                let final_due: bool = row.try_get("final_due")?;
                let nudge = if final_due { Nudge::FinalNotice { days: days as u32 } } else { Nudge::Reminder };
                Ok(GameWithMoves::from_row(row)?.into_record_or_corrupt().map(|record| (record, nudge)))
            })
            .collect()
    }

    /// Records that `nudge` is being sent for `game` as read (at its version); false when it
    /// was already recorded (by another sweep) or the game moved on meanwhile. Recorded before
    /// sending: at most one of each per wait, whatever happens to the process. A final notice
    /// also stands for the reminder (one message per wait is enough that late).
    pub async fn claim_nudge(&self, game: &GameRecord, nudge: Nudge) -> Result<bool, StoreError> {
        let claim = match nudge {
            Nudge::Reminder => sqlx::query!(
                "UPDATE games SET reminded_at = now()
                 WHERE id = $1 AND version = $2 AND status = 'active' AND reminded_at IS NULL",
                game.id,
                game.version,
            ),
            Nudge::FinalNotice { .. } => sqlx::query!(
                "UPDATE games SET final_notice_at = now(), reminded_at = COALESCE(reminded_at, now())
                 WHERE id = $1 AND version = $2 AND status = 'active' AND final_notice_at IS NULL",
                game.id,
                game.version,
            ),
        };
        let done = claim.execute(&self.pool).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records `message_id` as the board of `game_id` showing ply `ply`, in place of `replaces`
    /// (the board remembered when the game was read): unless the game has moved on or ended
    /// since, or another board was remembered meanwhile. Of two boards posted at once for one
    /// position, the first remembered wins, and the other knows it lost (it must then offer
    /// nothing). One statement: the update and, where it lost, the board remembered now.
    pub async fn set_board_message(
        &self,
        game_id: i64,
        ply: u32,
        message_id: u64,
        replaces: Option<u64>,
    ) -> Result<BoardRemembered, StoreError> {
        let row = sqlx::query!(
            r#"WITH won AS (
                   UPDATE games SET board_message_id = $3
                   WHERE id = $1 AND ply = $2 AND status = 'active'
                     AND (board_message_id IS NOT DISTINCT FROM $4 OR board_message_id = $3)
                   RETURNING id
               )
               SELECT EXISTS (SELECT 1 FROM won) AS "won!",
                      (SELECT board_message_id FROM games WHERE id = $1) AS now,
                      (SELECT status <> 'active' FROM games WHERE id = $1) AS over"#,
            game_id,
            ply as i32,
            message_id as i64,
            replaces.map(|m| m as i64),
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(if row.won {
            BoardRemembered::Yes
        } else {
            BoardRemembered::Lost { now: row.now.map(|m| m as u64), over: row.over.unwrap_or(true) }
        })
    }

    /// Whether `user_id` wants reminders of their waiting games (yes unless they said no).
    pub async fn reminders_wanted(&self, user_id: u64) -> Result<bool, StoreError> {
        let on = sqlx::query_scalar!("SELECT reminders FROM player_settings WHERE user_id = $1", user_id as i64)
            .fetch_optional(&self.pool)
            .await?;
        Ok(on.unwrap_or(true))
    }

    /// Records whether `user_id` wants reminders, on every server.
    pub async fn set_reminders_wanted(&self, user_id: u64, on: bool) -> Result<(), StoreError> {
        sqlx::query!(
            "INSERT INTO player_settings (user_id, reminders) VALUES ($1, $2)
             ON CONFLICT (user_id) DO UPDATE SET reminders = EXCLUDED.reminders, updated_at = now()",
            user_id as i64,
            on,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
