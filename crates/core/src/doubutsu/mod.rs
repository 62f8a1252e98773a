//! Doubutsu shogi (どうぶつしょうぎ): rules engine, notation, perft, the exact retrograde table
//! and the table-driven players (settai / strongest / weakest). Pure logic: no async; only the
//! table builder and reader touch files.
//!
//! Board: columns A-C left to right, rows 1-4 top to bottom from sente's side. Sente (the
//! first player; in the bot always the human) starts on rows 3-4 and moves up.
//!
//! - [`position`](mod@position): [`Color`], [`Square`], [`Role`], [`Piece`], [`Move`],
//!   [`Position`] (one packed `u64` seen from the side to move) and the rules.
//! - [`notation`]: move notation (`B3B2`, `E*B2`) and the position text format.
//! - [`game`]: move history and the draw on the third occurrence of a position.
//! - [`perft`](mod@perft): move-path counting.
//! - [`table`]: the exact table of every legal position: its perfect index, the in-place
//!   builder ([`table::build`]), the file the bot maps (its `TableFile`), the
//!   reachability pass behind Tanaka's figures ([`table::reach`](mod@table::reach)) and the [`table::Table`]
//!   trait players use.
//! - [`players`]: `settai` (接待), `strongest` (最強), `weakest` (雑魚) and move analysis.
//! - [`classic`]: `settai-classic` (接待（原典）), the divergence rule as published.
//! - [`tactics`]: what a move does by the rules alone (wins or loses at once, corners,
//!   repeats), the pieces of `settai`'s deviations that need no table.
//! - [`keep_going`]: how likely a careless guest's game is to go on (a read against a model of
//!   the child), for `settai`'s early-game deviations.

pub(crate) mod classic;
pub(crate) mod game;
pub(crate) mod heuristic;
pub(crate) mod keep_going;
pub(crate) mod level;
pub(crate) mod notation;
pub(crate) mod perft;
pub(crate) mod players;
pub(crate) mod position;
pub mod table;
pub(crate) mod tactics;

#[cfg(test)]
mod tests;

pub use classic::settai_classic;
pub use game::{History, REPETITION_DRAW};
pub use heuristic::heuristic;
pub use level::{ChooseError, DoubutsuLevel};
pub use notation::{parse_moves, ParseMoveError, ParsePositionError, ParseSquareError};
pub use perft::{perft, perft_divide, perft_parallel};
pub use players::{
    analyze, divergence_allowed, evaluate_moves, guest_divergence, loses_at_once, preference, score, settai,
    settai_keeping_going, settai_or_weakest, strongest, strongest_or_heuristic, value_of, weakest, Analysis, KeepGoing,
    PlayerError, FALLBACK_HEURISTIC_DEPTH, KEEP_GOING_PLIES,
};
pub use position::{Color, Ending, IllegalMove, Move, Piece, Position, Role, Square, WinReason};
pub use table::{BuiltTable, ProbeError, Table, TableBytes, Value};
pub use tactics::{guest_lost_at_once, guest_was_careless, seen_before};
