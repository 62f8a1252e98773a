//! Games that wait (docs/design/bot-reliability.md#families-and-children): those idle past
//! their limit, those owed a reminder, the board a reminder links to, and the turns the bot
//! owes (a game it opens whose first move was never stored: the process stopped, or the turn
//! failed).
//!
//! Each sweep reads many games at once; a game among them whose row does not read back is
//! closed as corrupt and the sweep goes on with the others
//! (docs/design/bot-reliability.md#robustness).

use super::{PlayError, Service};
use crate::domain::{BoardRemembered, GameRecord, Nudge};
use crate::store::Batch;

impl Service {
    /// Closes games idle past their server's limit; returns them with the limit in days. A
    /// game among them that does not read back is closed as corrupt instead, and not returned.
    pub async fn expire_idle(&self) -> Result<Vec<(GameRecord, u32)>, PlayError> {
        let expired = self.store.expire_idle_games().await?;
        Ok(self.close_corrupt("idle", expired).await)
    }

    /// Games owed a reminder or a final notice now (see [`Store::games_owed_nudges`](crate::store::Store::games_owed_nudges)),
    /// which are waiting for their player. One that does not read back is closed.
    pub async fn owed_nudges(&self) -> Result<Vec<(GameRecord, Nudge)>, PlayError> {
        let owed = self.store.games_owed_nudges().await?;
        let owed = self.close_corrupt("reminders", owed).await;
        // The store reads whose turn it is from the position's text; only the decoded game knows
        // whether it is over.
        Ok(owed.into_iter().filter(|(record, _)| record.human_to_move()).collect())
    }

    /// The sound games of `batch`, read by `sweep` (one of [`crate::metrics::SWEEPS`]), after
    /// closing its corrupt ones (as `void`, at the version read), each logged and counted by the
    /// process that closed it. A game that could not be closed (the database failed, or it moved
    /// on) is left to the next sweep, which reads it again.
    async fn close_corrupt<T>(&self, sweep: &'static str, batch: Batch<T>) -> Vec<T> {
        for bad in batch.corrupt {
            match self.store.void_game(bad.game_id, Some(bad.version)).await {
                Ok(true) => {
                    self.figures.corrupt_game_closed(sweep);
                    tracing::warn!(
                        game = bad.game_id,
                        reason = bad.reason,
                        sweep,
                        "a stored game is corrupt: closed, not trusted"
                    );
                }
                Ok(false) => {}
                Err(e) => {
                    self.figures.database_error();
                    tracing::warn!(error = %e, game = bad.game_id, sweep, "could not close a corrupt game; will try again");
                }
            }
        }
        batch.sound
    }

    /// Records that `nudge` goes out for `record` now; false when it already went (or the game
    /// moved on), and then it must not be sent.
    #[tracing::instrument(level = "debug", skip_all, fields(game = record.id))]
    pub async fn claim_nudge(&self, record: &GameRecord, nudge: Nudge) -> Result<bool, PlayError> {
        Ok(self.store.claim_nudge(record, nudge).await?)
    }

    /// Remembers `message_id` as the board of `record` (as it was when the board was drawn), in
    /// place of the board `record` names, unless another was remembered meanwhile.
    pub async fn set_board_message(&self, record: &GameRecord, message_id: u64) -> Result<BoardRemembered, PlayError> {
        Ok(self.store.set_board_message(record.id, record.ply, message_id, record.board_message_id).await?)
    }

    /// Active games in which the bot is to move. A player's move is stored with the bot's
    /// answer, so only a game the bot opens is stored waiting for it (before the bot thinks); a
    /// process that stopped then, or a turn that failed (the database blinked, the search
    /// failed), leaves it so, as does an older version's game. Not the terminal's: `settai play`
    /// replies when it is opened again.
    pub async fn games_awaiting_bot(&self) -> Result<Vec<GameRecord>, PlayError> {
        self.games_awaiting_bot_for(std::time::Duration::ZERO).await
    }

    /// Active games in which the bot has been to move for at least `waiting` (see
    /// [`Service::games_awaiting_bot`]). Only those are read
    /// ([`Store::games_awaiting_bot`](crate::store::Store::games_awaiting_bot)).
    pub async fn games_awaiting_bot_for(&self, waiting: std::time::Duration) -> Result<Vec<GameRecord>, PlayError> {
        let games = self.store.games_awaiting_bot(waiting).await?;
        let games = self.close_corrupt("owed_turns", games).await.into_iter();
        // The store reads whose turn it is from the position's text; only the decoded game knows
        // whether it is over.
        Ok(games.filter(GameRecord::bot_to_move).collect())
    }
}
