//! The packed core's layout, shared with the table builder: the piece codes, the nibbles and
//! hands of a key, and the flip and mirror of a board (see the layout in [`super`]).

pub(crate) const LION: u8 = 1;
pub(crate) const GIRAFFE: u8 = 2;
pub(crate) const ELEPHANT: u8 = 3;
pub(crate) const CHICK: u8 = 4;
pub(crate) const HEN: u8 = 5;
pub(crate) const OPP: u8 = 8;

pub(crate) const BOARD_MASK: u64 = (1 << 48) - 1;
const KEY_MASK: u64 = (1 << 60) - 1;
const COL0: u64 = 0x00F0_0F00_F00F;
const COL1: u64 = 0x0F00_F00F_00F0;
const COL2: u64 = 0xF00F_00F0_0F00;

/// The nibble of square `i`.
#[inline(always)]
pub(crate) fn nib(k: u64, i: usize) -> u8 {
    ((k >> (4 * i)) & 15) as u8
}

#[inline(always)]
pub(crate) fn set_nib(k: u64, i: usize, v: u8) -> u64 {
    (k & !(15u64 << (4 * i))) | ((v as u64) << (4 * i))
}

#[inline(always)]
pub(super) fn hand_shift(opp: bool, idx: usize) -> u32 {
    48 + 6 * opp as u32 + 2 * idx as u32
}

/// Hand count of kind `idx` (giraffe, elephant, chick) of the mover or the opponent.
#[inline(always)]
pub(crate) fn hand(k: u64, opp: bool, idx: usize) -> u8 {
    ((k >> hand_shift(opp, idx)) & 3) as u8
}

/// The board seen from the other player: rotate 180 degrees, swap owners and hands.
#[inline]
pub(crate) fn flip(k: u64) -> u64 {
    // Reverse the 12 nibbles: byte swap then swap the two nibbles of every byte.
    let x = ((k & BOARD_MASK) << 16).swap_bytes();
    let x = ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4) | ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
    let occupied = (x | (x >> 1) | (x >> 2)) & 0x1111_1111_1111;
    let x = x ^ (occupied << 3);
    let h = (k >> 48) & 0xFFF;
    x | ((((h & 0x3F) << 6) | (h >> 6)) << 48)
}

/// The board with columns A and C swapped.
#[inline]
pub(crate) fn mirror(k: u64) -> u64 {
    (k & !BOARD_MASK) | (k & COL1) | ((k & COL0) << 8) | ((k & COL2) >> 8)
}

/// The smaller of a key and its mirror image.
#[inline]
pub(crate) fn canon(k: u64) -> u64 {
    k.min(mirror(k))
}

/// Whether `k` is a well-formed key (see [`Position::from_key`](super::Position::from_key)).
pub(super) fn validate_key(k: u64) -> bool {
    if k & !KEY_MASK != 0 {
        return false;
    }
    let mut count = [0u8; 6];
    let mut lions = [0u8; 2];
    for i in 0..12 {
        let n = nib(k, i);
        if n == 0 {
            continue;
        }
        let c = n & 7;
        if !(LION..=HEN).contains(&c) || n & 0b0111 == 0 {
            return false;
        }
        if c == LION {
            lions[(n >> 3) as usize] += 1;
        } else {
            count[if c == HEN { CHICK } else { c } as usize] += 1;
        }
    }
    for opp in [false, true] {
        for idx in 0..3 {
            let h = hand(k, opp, idx);
            if h == 3 {
                return false;
            }
            count[idx + 2] += h;
        }
    }
    lions == [1, 1] && count[2..5].iter().all(|&c| c <= 2)
}
