//! Domain types and the packed rules core.
//!
//! One folder on purpose: the typed values and the packed core share the private invariants of
//! the packed layout (nibbles, hands, the flip), which no module outside it may see; its files
//! share them through `pub(super)` items and hand the rest of the crate what it needs below.
//!
//! A position is one `u64` seen from the side to move ("mover-relative"): the mover always
//! plays up the board, so the table needs no colour and a move is applied by editing nibbles
//! and then [`flip`](packed::flip)ping the board to the other player's point of view.
//!
//! Packed layout (bits 0..60):
//! - bits `4*i..4*i+4`, `i = row * 3 + col` (row 0 is the mover's far row): the piece on
//!   square `i`; 0 empty, 1..=5 lion, giraffe, elephant, chick, hen of the mover, `| 8` for
//!   the opponent's;
//! - bits 48..54: the mover's hand, two bits per kind (giraffe, elephant, chick);
//! - bits 54..60: the opponent's hand, same order.
//!
//! [`types`]: the typed values; [`board`]: [`Position`]; [`packed`]: the layout's codes and
//! nibbles; [`movegen`]: moves on packed keys, forwards and backwards; [`status`](mod@status): the
//! terminal rules.

mod board;
mod movegen;
mod packed;
mod status;
mod types;

pub use board::Position;
pub use types::{Color, Ending, IllegalMove, Move, Piece, Role, Square, WinReason};

pub(crate) use movegen::{child, gen_moves, unmoves, MoveBuf, MOVES};
pub(crate) use packed::{canon, hand, mirror, nib, set_nib, BOARD_MASK, CHICK, ELEPHANT, GIRAFFE, HEN, LION, OPP};
pub(crate) use status::{can_capture_lion, mover_can_win_at_once, status, Status};

// The flip itself, for the tests' cross-checks (inside this folder it is the packed core's own).
#[cfg(test)]
pub(crate) use packed::flip;
