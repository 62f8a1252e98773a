//! ProbCut (Buro 1995) for the strong level: in a null-window node, a shallow search predicts
//! the deep one; when the prediction lies far enough outside the window, the node is cut
//! without the deep search. How far is "far enough" is a measured spread: the standard
//! deviation of (deep value - shallow value) over positions of real play, per depth and stage
//! of the game, fitted by `settai train probcut` and committed below.
//!
//! Only the strong level (`none`) prunes so; the sontaku levels and every judgement made with
//! the strong evaluation (commentary, charts, the strength estimate) search every line, as
//! before, so their choices do not move.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::board::Position;
use super::eval::{PatternEval, DISC};
use super::level::Strong;
use super::openings::Opening;
use super::search::{Engine, INF};

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
fn stage(empties: u32) -> usize {
    ((empties / STAGE_WIDTH) as usize).min(STAGES - 1)
}

/// Mean and standard deviation of (deep - shallow), in 1/[`DISC`] discs, for deep searches
/// of depth `MIN_DEPTH..=MAX_FIT_DEPTH` (rows) by stage (columns). Fitted on 2026-12-02 by
/// `settai bench probcut --games 120 --seed 1` (BENCHMARKS.md, "ProbCut"): 480 positions
/// in stages 1 and 2, 240 in stage 3. Stage 0 had none (the strong level solves exactly from
/// 20 empties, so its midgame search rarely gets there) and takes stage 1's, the widest.
/// The means are not zero: a search of even depth ends on the opponent's move and judges the
/// position differently from one of odd depth, and the shallow search of an even depth is
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
/// difference and how far beyond it the shallow value must lie to cut, in 1/[`DISC`] discs.
/// The deep value is predicted as shallow + mean; a node is cut when that prediction clears
/// the window by the margin.
pub fn window(depth: u32, empties: u32) -> (i32, i32) {
    let row = (depth.clamp(MIN_DEPTH, MAX_FIT_DEPTH) - MIN_DEPTH) as usize;
    let (mean, sigma) = SPREAD[row][stage(empties)];
    (mean, (f64::from(sigma) * CONFIDENCE).round() as i32)
}

/// What the fit measured for one depth and stage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// Positions measured.
    pub samples: usize,
    /// Mean of (deep - shallow), 1/[`DISC`] discs.
    pub mean: f64,
    /// Standard deviation of (deep - shallow), 1/[`DISC`] discs.
    pub sigma: f64,
}

/// Measures the spreads: plays each opening to the end with a depth-3 search (ties and the
/// first moves varied by `seed`), and for every fourth position with 14..=59 empties compares
/// the full-window value of every depth up to [`MAX_FIT_DEPTH`] with that of its shallow
/// depth. Rows by depth from [`MIN_DEPTH`], columns by stage.
pub fn fit(openings: &[Opening], eval: &PatternEval, seed: u64) -> Vec<[Spread; STAGES]> {
    let positions: Vec<Position> = openings
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, opening)| sample_game(opening, eval, seed.wrapping_add(i as u64)))
        .collect();
    // Per position: the value at every depth 1..=MAX_FIT_DEPTH (index = depth).
    let values: Vec<(u32, Vec<i32>)> = positions
        .par_iter()
        .map(|pos| {
            let mut engine = Engine::new(18);
            let (p, o) = (pos.player(), pos.opponent());
            let by_depth = (0..=MAX_FIT_DEPTH).map(|d| engine.pvs(&Strong(eval), p, o, d, -INF, INF, true)).collect();
            (pos.empties(), by_depth)
        })
        .collect();
    (MIN_DEPTH..=MAX_FIT_DEPTH)
        .map(|depth| {
            std::array::from_fn(|s| {
                let diffs: Vec<f64> = values
                    .iter()
                    .filter(|(e, _)| stage(*e) == s && *e > depth)
                    .map(|(_, v)| f64::from(v[depth as usize] - v[shallow_depth(depth) as usize]))
                    .collect();
                spread(&diffs)
            })
        })
        .collect()
}

/// Mean and standard deviation of `diffs`.
fn spread(diffs: &[f64]) -> Spread {
    let n = diffs.len();
    if n < 2 {
        return Spread { samples: n, mean: 0.0, sigma: 0.0 };
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1) as f64;
    Spread { samples: n, mean, sigma: var.sqrt() }
}

/// Every fourth position of a game played from `opening` at depth 3 (a random move among those
/// within a disc of the best, so games differ), not finished and with 14 to 59 empties.
fn sample_game(opening: &Opening, eval: &PatternEval, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::new(16);
    let mut pos = opening.position;
    let mut out = Vec::new();
    let mut ply = 0;
    while !pos.is_game_over() {
        let (p, o) = (pos.player(), pos.opponent());
        let mv = match engine.iterate(&Strong(eval), p, o, 3, true, DISC) {
            None => super::board::Move::Pass,
            Some(r) => {
                if ply % 4 == 0 && (14..=59).contains(&pos.empties()) {
                    out.push(pos);
                }
                let top = r.scores[0].1;
                let near: Vec<u8> = r.scores.iter().filter(|&&(_, v)| v >= top - DISC).map(|&(s, _)| s).collect();
                let sq = near[rng.gen_range(0..near.len())];
                super::board::Move::Place(super::board::Square::new(sq).expect("square below 64"))
            }
        };
        pos = pos.play(mv).expect("the search answers with legal moves");
        ply += 1;
    }
    out
}

/// The [`SPREAD`] table's text for `spreads` (as [`fit`] returns them), to paste above.
pub fn spread_table(spreads: &[[Spread; STAGES]]) -> String {
    spreads
        .iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|s| format!("({:3}, {:3})", s.mean.round() as i32, s.sigma.round().max(1.0) as i32))
                .collect();
            format!("    [{}],", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::super::naive::random_position;
    use super::*;

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

    #[test]
    fn the_spread_of_known_samples() {
        let s = spread(&[1.0, 3.0, 5.0]);
        assert_eq!(s.samples, 3);
        assert!((s.mean - 3.0).abs() < 1e-12 && (s.sigma - 2.0).abs() < 1e-12);
        assert_eq!(spread(&[7.0]).sigma, 0.0);
    }
}
