//! A local stand-in for Discord (gateway WebSocket + REST API) on 127.0.0.1, against which the
//! real serenity 0.12 client runs in the integration tests.
//!
//! ```ignore
//! let standin = StandIn::start().await;
//! let mut client = standin.client_builder(GatewayIntents::empty()).event_handler(Handler).await?;
//! tokio::spawn(async move { client.start().await });
//! standin.wait_ready(Duration::from_secs(20)).await;
//! let x = standin.interact(fixtures::slash(&Ctx::en(), "play", "shogi", json!([]))).await;
//! assert!(x.content().contains("..."));
//! // A flow that goes on after its answer says what it ends with:
//! let done = standin.interact_until(confirm, |x| !x.followups().is_empty()).await;
//! ```
//!
//! What it does, in short:
//! * `GET /api/v10/gateway[/bot]` points serenity at `ws://127.0.0.1:PORT/gateway`, where the
//!   stand-in speaks the gateway protocol (HELLO, IDENTIFY → READY, heartbeats, RESUME,
//!   `INTERACTION_CREATE` dispatches). Every IDENTIFY is a new session, so a restarted bot is
//!   simply the next session ([`StandIn::wait_sessions`]).
//! * Interaction callbacks, webhook edits/follow-ups and channel messages are recorded (with
//!   uploaded files) and answered like Discord does, including Discord's refusals that real bots
//!   trip over: a first response more than 3 s after the interaction (10062), a second callback
//!   for one interaction (40060), an edit/follow-up before any callback or with a token never
//!   sent (10015), a token's call about a message it did not make (10008), invalid bodies (50035:
//!   content over 2000 characters, more than 5 action rows or 25 select options or 25
//!   autocomplete choices, over-long custom ids and labels, bad command names or localisation
//!   keys, flags a message may not have, such as EPHEMERAL on a channel message, more than 10
//!   files, ...) and files past the upload limit (413, 40005). After a deferred message (5), the
//!   first follow-up takes the "thinking…" message's place, and its visibility.
//! * The channels it knows (`channels`: the server channels and threads interactions came from,
//!   with the bot's permissions there, which a test may take away and give back, and which later
//!   interactions' `app_permissions` then say; DMs) answer the channel endpoints as Discord
//!   does: 10003 Unknown Channel, 50001 Missing Access, 50013 Missing Permissions
//!   (SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, ATTACH_FILES for a file posted or added by an
//!   edit, READ_MESSAGE_HISTORY, MANAGE_MESSAGES), 10008 for a message not of that channel, 50005 for an edit of another
//!   user's message. Every message has its channel and author.
//! * Every refused call is recorded, whatever its method or route (an unknown route's 404, a
//!   wrong token's 401 and an unreadable body's 400 included; 429s and injected faults apart):
//!   it fails [`StandIn::interact`] with a clear message if it was an interaction's, and every
//!   end-to-end test ends with [`StandIn::assert_none_refused`] (the test bot's stop runs it).
//! * What Discord refuses for a channel's state or a user's choice (`channel_rules`): a post
//!   in an archived thread, 50083, or unarchiving it (`PATCH /channels/{id}`) without the
//!   permission; a post slowmode holds back, 429 with 20016; a message to a user who closed
//!   their DMs, 50007. Where Discord's documentation leaves a rule open, the test chooses the
//!   reading ([`StandIn::set_readings`]).
//! * A server the application was removed from ([`StandIn::remove_from_guild`]) answers its
//!   commands' routes with 403, 50001 Missing Access.
//! * An exchange is complete on an event, never after a quiet period: [`StandIn::interact`]
//!   returns as soon as the bot has answered ([`Exchange::answered`]), and
//!   [`StandIn::interact_until`] as soon as the exchange holds what the test says the flow ends
//!   with (a follow-up after the answer, say). Later calls are waited for explicitly
//!   ([`StandIn::next_reply`], [`StandIn::wait_call`]).
//! * Messages are kept as Discord would keep them (edits merged, attachments given ids and urls),
//!   so a test can look at the current state of a message ([`StandIn::message`]) and click on it
//!   ([`fixtures::select_on`]).
//! * Unknown routes are logged with `eprintln!`, answered 404 and recorded as refused calls;
//!   [`StandIn::unknown_routes`] lists them, and any left when the stand-in is dropped fail the
//!   test that made them.
//! * The REST API is rate-limited by Discord's rules: per-route buckets by channel or
//!   interaction token, the global limit (interaction callbacks and webhooks spared), Discord's
//!   `X-RateLimit-*` headers and its 429 answers. The numbers are [`RateLimits::roomy`] unless
//!   the test asks for others ([`StandIn::start_with`], e.g. [`RateLimits::discord`]);
//!   [`StandIn::rate_limited`] lists the 429s answered. The webhook limit a channel's
//!   interactions share is applied when the test turns it on ([`RateLimits::shared_webhook`]).
//! * The application's own emojis (`emojis`): listed, created, renamed and deleted as Discord
//!   does, refused as Discord refuses (names, images, 2,000 at most), and kept with their images
//!   ([`StandIn::application_emojis`]); a button or menu option may show a custom emoji only if
//!   the application has it, and a Unicode emoji only as Unicode's emoji data lists it, fully
//!   qualified (the `emojis` crate; 50035 Invalid emoji otherwise).
//! * A test may make routes fail ([`StandIn::fail_calls`], [`StandIn::inject_fault`], `faults`):
//!   every call or only the nth is answered with a status and Discord's error body (with or
//!   without `Retry-After`), has its connection cut, never answered, or applied and never
//!   answered; those calls are logged apart ([`StandIn::injected_faults`]), never as the bot's
//!   refused calls.
//! * A channel message posted with `enforce_nonce` and the nonce of one the same author posted
//!   in the last few minutes is that message again, not a new one (as Discord de-duplicates).
//! * The bot reaches the stand-in as `https://discord.com`, over TLS on the same port
//!   ([`StandIn::api_base`]), because serenity sends its requests there whenever its rate limiter
//!   is on, as it is in production; [`StandIn::http`] is such a client for a test's own calls.
//!
//! Where things are: [`StandIn`] (this file) is what the tests drive; `exchange` holds the types
//! they get back; `gateway` and `rest` are the two servers (`tls` lets one port speak plain HTTP
//! and TLS), `rate_limits` Discord's rate limits, `replies` what the bot's answers do to the
//! messages, `channels` the channels and what the bot may do there, `channel_rules` what their
//! state refuses, `emojis` the application's
//! emojis, `faults` the failures a test injects, `validation` and `limits` what Discord refuses
//! of a body, `objects` the JSON Discord hands out, and `state` what is kept in between.
//!
//! Beside it, what a test sends it: [`fixtures`], the interaction payloads serenity accepts, and
//! [`touch`], the board of buttons of a message read back to tap it.
//!
//! A crate of its own, a dev-dependency of the bot's package: compiled once for every test target
//! and bench, and it never depends on the bot's crate, whose types would not match
//! (ARCHITECTURE.md).
//!
//! (Past 500 lines: one `impl StandIn`, the whole face a test sees: start, drive, wait, read.
//! Its parts are the files beside it.)

