//! The shared search engine: one negamax core (PVS, transposition table, move ordering, a
//! deadline) used by every AI level; iterative deepening at the root is [`root`](crate::reversi::engine::root)'s.
//!
//! What a position is worth is not fixed here: an [`Objective`] scores leaves for the side to
//! move, told whether that side is the root player ("the CPU"). The strong level scores for
//! itself; the sontaku levels score how desirable the position is for the human, so the same
//! code searches in a different direction.
//!
//! (Past 500 lines: the last 70 are its tests; the negamax core and the engine state it
//! searches with are one notion.)

use std::time::Duration;

use crate::reversi::engine::clock::Timer;
pub use crate::reversi::engine::clock::{Clock, END_NODE_NS};
pub(crate) use crate::reversi::engine::features::{Features, Incremental};
use crate::reversi::engine::probcut;
use crate::reversi::engine::tt::Tt;
use crate::reversi::rules::board::{flips, moves};

/// Larger than every objective's values.
pub const INF: i32 = 1 << 24;

/// Nodes between two looks at the clock (a few hundred microseconds of search).
const CHECK_INTERVAL: u64 = 2048;

/// TT depth of a result that holds at any depth: its subtree reached every game end.
const COMPLETE: u8 = 255;

/// Corner squares, worth a lot for move ordering (and what a guest's tell gives away).
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// What a leaf is worth to the side to move; `cpu` says whether that side is the root player.
///
/// Values must be antisymmetric in spirit (a side's gain is the other's loss), which holds by
/// construction when an objective computes a CPU-view value and negates it on the human's turn.
pub trait Objective {
    /// What every node carries for [`eval`](Self::eval), kept up to date move by move: the
    /// pattern indices ([`Features`]) for objectives on the pattern evaluation, nothing (`()`)
    /// for the others.
    type Features: Incremental;
    /// Heuristic value of a position that is not finished, `f` being its features and `mask`
    /// the mover's legal moves, which a search leaf has just generated (never 0): evaluations
    /// that count mobility need not generate them again.
    fn eval_with_moves(&self, p: u64, o: u64, mask: u64, f: &Self::Features, cpu: bool) -> i32;
    /// [`eval_with_moves`](Self::eval_with_moves) where the moves are not at hand yet.
    #[inline]
    fn eval(&self, p: u64, o: u64, f: &Self::Features, cpu: bool) -> i32 {
        self.eval_with_moves(p, o, moves(p, o), f, cpu)
    }
    /// Exact value of a finished game (neither side can move).
    fn terminal(&self, p: u64, o: u64, cpu: bool) -> i32;
}

/// Final disc margin for `p`, empty squares going to the winner (tournament scoring).
#[inline]
pub fn final_margin(p: u64, o: u64) -> i32 {
    let np = p.count_ones() as i32;
    let no = o.count_ones() as i32;
    let e = 64 - np - no;
    match np - no {
        d if d > 0 => d + e,
        d if d < 0 => d - e,
        _ => 0,
    }
}

/// A child of a node: the move, the position after it (next mover first) and its sort key.
#[derive(Clone, Copy, Default)]
pub(in crate::reversi) struct Child {
    pub sq: u8,
    pub p: u64,
    pub o: u64,
    pub key: i32,
}

/// Fixed-capacity child list (a position has at most 33 legal moves).
pub(in crate::reversi) struct Children {
    pub list: [Child; 36],
    pub len: usize,
}

impl Children {
    /// Expands every move of `mask` for `p` against `o`.
    #[inline]
    pub(crate) fn new(p: u64, o: u64, mut mask: u64) -> Self {
        let mut c = Children { list: [Child::default(); 36], len: 0 };
        while mask != 0 {
            let sq = mask.trailing_zeros();
            mask &= mask - 1;
            let f = flips(p, o, sq);
            c.list[c.len] = Child { sq: sq as u8, p: o & !f, o: p | f | (1u64 << sq), key: 0 };
            c.len += 1;
        }
        c
    }

    /// Moves the best-keyed child of `i..` to `i` (selection sort: cut-offs often come early).
    #[inline]
    pub(crate) fn pick(&mut self, i: usize) -> Child {
        let mut b = i;
        for j in i + 1..self.len {
            if self.list[j].key > self.list[b].key {
                b = j;
            }
        }
        self.list.swap(i, b);
        self.list[i]
    }
}

