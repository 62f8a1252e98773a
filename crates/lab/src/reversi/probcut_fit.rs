//! Fitting ProbCut's margins (see the engine's `probcut`): the spread of (deep value - shallow
//! value) over positions of real play, per depth and stage, measured from the balanced
//! openings by `settai-lab bench probcut` and pasted into the engine's table.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use settai_core::reversi::probcut::{shallow_depth, stage, MAX_FIT_DEPTH, MIN_DEPTH, STAGES};
use settai_core::reversi::{Engine, Move, Position, Square, Strong, INF};
use settai_core::reversi::{PatternEval, DISC};

use super::openings::Opening;

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
            None => Move::Pass,
            Some(r) => {
                if ply % 4 == 0 && (14..=59).contains(&pos.empties()) {
                    out.push(pos);
                }
                let top = r.scores[0].1;
                let near: Vec<u8> = r.scores.iter().filter(|&&(_, v)| v >= top - DISC).map(|&(s, _)| s).collect();
                let sq = near[rng.gen_range(0..near.len())];
                Move::Place(Square::new(sq).expect("square below 64"))
            }
        };
        pos = pos.play(mv).expect("the search answers with legal moves");
        ply += 1;
    }
    out
}

/// The `SPREAD` table (settai-core's `reversi/engine/probcut.rs`)'s text for `spreads` (as [`fit`] returns them), to paste above.
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
    use super::*;

    #[test]
    fn the_spread_of_known_samples() {
        let s = spread(&[1.0, 3.0, 5.0]);
        assert_eq!(s.samples, 3);
        assert!((s.mean - 3.0).abs() < 1e-12 && (s.sigma - 2.0).abs() < 1e-12);
        assert_eq!(spread(&[7.0]).sigma, 0.0);
    }
}
