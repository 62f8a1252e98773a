//! Exact endgame solver: final disc margin (or only win/loss/draw with a narrow window) with
//! perfect play, in disc units, empty squares going to the winner.
//!
//! Past 500 lines on purpose: one job, the solver, whose search, move ordering and stability
//! cut-offs share the tables of its hot path; about 120 lines are tests.
//!
//! Null-window search does most of the work. Deep nodes use the transposition table,
//! stability cut-offs and fastest-first ordering (sharpened by a static evaluation far from
//! the end); shallow nodes order by quadrant parity only; the last empty square is counted
//! without playing it out. A full solve first makes a selective pass (ProbCut by shallow
//! midgame searches) whose best moves order the exact one.

use std::time::{Duration, Instant};

use crate::reversi::engine::eval::PatternEval;
use crate::reversi::engine::search::{
    final_margin, potential_mobility, weighted_mobility, Children, Engine, Features, INF, SQUARE_ORDER,
};
use crate::reversi::engine::strong::Strong;
use crate::reversi::rules::board::{flips, moves, Move, Position, Square};
use crate::reversi::rules::last_flip::count_last_flip;

/// At or below this many empties nodes skip the table and sorting (parity order only). Eight, not
/// six: 60% more nodes, each so much cheaper that FFO #40-#49 takes about an eighth less time
/// (2026-12-02, docs/design/reversi-engine.md#the-exact-endgame-solver-endgamers); a static square
/// order inside each parity class saved 10% of the nodes but not time, and was left out.
const SHALLOW: u32 = 8;
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
/// Half-width in discs of the root aspiration window of [`Engine::solve_exact`].
const ASPIRATION: i32 = 4;
/// Fewest empties for which the aspiration (and its midgame estimate) is worth it.
const ASPIRATION_MIN: u32 = 16;
/// At or above this many empties children are looked up in the table before searching (from
/// 12 rather than 14: 3% fewer nodes, measured with the other constants here).
const ETC_MIN: u32 = 12;
/// TT tag of exact endgame results (midgame tags are 1 and 2).
const TAG_END: u8 = 0;
/// Table depth of a result of the selective pass: no exact entry has it (they store their
/// empties, and the solver's table nodes have more than [`SHALLOW`]).
const SELECTIVE_DEPTH: u8 = 0;
/// Fewest empties where the selective pass prunes by ProbCut (10 and 14 measured alike).
const END_PROBCUT_MIN: u32 = 12;
/// ProbCut margin in discs of the selective pass before an exact solve: FFO #40-#49 took 0.56
/// of its time with 2 (1: 0.61, 4: 0.67, 6: 0.63; 2026-12-03,
/// docs/design/reversi-engine.md#the-exact-endgame-solver-endgamers). `None` would solve at once.
const END_PROBCUT_MARGIN: Option<i32> = Some(2);
/// The selective pass's shallow searches go `empties / this` plies deep (at least 2): 4 and 3
/// measured alike, 5 cost 1.3 times the time.
const END_PROBCUT_DIVISOR: u32 = 4;

/// Alpha above which a stability bound can cut, by empties (smaller alphas rarely cut).
const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 48, 50, 50, 52,
    52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64,
];

const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0xff;
const ROW_8: u64 = 0xff00_0000_0000_0000;
const BORDER: u64 = COL_A | COL_H | ROW_1 | ROW_8;

/// Masks of the 4x4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0f0f_0f0f, 0x0000_0000_f0f0_f0f0, 0x0f0f_0f0f_0000_0000, 0xf0f0_f0f0_0000_0000];

/// The up-to-eight squares around each square: a placement must touch an opponent disc.
const NEIGHBOURS: [u64; 64] = {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut m = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                    m |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        out[sq] = m;
        sq += 1;
    }
    out
};

/// Diagonal lines (both directions) of 3 or more squares, for the full-line test.
const DIAGONALS: [u64; 22] = {
    let mut out = [0u64; 22];
    let mut n = 0;
    let mut d = 0;
    // Down-right diagonals: col - row = k.
    while d < 2 {
        let mut k: i32 = -5;
        while k <= 5 {
            let mut m = 0u64;
            let mut r = 0;
            while r < 8 {
                let c = if d == 0 { r + k } else { 7 - r - k };
                if c >= 0 && c < 8 {
                    m |= 1u64 << (r * 8 + c);
                }
                r += 1;
            }
            out[n] = m;
            n += 1;
            k += 1;
        }
        d += 1;
    }
    out
};

