//! The solver's roots: a window's best move and value, the selective pass that orders the exact
//! one, and the exact solve with an aspiration window around a midgame estimate.

use crate::reversi::engine::eval::PatternEval;
use crate::reversi::engine::search::{final_margin, Children, Engine};
use crate::reversi::engine::strong::Strong;
use crate::reversi::rules::board::{moves, Move, Square};

use super::deep::TAG_END;

/// Half-width in discs of the root aspiration window of [`Engine::solve_exact`].
const ASPIRATION: i32 = 4;
/// Fewest empties for which the aspiration (and its midgame estimate) is worth it.
const ASPIRATION_MIN: u32 = 16;
/// ProbCut margin in discs of the selective pass before an exact solve: FFO #40-#49 took 0.56
/// of its time with 2 (1: 0.61, 4: 0.67, 6: 0.63; 2026-12-03,
/// docs/design/reversi-engine.md#the-exact-endgame-solver-endgamers). `None` would solve at once.
const END_PROBCUT_MARGIN: Option<i32> = Some(2);

impl Engine {
    /// Root of the exact solver over the window (alpha, beta): best move and its score, or
    /// `None` if the deadline passed first. A narrow window (-1, 1) gives win/draw/loss only.
    pub fn solve_root(&mut self, eval: &PatternEval, p: u64, o: u64, alpha: i32, beta: i32) -> Option<(Move, i32)> {
        let mask = moves(p, o);
        if mask == 0 {
            if moves(o, p) == 0 {
                return Some((Move::Pass, final_margin(p, o)));
            }
            let v = -self.pvs_end(eval, o, p, -beta, -alpha);
            return (!self.aborted).then_some((Move::Pass, v));
        }
        let n = (!(p | o)).count_ones();
        let mut children = Children::new(p, o, mask);
        let tt_move = self.tt.probe(p, o, TAG_END).map_or(64, |e| e.mv);
        self.order_end(eval, &mut children, p, o, n, tt_move);
        let (best, best_sq) = self.pvs_children(eval, &mut children, n, alpha, beta)?;
        let sq = Square::new(best_sq).expect("square below 64");
        Some((Move::Place(sq), best))
    }

    /// [`solve_root`](Self::solve_root) after a selective pass over the same window (as Edax's
    /// solver makes): cheap, and its best moves, left in the table, order the exact pass, which
    /// trusts none of its bounds. `None` if the deadline passed first.
    pub fn solve_window(&mut self, eval: &PatternEval, p: u64, o: u64, alpha: i32, beta: i32) -> Option<(Move, i32)> {
        if let Some(margin) = END_PROBCUT_MARGIN {
            self.end_probcut = Some(margin);
            let selective = self.solve_root(eval, p, o, alpha, beta);
            self.end_probcut = None;
            selective?;
        }
        self.solve_root(eval, p, o, alpha, beta)
    }

    /// Exact solve with an aspiration window around a midgame estimate (narrow windows cut
    /// more; a miss re-searches the open side). `None` if the deadline passed first.
    pub fn solve_exact(&mut self, eval: &PatternEval, p: u64, o: u64) -> Option<(Move, i32)> {
        let n = (!(p | o)).count_ones();
        if n < ASPIRATION_MIN || moves(p, o) == 0 {
            return self.solve_root(eval, p, o, -64, 64);
        }
        let r = self.iterate(&Strong(eval), p, o, (n - 10).min(10), false, crate::reversi::engine::eval::DISC)?;
        if self.aborted {
            return None;
        }
        // Final margins are even unless empties remain: centre an even window on the guess.
        let guess = (r.scores[0].1 as f64 / f64::from(crate::reversi::engine::eval::DISC) / 2.0).round() as i32 * 2;
        let (lo, hi) = ((guess - ASPIRATION).max(-64), (guess + ASPIRATION).min(64));
        let (m, v) = self.solve_window(eval, p, o, lo - 1, hi + 1)?;
        if v < lo && lo > -64 {
            return self.solve_root(eval, p, o, -64, v + 1);
        }
        if v > hi && hi < 64 {
            return self.solve_root(eval, p, o, v - 1, 64);
        }
        Some((m, v))
    }
}
