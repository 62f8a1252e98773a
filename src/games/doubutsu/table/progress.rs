//! What the builder and the reachability pass share besides the index: their settings, how
//! they report progress (an indicatif bar, plain log lines, or counters another thread reads),
//! and their big arrays' allocation.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

/// Builder settings.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Show an indicatif progress bar per phase (on stderr).
    pub progress: bool,
    /// Also print one plain line per level and phase on stderr (for logs).
    pub log: bool,
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

/// One line on stderr per level/phase when `log` is set (for runs without a terminal,
/// where indicatif draws nothing).
pub(super) fn log(opts: &BuildOptions, args: std::fmt::Arguments<'_>) {
    if opts.log {
        eprintln!("{args}");
    }
}

/// A progress bar for one phase, hidden unless `progress` is set.
pub(super) fn bar(opts: &BuildOptions, len: u64, what: &'static str) -> ProgressBar {
    if !opts.progress {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    let style = ProgressStyle::with_template(&format!(
        "{{elapsed_precise:>8}} {what:<11} [{{bar:40}}] {{human_pos}}/{{human_len}} {{msg}} (eta {{eta}})"
    ))
    .expect("valid template")
    .progress_chars("=> ");
    pb.set_style(style);
    pb
}

/// `n` atomic bytes holding `value`, straight from the allocator (lazily zeroed pages: no
/// sequential pass unless `value` is not 0).
pub(super) fn filled_atomic_bytes(n: usize, value: u8) -> Vec<AtomicU8> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u8; n]);
    crate::games::huge_pages::advise_huge_pages(&v);
    if value != 0 {
        v.par_chunks_mut(1 << 20).for_each(|c| c.fill(value));
    }
    // SAFETY: AtomicU8 has the same size, alignment and bit validity as u8.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr() as *mut AtomicU8, v.len(), v.capacity()) }
}

/// `n` zeroed atomic words straight from the allocator.
pub(super) fn zeroed_atomic_words(n: usize) -> Vec<AtomicU64> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u64; n]);
    crate::games::huge_pages::advise_huge_pages(&v);
    // SAFETY: AtomicU64 has the same size, alignment and bit validity as u64.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr() as *mut AtomicU64, v.len(), v.capacity()) }
}
