//! ProbCut (Buro 1995) for the strong level: in a null-window node, a shallow search predicts
//! the deep one; when the prediction lies far enough outside the window, the node is cut
//! without the deep search. How far is "far enough" is a measured spread: the standard
//! deviation of (deep value - shallow value) over positions of real play, per depth and stage
//! of the game, fitted by `settai-lab bench probcut` (the lab's `probcut_fit`) and committed below.
//!
//! Only the strong level (`none`) prunes so; the sontaku levels and every judgement made with
//! the strong evaluation (commentary, charts, the strength estimate) search every line, as
//! before, so their choices do not move.

/// Fewest plies of remaining depth at which a node tries a cut (shallower, the deep search
/// itself is cheap).
pub const MIN_DEPTH: u32 = 3;

/// Deepest search depth fitted; deeper searches use the spread of this depth.
pub const MAX_FIT_DEPTH: u32 = 10;

/// Stages of the game the spread is fitted for, by empty squares: `empties / STAGE_WIDTH`.
pub const STAGES: usize = 4;
/// Empty squares per stage (stage 0: 14 empties or fewer ... stage 3: 45 and more).
const STAGE_WIDTH: u32 = 15;

/// How many spreads outside the window the shallow value must lie for a cut: 1.5 keeps about
/// 93% of the cuts right for normally distributed errors, Edax's and Logistello's choice.
pub const CONFIDENCE: f64 = 1.5;

/// The depth of the predicting search for a deep search of `depth` plies: a quarter of it,
/// doubled, on the same parity (Edax's rule; evaluations alternate with the side to move).
pub fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// The stage of a position with `empties` empty squares.
pub fn stage(empties: u32) -> usize {
    ((empties / STAGE_WIDTH) as usize).min(STAGES - 1)
}

/// Mean and standard deviation of (deep - shallow), in 1/[`DISC`](crate::reversi::engine::eval::DISC) discs, for deep searches
/// of depth `MIN_DEPTH..=MAX_FIT_DEPTH` (rows) by stage (columns). Fitted on 2026-12-02 by
/// `settai-lab bench probcut --games 120 --seed 1` (docs/design/reversi-engine.md#probcut-probcutrs):
/// 480 positions in stages 1 and 2, 240 in stage 3. Stage 0 had none (the strong level solves
/// exactly from 20 empties, so its midgame search rarely gets there) and takes stage 1's, the
/// widest. The means are not zero: a search of even depth ends on the opponent's move and judges
/// the position differently from one of odd depth, and the shallow search of an even depth is
/// two to four plies of the same parity, not of the same length.
#[rustfmt::skip]
const SPREAD: [[(i32, i32); STAGES]; (MAX_FIT_DEPTH - MIN_DEPTH + 1) as usize] = [
    [(-39, 141), (-39, 141), (-21, 83), (-17, 58)],
    [( 41, 134), ( 41, 134), ( 24, 74), (  0, 53)],
    [( -3, 113), ( -3, 113), ( -3, 68), ( 10, 47)],
    [( 51, 162), ( 51, 162), ( 33, 98), ( -6, 57)],
    [( -5, 141), ( -5, 141), ( -3, 88), ( 10, 49)],
    [( 23, 127), ( 23, 127), (  6, 78), (  2, 48)],
    [( -7, 132), ( -7, 132), (  3, 71), (-10, 47)],
    [( 17, 144), ( 17, 144), ( 10, 90), ( -5, 51)],
];

/// For a search of `depth` plies with `empties` empty squares: the expected (deep - shallow)
/// difference and how far beyond it the shallow value must lie to cut, in 1/[`DISC`](crate::reversi::engine::eval::DISC) discs.
/// The deep value is predicted as shallow + mean; a node is cut when that prediction clears
/// the window by the margin.
pub fn window(depth: u32, empties: u32) -> (i32, i32) {
    let row = (depth.clamp(MIN_DEPTH, MAX_FIT_DEPTH) - MIN_DEPTH) as usize;
    let (mean, sigma) = SPREAD[row][stage(empties)];
    (mean, (f64::from(sigma) * CONFIDENCE).round() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::engine::eval::PatternEval;
    use crate::reversi::engine::search::{Engine, INF};
    use crate::reversi::engine::strong::Strong;
    use crate::reversi::rules::naive::random_position;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn selective_searches_visit_fewer_nodes_and_stay_within_the_margin() {
        let eval = PatternEval::shared();
        let mut rng = StdRng::seed_from_u64(5);
        let (mut full_nodes, mut selective_nodes, mut within, mut count) = (0, 0, 0, 0);
        for i in 0..12 {
            let pos = random_position(&mut rng, 20 + 3 * i, 3);
            let (p, o) = (pos.player(), pos.opponent());
            let mut full = Engine::new(16);
            let value = full.pvs(&Strong(eval), p, o, 7, -INF, INF, true);
            let mut selective = Engine::new(16);
            selective.selective = true;
            let estimate = selective.pvs(&Strong(eval), p, o, 7, -INF, INF, true);
            full_nodes += full.nodes;
            selective_nodes += selective.nodes;
            within += usize::from((estimate - value).abs() <= window(7, pos.empties()).1);
            count += 1;
        }
        assert!(selective_nodes * 10 < full_nodes * 9, "{selective_nodes} nodes against {full_nodes}");
        assert!(within * 10 >= count * 8, "{within} of {count} within the margin");
    }

    #[test]
    fn shallow_depths_keep_parity_and_stay_below_the_deep_search() {
        for d in MIN_DEPTH..=40 {
            let s = shallow_depth(d);
            assert_eq!(s % 2, d % 2, "depth {d}");
            assert!(s < d && s >= 1, "depth {d} -> {s}");
        }
        assert_eq!((shallow_depth(4), shallow_depth(8), shallow_depth(9)), (2, 4, 5));
    }

    #[test]
    fn every_depth_and_stage_has_a_margin() {
        for depth in 0..64 {
            for empties in 0..=60 {
                let (mean, margin) = window(depth, empties);
                assert!(margin > 0 && mean.abs() < margin, "depth {depth}, {empties} empties");
            }
        }
        assert_eq!(stage(14), 0);
        assert_eq!(stage(59), STAGES - 1);
    }
}
