//! The patterns of the pattern evaluation: the base square lists of the pattern types, the
//! eight board symmetries that map them, and the layout of the weights they index (one table
//! per type, weights shared within a pattern's own symmetries).

/// Base square lists of the pattern types, as (col, row) pairs from a1 = (0, 0).
pub(in crate::reversi) const BASE_PATTERNS: [&[(u8, u8)]; 11] = [
    // Corner 3x3.
    &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
    // Corner 2x5.
    &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1), (1, 1), (2, 1), (3, 1), (4, 1)],
    // Edge with both X-squares.
    &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (1, 1), (6, 1)],
    // Lines 2, 3 and 4.
    &[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)],
    &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)],
    &[(0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3), (7, 3)],
    // Diagonals of 8, 7, 6, 5 and 4 squares.
    &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)],
    &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)],
    &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)],
    &[(4, 0), (5, 1), (6, 2), (7, 3)],
];

/// Number of pattern types.
pub const N_TYPES: usize = BASE_PATTERNS.len();

/// Maps a square index through symmetry `g` (0..8) of the board.
pub(crate) const fn symmetry(g: usize, sq: u8) -> u8 {
    let (c, r) = (sq % 8, sq / 8);
    let (c, r) = match g {
        0 => (c, r),
        1 => (7 - c, r),
        2 => (c, 7 - r),
        3 => (7 - c, 7 - r),
        4 => (r, c),
        5 => (7 - r, c),
        6 => (r, 7 - c),
        _ => (7 - r, 7 - c),
    };
    r * 8 + c
}

/// Applies symmetry `g` to a bitboard.
pub fn transform(g: usize, b: u64) -> u64 {
    let mut out = 0;
    let mut m = b;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        out |= 1u64 << symmetry(g, sq);
    }
    out
}

/// Pattern instances and the weight layout, derived from the base pattern lists.
#[derive(Clone)]
pub struct Layout {
    /// For each instance: pattern type and its ordered squares (digit i = square i).
    pub instances: Vec<(usize, Vec<u8>)>,
    /// Offset of each type's table inside a phase's weights.
    pub offsets: [usize; N_TYPES + 1],
    /// For every table index: the index that shares its weight (smallest among the pattern's
    /// own symmetries), so training ties them together.
    pub canonical: Vec<u32>,
}

impl Layout {
    /// Builds the instances (46) and canonical index maps.
    pub fn new() -> Self {
        let mut instances = Vec::new();
        let mut offsets = [0usize; N_TYPES + 1];
        let mut canonical = Vec::new();
        for (t, base) in BASE_PATTERNS.iter().enumerate() {
            let squares: Vec<u8> = base.iter().map(|&(c, r)| r * 8 + c).collect();
            let len = squares.len();
            let size = 3usize.pow(len as u32);
            offsets[t + 1] = offsets[t] + size;
            let mut seen: Vec<u64> = Vec::new();
            // Permutations of digit positions induced by the symmetries that fix the square set.
            let mut perms: Vec<Vec<usize>> = Vec::new();
            let set: u64 = squares.iter().map(|&s| 1u64 << s).sum();
            for g in 0..8 {
                let image: Vec<u8> = squares.iter().map(|&s| symmetry(g, s)).collect();
                let image_set: u64 = image.iter().map(|&s| 1u64 << s).sum();
                if image_set == set {
                    perms.push(image.iter().map(|s| squares.iter().position(|x| x == s).unwrap()).collect());
                }
                if !seen.contains(&image_set) {
                    seen.push(image_set);
                    instances.push((t, image));
                }
            }
            for idx in 0..size {
                let digits: Vec<usize> = (0..len).map(|i| idx / 3usize.pow(i as u32) % 3).collect();
                let mut best = idx;
                for perm in &perms {
                    // Digit of position i moves to position perm[i].
                    let mut v = 0;
                    for i in 0..len {
                        v += digits[i] * 3usize.pow(perm[i] as u32);
                    }
                    best = best.min(v);
                }
                canonical.push(best as u32);
            }
        }
        Layout { instances, offsets, canonical }
    }

    /// Weights per phase: the pattern tables, then the mobility weight and the bias.
    pub fn phase_len(&self) -> usize {
        self.offsets[N_TYPES] + 2
    }
}

impl Default for Layout {
    fn default() -> Self {
        Self::new()
    }
}
