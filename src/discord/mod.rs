//! The Discord shell: slash commands, select menus and board replies over [`crate::service`].
//!
//! Thin by design: it parses interactions, calls the service, renders the board and answers.
//! Every handler loads the game from the database, so a restart loses nothing.

mod app_emojis;
mod board_message;
mod board_posts;
mod callers;
mod calls;
mod channel_pace;
mod channel_posts;
mod child_answers;
mod command;
mod command_guilds;
mod component;
mod custom_id;
pub mod endpoint;
mod failure;
mod flows;
mod forget_me;
mod game_box;
mod handler;
mod help;
mod interaction_clients;
mod menus;
mod message;
mod observed;
mod readiness;
mod registration;
mod reminders;
mod reply;
mod request;
mod settings;
mod shards;
mod shell;
mod starts;
mod sweeps;
mod takeback;
mod tapping;
mod touch_board;

use anyhow::Context as _;
use serenity::all::{Client, ClientBuilder, GatewayIntents, Http, HttpBuilder};

use crate::service::Service;

pub use app_emojis::tile_name;
pub use channel_pace::LIVELY_FROM;
pub use command::{Command, CommandError, PlaySub, SettingsRequest, SettingsSub};
pub use interaction_clients::InteractionClients;
pub use observed::interaction_span;
pub use registration::{play_command, settings_command};
pub use shards::{BadShardRange, ShardRange};

/// How to reach Discord. Its `Debug` output hides the token.
#[derive(Clone)]
pub struct Connection {
    /// The bot token.
    pub token: String,
    /// Register commands to this guild (instant) instead of globally.
    pub guild_id: Option<u64>,
    /// Where `https://discord.com` is reached instead, as `https://HOST:PORT` (the tests' local
    /// stand-in), trusting only [`Self::api_certificate`].
    pub api_base: Option<String>,
    /// The PEM certificate `api_base` must show (required with it): a test-only address gets no
    /// more trust than the one certificate it is given, never an unchecked one.
    pub api_certificate: Option<std::path::PathBuf>,
    /// How often idle games are looked for and closed ([`IDLE_SWEEP`] in production).
    pub idle_sweep: std::time::Duration,
    /// The gateway shards this process runs (`None`: all of them, as one shard).
    pub shards: Option<ShardRange>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("token", &"<redacted>")
            .field("guild_id", &self.guild_id)
            .field("api_base", &self.api_base)
            .field("api_certificate", &self.api_certificate)
            .field("idle_sweep", &self.idle_sweep)
            .field("shards", &self.shards)
            .finish()
    }
}

/// How often the bot closes games that waited too long for a move.
pub const IDLE_SWEEP: std::time::Duration = std::time::Duration::from_secs(3600);

/// Runs the bot until the gateway connection ends for good.
pub async fn run(connection: Connection, service: Service) -> anyhow::Result<()> {
    run_until(connection, service, std::future::pending()).await
}

/// Runs the bot until `stop` completes (then closes the gateway connection cleanly) or the
/// connection ends for good. Discord is reached first over REST, with backoff and a hint in
/// the log while it cannot be.
pub async fn run_until(
    connection: Connection,
    service: Service,
    stop: impl std::future::Future<Output = ()>,
) -> anyhow::Result<()> {
    tokio::pin!(stop);
    let shards = connection.shards;
    let http = http_client(&connection)?;
    tokio::select! {
        reached = reach_discord(&http) => reached?,
        () = &mut stop => return Ok(()),
    }
    match shards {
        None => tracing::info!("connecting to the Discord gateway"),
        Some(r) => tracing::info!("connecting to the Discord gateway as shards {}-{} of {}", r.first, r.last, r.total),
    }
    let client = client(connection, service).await?;
    let manager = client.shard_manager.clone();
    tokio::select! {
        ended = start(client, shards) => ended,
        () = &mut stop => {
            tracing::info!("closing the gateway connection");
            manager.shutdown_all().await;
            Ok(())
        }
    }
}

/// The longest wait between two attempts to reach Discord.
pub const MAX_RETRY_DELAY: std::time::Duration = std::time::Duration::from_secs(300);

/// Waits until Discord answers a REST request made with the token. While the network fails the
/// attempt is logged with a hint and retried after 5 s, 10 s, 20 s ... up to
/// [`MAX_RETRY_DELAY`]; a token that Discord refuses ends the wait with an error (retrying
/// cannot fix it).
pub async fn reach_discord(http: &Http) -> anyhow::Result<()> {
    let mut delay = std::time::Duration::from_secs(5);
    for attempt in 1u32.. {
        let error = match http.get_bot_gateway().await {
            Ok(gateway) => {
                tracing::info!(recommended_shards = gateway.shards, "Discord accepted the token");
                return Ok(());
            }
            Err(e) => e,
        };
        let status = match &error {
            serenity::Error::Http(e) => e.status_code().map(|s| s.as_u16()),
            _ => None,
        };
        if matches!(status, Some(401 | 403)) {
            anyhow::bail!(
                "Discord refused DISCORD_TOKEN ({}): it was reset or mistyped; copy a new one from \
                 https://discord.com/developers/applications -> your app -> Bot -> Reset Token",
                crate::report::one_line(&error)
            );
        }
        let hint = match status {
            Some(_) => "Discord answered with an error; it is probably having trouble",
            None => "check this machine's network: DNS, firewall, proxy (Discord is at discord.com, port 443)",
        };
        tracing::warn!(
            "could not reach Discord (attempt {attempt}): {}; {hint}; retrying in {} s",
            crate::report::one_line(&error),
            delay.as_secs()
        );
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(MAX_RETRY_DELAY);
    }
    unreachable!("the attempts never run out")
}

