//! Configuration from the environment (and `.env`, loaded by the CLI through `dotenvy`).

use std::path::PathBuf;

/// Where settai looks for the system's PostgreSQL when `DATABASE_URL` is not set (unless
/// `SETTAI_DEFAULT_DATABASE_URL` says elsewhere); when nothing answers there on the first run,
/// settai keeps a PostgreSQL of its own instead (README: "The database").
pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@localhost:5432/settai";

/// The `.env` file settai reads at start: `SETTAI_ENV_FILE`, else `.env` in the folder settai
/// runs from (never a parent folder's, so the folder is the one the README names). The tests
/// point it at an empty file, so that a developer's `.env` never changes them.
pub fn env_file() -> PathBuf {
    std::env::var_os("SETTAI_ENV_FILE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(".env"))
}

/// How often `serve` sweeps waiting games unless `SETTAI_SWEEP_SECS` says otherwise: reminders
/// are due after hours and idle limits after days, so an hour late is never noticed.
pub const DEFAULT_SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Settings every command shares. Its `Debug` output hides the token and the database password,
/// so logging a configuration never leaks a secret.
#[derive(Clone)]
pub struct Config {
    /// The Postgres connection string set in `DATABASE_URL`, if any: it always wins.
    pub database_url: Option<String>,
    /// Where the system's PostgreSQL is looked for without `DATABASE_URL`
    /// (`SETTAI_DEFAULT_DATABASE_URL`, default [`DEFAULT_DATABASE_URL`]).
    pub default_database_url: String,
    /// The bot token, if any (only `serve` needs it).
    pub discord_token: Option<String>,
    /// Register commands to this guild only (instant during development).
    pub discord_guild_id: Option<u64>,
    /// The application's public key (HTTP interactions mode checks requests against it).
    pub discord_public_key: Option<String>,
    /// Where `https://discord.com` is reached instead, as `https://HOST:PORT` (tests point it at
    /// the local stand-in).
    pub discord_api_base: Option<String>,
    /// The PEM certificate `discord_api_base` shows, the only one trusted there (`DISCORD_API_CA`).
    pub discord_api_ca: Option<PathBuf>,
    /// Where generated data (tables, caches) lives.
    pub data_dir: PathBuf,
    /// Where `serve` answers `/metrics`, `/healthz` and `/readyz` (`SETTAI_METRICS_ADDR`), if
    /// anywhere.
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// How often `serve` sweeps waiting games (reminders, idle closes, departed servers)
    /// (`SETTAI_SWEEP_SECS`, default an hour).
    pub sweep_every: std::time::Duration,
}

/// A configuration value that is present but unusable.
#[derive(Debug, thiserror::Error)]
#[error("{name} is set to {value:?}, which is not {expected}")]
pub struct ConfigError {
    name: &'static str,
    value: String,
    expected: &'static str,
}

/// DISCORD_TOKEN is not shaped like a bot token. Checked before connecting, so that a pasted
/// client secret or public key gets a clear answer rather than a refusal from the gateway; the
/// message never repeats the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("DISCORD_TOKEN {0}; copy the bot token again from https://discord.com/developers/applications -> your app -> Bot -> Reset Token")]
pub struct BadToken(&'static str);

/// Checks that `token` has a bot token's shape: three parts of base64url (letters, digits, `-`,
/// `_`) separated by dots, the first naming the bot's id. Nothing is sent anywhere.
pub fn check_token_shape(token: &str) -> Result<(), BadToken> {
    let token = token.trim();
    if token.len() >= 4 && token[..4].eq_ignore_ascii_case("bot ") {
        return Err(BadToken("starts with `Bot `; put only the token itself in .env"));
    }
    if token.chars().any(|c| c.is_whitespace() || c == '"' || c == '\'') {
        return Err(BadToken("contains spaces or quotes; put only the token itself in .env"));
    }
    if token.len() == 64 && token.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(BadToken("looks like the application's public key (that one goes in DISCORD_PUBLIC_KEY)"));
    }
    if token.len() == 32 && !token.contains('.') {
        return Err(BadToken("looks like the OAuth2 client secret, not the bot token"));
    }
    let parts: Vec<&str> = token.split('.').collect();
    let base64url = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if parts.len() != 3 || !parts.iter().all(|p| base64url(p)) {
        return Err(BadToken(
            "is not shaped like a bot token (three parts of letters, digits, `-` and `_` separated by dots)",
        ));
    }
    Ok(())
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("database_url", &self.database_url.as_deref().map(redact_url))
            .field("default_database_url", &redact_url(&self.default_database_url))
            .field("discord_token", &self.discord_token.as_ref().map(|_| "<redacted>"))
            .field("discord_guild_id", &self.discord_guild_id)
            .field("discord_public_key", &self.discord_public_key)
            .field("discord_api_base", &self.discord_api_base)
            .field("data_dir", &self.data_dir)
            .field("metrics_addr", &self.metrics_addr)
            .field("sweep_every", &self.sweep_every)
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
        let metrics_addr = match var("SETTAI_METRICS_ADDR") {
            None => None,
            Some(v) => Some(v.trim().parse().map_err(|_| ConfigError {
                name: "SETTAI_METRICS_ADDR",
                value: v,
                expected: "an address and port such as 127.0.0.1:9184",
            })?),
        };
        let sweep_every = match var("SETTAI_SWEEP_SECS") {
            None => DEFAULT_SWEEP_EVERY,
            Some(v) => v
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&secs| (1..=86_400).contains(&secs))
                .map(std::time::Duration::from_secs)
                .ok_or(ConfigError { name: "SETTAI_SWEEP_SECS", value: v, expected: "seconds from 1 to 86400" })?,
        };
        Ok(Config {
            metrics_addr,
            sweep_every,
            database_url: var("DATABASE_URL"),
            default_database_url: var("SETTAI_DEFAULT_DATABASE_URL")
                .unwrap_or_else(|| DEFAULT_DATABASE_URL.to_string()),
            discord_token: var("DISCORD_TOKEN"),
            discord_guild_id,
            discord_public_key: var("DISCORD_PUBLIC_KEY"),
            discord_api_base: var("DISCORD_API_BASE"),
            discord_api_ca: var("DISCORD_API_CA").map(PathBuf::from),
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
            database_url: Some("postgres://bot:hunter2@db:5432/settai".into()),
            default_database_url: DEFAULT_DATABASE_URL.into(),
            discord_token: Some("MTIz.secret-token".into()),
            discord_guild_id: Some(42),
            discord_public_key: None,
            discord_api_base: None,
            discord_api_ca: None,
            data_dir: PathBuf::from("data"),
            metrics_addr: None,
            sweep_every: DEFAULT_SWEEP_EVERY,
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("hunter2") && !shown.contains("secret-token"), "{shown}");
        assert!(shown.contains("postgres://bot@db:5432/settai") && shown.contains("<redacted>"), "{shown}");
    }

    #[test]
    fn token_shapes_are_checked_without_repeating_the_token() {
        // The stand-in's token and one shaped like Discord's (id . timestamp . hmac).
        for good in [
            "MTEwMDAwMDAwMDAwMDAwMDAwMQ.standin.bot-token-for-tests-only",
            "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.aBcDeFgHiJkLmNoPqRsTuVwXyZ_0123456789-ab",
            " MTIz.abc.def \n",
        ] {
            assert_eq!(check_token_shape(good), Ok(()), "{good:?}");
        }
        let cases = [
            ("Bot MTIz.abc.def", "Bot "),
            ("\"MTIz.abc.def\"", "quotes"),
            (&"ab12".repeat(16), "public key"),
            ("Zq3xYw8vU1tS0rQ9pO2nM7lK6jI5hG4f", "client secret"),
            ("MTIz.abc", "three parts"),
            ("MTIz.a+c.def", "three parts"),
            ("MTIz..def", "three parts"),
        ];
        for (bad, why) in cases {
            let message = check_token_shape(bad).expect_err(bad).to_string();
            assert!(message.contains(why) && message.starts_with("DISCORD_TOKEN"), "{bad:?}: {message}");
            assert!(!message.contains(bad.trim()), "{message} repeats the token");
        }
    }

    #[test]
    fn redact_url_hides_passwords_only() {
        assert_eq!(redact_url("postgres://u:secret@h:5432/db"), "postgres://u@h:5432/db");
        assert_eq!(redact_url("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact_url("postgres://h/db"), "postgres://h/db");
    }
}
