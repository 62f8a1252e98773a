//! Moves on packed keys: the movement tables, generating and applying moves from the mover's
//! point of view, attacks, and the moves backwards (predecessors) that the table builder walks.

use super::packed::{flip, hand, hand_shift, nib, set_nib, CHICK, GIRAFFE, HEN, LION, OPP};

/// Movement of the mover's pieces: `MOVES[code][from]` is the set of destination squares.
pub(crate) const MOVES: [[u16; 12]; 6] = build_moves(false);
/// Movement of the opponent's pieces (they move down the board).
pub(crate) const OPP_MOVES: [[u16; 12]; 6] = build_moves(true);
/// `REV_OPP[code][to]`: squares from which an opponent piece of `code` reaches `to`.
const REV_OPP: [[u16; 12]; 6] = {
    let mut r = [[0u16; 12]; 6];
    let mut c = 1;
    while c < 6 {
        let mut s = 0;
        while s < 12 {
            let mut t = 0;
            while t < 12 {
                if OPP_MOVES[c][s] & (1 << t) != 0 {
                    r[c][t] |= 1 << s;
                }
                t += 1;
            }
            s += 1;
        }
        c += 1;
    }
    r
};

const fn build_moves(opponent: bool) -> [[u16; 12]; 6] {
    // (drow, dcol) for the mover; forward is drow = -1.
    const L: &[(i8, i8)] = &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];
    const G: &[(i8, i8)] = &[(-1, 0), (0, -1), (0, 1), (1, 0)];
    const E: &[(i8, i8)] = &[(-1, -1), (-1, 1), (1, -1), (1, 1)];
    const C: &[(i8, i8)] = &[(-1, 0)];
    const H: &[(i8, i8)] = &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)];
    let dirs: [&[(i8, i8)]; 6] = [&[], L, G, E, C, H];
    let mut t = [[0u16; 12]; 6];
    let mut c = 1;
    while c < 6 {
        let mut s = 0;
        while s < 12 {
            let (r, col) = ((s / 3) as i8, (s % 3) as i8);
            let mut d = 0;
            while d < dirs[c].len() {
                let (mut dr, mut dc) = dirs[c][d];
                if opponent {
                    dr = -dr;
                    dc = -dc;
                }
                let (nr, nc) = (r + dr, col + dc);
                if nr >= 0 && nr < 4 && nc >= 0 && nc < 3 {
                    t[c][s] |= 1 << (nr * 3 + nc);
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// A move in mover-relative coordinates: `from` 0..12 is a square, 12..15 a drop of hand
/// kind `from - 12`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawMove {
    pub from: u8,
    pub to: u8,
}

/// A fixed-capacity move list (no allocation in the hot loops).
pub(crate) struct MoveBuf {
    moves: [RawMove; 96],
    pub(super) len: usize,
}

impl MoveBuf {
    pub(crate) fn new() -> MoveBuf {
        MoveBuf { moves: [RawMove { from: 0, to: 0 }; 96], len: 0 }
    }
    #[inline(always)]
    fn push(&mut self, m: RawMove) {
        self.moves[self.len] = m;
        self.len += 1;
    }
    pub(crate) fn as_slice(&self) -> &[RawMove] {
        &self.moves[..self.len]
    }
}

/// Occupancy masks (mover, opponent) of the board.
#[inline(always)]
fn occupancy(k: u64) -> (u16, u16) {
    let (mut own, mut opp) = (0u16, 0u16);
    for i in 0..12 {
        let n = nib(k, i);
        if n != 0 {
            if n & OPP == 0 {
                own |= 1 << i;
            } else {
                opp |= 1 << i;
            }
        }
    }
    (own, opp)
}

/// Pseudo-legal = legal moves of a non-terminal position (moving into attack is legal).
pub(crate) fn gen_moves(k: u64, out: &mut MoveBuf) {
    out.len = 0;
    let (own, opp) = occupancy(k);
    let mut mine = own;
    while mine != 0 {
        let s = mine.trailing_zeros() as usize;
        mine &= mine - 1;
        let n = nib(k, s);
        let mut t = MOVES[n as usize][s] & !own;
        while t != 0 {
            let to = t.trailing_zeros() as u8;
            t &= t - 1;
            out.push(RawMove { from: s as u8, to });
        }
    }
    let empty = !(own | opp) & 0xFFF;
    for idx in 0..3 {
        if hand(k, false, idx) != 0 {
            let mut e = empty;
            while e != 0 {
                let to = e.trailing_zeros() as u8;
                e &= e - 1;
                out.push(RawMove { from: 12 + idx as u8, to });
            }
        }
    }
}

pub(super) fn raw_is_legal(k: u64, m: RawMove) -> bool {
    let mut buf = MoveBuf::new();
    gen_moves(k, &mut buf);
    buf.as_slice().contains(&m)
}

/// Applies `m` and returns the position from the opponent's point of view.
#[inline]
pub(crate) fn child(k: u64, m: RawMove) -> u64 {
    let to = m.to as usize;
    let k = if (m.from as usize) < 12 {
        let from = m.from as usize;
        let p = nib(k, from);
        let target = nib(k, to);
        let mut k = set_nib(k, from, 0);
        let tc = target & 7;
        if target != 0 && tc != LION {
            let idx = if tc == HEN { 2 } else { (tc - GIRAFFE) as usize };
            k += 1 << hand_shift(false, idx);
        }
        let p = if p == CHICK && to < 3 { HEN } else { p };
        set_nib(k, to, p)
    } else {
        let idx = (m.from - 12) as usize;
        set_nib(k - (1 << hand_shift(false, idx)), to, idx as u8 + GIRAFFE)
    };
    flip(k)
}

/// Whether any mover piece attacks square `t`.
#[inline]
pub(crate) fn mover_attacks(k: u64, t: usize) -> bool {
    (0..12).any(|s| {
        let n = nib(k, s);
        n != 0 && n & OPP == 0 && MOVES[n as usize][s] & (1 << t) != 0
    })
}

/// Every predecessor of `k` (keys from the predecessor's mover's point of view): positions
/// where the opponent was to move and one of its moves led to `k`. Terminal predecessors
/// are included; callers skip them (the table has already valued them).
pub(crate) fn unmoves(k: u64, out: &mut Vec<u64>) {
    let (own, opp) = occupancy(k);
    let empty = !(own | opp) & 0xFFF;
    let mut o = opp;
    while o != 0 {
        let t = o.trailing_zeros() as usize;
        o &= o - 1;
        let code = nib(k, t) & 7;
        let cleared = set_nib(k, t, 0);
        // Un-drop: the piece came from the opponent's hand.
        if (GIRAFFE..=CHICK).contains(&code) {
            let idx = (code - GIRAFFE) as usize;
            out.push(flip(cleared + (1 << hand_shift(true, idx))));
        }
        // Un-move, with or without an un-capture on `t`.
        let mut froms: [(u16, u8); 2] = [(0, code | OPP), (0, 0)];
        match code {
            CHICK if t >= 9 => {} // a chick on its far row was dropped
            HEN if t >= 9 => {
                froms[0].0 = REV_OPP[HEN as usize][t] & empty;
                froms[1] = (REV_OPP[CHICK as usize][t] & empty, CHICK | OPP); // promotion
            }
            _ => froms[0].0 = REV_OPP[code as usize][t] & empty,
        }
        for (mut from_set, piece) in froms {
            while from_set != 0 {
                let s = from_set.trailing_zeros() as usize;
                from_set &= from_set - 1;
                let base = set_nib(cleared, s, piece);
                out.push(flip(base));
                for idx in 0..3 {
                    if hand(k, true, idx) == 0 {
                        continue;
                    }
                    let b = base - (1 << hand_shift(true, idx));
                    out.push(flip(set_nib(b, t, idx as u8 + GIRAFFE)));
                    if idx == 2 {
                        out.push(flip(set_nib(b, t, HEN)));
                    }
                }
            }
        }
    }
}