/// Connects `client`'s shards: all of them as one, or the given range.
pub async fn start(mut client: Client, shards: Option<ShardRange>) -> anyhow::Result<()> {
    let started = match shards {
        None => client.start().await,
        // serenity's range end is inclusive here (it starts shards `start..=end`).
        Some(r) => client.start_shard_range(r.first..r.last, r.total).await,
    };
    started.context("the Discord connection failed")
}

/// The shared REST client for `connection`, with serenity's rate limiter on: it reads
/// Discord's rate-limit headers, waits before a request its bucket has no room for, and waits
/// out a 429 before trying again.
pub(crate) fn http_client(connection: &Connection) -> anyhow::Result<Http> {
    Ok(rest_clients(connection)?.0)
}

/// The shared REST client for `connection` and the maker of each interaction's own, over one
/// pool of connections, whose every call has a deadline (`calls.rs`).
pub(crate) fn rest_clients(connection: &Connection) -> anyhow::Result<(Http, InteractionClients)> {
    let client = match &connection.api_base {
        Some(base) => redirected_client(base, connection.api_certificate.as_deref())?,
        None => reqwest::Client::builder()
            .use_rustls_tls()
            .connect_timeout(calls::CONNECT_DEADLINE)
            .timeout(calls::CALL_DEADLINE)
            .build()
            .context("could not build the HTTP client for Discord")?,
    };
    let shared = HttpBuilder::new(&connection.token).client(client.clone()).build();
    Ok((shared, InteractionClients::new(&connection.token, client)))
}

/// An HTTP client sending the requests serenity addresses to `https://discord.com` to the host
/// and port of `base` (`https://HOST:PORT`, the tests' stand-in), over TLS that trusts only the
/// PEM certificate at `certificate` (the stand-in's own). serenity's `proxy` setting would reach
/// another address only with the rate limiter off, and a bot without it is not the bot Discord
/// sees.
fn redirected_client(base: &str, certificate: Option<&std::path::Path>) -> anyhow::Result<reqwest::Client> {
    use std::net::ToSocketAddrs;
    let authority = base
        .trim_end_matches('/')
        .strip_prefix("https://")
        .with_context(|| format!("DISCORD_API_BASE must be https://HOST:PORT, not {base:?}"))?;
    let address = authority
        .to_socket_addrs()
        .with_context(|| format!("DISCORD_API_BASE: cannot resolve {authority:?}"))?
        .next()
        .with_context(|| format!("DISCORD_API_BASE: no address for {authority:?}"))?;
    let path = certificate.context("DISCORD_API_BASE needs DISCORD_API_CA: the certificate that address shows")?;
    let pem = std::fs::read(path).with_context(|| format!("DISCORD_API_CA: cannot read {}", path.display()))?;
    let trusted = reqwest::Certificate::from_pem(&pem)
        .with_context(|| format!("DISCORD_API_CA: {} is not a PEM certificate", path.display()))?;
    reqwest::Client::builder()
        .use_rustls_tls()
        .tls_built_in_root_certs(false)
        .add_root_certificate(trusted)
        .resolve("discord.com", address)
        .connect_timeout(calls::CONNECT_DEADLINE)
        .timeout(calls::CALL_DEADLINE)
        .build()
        .context("could not build the HTTP client for DISCORD_API_BASE")
}

/// The serenity client, ready to start (tests keep its shard manager to stop it). From then
/// on the service's figures watch its shards, for as long as the client lives
/// (docs/design/operations.md#ready).
pub async fn client(connection: Connection, service: Service) -> anyhow::Result<Client> {
    let front = readiness::Front::gateway(service.clone(), connection.shards);
    // No privileged intents: slash commands and components arrive without any.
    let (http, interactions) = rest_clients(&connection)?;
    let client = ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .event_handler(
            handler::Bot::new(service, connection.guild_id, connection.idle_sweep, interactions)
                .with_shards(connection.shards)
                .watched_as(front.clone()),
        )
        .await
        .context("could not create the Discord client")?;
    front.serve_through(&client.shard_manager);
    Ok(client)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Production and the tests alike keep serenity's rate limiter on
    /// (docs/design/bot-reliability.md#rate-limits).
    #[test]
    fn the_rate_limiter_is_on_wherever_discord_is() {
        let stand_ins =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/discord-stand-in/src/tls/cert.pem");
        let to = |api_base: Option<&str>| Connection {
            token: "MTIz.secret-token".into(),
            guild_id: None,
            api_base: api_base.map(str::to_string),
            api_certificate: Some(stand_ins.clone()),
            idle_sweep: IDLE_SWEEP,
            shards: None,
        };
        for api_base in [None, Some("https://127.0.0.1:4443"), Some("https://localhost:4443/")] {
            let http = http_client(&to(api_base)).unwrap();
            assert!(http.ratelimiter.is_some() && http.proxy.is_none(), "{api_base:?}");
        }
        // Another address is reached over TLS only, and trusting the certificate it is given.
        assert!(http_client(&to(Some("http://127.0.0.1:4443"))).is_err());
        let unchecked = Connection { api_certificate: None, ..to(Some("https://127.0.0.1:4443")) };
        assert!(http_client(&unchecked).is_err(), "an address without its certificate is refused");
        let missing =
            Connection { api_certificate: Some("no/such/cert.pem".into()), ..to(Some("https://127.0.0.1:4443")) };
        assert!(http_client(&missing).is_err());
    }

    #[test]
    fn the_token_does_not_show_in_debug_output() {
        let c = Connection {
            token: "MTIz.secret-token".into(),
            guild_id: None,
            api_base: None,
            api_certificate: None,
            idle_sweep: IDLE_SWEEP,
            shards: None,
        };
        assert!(!format!("{c:?}").contains("secret-token"));
    }
}
