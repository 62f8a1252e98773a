//! Pattern indices kept up to date move by move (Edax's incremental features): a move changes
//! the digit of its own square and of each flipped disc, so the 46 indices of a child follow
//! from its parent's by a few vector additions instead of being gathered from the whole board.
//!
//! Each node carries the indices from both sides' views (digit 1 = that side's disc, 2 = the
//! other's), because the side to move alternates: after a move the opponent's view becomes the
//! mover's. The search evaluates leaves from these ([`PatternEval::eval_features`]), which equals
//! the whole-board evaluation exactly (tested), so nothing the search decides changes, only its
//! speed.
//!
//! [`PatternEval::eval_features`]: crate::reversi::engine::eval::PatternEval::eval_features

use crate::reversi::engine::patterns::{symmetry, BASE_PATTERNS, N_TYPES};

/// Number of pattern instances of the evaluation.
pub(crate) const N_INSTANCES: usize = 46;

/// Lanes of an index vector: the instances, padded to a multiple of eight so that the updates
/// run as whole vector operations (the padding lanes stay 0).
const LANES: usize = 48;

/// For every square: what one digit on it adds to each instance's index (`3^i` when the square
/// is the instance's `i`-th, else 0); and where each instance's type table starts in a phase's
/// weights. Instances in the order of [`crate::reversi::engine::patterns::Layout`] (tested).
const TABLES: ([[u16; LANES]; 64], [u32; LANES]) = tables();

/// Per-square digit weights of [`TABLES`].
static DELTA: [[u16; LANES]; 64] = TABLES.0;

/// Where each instance's type table starts in a phase's weights.
pub(in crate::reversi) static OFFSET: [u32; LANES] = TABLES.1;

/// Builds [`TABLES`] as [`crate::reversi::engine::patterns::Layout::new`] lists instances: type by type, each base
/// list mapped by the symmetries 0..8, an image whose square set was already listed skipped.
const fn tables() -> ([[u16; LANES]; 64], [u32; LANES]) {
    let mut delta = [[0u16; LANES]; 64];
    let mut offset = [0u32; LANES];
    let mut k = 0;
    let mut table_start = 0u32;
    let mut t = 0;
    while t < N_TYPES {
        let base = BASE_PATTERNS[t];
        let mut seen = [0u64; 8];
        let mut n_seen = 0;
        let mut g = 0;
        while g < 8 {
            let mut set = 0u64;
            let mut i = 0;
            while i < base.len() {
                set |= 1 << symmetry(g, base[i].1 * 8 + base[i].0);
                i += 1;
            }
            let mut listed = false;
            let mut j = 0;
            while j < n_seen {
                listed |= seen[j] == set;
                j += 1;
            }
            if !listed {
                seen[n_seen] = set;
                n_seen += 1;
                let mut i = 0;
                let mut weight = 1u32;
                while i < base.len() {
                    delta[symmetry(g, base[i].1 * 8 + base[i].0) as usize][k] = weight as u16;
                    weight *= 3;
                    i += 1;
                }
                offset[k] = table_start;
                k += 1;
            }
            g += 1;
        }
        table_start += 3u32.pow(base.len() as u32);
        t += 1;
    }
    assert!(k == N_INSTANCES, "the layout has 46 instances");
    (delta, offset)
}

/// The table indices (type offsets not included) of every pattern instance of a position, from
/// the side to move's view and from the other side's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    mover: [u16; LANES],
    other: [u16; LANES],
}

impl Features {
    /// The indices of `p` to move against `o`, computed from the whole board.
    pub fn of(p: u64, o: u64) -> Self {
        let mut f = Features { mover: [0; LANES], other: [0; LANES] };
        for (discs, mine, theirs) in [(p, 1, 2), (o, 2, 1)] {
            let mut m = discs;
            while m != 0 {
                let d = &DELTA[m.trailing_zeros() as usize];
                m &= m - 1;
                for ((mover, other), &digit) in f.mover.iter_mut().zip(f.other.iter_mut()).zip(d) {
                    *mover += mine * digit;
                    *other += theirs * digit;
                }
            }
        }
        f
    }

    /// The indices after the side to move places on `sq` and turns the discs of `flips`
    /// (then the opponent moves).
    #[inline]
    pub fn after_move(&self, sq: u8, flips: u64) -> Self {
        let mut turned = [0u16; LANES];
        let mut m = flips;
        while m != 0 {
            let d = &DELTA[m.trailing_zeros() as usize];
            m &= m - 1;
            for k in 0..LANES {
                turned[k] = turned[k].wrapping_add(d[k]);
            }
        }
        let placed = &DELTA[sq as usize];
        let mut next = Features { mover: [0; LANES], other: [0; LANES] };
        for k in 0..LANES {
            // The opponent, now to move, sees a new disc of the other side (digit 2) and its
            // own turned discs go from 1 to 2; the side that moved sees its new disc (1) and
            // the turned ones going from 2 to 1.
            next.mover[k] = self.other[k].wrapping_add(placed[k].wrapping_mul(2)).wrapping_add(turned[k]);
            next.other[k] = self.mover[k].wrapping_add(placed[k]).wrapping_sub(turned[k]);
        }
        next
    }

