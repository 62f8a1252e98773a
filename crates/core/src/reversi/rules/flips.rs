//! The discs a placement flips, with one routine per square.
//!
//! Each square's routine is the same branch-free ray scan (`flips_at`), instantiated with that
//! square's ray masks as constants: rays too short to flip (fewer than two squares) vanish at
//! compile time, and the masks are immediates instead of table loads. A corner scans three
//! rays instead of eight, an edge five (Edax dispatches on the square the same way, with
//! hand-written routines per square).

/// Ray masks from each square: directions E, S, SE, SW (towards higher bits), then W, N, NW, NE.
const RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    const DIRS: [(i32, i32); 8] = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRS[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut mask = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                mask |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = mask;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Flips along a ray towards higher bits (the nearest square is the lowest set bit).
#[inline(always)]
fn up(p: u64, not_o: u64, mask: u64) -> u64 {
    if mask.count_ones() < 2 {
        return 0; // folded away: the masks are constants
    }
    let x = mask & not_o;
    let outflank = x & x.wrapping_neg() & p;
    // outflank - 1 has bit 63 set only when outflank == 0, which must flip nothing.
    let none = ((outflank.wrapping_sub(1) as i64) >> 63) as u64;
    mask & outflank.wrapping_sub(1) & !none
}

/// Flips along a ray towards lower bits (the nearest square is the highest set bit). With
/// x == 0 the wrapped shift yields bit 63, which never lies on a downward ray: nothing flips.
#[inline(always)]
fn down(p: u64, not_o: u64, mask: u64) -> u64 {
    if mask.count_ones() < 2 {
        return 0;
    }
    let x = mask & not_o;
    let outflank = (1u64 << 63).wrapping_shr(x.leading_zeros()) & p;
    mask & (outflank << 1).wrapping_neg()
}

/// The flips of a placement on `SQ`.
#[inline(always)]
fn flips_at<const SQ: usize>(p: u64, o: u64) -> u64 {
    let r = const { RAYS[SQ] };
    let not_o = !o;
    up(p, not_o, r[0])
        | up(p, not_o, r[1])
        | up(p, not_o, r[2])
        | up(p, not_o, r[3])
        | down(p, not_o, r[4])
        | down(p, not_o, r[5])
        | down(p, not_o, r[6])
        | down(p, not_o, r[7])
}

macro_rules! per_square {
    ($($sq:literal)*) => { [$(flips_at::<$sq> as fn(u64, u64) -> u64),*] };
}

/// The routine of each square.
static FLIPPERS: [fn(u64, u64) -> u64; 64] = per_square!(
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
    32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
);

/// Discs flipped when player `p` places on empty square `sq` (0..64) against opponent `o`.
#[inline]
pub(crate) fn flips(p: u64, o: u64, sq: u32) -> u64 {
    FLIPPERS[sq as usize](p, o)
}

/// The same flips by the generic scan over the ray table (what every routine computes).
#[cfg(test)]
fn flips_generic(p: u64, o: u64, sq: u32) -> u64 {
    let r = &RAYS[sq as usize];
    let not_o = !o;
    r[..4].iter().fold(0, |f, &m| f | up(p, not_o, m)) | r[4..].iter().fold(0, |f, &m| f | down(p, not_o, m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every square's routine is the generic scan with that square's rays.
        #[test]
        fn each_square_routine_is_the_generic_scan(a in any::<u64>(), b in any::<u64>(), sq in 0u32..64) {
            let (p, o) = (a & !b & !(1 << sq), b & !(1 << sq));
            prop_assert_eq!(flips(p, o, sq), flips_generic(p, o, sq));
        }
    }
}
