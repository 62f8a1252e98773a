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
use crate::i18n::Lang;

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
        let stored: Option<String> = self.guild_setting(guild_id, level_column(kind)).await?;
        Ok(stored.and_then(|s| Level::parse(kind, &s).ok()).unwrap_or_else(|| kind.default_level()))
    }

    /// Sets the level a server plays `kind` at; running games keep theirs.
    pub async fn set_guild_level(&self, guild_id: u64, kind: GameKind, level: Level) -> Result<(), StoreError> {
        debug_assert!(Level::for_kind(kind).contains(&level));
        self.set_guild_setting(guild_id, level_column(kind), level.as_str()).await
    }
}

impl Store {
    /// A server's value of a `guild_settings` column, `None` for servers without settings.
    /// `column` is one of this module's constants, never user input.
    async fn guild_setting<T>(&self, guild_id: Option<u64>, column: &'static str) -> Result<Option<T>, StoreError>
    where
        T: for<'r> sqlx::Decode<'r, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send + Unpin,
    {
        let Some(guild_id) = guild_id else { return Ok(None) };
        Ok(sqlx::query_scalar(&format!("SELECT {column} FROM guild_settings WHERE guild_id = $1"))
            .bind(guild_id as i64)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Sets one `guild_settings` column of a server (see [`Store::guild_setting`]).
    async fn set_guild_setting<T>(&self, guild_id: u64, column: &'static str, value: T) -> Result<(), StoreError>
    where
        T: for<'q> sqlx::Encode<'q, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send,
    {
        sqlx::query(&format!(
            "INSERT INTO guild_settings (guild_id, {column}) VALUES ($1, $2)
             ON CONFLICT (guild_id) DO UPDATE SET {column} = EXCLUDED.{column}, updated_at = now()"
        ))
        .bind(guild_id as i64)
        .bind(value)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Whether a server has the move commentary on (off by default, and in direct messages).
    pub async fn guild_commentary(&self, guild_id: Option<u64>) -> Result<bool, StoreError> {
        Ok(self.guild_setting(guild_id, "commentary").await?.unwrap_or(false))
    }

    /// How many days a game on this server may wait for a move.
    pub async fn guild_idle_days(&self, guild_id: Option<u64>) -> Result<u32, StoreError> {
        Ok(self.guild_setting::<i32>(guild_id, "idle_days").await?.map_or(DEFAULT_IDLE_DAYS, |d| d as u32))
    }

    /// Whether anyone in a channel may move in its game (family team mode; off by default).
    pub async fn guild_team_play(&self, guild_id: Option<u64>) -> Result<bool, StoreError> {
        Ok(self.guild_setting(guild_id, "team_play").await?.unwrap_or(false))
    }

    /// Turns a server's team mode on or off.
    pub async fn set_guild_team_play(&self, guild_id: u64, on: bool) -> Result<(), StoreError> {
        self.set_guild_setting(guild_id, "team_play", on).await
    }

    /// The language a server imposes on every reply, `None` to follow each player's locale.
    pub async fn guild_language(&self, guild_id: Option<u64>) -> Result<Option<Lang>, StoreError> {
        Ok(match self.guild_setting::<String>(guild_id, "language").await?.as_deref() {
            Some("en") => Some(Lang::En),
            Some("ja") => Some(Lang::Ja),
            _ => None,
        })
    }

    /// Sets a server's language (`None`: each player's locale).
    pub async fn set_guild_language(&self, guild_id: u64, lang: Option<Lang>) -> Result<(), StoreError> {
        let code = match lang {
            None => "auto",
            Some(Lang::En) => "en",
            Some(Lang::Ja) => "ja",
        };
        self.set_guild_setting(guild_id, "language", code).await
    }

    /// Sets how many days (1..=365) a game on this server may wait for a move.
    pub async fn set_guild_idle_days(&self, guild_id: u64, days: u32) -> Result<(), StoreError> {
        self.set_guild_setting(guild_id, "idle_days", days.clamp(1, 365) as i32).await
    }

    /// Turns a server's move commentary on or off (from the next move on).
    pub async fn set_guild_commentary(&self, guild_id: u64, on: bool) -> Result<(), StoreError> {
        self.set_guild_setting(guild_id, "commentary", on).await
    }
}

fn level_column(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Reversi => "reversi_level",
        GameKind::Doubutsu => "doubutsu_level",
    }
}