/// Squares whose line in each direction is completely filled (no move can flip along it).
fn full_lines(filled: u64) -> (u64, u64, u64, u64) {
    let mut h = 0;
    for r in 0..8 {
        if (filled >> (8 * r)) & 0xff == 0xff {
            h |= 0xffu64 << (8 * r);
        }
    }
    let mut v = filled;
    v &= v >> 8;
    v &= v >> 16;
    v &= v >> 32;
    let v = (v & 0xff).wrapping_mul(COL_A);
    let (mut d9, mut d7) = (0, 0);
    for (i, &m) in DIAGONALS.iter().enumerate() {
        if filled & m == m {
            if i < 11 {
                d9 |= m;
            } else {
                d7 |= m;
            }
        }
    }
    // Border squares have the wall on one side of both diagonals (this covers the 1-2 square
    // diagonals next to corners, absent from DIAGONALS).
    (h, v, d9 | BORDER, d7 | BORDER)
}

/// A lower bound on `p`'s stable discs (never flippable again): discs that along each of the
/// four lines through them touch the border, a full line, or another stable disc of theirs.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let (h, v, d9, d7) = full_lines(p | o);
    let mut stable = 0u64;
    loop {
        let sh = h | COL_A | COL_H | ((stable << 1) & !COL_A) | ((stable >> 1) & !COL_H);
        let sv = v | ROW_1 | ROW_8 | (stable << 8) | (stable >> 8);
        let s9 = d9 | ((stable << 9) & !COL_A) | ((stable >> 9) & !COL_H);
        let s7 = d7 | ((stable << 7) & !COL_H) | ((stable >> 7) & !COL_A);
        let next = p & sh & sv & s9 & s7;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Result of [`solve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// A best move (`Pass` when forced; `Pass` too if the game is already over).
    pub best: Move,
    /// Exact final disc margin for the side to move with perfect play (empties to the winner).
    pub score: i32,
    /// Positions visited.
    pub nodes: u64,
    /// Wall-clock time used.
    pub time: Duration,
}

/// Solves `pos` exactly (no time limit): a best move and the final margin with perfect play.
pub fn solve(pos: &Position) -> Solved {
    let mut engine = Engine::new(22);
    let eval = PatternEval::builtin();
    let start = Instant::now();
    let (best, score) =
        engine.solve_exact(&eval, pos.player(), pos.opponent()).expect("no deadline set, so the solve completes");
    Solved { best, score, nodes: engine.nodes, time: start.elapsed() }
}

/// Corners of `p` and the edge squares next to them that `p` holds: cheap sure stability.
#[inline]
fn corner_stability(p: u64) -> i32 {
    let c = 0x8100_0000_0000_0081u64;
    let stable = (((0x0100_0000_0000_0001 & p) << 1)
        | ((0x8000_0000_0000_0080 & p) >> 1)
        | ((0x0000_0000_0000_0081 & p) << 8)
        | ((0x8100_0000_0000_0000 & p) >> 8)
        | c)
        & p;
    stable.count_ones() as i32
}

/// Parity quadrant bit of each square.
#[inline]
fn quadrant_bit(sq: u32) -> u8 {
    1 << (((sq >> 2) & 1) | ((sq >> 4) & 2))
}

/// Bits of the quadrants with an odd number of empty squares.
#[inline]
fn parity_of(empties: u64) -> u8 {
    let mut par = 0;
    for (i, q) in QUADRANTS.iter().enumerate() {
        par |= (((empties & q).count_ones() & 1) as u8) << i;
    }
    par
}

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

    /// The principal-variation loop over ordered children of a node with `n` empties: the first
    /// with the full window, the others null-window first. Best value and square, or `None` if
    /// the deadline passed.
    fn pvs_children(
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

    /// Orders endgame children: TT move, then fewest opponent replies, then (deep) evaluation.
    fn order_end(&mut self, eval: &PatternEval, c: &mut Children, p: u64, o: u64, n: u32, tt_move: u8) {
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
    fn pvs_end(&mut self, eval: &PatternEval, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
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

    /// Null-window search near the end: no table, squares of odd quadrants first; the last
    /// four empties go to the dedicated [`Engine::solve_4`] and below.
    fn nws_shallow(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8) -> i32 {
        let empties = !(p | o);
        let mut odd = 0u64;
        for (i, q) in QUADRANTS.iter().enumerate() {
            if parity >> i & 1 == 1 {
                odd |= q;
            }
        }
        if n <= 4 {
            // Odd-quadrant squares first: a lone empty in a region is where the last move
            // usually pays.
            let mut x = [0u32; 4];
            let mut k = 0;
            for set in [empties & odd, empties & !odd] {
                let mut m = set;
                while m != 0 {
                    x[k] = m.trailing_zeros();
                    m &= m - 1;
                    k += 1;
                }
            }
            return match n {
                4 => self.solve_4(p, o, alpha, x),
                3 => self.solve_3(p, o, alpha, [x[0], x[1], x[2]]),
                2 => self.solve_2(p, o, alpha, [x[0], x[1]]),
                1 => self.last_square(p, o, alpha, x[0]),
                _ => final_margin(p, o),
            };
        }
        self.count_end_node();
        if alpha >= STABILITY_THRESHOLD[n as usize] {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let mut best = -65;
        for set in [empties & odd, empties & !odd] {
            let mut m = set;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                if NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let f = flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let v = -self.nws_shallow(o & !f, p | f | (1u64 << sq), -alpha - 1, n - 1, parity ^ quadrant_bit(sq));
                if v > best {
                    if v > alpha {
                        return v;
                    }
                    best = v;
                }
            }
        }
        if best == -65 {
            // No placement: pass if the opponent can move, else the game is over.
            if moves(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.nws_shallow(o, p, -alpha - 1, n, parity);
        }
        best
    }

    /// Null-window search with exactly four empties `x` (in the order to try them).
    fn solve_4(&mut self, p: u64, o: u64, alpha: i32, x: [u32; 4]) -> i32 {
        self.count_end_node();
        if alpha >= STABILITY_THRESHOLD[4] {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let best = self.best_placement(p, o, alpha, x, |s, p, o, alpha, i| s.solve_3(p, o, alpha, others(x, i)));
        self.or_pass(best, p, o, |s| s.solve_4(o, p, -alpha - 1, x))
    }

    /// Null-window search with exactly three empties `x`.
    fn solve_3(&mut self, p: u64, o: u64, alpha: i32, x: [u32; 3]) -> i32 {
        self.count_end_node();
        let best = self.best_placement(p, o, alpha, x, |s, p, o, alpha, i| s.solve_2(p, o, alpha, others(x, i)));
        self.or_pass(best, p, o, |s| s.solve_3(o, p, -alpha - 1, x))
    }

    /// Null-window search with exactly two empties `x`; a pass is resolved here rather than
    /// by recursion (they are common this close to the end).
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, x: [u32; 2]) -> i32 {
        self.count_end_node();
        let last = |s: &mut Self, p, o, alpha, i: usize| s.last_square(p, o, alpha, x[1 - i]);
        if let Some(v) = self.best_placement(p, o, alpha, x, last) {
            return v;
        }
        // `p` passes: the opponent moves, against the opponent's null window.
        match self.best_placement(o, p, -alpha - 1, x, last) {
            Some(v) => -v,
            None => final_margin(p, o),
        }
    }

    /// `best`, the value of `p`'s best placement; when it had none, `p` passes and `again`
    /// searches the opponent's turn, or the game is over.
    #[inline(always)]
    fn or_pass(&mut self, best: Option<i32>, p: u64, o: u64, again: impl FnOnce(&mut Self) -> i32) -> i32 {
        match best {
            Some(v) => v,
            None if moves(o, p) == 0 => final_margin(p, o),
            None => -again(self),
        }
    }

    /// The best value for `p` of its placements on `squares`, tried in order, each valued by
    /// `child` (on the position after it, from the opponent's side, with the opponent's null
    /// window and the index of the square played), and the first that beats `alpha` at once;
    /// `None` when `p` can place on none of them. One loop for the last few empties, inlined
    /// into each so the squares stay in registers (the solvers' speed is the loop's).
    #[inline(always)]
    fn best_placement<const N: usize>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        squares: [u32; N],
        child: impl Fn(&mut Self, u64, u64, i32, usize) -> i32,
    ) -> Option<i32> {
        let mut best = -65;
        for (i, sq) in squares.into_iter().enumerate() {
            if NEIGHBOURS[sq as usize] & o == 0 {
                continue;
            }
            let f = flips(p, o, sq);
            if f != 0 {
                let v = -child(self, o & !f, p | f | (1u64 << sq), -alpha - 1, i);
                if v > alpha {
                    return Some(v);
                }
                best = best.max(v);
            }
        }
        (best > -65).then_some(best)
    }

    /// Value with one empty square `sq` left, `p` to move, against the null window `alpha`:
    /// exact, except that when `p` cannot play there and even the best the opponent can leave
    /// `p` is at most `alpha`, that bound is returned without counting the opponent's flips.
    #[inline]
    fn last_square(&mut self, p: u64, o: u64, alpha: i32, sq: u32) -> i32 {
        self.count_end_node();
        let np = p.count_ones() as i32;
        let n = count_last_flip(p, sq) as i32;
        if n != 0 {
            return 2 * (np + n + 1) - 64;
        }
        // `p` passes: the opponent flips at least one disc, or nobody plays and `p` gets at
        // most 2 np - 62 (the empty square going to the winner).
        if 2 * np - 62 <= alpha {
            return 2 * np - 62;
        }
        let n = count_last_flip(o, sq) as i32;
        if n != 0 {
            return 2 * (np - n) - 64;
        }
        // Nobody can fill it: the empty square goes to the winner (63 discs, never a draw).
        let d = 2 * np - 63;
        if d > 0 {
            d + 1
        } else {
            d - 1
        }
    }
}

/// `x` without its `i`-th square, in the same order: what is left after playing there.
#[inline(always)]
fn others<const N: usize, const M: usize>(x: [u32; N], i: usize) -> [u32; M] {
    debug_assert_eq!(M + 1, N);
    std::array::from_fn(|k| x[k + usize::from(k >= i)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::rules::board::Color;
    use crate::reversi::rules::naive::random_position;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// Plain full-width negamax over the public `Position` API: the reference.
    fn negamax(pos: &Position) -> i32 {
        if pos.is_game_over() {
            return final_margin(pos.player(), pos.opponent());
        }
        pos.legal_moves().into_iter().map(|m| -negamax(&pos.play(m).unwrap())).max().unwrap()
    }

    #[test]
    fn solver_matches_plain_negamax_on_random_endgames() {
        let mut rng = StdRng::seed_from_u64(404);
        let eval = PatternEval::builtin();
        let mut engine = Engine::new(16);
        for i in 0..120 {
            let pos = random_position(&mut rng, 1 + i % 10, 0);
            let want = negamax(&pos);
            engine.clear();
            let (best, score) = engine.solve_root(&eval, pos.player(), pos.opponent(), -64, 64).unwrap();
            assert_eq!(score, want, "{}", pos.to_text());
            assert_eq!(-negamax(&pos.play(best).unwrap()), want, "best move {best} in {}", pos.to_text());
            // Null windows around the value bracket it; the WLD window gets the sign.
            for a in [want - 1, want] {
                engine.clear();
                let v = engine.nws_end(&eval, pos.player(), pos.opponent(), a, pos.empties());
                assert_eq!(v > a, want > a, "nws at {a} gave {v}, value {want}");
            }
            let (_, wld) = engine.solve_root(&eval, pos.player(), pos.opponent(), -1, 1).unwrap();
            assert_eq!(wld.signum(), want.signum());
        }
    }

    #[test]
    fn last_four_empties_routines_bracket_the_exact_value_at_every_alpha() {
        // Positions with passes and unfillable squares are common this close to the end; every
        // null window must land on the right side of the exact value.
        let mut rng = StdRng::seed_from_u64(2024);
        let mut engine = Engine::new(12);
        let eval = PatternEval::builtin();
        let mut passes = 0;
        for i in 0..400 {
            let pos = random_position(&mut rng, 1 + i % 4, 0);
            let want = negamax(&pos);
            passes += usize::from(pos.legal_moves() == [Move::Pass]);
            for a in (-64..64).step_by(3).chain([want - 1, want]) {
                let v = engine.nws_end(&eval, pos.player(), pos.opponent(), a, pos.empties());
                assert_eq!(v > a, want > a, "alpha {a}: {v} for value {want} in {}", pos.to_text());
                if v > a {
                    assert!(v <= want, "fail-high bound {v} above the value {want}");
                } else {
                    assert!(v >= want, "fail-low bound {v} below the value {want}");
                }
            }
        }
        assert!(passes > 0, "the sample should include positions where the side to move passes");
    }

    #[test]
    fn aspiration_solve_agrees_with_the_full_window() {
        let mut rng = StdRng::seed_from_u64(1616);
        let eval = PatternEval::builtin();
        let mut engine = Engine::new(18);
        for _ in 0..4 {
            let pos = random_position(&mut rng, 16, 0);
            engine.clear();
            let (_, full) = engine.solve_root(&eval, pos.player(), pos.opponent(), -64, 64).unwrap();
            engine.clear();
            let (best, asp) = engine.solve_exact(&eval, pos.player(), pos.opponent()).unwrap();
            assert_eq!(asp, full, "{}", pos.to_text());
            if let Move::Place(_) = best {
                let after = pos.play(best).unwrap();
                engine.clear();
                let (_, v) = engine.solve_root(&eval, after.player(), after.opponent(), -64, 64).unwrap();
                assert_eq!(-v, full, "best move {best} of {}", pos.to_text());
            }
        }
    }

    /// The selective pass's bounds are never taken for exact ones: after a pass that prunes
    /// wherever it may (a negative margin, so its values are often wrong), a solve on the same
    /// table still gives the exact value.
    #[test]
    fn selective_results_only_order_the_exact_search() {
        let mut rng = StdRng::seed_from_u64(1217);
        let eval = PatternEval::builtin();
        let mut wrong = 0;
        for _ in 0..6 {
            let pos = random_position(&mut rng, 16, 0);
            let (p, o) = (pos.player(), pos.opponent());
            let (_, exact) = Engine::new(18).solve_root(&eval, p, o, -64, 64).unwrap();
            let mut engine = Engine::new(18);
            engine.end_probcut = Some(-8);
            let (_, selective) = engine.solve_root(&eval, p, o, -64, 64).unwrap();
            engine.end_probcut = None;
            wrong += usize::from(selective != exact);
            let (_, v) = engine.solve_root(&eval, p, o, -64, 64).unwrap();
            assert_eq!(v, exact, "{}", pos.to_text());
        }
        assert!(wrong > 0, "the test's selective pass should be wrong somewhere");
    }

    #[test]
    fn stable_discs_are_never_flipped() {
        // Every disc called stable must keep its colour through any continuation.
        fn check(pos: &Position, stable_black: u64, stable_white: u64, depth: u32) {
            assert_eq!(pos.black() & stable_black, stable_black, "{}", pos.to_text());
            assert_eq!(pos.white() & stable_white, stable_white, "{}", pos.to_text());
            if depth == 0 {
                return;
            }
            for m in pos.legal_moves() {
                check(&pos.play(m).unwrap(), stable_black, stable_white, depth - 1);
            }
        }
        let mut rng = StdRng::seed_from_u64(77);
        let mut seen = 0;
        for i in 0..40 {
            let pos = random_position(&mut rng, 6 + i % 8, 0);
            let sb = stable_discs(pos.black(), pos.white());
            let sw = stable_discs(pos.white(), pos.black());
            seen += (sb | sw).count_ones();
            check(&pos, sb, sw, pos.empties().min(5));
        }
        assert!(seen > 100, "the sample should contain stable discs ({seen})");
        // A lone corner is stable; a lone centre disc is not.
        assert_eq!(stable_discs(1, 1 << 9), 1);
        assert_eq!(stable_discs(1 << 27, 1 << 28), 0);
        let full = Position::from_bitboards(!0 ^ 0xffff, 0xffff, Color::Black).unwrap();
        assert_eq!(stable_discs(full.black(), full.white()), full.black());
    }

    #[test]
    fn solve_reports_pass_and_finished_games() {
        let pos = Position::from_bitboards(1, 2, Color::White).unwrap();
        let s = solve(&pos);
        assert_eq!((s.best, s.score), (Move::Pass, -64));
        let end = Position::from_bitboards(0b111, 0, Color::White).unwrap();
        assert_eq!(solve(&end).score, -64);
    }
}
