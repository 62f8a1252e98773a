//! The solver's last plies: from [`SHALLOW`] empties down, null-window search without the
//! table, squares of odd quadrants first, and dedicated routines for the last four empties.

use crate::reversi::engine::search::{final_margin, Engine};
use crate::reversi::rules::board::{flips, moves};
use crate::reversi::rules::last_flip::count_last_flip;

use super::stability::{stable_discs, STABILITY_THRESHOLD};

/// At or below this many empties nodes skip the table and sorting (parity order only). Eight, not
/// six: 60% more nodes, each so much cheaper that FFO #40-#49 takes about an eighth less time
/// (2026-12-02, docs/design/reversi-engine.md#the-exact-endgame-solver-endgamers); a static square
/// order inside each parity class saved 10% of the nodes but not time, and was left out.
pub(super) const SHALLOW: u32 = 8;

/// Masks of the 4x4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0f0f_0f0f, 0x0000_0000_f0f0_f0f0, 0x0f0f_0f0f_0000_0000, 0xf0f0_f0f0_0000_0000];

/// The up-to-eight squares around each square: a placement must touch an opponent disc.
const NEIGHBOURS: [u64; 64] = {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut m = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                    m |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        out[sq] = m;
        sq += 1;
    }
    out
};

/// Parity quadrant bit of each square.
#[inline]
fn quadrant_bit(sq: u32) -> u8 {
    1 << (((sq >> 2) & 1) | ((sq >> 4) & 2))
}

/// Bits of the quadrants with an odd number of empty squares.
#[inline]
pub(super) fn parity_of(empties: u64) -> u8 {
    let mut par = 0;
    for (i, q) in QUADRANTS.iter().enumerate() {
        par |= (((empties & q).count_ones() & 1) as u8) << i;
    }
    par
}

