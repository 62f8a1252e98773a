//! Table builder: enumerate the reachable set, index it, then retrograde analysis.
//!
//! Past 500 lines on purpose: one job, the build, whose four steps below run in turn over the same
//! arrays and share their helpers.
//!
//! 1. Enumerate: breadth-first over mirror-normalized keys in a lock-free open-addressing
//!    set. Each entry also carries which of the two mirror orientations were reached, so the
//!    side-to-move-normalized count (mirror images counted) comes out exactly.
//! 2. Index: sort by scrambled dense key into the file layout (buckets + 16-bit suffixes).
//! 3. Init: terminal positions (distance 0), lion captures (win in 1), and for every other
//!    position the number of distinct children.
//! 4. Retrograde, level by level: from each position settled at distance `d`, generate its
//!    predecessors by un-moving; a loss makes them wins in `d + 1`, a win decrements their
//!    counter and the last one makes them losses in `d + 1` (the longest resistance). What
//!    is never settled is a draw. Levels run in parallel with atomics; the result does not
//!    depend on scheduling because each level only reads what earlier levels settled.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::super::position::{
    can_capture_lion, canon, child, gen_moves, is_lion_capture, mirror, status, unmoves, MoveBuf, Position, Status,
    WinReason,
};
use super::{index_hash, TableStats, Tablebase, Value, View, NUM_BUCKETS, SUFFIX_BITS};

/// Builder settings.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Show an indicatif progress bar per phase (on stderr).
    pub progress: bool,
    /// Also print one plain line per level and phase on stderr (for logs).
    pub log: bool,
}

/// What a build did and how long each phase took.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    /// The figures stored in the header.
    pub stats: TableStats,
    /// Breadth-first levels of the enumeration.
    pub enumeration_levels: u32,
    /// Retrograde levels (the longest distance + 1).
    pub retrograde_levels: u32,
    /// Each phase in order: enumerate, index, init, retrograde.
    pub phases: Vec<Phase>,
}

/// What one build phase cost.
#[derive(Debug, Clone)]
pub struct Phase {
    /// The phase's name.
    pub name: &'static str,
    /// Wall time.
    pub wall: Duration,
    /// The process's peak resident memory during the phase, in bytes (Linux; 0 where the
    /// platform does not tell).
    pub peak_rss: u64,
}

impl Phase {
    /// Starts timing a phase and resets the kernel's peak-memory mark, so that each phase
    /// reports its own peak.
    fn start() -> Instant {
        // Writing 5 to clear_refs resets VmHWM (Linux ≥ 4.0); elsewhere this does nothing.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        Instant::now()
    }

    fn new(name: &'static str, started: Instant) -> Phase {
        Phase { name, wall: started.elapsed(), peak_rss: peak_rss() }
    }
}

/// VmHWM of /proc/self/status, in bytes.
fn peak_rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// Builds the table of everything reachable from the official start.
pub fn build_standard(opts: &BuildOptions) -> (Tablebase, BuildReport) {
    build(&[Position::start()], opts)
}

