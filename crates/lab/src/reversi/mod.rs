//! The reversi lab: matches (played by [`duel`], run from the command line by [`runner`], kept
//! across sessions by [`match_journal`]), ratings, openings, training and ProbCut's fit.

pub mod duel;
pub mod elo;
#[cfg(test)]
pub(crate) mod golden;
pub mod match_journal;
pub mod openings;
pub mod probcut_fit;
pub mod runner;
pub mod train;

pub use train::{train, TrainConfig, TrainReport};
