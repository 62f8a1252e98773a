//! What the host sees of the game flow (docs/design/operations.md#the-figures): the figures
//! only the service can read (the AI pool's queue, the doubutsu table, the database pool and
//! the games in progress), read when a scrape asks, and the moves the AI pool turns away.

use super::ai_pool::Tenant;
use super::table_keeper::TableState;
use super::Service;
use settai_core::GameKind;

impl Service {
    /// Brings the figures read on demand up to date (the AI pool's queue, the doubutsu table,
    /// the database pool and the games in progress) and says whether the database answers:
    /// one statement (docs/design/operations.md#ready).
    pub async fn check(&self) -> Result<(), String> {
        self.figures.set_ai_queue_depth(self.ai.in_flight());
        match self.doubutsu_table.state() {
            TableState::Ready(_) => self.figures.set_table("ready", None),
            TableState::Building { ready_in } => self.figures.set_table("building", Some(ready_in)),
            TableState::Unavailable => self.figures.set_table("unavailable", None),
        }
        let pool = self.store.pool();
        self.figures.set_database_pool(pool.size(), pool.num_idle(), pool.options().get_max_connections());
        let counts = self.store.active_games_by_kind().await.map_err(|e| format!("the database: {e}"))?;
        let counts: Vec<(&'static str, i64)> = GameKind::ALL
            .iter()
            .map(|kind| (kind.as_str(), counts.iter().find(|(k, _)| k == kind.as_str()).map_or(0, |(_, n)| *n)))
            .collect();
        self.figures.set_active_games(&counts);
        Ok(())
    }

    /// Whether a move of `tenant` that needs the AI pool must be refused as busy now: the pool
    /// is full, or the tenant holds its share of it (docs/design/operations.md#fairness).
    /// Counted by reason when it is.
    pub(super) fn ai_refuses(&self, tenant: Tenant) -> bool {
        match self.ai.admits(tenant) {
            Ok(()) => false,
            Err(refusal) => {
                self.figures.ai_refused(refusal.as_str());
                true
            }
        }
    }
}
