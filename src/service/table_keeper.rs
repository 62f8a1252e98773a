//! The doubutsu table as the running bot keeps it: opened at start, or, when the file is
//! missing or unusable, built in the background while the bot already plays everything else,
//! with an estimate of when it will be ready that players are told.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use settai_core::doubutsu::table::{build, BuildOptions, BuildProgress, Material};

use crate::table_file::{TableError, TableFile};

/// On-CPU seconds the real game's build needs on this project's machines (measured: 262 s;
/// docs/design/doubutsu-levels.md#without-the-table), the basis of the estimate before the build's
/// own progress tells better.
const FULL_BUILD_CPU_SECONDS: f64 = 270.0;

/// How much nicer than the rest of the process the build's threads are: the lowest priority,
/// so that the gateway, the database and the AI replies never wait for the build.
const BUILD_NICENESS: i32 = 19;

/// Where the table stands.
#[derive(Debug, Clone)]
pub enum TableState {
    /// Open and ready to probe.
    Ready(Arc<TableFile>),
    /// Being built; expected ready in about this long.
    Building {
        /// The estimate of the time left.
        ready_in: Duration,
    },
    /// Neither open nor being built (the build failed, or nobody started one).
    Unavailable,
}

/// The table the service reads: set once, when it is open.
#[derive(Debug, Default)]
pub struct TableKeeper {
    table: OnceLock<Arc<TableFile>>,
    building: Mutex<Option<Building>>,
    ready: tokio::sync::Notify,
}

#[derive(Debug)]
struct Building {
    started: Instant,
    progress: Arc<BuildProgress>,
    expected: Duration,
}

impl TableKeeper {
    /// A keeper with `table` ready (or none, and nothing being built).
    pub fn with(table: Option<Arc<TableFile>>) -> Arc<TableKeeper> {
        let keeper = TableKeeper::default();
        if let Some(t) = table {
            let _ = keeper.table.set(t);
        }
        Arc::new(keeper)
    }

    /// Opens the table at `path`; if it is missing, truncated, corrupt or of an older format,
    /// builds the table of `material` there on background threads (logging its progress) and
    /// serves it once written. Anything else (the file cannot be read) is logged and the
    /// table stays unavailable.
    pub fn open_or_build(path: &Path, material: Material) -> Arc<TableKeeper> {
        TableKeeper::open_or_build_after(path, material, || {})
    }

    /// [`TableKeeper::open_or_build`], with a build that starts only once `gate` returns (on
    /// the build's thread): a test holds the build there to see the bot while it waits.
    pub fn open_or_build_after(
        path: &Path,
        material: Material,
        gate: impl FnOnce() + Send + 'static,
    ) -> Arc<TableKeeper> {
        let keeper = TableKeeper::with(None);
        match TableFile::open(path) {
            Ok(t) => {
                tracing::info!("doubutsu table ready ({})", path.display());
                let _ = keeper.table.set(Arc::new(t));
            }
            Err(e @ TableError::Io { .. }) => {
                tracing::warn!(
                    "{e}; doubutsu games at the settai and strongest levels are refused until it can be read"
                );
            }
            Err(e) => {
                tracing::warn!("{e}; building it now in the background (the other games play meanwhile)");
                keeper.clone().build_in_background(path.to_path_buf(), material, gate);
            }
        }
        keeper
    }

    /// The table, once it is open.
    pub fn get(&self) -> Option<Arc<TableFile>> {
        self.table.get().cloned()
    }

    /// Where the table stands, with an estimate while it is being built.
    pub fn state(&self) -> TableState {
        if let Some(t) = self.get() {
            return TableState::Ready(t);
        }
        let building = self.building.lock().expect("the keeper's lock is never poisoned");
        match &*building {
            Some(b) => TableState::Building { ready_in: b.ready_in() },
            None => TableState::Unavailable,
        }
    }

