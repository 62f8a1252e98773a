//! Games that wait (docs/design/bot-reliability.md#families-and-children): those idle past
//! their limit, those owed a reminder, the board a reminder links to, and the turns the bot
//! still owes after a crash or a failed reply.

use super::{PlayError, Service};
use crate::domain::{GameRecord, Nudge};

impl Service {
    /// Closes games idle past their server's limit; returns them with the limit in days.
    pub async fn expire_idle(&self) -> Result<Vec<(GameRecord, u32)>, PlayError> {
        Ok(self.store.expire_idle_games().await?)
    }

    /// Games owed a reminder or a final notice now (see [`Store::games_owed_nudges`](crate::store::Store::games_owed_nudges)); only
    /// those waiting for their player, not for the bot.
    pub async fn owed_nudges(&self) -> Result<Vec<(GameRecord, Nudge)>, PlayError> {
        let owed = self.store.games_owed_nudges().await?;
        Ok(owed.into_iter().filter(|(record, _)| record.human_to_move()).collect())
    }

    /// Records that `nudge` goes out for `record` now; false when it already went (or the game
    /// moved on), and then it must not be sent.
    #[tracing::instrument(level = "debug", skip_all, fields(game = record.id))]
    pub async fn claim_nudge(&self, record: &GameRecord, nudge: Nudge) -> Result<bool, PlayError> {
        Ok(self.store.claim_nudge(record, nudge).await?)
    }

    /// Remembers `message_id` as the board of `record` (as it was when the board was drawn).
    pub async fn set_board_message(&self, record: &GameRecord, message_id: u64) -> Result<bool, PlayError> {
        Ok(self.store.set_board_message(record.id, record.ply, message_id).await?)
    }

    /// Active games in which the bot is to move: a crash between a human move and the bot's
    /// reply leaves them so. Not the terminal's: `settai play` replies when it is opened again.
    pub async fn games_awaiting_bot(&self) -> Result<Vec<GameRecord>, PlayError> {
        self.games_awaiting_bot_for(std::time::Duration::ZERO).await
    }

    /// Active games in which the bot has been to move for at least `waiting` (a reply that
    /// failed after the human's move was stored, e.g. when the database blinked, leaves them so
    /// while the process runs on).
    pub async fn games_awaiting_bot_for(&self, waiting: std::time::Duration) -> Result<Vec<GameRecord>, PlayError> {
        let since = chrono::Utc::now() - chrono::Duration::from_std(waiting).unwrap_or(chrono::Duration::MAX);
        let games = self.store.active_games().await?.into_iter();
        Ok(games.filter(|r| r.bot_to_move() && r.updated_at <= since && !r.at_terminal()).collect())
    }
}
