//! The Discord shell: slash commands, select menus and board replies over [`crate::service`].
//!
//! Thin by design: it parses interactions, calls the service, renders the board and answers.
//! Every handler loads the game from the database, so a restart loses nothing.

mod commands;
mod handler;

use anyhow::Context as _;
use serenity::all::{Client, ClientBuilder, GatewayIntents, HttpBuilder};

use crate::service::Service;

pub use commands::play_command;

/// How to reach Discord. Its `Debug` output hides the token.
#[derive(Clone)]
pub struct Connection {
    /// The bot token.
    pub token: String,
    /// Register commands to this guild (instant) instead of globally.
    pub guild_id: Option<u64>,
    /// Replaces `https://discord.com` (the tests' local stand-in).
    pub api_base: Option<String>,
    /// How often idle games are looked for and closed ([`IDLE_SWEEP`] in production).
    pub idle_sweep: std::time::Duration,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("token", &"<redacted>")
            .field("guild_id", &self.guild_id)
            .field("api_base", &self.api_base)
            .field("idle_sweep", &self.idle_sweep)
            .finish()
    }
}

/// How often the bot closes games that waited too long for a move.
pub const IDLE_SWEEP: std::time::Duration = std::time::Duration::from_secs(3600);

/// Runs the bot until the gateway connection ends for good.
pub async fn run(connection: Connection, service: Service) -> anyhow::Result<()> {
    let mut client = client(connection, service).await?;
    client.start().await.context("the Discord connection failed")
}

/// The serenity client, ready to start (tests keep its shard manager to stop it).
pub async fn client(connection: Connection, service: Service) -> anyhow::Result<Client> {
    let mut http = HttpBuilder::new(&connection.token);
    if let Some(base) = &connection.api_base {
        // serenity ignores the proxy unless its rate limiter is disabled.
        http = http.proxy(base.trim_end_matches('/')).ratelimiter_disabled(true);
    }
    // No privileged intents: slash commands and components arrive without any.
    ClientBuilder::new_with_http(http.build(), GatewayIntents::GUILDS)
        .event_handler(handler::Bot::new(service, connection.guild_id, connection.idle_sweep))
        .await
        .context("could not create the Discord client")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_does_not_show_in_debug_output() {
        let c =
            Connection { token: "MTIz.secret-token".into(), guild_id: None, api_base: None, idle_sweep: IDLE_SWEEP };
        assert!(!format!("{c:?}").contains("secret-token"));
    }
}
