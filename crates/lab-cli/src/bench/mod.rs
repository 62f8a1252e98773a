//! `settai-lab bench`: speed figures for BENCHMARKS.md, with on-CPU time beside wall time so that
//! a busy machine does not make the code look slow.
//!
//! One file per group of subcommands: [`speed`] (perft, a reply, rendering, the engine, the
//! midgame), [`table`] (the doubutsu table and the child-bound), [`child_regret`] (settai's moves scored
//! by the child-bound), [`hospitality`] (the
//! hospitality benchmark); [`machine`] is what they share. The work they measure lives in the
//! game and hospitality modules.

mod child_regret;
mod hospitality;
mod machine;
mod speed;
mod table;

pub(super) use child_regret::child_regret;
pub(super) use hospitality::{hospitality_doubutsu, hospitality_reversi};
pub(super) use speed::{engine, midgame, quick};
pub(super) use table::{child_bound, table, Takebacks};
