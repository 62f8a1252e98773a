//! The AI pool's queue, fair between tenants (docs/design/operations.md#fairness): each server
//! (or, outside servers, each channel) waits in a line of its own, a free thread takes the next
//! request of the tenant with the fewest requests running, the one served least recently among
//! equals, and a tenant may hold at most its share of the backlog.

use std::collections::{HashMap, VecDeque};

/// Whose request it is, for fairness: the server, or the channel for a game outside servers
/// (a direct message, the terminal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tenant {
    /// A server (guild) by id: all its channels share its share.
    Server(u64),
    /// A channel outside any server, by id.
    Channel(u64),
}

impl Tenant {
    /// The tenant of a request at `guild_id` (if any) and `channel_id`.
    pub fn of(guild_id: Option<u64>, channel_id: u64) -> Tenant {
        guild_id.map_or(Tenant::Channel(channel_id), Tenant::Server)
    }
}

/// Why a new request is refused as busy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The pool holds its whole backlog.
    PoolFull,
    /// The tenant holds its whole share of the backlog; others are still admitted.
    ServerShare,
}

impl Refusal {
    /// The figures' label value (`settai_ai_refusals_total{reason}`).
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::PoolFull => "pool_full",
            Refusal::ServerShare => "server_share",
        }
    }
}

/// The most requests one tenant may have waiting or running in a pool of `slots` threads and
/// `backlog` requests: a quarter of the backlog, so that no fewer than four busy tenants fill
/// the pool, but at least a request per thread, so that one tenant alone can keep every thread
/// busy (docs/design/operations.md#fairness).
pub fn share_of(slots: usize, backlog: usize) -> usize {
    (backlog / 4).max(slots).min(backlog).max(1)
}

/// What the queue knows of one tenant with requests waiting or running.
struct Line<J> {
    waiting: VecDeque<J>,
    running: usize,
    /// When it was last served (in the queue's count of requests served); 0 for never.
    served_at: u64,
    /// When its line was opened (in the queue's count of lines opened): among tenants never
    /// served, the first come goes first.
    opened_at: u64,
}

/// Requests waiting per tenant, served fairly: see the module's text. `J` is the work.
pub struct FairQueue<J> {
    lines: HashMap<Tenant, Line<J>>,
    /// Requests waiting or running, all tenants together.
    held: usize,
    /// Requests served so far (the clock of `served_at`).
    served: u64,
    /// Lines opened so far (the clock of `opened_at`).
    opened: u64,
}

impl<J> Default for FairQueue<J> {
    fn default() -> FairQueue<J> {
        FairQueue { lines: HashMap::new(), held: 0, served: 0, opened: 0 }
    }
}

impl<J> FairQueue<J> {
    /// Requests waiting or running, all tenants together.
    pub fn held(&self) -> usize {
        self.held
    }

    /// Requests of `tenant` waiting or running.
    pub fn held_by(&self, tenant: Tenant) -> usize {
        self.lines.get(&tenant).map_or(0, |line| line.waiting.len() + line.running)
    }

    /// Whether a new request of `tenant` is admitted with at most `backlog` requests in all and
    /// `share` of one tenant; why not if it is not.
    pub fn admits(&self, tenant: Tenant, backlog: usize, share: usize) -> Result<(), Refusal> {
        if self.held >= backlog {
            Err(Refusal::PoolFull)
        } else if self.held_by(tenant) >= share {
            Err(Refusal::ServerShare)
        } else {
            Ok(())
        }
    }

    /// Puts `job` in `tenant`'s line (admission is asked before, with [`FairQueue::admits`]:
    /// a request admitted is always queued).
    pub fn push(&mut self, tenant: Tenant, job: J) {
        let opened = &mut self.opened;
        let line = self.lines.entry(tenant).or_insert_with(|| {
            *opened += 1;
            Line { waiting: VecDeque::new(), running: 0, served_at: 0, opened_at: *opened }
        });
        line.waiting.push_back(job);
        self.held += 1;
    }

    /// The next request to run, counted as running until [`FairQueue::done`]: from the tenant
    /// with the fewest requests running, the one served least recently among equals (never
    /// served first, in the order they came).
    pub fn pop(&mut self) -> Option<(Tenant, J)> {
        let (&tenant, _) = self
            .lines
            .iter()
            .filter(|(_, line)| !line.waiting.is_empty())
            .min_by_key(|(_, line)| (line.running, line.served_at, line.opened_at))?;
        self.served += 1;
        let line = self.lines.get_mut(&tenant)?;
        line.running += 1;
        line.served_at = self.served;
        let job = line.waiting.pop_front()?;
        Some((tenant, job))
    }

