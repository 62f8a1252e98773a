//! The bounded pool the bot's CPU-heavy thinking runs on, off the async runtime, and the
//! thinker each of its threads keeps between requests. Who goes next, and who is refused, is
//! the fair queue's (`fair_queue.rs`, docs/design/operations.md#fairness).

mod fair_queue;

use std::cell::RefCell;
use std::sync::{Arc, Mutex, MutexGuard};

use settai_core::Thinker;

use super::priority;
use fair_queue::{share_of, FairQueue};
pub(super) use fair_queue::{Refusal, Tenant};

/// Requests each core may have waiting for (or running) an AI search before new moves are
/// refused as busy: at the bot's 0.8-2.4 s a search, about half a minute of work per core.
pub const BACKLOG_PER_CORE: usize = 16;

/// The bounded pool CPU-heavy AI work runs on: `slots` threads of its own at a lower CPU
/// priority than the rest of the process, so that acknowledging interactions, the gateway
/// heartbeat, database work and board rendering go first when the machine is busy; and a queue
/// of the requests waiting or running, fair between tenants, so that overload is refused up
/// front and one server's flood neither holds the pool nor delays the others' moves.
#[derive(Clone)]
pub(super) struct AiPool {
    threads: Arc<rayon::ThreadPool>,
    queue: Arc<Mutex<FairQueue<Job>>>,
    backlog: usize,
    share: usize,
}

/// A request's work as queued: it answers its waiter (and catches its own panic) by itself.
type Job = Box<dyn FnOnce() + Send>;

/// How much nicer than the rest of the process the AI threads are (Linux: per thread).
const AI_NICENESS: i32 = 10;

/// An AI task that panicked (the bug is logged with its message where it happened).
#[derive(Debug, Clone, thiserror::Error)]
#[error("an AI task panicked")]
pub struct AiPanicked;

/// The queue, even if a thread panicked holding it (it is left consistent at every step).
fn lock(queue: &Mutex<FairQueue<Job>>) -> MutexGuard<'_, FairQueue<Job>> {
    queue.lock().unwrap_or_else(|e| e.into_inner())
}

/// What one task on an AI thread does: the next request the fair queue gives, then counts it
/// done. There is one task per request queued, so every request is taken exactly once, but not
/// necessarily by the task its own arrival started.
fn serve_next(queue: &Mutex<FairQueue<Job>>) {
    let Some((tenant, job)) = lock(queue).pop() else { return };
    job();
    lock(queue).done(tenant);
}

impl AiPool {
    /// A pool of `slots` threads holding at most `backlog` requests waiting or running, and at
    /// most a share of them per tenant ([`share_of`]).
    pub(super) fn new(slots: usize, backlog: usize) -> AiPool {
        let threads = rayon::ThreadPoolBuilder::new()
            .num_threads(slots.max(1))
            .thread_name(|i| format!("settai-ai-{i}"))
            .start_handler(|_| priority::lower_priority(AI_NICENESS))
            .build()
            .expect("the AI threads can be started");
        let share = share_of(slots.max(1), backlog);
        AiPool { threads: Arc::new(threads), queue: Arc::default(), backlog, share }
    }

    /// Whether the pool holds its whole backlog, so that any new request is turned away.
    pub(super) fn is_full(&self) -> bool {
        self.in_flight() >= self.backlog
    }

    /// Whether a new request of `tenant` is admitted now; why not if it is not.
    pub(super) fn admits(&self, tenant: Tenant) -> Result<(), Refusal> {
        lock(&self.queue).admits(tenant, self.backlog, self.share)
    }

    /// The requests waiting or running now (the queue's depth, as the host sees it).
    pub(super) fn in_flight(&self) -> usize {
        lock(&self.queue).held()
    }

    /// Queues `job` in `tenant`'s line and starts a task on the AI threads to take the next
    /// request fairly (docs/design/operations.md#fairness).
    fn submit(&self, tenant: Tenant, job: Job) {
        lock(&self.queue).push(tenant, job);
        let queue = self.queue.clone();
        self.threads.spawn_fifo(move || serve_next(&queue));
    }

