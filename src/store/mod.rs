//! Postgres storage through sqlx: games, their moves and per-server settings.
//!
//! Every state change is one transaction guarded by the game's `version`, so two moves arriving
//! together can never both apply; the database itself enforces one active game per channel.
//! Queries are checked at runtime, so building the crate needs no database.

mod games;

pub use games::{Finish, GameRecord, GameResult, GameStatus, MoveRecord, NewGame, NewMove, Record, DEFAULT_IDLE_DAYS};

use std::str::FromStr;
use std::time::Duration;

use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{PgPool, Postgres};

use crate::games::{GameKind, Level};

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
            // A dead database should fail a request quickly, not hang the interaction.
            .acquire_timeout(Duration::from_secs(3))
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

    /// The underlying pool.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// The level a server chose for `kind`, or the game's default.
    pub async fn guild_level(&self, guild_id: Option<u64>, kind: GameKind) -> Result<Level, StoreError> {
        let Some(guild_id) = guild_id else { return Ok(kind.default_level()) };
        let column = level_column(kind);
        let stored: Option<String> =
            sqlx::query_scalar(&format!("SELECT {column} FROM guild_settings WHERE guild_id = $1"))
                .bind(guild_id as i64)
                .fetch_optional(&self.pool)
                .await?;
        Ok(stored.and_then(|s| Level::parse(kind, &s).ok()).unwrap_or_else(|| kind.default_level()))
    }

    /// Sets the level a server plays `kind` at; running games keep theirs.
    pub async fn set_guild_level(&self, guild_id: u64, kind: GameKind, level: Level) -> Result<(), StoreError> {
        debug_assert!(Level::for_kind(kind).contains(&level));
        let column = level_column(kind);
        sqlx::query(&format!(
            "INSERT INTO guild_settings (guild_id, {column}) VALUES ($1, $2)
             ON CONFLICT (guild_id) DO UPDATE SET {column} = EXCLUDED.{column}, updated_at = now()"
        ))
        .bind(guild_id as i64)
        .bind(level.as_str())
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

impl Store {
    /// Whether a server has the move commentary on (off by default, and in direct messages).
    pub async fn guild_commentary(&self, guild_id: Option<u64>) -> Result<bool, StoreError> {
        let Some(guild_id) = guild_id else { return Ok(false) };
        let stored: Option<bool> = sqlx::query_scalar("SELECT commentary FROM guild_settings WHERE guild_id = $1")
            .bind(guild_id as i64)
            .fetch_optional(&self.pool)
            .await?;
        Ok(stored.unwrap_or(false))
    }

    /// How many days a game on this server may wait for a move.
    pub async fn guild_idle_days(&self, guild_id: Option<u64>) -> Result<u32, StoreError> {
        let Some(guild_id) = guild_id else { return Ok(DEFAULT_IDLE_DAYS) };
        let stored: Option<i32> = sqlx::query_scalar("SELECT idle_days FROM guild_settings WHERE guild_id = $1")
            .bind(guild_id as i64)
            .fetch_optional(&self.pool)
            .await?;
        Ok(stored.map_or(DEFAULT_IDLE_DAYS, |d| d as u32))
    }

    /// Sets how many days (1..=365) a game on this server may wait for a move.
    pub async fn set_guild_idle_days(&self, guild_id: u64, days: u32) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO guild_settings (guild_id, idle_days) VALUES ($1, $2)
             ON CONFLICT (guild_id) DO UPDATE SET idle_days = EXCLUDED.idle_days, updated_at = now()",
        )
        .bind(guild_id as i64)
        .bind(days.clamp(1, 365) as i32)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Turns a server's move commentary on or off (from the next move on).
    pub async fn set_guild_commentary(&self, guild_id: u64, on: bool) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO guild_settings (guild_id, commentary) VALUES ($1, $2)
             ON CONFLICT (guild_id) DO UPDATE SET commentary = EXCLUDED.commentary, updated_at = now()",
        )
        .bind(guild_id as i64)
        .bind(on)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

fn level_column(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Reversi => "reversi_level",
        GameKind::Doubutsu => "doubutsu_level",
    }
}