/// Opponent mobility with corners counted twice: the fastest-first ordering measure.
#[inline]
pub(in crate::reversi) fn weighted_mobility(p: u64, o: u64) -> i32 {
    let m = moves(p, o);
    (m.count_ones() + (m & CORNERS).count_ones()) as i32
}

/// Empty squares next to `o`'s discs: where `p` might get moves later.
#[inline]
pub(in crate::reversi) fn potential_mobility(p: u64, o: u64) -> i32 {
    let e = !(p | o);
    let h = 0x7e7e_7e7e_7e7e_7e7e & o;
    let n = (h << 1) | (h >> 1) | (o << 8) | (o >> 8) | (h << 7) | (h >> 7) | (h << 9) | (h >> 9);
    (n & e).count_ones() as i32
}

/// Static square preference for ordering cheap moves (corners first, X-squares last).
#[rustfmt::skip]
pub(in crate::reversi) const SQUARE_ORDER: [i8; 64] = [
    18,  4, 16, 12, 12, 16,  4, 18,
     4,  2,  6,  8,  8,  6,  2,  4,
    16,  6, 14, 10, 10, 14,  6, 16,
    12,  8, 10,  0,  0, 10,  8, 12,
    12,  8, 10,  0,  0, 10,  8, 12,
    16,  6, 14, 10, 10, 14,  6, 16,
     4,  2,  6,  8,  8,  6,  2,  4,
    18,  4, 16, 12, 12, 16,  4, 18,
];

/// A search: transposition table, history table, node counter and deadline. Owned by the
/// caller and reused between searches; nothing is global.
pub struct Engine {
    pub(in crate::reversi) tt: Tt,
    /// Nodes visited since the engine was created or the counter was reset.
    pub nodes: u64,
    /// Of those, nodes of the exact endgame solver (they cost less; see [`Clock::Nodes`]).
    end_nodes: u64,
    timer: Timer,
    history: [i32; 64],
    /// When the search must stop, on the engine's clock ([`Engine::now`]).
    pub(in crate::reversi) deadline: Option<Duration>,
    next_check: u64,
    /// Set once the deadline has passed; results computed afterwards are discarded.
    pub(in crate::reversi) aborted: bool,
    /// Whether the last midgame search cut any line short at its depth limit.
    pub(in crate::reversi) cut: bool,
    /// Whether the strong level may prune with [`probcut`] (off for the frozen
    /// baseline of engine matches).
    probcut: bool,
    /// Whether the search running now prunes with ProbCut (only the strong level's own).
    pub(in crate::reversi) selective: bool,
    /// ProbCut margin in discs while the exact solver makes a selective first pass.
    pub(in crate::reversi) end_probcut: Option<i32>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new(21)
    }
}

impl Engine {
    /// An engine with a transposition table of `2^tt_bits` entries (21 → 64 MiB).
    pub fn new(tt_bits: u32) -> Self {
        Engine {
            tt: Tt::new(tt_bits),
            nodes: 0,
            end_nodes: 0,
            timer: Timer::None,
            history: [0; 64],
            deadline: None,
            next_check: 0,
            aborted: false,
            cut: false,
            probcut: true,
            selective: false,
            end_probcut: None,
        }
    }

    /// The same engine without ProbCut: the strong level searches every line, as it did
    /// before ProbCut (the baseline of engine matches).
    pub fn without_probcut(mut self) -> Self {
        self.probcut = false;
        self
    }

    /// Whether the strong level may prune with ProbCut on this engine.
    pub(crate) fn probcut_allowed(&self) -> bool {
        self.probcut
    }

