//! Stability: discs that can never be flipped again, whose count bounds what the side to move
//! can still reach (the solver's stability cut-offs), and the corners' cheap sure stability that
//! orders moves.

/// Alpha above which a stability bound can cut, by empties (smaller alphas rarely cut).
pub(super) const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 48, 50, 50, 52,
    52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64,
];

const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0xff;
const ROW_8: u64 = 0xff00_0000_0000_0000;
const BORDER: u64 = COL_A | COL_H | ROW_1 | ROW_8;

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
pub(super) fn stable_discs(p: u64, o: u64) -> u64 {
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

/// Corners of `p` and the edge squares next to them that `p` holds: cheap sure stability.
#[inline]
pub(super) fn corner_stability(p: u64) -> i32 {
    let c = 0x8100_0000_0000_0081u64;
    let stable = (((0x0100_0000_0000_0001 & p) << 1)
        | ((0x8000_0000_0000_0080 & p) >> 1)
        | ((0x0000_0000_0000_0081 & p) << 8)
        | ((0x8100_0000_0000_0000 & p) >> 8)
        | c)
        & p;
    stable.count_ones() as i32
}