/// Builds the table of every position reachable from `roots` (positions whose lion was
/// captured are skipped: they are not positions of a game in progress).
///
/// As in Tanaka's analysis, a position where the side to move can capture the lion is a
/// leaf (a win in 1): it is stored, but what follows a failure to capture is not. Such
/// positions only arise from a blunder; [`Table::probe`](super::Table::probe) values
/// capture-available positions by the rules and the players search past the rest.
pub fn build(roots: &[Position], opts: &BuildOptions) -> (Tablebase, BuildReport) {
    let mut report = BuildReport::default();
    let t = Phase::start();
    let (entries, levels) = enumerate(roots, opts);
    report.enumeration_levels = levels;
    report.phases.push(Phase::new("enumerate", t));
    log(opts, format_args!("enumerate: done in {:?}, {} stored positions", t.elapsed(), entries.len()));

    let t = Phase::start();
    let reachable: u64 = entries.par_iter().map(|&e| orientation_count(e)).sum();
    let (keys, buckets, suffixes) = index(entries, opts);
    report.phases.push(Phase::new("index", t));
    log(opts, format_args!("index: done in {:?}, {reachable} reachable positions", t.elapsed()));

    let t = Phase::start();
    let n = keys.len();
    let values = filled_atomic_bytes(n, UNSETTLED);
    let counters = filled_atomic_bytes(n, 0);
    let (level0, level1) = init(&keys, &values, &counters, opts);
    report.phases.push(Phase::new("init", t));
    log(opts, format_args!("init: done in {:?}", t.elapsed()));

    let t = Phase::start();
    let view = View { buckets: &buckets, suffixes: &suffixes, values: &[] };
    report.retrograde_levels = retrograde(&keys, view, &values, &counters, level0, level1, opts);
    report.phases.push(Phase::new("retrograde", t));
    log(opts, format_args!("retrograde: done in {:?}", t.elapsed()));
    drop(counters);
    drop(keys);

    let values: Vec<u8> = values
        .into_iter()
        .map(|v| match v.into_inner() {
            UNSETTLED => 0,
            b => b,
        })
        .collect();
    let mut stats =
        TableStats { positions: n as u64, reachable, standard: roots == [Position::start()], ..Default::default() };
    for &b in &values {
        match Value::from_byte(b) {
            Value::Win(d) => {
                stats.wins += 1;
                stats.max_distance = stats.max_distance.max(d as u32);
            }
            Value::Loss(d) => {
                stats.losses += 1;
                stats.max_distance = stats.max_distance.max(d as u32);
            }
            Value::Draw => stats.draws += 1,
        }
    }
    report.stats = stats;
    (Tablebase { stats, buckets, suffixes, values }, report)
}

/// Value byte of a position not settled yet (no valid encoding uses it).
const UNSETTLED: u8 = 0xFF;

/// One line on stderr per level/phase when `log` is set (for runs without a terminal,
/// where indicatif draws nothing).
pub(super) fn log(opts: &BuildOptions, args: std::fmt::Arguments<'_>) {
    if opts.log {
        eprintln!("{args}");
    }
}

pub(super) fn bar(opts: &BuildOptions, len: u64, what: &'static str) -> ProgressBar {
    if !opts.progress {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    let style = ProgressStyle::with_template(&format!(
        "{{elapsed_precise:>8}} {what:<11} [{{bar:40}}] {{human_pos}}/{{human_len}} {{msg}}"
    ))
    .expect("valid template")
    .progress_chars("=> ");
    pb.set_style(style);
    pb
}

/// Asks the kernel to back `v`'s memory with transparent huge pages. The builder's arrays
/// are gigabytes probed at random: with 4 KiB pages nearly every probe also misses the TLB
/// (doubly costly under virtualization) and first touches fault page by page. Call it
/// before the memory is first written; a refusal only costs speed.
fn advise_huge_pages<T>(v: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (v.as_ptr() as usize).next_multiple_of(HUGE);
        let end = (v.as_ptr() as usize + std::mem::size_of_val(v)) & !(HUGE - 1);
        if end > start {
            // SAFETY: the range lies inside memory this process owns; MADV_HUGEPAGE does not
            // change its contents or validity.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// A vector with room for `n` items whose memory is advised huge (see
/// [`advise_huge_pages`]); fill it with `collect_into_vec` or `par_extend`.
fn huge_capacity<T>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    let spare = v.spare_capacity_mut();
    advise_huge_pages(spare);
    v
}

/// A vector of zeroed atomics straight from the allocator (lazily zeroed pages, no
/// sequential initialisation pass over gigabytes).
fn zeroed_atomics(n: usize) -> Vec<AtomicU64> {
    let v = std::mem::ManuallyDrop::new(vec![0u64; n]);
    advise_huge_pages(&v);
    // SAFETY: AtomicU64 has the same size, alignment and bit validity as u64.
    unsafe { Vec::from_raw_parts(v.as_ptr() as *mut AtomicU64, v.len(), v.capacity()) }
}

pub(super) fn filled_atomic_bytes(n: usize, value: u8) -> Vec<AtomicU8> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u8; n]);
    advise_huge_pages(&v);
    if value != 0 {
        v.par_chunks_mut(1 << 20).for_each(|c| c.fill(value));
    }
    // SAFETY: AtomicU8 has the same size, alignment and bit validity as u8.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr() as *mut AtomicU8, v.len(), v.capacity()) }
}

