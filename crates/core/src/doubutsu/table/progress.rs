//! What the builder and the reachability pass share besides the index: their settings, how
//! they report progress (to a [`BuildReport`] the caller gives, such as a terminal's progress
//! bar and log lines, or to counters another thread reads), and their big arrays' allocation.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Arc;

use rayon::prelude::*;

/// Builder settings.
#[derive(Clone, Default)]
pub struct BuildOptions {
    /// Where the phases, their progress and a line per level and phase go (a terminal's
    /// progress bar, a log); nowhere when `None`.
    pub report: Option<Arc<dyn BuildReport>>,
    /// Counters the build advances as it goes, for a caller on another thread (`serve`
    /// builds the table in the background and tells players when it will be ready).
    pub observer: Option<Arc<BuildProgress>>,
}

/// How far a build has come, in work units: one per slot for the init pass and one per slot
/// settled by the retrograde levels, so `total` is twice the slots. Draws are never settled,
/// so a finished build stops short of `total` by the draws (about 1% of the real game's
/// slots); [`BuildProgress::fraction`] is an estimate, not a promise.
#[derive(Debug, Default)]
pub struct BuildProgress {
    done: AtomicU64,
    total: AtomicU64,
}

impl BuildProgress {
    /// The share of the work done, 0.0 before the build has sized itself.
    pub fn fraction(&self) -> f64 {
        let total = self.total.load(Relaxed);
        if total == 0 {
            return 0.0;
        }
        (self.done.load(Relaxed) as f64 / total as f64).min(1.0)
    }

    pub(super) fn start(&self, slots: u64) {
        self.done.store(0, Relaxed);
        self.total.store(2 * slots, Relaxed);
    }

    pub(super) fn advance(&self, units: u64) {
        self.done.fetch_add(units, Relaxed);
    }
}

impl BuildOptions {
    pub(super) fn advance(&self, units: u64) {
        if let Some(o) = &self.observer {
            o.advance(units);
        }
    }
}

/// Where a build reports as it goes. Every method has a silent default; the core itself
/// writes nowhere.
pub trait BuildReport: Send + Sync {
    /// A phase of `len` work units begins (`init`, `retrograde`, `reachable`, `survival`).
    fn begin(&self, _what: &'static str, _len: u64) {}
    /// `units` more of the phase are done.
    fn advance(&self, _units: u64) {}
    /// Where the phase stands (`distance 12`).
    fn message(&self, _text: String) {}
    /// The phase ended; `clear` when nothing of it needs to stay on screen.
    fn end(&self, _clear: bool) {}
    /// One line about a finished level or phase (for logs).
    fn line(&self, _text: String) {}
}

impl std::fmt::Debug for BuildOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildOptions")
            .field("report", &self.report.is_some())
            .field("observer", &self.observer)
            .finish()
    }
}

/// One line about a finished level or phase, to the build's report.
pub(super) fn log(opts: &BuildOptions, args: std::fmt::Arguments<'_>) {
    if let Some(r) = &opts.report {
        r.line(args.to_string());
    }
}

/// A phase of a build, as its report sees it.
pub(super) struct Phase<'a>(Option<&'a dyn BuildReport>);

impl Phase<'_> {
    pub(super) fn inc(&self, units: u64) {
        if let Some(r) = self.0 {
            r.advance(units);
        }
    }

    pub(super) fn set_message(&self, text: String) {
        if let Some(r) = self.0 {
            r.message(text);
        }
    }

    pub(super) fn finish(&self) {
        if let Some(r) = self.0 {
            r.end(false);
        }
    }

    pub(super) fn finish_and_clear(&self) {
        if let Some(r) = self.0 {
            r.end(true);
        }
    }
}

/// Begins a phase of `len` units on the build's report.
pub(super) fn bar<'a>(opts: &'a BuildOptions, len: u64, what: &'static str) -> Phase<'a> {
    let report = opts.report.as_deref();
    if let Some(r) = report {
        r.begin(what, len);
    }
    Phase(report)
}

/// `n` atomic bytes holding `value`, straight from the allocator (lazily zeroed pages: no
/// sequential pass unless `value` is not 0).
pub(super) fn filled_atomic_bytes(n: usize, value: u8) -> Vec<AtomicU8> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u8; n]);
    crate::huge_pages::advise_huge_pages(&v);
    if value != 0 {
        v.par_chunks_mut(1 << 20).for_each(|c| c.fill(value));
    }
    // SAFETY: AtomicU8 has the same size, alignment and bit validity as u8.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr() as *mut AtomicU8, v.len(), v.capacity()) }
}

/// `n` zeroed atomic words straight from the allocator.
pub(super) fn zeroed_atomic_words(n: usize) -> Vec<AtomicU64> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u64; n]);
    crate::huge_pages::advise_huge_pages(&v);
    // SAFETY: AtomicU64 has the same size, alignment and bit validity as u64.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr() as *mut AtomicU64, v.len(), v.capacity()) }
}
