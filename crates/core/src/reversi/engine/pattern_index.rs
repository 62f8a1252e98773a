//! Pattern indices by whole-board moves instead of square by square: the board is turned by
//! each of the 8 symmetries once (a few shifts and masks each), after which every instance of a
//! pattern sits on its base squares, where a handful of masks (a multiplication for a diagonal)
//! gather its discs into a binary number and a table turns that into the base-3 index.
//!
//! It gives the same indices as reading each instance's squares one by one (the reference kept
//! in the tests), in about a fifth of the work: the evaluation is called at every leaf of the
//! midgame search and to order its moves.

use crate::reversi::engine::patterns::{symmetry, Layout, N_TYPES};

/// The symmetry that undoes symmetry `g` of [`symmetry`] (the quarter turns 5 and 6 undo each
/// other; the others undo themselves).
const INVERSE: [usize; 8] = [0, 1, 2, 3, 4, 6, 5, 7];

/// Reverses the columns of every row (a ↔ h).
#[inline]
fn mirror_columns(b: u64) -> u64 {
    b.reverse_bits().swap_bytes()
}

/// Reverses the rows (1 ↔ 8).
#[inline]
fn mirror_rows(b: u64) -> u64 {
    b.swap_bytes()
}

/// Swaps columns and rows (a2 ↔ b1), by three delta swaps.
#[inline]
fn transpose(mut b: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^= t ^ (t >> 7);
    b
}

/// Symmetry `g` of [`symmetry`] applied to a whole bitboard: the disc on square `s` moves to
/// `symmetry(g, s)` (as [`crate::reversi::engine::patterns::transform`], without a loop over the discs).
#[inline]
pub(crate) fn transform(g: usize, b: u64) -> u64 {
    match g {
        0 => b,
        1 => mirror_columns(b),
        2 => mirror_rows(b),
        3 => mirror_rows(mirror_columns(b)),
        4 => transpose(b),
        5 => mirror_columns(transpose(b)),
        6 => mirror_rows(transpose(b)),
        _ => mirror_rows(mirror_columns(transpose(b))),
    }
}

/// The discs of `b` on the base squares of pattern type `t`, square `i` of the base list as
/// bit `i`. Each arm follows the square list of `eval`'s `BASE_PATTERNS` (checked by the tests
/// against a square-by-square gather).
#[inline]
fn gather(t: usize, b: u64) -> u32 {
    // A diagonal running down-right from (c0, 0): one multiplication stacks its squares (one per
    // column, so no two collide) into the top byte, column c at bit 56 + c.
    let diagonal = |mask: u64, c0: u32| ((((b & mask).wrapping_mul(0x0101_0101_0101_0101)) >> 56) as u32) >> c0;
    match t {
        // Corner 3x3: a1 b1 c1, a2 b2 c2, a3 b3 c3.
        0 => ((b & 0x7) | ((b >> 5) & 0x38) | ((b >> 10) & 0x1c0)) as u32,
        // Corner 2x5: a1-e1, a2-e2.
        1 => ((b & 0x1f) | ((b >> 3) & 0x3e0)) as u32,
        // Edge a1-h1 and the X-squares b2, g2.
        2 => ((b & 0xff) | ((b >> 1) & 0x100) | ((b >> 5) & 0x200)) as u32,
        // Lines 2, 3 and 4.
        3 => ((b >> 8) & 0xff) as u32,
        4 => ((b >> 16) & 0xff) as u32,
        5 => ((b >> 24) & 0xff) as u32,
        // Diagonals of 8, 7, 6, 5 and 4 squares, from a1, b1, c1, d1 and e1.
        6 => diagonal(0x8040_2010_0804_0201, 0),
        7 => diagonal(0x0080_4020_1008_0402, 1),
        8 => diagonal(0x0000_8040_2010_0804, 2),
        9 => diagonal(0x0000_0080_4020_1008, 3),
        _ => diagonal(0x0000_0000_8040_2010, 4),
    }
}

/// Turns gathered bits into base-3 indices: bit `i` set → digit `i` is 1 (weight `3^i`).
const fn ternary_table() -> [u16; 1024] {
    let mut table = [0u16; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let (mut v, mut w, mut i) = (0u32, 1u32, 0);
        while i < 10 {
            if bits >> i & 1 == 1 {
                v += w;
            }
            w *= 3;
            i += 1;
        }
        table[bits] = v as u16;
        bits += 1;
    }
    table
}

static TERNARY: [u16; 1024] = ternary_table();

/// One pattern instance: the symmetry that carries its type's base squares onto it, and
/// where its type's weights start.
#[derive(Clone, Copy, Debug)]
struct Placed {
    turn: u8,
    offset: u32,
}

