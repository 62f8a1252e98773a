//! The reversi lab: matches, ratings, openings, training and ProbCut's fit.

pub mod duel;
pub mod elo;
#[cfg(test)]
pub(crate) mod golden;
pub mod openings;
pub mod probcut_fit;
pub mod train;

pub use train::{train, TrainConfig, TrainReport};
