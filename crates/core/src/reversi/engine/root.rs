//! The root of a search: iterative deepening with aspiration windows until a deadline, and what
//! an iteration the clock cuts still tells (a move proven better than the last best).

use crate::reversi::engine::search::{Child, Children, Engine, Incremental, Objective, INF};
use crate::reversi::rules::board::moves;

/// A root move (square, value) proven better than an iteration's first move, if any.
type Proven = Option<(u8, i32)>;

/// Outcome of an iterative-deepening search at the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootResult {
    /// Root moves (square index) with their values, best first; exact values for every move
    /// when all were searched with a full window, otherwise only the first is exact.
    pub scores: Vec<(u8, i32)>,
    /// Plies of the last completed iteration.
    pub depth: u32,
    /// Whether the last iteration reached the end of the game on every line.
    pub complete: bool,
    /// Whether the first move was proven better than the last iteration's best by the next,
    /// deeper iteration before the clock cut it (see [`Engine::iterate`]); its value is then
    /// that deeper one's, the others' still `depth`'s.
    pub overtaken: bool,
}

impl Engine {
    /// Iterative deepening at the root for the side to move (`cpu` = root player), from depth 1
    /// to `max_depth` or the deadline; the first iteration always completes.
    ///
    /// With `all_moves` every root move gets an exact value (a full window each, for callers that
    /// rank moves); otherwise PVS with an aspiration window around the previous value.
    /// Returns `None` when the side to move has no placement.
    #[allow(clippy::too_many_arguments)]
    pub fn iterate<O: Objective>(
        &mut self,
        obj: &O,
        p: u64,
        o: u64,
        max_depth: u32,
        all_moves: bool,
        aspiration: i32,
    ) -> Option<RootResult> {
        let mask = moves(p, o);
        if mask == 0 {
            return None;
        }
        let deadline = self.deadline.take();
        self.aborted = false;
        let mut root = Children::new(p, o, mask);
        self.order(obj, &mut root, o, &O::Features::of(p, o), 3, 64, true);
        let mut order: Vec<Child> = {
            let mut v = root.list[..root.len].to_vec();
            v.sort_by_key(|c| -c.key);
            v
        };
        let mut result: Option<RootResult> = None;
        let empties = (!(p | o)).count_ones();
        for depth in 1..=max_depth.max(1) {
            self.cut = false;
            let (scores, proven) = if all_moves {
                let mut s = Vec::with_capacity(order.len());
                for c in &order {
                    let v = -self.pvs(obj, c.p, c.o, depth - 1, -INF, INF, false);
                    if self.aborted {
                        break;
                    }
                    s.push((c.sq, v));
                }
                (s, None)
            } else {
                self.root_pvs(obj, &order, depth, result.as_ref().map(|r| r.scores[0].1), aspiration)
            };
            if self.aborted {
                // The cut iteration is not thrown away whole: a move it proved better than the
                // last best (the critical case, where the old best failed) is played instead.
                if let (Some(r), Some((sq, v))) = (result.as_mut(), proven) {
                    r.scores.retain(|&(s, _)| s != sq);
                    r.scores.insert(0, (sq, v));
                    r.overtaken = true;
                }
                break;
            }
            let mut scores = scores;
            // Stable sort: equal values keep the previous iteration's order.
            scores.sort_by_key(|&(_, v)| -v);
            let complete = !self.cut;
            order.sort_by_key(|c| scores.iter().position(|&(sq, _)| sq == c.sq).unwrap_or(usize::MAX));
            result = Some(RootResult { scores, depth, complete, overtaken: false });
            if complete || depth >= empties {
                break;
            }
            if depth == 1 {
                // The first iteration is a guaranteed answer; from here on the clock rules.
                self.set_deadline(deadline);
            }
        }
        self.deadline = deadline;
        result
    }