    /// The same engine reading `clock`, which starts now (the wall clock is read once here).
    /// An engine searches under a deadline only on a clock its caller handed in.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.timer = match clock {
            Clock::Wall(read) => Timer::Wall { read, started: read() },
            Clock::Nodes { mid_ns, end_ns } => Timer::Nodes { mid_ns, end_ns },
        };
        self
    }

    /// The time on this engine's clock: how long since the wall clock was handed in, or what
    /// the nodes searched cost on the node clock (always zero on an engine given no clock).
    /// Deadlines are times on this clock.
    #[inline]
    pub fn now(&self) -> Duration {
        match self.timer {
            Timer::Wall { read, started } => read().saturating_duration_since(started),
            Timer::Nodes { mid_ns, end_ns } => {
                let mid = (self.nodes - self.end_nodes) as f64 * mid_ns;
                Duration::from_nanos((mid + self.end_nodes as f64 * end_ns) as u64)
            }
            Timer::None => Duration::ZERO,
        }
    }

    /// Counts a node of the exact endgame solver.
    #[inline(always)]
    pub(in crate::reversi) fn count_end_node(&mut self) {
        self.nodes += 1;
        self.end_nodes += 1;
    }

    /// Sets (or removes) the deadline, a time on this engine's clock ([`Engine::now`]), and
    /// clears the abort flag.
    ///
    /// # Panics
    /// When a deadline is set on an engine that was given no clock ([`Engine::with_clock`]):
    /// its time would never pass.
    pub fn set_deadline(&mut self, deadline: Option<Duration>) {
        assert!(
            deadline.is_none() || !matches!(self.timer, Timer::None),
            "a search under a deadline needs the caller's clock (Engine::with_clock)"
        );
        self.deadline = deadline;
        self.aborted = false;
        self.next_check = self.nodes + CHECK_INTERVAL;
    }

    /// Forgets the transposition table and history (needed when the objective changes).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history = [0; 64];
    }

    /// Whether the search must stop; looks at the clock every `CHECK_INTERVAL` nodes.
    #[inline]
    pub(in crate::reversi) fn tick(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            if let Some(d) = self.deadline {
                if self.now() >= d {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Orders the children of a node whose opponent is `o` and features `f`: TT move, then
    /// (deep) static value, else fastest-first and history.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::reversi) fn order<O: Objective>(
        &self,
        obj: &O,
        c: &mut Children,
        o: u64,
        f: &O::Features,
        depth: u32,
        tt_move: u8,
        cpu: bool,
    ) {
        for ch in &mut c.list[..c.len] {
            ch.key = if ch.sq == tt_move {
                i32::MAX
            } else if depth >= 3 {
                // Worth a static look at each child when the subtree is big.
                let child = f.after_move(ch.sq, o ^ ch.p);
                -obj.eval(ch.p, ch.o, &child, !cpu) * 4 - weighted_mobility(ch.p, ch.o) * 8
                    + self.history[ch.sq as usize].min(1 << 12) / 64
            } else {
                -weighted_mobility(ch.p, ch.o) * 256
                    + i32::from(SQUARE_ORDER[ch.sq as usize]) * 8
                    + self.history[ch.sq as usize].min(1 << 14) / 64
            };
        }
    }

    /// Principal-variation search to `depth` plies for the side to move; fail-soft. A pass
    /// costs no depth, so the search never stops right before a forced reply.
    #[allow(clippy::too_many_arguments)]
    pub fn pvs<O: Objective>(&mut self, obj: &O, p: u64, o: u64, depth: u32, alpha: i32, beta: i32, cpu: bool) -> i32 {
        self.pvs_node(obj, p, o, &O::Features::of(p, o), depth, alpha, beta, cpu)
    }

    /// [`pvs`](Self::pvs) at a node whose features `f` the caller has (each child's follow
    /// from its parent's by the move, cheaper than from the board).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::reversi) fn pvs_node<O: Objective>(
        &mut self,
        obj: &O,
        p: u64,
        o: u64,
        f: &O::Features,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        cpu: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.tick() {
            return 0;
        }
        let mask = moves(p, o);
        if mask == 0 {
            if moves(o, p) == 0 {
                return obj.terminal(p, o, cpu);
            }
            return -self.pvs_node(obj, o, p, &f.after_pass(), depth, -beta, -alpha, !cpu);
        }
        // Every placement fills a square, so more depth than empties changes nothing.
        let n = (!(p | o)).count_ones();
        let depth = depth.min(n);
        if depth == 0 {
            self.cut = true;
            return obj.eval_with_moves(p, o, mask, f, cpu);
        }
        let tag = 1 + u8::from(cpu);
        let use_tt = n > 4;
        let mut tt_move = 64;
        if let Some(e) = if use_tt { self.tt.probe(p, o, tag) } else { None } {
            if u32::from(e.depth) >= depth {
                let hit = if e.lower >= beta {
                    Some(e.lower)
                } else if e.upper <= alpha {
                    Some(e.upper)
                } else if e.lower == e.upper {
                    Some(e.lower)
                } else {
                    None
                };
                if let Some(v) = hit {
                    // Entries of subtrees that reached every game end are stored with depth
                    // COMPLETE; others hide a depth limit.
                    if e.depth != COMPLETE {
                        self.cut = true;
                    }
                    return v;
                }
            }
            tt_move = e.mv;
        }
        if self.selective && depth >= probcut::MIN_DEPTH && beta - alpha == 1 {
            let cut_before = self.cut;
            if let Some(v) = self.probcut(obj, p, o, f, depth, n, alpha, cpu) {
                self.cut = true;
                return v;
            }
            if self.aborted {
                return 0;
            }
            self.cut = cut_before;
        }
        let cut_above = std::mem::replace(&mut self.cut, false);
        let mut children = Children::new(p, o, mask);
        if children.len > 1 {
            self.order(obj, &mut children, o, f, depth, tt_move, cpu);
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = 64u8;
        for i in 0..children.len {
            let c = if children.len > 1 { children.pick(i) } else { children.list[0] };
            let cf = f.after_move(c.sq, o ^ c.p);
            let v = if i == 0 {
                -self.pvs_node(obj, c.p, c.o, &cf, depth - 1, -beta, -alpha, !cpu)
            } else {
                let v = -self.pvs_node(obj, c.p, c.o, &cf, depth - 1, -alpha - 1, -alpha, !cpu);
                if v > alpha && v < beta {
                    -self.pvs_node(obj, c.p, c.o, &cf, depth - 1, -beta, -v, !cpu)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = c.sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        let h = &mut self.history[c.sq as usize];
                        *h = h.saturating_add((depth * depth) as i32);
                        break;
                    }
                }
            }
        }
        let stored_depth = if self.cut { depth } else { u32::from(COMPLETE) };
        self.cut |= cut_above;
        if use_tt {
            self.tt.store(p, o, tag, stored_depth, alpha0, beta, best, best_move);
        }
        best
    }

    /// ProbCut at a null-window node (`beta = alpha + 1`) of `depth` plies: `Some(bound)` when
    /// a shallow search puts the deep value outside the window by more than the measured
    /// margin, with the side of the window it falls on.
    #[allow(clippy::too_many_arguments)]
    fn probcut<O: Objective>(
        &mut self,
        obj: &O,
        p: u64,
        o: u64,
        f: &O::Features,
        depth: u32,
        empties: u32,
        alpha: i32,
        cpu: bool,
    ) -> Option<i32> {
        let beta = alpha + 1;
        let (mean, margin) = probcut::window(depth, empties);
        let shallow = probcut::shallow_depth(depth);
        // Only where the bounds are values an evaluation can have (not proven wins).
        let limit = 64 * crate::reversi::engine::eval::DISC;
        // The deep value is predicted as shallow + mean.
        let high = beta - mean + margin;
        if high < limit {
            let v = self.pvs_node(obj, p, o, f, shallow, high - 1, high, cpu);
            if self.aborted {
                return None;
            }
            if v >= high {
                return Some(beta);
            }
        }
        let low = alpha - mean - margin;
        if low > -limit {
            let v = self.pvs_node(obj, p, o, f, shallow, low, low + 1, cpu);
            if self.aborted {
                return None;
            }
            if v <= low {
                return Some(alpha);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::engine::classic::Classic;
    use crate::reversi::engine::eval::PatternEval;
    use crate::reversi::engine::strong::Strong;
    use crate::reversi::levels::sontaku::{Highest, OwnInterest, Standard};
    use crate::reversi::rules::naive::random_playout;
    use rand::{Rng, SeedableRng};
    use std::time::Instant;

    /// An objective that checks, at every leaf the search evaluates, that the moves and features
    /// the search hands over give the value computed from the board alone.
    struct Audited<'a, O>(&'a O, std::cell::Cell<u64>);

    impl<O: Objective> Objective for Audited<'_, O> {
        type Features = O::Features;
        fn eval_with_moves(&self, p: u64, o: u64, mask: u64, f: &O::Features, cpu: bool) -> i32 {
            let handed = self.0.eval_with_moves(p, o, mask, f, cpu);
            let from_board = self.0.eval_with_moves(p, o, moves(p, o), &O::Features::of(p, o), cpu);
            assert_eq!(handed, from_board, "{p:#x} {o:#x} cpu {cpu}");
            self.1.set(self.1.get() + 1);
            handed
        }
        fn terminal(&self, p: u64, o: u64, cpu: bool) -> i32 {
            self.0.terminal(p, o, cpu)
        }
    }

    /// Searches `obj` from random positions; returns how many leaves were audited.
    fn audit<O: Objective>(obj: &O, seed: u64) -> u64 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let audited = Audited(obj, std::cell::Cell::new(0));
        for _ in 0..12 {
            let plies = rng.gen_range(0..50);
            let pos = random_playout(&mut rng, plies);
            let mut engine = Engine::new(12);
            let cpu = rng.gen_bool(0.5);
            engine.pvs(&audited, pos.player(), pos.opponent(), 4, -INF, INF, cpu);
        }
        audited.1.get()
    }

    /// How often [`counted_wall`] was read (only the test below reads it).
    static WALL_READS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

    fn counted_wall() -> Instant {
        WALL_READS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Instant::now()
    }

    #[test]
    fn an_engine_reads_the_clock_its_caller_hands_in_and_none_other() {
        let reads = || WALL_READS.load(std::sync::atomic::Ordering::SeqCst);
        let mut engine = Engine::new(10).with_clock(Clock::Wall(counted_wall));
        assert_eq!(reads(), 1, "the wall clock starts when handed in");
        engine.set_deadline(Some(engine.now() + Duration::from_secs(60)));
        assert_eq!(reads(), 2);
        let pos = random_playout(&mut rand::rngs::StdRng::seed_from_u64(3), 20);
        engine.pvs(&Classic, pos.player(), pos.opponent(), 6, -INF, INF, true);
        assert!(engine.nodes > CHECK_INTERVAL, "{} nodes", engine.nodes);
        assert!(reads() > 2, "the search looked at the handed clock");
        // Without a clock an engine's time stands still, so it takes no deadline.
        assert_eq!(Engine::new(10).now(), Duration::ZERO);
        let refused = std::panic::catch_unwind(|| Engine::new(10).set_deadline(Some(Duration::ZERO)));
        assert!(refused.is_err(), "a deadline without a clock is refused");
        // The node clock is the nodes' cost.
        let mut counted = Engine::new(10).with_clock(Clock::Nodes { mid_ns: 100.0, end_ns: 10.0 });
        counted.pvs(&Classic, pos.player(), pos.opponent(), 4, -INF, INF, true);
        assert_eq!(counted.now(), Duration::from_nanos(counted.nodes * 100));
    }

    #[test]
    fn search_leaves_get_the_movers_moves_and_features_of_their_board() {
        let strong = Strong(PatternEval::shared());
        for leaves in [
            audit(&strong, 1),
            audit(&Standard(PatternEval::shared()), 2),
            audit(&Highest, 3),
            audit(&OwnInterest, 4),
            audit(&Classic, 5),
        ] {
            assert!(leaves > 100, "{leaves} leaves");
        }
    }

    #[test]
    fn strong_leaf_value_is_the_pattern_evaluation_gathered_from_the_board() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(16);
        let (eval, mut checked) = (PatternEval::shared(), 0);
        for _ in 0..2_000 {
            let plies = rng.gen_range(0..60);
            let pos = random_playout(&mut rng, plies);
            let (p, o) = (pos.player(), pos.opponent());
            if moves(p, o) == 0 {
                continue;
            }
            let value = Strong(eval).eval(p, o, &Features::of(p, o), false);
            assert_eq!(value, eval.eval(p, o), "{p:#x} {o:#x}");
            checked += 1;
        }
        assert!(checked > 1_500, "{checked} positions");
    }
}
