//! A player's move checked on the game as read and held, not yet stored, while the bot thinks
//! of its reply ([`Turn`]); and the claim that keeps a second tap on the same game from being
//! played meanwhile (ARCHITECTURE.md, "What flows where": what a tap costs).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use crate::domain::{PlayedMove, StoredGame};
use settai_core::Game;

/// A player's move, checked on the game as its request read it and held until the bot's turn
/// is ready: [`super::Service::finish_turn`] stores the two in one statement. Dropped unstored, it
/// changes nothing.
#[derive(Debug)]
pub struct Turn {
    /// The game as the request read it.
    pub game: StoredGame,
    /// The player's move, with the position before it.
    pub played: PlayedMove,
    /// The position after it.
    pub(super) after: Game,
    /// This process plays no other move on the game while the turn is held.
    pub(super) claim: Claim,
}

/// The games of this process with a player's move held ([`Turn`]). Between processes the
/// game's version guards the write; inside one, a second tap is refused at once rather than
/// after the bot has thought about both.
#[derive(Debug, Clone, Default)]
pub(super) struct Claims(Arc<Mutex<HashSet<i64>>>);

impl Claims {
    /// Claims `game_id`; `None` when a move of it is already held.
    pub(super) fn claim(&self, game_id: i64) -> Option<Claim> {
        let fresh = self.0.lock().unwrap_or_else(PoisonError::into_inner).insert(game_id);
        fresh.then(|| Claim { claims: self.clone(), game_id })
    }
}

/// A game claimed in [`Claims`] until this is dropped.
#[derive(Debug)]
pub(super) struct Claim {
    claims: Claims,
    game_id: i64,
}

impl Drop for Claim {
    fn drop(&mut self) {
        self.claims.0.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.game_id);
    }
}

#[cfg(test)]
mod tests {
    use super::Claims;

    #[test]
    fn a_game_is_claimed_once_until_its_claim_is_dropped() {
        let claims = Claims::default();
        let first = claims.claim(7).expect("a fresh game is claimed");
        assert!(claims.claim(7).is_none(), "held");
        assert!(claims.claim(8).is_some(), "another game is free");
        drop(first);
        assert!(claims.claim(7).is_some(), "free again once dropped");
    }
}
