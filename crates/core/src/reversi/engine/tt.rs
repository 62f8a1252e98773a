//! Fixed-size transposition table, owned by a search (never global).
//!
//! Two-way buckets keyed by the full (player, opponent) bitboards plus a small tag, so a hit
//! is never a hash collision. A generation counter makes clearing O(1): entries of older
//! generations count as empty.

/// One stored search result: bounds on the value of (p, o) searched to `depth`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    p: u64,
    o: u64,
    /// Lower bound of the value.
    pub lower: i32,
    /// Upper bound of the value.
    pub upper: i32,
    /// Remaining depth (plies, or empties for exact searches) the bounds hold for.
    pub depth: u8,
    /// Best move found (square index), or 64 for none.
    pub mv: u8,
    generation: u8,
    tag: u8,
}

/// Transposition table of `2^bits` entries.
pub(crate) struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

/// Mixes the two bitboards into a well-spread 64-bit hash.
#[inline]
fn hash(p: u64, o: u64, tag: u8) -> u64 {
    let mut h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^= u64::from(tag) << 17;
    h ^= h >> 31;
    h.wrapping_mul(0x1656_67b1_9e37_79f9) ^ (h >> 29)
}

impl Tt {
    /// A table with `2^bits` entries (32 bytes each).
    pub(crate) fn new(bits: u32) -> Self {
        let n = 1usize << bits.clamp(4, 28);
        // Huge pages before the first write: every probe is a random access, which with 4 KiB
        // pages also misses the TLB (10% less CPU on FFO #40-#49, 2026-12-02 evening;
        // docs/design/reversi-engine.md#the-exact-endgame-solver-endgamers).
        let mut entries = Vec::with_capacity(n);
        crate::huge_pages::advise_huge_pages(&entries);
        entries.resize(n, Entry::default());
        Tt { entries, mask: n - 2, generation: 1 }
    }

    /// Forgets every entry (O(1): starts a new generation).
    pub(crate) fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: old entries could look current again, so wipe them for real.
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
    }

    /// Starts loading the bucket of (p, o, tag) into the cache, so that a probe a few dozen
    /// instructions later does not stall on memory (the table is far larger than the cache).
    #[inline]
    pub(crate) fn prefetch(&self, p: u64, o: u64, tag: u8) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let i = hash(p, o, tag) as usize & self.mask;
            let bucket = self.entries[i..].as_ptr().cast::<i8>();
            // SAFETY: a prefetch is only a hint: it never faults and changes nothing visible.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o, tag);
    }

    /// The entry for (p, o, tag) if stored in the current generation.
    #[inline]
    pub(crate) fn probe(&self, p: u64, o: u64, tag: u8) -> Option<Entry> {
        let i = hash(p, o, tag) as usize & self.mask;
        for e in &self.entries[i..i + 2] {
            if e.p == p && e.o == o && e.tag == tag && e.generation == self.generation {
                return Some(*e);
            }
        }
        None
    }

    /// Stores the result of a search of (p, o) with window (alpha, beta) that returned `score`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn store(&mut self, p: u64, o: u64, tag: u8, depth: u32, alpha: i32, beta: i32, score: i32, mv: u8) {
        let i = hash(p, o, tag) as usize & self.mask;
        let generation = self.generation;
        let (lower, upper) = if score <= alpha {
            (i32::MIN, score)
        } else if score >= beta {
            (score, i32::MAX)
        } else {
            (score, score)
        };
        let depth = depth.min(255) as u8;
        let bucket = &mut self.entries[i..i + 2];
        // Same position: tighten what we know at equal depth, replace at greater depth.
        for e in bucket.iter_mut() {
            if e.p == p && e.o == o && e.tag == tag && e.generation == generation {
                if depth == e.depth {
                    e.lower = e.lower.max(lower);
                    e.upper = e.upper.min(upper);
                    if e.lower > e.upper {
                        (e.lower, e.upper) = (lower, upper);
                    }
                    if mv < 64 {
                        e.mv = mv;
                    }
                } else if depth > e.depth {
                    *e = Entry { p, o, lower, upper, depth, mv, generation, tag };
                }
                return;
            }
        }
        // Otherwise evict a stale entry, else the shallower one.
        let victim = if bucket[0].generation != generation {
            0
        } else if bucket[1].generation != generation || bucket[1].depth <= bucket[0].depth {
            1
        } else {
            0
        };
        bucket[victim] = Entry { p, o, lower, upper, depth, mv, generation, tag };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_bounds_and_forgets_on_clear() {
        let mut tt = Tt::new(8);
        tt.store(1, 2, 0, 5, -10, 10, 3, 7);
        let e = tt.probe(1, 2, 0).unwrap();
        assert_eq!((e.lower, e.upper, e.depth, e.mv), (3, 3, 5, 7));
        assert!(tt.probe(1, 2, 1).is_none(), "tag is part of the key");
        tt.store(1, 2, 0, 5, 5, 6, 9, 64);
        let e = tt.probe(1, 2, 0).unwrap();
        // A fail-high at the same depth tightens the lower bound only (exact 3 conflicts, reset).
        assert_eq!(e.lower, 9);
        tt.store(4, 8, 0, 2, 0, 1, 0, 64);
        assert_eq!(tt.probe(4, 8, 0).unwrap().upper, 0);
        tt.clear();
        assert!(tt.probe(1, 2, 0).is_none());
        assert!(tt.probe(4, 8, 0).is_none());
    }
}