// ---------------------------------------------------------------------------------------
// Phase 1: enumeration.

/// Entry = `key << 2 | orientations`: bit 0 when the canonical key itself was reached,
/// bit 1 when its mirror image was. Symmetric positions only ever use bit 0.
fn entry_for(k: u64, parent_mask: u64) -> u64 {
    let m = mirror(k);
    let (c, flipped) = if m < k { (m, 1) } else { (k, 0) };
    let mask = if m == k {
        1
    } else {
        let mut mask = 0;
        if parent_mask & 1 != 0 {
            mask |= 1 << flipped;
        }
        if parent_mask & 2 != 0 {
            mask |= 1 << (1 ^ flipped);
        }
        mask
    };
    (c << 2) | mask
}

fn orientation_count(e: u64) -> u64 {
    (e & 3).count_ones() as u64
}

/// Insert-only lock-free hash set of entries (0 = empty slot).
struct Set {
    slots: Vec<AtomicU64>,
    shift: u32,
}

impl Set {
    fn with_bits(bits: u32) -> Set {
        Set { slots: zeroed_atomics(1usize << bits), shift: 64 - bits }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        // A full avalanche mix (splitmix64 finalizer): keys are structured nibbles, and a
        // single multiply left long runs of neighbouring slots for linear probing.
        let mut x = key;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^= x >> 31;
        (x >> self.shift) as usize
    }

    /// Adds the orientation bits of `e`; returns the entry for the bits that were new
    /// (0 if none) and whether the key itself was new.
    fn insert(&self, e: u64) -> (u64, bool) {
        let key = e >> 2;
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            let mut cur = slot.load(Relaxed);
            loop {
                if cur == 0 {
                    match slot.compare_exchange(0, e, Relaxed, Relaxed) {
                        Ok(_) => return (e, true),
                        Err(now) => cur = now,
                    }
                    continue;
                }
                if cur >> 2 != key {
                    break;
                }
                let new = e & 3 & !cur;
                if new == 0 {
                    return (0, false);
                }
                match slot.compare_exchange(cur, cur | new, Relaxed, Relaxed) {
                    Ok(_) => return ((key << 2) | new, false),
                    Err(now) => cur = now,
                }
            }
            i = (i + 1) & mask;
        }
    }

    fn entries(&self) -> impl ParallelIterator<Item = u64> + '_ {
        self.slots.par_iter().map(|s| s.load(Relaxed)).filter(|&e| e != 0)
    }
}

/// Most children a position can have (board moves + drops); bounds a chunk's insertions.
const MAX_CHILDREN: usize = 64;
const CHUNK: usize = 1 << 16;

