//! The positions reachable from a start, counted over the perfect index: Tanaka's figures
//! (from the official start: 246,803,167 positions, 493,573,042 with mirror images apart,
//! W/L/D 196,773,087 / 47,347,380 / 2,682,700, the longest distance 173).
//!
//! As in Tanaka's analysis a position where the side to move can capture the lion, a
//! completed try and a position without moves are counted but not expanded. The table itself
//! holds every legal position; this pass only tells which of them a game from the start can
//! meet, breadth first:
//!
//! - A mirror pair is marked once, at its representative: the slot of its canonical form
//!   ([`canonical`]), or for the positions without a slot (lions next to each other, a lion on
//!   its far row) the smaller key of the two, numbered by lion placement and
//!   [`Index::local`]. Two bits per representative say which orientations were reached (the
//!   representative itself, its mirror image), so the count with mirror images apart is
//!   exact for any start, symmetric or not.
//! - A representative is expanded again when it gains an orientation, passing both to its
//!   children (the mirror image of a child is the child of the mirror image).
//!
//! Memory: two bits per slot and per numbered position without one, one bit per slot for each
//! of two frontiers; about 400 MiB for the real game, besides the mapped table.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::super::position::{can_capture_lion, child, gen_moves, mirror, status, MoveBuf, Status};
use super::index::{canonical, lions, lions_in_domain, Index, Material};
use super::progress::{bar, log, zeroed_atomic_words, BuildOptions};
use super::retro::value_of_key;
use super::{ProbeError, ValueCounts};
use crate::doubutsu::Position;

/// What a game from the roots can meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReachStats {
    /// Positions, one per mirror pair (Tanaka's count).
    pub positions: u64,
    /// Positions with mirror images counted apart (each only if it was reached itself).
    pub reachable: u64,
    /// Of `positions`, those the side to move wins.
    pub wins: u64,
    /// Of `positions`, those the side to move loses.
    pub losses: u64,
    /// Of `positions`, the draws.
    pub draws: u64,
    /// The longest distance among them.
    pub max_distance: u32,
    /// Breadth-first levels run.
    pub levels: u32,
}

impl ReachStats {
    /// The figures of Tanaka (2009) for the official start.
    pub const TANAKA: ReachStats = ReachStats {
        positions: 246_803_167,
        reachable: 493_573_042,
        wins: 196_773_087,
        losses: 47_347_380,
        draws: 2_682_700,
        max_distance: 173,
        levels: 0,
    };

    /// Whether the counts and values equal `other`'s (the number of levels aside).
    pub fn same_figures(&self, other: &ReachStats) -> bool {
        ReachStats { levels: 0, ..*self } == ReachStats { levels: 0, ..*other }
    }
}

/// Orientation bits: the representative itself was reached.
const SELF: u64 = 1;
/// Its mirror image was.
const MIRRORED: u64 = 2;

const NO_PLACEMENT: u8 = u8::MAX;
/// Lion placements (mover's square, opponent's square) without slots: both lions on the
/// board, on different squares, outside [`lions_in_domain`].
const OTHER_PLACEMENTS: (usize, [u8; 144]) = {
    let mut class = [NO_PLACEMENT; 144];
    let mut n = 0;
    let mut ml = 0;
    while ml < 12 {
        let mut ol = 0;
        while ol < 12 {
            if ml != ol && !lions_in_domain(ml, ol) {
                class[ml * 12 + ol] = n as u8;
                n += 1;
            }
            ol += 1;
        }
        ml += 1;
    }
    (n, class)
};

/// Two bits per entry, set atomically.
struct Marks(Vec<AtomicU64>);

impl Marks {
    fn new(entries: u64) -> Marks {
        Marks(zeroed_atomic_words(usize::try_from(entries.div_ceil(32)).expect("fits in memory")))
    }

    /// Adds `bits` to entry `i`; returns the bits it had.
    #[inline]
    fn add(&self, i: u64, bits: u64) -> u64 {
        let (w, shift) = ((i / 32) as usize, (i % 32) * 2);
        let old = (self.0[w].load(Relaxed) >> shift) & 3;
        if old & bits == bits {
            return old;
        }
        (self.0[w].fetch_or(bits << shift, Relaxed) >> shift) & 3
    }

    #[inline]
    fn get(&self, i: u64) -> u64 {
        (self.0[(i / 32) as usize].load(Relaxed) >> ((i % 32) * 2)) & 3
    }
}

/// Where a reached key's mirror pair is marked.
#[derive(Clone, Copy)]
enum Place {
    /// The slot of its canonical form.
    Slot(u64),
    /// Its number among the positions without a slot.
    Other(u64),
}

/// Counts a level's findings, one per thread, added into the shared totals at the end.
#[derive(Default)]
struct Tally {
    positions: u64,
    reachable: u64,
    values: ValueCounts,
    frontier: u64,
}

impl Tally {
    fn merge(&mut self, o: &Tally) {
        self.positions += o.positions;
        self.reachable += o.reachable;
        self.values.merge(&o.values);
        self.frontier += o.frontier;
    }
}

