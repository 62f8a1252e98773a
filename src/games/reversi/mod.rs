//! Reversi (Othello) rules engine and AI: pure game logic with no I/O, async or global state
//! (only the trainer, [`train`](mod@train), writes its weights file).
//!
//! Columns a-h run left to right and rows 1-8 top to bottom; square index = `row * 8 + col`,
//! so a1 is bit 0 and h8 bit 63. Black moves first. Positions are plain `Copy` values and
//! every move returns a new position.
//!
//! - [`board`]: colours, squares, moves, [`Position`] and the fast bitboard core
//!   ([`board::moves`], [`board::flips`] on (player, opponent) pairs) used by search; the flips
//!   are computed by one routine per square (`flips`), and [`last_flip`] counts those of a
//!   game's last move without making it.
//! - [`notation`]: parsing/printing squares, moves, move lists and the 64+2 character
//!   position format (`X` black, `O` white, `-` empty, then the side to move), and [`replay`].
//! - [`perft`](mod@perft): move-sequence counting for checking and benchmarking the move generator.
//! - [`ai`]: the classic square-table evaluation and the fixed-depth search on it (the shared
//!   engine with the [`ai::Classic`] objective) that the guests, the trainer and the gallery use.
//! - [`level`]: the three AI levels behind [`reply`] (`standard`, `highest`, `none`).
//! - [`search`](mod@search): the shared engine ([`search::Engine`]): PVS, transposition table ([`tt`]),
//!   move ordering, a deadline; the direction of evaluation is an [`search::Objective`]
//!   parameter. [`root`]: iterative deepening at the root ([`search::Engine::iterate`]).
//! - [`endgame`]: the exact endgame solver and [`solve`].
//! - [`eval`]: the trained pattern evaluation of the strong level, its indices computed by
//!   [`pattern_index`] from the whole board or kept up to date move by move by [`features`];
//!   [`train`](mod@train) makes it.
//! - [`sontaku`]: the objectives and move choice of the sontaku (接待) levels; [`handover`]:
//!   how `standard` hands a trusted human the lead in the endgame.
//! - [`duel`]: engine-against-engine matches from the balanced [`openings`], scored by [`elo`].

pub mod ai;
pub mod board;
pub mod duel;
pub mod elo;
pub mod endgame;
pub mod eval;
pub mod features;
mod flips;
#[cfg(test)]
pub(crate) mod golden;
pub mod handover;
pub mod last_flip;
pub mod level;
#[cfg(test)]
mod naive;
pub mod notation;
pub mod openings;
pub mod pattern_index;
pub mod perft;
pub mod probcut;
pub mod root;
pub mod search;
pub mod sontaku;
pub mod strength;
pub mod train;
pub mod tt;

pub use ai::{choose_move, search, simple_eval, Searched};
pub use board::{Color, IllegalMove, Move, Outcome, Position, PositionError, Square};
pub use endgame::{solve, Solved};
pub use level::{reply, Choice, Level, Stage};
pub use notation::{parse_moves, replay, ParseMoveError, ParsePositionError, ParseSquareError, ReplayError};
pub use perft::perft;
pub use train::{train, TrainConfig, TrainReport};
