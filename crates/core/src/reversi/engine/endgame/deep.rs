//! The solver above [`SHALLOW`] empties: principal-variation and null-window nodes with the
//! transposition table, move ordering (by mobility, then evaluation, then shallow searches as the
//! trees grow), stability cut-offs, enhanced transposition cut-offs, and the selective pass's
//! ProbCut.

use crate::reversi::engine::eval::PatternEval;
use crate::reversi::engine::search::{
    final_margin, potential_mobility, weighted_mobility, Children, Engine, Features, INF, SQUARE_ORDER,
};
use crate::reversi::engine::strong::Strong;
use crate::reversi::rules::board::moves;

use super::shallow::{parity_of, SHALLOW};
use super::stability::{corner_stability, stable_discs, STABILITY_THRESHOLD};

/// At or above this many empties children are ordered with the pattern evaluation too.
const EVAL_SORT: u32 = 14;
/// At or above this many empties children are ordered by a shallow search: of one ply, of two
/// from [`SEARCH_SORT_2`], of three from [`SEARCH_SORT_3`].
const SEARCH_SORT: u32 = 18;
/// Fewest empties whose children are ordered by a two-ply search.
const SEARCH_SORT_2: u32 = 22;
/// Fewest empties whose children are ordered by a three-ply search (3% fewer nodes on FFO
/// #40-#49 than two plies there).
const SEARCH_SORT_3: u32 = 25;
/// Ordering weight of one evaluation unit (1/32 disc); a mobility unit weighs 4096, so four
/// discs of evaluation count as one reply less (tuned on FFO #42-#46).
const EVAL_WEIGHT: i32 = 32;
/// At or above this many empties children are looked up in the table before searching (from
/// 12 rather than 14: 3% fewer nodes, measured with the other constants here).
const ETC_MIN: u32 = 12;
/// TT tag of exact endgame results (midgame tags are 1 and 2).
pub(super) const TAG_END: u8 = 0;
/// Table depth of a result of the selective pass: no exact entry has it (they store their
/// empties, and the solver's table nodes have more than [`SHALLOW`]).
const SELECTIVE_DEPTH: u8 = 0;
/// Fewest empties where the selective pass prunes by ProbCut (10 and 14 measured alike).
const END_PROBCUT_MIN: u32 = 12;
/// The selective pass's shallow searches go `empties / this` plies deep (at least 2): 4 and 3
/// measured alike, 5 cost 1.3 times the time.
const END_PROBCUT_DIVISOR: u32 = 4;

