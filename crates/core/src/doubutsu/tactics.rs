//! What a move does on the board, by the rules alone (no table): wins or loses at once,
//! corners the opponent, repeats a position, looks natural. The pieces of [`settai`]'s
//! deviations that need no values (docs/design/doubutsu-settai.md), and of the benches that
//! watch for them.
//!
//! [`settai`]: super::players::settai

use super::game::History;
use super::position::{Color, Ending, Move, Position, Role};

/// Whether `mv`, played in `before`, lost at once (it left the opponent a capture of the lion
/// or a try, or missed a lion capture on the far row) although another move did not: the
/// blunder after which [`settai`](super::players::settai) lifts its own loss-in-one exclusion
/// for one reply. Moves forced to lose at once do not count.
pub fn guest_lost_at_once(before: &Position, mv: Move) -> bool {
    before.loses_needlessly(mv)
}

/// Whether, after `mv`, the opponent has a move that does not lose at once (or the game is
/// over): `mv` does not corner them (deviation 6,
/// docs/design/doubutsu-settai.md#deviation-6-leaving-a-careless-guest-a-way-out).
pub(crate) fn leaves_a_way_out(pos: &Position, mv: Move) -> bool {
    let Ok(after) = pos.play(mv) else { return true };
    after.outcome().is_some() || after.legal_moves().into_iter().any(|g| !after.loses_at_once(g))
}

/// Whether the guest (the side not to move) has made a move in `game` that lost at once
/// although another did not ([`guest_lost_at_once`]), even one it took back: a guest who does
/// not yet see captures.
pub fn guest_was_careless(game: &History) -> bool {
    let guest = game.position().turn().opposite();
    let positions = game.positions();
    game.withdrew_blunder(guest)
        || game.moves().iter().enumerate().any(|(i, &mv)| {
            let before = &positions[i];
            before.turn() == guest && guest_lost_at_once(before, mv)
        })
}

/// Whether `mv` wins on the spot (captures the lion or completes a try).
pub(crate) fn wins_at_once(pos: &Position, mv: Move) -> bool {
    pos.play(mv).ok().and_then(|c| c.outcome()).and_then(Ending::winner) == Some(pos.turn())
}

/// Whether `mv` walks the mover's lion onto the opponent's home row (a try, won unless the
/// lion can be and is captured at once).
pub(crate) fn try_attempt(pos: &Position, mv: Move) -> bool {
    let far_row = if pos.turn() == Color::Sente { 0 } else { 3 };
    match mv {
        Move::Normal { from, to } => {
            to.row() == far_row && pos.piece_at(from).is_some_and(|p| p.role == Role::Lion && p.color == pos.turn())
        }
        Move::Drop { .. } => false,
    }
}

/// How many times the position after `mv` has already occurred in `game`.
pub fn seen_before(game: &History, mv: Move) -> usize {
    let Ok(next) = game.position().play(mv) else { return 0 };
    game.positions().iter().filter(|p| **p == next).count()
}

fn material(role: Role) -> i32 {
    match role {
        Role::Chick => 1,
        Role::Giraffe | Role::Elephant | Role::Hen => 3,
        Role::Lion => 100,
    }
}

/// How natural a move looks: material it wins minus the most valuable piece it leaves
/// capturable by the reply.
pub(crate) fn naturalness(pos: &Position, mv: Move) -> i32 {
    let gain = pos.captured(mv).map_or(0, |p| material(p.role));
    let Ok(next) = pos.play(mv) else { return i32::MIN };
    let loss =
        next.legal_moves().into_iter().filter_map(|r| next.captured(r)).map(|p| material(p.role)).max().unwrap_or(0);
    gain - loss
}
