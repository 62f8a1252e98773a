//! Reversi (Othello), by stage: the [`rules`], the [`engine`] that searches them, and the
//! [`levels`] the bot plays at. Each stage imports only the stages before it.
//!
//! Columns a-h run left to right and rows 1-8 top to bottom; square index = `row * 8 + col`,
//! so a1 is bit 0 and h8 bit 63. Black moves first. Positions are plain `Copy` values and
//! every move returns a new position.
//!
//! - [`rules`]: colours, squares, moves, [`Position`] and the bitboard core ([`rules::board`]),
//!   the flips, notation and the 64+2 character position format, [`perft`], seeded random play.
//! - [`engine`]: the shared search ([`engine::search::Engine`]: PVS, transposition table,
//!   move ordering, a deadline, iterative deepening at the root) whose direction of evaluation
//!   is an [`engine::search::Objective`]; the trained pattern evaluation ([`engine::eval`]) and
//!   its objective ([`engine::strong::Strong`]); the classic square-table evaluation and its
//!   fixed-depth search ([`engine::classic`]); the exact endgame solver ([`solve`]); ProbCut.
//! - [`levels`]: the levels behind [`choose_at_level`] (`standard`, `highest`, `none`,
//!   `standard-classic`): the sontaku searches, the strength estimate of the human and the handover of the endgame.

pub mod engine;
pub mod levels;
pub mod rules;

pub use engine::classic::{choose_move, search, simple_eval, Searched};
pub use engine::endgame::{solve, Solved};
pub use levels::level::{choose_at_level, Choice, ReversiLevel, Stage};
pub use rules::board::{Color, DiscCount, IllegalMove, Move, Position, PositionError, Square};
pub use rules::notation::{parse_moves, replay, MoveListError, ParseMoveError, ParsePositionError, ParseSquareError};
pub use rules::perft::perft;