pub mod fixtures;
pub mod touch;

mod channel_rules;
mod channels;
mod commands;
mod emojis;
mod exchange;
mod faults;
mod gateway;
mod interactions;
mod limits;
mod objects;
mod rate_limits;
mod recorded;
mod replies;
mod rest;
mod state;
mod tls;
mod validation;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::Message as WsMessage;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::Router;
use serde_json::Value;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use channel_rules::{ArchivedPost, Readings, SlowmodeSpares};
pub use channels::permission;
pub use exchange::{all_disabled, Exchange, Incomplete, Reply, ReplyKind, Signed};
pub use faults::{Calls, FaultKind, InjectedFault, Weather};
use gateway::gateway;
pub use rate_limits::{Limit, RateLimited, RateLimits};
use rest::{rest, BODY_LIMIT};
use state::{Inner, Shared};

/// The stand-in server. Dropping it stops the server.
pub struct StandIn {
    shared: Arc<Shared>,
    server: JoinHandle<()>,
    /// Overall limit for [`Self::interact`] (default 20 s).
    pub interact_timeout: Duration,
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.server.abort();
        // Discord answers an unknown route 404, which a best-effort call of the bot's may
        // swallow: it fails the test that made it instead (a test that means to call one takes
        // it first, with `take_unknown_routes`).
        let unknown = std::mem::take(&mut self.shared.lock().unknown);
        if !unknown.is_empty() && !std::thread::panicking() {
            panic!("calls to routes the stand-in does not know (Discord would answer 404): {unknown:?}");
        }
    }
}

impl StandIn {
    /// The application id announced in READY (and expected in webhook routes).
    pub const APP_ID: u64 = 1_100_000_000_000_000_001;
    /// The bot user's id (same as the application id, as on Discord).
    pub const BOT_USER_ID: u64 = Self::APP_ID;
    /// The bot user's name, as READY and the bot's messages give it.
    pub const BOT_NAME: &'static str = "settai";
    /// A token to give serenity (any string works; this one is shaped like a real one).
    pub const TOKEN: &'static str = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.standin.bot-token-for-tests-only";

