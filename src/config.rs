//! Configuration from the environment (and `.env`, loaded by the CLI through `dotenvy`).

use std::path::PathBuf;

/// Where the bot connects when `DATABASE_URL` is not set: the local cluster, trust auth.
pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@localhost:5432/settai";

/// Settings every command shares.
#[derive(Debug, Clone)]
pub struct Config {
    /// Postgres connection string.
    pub database_url: String,
    /// The bot token, if any (only `serve` needs it).
    pub discord_token: Option<String>,
    /// Register commands to this guild only (instant during development).
    pub discord_guild_id: Option<u64>,
    /// Base URL replacing `https://discord.com` (tests point it at the local stand-in).
    pub discord_api_base: Option<String>,
    /// Where generated data (tables, caches) lives.
    pub data_dir: PathBuf,
}

/// A configuration value that is present but unusable.
#[derive(Debug, thiserror::Error)]
#[error("{name} is set to {value:?}, which is not {expected}")]
pub struct ConfigError {
    name: &'static str,
    value: String,
    expected: &'static str,
}

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Config, ConfigError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let discord_guild_id = match var("DISCORD_GUILD_ID") {
            None => None,
            Some(v) => Some(v.trim().parse().map_err(|_| ConfigError {
                name: "DISCORD_GUILD_ID",
                value: v,
                expected: "a numeric server id",
            })?),
        };
        Ok(Config {
            database_url: var("DATABASE_URL").unwrap_or_else(|| DEFAULT_DATABASE_URL.to_string()),
            discord_token: var("DISCORD_TOKEN"),
            discord_guild_id,
            discord_api_base: var("DISCORD_API_BASE"),
            data_dir: var("SETTAI_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("data")),
        })
    }
}