/// Computes the table indices of every pattern instance of a [`Layout`].
#[derive(Clone, Debug)]
pub(crate) struct Indexer {
    /// The instances in the layout's order, which lists them type by type.
    instances: Vec<Placed>,
    /// Where each type's instances end in `instances`.
    ends: [usize; N_TYPES],
}

impl Indexer {
    /// The indexer of `layout`'s instances, in its order.
    pub(crate) fn new(layout: &Layout) -> Self {
        let mut ends = [0; N_TYPES];
        let instances = layout
            .instances
            .iter()
            .enumerate()
            .map(|(k, (t, squares))| {
                // A type's first instance is its base list itself (the identity comes first).
                let base = &layout.instances.iter().find(|(u, _)| u == t).expect("its own type").1;
                // The symmetry that maps the base list, in order, onto this instance's squares.
                let g = (0..8)
                    .find(|&g| base.iter().map(|&s| symmetry(g, s)).eq(squares.iter().copied()))
                    .expect("every instance is an image of its base pattern");
                assert!(ends[*t] == 0 || ends[*t] == k, "the layout lists instances type by type");
                ends[*t] = k + 1;
                Placed { turn: g as u8, offset: layout.offsets[*t] as u32 }
            })
            .collect();
        Indexer { instances, ends }
    }

    /// Number of instances.
    pub(crate) fn len(&self) -> usize {
        self.instances.len()
    }

    /// Calls `f` with the table index (offset included) of every instance, in order, for `p` to
    /// move against `o` (digit 0 empty, 1 own disc, 2 opponent disc).
    #[inline]
    pub(crate) fn for_each(&self, p: u64, o: u64, mut f: impl FnMut(usize, u32)) {
        // Turned boards: on turn g the disc of square symmetry(g, s) sits on s.
        let mut turned = [(0u64, 0u64); 8];
        for (g, slot) in turned.iter_mut().enumerate() {
            *slot = (transform(INVERSE[g], p), transform(INVERSE[g], o));
        }
        // One loop per type, its gather fixed at compile time (no jump per instance).
        self.each_of::<0>(&turned, 0, &mut f);
        self.each_of::<1>(&turned, self.ends[0], &mut f);
        self.each_of::<2>(&turned, self.ends[1], &mut f);
        self.each_of::<3>(&turned, self.ends[2], &mut f);
        self.each_of::<4>(&turned, self.ends[3], &mut f);
        self.each_of::<5>(&turned, self.ends[4], &mut f);
        self.each_of::<6>(&turned, self.ends[5], &mut f);
        self.each_of::<7>(&turned, self.ends[6], &mut f);
        self.each_of::<8>(&turned, self.ends[7], &mut f);
        self.each_of::<9>(&turned, self.ends[8], &mut f);
        self.each_of::<10>(&turned, self.ends[9], &mut f);
    }

    #[inline(always)]
    fn each_of<const T: usize>(&self, turned: &[(u64, u64); 8], start: usize, f: &mut impl FnMut(usize, u32)) {
        for (k, inst) in self.instances[start..self.ends[T]].iter().enumerate() {
            let (tp, to) = turned[inst.turn as usize & 7];
            let idx = u32::from(TERNARY[gather(T, tp) as usize]) + 2 * u32::from(TERNARY[gather(T, to) as usize]);
            f(start + k, inst.offset + idx);
        }
    }
}

const _: () = assert!(N_TYPES == 11, "gather() has one arm per pattern type");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::engine::patterns::transform as transform_by_squares;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn random_position(rng: &mut StdRng) -> (u64, u64) {
        let (a, b): (u64, u64) = (rng.gen(), rng.gen());
        (a & !b, b & !a)
    }

    #[test]
    fn whole_board_symmetries_move_each_disc_as_the_square_map_does() {
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..500 {
            let b: u64 = rng.gen();
            for (g, &inverse) in INVERSE.iter().enumerate() {
                assert_eq!(transform(g, b), transform_by_squares(g, b), "symmetry {g}");
                assert_eq!(transform(inverse, transform(g, b)), b, "inverse of {g}");
            }
        }
    }

    /// The indices equal those read square by square, in each instance's own square order.
    #[test]
    fn indices_equal_a_square_by_square_reading() {
        let layout = Layout::new();
        let indexer = Indexer::new(&layout);
        assert_eq!(indexer.len(), layout.instances.len());
        let mut rng = StdRng::seed_from_u64(6);
        for _ in 0..2000 {
            let (p, o) = random_position(&mut rng);
            let mut seen = 0;
            indexer.for_each(p, o, |k, idx| {
                let (t, squares) = &layout.instances[k];
                let digits: u32 = squares
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| 3u32.pow(i as u32) * (((p >> s) & 1) as u32 + 2 * ((o >> s) & 1) as u32))
                    .sum();
                assert_eq!(idx, layout.offsets[*t] as u32 + digits, "instance {k} of type {t}");
                seen += 1;
            });
            assert_eq!(seen, layout.instances.len());
        }
    }
}
