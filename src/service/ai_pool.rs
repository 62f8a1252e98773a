//! The bounded pool the bot's CPU-heavy thinking runs on, off the async runtime, and the
//! thinker each of its threads keeps between requests.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use settai_core::Thinker;

use super::priority;

/// Requests each core may have waiting for (or running) an AI search before new moves are
/// refused as busy: at the bot's 0.8-2.4 s a search, about half a minute of work per core.
pub const BACKLOG_PER_CORE: usize = 16;

/// The bounded pool CPU-heavy AI work runs on: `slots` threads of its own at a lower CPU
/// priority than the rest of the process, so that acknowledging interactions, the gateway
/// heartbeat, database work and board rendering go first when the machine is busy; and a count
/// of the requests waiting or running, so that overload is refused up front.
#[derive(Clone)]
pub(super) struct AiPool {
    threads: Arc<rayon::ThreadPool>,
    in_flight: Arc<AtomicUsize>,
    backlog: usize,
}

/// How much nicer than the rest of the process the AI threads are (Linux: per thread).
const AI_NICENESS: i32 = 10;

/// An AI task that panicked (the bug is logged with its message where it happened).
#[derive(Debug, Clone, thiserror::Error)]
#[error("an AI task panicked")]
pub struct AiPanicked;

/// Counts a request in the pool for as long as it lives.
struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl AiPool {
    pub(super) fn new(slots: usize, backlog: usize) -> AiPool {
        let threads = rayon::ThreadPoolBuilder::new()
            .num_threads(slots.max(1))
            .thread_name(|i| format!("settai-ai-{i}"))
            .start_handler(|_| priority::lower_priority(AI_NICENESS))
            .build()
            .expect("the AI threads can be started");
        AiPool { threads: Arc::new(threads), in_flight: Arc::default(), backlog }
    }

    /// Whether a new request should be turned away.
    pub(super) fn is_full(&self) -> bool {
        self.in_flight() >= self.backlog
    }

    /// The requests waiting or running now (the queue's depth, as the host sees it).
    pub(super) fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    /// Runs `work` on an AI thread (in order of arrival) and waits for its result.
    pub(super) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AiPanicked> {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        let _counted = InFlight(self.in_flight.clone());
        let (done, result) = tokio::sync::oneshot::channel();
        // The request's span goes with the work, so that what it logs on the AI thread is
        // the request's (docs/design/operations.md#traces).
        let span = tracing::Span::current();
        self.threads.spawn_fifo(move || {
            let _in_request = span.enter();
            let _ = done.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
        });
        match result.await {
            Ok(Ok(out)) => Ok(out),
            _ => Err(AiPanicked),
        }
    }

    /// Runs `work` on an AI thread with that thread's [`Thinker`], kept between requests.
    pub(super) async fn think<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Thinker) -> T + Send + 'static,
    ) -> Result<T, AiPanicked> {
        self.run(move || with_thinker(work)).await
    }
}

thread_local! {
    /// The thinker of an AI thread, kept between requests: its reversi table is allocated and
    /// first touched once per thread instead of once per reply.
    static THINKER: RefCell<Option<Thinker>> = const { RefCell::new(None) };
}

/// Runs `work` with this thread's [`THINKER`] (made on first use). It is taken out meanwhile,
/// so a panic in `work` drops it instead of keeping a half-updated one.
fn with_thinker<T>(work: impl FnOnce(&mut Thinker) -> T) -> T {
    let mut thinker = THINKER.with_borrow_mut(Option::take).unwrap_or_default();
    let out = work(&mut thinker);
    THINKER.with_borrow_mut(|slot| *slot = Some(thinker));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread keeps its thinker between requests, but not one whose request panicked: that
    /// one may hold a half-updated search, so the next request gets a fresh one.
    #[test]
    fn a_thread_keeps_its_thinker_but_not_one_whose_work_panicked() {
        std::thread::spawn(|| {
            let engine_made = |t: &mut Thinker| format!("{t:?}").contains("reversi: true");
            assert!(!with_thinker(|t| engine_made(t)), "a new thread's thinker has made nothing");
            with_thinker(|t| {
                t.reversi();
            });
            assert!(with_thinker(|t| engine_made(t)), "kept between requests");
            let panicked = std::panic::catch_unwind(|| with_thinker(|_| panic!("a bug in a search")));
            assert!(panicked.is_err());
            assert!(!with_thinker(|t| engine_made(t)), "a fresh thinker after the panic");
        })
        .join()
        .unwrap();
    }
}
