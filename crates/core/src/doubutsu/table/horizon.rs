//! The slots a game from a root can meet within a number of plies, by parity: what the
//! survival bound's passes need, and nothing else (docs/design/kind-coach.md#measured).
//!
//! The bound's pass with `r` plies left is read, for the root's lengths `L ≤ max_length`, only
//! at the positions met `L - 1 - r` plies after the root, so at depths `d ≤ top - r` of the
//! parity of `top - r` (`top` the root's plies left for the longest length). [`Horizon`] holds
//! those sets, `within[d]` = the slots met at a depth `d' ≤ d` with `d' ≡ d (mod 2)`, one bit
//! per slot each, grown breadth first: `within[d + 1] = within[d - 1] ∪ children(within[d] \
//! within[d - 2])`, as the children of `within[d - 2]` are already in `within[d - 1]`.
//!
//! A game goes through ongoing positions only. A child without a slot that is not over lets
//! its mover capture the other lion (see the index's domain); the pass values it on the fly
//! from its own children, so those are marked two plies on. Positions where the careless
//! player could win at once are expanded too: the sets may hold a few slots the pass need not
//! value, never miss one it reads.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::super::position::{child, gen_moves, status, MoveBuf, Status};
use super::index::Index;
use super::progress::{bar, log, zeroed_atomic_words, BuildOptions};

/// The slots met within each depth from a root, by parity.
pub(crate) struct Horizon {
    within: Vec<Vec<AtomicU64>>,
}

impl Horizon {
    /// The sets for depths `0..=depth` from the position `root` (a key of `index`'s material).
    pub(crate) fn grow(index: &Index, root: u64, depth: u32, opts: &BuildOptions) -> Horizon {
        let words = usize::try_from(index.len().div_ceil(64)).expect("fits in memory");
        let within: Vec<Vec<AtomicU64>> = (0..=depth).map(|_| zeroed_atomic_words(words)).collect();
        let set = |d: usize, s: u64| within[d][(s / 64) as usize].fetch_or(1 << (s % 64), Relaxed);
        let mut buf = MoveBuf::new();
        // The root itself may have no slot (its mover can capture a lion): its children and
        // grandchildren are marked all the same.
        match index.slot(root) {
            Some(s) => {
                set(0, s);
            }
            None => Self::expand(index, root, 0, &within, &mut buf),
        }
        for d in 0..depth as usize {
            if d >= 1 {
                Self::union(&within[d + 1], &within[d - 1]);
            }
            let pb = bar(opts, index.len(), "horizon");
            let (frontier, older) = (&within[d], d.checked_sub(2).map(|o| &within[o]));
            (0..words).into_par_iter().with_min_len(1 << 8).for_each_init(MoveBuf::new, |buf, w| {
                let mut bits = frontier[w].load(Relaxed) & !older.map_or(0, |o| o[w].load(Relaxed));
                while bits != 0 {
                    let s = (w as u64) * 64 + u64::from(bits.trailing_zeros());
                    bits &= bits - 1;
                    Self::expand(index, index.key(s), d, &within, buf);
                }
                if w % (1 << 14) == 0 {
                    pb.inc(1 << 20);
                }
            });
            pb.finish_and_clear();
            log(opts, format_args!("horizon: {} slots within {} plies", Self::count(&within[d + 1]), d + 1));
        }
        Horizon { within }
    }

    /// Marks the ongoing children of `k` (at depth `d`) at `d + 1`, and through a child without
    /// a slot its ongoing children at `d + 2`.
    fn expand(index: &Index, k: u64, d: usize, within: &[Vec<AtomicU64>], buf: &mut MoveBuf) {
        let mark = |d: usize, c: u64| {
            if let (Some(set), Some(s)) = (within.get(d), index.slot(c)) {
                set[(s / 64) as usize].fetch_or(1 << (s % 64), Relaxed);
            }
        };
        gen_moves(k, buf);
        // The children first: `buf` serves their own moves below (a fixed array, as this runs
        // for every slot met).
        let mut kids = [0u64; 96];
        let n = buf.as_slice().len();
        for (kid, &m) in kids.iter_mut().zip(buf.as_slice()) {
            *kid = child(k, m);
        }
        for &c in &kids[..n] {
            if status(c) != Status::Ongoing {
                continue;
            }
            if index.slot(c).is_some() {
                mark(d + 1, c);
            } else if d + 2 < within.len() {
                gen_moves(c, buf);
                for &m in buf.as_slice() {
                    let g = child(c, m);
                    if status(g) == Status::Ongoing {
                        mark(d + 2, g);
                    }
                }
            }
        }
    }

