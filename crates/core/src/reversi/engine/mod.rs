//! The reversi engine: the search every level shares and what it searches with. Imports the
//! rules only.
//!
//! - [`search`]: the shared engine ([`search::Engine`]): PVS, transposition table ([`tt`]),
//!   move ordering, a deadline and a clock; the direction of evaluation is a
//!   [`search::Objective`] parameter. [`root`]: iterative deepening at the root.
//! - [`eval`]: the trained pattern evaluation of the strong level, on the patterns of
//!   [`patterns`], its indices computed by [`pattern_index`] from the whole board or kept up to
//!   date move by move by [`features`]; [`strong`]: its objective.
//! - [`classic`]: the classic square-table evaluation and the fixed-depth search on it that
//!   the guests, the trainer and the gallery use, and `highest` evaluates with.
//! - [`endgame`]: the exact endgame solver; [`probcut`]: the strong level's selective pruning,
//!   with margins the lab fits.

pub(crate) mod classic;
pub(crate) mod clock;
pub(crate) mod endgame;
pub(crate) mod eval;
pub(crate) mod features;
pub(crate) mod pattern_index;
pub(crate) mod patterns;
pub mod probcut;
pub(crate) mod root;
pub(crate) mod search;
pub(crate) mod strong;
pub(crate) mod tt;
