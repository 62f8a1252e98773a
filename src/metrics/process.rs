//! The process itself, read at each scrape (docs/design/operations.md#the-figures): resident
//! memory (all of it, and its own without mapped files), threads, open files, and the async runtime's live tasks, so that a host (and the
//! soak benchmark) sees a leak as a slope.

use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

/// Gauges of the process, brought up to date by [`Process::read`].
#[derive(Clone, Default)]
pub(super) struct Process {
    resident_bytes: Gauge,
    anonymous_bytes: Gauge,
    threads: Gauge,
    open_files: Gauge,
    runtime_tasks: Gauge,
}

impl Process {
    /// Registers the gauges (as `settai_process_...` and `settai_runtime_tasks`).
    pub(super) fn register(&self, registry: &mut Registry) {
        registry.register(
            "process_resident_memory_bytes",
            "The process's resident memory (Linux)",
            self.resident_bytes.clone(),
        );
        registry.register(
            "process_resident_anonymous_memory_bytes",
            "The process's resident memory of its own, without mapped files such as the doubutsu table (Linux)",
            self.anonymous_bytes.clone(),
        );
        registry.register("process_threads", "The process's threads (Linux)", self.threads.clone());
        registry.register("process_open_fds", "The process's open file descriptors (Linux)", self.open_files.clone());
        registry.register(
            "runtime_tasks",
            "Tasks alive in the async runtime (its own and the bot's)",
            self.runtime_tasks.clone(),
        );
    }

    /// Reads the figures now. Outside Linux, or outside a runtime, the figures it cannot read
    /// stay at 0.
    pub(super) fn read(&self) {
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            self.runtime_tasks.set(handle.metrics().num_alive_tasks() as i64);
        }
        // One read of the status file serves its three fields.
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        if let Some(kb) = status_field(&status, "VmRSS:") {
            self.resident_bytes.set((kb * 1024) as i64);
        }
        if let Some(kb) = status_field(&status, "RssAnon:") {
            self.anonymous_bytes.set((kb * 1024) as i64);
        }
        if let Some(threads) = status_field(&status, "Threads:") {
            self.threads.set(threads as i64);
        }
        if let Ok(entries) = std::fs::read_dir("/proc/self/fd") {
            self.open_files.set(entries.count() as i64);
        }
    }
}

/// The first number of a field of `/proc/self/status` (its text: `status`).
fn status_field(status: &str, name: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(name))?;
    line[name.len()..].split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_process_reads_itself() {
        let process = Process::default();
        process.read();
        if cfg!(target_os = "linux") {
            assert!(process.resident_bytes.get() > 1 << 20, "at least a MiB resident");
            assert!(process.anonymous_bytes.get() > 0 && process.anonymous_bytes.get() <= process.resident_bytes.get());
            assert!(process.threads.get() >= 1);
            assert!(process.open_files.get() >= 3, "stdin, stdout and stderr at least");
        }
        let before = process.runtime_tasks.get();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let _ = rx.await;
        });
        process.read();
        assert_eq!(process.runtime_tasks.get(), before + 1, "the spawned task is alive");
        tx.send(()).unwrap();
        task.await.unwrap();
    }
}
