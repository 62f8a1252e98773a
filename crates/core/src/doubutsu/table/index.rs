//! The perfect index of the table of every legal position: a bijection between the numbers
//! `0..len` ("slots") and the positions whose value the table stores, computed from the
//! position itself (no hash set, no list of positions).
//!
//! # Domain
//! Keys are mover-relative (see `position.rs`), so the side to move costs no bit. The rules
//! value some positions outright, and those need no slot: the mover's lion on its far row
//! has won (try completed), an opponent's lion on the mover's home row has won or can be
//! captured, and adjacent lions can always be captured. That leaves 39 lion placements: the
//! mover's lion on rows 2-4, the opponent's on rows 1-3, not adjacent. The left-right mirror
//! (same value) keeps 21 of them: a placement is kept when `(mover's square, opponent's
//! square)` is no greater than its mirror image's. Three are their own mirror image (both
//! lions in column B); there both halves of a mirror pair have a slot (7% of the slots).
//!
//! The other pieces are a [`Material`]: how many giraffes, elephants and chicks (a hen
//! counts as a chick) there are besides the lions. Moves never change it (a captured piece
//! goes to the captor's hand), so the real game is the material (2, 2, 2) and a test can
//! solve a smaller one exactly.
//!
//! # Number
//! `slot = lion class × per_lion + cohort offset + local`. A cohort is how many pieces of
//! each kind stand on the board `(bg, be, bc)`; its size is the product of the ranges of
//! `local`'s digits, most significant first:
//!
//! | digit | range | what |
//! | --- | --- | --- |
//! | giraffes' squares | C(10, bg) | colex rank of their set among the 10 squares the lions leave |
//! | elephants' squares | C(10 - bg, be) | the same among the squares still free |
//! | chicks' squares | C(10 - bg - be, bc) | the same |
//! | owners | 2^(bg + be + bc) | one bit per board piece (giraffes, elephants, chicks, each by square): 1 = opponent's |
//! | promotions | 2^bc | one bit per board chick: 1 = hen |
//! | hands | (hg + 1)(he + 1)(hc + 1) | per kind, how many of the `h` pieces in hand the mover holds |
//!
//! Every combination is a legal key, so the index has no holes except the mirror halves
//! above; with the full material `len` is 21 × 11,878,227 = 249,442,767.

use super::super::position::{hand, mirror, nib, set_nib, BOARD_MASK, CHICK, ELEPHANT, GIRAFFE, HEN, LION, MOVES, OPP};

/// The pieces besides the lions: how many giraffes, elephants and chicks (hens counted as
/// chicks) the game holds, on the board or in hand, 0..=2 each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Material(pub [u8; 3]);

impl Material {
    /// The real game: two of each.
    pub const FULL: Material = Material([2, 2, 2]);

    /// The material of a position (both hands and the board).
    pub fn of(pos: &crate::doubutsu::Position) -> Material {
        Material::of_key(pos.key())
    }

    /// The material of a key (both hands and the board).
    pub fn of_key(k: u64) -> Material {
        let mut m = [0u8; 3];
        for i in 0..12 {
            match nib(k, i) & 7 {
                GIRAFFE => m[0] += 1,
                ELEPHANT => m[1] += 1,
                CHICK | HEN => m[2] += 1,
                _ => {}
            }
        }
        for (idx, count) in m.iter_mut().enumerate() {
            *count += hand(k, false, idx) + hand(k, true, idx);
        }
        Material(m)
    }
}

/// Lion placements that have slots, after the mirror.
pub(crate) const LION_CLASSES: usize = 21;
const NO_CLASS: u8 = u8::MAX;
/// Squares left to the other pieces once the lions stand.
const FREE: u32 = 10;

const fn mirror_square(s: usize) -> usize {
    s - s % 3 + 2 - s % 3
}

/// Whether a placement of the lions (mover's, opponent's square) needs a slot in either
/// orientation (see the module docs).
pub(crate) const fn lions_in_domain(ml: usize, ol: usize) -> bool {
    ml >= 3 && ml < 12 && ol < 9 && ml != ol && MOVES[LION as usize][ml] & (1 << ol) == 0
}

