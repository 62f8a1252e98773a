//! The objective of the trained pattern evaluation: the strong level's, and every judgement
//! made with that evaluation (commentary, charts, the strength estimate, the solver's guesses).

use crate::reversi::engine::eval::{PatternEval, DISC};
use crate::reversi::engine::search::{final_margin, Features, Objective};

/// The strong level's objective: the pattern evaluation for the side to move.
pub struct Strong<'a>(pub &'a PatternEval);

impl Objective for Strong<'_> {
    type Features = Features;
    #[inline]
    fn eval_with_moves(&self, p: u64, o: u64, mask: u64, f: &Features, _: bool) -> i32 {
        self.0.eval_features_with_moves(p, o, mask, f)
    }
    #[inline]
    fn terminal(&self, p: u64, o: u64, _: bool) -> i32 {
        final_margin(p, o) * DISC
    }
}