    /// Runs `work` for `tenant` on an AI thread, when the fair queue gives it its turn, and
    /// waits for its result. Admission is asked before ([`AiPool::admits`]): a request here is
    /// always queued. Work no one waits for any more (the request was dropped) is skipped.
    pub(super) async fn run<T: Send + 'static>(
        &self,
        tenant: Tenant,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AiPanicked> {
        let (done, result) = tokio::sync::oneshot::channel();
        // The request's span goes with the work, so that what it logs on the AI thread is
        // the request's (docs/design/operations.md#traces).
        let span = tracing::Span::current();
        self.submit(
            tenant,
            Box::new(move || {
                if done.is_closed() {
                    return;
                }
                let _in_request = span.enter();
                let _ = done.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
            }),
        );
        match result.await {
            Ok(Ok(out)) => Ok(out),
            _ => Err(AiPanicked),
        }
    }

    /// Runs `work` for `tenant` on an AI thread with that thread's [`Thinker`], kept between
    /// requests.
    pub(super) async fn think<T: Send + 'static>(
        &self,
        tenant: Tenant,
        work: impl FnOnce(&mut Thinker) -> T + Send + 'static,
    ) -> Result<T, AiPanicked> {
        self.run(tenant, move || with_thinker(work)).await
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
    let mut thinker = THINKER.with_borrow_mut(Option::take).unwrap_or_else(|| Thinker::new(std::time::Instant::now));
    let out = work(&mut thinker);
    THINKER.with_borrow_mut(|slot| *slot = Some(thinker));
    out
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    const A: Tenant = Tenant::Server(1);
    const B: Tenant = Tenant::Server(2);

    /// Occupies the pool's next free thread until the returned sender sends (or is dropped);
    /// returns once the job runs.
    fn occupy(pool: &AiPool, tenant: Tenant) -> mpsc::Sender<()> {
        let (started, running) = mpsc::channel();
        let (release, gate) = mpsc::channel::<()>();
        pool.submit(
            tenant,
            Box::new(move || {
                started.send(()).unwrap();
                let _ = gate.recv();
            }),
        );
        running.recv().expect("the blocking job runs");
        release
    }

    /// One thread, busy with a server's search, and twenty more of that server's queued, then
    /// one of another server: the other's runs as soon as the thread is free, then the twenty
    /// in their order (docs/design/operations.md#fairness).
    #[test]
    fn a_quiet_servers_request_runs_before_a_busy_servers_queue() {
        let pool = AiPool::new(1, 64);
        let release = occupy(&pool, A);
        let (ran, order) = mpsc::channel();
        for i in 1..=20 {
            let ran = ran.clone();
            pool.submit(A, Box::new(move || ran.send(('a', i)).unwrap()));
        }
        pool.submit(B, Box::new(move || ran.send(('b', 0)).unwrap()));
        assert_eq!(pool.in_flight(), 22);
        release.send(()).unwrap();
        // Ends when every job has run (and dropped its sender).
        let order: Vec<(char, i32)> = order.iter().collect();
        let expected: Vec<(char, i32)> = std::iter::once(('b', 0)).chain((1..=20).map(|i| ('a', i))).collect();
        assert_eq!(order, expected);
    }

    /// A server holding its share of the backlog is refused, another is admitted; a full pool
    /// refuses everyone.
    #[test]
    fn a_server_past_its_share_is_refused_while_another_is_admitted() {
        let pool = AiPool::new(1, 8);
        assert_eq!(pool.share, 2, "a quarter of the backlog");
        let release = occupy(&pool, A);
        pool.submit(A, Box::new(|| ()));
        assert_eq!(pool.admits(A), Err(Refusal::ServerShare));
        assert_eq!(pool.admits(B), Ok(()));
        assert!(!pool.is_full());
        for tenant in (10..16).map(Tenant::Channel) {
            assert_eq!(pool.admits(tenant), Ok(()));
            pool.submit(tenant, Box::new(|| ()));
        }
        assert!(pool.is_full());
        assert_eq!(pool.admits(B), Err(Refusal::PoolFull));
        drop(release);
    }

    /// The reasons of refusal are the figures' label values.
    #[test]
    fn the_reasons_are_the_figures_labels() {
        let reasons = [Refusal::PoolFull.as_str(), Refusal::ServerShare.as_str()];
        assert_eq!(reasons, crate::metrics::AI_REFUSAL_REASONS);
    }

    /// A search that panics answers its waiter with the panic, and the pool goes on serving.
    #[tokio::test]
    async fn a_panicking_request_is_answered_and_the_pool_goes_on() {
        let pool = AiPool::new(1, 4);
        assert!(pool.run(A, || -> u8 { panic!("a bug in a search") }).await.is_err());
        assert_eq!(pool.think(A, |_| 2).await.unwrap(), 2);
    }

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