    /// The id of the bot's DM with `user` (what `POST /users/@me/channels` opens).
    pub fn dm_channel_of(user: u64) -> u64 {
        1_300_000_000_000_000_000 + user % 1_000_000_000_000
    }

    /// Moves the stand-in's clock `by` ahead: interaction tokens expire 15 minutes after their
    /// interaction by this clock (Discord's "Invalid Webhook Token", 50027), so a test sees a
    /// late answer refused without waiting.
    pub fn advance_clock(&self, by: Duration) {
        self.shared.lock().clock_ahead += by;
        self.shared.bump();
    }

    /// Moves the clock `by` ahead as soon as the next interaction's first response is
    /// accepted: the bot's later answers through its token come "after" that time, as when its
    /// work outlasted the token (a test of a late answer without a slow bot).
    pub fn age_after_next_answer(&self, by: Duration) {
        self.shared.lock().age_on_ack = Some(by);
    }

    /// Makes the interaction with `token` `by` older, as if it had been dispatched that much
    /// earlier: a first response past Discord's 3 seconds is refused without a slow bot.
    pub fn age_interaction(&self, token: &str, by: Duration) {
        if let Some(rec) = self.shared.lock().interactions.get_mut(token) {
            rec.dispatched_at = rec.dispatched_at.checked_sub(by).unwrap_or(rec.dispatched_at);
        }
    }