/// `(class by ml * 12 + ol, placement by class)`.
const LION_TABLES: ([u8; 144], [(u8, u8); LION_CLASSES]) = {
    let mut class = [NO_CLASS; 144];
    let mut pairs = [(0u8, 0u8); LION_CLASSES];
    let mut n = 0;
    let mut ml = 0;
    while ml < 12 {
        let mut ol = 0;
        while ol < 12 {
            let (mm, mo) = (mirror_square(ml), mirror_square(ol));
            if lions_in_domain(ml, ol) && (ml < mm || (ml == mm && ol <= mo)) {
                class[ml * 12 + ol] = n as u8;
                pairs[n] = (ml as u8, ol as u8);
                n += 1;
            }
            ol += 1;
        }
        ml += 1;
    }
    assert!(n == LION_CLASSES);
    (class, pairs)
};

const BINOM: [[u64; 13]; 13] = {
    let mut b = [[0u64; 13]; 13];
    let mut n = 0;
    while n < 13 {
        b[n][0] = 1;
        let mut k = 1;
        while k <= n {
            b[n][k] = b[n - 1][k - 1] + if k < n { b[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    b
};

#[inline(always)]
fn binom(n: u32, k: u32) -> u64 {
    BINOM[n as usize][k as usize]
}

/// One bit per square (bit 4i for square i) of a board.
const NIBBLE_LOW_BITS: u64 = 0x1111_1111_1111;

/// The square whose nibble is `code`, if any (the lowest such).
#[inline(always)]
fn square_holding(k: u64, code: u8) -> Option<usize> {
    // SWAR: a nibble equal to `code` becomes zero under the xor, and only a zero nibble has
    // none of its four bits set.
    let y = (k & BOARD_MASK) ^ (NIBBLE_LOW_BITS * code as u64);
    let zero = !(y | y >> 1 | y >> 2 | y >> 3) & NIBBLE_LOW_BITS;
    (zero != 0).then(|| zero.trailing_zeros() as usize / 4)
}

/// The squares of the two lions, `None` unless both stand on the board.
#[inline]
pub(crate) fn lions(k: u64) -> Option<(usize, usize)> {
    Some((square_holding(k, LION)?, square_holding(k, LION | OPP)?))
}

/// The orientation of `k` (itself or its mirror image) that has a slot, `None` when the
/// lions' placement has none (the rules value the position).
#[inline]
pub(crate) fn slot_orientation(k: u64) -> Option<u64> {
    let (ml, ol) = lions(k)?;
    if !lions_in_domain(ml, ol) {
        return None;
    }
    Some(if LION_TABLES.0[ml * 12 + ol] != NO_CLASS { k } else { mirror(k) })
}

/// The one representative of `k` and its mirror image that the builder solves: the slot
/// orientation, and where the lions are symmetric the smaller key of the two.
#[inline]
pub(crate) fn canonical(k: u64) -> Option<u64> {
    let k = slot_orientation(k)?;
    let (ml, ol) = lions(k)?;
    Some(if mirror_square(ml) == ml && mirror_square(ol) == ol { k.min(mirror(k)) } else { k })
}

/// Spreads the low bits of `x` onto the bits of `mask` (software PDEP), for masks of a few bits.
#[inline(always)]
fn pdep(x: u16, mut mask: u16) -> u16 {
    let (mut out, mut bit) = (0, 1);
    while mask != 0 {
        if x & bit != 0 {
            out |= mask & mask.wrapping_neg();
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// `x` with a zero bit inserted at each member of `holes`, lowest first: the PDEP of `x` onto
/// the complement of `holes`, in as many steps as `holes` has members (at most four here).
#[inline(always)]
fn insert_gaps(mut x: u16, mut holes: u16) -> u16 {
    while holes != 0 {
        let h = holes.trailing_zeros();
        x = (x & ((1 << h) - 1)) | ((x >> h) << (h + 1));
        holes &= holes - 1;
    }
    x
}

/// The sets of two of the ten free squares in colex order: `PAIRS[a + C(b, 2)]` is `{a, b}`.
const PAIRS: [u16; 45] = {
    let mut t = [0u16; 45];
    let mut b = 1;
    while b < 10 {
        let mut a = 0;
        while a < b {
            t[a + b * (b - 1) / 2] = 1 << a | 1 << b;
            a += 1;
        }
        b += 1;
    }
    t
};

/// Inverse of the colex rank `sum C(position, i)` for sets of `size` (at most two) members.
#[inline(always)]
fn unrank(r: u64, size: u32) -> u16 {
    match size {
        0 => 0,
        1 => 1 << r,
        _ => PAIRS[r as usize],
    }
}

#[derive(Debug, Clone, Copy)]
struct Cohort {
    /// Pieces of each kind on the board.
    board: [u32; 3],
    offset: u64,
}

/// The perfect index of one [`Material`] (see the module docs).
#[derive(Debug, Clone)]
pub struct Index {
    material: Material,
    /// By cohort id `(bg * (ne + 1) + be) * (nc + 1) + bc`, which is also offset order.
    cohorts: Vec<Cohort>,
    per_lion: u64,
}

impl Index {
    /// The index of every position of `material`. Panics if a count exceeds 2.
    pub fn new(material: Material) -> Index {
        let n = material.0.map(u32::from);
        assert!(n.iter().all(|&c| c <= 2), "at most two pieces of a kind: {material:?}");
        let mut cohorts = Vec::new();
        let mut offset = 0;
        for bg in 0..=n[0] {
            for be in 0..=n[1] {
                for bc in 0..=n[2] {
                    let board = [bg, be, bc];
                    cohorts.push(Cohort { board, offset });
                    let b = bg + be + bc;
                    let hands: u64 = (0..3).map(|i| (n[i] - board[i] + 1) as u64).product();
                    let places = binom(FREE, bg) * binom(FREE - bg, be) * binom(FREE - bg - be, bc);
                    offset += (places << (b + bc)) * hands;
                }
            }
        }
        Index { material, cohorts, per_lion: offset }
    }

    /// The material this index covers.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Number of slots.
    pub fn len(&self) -> u64 {
        self.per_lion * LION_CLASSES as u64
    }

    /// Whether there are no slots (never: every material has positions).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The slot of a mover-relative key (either mirror orientation), `None` when the rules
    /// value it outright (see the module docs) or its material is another.
    pub fn slot(&self, k: u64) -> Option<u64> {
        self.encode(slot_orientation(k)?)
    }

    /// The slot of a key already in its slot orientation ([`slot_orientation`]).
    #[inline]
    pub(crate) fn encode(&self, k: u64) -> Option<u64> {
        let (ml, ol) = lions(k)?;
        let class = LION_TABLES.0[ml * 12 + ol];
        if class == NO_CLASS {
            return None;
        }
        Some(class as u64 * self.per_lion + self.local(k, ml, ol)?)
    }

    /// Slots per lion placement: how many ways the other pieces can stand on the ten squares
    /// the lions leave, with their owners, promotions and hands.
    pub fn per_lion(&self) -> u64 {
        self.per_lion
    }

    /// The number, `0..per_lion`, of the other pieces of `k` around lions on `ml` and `ol`,
    /// wherever the lions stand (the reachability pass also numbers positions without
    /// slots this way); `None` when `k`'s material is another.
    #[inline]
    pub(crate) fn local(&self, k: u64, ml: usize, ol: usize) -> Option<u64> {
        // One pass over the occupied squares in square order, building per kind (giraffes,
        // elephants, chicks) the count, the colex rank of its squares among those the earlier
        // kinds leave, and its owner (and promotion) bits in square order.
        let board = k & BOARD_MASK;
        let lion_bits = 1u64 << (4 * ml) | 1u64 << (4 * ol);
        let mut occupied = (board | board >> 1 | board >> 2 | board >> 3) & NIBBLE_LOW_BITS & !lion_bits;
        let (mut count, mut ranks, mut owners) = ([0u32; 3], [0u64; 3], [0u64; 3]);
        let mut hens = 0u64;
        while occupied != 0 {
            let i = occupied.trailing_zeros() as usize / 4;
            occupied &= occupied - 1;
            let n = nib(k, i);
            let t = match n & 7 {
                GIRAFFE => 0,
                ELEPHANT => 1,
                CHICK | HEN => 2,
                _ => return None,
            };
            // The square among the ten the lions leave, then among those the earlier kinds leave.
            let free = (i - (ml < i) as usize - (ol < i) as usize) as u32;
            let among = match t {
                0 => free,
                1 => free - count[0],
                _ => free - count[0] - count[1],
            };
            count[t] += 1;
            ranks[t] += binom(among, count[t]);
            owners[t] |= ((n & OPP != 0) as u64) << (count[t] - 1);
            if n & 7 == HEN {
                hens |= 1 << (count[2] - 1);
            }
        }
        let b = count;
        let mut mine = [0u32; 3];
        for idx in 0..3 {
            let (m, o) = (hand(k, false, idx) as u32, hand(k, true, idx) as u32);
            if b[idx] + m + o != self.material.0[idx] as u32 {
                return None;
            }
            mine[idx] = m;
        }
        let cohort = &self.cohorts[self.cohort_id(b)];
        let mut x = ranks[0];
        x = x * binom(FREE - b[0], b[1]) + ranks[1];
        x = x * binom(FREE - b[0] - b[1], b[2]) + ranks[2];
        let owner_bits = owners[0] | owners[1] << b[0] | owners[2] << (b[0] + b[1]);
        x = x << (b[0] + b[1] + b[2]) | owner_bits;
        x = x << b[2] | hens;
        for idx in 0..3 {
            x = x * (self.material.0[idx] as u64 - b[idx] as u64 + 1) + mine[idx] as u64;
        }
        Some(cohort.offset + x)
    }

    #[inline(always)]
    fn cohort_id(&self, b: [u32; 3]) -> usize {
        let n = self.material.0.map(u32::from);
        ((b[0] * (n[1] + 1) + b[1]) * (n[2] + 1) + b[2]) as usize
    }

    /// The key in `slot` (inverse of [`Index::encode`]). Panics when `slot >= len`.
    pub fn key(&self, slot: u64) -> u64 {
        assert!(slot < self.len(), "slot {slot} out of range {}", self.len());
        let class = (slot / self.per_lion) as usize;
        let mut r = slot % self.per_lion;
        let c = self.cohorts[self.cohorts.partition_point(|c| c.offset <= r) - 1];
        r -= c.offset;
        let b = c.board;
        let mut mine = [0u64; 3];
        let mut held = [0u64; 3];
        for idx in (0..3).rev() {
            held[idx] = self.material.0[idx] as u64 - b[idx] as u64;
            mine[idx] = r % (held[idx] + 1);
            r /= held[idx] + 1;
        }
        let promo = (r & ((1 << b[2]) - 1)) as u16;
        r >>= b[2];
        let on_board = b[0] + b[1] + b[2];
        let owners = (r & ((1 << on_board) - 1)) as u16;
        r >>= on_board;
        let (nc, ne) = (binom(FREE - b[0] - b[1], b[2]), binom(FREE - b[0], b[1]));
        let (rc, re, rg) = (r % nc, (r / nc) % ne, r / nc / ne);
        let g = unrank(rg, b[0]);
        let e = insert_gaps(unrank(re, b[1]), g);
        let ch = insert_gaps(unrank(rc, b[2]), g | e);
        let opp = pdep(owners, g) | pdep(owners >> b[0], e) | pdep(owners >> (b[0] + b[1]), ch);
        let hen = pdep(promo, ch);
        let (ml, ol) = LION_TABLES.1[class];
        let lion_squares: u16 = 1 << ml | 1 << ol;
        let [g, e, ch, opp, hen] = [g, e, ch, opp, hen].map(|m| insert_gaps(m, lion_squares));
        let mut k = set_nib(set_nib(0, ml as usize, LION), ol as usize, LION | OPP);
        for (set, code) in [(g, GIRAFFE), (e, ELEPHANT), (ch, CHICK)] {
            let mut s = set;
            while s != 0 {
                let i = s.trailing_zeros() as usize;
                s &= s - 1;
                let code = if hen & (1 << i) != 0 { HEN } else { code };
                k = set_nib(k, i, code | if opp & (1 << i) != 0 { OPP } else { 0 });
            }
        }
        for idx in 0..3 {
            k |= mine[idx] << (48 + 2 * idx) | (held[idx] - mine[idx]) << (54 + 2 * idx);
        }
        k
    }
}
