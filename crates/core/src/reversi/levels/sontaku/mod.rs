//! The sontaku (接待) levels: the CPU searches with the shared engine, but scores positions by
//! how desirable they are for the human instead of for itself.
//!
//! `highest` evaluates with [`classic`](crate::reversi::engine::classic)'s classic evaluation
//! (square table with corner cancellation, mobility × 12, discs from 16 empties), read from the
//! human's side. `standard` measures the human's lead with the trained pattern evaluation instead
//! (see [`objectives`]'s `human_lead` for why: a deviation from the original design,
//! docs/design/reversi-sontaku.md#deviation-the-humans-lead-in-discs).
//!
//! - `standard` (標準): desirability = −1.0 × shortfall below a slight human lead
//!   ([`STANDARD_TARGET`](crate::reversi::levels::sontaku::tuning::STANDARD_TARGET), in tenths of a disc), −0.7 × excess above it. The human is assumed to play the move worst
//!   for desirability. From [`STANDARD_FULL_READ`](crate::reversi::levels::sontaku::tuning::STANDARD_FULL_READ) empties the game is read to the end and the
//!   final human margin closest to +[`TARGET_WIN_MARGIN`] wins, every human win above every
//!   draw and loss. Nearly equal moves go to the one best for the CPU itself; 35% of the time
//!   the 2nd or 3rd move is played, except in the full read.
//! - `highest` (最高): desirability = the human's advantage. From [`HIGHEST_FULL_READ`](crate::reversi::levels::sontaku::tuning::HIGHEST_FULL_READ) empties
//!   the human's final discs are maximised (perfect wins get a bonus); from
//!   [`COOPERATIVE_EMPTIES`](crate::reversi::levels::sontaku::tuning::COOPERATIVE_EMPTIES) empties, once some move guarantees the human a win by
//!   [`GUARANTEE_MARGIN`](crate::reversi::levels::sontaku::tuning::GUARANTEE_MARGIN) or more whatever they play, the human is assumed to cooperate and
//!   the biggest line is chosen among the moves that keep that guarantee.
//! - `standard-classic` (標準（原典）): `standard` as the published article gives it, for comparison: the
//!   same desirability, full read, tie-break and jitter, but the lead measured by the seed's own
//!   evaluation ([`published_eval`](mod@published_eval)), the pessimistic human whoever plays, and none of
//!   `standard`'s deviations (docs/design/reversi-sontaku.md#standard-classic-seed-001s-standard-as-published).
//!
//! - [`tuning`]: the numbers the levels are tuned by; [`model`]: who `standard` believes it plays
//!   against; [`desirability`]: the scores of a lead or a final margin; [`published_eval`](mod@published_eval): the
//!   seed's evaluation as its article writes it; [`objectives`]: those scores as objectives of
//!   the engine; [`choice`]: the levels, their decisions, ranking and
//!   jitter.
//! - [`search`]: the entry point and the seed's search; [`standard`]: `standard` against a
//!   modelled human; [`cooperative`]: `highest`'s cooperative search near the end.

mod choice;
mod cooperative;
mod desirability;
mod model;
mod objectives;
mod published_eval;
mod search;
mod standard;
mod tuning;

pub(crate) use choice::{Sontaku, SontakuStage};
pub(crate) use desirability::standard_final_value;
pub(crate) use model::HumanModel;
pub(crate) use tuning::{TARGET_WIN_MARGIN, TRUSTED_STRENGTH};
// The objectives, for the engine's own tests of what its leaves are handed.
#[cfg(test)]
pub(crate) use objectives::{Highest, OwnInterest, Standard};

#[cfg(test)]
mod tests;