    fn union(into: &[AtomicU64], from: &[AtomicU64]) {
        into.par_iter().zip(from.par_iter()).for_each(|(a, b)| {
            a.fetch_or(b.load(Relaxed), Relaxed);
        });
    }

    fn count(set: &[AtomicU64]) -> u64 {
        set.par_iter().map(|w| u64::from(w.load(Relaxed).count_ones())).sum()
    }

    /// Whether slot `s` is met within `depth` plies (of `depth`'s parity); every slot is,
    /// past the depths grown.
    #[inline]
    pub(crate) fn contains(&self, depth: u32, s: u64) -> bool {
        self.within.get(depth as usize).is_none_or(|set| set[(s / 64) as usize].load(Relaxed) & (1 << (s % 64)) != 0)
    }

    /// How many slots are met within `depth` plies (of its parity).
    pub(crate) fn len(&self, depth: u32) -> u64 {
        Self::count(&self.within[depth as usize])
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::doubutsu::table::index::Material;
    use crate::doubutsu::{Color, Position};

    /// The reference: the games from `root` through the public rules, breadth first on the
    /// slots, each expanded from the position its slot names (as the pass values it; a mirror
    /// pair with both lions on the middle file has two slots), following a position without a
    /// slot one ply on.
    fn met(index: &Index, root: &Position, depth: u32) -> Vec<HashSet<u64>> {
        let depth = depth as usize;
        let mut exact: Vec<HashSet<u64>> = vec![HashSet::new(); depth + 1];
        exact[0].insert(index.slot(root.key()).expect("a root with a slot"));
        for d in 0..depth {
            for s in exact[d].clone() {
                let pos = Position::from_key(index.key(s), Color::Sente).unwrap();
                for m in pos.legal_moves() {
                    let c = pos.play(m).unwrap();
                    if c.outcome().is_some() {
                        continue;
                    }
                    if let Some(t) = index.slot(c.key()) {
                        exact[d + 1].insert(t);
                    } else if d + 2 <= depth {
                        for y in c.legal_moves() {
                            let g = c.play(y).unwrap();
                            if let (None, Some(t)) = (g.outcome(), index.slot(g.key())) {
                                exact[d + 2].insert(t);
                            }
                        }
                    }
                }
            }
        }
        let mut within: Vec<HashSet<u64>> = Vec::new();
        for d in 0..=depth {
            let mut set = if d >= 2 { within[d - 2].clone() } else { HashSet::new() };
            set.extend(&exact[d]);
            within.push(set);
        }
        within
    }

    #[test]
    fn the_sets_are_the_slots_games_meet_by_parity() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut grew = 0;
        for material in [[0, 0, 1], [1, 0, 1]] {
            let index = Index::new(Material(material));
            for _ in 0..5 {
                let root = loop {
                    let key = index.key(rng.gen_range(0..index.len()));
                    if let Some(pos) = Position::from_key(key, Color::Sente) {
                        if pos.outcome().is_none() {
                            break pos;
                        }
                    }
                };
                let depth = 6;
                let horizon = Horizon::grow(&index, root.key(), depth, &BuildOptions::default());
                let want = met(&index, &root, depth);
                for d in 0..=depth {
                    let got: HashSet<u64> = (0..index.len()).filter(|&s| horizon.contains(d, s)).collect();
                    assert_eq!(got, want[d as usize], "{material:?} {root:?} depth {d}");
                    assert_eq!(horizon.len(d), got.len() as u64);
                    grew += usize::from(d >= 2 && horizon.len(d) > horizon.len(d - 2));
                }
            }
        }
        assert!(grew >= 10, "the sets grew only {grew} times");
    }
}