    /// Resolves once the table is open (true) or no build is left that could open it
    /// (false), at once if either holds already.
    pub async fn wait_ready(&self) -> bool {
        loop {
            let notified = self.ready.notified();
            if self.table.get().is_some() {
                return true;
            }
            if self.building.lock().expect("the keeper's lock is never poisoned").is_none() {
                return false;
            }
            notified.await;
        }
    }

    fn build_in_background(
        self: Arc<TableKeeper>,
        path: PathBuf,
        material: Material,
        gate: impl FnOnce() + Send + 'static,
    ) {
        let progress = Arc::new(BuildProgress::default());
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as f64;
        let slots = settai_core::doubutsu::table::Index::new(material).len() as f64;
        let full = settai_core::doubutsu::table::Index::new(Material::FULL).len() as f64;
        let expected = Duration::from_secs_f64(FULL_BUILD_CPU_SECONDS * slots / full / cores);
        *self.building.lock().expect("the keeper's lock is never poisoned") =
            Some(Building { started: Instant::now(), progress: progress.clone(), expected });
        let spawned = std::thread::Builder::new().name("settai-table-build".into()).spawn(move || {
            gate();
            match self.build_and_open(&path, material, progress) {
                Ok(t) => {
                    tracing::info!("doubutsu table built and ready ({})", path.display());
                    let _ = self.table.set(Arc::new(t));
                }
                Err(e) => tracing::error!("could not build the doubutsu table: {e:#}"),
            }
            *self.building.lock().expect("the keeper's lock is never poisoned") = None;
            self.ready.notify_waiters();
        });
        if let Err(e) = spawned {
            tracing::error!("could not start the doubutsu table build: {e}");
        }
    }

    fn build_and_open(
        &self,
        path: &Path,
        material: Material,
        progress: Arc<BuildProgress>,
    ) -> anyhow::Result<TableFile> {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("settai-table-{i}"))
            .start_handler(|_| super::priority::lower_priority(BUILD_NICENESS))
            .build()?;
        // A log line per tenth of the work, with the estimate, for whoever watches the logs.
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let logger = {
            let (progress, done) = (progress.clone(), done.clone());
            let started = Instant::now();
            std::thread::Builder::new().name("settai-table-log".into()).spawn(move || {
                let mut next_tenth = 1;
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    let f = progress.fraction();
                    if next_tenth < 10 && f * 10.0 >= next_tenth as f64 {
                        let left = estimate_left(started.elapsed(), f, Duration::ZERO);
                        tracing::info!(
                            "doubutsu table: {}% built, about {} min left",
                            (f * 100.0) as u32,
                            left.as_secs().div_ceil(60)
                        );
                        next_tenth = (f * 10.0) as u32 + 1;
                    }
                }
            })?
        };
        let opts = BuildOptions { report: None, observer: Some(progress) };
        let built = pool.install(|| build(material, &opts));
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        let _ = logger.join();
        let table = built?;
        crate::table_file::write(&table, path)?;
        drop(table);
        Ok(TableFile::open(path)?)
    }
}

impl Building {
    fn ready_in(&self) -> Duration {
        estimate_left(
            self.started.elapsed(),
            self.progress.fraction(),
            self.expected.saturating_sub(self.started.elapsed()),
        )
    }
}

/// The time left of a build `fraction` done after `elapsed`: extrapolated from its own pace
/// once it has done a few percent, else `fallback` (the machine-size estimate).
fn estimate_left(elapsed: Duration, fraction: f64, fallback: Duration) -> Duration {
    if fraction < 0.03 {
        return fallback;
    }
    elapsed.mul_f64((1.0 - fraction) / fraction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_follows_the_pace_once_known() {
        let fallback = Duration::from_secs(240);
        assert_eq!(estimate_left(Duration::from_secs(5), 0.0, fallback), fallback);
        assert_eq!(estimate_left(Duration::from_secs(5), 0.01, fallback), fallback);
        assert_eq!(estimate_left(Duration::from_secs(60), 0.25, fallback), Duration::from_secs(180));
        assert_eq!(estimate_left(Duration::from_secs(60), 1.0, fallback), Duration::ZERO);
    }
}
