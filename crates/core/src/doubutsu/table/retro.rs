//! Retrograde analysis in place over the perfect index ([`super::index`]): one value byte
//! per slot, plus one counter byte per slot while the build runs.
//!
//! 1. Init, slot by slot: a hole (the mirror half of a symmetric placement) is skipped; a
//!    position without moves is a loss in 0; one where the lion can be captured, or with an
//!    unanswerable try, a win in 1. Any other position counts its distinct children that
//!    have slots; with none (every move lets the lion be taken) it is a loss in 2.
//! 2. Levels d = 0, 1, 2, ...: every slot settled at distance d is un-moved; its canonical
//!    predecessors that are still open become wins in d + 1 if it is a loss, or lose one
//!    count if it is a win, and a count reaching zero makes a loss in d + 1 (the longest
//!    resistance). A level scans only the blocks of slots the previous level wrote to.
//!    What stays open is a draw.
//! 3. Holes get their mirror image's value, so every slot holds the value of the position it
//!    decodes to.
//!
//! Open slots hold 0, the draw byte, so the value array needs no final pass. Levels run in
//! parallel with atomics; the result is deterministic because a level only writes distance
//! d + 1 and only reads what earlier levels settled (wins are set by the first writer, all
//! of them the same value; a count reaches zero exactly once).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::super::position::{can_capture_lion, child, gen_moves, status, unmoves, MoveBuf, Status};
use super::index::{canonical, Index, Material};
use super::progress::{bar, filled_atomic_bytes, log, BuildOptions};
use super::{ProbeError, Table, Value};
use crate::doubutsu::Position;

/// Slots per block of the level scan.
const BLOCK: usize = 1 << 12;
/// Slots per rayon task of the init pass.
const INIT_CHUNK: usize = 1 << 10;

/// Why a build failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A distance does not fit in the value byte (never seen: the real game's longest is
    /// far below).
    #[error("distance {0} does not fit in a value byte (at most 253)")]
    DistanceOverflow(u32),
}

/// The value of every slot of an [`Index`], held in memory, as [`build`] returns it; write
/// it with the bot's `table_file::write`, read it back as the bot's `TableFile`.
pub struct BuiltTable {
    index: Index,
    values: Vec<u8>,
    /// Retrograde levels run (the longest distance + 1).
    pub levels: u32,
}

impl BuiltTable {
    /// The index the values follow.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// One value byte per slot ([`Value::from_byte`]).
    pub fn values(&self) -> &[u8] {
        &self.values
    }
}

impl Table for BuiltTable {
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        probe_slots(&self.index, &self.values, pos)
    }
}

/// The value of `pos` from a value array laid out by `index`: finished positions and
/// positions where the lion can be captured by the rules, the rest by its slot.
pub(crate) fn probe_slots(index: &Index, values: &[u8], pos: &Position) -> Result<Value, ProbeError> {
    value_of_key(index, values, pos.key()).ok_or_else(|| ProbeError::NotInTable(pos.to_text()))
}

/// [`probe_slots`] on a key: `None` when its material is not the index's.
#[inline]
pub(super) fn value_of_key(index: &Index, values: &[u8], k: u64) -> Option<Value> {
    match status(k) {
        Status::MoverWon(_) => return Some(Value::Win(0)),
        Status::MoverLost(_) => return Some(Value::Loss(0)),
        Status::Ongoing if can_capture_lion(k) => return Some(Value::Win(1)),
        Status::Ongoing => {}
    }
    index.slot(k).map(|s| Value::from_byte(values[s as usize]))
}

#[inline(always)]
fn enc(v: Value) -> u8 {
    v.to_byte().expect("distances are checked against the byte before they are written")
}

/// Builds the table of the real game: every legal position with two giraffes, elephants and
/// chicks besides the lions.
pub fn build_standard(opts: &BuildOptions) -> Result<BuiltTable, SolveError> {
    build(Material::FULL, opts)
}

/// Builds the table of every legal position of `material` (tests use small ones; a
/// position's own is [`Material::of`]).
pub fn build(material: Material, opts: &BuildOptions) -> Result<BuiltTable, SolveError> {
    solve(&Index::new(material), opts)
}

/// Solves every position of `index`'s material.
pub(crate) fn solve(index: &Index, opts: &BuildOptions) -> Result<BuiltTable, SolveError> {
    let n = usize::try_from(index.len()).expect("the index fits in memory");
    if let Some(o) = &opts.observer {
        o.start(index.len());
    }
    let values = filled_atomic_bytes(n, 0);
    let counters = filled_atomic_bytes(n, 0);
    init(index, &values, &counters, opts);
    let levels = retrograde(index, &values, &counters, opts)?;
    drop(counters);
    fill_holes(index, &values);
    let values = std::mem::ManuallyDrop::new(values);
    // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, and `values` is no
    // longer shared.
    let values = unsafe { Vec::from_raw_parts(values.as_ptr() as *mut u8, values.len(), values.capacity()) };
    Ok(BuiltTable { index: index.clone(), values, levels })
}