impl Engine {
    /// Null-window search near the end: no table, squares of odd quadrants first; the last
    /// four empties go to the dedicated [`Engine::solve_4`] and below.
    pub(super) fn nws_shallow(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8) -> i32 {
        let empties = !(p | o);
        let mut odd = 0u64;
        for (i, q) in QUADRANTS.iter().enumerate() {
            if parity >> i & 1 == 1 {
                odd |= q;
            }
        }
        if n <= 4 {
            // Odd-quadrant squares first: a lone empty in a region is where the last move
            // usually pays.
            let mut x = [0u32; 4];
            let mut k = 0;
            for set in [empties & odd, empties & !odd] {
                let mut m = set;
                while m != 0 {
                    x[k] = m.trailing_zeros();
                    m &= m - 1;
                    k += 1;
                }
            }
            return match n {
                4 => self.solve_4(p, o, alpha, x),
                3 => self.solve_3(p, o, alpha, [x[0], x[1], x[2]]),
                2 => self.solve_2(p, o, alpha, [x[0], x[1]]),
                1 => self.last_square(p, o, alpha, x[0]),
                _ => final_margin(p, o),
            };
        }
        self.count_end_node();
        if alpha >= STABILITY_THRESHOLD[n as usize] {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let mut best = -65;
        for set in [empties & odd, empties & !odd] {
            let mut m = set;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                if NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let f = flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let v = -self.nws_shallow(o & !f, p | f | (1u64 << sq), -alpha - 1, n - 1, parity ^ quadrant_bit(sq));
                if v > best {
                    if v > alpha {
                        return v;
                    }
                    best = v;
                }
            }
        }
        if best == -65 {
            // No placement: pass if the opponent can move, else the game is over.
            if moves(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.nws_shallow(o, p, -alpha - 1, n, parity);
        }
        best
    }

    /// Null-window search with exactly four empties `x` (in the order to try them).
    fn solve_4(&mut self, p: u64, o: u64, alpha: i32, x: [u32; 4]) -> i32 {
        self.count_end_node();
        if alpha >= STABILITY_THRESHOLD[4] {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let best = self.best_placement(p, o, alpha, x, |s, p, o, alpha, i| s.solve_3(p, o, alpha, others(x, i)));
        self.or_pass(best, p, o, |s| s.solve_4(o, p, -alpha - 1, x))
    }

    /// Null-window search with exactly three empties `x`.
    fn solve_3(&mut self, p: u64, o: u64, alpha: i32, x: [u32; 3]) -> i32 {
        self.count_end_node();
        let best = self.best_placement(p, o, alpha, x, |s, p, o, alpha, i| s.solve_2(p, o, alpha, others(x, i)));
        self.or_pass(best, p, o, |s| s.solve_3(o, p, -alpha - 1, x))
    }

    /// Null-window search with exactly two empties `x`; a pass is resolved here rather than
    /// by recursion (they are common this close to the end).
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, x: [u32; 2]) -> i32 {
        self.count_end_node();
        let last = |s: &mut Self, p, o, alpha, i: usize| s.last_square(p, o, alpha, x[1 - i]);
        if let Some(v) = self.best_placement(p, o, alpha, x, last) {
            return v;
        }
        // `p` passes: the opponent moves, against the opponent's null window.
        match self.best_placement(o, p, -alpha - 1, x, last) {
            Some(v) => -v,
            None => final_margin(p, o),
        }
    }

    /// `best`, the value of `p`'s best placement; when it had none, `p` passes and `again`
    /// searches the opponent's turn, or the game is over.
    #[inline(always)]
    fn or_pass(&mut self, best: Option<i32>, p: u64, o: u64, again: impl FnOnce(&mut Self) -> i32) -> i32 {
        match best {
            Some(v) => v,
            None if moves(o, p) == 0 => final_margin(p, o),
            None => -again(self),
        }
    }

    /// The best value for `p` of its placements on `squares`, tried in order, each valued by
    /// `child` (on the position after it, from the opponent's side, with the opponent's null
    /// window and the index of the square played), and the first that beats `alpha` at once;
    /// `None` when `p` can place on none of them. One loop for the last few empties, inlined
    /// into each so the squares stay in registers (the solvers' speed is the loop's).
    #[inline(always)]
    fn best_placement<const N: usize>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        squares: [u32; N],
        child: impl Fn(&mut Self, u64, u64, i32, usize) -> i32,
    ) -> Option<i32> {
        let mut best = -65;
        for (i, sq) in squares.into_iter().enumerate() {
            if NEIGHBOURS[sq as usize] & o == 0 {
                continue;
            }
            let f = flips(p, o, sq);
            if f != 0 {
                let v = -child(self, o & !f, p | f | (1u64 << sq), -alpha - 1, i);
                if v > alpha {
                    return Some(v);
                }
                best = best.max(v);
            }
        }
        (best > -65).then_some(best)
    }

    /// Value with one empty square `sq` left, `p` to move, against the null window `alpha`:
    /// exact, except that when `p` cannot play there and even the best the opponent can leave
    /// `p` is at most `alpha`, that bound is returned without counting the opponent's flips.
    #[inline]
    fn last_square(&mut self, p: u64, o: u64, alpha: i32, sq: u32) -> i32 {
        self.count_end_node();
        let np = p.count_ones() as i32;
        let n = count_last_flip(p, sq) as i32;
        if n != 0 {
            return 2 * (np + n + 1) - 64;
        }
        // `p` passes: the opponent flips at least one disc, or nobody plays and `p` gets at
        // most 2 np - 62 (the empty square going to the winner).
        if 2 * np - 62 <= alpha {
            return 2 * np - 62;
        }
        let n = count_last_flip(o, sq) as i32;
        if n != 0 {
            return 2 * (np - n) - 64;
        }
        // Nobody can fill it: the empty square goes to the winner (63 discs, never a draw).
        let d = 2 * np - 63;
        if d > 0 {
            d + 1
        } else {
            d - 1
        }
    }
}

/// `x` without its `i`-th square, in the same order: what is left after playing there.
#[inline(always)]
fn others<const N: usize, const M: usize>(x: [u32; N], i: usize) -> [u32; M] {
    debug_assert_eq!(M + 1, N);
    std::array::from_fn(|k| x[k + usize::from(k >= i)])
}
