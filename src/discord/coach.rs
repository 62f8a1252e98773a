//! The kind coach in the bot (docs/design/kind-coach.md). Its rules are the core's
//! ([`settai_core::moves_in_order`], [`settai_core::marks_risky`],
//! [`settai_core::offers_takeback`]), shared with the benchmark's coached child; here, only the
//! place's switches and the stored game. Its words speak of the player's own position only,
//! never of the bot's intentions.

use crate::domain::{PlayedMove, Settings, StoredGame};

/// Whether the board after the player's move `played`, answered into `game`, offers the
/// take-back: hints and take-backs are on and the core's rule holds for the player's own move.
pub(super) fn offers_takeback(settings: &Settings, played: &PlayedMove, game: &StoredGame) -> bool {
    settings.hints
        && settings.takeback
        && !played.by_bot
        && settai_core::offers_takeback(&played.before, played.mv, &game.record.game, game.record.human_to_move())
}
