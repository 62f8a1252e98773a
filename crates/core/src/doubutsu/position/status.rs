//! The terminal rules on packed keys: whether a game is over and who won, and whether the
//! mover can win on the spot.

use super::movegen::{child, gen_moves, mover_attacks, MoveBuf};
use super::packed::{nib, LION, OPP};
use super::types::WinReason;

/// Terminal status of a packed position from the mover's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Ongoing,
    MoverWon(WinReason),
    MoverLost(WinReason),
}

/// Terminal rules, in order: the mover's lion was captured; the mover's lion stands on the
/// far row (the opponent did not capture it: try completed); the opponent's lion stands on
/// the mover's home row and cannot be captured (try completed, counted at the try move);
/// no legal move.
#[inline]
pub(crate) fn status(k: u64) -> Status {
    let (mut ml, mut ol) = (usize::MAX, usize::MAX);
    for i in 0..12 {
        match nib(k, i) {
            n if n == LION => ml = i,
            n if n == LION | OPP => ol = i,
            _ => {}
        }
    }
    if ml == usize::MAX {
        return Status::MoverLost(WinReason::LionCaptured);
    }
    if ml < 3 {
        return Status::MoverWon(WinReason::Try);
    }
    if ol >= 9 && !mover_attacks(k, ol) {
        return Status::MoverLost(WinReason::Try);
    }
    if (k >> 48) & 0x3F == 0 {
        let mut buf = MoveBuf::new();
        gen_moves(k, &mut buf);
        if buf.len == 0 {
            return Status::MoverLost(WinReason::NoMoves);
        }
    }
    Status::Ongoing
}

/// Whether the mover can capture the opponent's lion right now.
#[inline]
pub(crate) fn can_capture_lion(k: u64) -> bool {
    (0..12).find(|&i| nib(k, i) == LION | OPP).is_some_and(|ol| mover_attacks(k, ol))
}

/// Whether the mover of the ongoing `k` has a move that wins on the spot: it captures the
/// lion, its lion steps onto the far row out of reach, or the opponent is left without a move.
/// Exact; the full look at every move only where a try or a stalemate is possible at all.
pub(crate) fn mover_can_win_at_once(k: u64) -> bool {
    if can_capture_lion(k) {
        return true;
    }
    let lion_next_to_far_row = (3..6).any(|i| nib(k, i) == LION);
    let opponent_hand_empty = (k >> 54) & 0x3F == 0;
    if !lion_next_to_far_row && !opponent_hand_empty {
        return false;
    }
    let mut buf = MoveBuf::new();
    gen_moves(k, &mut buf);
    buf.as_slice().iter().any(|&m| matches!(status(child(k, m)), Status::MoverLost(_)))
}
