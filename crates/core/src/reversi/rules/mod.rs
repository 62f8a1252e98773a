//! The rules of reversi: the board and its moves, the flips, notation, perft and seeded random
//! play. Imports nothing of the engine or the levels.
//!
//! - [`board`]: colours, squares, moves, [`Position`](board::Position) and the fast bitboard
//!   core ([`board::moves`], [`board::flips`] on (player, opponent) pairs) used by search; the
//!   flips are computed by one routine per square (`flips`), and [`last_flip`] counts those of
//!   a game's last move without making it.
//! - [`notation`]: parsing/printing squares, moves, move lists and the 64+2 character position
//!   format (`X` black, `O` white, `-` empty, then the side to move), and [`notation::replay`].
//! - [`perft`](mod@perft): move-sequence counting, for checking and benchmarking the move generator.
//! - [`random_play`]: positions reached by seeded random play (tests, benchmarks, fixtures).

pub(crate) mod board;
mod flips;
pub(crate) mod last_flip;
#[cfg(test)]
pub(crate) mod naive;
pub(crate) mod notation;
pub(crate) mod perft;
pub(crate) mod random_play;