fn enumerate(roots: &[Position], opts: &BuildOptions) -> (Vec<u64>, u32) {
    let pb = bar(opts, 0, "enumerate");
    let mut set = Set::with_bits(16);
    let mut count = 0usize;
    let mut frontier = Vec::new();
    for r in roots {
        if status(r.key()) == Status::MoverLost(WinReason::LionCaptured) {
            continue;
        }
        let (e, new) = set.insert(entry_for(r.key(), 1));
        count += new as usize;
        if e != 0 {
            frontier.push(e);
        }
    }
    let mut levels = 0;
    while !frontier.is_empty() {
        levels += 1;
        let mut next = Vec::new();
        for chunk in frontier.chunks(CHUNK) {
            // Grow between chunks so that a chunk can never fill the table past 3/4.
            while (count + chunk.len() * MAX_CHILDREN) * 4 > set.slots.len() * 3 {
                set = grow(&set);
            }
            let (found, added) = chunk
                .par_iter()
                .fold(
                    || (Vec::new(), 0usize),
                    |(mut out, mut added), &e| {
                        let k = e >> 2;
                        // Leaves: finished positions and positions where the lion can be
                        // captured (a win in 1 whatever else could be played there).
                        if status(k) != Status::Ongoing || can_capture_lion(k) {
                            return (out, added);
                        }
                        let mut buf = MoveBuf::new();
                        gen_moves(k, &mut buf);
                        for &m in buf.as_slice() {
                            if is_lion_capture(k, m) {
                                continue;
                            }
                            let (ne, new) = set.insert(entry_for(child(k, m), e & 3));
                            added += new as usize;
                            if ne != 0 {
                                out.push(ne);
                            }
                        }
                        (out, added)
                    },
                )
                .reduce(
                    || (Vec::new(), 0),
                    |(mut a, x), (b, y)| {
                        a.extend(b);
                        (a, x + y)
                    },
                );
            count += added;
            next.extend(found);
        }
        // Merge duplicate keys (both orientations found in one level) so that a position
        // is expanded once per level.
        next.par_sort_unstable();
        next.dedup_by(|later, kept| {
            let same = *later >> 2 == *kept >> 2;
            if same {
                *kept |= *later & 3;
            }
            same
        });
        pb.set_length(count as u64);
        pb.set_position(count as u64);
        pb.set_message(format!("level {levels}, frontier {}", next.len()));
        log(opts, format_args!("enumerate: level {levels}, {count} positions, frontier {}", next.len()));
        frontier = next;
    }
    pb.finish();
    let entries: Vec<u64> = set.entries().collect();
    debug_assert_eq!(entries.len(), count);
    (entries, levels)
}

fn grow(set: &Set) -> Set {
    let bits = 64 - set.shift + 1;
    let bigger = Set::with_bits(bits);
    set.entries().for_each(|e| {
        bigger.insert(e);
    });
    bigger
}

// ---------------------------------------------------------------------------------------
// Phase 2: index.

fn index(entries: Vec<u64>, opts: &BuildOptions) -> (Vec<u64>, Vec<u32>, Vec<u16>) {
    let pb = bar(opts, 3, "index");
    let mut pairs = huge_capacity(entries.len());
    entries.into_par_iter().map(|e| (index_hash(e >> 2), e >> 2)).collect_into_vec(&mut pairs);
    pb.inc(1);
    pairs.par_sort_unstable();
    pb.inc(1);
    let mut keys = huge_capacity(pairs.len());
    pairs.par_iter().map(|p| p.1).collect_into_vec(&mut keys);
    let mut suffixes = huge_capacity(pairs.len());
    pairs.par_iter().map(|p| (p.0 & 0xFFFF) as u16).collect_into_vec(&mut suffixes);
    let mut buckets = vec![0u32; NUM_BUCKETS + 1];
    for p in &pairs {
        buckets[(p.0 >> SUFFIX_BITS) as usize + 1] += 1;
    }
    for b in 1..buckets.len() {
        buckets[b] += buckets[b - 1];
    }
    pb.inc(1);
    pb.finish();
    (keys, buckets, suffixes)
}

// ---------------------------------------------------------------------------------------
// Phase 3: init.

fn enc(v: Value) -> u8 {
    v.to_byte().expect("distance fits in a byte")
}

