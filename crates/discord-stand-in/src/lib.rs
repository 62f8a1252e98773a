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
mod emojis;
mod exchange;
mod faults;
mod gateway;
mod limits;
mod objects;
mod rate_limits;
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
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use channel_rules::{ArchivedPost, Readings, SlowmodeSpares};
use channels::as_discord_sends;
pub use channels::permission;
pub use exchange::{all_disabled, Exchange, Incomplete, Reply, ReplyKind, Signed};
pub use faults::{Calls, FaultKind, InjectedFault, Weather};
use gateway::{gateway, text};
use objects::id_of;
pub use rate_limits::{Limit, RateLimited, RateLimits};
use replies::callback;
use rest::{rest, Body, BODY_LIMIT};
use state::{exchange_of, register, Inner, Shared};

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

    // ── commands ──

    /// Global commands as the bot registered them (the stand-in's stored objects, with ids).
    pub async fn registered_commands(&self) -> Vec<Value> {
        self.shared.lock().global_commands.clone()
    }

    /// Guild commands as the bot registered them for `guild_id`.
    pub async fn registered_guild_commands(&self, guild_id: u64) -> Vec<Value> {
        self.shared.lock().guild_commands.get(&guild_id).cloned().unwrap_or_default()
    }

    /// Waits until the bot has registered at least one command (global or for any guild) and
    /// returns all of them (global first). Panics after `timeout`.
    pub async fn wait_commands(&self, timeout: Duration) -> Vec<Value> {
        let got = self
            .shared
            .wait_for(timeout, |i| {
                let mut all = i.global_commands.clone();
                let mut guilds: Vec<_> = i.guild_commands.iter().collect();
                guilds.sort_by_key(|(g, _)| **g);
                for (_, cmds) in guilds {
                    all.extend(cmds.iter().cloned());
                }
                (!all.is_empty()).then_some(all)
            })
            .await;
        match got {
            Some(all) => all,
            None => panic!("stand-in: the bot registered no command within {timeout:?}\n{}", self.log_summary()),
        }
    }

    /// The application is removed from `guild_id` (a manager kicked the bot): Discord answers
    /// its commands' routes there with 403, 50001 Missing Access, from now on.
    pub fn remove_from_guild(&self, guild_id: u64) {
        self.shared.lock().left_guilds.insert(guild_id);
    }

    /// Waits until `guild_id` holds none of the bot's commands. Panics after `timeout`.
    pub async fn wait_guild_commands_gone(&self, guild_id: u64, timeout: Duration) {
        let gone = |i: &Inner| i.guild_commands.get(&guild_id).is_none_or(Vec::is_empty).then_some(());
        if self.shared.wait_for(timeout, gone).await.is_none() {
            panic!(
                "stand-in: server {guild_id} still has the bot's commands after {timeout:?}\n{}",
                self.log_summary()
            );
        }
    }

    /// How many times the bot registered its commands (bulk overwrites accepted).
    pub fn command_registrations(&self) -> usize {
        self.shared.lock().command_registrations
    }

    /// Waits until the bot has registered its commands `n` times in all (a process registers
    /// once it is ready, after its emojis). Panics after `timeout`.
    pub async fn wait_command_registrations(&self, n: usize, timeout: Duration) {
        let got = self.shared.wait_for(timeout, |i| (i.command_registrations >= n).then_some(())).await;
        if got.is_none() {
            panic!("stand-in: {} command registration(s), not {n}, after {timeout:?}", self.command_registrations());
        }
    }

    // ── interactions ──

    /// Dispatches `INTERACTION_CREATE` with `payload` to the connected session (the most recent
    /// one), waiting up to 10 s for one to be connected. Panics if there is none.
    pub async fn send_interaction(&self, payload: Value) {
        let guild_id = id_of(payload.get("guild_id"));
        let idx = self.shared.wait_for(Duration::from_secs(10), |i| i.session_for(guild_id)).await;
        let Some(idx) = idx else {
            panic!("stand-in: no connected bot to send the interaction to (sessions so far: {})", self.sessions());
        };
        let mut inner = self.shared.lock();
        let payload = as_discord_sends(&inner, payload);
        let number = inner.sessions[idx].number;
        register(&mut inner, &payload, number);
        let session = &mut inner.sessions[idx];
        session.seq += 1;
        let frame = json!({"op": 0, "s": session.seq, "t": "INTERACTION_CREATE", "d": payload});
        let sent = session.tx.as_ref().map(|tx| tx.send(text(&frame)).is_ok()).unwrap_or(false);
        drop(inner);
        self.shared.bump();
        if !sent {
            panic!("stand-in: the bot's gateway connection closed while sending an interaction");
        }
    }

    /// Takes `payload` (an interaction) as dispatched, without a bot to send it to: for the
    /// stand-in's own tests, which then answer it themselves. Returns it as Discord would have
    /// sent it (`app_permissions` without what a test withheld).
    pub fn register_interaction(&self, payload: &Value) -> Value {
        let mut inner = self.shared.lock();
        let payload = as_discord_sends(&inner, payload.clone());
        register(&mut inner, &payload, 0);
        payload
    }

    /// Dispatches the gateway event `name` (e.g. `GUILD_DELETE`) with `payload` to the session
    /// whose shard serves `guild_id`, as Discord does; waits up to 10 s for one. Panics if there
    /// is none.
    pub async fn send_event(&self, name: &str, guild_id: Option<u64>, payload: Value) {
        let idx = self.shared.wait_for(Duration::from_secs(10), |i| i.session_for(guild_id)).await;
        let Some(idx) = idx else {
            panic!("stand-in: no connected bot to send {name} to (sessions so far: {})", self.sessions());
        };
        let mut inner = self.shared.lock();
        let session = &mut inner.sessions[idx];
        session.seq += 1;
        let frame = json!({"op": 0, "s": session.seq, "t": name, "d": payload});
        let sent = session.tx.as_ref().map(|tx| tx.send(text(&frame)).is_ok()).unwrap_or(false);
        drop(inner);
        self.shared.bump();
        if !sent {
            panic!("stand-in: the bot's gateway connection closed while sending {name}");
        }
    }

    /// Delivers the interaction the way Discord does to an HTTP interactions endpoint: a POST
    /// of the payload to `url`, signed with `key` at the current time. A 200 answer's JSON
    /// body counts as the interaction's first response (checked like a callback call); then
    /// waits like [`Self::try_interact`]. Another status is an [`Incomplete`] naming it.
    pub async fn try_interact_http(
        &self,
        url: &str,
        key: &ed25519_dalek::SigningKey,
        payload: Value,
    ) -> Result<Exchange, Incomplete> {
        self.try_interact_http_until(url, key, payload, Exchange::answered).await
    }

    /// [`Self::try_interact_http`], waiting until the exchange satisfies `done` (see
    /// [`Self::interact_until`]).
    pub async fn try_interact_http_until(
        &self,
        url: &str,
        key: &ed25519_dalek::SigningKey,
        payload: Value,
        done: impl Fn(&Exchange) -> bool + Sync,
    ) -> Result<Exchange, Incomplete> {
        let signed = Signed::new(key, &payload);
        self.try_interact_http_signed(url, &signed, payload, done).await
    }

    /// [`Self::try_interact_http_until`] with a request signed beforehand (a test may send the
    /// very same request again, as a replay).
    pub async fn try_interact_http_signed(
        &self,
        url: &str,
        signed: &Signed,
        payload: Value,
        done: impl Fn(&Exchange) -> bool + Sync,
    ) -> Result<Exchange, Incomplete> {
        let token = payload.get("token").and_then(Value::as_str).unwrap_or_default().to_string();
        let id = id_of(payload.get("id")).unwrap_or(0).to_string();
        {
            let mut inner = self.shared.lock();
            register(&mut inner, &payload, 0);
            inner.answers_on_their_way.insert(token.clone());
        }
        self.shared.bump();
        let answer = signed.post(url).await;
        let answered = match answer {
            Ok(a) if a.status().as_u16() == 200 => match a.json::<Value>().await {
                Ok(json) => {
                    let _ = callback(&self.shared, &id, &token, Body { json, files: Vec::new() });
                    Ok(())
                }
                Err(e) => Err(format!("the endpoint's answer is not JSON: {e}")),
            },
            Ok(a) => Err(format!("the endpoint answered {}", a.status())),
            Err(e) => Err(format!("the endpoint could not be reached: {e}")),
        };
        // The bot's calls that waited for this answer go on (`rest::answer_first`).
        self.shared.lock().answers_on_their_way.remove(&token);
        self.shared.bump();
        match answered {
            Ok(()) => self.wait_done(&token, &done).await,
            Err(reason) => Err(Incomplete { reason, partial: self.exchange(&token) }),
        }
    }

    /// Sends the interaction and returns as soon as the bot has answered
    /// ([`Exchange::answered`]): a refusal, a command's board, the new board after a tapped move
    /// (the old board's menu is taken off before it), autocomplete choices. Calls the flow makes
    /// after its answer are not waited for: use [`Self::interact_until`] to say what the
    /// exchange ends with, or [`Self::next_reply`]. Panics after [`Self::interact_timeout`] with
    /// what was received so far, and if the stand-in refused one of the bot's calls (use
    /// [`Self::try_interact`] to inspect refusals).
    pub async fn interact(&self, payload: Value) -> Exchange {
        self.interact_until(payload, Exchange::answered).await
    }

    /// Sends the interaction and returns as soon as the exchange satisfies `done`, e.g. the
    /// public board a confirmed resignation follows its answer with:
    /// `|x| !x.followups().is_empty()`. `done` is checked each time a call for this interaction
    /// arrives; a call the stand-in refused ends the exchange at once. Panics like
    /// [`Self::interact`].
    pub async fn interact_until(&self, payload: Value, done: impl Fn(&Exchange) -> bool + Sync) -> Exchange {
        match self.try_interact_until(payload, done).await {
            Ok(x) => {
                if !x.refused().is_empty() {
                    panic!("stand-in: the bot made a call Discord would refuse\n{x}");
                }
                x
            }
            Err(e) => panic!("stand-in: {e}"),
        }
    }

    /// Like [`Self::interact`] without panicking: refused calls are in the returned exchange,
    /// and a timeout is an [`Incomplete`] with what was received so far.
    pub async fn try_interact(&self, payload: Value) -> Result<Exchange, Incomplete> {
        self.try_interact_until(payload, Exchange::answered).await
    }

    /// Like [`Self::interact_until`] without panicking (see [`Self::try_interact`]).
    pub async fn try_interact_until(
        &self,
        payload: Value,
        done: impl Fn(&Exchange) -> bool + Sync,
    ) -> Result<Exchange, Incomplete> {
        let token =
            payload.get("token").and_then(Value::as_str).expect("interaction payload without a token").to_string();
        self.send_interaction(payload).await;
        self.wait_done(&token, &done).await
    }

    /// Waits until the exchange of an interaction sent with [`Self::send_interaction`] satisfies
    /// `done` (e.g. [`Exchange::answered`]), like [`Self::try_interact_until`].
    pub async fn wait_exchange(
        &self,
        token: &str,
        done: impl Fn(&Exchange) -> bool + Sync,
    ) -> Result<Exchange, Incomplete> {
        self.wait_done(token, &done).await
    }

    /// Waits until the calls made with `token` satisfy `done` or one of them was refused, up to
    /// [`Self::interact_timeout`].
    async fn wait_done(&self, token: &str, done: &(dyn Fn(&Exchange) -> bool + Sync)) -> Result<Exchange, Incomplete> {
        // Checked when this token's calls change only: hundreds of exchanges may wait at once,
        // each woken by every call of the others.
        let mut seen = None;
        let finished = self
            .shared
            .wait_for(self.interact_timeout, |i| {
                let n = i.calls_by_token.get(token).map_or(0, Vec::len);
                if seen == Some(n) {
                    return None;
                }
                seen = Some(n);
                let x = exchange_of(i, token);
                (x.calls.iter().any(|c| !c.ok()) || done(&x)).then_some(x)
            })
            .await;
        if let Some(x) = finished {
            return Ok(x);
        }
        let partial = self.exchange(token);
        let reason = if partial.calls.is_empty() {
            format!(
                "the bot made no call for this interaction within {:?} (did it receive it? a payload serenity cannot \
                 deserialize is dropped silently; run fixtures::assert_fixtures_deserialize)",
                self.interact_timeout
            )
        } else if partial.answered() {
            format!(
                "the bot answered, but the exchange did not end as the test expects within {:?}",
                self.interact_timeout
            )
        } else {
            format!(
                "the bot did not answer within {:?} (no message callback 4/7, autocomplete 8 or modal 9, nor an edit or \
                 follow-up with text after a deferral)",
                self.interact_timeout
            )
        };
        Err(Incomplete { reason, partial })
    }

    /// The session (1-based, in order of IDENTIFY) an interaction was sent to, and the shard
    /// `[id, total]` that session identified as.
    pub fn dispatched_to(&self, token: &str) -> Option<(usize, Value)> {
        let inner = self.shared.lock();
        let number = inner.interactions.get(token)?.session;
        let shard = inner.sessions.iter().find(|s| s.number == number)?.identify.get("shard").cloned();
        Some((number, shard.unwrap_or(Value::Null)))
    }

    /// Everything recorded for this token so far, as an exchange.
    pub fn exchange(&self, token: &str) -> Exchange {
        exchange_of(&self.shared.lock(), token)
    }

    /// Every call made with this interaction token, in order.
    pub async fn calls_for(&self, token: &str) -> Vec<Reply> {
        self.shared.lock().calls_of(token).cloned().collect()
    }

    /// Every call recorded, in order.
    pub fn all_calls(&self) -> Vec<Reply> {
        self.shared.lock().calls.clone()
    }

    /// Every call the stand-in refused so far, in order, whatever its method and route: the
    /// bot's messages, fetches, typing, DMs, commands, emojis, an unknown route (404), a token
    /// Discord does not know (401), a body it cannot read. Not the 429s, which the bot waits
    /// out ([`Self::rate_limited`]), nor the injected faults ([`Self::injected_faults`]).
    pub fn refused(&self) -> Vec<Reply> {
        self.shared.lock().calls.iter().filter(|c| !c.ok()).cloned().collect()
    }

    /// Panics naming every call the stand-in refused ([`Self::refused`]): how every end-to-end
    /// test ends, once the bot has stopped or has nothing left to do, so that a refused call
    /// the bot shrugged off (a best-effort reminder, a fetch) still fails its test.
    pub fn assert_none_refused(&self) {
        let refused: Vec<String> = self.refused().iter().map(|c| c.to_string()).collect();
        assert!(refused.is_empty(), "the bot made calls Discord would refuse:\n{}", refused.join("\n"));
    }

    /// [`Self::assert_none_refused`] for a test that provoked some refusals on purpose (a
    /// deleted channel, a race of two processes): panics naming every refused call that
    /// `provoked` does not own.
    pub fn assert_refused_only(&self, provoked: impl Fn(&Reply) -> bool) {
        let refused: Vec<String> = self.refused().iter().filter(|c| !provoked(c)).map(|c| c.to_string()).collect();
        assert!(refused.is_empty(), "the bot made calls Discord would refuse:\n{}", refused.join("\n"));
    }

    /// Position in the global call log: calls made from now on have `seq >= cursor()`.
    pub fn cursor(&self) -> u64 {
        self.shared.lock().calls.len() as u64
    }

    /// Waits for the first call with `seq >= since` matching `pred`. Panics after `timeout`.
    pub async fn wait_call(&self, since: u64, timeout: Duration, pred: impl Fn(&Reply) -> bool) -> Reply {
        let got =
            self.shared.wait_for(timeout, |i| i.calls.iter().skip(since as usize).find(|c| pred(c)).cloned()).await;
        match got {
            Some(c) => c,
            None => panic!(
                "stand-in: no matching call within {timeout:?} (calls since #{since}):\n{}",
                self.log_summary_since(since)
            ),
        }
    }

    /// Waits for the next call for the exchange's token after the calls it already holds
    /// (e.g. the bot's own move posted as a follow-up after its answer). Panics after `timeout`.
    pub async fn next_reply(&self, after: &Exchange, timeout: Duration) -> Reply {
        let since = after.calls.last().map(|c| c.seq + 1).unwrap_or(0);
        let token = after.token.clone();
        self.wait_call(since, timeout, move |c| c.token.as_deref() == Some(token.as_str())).await
    }

    /// Waits for any call creating or editing a visible message (follow-up, edit, channel
    /// message, message callback) with `seq >= since` (see [`Self::cursor`]).
    pub async fn wait_new_message(&self, since: u64, timeout: Duration) -> Reply {
        self.wait_call(since, timeout, |c| c.ok() && c.is_message()).await
    }

    /// Deletes a message as a member of the channel would: later edits of it are refused
    /// (10008 Unknown Message), even by interactions on a copy still on someone's screen.
    pub fn delete_message(&self, id: u64) {
        let mut inner = self.shared.lock();
        inner.messages.remove(&id);
        inner.deleted.insert(id);
    }

    /// Current state of a message, as Discord would return it.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.shared.lock().messages.get(&id).cloned()
    }

    /// The messages now in channel `channel_id`, oldest first.
    pub fn messages_in(&self, channel_id: u64) -> Vec<Value> {
        let inner = self.shared.lock();
        let mut in_channel: Vec<(u64, Value)> = inner
            .messages
            .iter()
            .filter(|(_, m)| m["channel_id"].as_str() == Some(channel_id.to_string().as_str()))
            .map(|(&id, m)| (id, m.clone()))
            .collect();
        in_channel.sort_by_key(|(id, _)| *id);
        in_channel.into_iter().map(|(_, m)| m).collect()
    }

    /// Current state of the `@original` response of the interaction with this token.
    pub fn original_message(&self, token: &str) -> Option<Value> {
        let inner = self.shared.lock();
        inner.interactions.get(token).and_then(|r| r.original).and_then(|id| inner.messages.get(&id).cloned())
    }

    /// The requests answered 429 (rate limited) so far, in order.
    pub fn rate_limited(&self) -> Vec<RateLimited> {
        self.shared.limiter().refused().to_vec()
    }

    /// Routes the stand-in did not know (`"METHOD /path"`), in order.
    pub fn unknown_routes(&self) -> Vec<String> {
        self.shared.lock().unknown.clone()
    }

    /// [`Self::unknown_routes`], forgotten: for a test that calls one on purpose (any left when
    /// the stand-in is dropped fail the test).
    pub fn take_unknown_routes(&self) -> Vec<String> {
        std::mem::take(&mut self.shared.lock().unknown)
    }

    // ── application emojis ──

    /// The application's emojis as `(id, name, image bytes)`, in order of creation: the
    /// pictures the bot uploaded (or a test added), as a button that names the id shows them.
    pub fn application_emojis(&self) -> Vec<(u64, String, Vec<u8>)> {
        self.shared.lock().emojis.list.iter().map(|e| (e.id, e.name.clone(), e.image.clone())).collect()
    }

    /// The image of the application's emoji `id`, if it has that emoji.
    pub fn application_emoji_image(&self, id: u64) -> Option<Vec<u8>> {
        self.shared.lock().emojis.list.iter().find(|e| e.id == id).map(|e| e.image.clone())
    }

    /// How many times the bot asked to create an application emoji (`POST
    /// /applications/{id}/emojis`), whatever the answer: accepted, refused, or failed by
    /// [`Self::fail_calls`].
    pub fn application_emoji_creates(&self) -> usize {
        let inner = self.shared.lock();
        let asked = inner.calls.iter().filter(|c| c.kind == ReplyKind::CreateApplicationEmoji).count();
        let failed = inner.faults.injected.iter().filter(|f| f.method == "POST" && f.path.ends_with("/emojis")).count();
        asked + failed
    }

    /// How many application emojis the bot deleted (Discord accepted the call).
    pub fn application_emoji_deletes(&self) -> usize {
        self.shared.lock().emojis.deletes
    }

    /// Adds an emoji to the application as a team member would in the developer portal (its
    /// `user` is the application's owner): for a bot that starts where its emojis exist.
    /// Returns its id.
    pub fn add_application_emoji(&self, name: &str, image: &[u8]) -> u64 {
        let mut inner = self.shared.lock();
        let id = inner.new_id();
        let owner = objects::application_info()["owner"].clone();
        let animated = image.starts_with(b"GIF8");
        inner.emojis.list.push(emojis::AppEmoji { id, name: name.into(), image: image.into(), animated, user: owner });
        drop(inner);
        self.shared.bump();
        id
    }

    /// Waits until the application has at least `n` emojis and returns them like
    /// [`Self::application_emojis`]. Panics after `timeout`.
    pub async fn wait_application_emojis(&self, n: usize, timeout: Duration) -> Vec<(u64, String, Vec<u8>)> {
        let got = self.shared.wait_for(timeout, |i| (i.emojis.list.len() >= n).then_some(())).await;
        if got.is_none() {
            panic!(
                "stand-in: the application has {} emoji(s), not {n}, after {timeout:?}\n{}",
                self.application_emojis().len(),
                self.log_summary()
            );
        }
        self.application_emojis()
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
