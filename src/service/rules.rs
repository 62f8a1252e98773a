//! The rules of who may do what, checked on what a request read (its [`Snapshot`]) before
//! anything is written: the board a tap was made on is still the game's, the game is the
//! player's (or the channel's, in team mode), it is their turn. Every front end goes through
//! these; none checks on its own.

use super::{Caller, PlayError, Service};
use crate::domain::{GameStatus, Snapshot, StoredGame};

impl Service {
    /// Refuses a channel that has a game already (the database enforces it too, for a start
    /// racing another).
    pub fn channel_free(snapshot: &Snapshot) -> Result<(), PlayError> {
        match snapshot.game {
            Some(_) => Err(PlayError::ChannelBusy),
            None => Ok(()),
        }
    }

    /// The snapshot's game, or why there is none ([`PlayError::NoGame`], or
    /// [`PlayError::ClosedIdle`] when the last one waited too long).
    pub fn game_here(snapshot: &Snapshot) -> Result<&StoredGame, PlayError> {
        Self::game_of(snapshot, None)
    }

    /// The snapshot's game, which must still be the (game id, ply) a board component was made
    /// for, when the request came from one: otherwise (or when the game is gone) the board is
    /// [`PlayError::Stale`].
    pub(super) fn game_as_expected(
        snapshot: &Snapshot,
        expected: Option<(i64, u32)>,
    ) -> Result<&StoredGame, PlayError> {
        Self::game_of(snapshot, expected.map(|(id, ply)| (id, Some(ply))))
    }

    /// The snapshot's game, which must still be the game (and, when one is given, at the ply) a
    /// component was made for: otherwise, or when the game is gone, [`PlayError::Stale`].
    fn game_of(snapshot: &Snapshot, expected: Option<(i64, Option<u32>)>) -> Result<&StoredGame, PlayError> {
        let game = match (&snapshot.game, expected) {
            (Some(game), _) => game,
            // Why there is no game, when it is news: the game waited too long.
            (None, _) if snapshot.last_ended == Some(GameStatus::Expired) => return Err(PlayError::ClosedIdle),
            (None, Some(_)) => return Err(PlayError::Stale),
            (None, None) => return Err(PlayError::NoGame),
        };
        match expected {
            Some((id, ply)) if game.record.id != id || ply.is_some_and(|p| p != game.record.ply) => {
                Err(PlayError::Stale)
            }
            _ => Ok(game),
        }
    }

    /// The snapshot's game, which `caller`'s user may move in now: the player who started it,
    /// or in team mode anyone in the channel, on the human's turn. Resigning and taking back
    /// stay with the player who started.
    pub fn game_to_move<'a>(
        caller: &Caller,
        snapshot: &'a Snapshot,
        expected: Option<(i64, u32)>,
    ) -> Result<&'a StoredGame, PlayError> {
        let game = Self::game_as_expected(snapshot, expected)?;
        let record = &game.record;
        if record.human_id != caller.user_id && !snapshot.settings.place.team_play {
            return Err(PlayError::NotYourGame { owner: record.human_id });
        }
        if !record.human_to_move() {
            return Err(PlayError::NotYourTurn);
        }
        Ok(game)
    }

    /// The snapshot's game, if `caller`'s user may resign it: only the player who started it.
    /// `game_id`: the game a button was made for (another one means the button is stale).
    pub fn game_to_resign<'a>(
        caller: &Caller,
        snapshot: &'a Snapshot,
        game_id: Option<i64>,
    ) -> Result<&'a StoredGame, PlayError> {
        // A resign button stays good while its game lasts, whatever the ply.
        let game = Self::game_of(snapshot, game_id.map(|id| (id, None)))?;
        if game.record.human_id != caller.user_id {
            return Err(PlayError::NotYourGame { owner: game.record.human_id });
        }
        Ok(game)
    }
}