    /// One root iteration of PVS with an aspiration window; only the first value is exact.
    /// Also returns the best move after the first that raised alpha, if any: proven better
    /// than the first whether or not the clock lets the iteration finish.
    fn root_pvs<O: Objective>(
        &mut self,
        obj: &O,
        order: &[Child],
        depth: u32,
        guess: Option<i32>,
        aspiration: i32,
    ) -> (Vec<(u8, i32)>, Proven) {
        let (mut lo, mut hi) = match guess {
            Some(g) if aspiration > 0 && depth > 2 => (g - aspiration, g + aspiration),
            _ => (-INF, INF),
        };
        // Kept across re-searches: a fail-high above the window is a proof too.
        let mut proven: Proven = None;
        loop {
            let mut alpha = lo;
            let mut best = -INF;
            let mut scores = Vec::with_capacity(order.len());
            let mut first = true;
            for c in order {
                let v = if first {
                    -self.pvs(obj, c.p, c.o, depth - 1, -hi, -alpha, false)
                } else {
                    let v = -self.pvs(obj, c.p, c.o, depth - 1, -alpha - 1, -alpha, false);
                    if v > alpha && v < hi {
                        -self.pvs(obj, c.p, c.o, depth - 1, -hi, -v, false)
                    } else {
                        v
                    }
                };
                if self.aborted {
                    return (scores, proven);
                }
                // A later move above alpha has an exact value (re-searched) or a bound above
                // the window: better than the first either way.
                if !first && v > alpha && proven.is_none_or(|(_, pv)| v > pv) {
                    proven = Some((c.sq, v));
                }
                first = false;
                // Moves after the first that fail low carry an upper bound only.
                scores.push((c.sq, v));
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                    }
                }
                if best >= hi {
                    break;
                }
            }
            if best <= lo && lo > -INF {
                // Failed low: every value is only an upper bound; redo with the window open below.
                lo = -INF;
                continue;
            }
            if best >= hi && hi < INF {
                hi = INF;
                continue;
            }
            // The best move first with its exact value; the rest keep their bounds.
            let bi = scores.iter().position(|&(_, v)| v == best).unwrap_or(0);
            scores.swap(0, bi);
            return (scores, proven);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::engine::eval::{PatternEval, DISC};
    use crate::reversi::engine::search::Clock;
    use crate::reversi::engine::strong::Strong;
    use crate::reversi::rules::naive::random_position;
    use rand::rngs::StdRng;
    use rand::SeedableRng;
    use std::time::Duration;

    /// Every root move's value at `depth` by a full window each: the judge of a cut iteration.
    fn values_at(p: u64, o: u64, depth: u32) -> Vec<(u8, i32)> {
        let eval = PatternEval::shared();
        Engine::new(16).iterate(&Strong(eval), p, o, depth, true, DISC).unwrap().scores
    }

    #[test]
    fn a_cut_iteration_plays_the_move_it_proved_better() {
        let eval = PatternEval::shared();
        let mut rng = StdRng::seed_from_u64(23);
        let (mut overtaken, mut confirmed) = (0, 0);
        for i in 0..24 {
            let pos = random_position(&mut rng, 30 + i % 20, 3);
            let (p, o) = (pos.player(), pos.opponent());
            // Deadlines that fall at many points of the iterations, on a node clock (no flakes).
            for budget_ms in [4, 7, 11, 16, 23, 31] {
                let clock = Clock::Nodes { mid_ns: 2000.0, end_ns: 300.0 };
                let mut engine = Engine::new(16).with_clock(clock);
                engine.set_deadline(Some(engine.now() + Duration::from_millis(budget_ms)));
                let r = engine.iterate(&Strong(eval), p, o, 60, false, DISC).unwrap();
                let uncut = Engine::new(16).iterate(&Strong(eval), p, o, r.depth, false, DISC).unwrap();
                if !r.overtaken {
                    // Nothing proven: the last completed iteration's move, as before.
                    assert_eq!(r.scores[0].0, uncut.scores[0].0, "{}", pos.to_text());
                    continue;
                }
                overtaken += 1;
                assert_ne!(r.scores[0].0, uncut.scores[0].0, "a new move, not the old best");
                // One ply deeper, the judge prefers the new move to the old best.
                let judged = values_at(p, o, r.depth + 1);
                let value = |sq: u8| judged.iter().find(|&&(s, _)| s == sq).unwrap().1;
                if value(r.scores[0].0) >= value(uncut.scores[0].0) {
                    confirmed += 1;
                }
            }
        }
        assert!(overtaken >= 5, "the cut iterations proved a new move only {overtaken} times");
        // Transposition-table effects may blur a value by a little; the proof holds nearly always.
        assert!(confirmed * 10 >= overtaken * 8, "{confirmed} of {overtaken} confirmed");
    }
}
