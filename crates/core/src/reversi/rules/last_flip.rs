//! How many discs the last move of a game flips, counted without making the move.
//!
//! With one empty square left, every other square holds a disc, so the mover's discs alone
//! decide the flips: along each of the four lines through the square, the opponent's run
//! towards the mover's nearest disc flips. Each line's mover bits are gathered into a byte
//! (a shift for the row, a multiplication for the column and the diagonals) and a table of
//! 8 × 256 counts gives that line's flips (Edax's `count_last_flip`, in four lookups instead
//! of eight rays). Squares off a short diagonal gather as zeros, and the nearest mover bit
//! always lies on the line, so short lines need no table of their own.

/// Flips along one full line: `FLIPS[pos][bits]` when the mover's discs on the line are
/// `bits`, every other square but `pos` is the opponent's and the mover plays at `pos`.
static FLIPS: [[u8; 256]; 8] = build_flips();

const fn build_flips() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut bits = 0;
        while bits < 256 {
            // Towards higher positions, then lower: the opponent run before the first mover disc.
            let mut n = 0;
            let mut i = pos + 1;
            while i < 8 && bits & (1 << i) == 0 {
                i += 1;
            }
            if i < 8 {
                n += i - pos - 1;
            }
            let mut j = pos as i32 - 1;
            while j >= 0 && bits & (1 << j) == 0 {
                j -= 1;
            }
            if j >= 0 {
                n += pos - j as usize - 1;
            }
            t[pos][bits] = n as u8;
            bits += 1;
        }
        pos += 1;
    }
    t
}

/// The two diagonals through each square: a1-h8 direction (`col - row` constant) and a8-h1
/// direction (`col + row` constant).
static DIAGONALS: [(u64, u64); 64] = build_diagonals();

const fn build_diagonals() -> [(u64, u64); 64] {
    let mut d = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other: usize = 0;
        while other < 64 {
            let (oc, or) = ((other % 8) as i32, (other / 8) as i32);
            if oc - or == c - r {
                d[sq].0 |= 1 << other;
            }
            if oc + or == c + r {
                d[sq].1 |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    d
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Discs flipped by a move of the player owning `p` on `sq`, the only empty square of the
/// board (every square but `sq` outside `p` is the opponent's). Zero when the move is illegal.
#[inline]
pub(crate) fn count_last_flip(p: u64, sq: u32) -> u32 {
    let (col, row) = (sq % 8, sq / 8);
    let row_bits = (p >> (8 * row)) as u8;
    // Column: row k's bit lands on bit 56 + k of the product, with no carries.
    let col_bits = (((p >> col) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    // Diagonals: one square per file, so summing the bytes keeps each file's bit in place.
    let (diag, anti) = DIAGONALS[sq as usize];
    let diag_bits = ((p & diag).wrapping_mul(FILE_A) >> 56) as u8;
    let anti_bits = ((p & anti).wrapping_mul(FILE_A) >> 56) as u8;
    let (c, r) = (col as usize, row as usize);
    u32::from(FLIPS[c][row_bits as usize])
        + u32::from(FLIPS[r][col_bits as usize])
        + u32::from(FLIPS[c][diag_bits as usize])
        + u32::from(FLIPS[c][anti_bits as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::rules::board::flips;
    use proptest::prelude::*;

    proptest! {
        /// On every full board but one square, the count equals the flips the move makes.
        #[test]
        fn counts_the_flips_of_the_last_move(p in any::<u64>(), sq in 0u32..64) {
            let p = p & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            prop_assert_eq!(count_last_flip(p, sq), flips(p, o, sq).count_ones());
            prop_assert_eq!(count_last_flip(o, sq), flips(o, p, sq).count_ones());
        }
    }

    #[test]
    fn every_square_and_line_is_covered() {
        // A disc of the mover two squares away in each direction, an opponent disc between:
        // one flip per direction that fits on the board.
        for sq in 0..64u32 {
            let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut p = 0u64;
            let mut want = 0;
            for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)] {
                let (c2, r2) = (c + 2 * dc, r + 2 * dr);
                if (0..8).contains(&c2) && (0..8).contains(&r2) {
                    p |= 1 << (r2 * 8 + c2);
                    want += 1;
                }
            }
            assert_eq!(count_last_flip(p, sq), want, "square {sq}");
        }
    }
}