    /// A request of `tenant` that [`FairQueue::pop`] gave has finished.
    pub fn done(&mut self, tenant: Tenant) {
        let Some(line) = self.lines.get_mut(&tenant) else { return };
        line.running = line.running.saturating_sub(1);
        self.held = self.held.saturating_sub(1);
        if line.running == 0 && line.waiting.is_empty() {
            self.lines.remove(&tenant);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Tenant = Tenant::Server(1);
    const B: Tenant = Tenant::Server(2);
    const C: Tenant = Tenant::Channel(3);

    /// Runs what is queued one at a time, in the queue's order: the jobs as they ran.
    fn drain<J>(queue: &mut FairQueue<J>) -> Vec<J> {
        let mut ran = Vec::new();
        while let Some((tenant, job)) = queue.pop() {
            queue.done(tenant);
            ran.push(job);
        }
        ran
    }

    /// A server with twenty requests queued does not make another's one wait behind them: the
    /// other's goes next.
    #[test]
    fn one_request_of_a_quiet_server_goes_before_a_busy_servers_queue() {
        let mut queue = FairQueue::default();
        queue.push(A, 0);
        assert_eq!(queue.pop(), Some((A, 0)), "A's first runs");
        for i in 1..=20 {
            queue.push(A, i);
        }
        queue.push(B, 100);
        queue.done(A);
        assert_eq!(queue.pop(), Some((B, 100)), "B's goes before A's nineteen others");
        queue.done(B);
        assert_eq!(drain(&mut queue), (1..=20).collect::<Vec<_>>(), "A's in their order");
        assert_eq!(queue.held(), 0);
    }

    /// Busy tenants take turns, one request each, and a tenant with fewer requests running
    /// goes first when a thread frees.
    #[test]
    fn busy_tenants_take_turns_and_the_one_with_fewer_running_goes_first() {
        let mut queue = FairQueue::default();
        for i in 0..3 {
            queue.push(A, ('a', i));
            queue.push(B, ('b', i));
            queue.push(C, ('c', i));
        }
        let order: Vec<(char, i32)> = drain(&mut queue);
        let expected: Vec<(char, i32)> = (0..3).flat_map(|i| [('a', i), ('b', i), ('c', i)]).collect();
        assert_eq!(order, expected, "one each per round, the first come first");

        // Fewer running goes first, before who was served less recently: B was served first
        // and has one running, A was served since but has none running: A's goes next.
        queue.push(B, ('b', 0));
        queue.push(B, ('b', 1));
        assert_eq!(queue.pop(), Some((B, ('b', 0))));
        queue.push(A, ('a', 0));
        queue.push(A, ('a', 1));
        assert_eq!(queue.pop(), Some((A, ('a', 0))), "nothing of A's running");
        queue.done(A);
        assert_eq!(queue.pop(), Some((A, ('a', 1))), "A has none running, B one");
        assert_eq!(queue.pop(), Some((B, ('b', 1))));
        assert_eq!((queue.held_by(A), queue.held_by(B)), (1, 2), "all running");
        assert_eq!(queue.pop(), None);
    }

    /// A tenant holding its share is refused while others are admitted; a full pool refuses
    /// everyone; what finishes makes room again.
    #[test]
    fn a_tenant_past_its_share_is_refused_while_others_are_admitted() {
        let (backlog, share) = (6, share_of(1, 8));
        assert_eq!(share, 2);
        let mut queue = FairQueue::default();
        for _ in 0..share {
            assert_eq!(queue.admits(A, backlog, share), Ok(()));
            queue.push(A, ());
        }
        assert_eq!(queue.admits(A, backlog, share), Err(Refusal::ServerShare));
        assert_eq!(queue.admits(B, backlog, share), Ok(()));
        for tenant in [B, B, C, C] {
            queue.push(tenant, ());
        }
        assert_eq!(queue.admits(Tenant::Server(9), backlog, share), Err(Refusal::PoolFull));
        let (tenant, ()) = queue.pop().unwrap();
        queue.done(tenant);
        assert_eq!(queue.admits(tenant, backlog, share), Ok(()), "room again for {tenant:?}");
    }

    #[test]
    fn the_share_is_a_quarter_of_the_backlog_but_at_least_a_request_per_thread() {
        assert_eq!(share_of(2, 32), 8);
        assert_eq!(share_of(4, 8), 4);
        assert_eq!(share_of(1, 1), 1);
        assert_eq!(share_of(3, 2), 2, "never past the backlog");
        assert_eq!(Tenant::of(Some(7), 8), Tenant::Server(7));
        assert_eq!(Tenant::of(None, 8), Tenant::Channel(8));
    }
}