fn init(index: &Index, values: &[AtomicU8], counters: &[AtomicU8], opts: &BuildOptions) {
    let pb = bar(opts, values.len() as u64, "init");
    values.par_chunks(INIT_CHUNK).zip(counters.par_chunks(INIT_CHUNK)).enumerate().for_each(|(c, (vals, counts))| {
        let base = (c * INIT_CHUNK) as u64;
        let mut buf = MoveBuf::new();
        for (i, (v, count)) in vals.iter().zip(counts).enumerate() {
            let k = index.key(base + i as u64);
            if canonical(k) != Some(k) {
                continue;
            }
            match init_value(index, k, &mut buf) {
                Ok(value) => v.store(enc(value), Relaxed),
                Err(children) => count.store(children, Relaxed),
            }
        }
        pb.inc(vals.len() as u64);
        opts.advance(vals.len() as u64);
    });
    pb.finish();
    log(opts, format_args!("init: {} slots", values.len()));
}

/// A slot's value when the init pass settles it, else its count of distinct children with
/// slots.
fn init_value(index: &Index, k: u64, buf: &mut MoveBuf) -> Result<Value, u8> {
    // A slot's lions leave neither a try nor a captured lion, so the rules only end the
    // game here when the mover has no move.
    if can_capture_lion(k) {
        return Ok(Value::Win(1));
    }
    gen_moves(k, buf);
    if buf.as_slice().is_empty() {
        return Ok(Value::Loss(0));
    }
    let mut kids = [0u64; 96];
    let mut len = 0;
    for &m in buf.as_slice() {
        let c = child(k, m);
        match canonical(c) {
            Some(cc) => {
                kids[len] = index.encode(cc).expect("moves keep the material");
                len += 1;
            }
            // No slot: the rules value the child. Unless the opponent can take the lion
            // (a won child), the move was a try it cannot answer: a win in 1. (A child
            // without moves has a slot, valued at level 0.)
            None if !can_capture_lion(c) => return Ok(Value::Win(1)),
            None => {}
        }
    }
    let kids = &mut kids[..len];
    kids.sort_unstable();
    let distinct = kids.windows(2).filter(|w| w[0] != w[1]).count() + usize::from(len > 0);
    if distinct == 0 {
        return Ok(Value::Loss(2));
    }
    Err(distinct as u8)
}

fn retrograde(
    index: &Index,
    values: &[AtomicU8],
    counters: &[AtomicU8],
    opts: &BuildOptions,
) -> Result<u32, SolveError> {
    let n = values.len();
    let blocks = n.div_ceil(BLOCK);
    let marks: [Vec<AtomicBool>; 2] = std::array::from_fn(|_| (0..blocks).map(|_| AtomicBool::new(false)).collect());
    let pb = bar(opts, n as u64, "retrograde");
    let mut d: u32 = 0;
    loop {
        let code = 2 + d;
        let (cur, next) = (&marks[d as usize % 2], &marks[(d as usize + 1) % 2]);
        // Init settles distances 0, 1 and 2 anywhere; later levels only where the previous
        // level wrote.
        let scan_all = d <= 2;
        let found = AtomicU64::new(0);
        (0..blocks).into_par_iter().for_each_init(
            || (Vec::with_capacity(128), Vec::with_capacity(128)),
            |(raw, preds): &mut (Vec<u64>, Vec<u64>), b| {
                if !cur[b].swap(false, Relaxed) && !scan_all {
                    return;
                }
                let mut here = 0;
                for i in b * BLOCK..((b + 1) * BLOCK).min(n) {
                    if u32::from(values[i].load(Relaxed)) != code {
                        continue;
                    }
                    here += 1;
                    if code == 255 {
                        continue;
                    }
                    raw.clear();
                    unmoves(index.key(i as u64), raw);
                    preds.clear();
                    preds.extend(
                        raw.iter()
                            .filter_map(|&q| canonical(q))
                            .map(|q| index.encode(q).expect("moves keep the material")),
                    );
                    preds.sort_unstable();
                    preds.dedup();
                    for &j in preds.iter() {
                        let j = j as usize;
                        if values[j].load(Relaxed) != 0 {
                            continue;
                        }
                        let settled = if d.is_multiple_of(2) {
                            values[j].compare_exchange(0, code as u8 + 1, Relaxed, Relaxed).is_ok()
                        } else if counters[j].fetch_sub(1, Relaxed) == 1 {
                            values[j].store(code as u8 + 1, Relaxed);
                            true
                        } else {
                            false
                        };
                        if settled {
                            next[j / BLOCK].store(true, Relaxed);
                        }
                    }
                }
                found.fetch_add(here, Relaxed);
            },
        );
        let found = found.into_inner();
        pb.inc(found);
        opts.advance(found);
        pb.set_message(format!("distance {d}"));
        log(opts, format_args!("retrograde: distance {d}, {found} slots"));
        if found > 0 && code == 255 {
            return Err(SolveError::DistanceOverflow(d + 1));
        }
        if found == 0 && d >= 2 {
            break;
        }
        d += 1;
    }
    pb.finish();
    Ok(d)
}

fn fill_holes(index: &Index, values: &[AtomicU8]) {
    values.par_chunks(INIT_CHUNK).enumerate().for_each(|(c, vals)| {
        let base = (c * INIT_CHUNK) as u64;
        for (i, v) in vals.iter().enumerate() {
            let k = index.key(base + i as u64);
            let canon = canonical(k).expect("every slot has a canonical form");
            if canon != k {
                let j = index.encode(canon).expect("canonical keys have slots");
                v.store(values[j as usize].load(Relaxed), Relaxed);
            }
        }
    });
}