struct Pass<'a> {
    index: &'a Index,
    values: &'a [u8],
    slots: Marks,
    others: Marks,
}

impl Pass<'_> {
    /// The representative of `c`'s mirror pair, where it is marked, and the orientation bit
    /// of `c` itself; `None` for a key without both lions or of another material.
    #[inline]
    fn place(&self, c: u64) -> Option<(u64, Place, u64)> {
        if let Some(rep) = canonical(c) {
            let slot = self.index.encode(rep)?;
            return Some((rep, Place::Slot(slot), if c == rep { SELF } else { MIRRORED }));
        }
        let rep = c.min(mirror(c));
        let (ml, ol) = lions(rep)?;
        let class = OTHER_PLACEMENTS.1[ml * 12 + ol];
        let number = class as u64 * self.index.per_lion() + self.index.local(rep, ml, ol)?;
        Some((rep, Place::Other(number), if c == rep { SELF } else { MIRRORED }))
    }

    /// Marks `rep` as reached in the orientations `bits`, counting what is new; a slot that
    /// gained an orientation goes on `next`.
    #[inline]
    fn mark(&self, rep: u64, place: Place, bits: u64, next: &[AtomicU64], t: &mut Tally) {
        let old = match place {
            Place::Slot(s) => self.slots.add(s, bits),
            Place::Other(n) => self.others.add(n, bits),
        };
        let new = bits & !old;
        if new == 0 {
            return;
        }
        t.reachable += new.count_ones() as u64;
        if old == 0 {
            t.positions += 1;
            t.values.add(value_of_key(self.index, self.values, rep).expect("a marked key has the index's material"));
        }
        if let Place::Slot(s) = place {
            next[(s / 64) as usize].fetch_or(1 << (s % 64), Relaxed);
            t.frontier += 1;
        }
    }

    /// Marks the children of the representative `k`, reached in orientations `reached`.
    fn expand(&self, k: u64, reached: u64, buf: &mut MoveBuf, next: &[AtomicU64], t: &mut Tally) {
        if status(k) != Status::Ongoing || can_capture_lion(k) {
            return;
        }
        gen_moves(k, buf);
        for &m in buf.as_slice() {
            let c = child(k, m);
            let Some((rep, place, bit)) = self.place(c) else { continue };
            // The mirror image of `k` has the mirror image of `c` as its child.
            let mirrored_bit = if mirror(rep) == rep { SELF } else { bit ^ 3 };
            let bits =
                if reached & SELF != 0 { bit } else { 0 } | if reached & MIRRORED != 0 { mirrored_bit } else { 0 };
            self.mark(rep, place, bits, next, t);
        }
    }
}

/// Words of a frontier per rayon task.
const WORDS_PER_TASK: usize = 256;

/// Counts and values every position reachable from `roots` in the table `values` laid out by
/// `index` (see the module docs). A root of another material is an error.
pub fn reach(index: &Index, values: &[u8], roots: &[Position], opts: &BuildOptions) -> Result<ReachStats, ProbeError> {
    let others = OTHER_PLACEMENTS.0 as u64 * index.per_lion();
    let pass = Pass { index, values, slots: Marks::new(index.len()), others: Marks::new(others) };
    let words = usize::try_from(index.len().div_ceil(64)).expect("fits in memory");
    let (mut cur, mut next) = (zeroed_atomic_words(words), zeroed_atomic_words(words));
    let mut total = Tally::default();
    let mut level = Tally::default();
    for root in roots {
        let k = root.key();
        if Material::of_key(k) != index.material() {
            return Err(ProbeError::NotInTable(root.to_text()));
        }
        if let Some((rep, place, bit)) = pass.place(k) {
            pass.mark(rep, place, bit, &cur, &mut level);
        }
    }
    let pb = bar(opts, index.len(), "reachable");
    let mut levels = 0;
    while level.frontier > 0 {
        total.merge(&level);
        pb.inc(level.positions);
        log(opts, format_args!("reachable: level {levels}, {} new positions", level.positions));
        level = cur
            .par_chunks(WORDS_PER_TASK)
            .enumerate()
            .fold(
                || (Tally::default(), MoveBuf::new()),
                |(mut t, mut buf), (task, chunk)| {
                    for (w, word) in chunk.iter().enumerate() {
                        let mut bits = word.swap(0, Relaxed);
                        while bits != 0 {
                            let s = ((task * WORDS_PER_TASK + w) * 64) as u64 + bits.trailing_zeros() as u64;
                            bits &= bits - 1;
                            pass.expand(index.key(s), pass.slots.get(s), &mut buf, &next, &mut t);
                        }
                    }
                    (t, buf)
                },
            )
            .map(|(t, _)| t)
            .reduce(Tally::default, |mut a, b| {
                a.merge(&b);
                a
            });
        std::mem::swap(&mut cur, &mut next);
        levels += 1;
    }
    total.merge(&level);
    pb.finish();
    Ok(ReachStats {
        positions: total.positions,
        reachable: total.reachable,
        wins: total.values.wins,
        losses: total.values.losses,
        draws: total.values.draws,
        max_distance: total.values.max_distance,
        levels,
    })
}