    /// Announces `interval` as the heartbeat interval to connections opened from now on (Discord
    /// says about 41 s; a load test asks for a short one to see whether any beat comes late).
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        self.shared.heartbeat_ms.store(interval.as_millis() as u64, std::sync::atomic::Ordering::Relaxed);
    }

    /// The longest time between two heartbeats of one gateway connection so far.
    pub fn longest_heartbeat_gap(&self) -> Option<Duration> {
        let inner = self.shared.lock();
        let mut last: HashMap<u64, Instant> = HashMap::new();
        let mut longest = None;
        for &(conn, at) in &inner.heartbeats {
            if let Some(before) = last.insert(conn, at) {
                longest = longest.max(Some(at - before));
            }
        }
        longest
    }

    /// Binds 127.0.0.1:0 and serves the gateway and REST API until dropped, rate-limiting with
    /// [`RateLimits::roomy`].
    pub async fn start() -> StandIn {
        Self::start_with(RateLimits::roomy()).await
    }

    /// [`Self::start`], rate-limiting with `limits` (e.g. [`RateLimits::discord`]).
    pub async fn start_with(limits: RateLimits) -> StandIn {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("stand-in: bind 127.0.0.1:0");
        let port = listener.local_addr().expect("stand-in: local_addr").port();
        let (version, _) = watch::channel(0u64);
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner {
                sessions: Vec::new(),
                next_conn: 0,
                next_id: 1_300_000_000_000_000_000,
                global_commands: Vec::new(),
                guild_commands: HashMap::new(),
                command_registrations: 0,
                left_guilds: Default::default(),
                interactions: HashMap::new(),
                messages: HashMap::new(),
                calls: Vec::new(),
                calls_by_token: HashMap::new(),
                unknown: Vec::new(),
                heartbeats: Vec::new(),
                deleted: Default::default(),
                channels: HashMap::new(),
                private_channels: HashMap::new(),
                reachable_users: Default::default(),
                clock_ahead: Duration::ZERO,
                age_on_ack: None,
                emojis: Default::default(),
                faults: Default::default(),
                nonces: Default::default(),
                answers_on_their_way: Default::default(),
                readings: Default::default(),
                closed_dms: Default::default(),
            }),
            version,
            port,
            started: Instant::now(),
            heartbeat_ms: std::sync::atomic::AtomicU64::new(41_250),
            limiter: Mutex::new(rate_limits::Limiter::new(limits)),
        });
        let app = Router::new()
            .route("/gateway", get(gateway))
            .fallback(rest)
            .layer(DefaultBodyLimit::max(BODY_LIMIT))
            .with_state(shared.clone());
        let server = tokio::spawn(async move {
            if let Err(e) = axum::serve(tls::Listener::new(listener), app).await {
                eprintln!("[stand-in] server stopped: {e}");
            }
        });
        StandIn { shared, server, interact_timeout: Duration::from_secs(20) }
    }

    /// `http://127.0.0.1:PORT`, for a test's own requests.
    pub fn base_url(&self) -> String {
        self.shared.base_url()
    }

    /// `https://127.0.0.1:PORT`, the bot's `DISCORD_API_BASE` (`Connection::api_base`): the
    /// same port, over TLS, where serenity's requests for `https://discord.com` are sent.
    pub fn api_base(&self) -> String {
        format!("https://127.0.0.1:{}", self.shared.port)
    }

    /// The path of the stand-in's certificate, the one the bot trusts at [`Self::api_base`]
    /// (`DISCORD_API_CA`).
    pub fn certificate() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tls/cert.pem")
    }

    /// `ws://127.0.0.1:PORT/gateway`
    pub fn gateway_url(&self) -> String {
        self.shared.gateway_url()
    }

    /// The port the stand-in listens on (plain HTTP, TLS and the gateway alike).
    pub fn port(&self) -> u16 {
        self.shared.port
    }

    /// A serenity `Http` talking to the stand-in as to `https://discord.com`, with its rate
    /// limiter on, and trusting the stand-in's certificate.
    pub fn http(&self) -> serenity::http::Http {
        let certificate = reqwest::Certificate::from_pem(tls::CERTIFICATE).expect("stand-in: tls/cert.pem");
        let client = reqwest::Client::builder()
            .use_rustls_tls()
            .tls_built_in_root_certs(false)
            .add_root_certificate(certificate)
            .resolve("discord.com", ([127, 0, 0, 1], self.shared.port).into())
            .build()
            .expect("stand-in: an HTTP client");
        serenity::http::HttpBuilder::new(Self::TOKEN).client(client).build()
    }

    /// A serenity `ClientBuilder` wired to the stand-in; add the event handler and `.await`.
    pub fn client_builder(&self, intents: serenity::all::GatewayIntents) -> serenity::client::ClientBuilder {
        serenity::client::ClientBuilder::new_with_http(self.http(), intents)
    }

    // ── sessions ──

    /// Waits until a bot is connected and has received READY. Panics after `timeout`.
    pub async fn wait_ready(&self, timeout: Duration) {
        let ok = self.shared.wait_for(timeout, |i| i.live_session().map(|_| ())).await;
        if ok.is_none() {
            panic!("stand-in: no bot IDENTIFYed within {timeout:?} (sessions so far: {})", self.sessions());
        }
    }

    /// Waits until `n` sessions in total have IDENTIFYed and the latest is connected (e.g.
    /// `wait_sessions(2, ..)` after restarting the bot). Panics after `timeout`.
    pub async fn wait_sessions(&self, n: usize, timeout: Duration) {
        let ok = self
            .shared
            .wait_for(timeout, |i| (i.sessions.len() >= n && i.live_session().is_some()).then_some(()))
            .await;
        if ok.is_none() {
            panic!(
                "stand-in: expected {n} session(s) within {timeout:?}, have {} ({} connected)",
                self.sessions(),
                self.connected_sessions()
            );
        }
    }

    /// Waits until no session is connected (e.g. after shutting the bot down). Panics after
    /// `timeout`.
    pub async fn wait_disconnected(&self, timeout: Duration) {
        let ok = self.shared.wait_for(timeout, |i| i.live_session().is_none().then_some(())).await;
        if ok.is_none() {
            panic!("stand-in: bot still connected after {timeout:?}");
        }
    }

    /// Number of sessions that IDENTIFYed so far.
    pub fn sessions(&self) -> usize {
        self.shared.lock().sessions.len()
    }

    /// Number of sessions currently connected.
    pub fn connected_sessions(&self) -> usize {
        self.shared.lock().sessions.iter().filter(|s| s.tx.is_some()).count()
    }

    /// The IDENTIFY payloads (`d`) received, in order (e.g. to check intents).
    pub fn identify_payloads(&self) -> Vec<Value> {
        self.shared.lock().sessions.iter().map(|s| s.identify.clone()).collect()
    }

    /// Closes the gateway connection of the connected session with close code 4000 (as Discord
    /// does on maintenance); serenity then reconnects (RESUME of the same session). Note:
    /// serenity ignores a close frame without a code and would only notice at its next
    /// heartbeat (41 s).
    pub fn drop_connection(&self) {
        let mut inner = self.shared.lock();
        if let Some(idx) = inner.live_session() {
            if let Some(tx) = inner.sessions[idx].tx.take() {
                let _ = tx.send(WsMessage::Close(Some(axum::extract::ws::CloseFrame {
                    code: 4000,
                    reason: "stand-in: reconnect".into(),
                })));
            }
        }
        drop(inner);
        self.shared.bump();
    }

    fn log_summary(&self) -> String {
        self.log_summary_since(0)
    }

    fn log_summary_since(&self, since: u64) -> String {
        let inner = self.shared.lock();
        let mut s = String::new();
        for c in inner.calls.iter().skip(since as usize) {
            s.push_str(&format!("    {c}\n"));
        }
        if !inner.unknown.is_empty() {
            s.push_str(&format!("    unknown routes: {:?}\n", inner.unknown));
        }
        if s.is_empty() {
            s.push_str("    (no calls)\n");
        }
        s
    }
}