fn init(keys: &[u64], values: &[AtomicU8], counters: &[AtomicU8], opts: &BuildOptions) -> (Vec<u32>, Vec<u32>) {
    let pb = bar(opts, keys.len() as u64, "init");
    let r = keys
        .par_iter()
        .enumerate()
        .with_min_len(1 << 12)
        .fold(
            || (Vec::new(), Vec::new(), 0u64),
            |(mut l0, mut l1, mut done), (i, &k)| {
                match status(k) {
                    Status::MoverWon(_) => {
                        values[i].store(enc(Value::Win(0)), Relaxed);
                        l0.push(i as u32);
                    }
                    Status::MoverLost(_) => {
                        values[i].store(enc(Value::Loss(0)), Relaxed);
                        l0.push(i as u32);
                    }
                    Status::Ongoing if can_capture_lion(k) => {
                        values[i].store(enc(Value::Win(1)), Relaxed);
                        l1.push(i as u32);
                    }
                    Status::Ongoing => {
                        let mut buf = MoveBuf::new();
                        gen_moves(k, &mut buf);
                        let mut kids = [0u64; 96];
                        let mut len = 0;
                        for &m in buf.as_slice() {
                            kids[len] = canon(child(k, m));
                            len += 1;
                        }
                        let kids = &mut kids[..len];
                        kids.sort_unstable();
                        let distinct = 1 + kids.windows(2).filter(|w| w[0] != w[1]).count();
                        counters[i].store(distinct as u8, Relaxed);
                    }
                }
                done += 1;
                if done & 0xFFFF == 0 {
                    pb.inc(0x10000);
                }
                (l0, l1, done)
            },
        )
        .map(|(a, b, _)| (a, b))
        .reduce(
            || (Vec::new(), Vec::new()),
            |(mut a, mut b), (c, d)| {
                a.extend(c);
                b.extend(d);
                (a, b)
            },
        );
    pb.finish();
    r
}

// ---------------------------------------------------------------------------------------
// Phase 4: retrograde.

fn retrograde(
    keys: &[u64],
    view: View<'_>,
    values: &[AtomicU8],
    counters: &[AtomicU8],
    level0: Vec<u32>,
    mut level1: Vec<u32>,
    opts: &BuildOptions,
) -> u32 {
    let pb = bar(opts, keys.len() as u64, "retrograde");
    pb.inc((level0.len() + level1.len()) as u64);
    let mut current = level0;
    let mut d: u16 = 0;
    while !current.is_empty() || !level1.is_empty() {
        let next: Vec<u32> = current
            .par_iter()
            .with_min_len(256)
            .fold(
                || (Vec::new(), Vec::with_capacity(512), Vec::with_capacity(512)),
                |(mut out, mut preds, mut found): (Vec<u32>, Vec<u64>, Vec<Option<usize>>), &i| {
                    let k = keys[i as usize];
                    let loss = matches!(Value::from_byte(values[i as usize].load(Relaxed)), Value::Loss(_));
                    preds.clear();
                    // The mirror image's predecessors are the mirror images of these, so
                    // after normalization one side suffices.
                    unmoves(k, &mut preds);
                    for p in preds.iter_mut() {
                        *p = canon(*p);
                    }
                    preds.sort_unstable();
                    preds.dedup();
                    for p in preds.iter_mut() {
                        *p = index_hash(*p);
                    }
                    view.find_batch(&preds, &mut found);
                    for &j in found.iter().flatten() {
                        super::prefetch(&values[j]);
                    }
                    for &j in found.iter().flatten() {
                        if values[j].load(Relaxed) != UNSETTLED {
                            continue;
                        }
                        if loss {
                            let win = enc(Value::Win(d + 1));
                            if values[j].compare_exchange(UNSETTLED, win, Relaxed, Relaxed).is_ok() {
                                out.push(j as u32);
                            }
                        } else if counters[j].fetch_sub(1, Relaxed) == 1 {
                            values[j].store(enc(Value::Loss(d + 1)), Relaxed);
                            out.push(j as u32);
                        }
                    }
                    (out, preds, found)
                },
            )
            .map(|(out, _, _)| out)
            .reduce(Vec::new, |mut a, b| {
                a.extend(b);
                a
            });
        pb.inc(next.len() as u64);
        pb.set_message(format!("distance {}", d + 1));
        log(opts, format_args!("retrograde: distance {}, {} settled", d + 1, next.len()));
        current = next;
        if d == 0 {
            current.append(&mut level1);
        }
        d += 1;
    }
    pb.finish();
    d as u32
}
