//! Configuration from the environment (and `.env`, loaded by the CLI through `dotenvy`).

use std::path::PathBuf;

/// Where the bot connects when `DATABASE_URL` is not set: the local cluster, trust auth.
pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@localhost:5432/settai";

/// Settings every command shares. Its `Debug` output hides the token and the database password,
/// so logging a configuration never leaks a secret.
#[derive(Clone)]
pub struct Config {
    /// Postgres connection string.
    pub database_url: String,
    /// The bot token, if any (only `serve` needs it).
    pub discord_token: Option<String>,
    /// Register commands to this guild only (instant during development).
    pub discord_guild_id: Option<u64>,
    /// The application's public key (HTTP interactions mode checks requests against it).
    pub discord_public_key: Option<String>,
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

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("database_url", &redact_url(&self.database_url))
            .field("discord_token", &self.discord_token.as_ref().map(|_| "<redacted>"))
            .field("discord_guild_id", &self.discord_guild_id)
            .field("discord_public_key", &self.discord_public_key)
            .field("discord_api_base", &self.discord_api_base)
            .field("data_dir", &self.data_dir)
            .finish()
    }
}

/// A connection URL without its password, for messages and logs.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let creds = &url[scheme + 3..at];
            let user = creds.split(':').next().unwrap_or("");
            format!("{}{}@{}", &url[..scheme + 3], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
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
            discord_public_key: var("DISCORD_PUBLIC_KEY"),
            discord_api_base: var("DISCORD_API_BASE"),
            data_dir: var("SETTAI_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("data")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_hides_secrets() {
        let config = Config {
            database_url: "postgres://bot:hunter2@db:5432/settai".into(),
            discord_token: Some("MTIz.secret-token".into()),
            discord_guild_id: Some(42),
            discord_public_key: None,
            discord_api_base: None,
            data_dir: PathBuf::from("data"),
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("hunter2") && !shown.contains("secret-token"), "{shown}");
        assert!(shown.contains("postgres://bot@db:5432/settai") && shown.contains("<redacted>"), "{shown}");
    }

    #[test]
    fn redact_url_hides_passwords_only() {
        assert_eq!(redact_url("postgres://u:secret@h:5432/db"), "postgres://u@h:5432/db");
        assert_eq!(redact_url("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact_url("postgres://h/db"), "postgres://h/db");
    }
}