impl Engine {
    /// The principal-variation loop over ordered children of a node with `n` empties: the first
    /// with the full window, the others null-window first. Best value and square, or `None` if
    /// the deadline passed.
    pub(super) fn pvs_children(
        &mut self,
        eval: &PatternEval,
        children: &mut Children,
        n: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, u8)> {
        let mut best = -65;
        let mut best_sq = 64;
        for i in 0..children.len {
            let c = children.pick(i);
            let v = if i == 0 {
                -self.pvs_end(eval, c.p, c.o, -beta, -alpha)
            } else {
                let v = -self.nws_end(eval, c.p, c.o, -alpha - 1, n - 1);
                if v > alpha && v < beta {
                    -self.pvs_end(eval, c.p, c.o, -beta, -v)
                } else {
                    v
                }
            };
            if self.aborted {
                return None;
            }
            if v > best {
                best = v;
                best_sq = c.sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Some((best, best_sq))
    }

    /// Orders endgame children: TT move, then fewest opponent replies, then (deep) evaluation.
    pub(super) fn order_end(&mut self, eval: &PatternEval, c: &mut Children, p: u64, o: u64, n: u32, tt_move: u8) {
        // Far from the end each child is evaluated: its pattern indices follow from this node's.
        let features = (n >= EVAL_SORT).then(|| Features::of(p, o));
        for ch in &mut c.list[..c.len] {
            ch.key = if ch.sq == tt_move {
                i32::MAX
            } else {
                let mut k = -weighted_mobility(ch.p, ch.o) * (1 << 12) - potential_mobility(ch.p, ch.o) * 64
                    + corner_stability(ch.o) * 256
                    + i32::from(SQUARE_ORDER[ch.sq as usize]);
                if n >= SEARCH_SORT {
                    // Big subtrees: a shallow search is worth its cost for a better first move.
                    let d = if n >= SEARCH_SORT_3 {
                        3
                    } else if n >= SEARCH_SORT_2 {
                        2
                    } else {
                        1
                    };
                    let f = features.as_ref().expect("computed from EVAL_SORT").after_move(ch.sq, o ^ ch.p);
                    k -= self.pvs_node(&Strong(eval), ch.p, ch.o, &f, d, -INF, INF, false) * EVAL_WEIGHT;
                } else if let Some(features) = &features {
                    // Far from the end the evaluation adds what mobility misses.
                    k -= eval.eval_features(ch.p, ch.o, &features.after_move(ch.sq, o ^ ch.p)) * EVAL_WEIGHT;
                }
                k
            };
        }
    }

    /// Whether a table entry's bounds hold for the search running now: an exact search trusts
    /// only exact entries, a selective one both kinds.
    #[inline]
    fn trusts(&self, e: &crate::reversi::engine::tt::Entry) -> bool {
        e.depth != SELECTIVE_DEPTH || self.end_probcut.is_some()
    }

    /// The depth a node with `n` empties is stored with: `n` when exact, else the mark of a
    /// selective result (a position's empties are fixed, so the depth field is free for it).
    #[inline]
    fn stored_depth(&self, n: u32) -> u32 {
        if self.end_probcut.is_some() {
            u32::from(SELECTIVE_DEPTH)
        } else {
            n
        }
    }

    /// ProbCut in the selective pass: `Some(bound)` when a shallow midgame search puts the
    /// exact value outside the null window at `alpha` by more than `margin` discs.
    fn end_probcut(&mut self, eval: &PatternEval, p: u64, o: u64, n: u32, alpha: i32, margin: i32) -> Option<i32> {
        let disc = crate::reversi::engine::eval::DISC;
        let depth = (n / END_PROBCUT_DIVISOR).max(2);
        let features = Features::of(p, o);
        let high = (alpha + 1 + margin) * disc;
        if alpha + 1 + margin < 64 {
            let v = self.pvs_node(&Strong(eval), p, o, &features, depth, high - 1, high, false);
            if self.aborted {
                return None;
            }
            if v >= high {
                return Some(alpha + 1);
            }
        }
        let low = (alpha - margin) * disc;
        if alpha - margin > -64 {
            let v = self.pvs_node(&Strong(eval), p, o, &features, depth, low, low + 1, false);
            if self.aborted {
                return None;
            }
            if v <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// Full-window principal-variation node of the exact solver.
    pub(super) fn pvs_end(&mut self, eval: &PatternEval, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let n = (!(p | o)).count_ones();
        if beta <= alpha + 1 || n <= SHALLOW {
            // Narrow windows, and tiny trees where the PV bookkeeping costs more than it saves.
            return self.ab_end(eval, p, o, alpha, beta, n);
        }
        self.count_end_node();
        if self.tick() {
            return 0;
        }
        let mask = moves(p, o);
        if mask == 0 {
            if moves(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.pvs_end(eval, o, p, -beta, -alpha);
        }
        let mut tt_move = 64;
        if let Some(e) = self.tt.probe(p, o, TAG_END) {
            if self.trusts(&e) {
                if e.lower >= beta {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                if e.lower == e.upper {
                    return e.lower;
                }
            }
            tt_move = e.mv;
        }
        let mut children = Children::new(p, o, mask);
        self.order_end(eval, &mut children, p, o, n, tt_move);
        let Some((best, best_sq)) = self.pvs_children(eval, &mut children, n, alpha, beta) else {
            return 0;
        };
        self.tt.store(p, o, TAG_END, self.stored_depth(n), alpha, beta, best, best_sq);
        best
    }

    /// Alpha-beta over null-window children, for narrow windows and small trees.
    fn ab_end(&mut self, eval: &PatternEval, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
        if beta == alpha + 1 {
            return self.nws_end(eval, p, o, alpha, n);
        }
        self.count_end_node();
        let mask = moves(p, o);
        if mask == 0 {
            if moves(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.ab_end(eval, o, p, -beta, -alpha, n);
        }
        let mut children = Children::new(p, o, mask);
        self.order_end(eval, &mut children, p, o, n, 64);
        let mut best = -65;
        for i in 0..children.len {
            let c = children.pick(i);
            let v = -self.ab_end(eval, c.p, c.o, -beta, -alpha, n - 1);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Null-window search: is the value of (p, o) above `alpha`? Fail-soft.
    pub(in crate::reversi) fn nws_end(&mut self, eval: &PatternEval, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        if n <= SHALLOW {
            return self.nws_shallow(p, o, alpha, n, parity_of(!(p | o)));
        }
        // The probe below waits for memory unless the bucket is on its way meanwhile.
        self.tt.prefetch(p, o, TAG_END);
        self.count_end_node();
        if self.tick() {
            return 0;
        }
        if alpha >= STABILITY_THRESHOLD[n as usize] {
            // The opponent's stable discs cap what we can reach.
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let mask = moves(p, o);
        if mask == 0 {
            if moves(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.nws_end(eval, o, p, -alpha - 1, n);
        }
        let mut tt_move = 64;
        if let Some(e) = self.tt.probe(p, o, TAG_END) {
            if self.trusts(&e) {
                if e.lower > alpha {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
            }
            tt_move = e.mv;
        }
        if let Some(margin) = self.end_probcut {
            if n >= END_PROBCUT_MIN {
                if let Some(v) = self.end_probcut(eval, p, o, n, alpha, margin) {
                    return v;
                }
                if self.aborted {
                    return 0;
                }
            }
        }
        let mut children = Children::new(p, o, mask);
        if n > SHALLOW + 1 {
            // Each child probes the table first thing; its bucket loads while the ordering works.
            for c in &children.list[..children.len] {
                self.tt.prefetch(c.p, c.o, TAG_END);
            }
        }
        if n >= ETC_MIN {
            // Enhanced transposition cut-off: a child already known to be bad enough for the
            // opponent proves the cut without searching.
            for c in &children.list[..children.len] {
                if let Some(e) = self.tt.probe(c.p, c.o, TAG_END) {
                    if self.trusts(&e) && -e.upper > alpha {
                        return -e.upper;
                    }
                }
            }
        }
        let mut best = -65;
        let mut best_sq = 64;
        if children.len == 1 {
            let c = children.list[0];
            best = -self.nws_end(eval, c.p, c.o, -alpha - 1, n - 1);
            best_sq = c.sq;
        } else {
            self.order_end(eval, &mut children, p, o, n, tt_move);
            for i in 0..children.len {
                let c = children.pick(i);
                let v = -self.nws_end(eval, c.p, c.o, -alpha - 1, n - 1);
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_sq = c.sq;
                    if v > alpha {
                        break;
                    }
                }
            }
        }
        if self.aborted {
            return 0;
        }
        self.tt.store(p, o, TAG_END, self.stored_depth(n), alpha, alpha + 1, best, best_sq);
        best
    }
}
