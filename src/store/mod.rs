//! Postgres storage through sqlx: games, their moves, per-server settings, reminders, a
//! player's or a departed server's data on request, and the servers the commands were
//! registered to.
//!
//! Every state change is one transaction guarded by the game's `version`, so two moves arriving
//! together can never both apply; the database itself enforces one active game per channel.
//! Fixed queries are checked when the crate is built (`sqlx::query!`) against the query data in
//! `.sqlx/` (refreshed by `scripts/sqlx-prepare.sh`), so building needs no database. The twelve
//! queries built at run time (their column lists made from one list in code: the game's
//! columns with its moves' join, the settings) are counted and each run against the schema,
//! with rows to decode, by `tests/store.rs`'s
//! `every_query_built_at_run_time_runs_against_the_schema`. A game's moves are stored once, in
//! `moves` (docs/design/storage.md#one-record-of-the-moves).

mod batch;
mod command_guilds;
mod games;
mod opening;
mod players_data;
mod reminders;
mod rows;
mod settings;

use std::str::FromStr;
use std::time::Duration;

use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{PgPool, Postgres};

pub use batch::{Batch, CorruptGame};
pub use opening::{OpenError, Refusal, OPEN_TIMEOUT};

/// Migrations embedded at build time, applied at startup.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// What can go wrong talking to the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The channel already has an active game.
    #[error("this channel already has a game in progress")]
    ChannelBusy,
    /// The game changed since it was read (someone else moved first).
    #[error("the game changed while this move was being made")]
    Conflict,
    /// A stored game cannot be trusted (its position or level does not read back).
    #[error("stored game {game_id} is corrupt: {reason}")]
    Corrupt {
        /// The game's id.
        game_id: i64,
        /// What failed to read back.
        reason: String,
    },
    /// The database is unreachable or returned an error.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Migrations failed.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// A handle on the database; cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    pool: PgPool,
}

impl Store {
    /// Connects to `url`, creating the database if it does not exist, and applies migrations.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        if !Postgres::database_exists(url).await? {
            tracing::info!("creating database");
            Postgres::create_database(url).await?;
        }
        let options = PgConnectOptions::from_str(url)?;
        let pool = PgPoolOptions::new()
            .max_connections(16)
            // A dead database should fail a request within seconds, not hang it; a busy pool
            // (a burst of players) only delays it: the interaction is acknowledged meanwhile.
            .acquire_timeout(Duration::from_secs(5))
            .connect_with(options)
            .await?;
        let store = Store { pool };
        store.migrate().await?;
        Ok(store)
    }

    /// Wraps an existing pool (tests get one per test from `#[sqlx::test]`).
    pub fn from_pool(pool: PgPool) -> Store {
        Store { pool }
    }

    /// Applies pending migrations.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        MIGRATOR.run(&self.pool).await?;
        Ok(())
    }

    /// Whether the database answers now (a readiness check: one round trip).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// The underlying pool.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

#[cfg(test)]
mod tests {
    use settai_core::{GameKind, Level};

    #[test]
    fn every_level_belongs_to_the_game_that_offers_it() {
        for kind in GameKind::ALL {
            for level in Level::for_kind(kind) {
                assert_eq!(level.kind(), kind);
            }
        }
    }
}