    /// The indices after a pass: the views trade places.
    #[inline]
    pub fn after_pass(&self) -> Self {
        Features { mover: self.other, other: self.mover }
    }

    /// Index of instance `k` (type offset not included), from the side to move's view.
    #[inline]
    pub fn index(&self, k: usize) -> u16 {
        self.mover[k]
    }
}

/// What a search node carries for its objective's evaluation, updated move by move.
pub trait Incremental: Copy {
    /// The state of `p` to move against `o`, from the whole board.
    fn of(p: u64, o: u64) -> Self;
    /// The state after the side to move places on `sq`, turning `flips`.
    fn after_move(&self, sq: u8, flips: u64) -> Self;
    /// The state after the side to move passes.
    fn after_pass(&self) -> Self;
}

/// Objectives that do not use patterns carry nothing.
impl Incremental for () {
    #[inline(always)]
    fn of(_: u64, _: u64) -> Self {}
    #[inline(always)]
    fn after_move(&self, _: u8, _: u64) -> Self {}
    #[inline(always)]
    fn after_pass(&self) -> Self {}
}

impl Incremental for Features {
    #[inline]
    fn of(p: u64, o: u64) -> Self {
        Features::of(p, o)
    }
    #[inline]
    fn after_move(&self, sq: u8, flips: u64) -> Self {
        Features::after_move(self, sq, flips)
    }
    #[inline]
    fn after_pass(&self) -> Self {
        Features::after_pass(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::engine::eval::PatternEval;
    use crate::reversi::engine::patterns::Layout;
    use crate::reversi::rules::board::{flips, moves};
    use rand::{rngs::StdRng, Rng, SeedableRng};

    #[test]
    fn the_tables_list_the_layouts_instances_in_its_order() {
        let layout = Layout::new();
        assert_eq!(layout.instances.len(), N_INSTANCES);
        for (k, (t, squares)) in layout.instances.iter().enumerate() {
            assert_eq!(OFFSET[k] as usize, layout.offsets[*t], "offset of instance {k}");
            for (sq, delta) in DELTA.iter().enumerate() {
                let expected = squares.iter().position(|&s| s as usize == sq).map_or(0, |i| 3u16.pow(i as u32));
                assert_eq!(delta[k], expected, "square {sq} in instance {k}");
            }
        }
        assert!(DELTA.iter().all(|d| d[N_INSTANCES..].iter().all(|&x| x == 0)), "padding lanes stay 0");
    }

    /// Along random games, passes included, the updated indices equal the whole-board ones and
    /// so does the evaluation read from them, with the shipped weights and the frozen baseline.
    #[test]
    fn incremental_indices_and_evaluation_equal_the_whole_board_ones() {
        let evals = [PatternEval::builtin(), PatternEval::baseline()];
        let layout = Layout::new();
        let mut rng = StdRng::seed_from_u64(16);
        let mut checked = 0;
        let mut passes = 0;
        for _ in 0..300 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut f = Features::of(p, o);
            loop {
                let mask = moves(p, o);
                if mask == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    f = f.after_pass();
                    (p, o) = (o, p);
                    passes += 1;
                } else {
                    let pick = rng.gen_range(0..mask.count_ones());
                    let mut m = mask;
                    for _ in 0..pick {
                        m &= m - 1;
                    }
                    let sq = m.trailing_zeros();
                    let turned = flips(p, o, sq);
                    f = f.after_move(sq as u8, turned);
                    (p, o) = (o & !turned, p | turned | (1 << sq));
                }
                assert_eq!(f, Features::of(p, o));
                let mut whole = vec![0u32; N_INSTANCES];
                evals[0].indices(p, o, &mut whole);
                for (k, &idx) in whole.iter().enumerate() {
                    assert_eq!(OFFSET[k] + u32::from(f.index(k)), idx, "instance {k} ({:?})", layout.instances[k]);
                }
                for eval in &evals {
                    assert_eq!(eval.eval_features(p, o, &f), eval.eval(p, o));
                }
                checked += 1;
            }
        }
        assert!(checked > 15_000 && passes > 0, "{checked} positions, {passes} passes");
    }
}
