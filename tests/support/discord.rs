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
//!   trip over: a second callback for one interaction (40060), an edit/follow-up before any callback
//!   (10015), and invalid bodies (50035: content over 2000 characters, more than 5 action rows or 25
//!   select options or 25 autocomplete choices, over-long custom ids and labels, bad command names
//!   or localisation keys, ...). A refused call fails [`StandIn::interact`] with a clear message.
//! * An exchange is complete on an event, never after a quiet period: [`StandIn::interact`]
//!   returns as soon as the bot has answered ([`Exchange::answered`]), and
//!   [`StandIn::interact_until`] as soon as the exchange holds what the test says the flow ends
//!   with (a follow-up after the answer, say). Later calls are waited for explicitly
//!   ([`StandIn::next_reply`], [`StandIn::wait_call`]).
//! * Messages are kept as Discord would keep them (edits merged, attachments given ids and urls),
//!   so a test can look at the current state of a message ([`StandIn::message`]) and click on it
//!   ([`crate::support::fixtures::select_on`]).
//! * Unknown routes are logged with `eprintln!` and answered 404; [`StandIn::unknown_routes`]
//!   lists them.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Map, Value};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

/// Discord's limit on text content of a message.
const MAX_CONTENT: usize = 2000;
const BODY_LIMIT: usize = 64 * 1024 * 1024;

// ───────────────────────────── public types ─────────────────────────────

/// What kind of REST call the bot made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyKind {
    /// `POST /interactions/{id}/{token}/callback`; `type_` is the interaction response type
    /// (4 message, 5 deferred message, 6 deferred update, 7 update message, 8 autocomplete,
    /// 9 modal).
    Callback { type_: u8 },
    /// `PATCH /webhooks/{app}/{token}/messages/@original`
    EditOriginal,
    /// `DELETE /webhooks/{app}/{token}/messages/@original`
    DeleteOriginal,
    /// `POST /webhooks/{app}/{token}`
    Followup,
    /// `PATCH /webhooks/{app}/{token}/messages/{id}` (the id is in [`Reply::message_id`])
    EditFollowup,
    /// `DELETE /webhooks/{app}/{token}/messages/{id}` (the id is in [`Reply::message_id`])
    DeleteFollowup,
    /// `POST /channels/{channel_id}/messages` (not tied to an interaction token)
    ChannelMessage { channel_id: u64 },
    /// `PATCH /channels/{channel_id}/messages/{message_id}`
    EditChannelMessage { channel_id: u64, message_id: u64 },
    /// `DELETE /channels/{channel_id}/messages/{message_id}`
    DeleteChannelMessage { channel_id: u64, message_id: u64 },
}

/// One REST call the bot made, as the stand-in received and answered it.
#[derive(Clone, Debug)]
pub struct Reply {
    pub kind: ReplyKind,
    /// The JSON body, or the `payload_json` part of a multipart body (`Value::Null` if none).
    pub json: Value,
    /// Uploaded files `(filename, bytes)`, in `files[n]` order.
    pub files: Vec<(String, Vec<u8>)>,
    /// HTTP status the stand-in answered (2xx = accepted).
    pub status: u16,
    /// Why the stand-in refused the call (Discord-like error), if it did.
    pub error: Option<String>,
    /// The interaction token the call was made with (None for channel messages).
    pub token: Option<String>,
    /// The message created / edited / deleted by this call, if any.
    pub message_id: Option<u64>,
    /// Position in the stand-in's global call log (see [`StandIn::cursor`]).
    pub seq: u64,
    /// Time since the interaction was dispatched (or since the stand-in started, for calls not
    /// tied to an interaction).
    pub after: Duration,
}

impl Reply {
    /// Whether the stand-in accepted the call.
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The message-like part of the body: `data` for callbacks, the body itself otherwise.
    pub fn message_json(&self) -> &Value {
        match self.kind {
            ReplyKind::Callback { .. } => self.json.get("data").unwrap_or(&Value::Null),
            _ => &self.json,
        }
    }

    /// `content` of this call, if the call set it.
    pub fn content(&self) -> Option<&str> {
        self.message_json().get("content").and_then(Value::as_str)
    }

    /// `flags` of this call (0 if absent).
    pub fn flags(&self) -> u64 {
        self.message_json().get("flags").and_then(Value::as_u64).unwrap_or(0)
    }

    /// Whether this call creates or changes a visible message.
    pub fn is_message(&self) -> bool {
        matches!(
            self.kind,
            ReplyKind::Callback { type_: 4 | 7 }
                | ReplyKind::EditOriginal
                | ReplyKind::Followup
                | ReplyKind::EditFollowup
                | ReplyKind::ChannelMessage { .. }
                | ReplyKind::EditChannelMessage { .. }
        )
    }

    /// Top-level components (action rows) this call set, if it set them.
    pub fn components(&self) -> Option<Vec<Value>> {
        self.message_json().get("components").and_then(Value::as_array).cloned()
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {:?} after {:?} -> {}", self.seq, self.kind, self.after, self.status)?;
        if let Some(e) = &self.error {
            write!(f, " REFUSED: {e}")?;
        }
        let mut body = self.json.to_string();
        if body.len() > 1500 {
            let mut cut = 1500;
            while !body.is_char_boundary(cut) {
                cut -= 1;
            }
            body.truncate(cut);
            body.push('…');
        }
        write!(f, "\n      body: {body}")?;
        for (name, bytes) in &self.files {
            write!(f, "\n      file: {name} ({} bytes)", bytes.len())?;
        }
        Ok(())
    }
}

/// Everything the bot did in reply to one interaction, in order.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub token: String,
    pub interaction_id: u64,
    pub calls: Vec<Reply>,
    /// State of the `@original` response message at the end of the exchange, as the stand-in
    /// keeps it (edits merged, attachments with ids/urls), if there is one.
    pub original: Option<Value>,
}

impl Exchange {
    fn ok_calls(&self) -> impl Iterator<Item = &Reply> {
        self.calls.iter().filter(|c| c.ok())
    }

    /// Whether the bot has answered: a call that shows the player its answer, i.e. a message
    /// (callback 4, or 7 updating the component's message), autocomplete choices (8) or a modal
    /// (9); after a deferral (5/6), an edit or a follow-up that carries text. Taking a menu off
    /// the old board (an edit without text) or withdrawing a public "thinking…" (a private
    /// follow-up comes next) is not an answer yet.
    pub fn answered(&self) -> bool {
        let mut deferred = false;
        for c in self.ok_calls() {
            match c.kind {
                ReplyKind::Callback { type_: 4 | 7 | 8 | 9 } => return true,
                ReplyKind::Callback { type_: 5 | 6 } => deferred = true,
                ReplyKind::EditOriginal | ReplyKind::Followup | ReplyKind::EditFollowup
                    if deferred && c.content().is_some() =>
                {
                    return true
                }
                _ => {}
            }
        }
        false
    }

    /// Type of the (first accepted) interaction callback, if any.
    pub fn callback_type(&self) -> Option<u8> {
        self.ok_calls().find_map(|c| match c.kind {
            ReplyKind::Callback { type_ } => Some(type_),
            _ => None,
        })
    }

    /// Whether the bot deferred (callback type 5 or 6).
    pub fn deferred(&self) -> bool {
        matches!(self.callback_type(), Some(5 | 6))
    }

    /// The call that carries the last visible text (the last accepted message call with a
    /// `content` field).
    pub fn text_call(&self) -> Option<&Reply> {
        self.ok_calls().filter(|c| c.is_message() && c.content().is_some()).last()
    }

    /// Last visible text ("" if the bot sent none).
    pub fn content(&self) -> String {
        self.text_call().and_then(Reply::content).unwrap_or_default().to_string()
    }

    /// Every text the bot showed, in order (callback, edits, follow-ups).
    pub fn contents(&self) -> Vec<String> {
        self.ok_calls().filter(|c| c.is_message()).filter_map(|c| c.content().map(str::to_string)).collect()
    }

    /// Whether the text is only visible to the user: flags & 64 on the response that carries the
    /// text; for an edit of the original response, on the callback that created it (a deferral
    /// decides ephemerality).
    pub fn is_ephemeral(&self) -> bool {
        let Some(call) = self.text_call().or_else(|| self.ok_calls().find(|c| c.is_message())) else {
            // Only a deferral: ephemeral if the deferral was.
            return self
                .ok_calls()
                .find(|c| matches!(c.kind, ReplyKind::Callback { type_: 5 }))
                .is_some_and(|c| c.flags() & 64 != 0);
        };
        match call.kind {
            ReplyKind::EditOriginal => self
                .ok_calls()
                .find(|c| matches!(c.kind, ReplyKind::Callback { type_: 4 | 5 }))
                .is_some_and(|c| c.flags() & 64 != 0),
            ReplyKind::Callback { type_: 7 } => false,
            _ => call.flags() & 64 != 0,
        }
    }

    /// All files uploaded during the exchange, in order.
    pub fn files(&self) -> Vec<&(String, Vec<u8>)> {
        self.ok_calls().flat_map(|c| c.files.iter()).collect()
    }

    /// Bytes of the first uploaded file whose name ends with `suffix` (e.g. ".png").
    pub fn file(&self, suffix: &str) -> Option<&[u8]> {
        self.files().into_iter().find(|(n, _)| n.ends_with(suffix)).map(|(_, b)| b.as_slice())
    }

    /// Top-level components (action rows) of the message carrying the text ([`Self::text_call`]),
    /// else the last set during the exchange (taking the menu off an old board after posting the
    /// new one does not hide the new board's menu).
    pub fn components(&self) -> Vec<Value> {
        self.text_call().and_then(Reply::components).unwrap_or_else(|| {
            self.ok_calls().filter(|c| c.is_message()).filter_map(Reply::components).last().unwrap_or_default()
        })
    }

    /// The components inside the action rows of [`Self::components`], flattened.
    pub fn component_list(&self) -> Vec<Value> {
        flatten_components(&self.components())
    }

    /// `custom_id`s of [`Self::component_list`].
    pub fn custom_ids(&self) -> Vec<String> {
        self.component_list()
            .iter()
            .filter_map(|c| c.get("custom_id").and_then(Value::as_str).map(str::to_string))
            .collect()
    }

    /// The component with this `custom_id`.
    pub fn component(&self, custom_id: &str) -> Option<Value> {
        self.component_list().into_iter().find(|c| c.get("custom_id").and_then(Value::as_str) == Some(custom_id))
    }

    /// `(label, value)` of the options of the select menu with this `custom_id`.
    pub fn select_options(&self, custom_id: &str) -> Vec<(String, String)> {
        let Some(menu) = self.component(custom_id) else { return vec![] };
        menu.get("options")
            .and_then(Value::as_array)
            .map(|opts| {
                opts.iter()
                    .map(|o| (str_field(o, "label"), value_string(o.get("value").unwrap_or(&Value::Null))))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Embeds last set during the exchange.
    pub fn embeds(&self) -> Vec<Value> {
        self.ok_calls()
            .filter(|c| c.is_message())
            .filter_map(|c| c.message_json().get("embeds").and_then(Value::as_array).cloned())
            .last()
            .unwrap_or_default()
    }

    /// `(name, value)` of the autocomplete choices (callback type 8); values rendered as strings.
    pub fn autocomplete_choices(&self) -> Vec<(String, String)> {
        self.ok_calls()
            .filter(|c| c.kind == ReplyKind::Callback { type_: 8 })
            .filter_map(|c| c.json.pointer("/data/choices").and_then(Value::as_array))
            .last()
            .map(|choices| {
                choices
                    .iter()
                    .map(|ch| (str_field(ch, "name"), value_string(ch.get("value").unwrap_or(&Value::Null))))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The modal the bot opened (callback type 9), if any: `data` of the callback.
    pub fn modal(&self) -> Option<Value> {
        self.ok_calls().find(|c| c.kind == ReplyKind::Callback { type_: 9 }).and_then(|c| c.json.get("data").cloned())
    }

    /// Follow-up messages (POST /webhooks/{app}/{token}).
    pub fn followups(&self) -> Vec<&Reply> {
        self.ok_calls().filter(|c| c.kind == ReplyKind::Followup).collect()
    }

    /// Id of the message carrying the text (the `@original` response, a follow-up, or the updated
    /// component message), e.g. to click on it with `fixtures::select(.., message_id)`.
    pub fn message_id(&self) -> Option<u64> {
        self.text_call().and_then(|c| c.message_id).or_else(|| self.ok_calls().filter_map(|c| c.message_id).last())
    }

    /// Calls the stand-in refused.
    pub fn refused(&self) -> Vec<&Reply> {
        self.calls.iter().filter(|c| !c.ok()).collect()
    }
}

impl fmt::Display for Exchange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "exchange for interaction {} (token {}): {} call(s)",
            self.interaction_id,
            self.token,
            self.calls.len()
        )?;
        for c in &self.calls {
            writeln!(f, "    {c}")?;
        }
        Ok(())
    }
}

/// [`StandIn::try_interact`] did not see the bot finish.
#[derive(Clone, Debug)]
pub struct Incomplete {
    pub reason: String,
    /// What was received so far.
    pub partial: Exchange,
}

impl fmt::Display for Incomplete {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n{}", self.reason, self.partial)
    }
}

impl std::error::Error for Incomplete {}

/// An interaction request as Discord sends it to an HTTP endpoint: the body, and its Ed25519
/// signature of the timestamp and body.
#[derive(Clone, Debug)]
pub struct Signed {
    pub body: Vec<u8>,
    pub signature: String,
    pub timestamp: String,
}

impl Signed {
    /// `payload` signed by `key` now.
    pub fn new(key: &ed25519_dalek::SigningKey, payload: &Value) -> Signed {
        use ed25519_dalek::Signer as _;
        let body = serde_json::to_vec(payload).expect("payload serializes");
        let timestamp = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs().to_string();
        let signature = key.sign(&[timestamp.as_bytes(), &body].concat());
        let signature = signature.to_bytes().iter().map(|b| format!("{b:02x}")).collect();
        Signed { body, signature, timestamp }
    }

    /// POSTs the request to `url`.
    pub async fn post(&self, url: &str) -> reqwest::Result<reqwest::Response> {
        reqwest::Client::new()
            .post(url)
            .header("content-type", "application/json")
            .header("x-signature-ed25519", &self.signature)
            .header("x-signature-timestamp", &self.timestamp)
            .body(self.body.clone())
            .send()
            .await
    }
}

// ───────────────────────────── shared state ─────────────────────────────

struct Session {
    /// 1-based, in order of IDENTIFY.
    number: usize,
    session_id: String,
    /// Sender of the connection currently attached (None when disconnected).
    tx: Option<mpsc::UnboundedSender<WsMessage>>,
    conn: u64,
    seq: u64,
    identify: Value,
}

struct InteractionRecord {
    /// The session (1-based, in order of IDENTIFY) the interaction was sent to.
    session: usize,
    payload: Value,
    interaction_id: u64,
    kind: u64,
    channel_id: u64,
    guild_id: Option<u64>,
    dispatched_at: Instant,
    acked: Option<u8>,
    original: Option<u64>,
}

struct Inner {
    sessions: Vec<Session>,
    next_conn: u64,
    next_id: u64,
    global_commands: Vec<Value>,
    guild_commands: HashMap<u64, Vec<Value>>,
    interactions: HashMap<String, InteractionRecord>,
    messages: HashMap<u64, Value>,
    calls: Vec<Reply>,
    /// Positions in `calls` of each interaction token's calls (the load harness waits on
    /// hundreds of tokens at once; scanning the whole log per wake-up was quadratic).
    calls_by_token: HashMap<String, Vec<usize>>,
    unknown: Vec<String>,
    /// When each heartbeat (op 1) arrived, per gateway connection.
    heartbeats: Vec<(u64, Instant)>,
    /// Messages deleted by someone in the channel ([`StandIn::delete_message`]): a tap on a
    /// copy still on a player's screen does not bring them back.
    deleted: std::collections::HashSet<u64>,
}

impl Inner {
    /// The calls made with `token`, in order.
    fn calls_of<'a>(&'a self, token: &str) -> impl Iterator<Item = &'a Reply> + 'a {
        let at = self.calls_by_token.get(token).map(Vec::as_slice).unwrap_or_default();
        at.iter().map(|&i| &self.calls[i])
    }
}

struct Shared {
    inner: Mutex<Inner>,
    version: watch::Sender<u64>,
    port: u16,
    started: Instant,
    /// The heartbeat interval announced in HELLO, in milliseconds.
    heartbeat_ms: std::sync::atomic::AtomicU64,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn bump(&self) {
        self.version.send_modify(|v| *v += 1);
    }

    fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn gateway_url(&self) -> String {
        format!("ws://127.0.0.1:{}/gateway", self.port)
    }

    /// Waits until `f` returns Some, re-checking on every state change, up to `timeout`.
    async fn wait_for<T>(&self, timeout: Duration, mut f: impl FnMut(&Inner) -> Option<T>) -> Option<T> {
        let mut rx = self.version.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            rx.borrow_and_update();
            if let Some(t) = f(&self.lock()) {
                return Some(t);
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => continue,
                _ => return f(&self.lock()),
            }
        }
    }
}

impl Inner {
    fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn live_session(&self) -> Option<usize> {
        self.sessions.iter().rposition(|s| s.tx.is_some())
    }

    /// The connected session that receives events of `guild_id`: with several shards, the one
    /// whose IDENTIFY named shard `(guild_id >> 22) % total` (Discord's rule; DMs go to shard 0);
    /// with one, the newest connected session.
    fn session_for(&self, guild_id: Option<u64>) -> Option<usize> {
        let shard_of = |s: &Session| {
            let pair = s.identify.get("shard")?.as_array()?.clone();
            Some((pair.first()?.as_u64()?, pair.get(1)?.as_u64()?))
        };
        let sharded = self.sessions.iter().any(|s| s.tx.is_some() && shard_of(s).is_some_and(|(_, t)| t > 1));
        if !sharded {
            return self.live_session();
        }
        self.sessions.iter().rposition(|s| {
            s.tx.is_some() && shard_of(s).is_some_and(|(id, total)| id == guild_id.map_or(0, |g| (g >> 22) % total))
        })
    }
}

// ───────────────────────────── StandIn ─────────────────────────────

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
    }
}

impl StandIn {
    /// The application id announced in READY (and expected in webhook routes).
    pub const APP_ID: u64 = 1_100_000_000_000_000_001;
    /// The bot user's id (same as the application id, as on Discord).
    pub const BOT_USER_ID: u64 = Self::APP_ID;
    pub const BOT_NAME: &'static str = "settai";
    /// A token to give serenity (any string works; this one is shaped like a real one).
    pub const TOKEN: &'static str = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.standin.bot-token-for-tests-only";

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

    /// Binds 127.0.0.1:0 and serves the gateway and REST API until dropped.
    pub async fn start() -> StandIn {
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
                interactions: HashMap::new(),
                messages: HashMap::new(),
                calls: Vec::new(),
                calls_by_token: HashMap::new(),
                unknown: Vec::new(),
                heartbeats: Vec::new(),
                deleted: Default::default(),
            }),
            version,
            port,
            started: Instant::now(),
            heartbeat_ms: std::sync::atomic::AtomicU64::new(41_250),
        });
        let app = Router::new()
            .route("/gateway", get(gateway))
            .fallback(rest)
            .layer(DefaultBodyLimit::max(BODY_LIMIT))
            .with_state(shared.clone());
        let server = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                eprintln!("[stand-in] server stopped: {e}");
            }
        });
        StandIn { shared, server, interact_timeout: Duration::from_secs(20) }
    }

    /// `http://127.0.0.1:PORT`, for `HttpBuilder::proxy`.
    pub fn base_url(&self) -> String {
        self.shared.base_url()
    }

    /// `ws://127.0.0.1:PORT/gateway`
    pub fn gateway_url(&self) -> String {
        self.shared.gateway_url()
    }

    pub fn port(&self) -> u16 {
        self.shared.port
    }

    /// A serenity `Http` talking to the stand-in (proxy set, rate limiter disabled: serenity
    /// ignores the proxy unless the rate limiter is disabled).
    pub fn http(&self) -> serenity::http::Http {
        serenity::http::HttpBuilder::new(Self::TOKEN).proxy(self.base_url()).ratelimiter_disabled(true).build()
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
        register(&mut self.shared.lock(), &payload, 0);
        self.shared.bump();
        let answer = signed.post(url).await;
        let reason = match answer {
            Ok(a) if a.status().as_u16() == 200 => match a.json::<Value>().await {
                Ok(json) => {
                    let _ = callback(&self.shared, &id, &token, Body { json, files: Vec::new() });
                    self.shared.bump();
                    return self.wait_done(&token, &done).await;
                }
                Err(e) => format!("the endpoint's answer is not JSON: {e}"),
            },
            Ok(a) => format!("the endpoint answered {}", a.status()),
            Err(e) => format!("the endpoint could not be reached: {e}"),
        };
        Err(Incomplete { reason, partial: self.exchange(&token) })
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

    /// Current state of the `@original` response of the interaction with this token.
    pub fn original_message(&self, token: &str) -> Option<Value> {
        let inner = self.shared.lock();
        inner.interactions.get(token).and_then(|r| r.original).and_then(|id| inner.messages.get(&id).cloned())
    }

    /// Routes the stand-in did not know (`"METHOD /path"`), in order.
    pub fn unknown_routes(&self) -> Vec<String> {
        self.shared.lock().unknown.clone()
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

/// Everything recorded for `token` so far, as an exchange.
fn exchange_of(inner: &Inner, token: &str) -> Exchange {
    let calls: Vec<Reply> = inner.calls_of(token).cloned().collect();
    let rec = inner.interactions.get(token);
    Exchange {
        token: token.to_string(),
        interaction_id: rec.map(|r| r.interaction_id).unwrap_or(0),
        original: rec.and_then(|r| r.original).and_then(|id| inner.messages.get(&id).cloned()),
        calls,
    }
}

/// Records an interaction about to be delivered (to gateway session `session`, 0 for HTTP).
fn register(inner: &mut Inner, payload: &Value, session: usize) {
    let token = payload.get("token").and_then(Value::as_str).unwrap_or_default().to_string();
    if !token.is_empty() {
        let rec = InteractionRecord {
            interaction_id: id_of(payload.get("id")).unwrap_or(0),
            kind: payload.get("type").and_then(Value::as_u64).unwrap_or(0),
            channel_id: id_of(payload.get("channel_id")).unwrap_or(0),
            guild_id: id_of(payload.get("guild_id")),
            payload: payload.clone(),
            dispatched_at: Instant::now(),
            acked: None,
            original: None,
            session,
        };
        inner.interactions.insert(token, rec);
    }
    // A component interaction is on a message: make sure the stand-in knows that message so
    // that "update message" callbacks have something to update.
    if let Some(msg) = payload.get("message") {
        if let Some(mid) = id_of(msg.get("id")).filter(|mid| !inner.deleted.contains(mid)) {
            inner.messages.entry(mid).or_insert_with(|| msg.clone());
        }
    }
}

fn flatten_components(rows: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for row in rows {
        match row.get("components").and_then(Value::as_array) {
            Some(inner) => out.extend(inner.iter().cloned()),
            None => out.push(row.clone()),
        }
    }
    out
}

fn str_field(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

fn value_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A snowflake given as a string or a number.
fn id_of(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

fn text(v: &Value) -> WsMessage {
    WsMessage::Text(v.to_string().into())
}

// ───────────────────────────── gateway ─────────────────────────────

async fn gateway(ws: WebSocketUpgrade, State(shared): State<Arc<Shared>>) -> Response {
    ws.on_upgrade(move |socket| run_gateway(shared, socket))
}

async fn run_gateway(shared: Arc<Shared>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<WsMessage>();
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            let close = matches!(m, WsMessage::Close(_));
            if sink.send(m).await.is_err() || close {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let conn = {
        let mut inner = shared.lock();
        inner.next_conn += 1;
        inner.next_conn
    };
    eprintln!("[stand-in] gateway: connection {conn} opened");
    let interval = shared.heartbeat_ms.load(std::sync::atomic::Ordering::Relaxed);
    let _ = tx.send(text(&json!({"op": 10, "s": null, "t": null, "d": {"heartbeat_interval": interval}})));

    while let Some(msg) = stream.next().await {
        let raw = match msg {
            Ok(WsMessage::Text(t)) => t.as_str().to_string(),
            Ok(WsMessage::Binary(b)) => match String::from_utf8(b.to_vec()) {
                Ok(s) => s,
                Err(_) => {
                    eprintln!("[stand-in] gateway: ignoring non-UTF-8 binary frame");
                    continue;
                }
            },
            Ok(WsMessage::Close(_)) => break,
            Ok(_) => continue,
            Err(e) => {
                eprintln!("[stand-in] gateway: connection error: {e}");
                break;
            }
        };
        let v: Value = match serde_json::from_str(&raw) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("[stand-in] gateway: ignoring unparsable frame ({e}): {raw}");
                continue;
            }
        };
        match v.get("op").and_then(Value::as_u64) {
            Some(1) => {
                shared.lock().heartbeats.push((conn, Instant::now()));
                let _ = tx.send(text(&json!({"op": 11, "s": null, "t": null, "d": null})));
            }
            Some(2) => identify(&shared, conn, &tx, v.get("d").cloned().unwrap_or(Value::Null)),
            Some(6) => resume(&shared, conn, &tx, v.get("d").cloned().unwrap_or(Value::Null)),
            Some(3 | 4 | 8) => {} // presence / voice state / request guild members: ignored
            other => eprintln!("[stand-in] gateway: ignoring op {other:?}: {raw}"),
        }
    }

    {
        let mut inner = shared.lock();
        for s in inner.sessions.iter_mut().filter(|s| s.conn == conn) {
            s.tx = None;
        }
    }
    eprintln!("[stand-in] gateway: connection {conn} closed");
    shared.bump();
    drop(tx);
    let _ = tokio::time::timeout(Duration::from_secs(1), writer).await;
}

fn identify(shared: &Arc<Shared>, conn: u64, tx: &mpsc::UnboundedSender<WsMessage>, d: Value) {
    let mut inner = shared.lock();
    // One session per connection: a second IDENTIFY replaces the first.
    for s in inner.sessions.iter_mut().filter(|s| s.conn == conn) {
        s.tx = None;
    }
    let number = inner.sessions.len() + 1;
    let session_id = format!("standin-session-{number}");
    let shard = d.get("shard").cloned().unwrap_or_else(|| json!([0, 1]));
    let ready = json!({
        "op": 0, "s": 1, "t": "READY",
        "d": {
            "v": 10,
            "user": bot_user(),
            "guilds": [],
            "session_id": session_id,
            "resume_gateway_url": shared.gateway_url(),
            "shard": shard,
            "application": {"id": StandIn::APP_ID.to_string(), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
    });
    eprintln!("[stand-in] gateway: connection {conn} IDENTIFY -> session {number} READY");
    inner.sessions.push(Session { number, session_id, tx: Some(tx.clone()), conn, seq: 1, identify: d });
    let _ = tx.send(text(&ready));
    drop(inner);
    shared.bump();
}

fn resume(shared: &Arc<Shared>, conn: u64, tx: &mpsc::UnboundedSender<WsMessage>, d: Value) {
    let sid = d.get("session_id").and_then(Value::as_str).unwrap_or_default().to_string();
    let mut inner = shared.lock();
    match inner.sessions.iter_mut().find(|s| s.session_id == sid) {
        Some(s) => {
            s.tx = Some(tx.clone());
            s.conn = conn;
            s.seq += 1;
            eprintln!("[stand-in] gateway: connection {conn} RESUME session {} -> RESUMED", s.number);
            let _ = tx.send(text(&json!({"op": 0, "s": s.seq, "t": "RESUMED", "d": {}})));
        }
        None => {
            eprintln!("[stand-in] gateway: connection {conn} RESUME of unknown session {sid:?} -> INVALID_SESSION");
            let _ = tx.send(text(&json!({"op": 9, "s": null, "t": null, "d": false})));
        }
    }
    drop(inner);
    shared.bump();
}

// ───────────────────────────── REST ─────────────────────────────

struct Body {
    json: Value,
    /// (index n of `files[n]`, filename, bytes), sorted by index.
    files: Vec<(u64, String, Vec<u8>)>,
}

struct ApiError {
    status: u16,
    code: u64,
    message: String,
}

fn api_err(status: u16, code: u64, message: impl Into<String>) -> ApiError {
    ApiError { status, code, message: message.into() }
}

fn invalid(detail: impl Into<String>) -> ApiError {
    api_err(400, 50035, format!("Invalid Form Body ({})", detail.into()))
}

fn json_resp(status: u16, v: Value) -> Response {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        [(header::CONTENT_TYPE, "application/json")],
        v.to_string(),
    )
        .into_response()
}

fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

fn err_resp(e: &ApiError) -> Response {
    json_resp(e.status, json!({"code": e.code, "message": e.message}))
}

async fn read_body(req: Request) -> Result<Body, String> {
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("multipart/form-data"));
    if is_multipart {
        let mut mp = Multipart::from_request(req, &()).await.map_err(|e| format!("bad multipart: {e}"))?;
        let mut json = Value::Null;
        let mut files = Vec::new();
        let mut other = 0u64;
        while let Some(field) = mp.next_field().await.map_err(|e| format!("bad multipart field: {e}"))? {
            let name = field.name().unwrap_or_default().to_string();
            let filename = field.file_name().map(str::to_string);
            let data = field.bytes().await.map_err(|e| format!("bad multipart field {name}: {e}"))?;
            if name == "payload_json" {
                json = serde_json::from_slice(&data).map_err(|e| format!("payload_json is not JSON: {e}"))?;
            } else if let Some(idx) = name.strip_prefix("files[").and_then(|s| s.strip_suffix(']')) {
                let idx = idx.parse().unwrap_or(u64::MAX);
                files.push((idx, filename.unwrap_or_else(|| name.clone()), data.to_vec()));
            } else {
                other += 1;
                files.push((1_000_000 + other, filename.unwrap_or(name), data.to_vec()));
            }
        }
        files.sort_by_key(|f| f.0);
        Ok(Body { json, files })
    } else {
        let bytes: Bytes = axum::body::to_bytes(req.into_body(), BODY_LIMIT).await.map_err(|e| format!("body: {e}"))?;
        let json = if bytes.iter().all(u8::is_ascii_whitespace) {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).map_err(|e| format!("body is not JSON: {e}"))?
        };
        Ok(Body { json, files: Vec::new() })
    }
}

async fn rest(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let body = match read_body(req).await {
        Ok(b) => b,
        Err(e) => {
            eprintln!("[stand-in] {method} {path}: {e}");
            return err_resp(&api_err(400, 50109, format!("The request body contains invalid JSON ({e})")));
        }
    };
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let segs: &[&str] = match segs.as_slice() {
        ["api", v, rest @ ..] if v.starts_with('v') => rest,
        ["api", rest @ ..] => rest,
        other => other,
    };
    let resp = route(&shared, &method, segs, body);
    shared.bump();
    match resp {
        Some(r) => r,
        None => {
            let what = format!("{method} {path}");
            eprintln!(
                "[stand-in] UNKNOWN ROUTE {what} -> 404 (add it to tests/support/discord.rs if the bot needs it)"
            );
            shared.lock().unknown.push(what.clone());
            json_resp(404, json!({"code": 0, "message": format!("stand-in: unknown route {what}")}))
        }
    }
}

/// Returns None for an unknown route.
fn route(shared: &Arc<Shared>, method: &Method, segs: &[&str], body: Body) -> Option<Response> {
    let app = StandIn::APP_ID.to_string();
    let m = method.as_str();
    let r = match (m, segs) {
        ("GET", ["gateway"]) => json_resp(200, json!({"url": shared.gateway_url()})),
        ("GET", ["gateway", "bot"]) => json_resp(
            200,
            json!({
                "url": shared.gateway_url(), "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            }),
        ),
        ("GET", ["users", "@me"]) => json_resp(200, bot_user()),
        ("GET", ["oauth2", "applications", "@me"]) | ("GET", ["applications", "@me"]) => {
            json_resp(200, application_info())
        }

        // ── application commands ──
        ("PUT", ["applications", a, "commands"]) if *a == app => put_commands(shared, None, body.json),
        ("PUT", ["applications", a, "guilds", g, "commands"]) if *a == app => {
            put_commands(shared, g.parse().ok(), body.json)
        }
        ("POST", ["applications", a, "commands"]) if *a == app => post_command(shared, None, body.json),
        ("POST", ["applications", a, "guilds", g, "commands"]) if *a == app => {
            post_command(shared, g.parse().ok(), body.json)
        }
        ("GET", ["applications", a, "commands"]) if *a == app => {
            json_resp(200, Value::Array(shared.lock().global_commands.clone()))
        }
        ("GET", ["applications", a, "guilds", g, "commands"]) if *a == app => {
            let g: u64 = g.parse().unwrap_or(0);
            json_resp(200, Value::Array(shared.lock().guild_commands.get(&g).cloned().unwrap_or_default()))
        }
        ("DELETE", ["applications", a, "commands", c]) if *a == app => {
            shared.lock().global_commands.retain(|x| x.get("id").and_then(Value::as_str) != Some(*c));
            no_content()
        }
        ("DELETE", ["applications", a, "guilds", g, "commands", c]) if *a == app => {
            let g: u64 = g.parse().unwrap_or(0);
            if let Some(list) = shared.lock().guild_commands.get_mut(&g) {
                list.retain(|x| x.get("id").and_then(Value::as_str) != Some(*c));
            }
            no_content()
        }

        // ── interactions ──
        ("POST", ["interactions", id, token, "callback"]) => callback(shared, id, token, body),
        ("GET", ["webhooks", a, token, "messages", "@original"]) if *a == app => {
            let inner = shared.lock();
            match inner.interactions.get(*token).and_then(|r| r.original).and_then(|id| inner.messages.get(&id)) {
                Some(msg) => json_resp(200, msg.clone()),
                None => err_resp(&api_err(404, 10008, "Unknown Message")),
            }
        }
        ("PATCH", ["webhooks", a, token, "messages", "@original"]) if *a == app => {
            webhook_edit(shared, token, None, body)
        }
        ("DELETE", ["webhooks", a, token, "messages", "@original"]) if *a == app => webhook_delete(shared, token, None),
        ("POST", ["webhooks", a, token]) if *a == app => followup(shared, token, body),
        ("GET", ["webhooks", a, _token, "messages", mid]) if *a == app => {
            let mid: u64 = mid.parse().unwrap_or(0);
            match shared.lock().messages.get(&mid) {
                Some(msg) => json_resp(200, msg.clone()),
                None => err_resp(&api_err(404, 10008, "Unknown Message")),
            }
        }
        ("PATCH", ["webhooks", a, token, "messages", mid]) if *a == app => {
            webhook_edit(shared, token, Some(mid.parse().unwrap_or(0)), body)
        }
        ("DELETE", ["webhooks", a, token, "messages", mid]) if *a == app => {
            webhook_delete(shared, token, Some(mid.parse().unwrap_or(0)))
        }

        // ── plain channel messages ──
        (_, ["channels", c, ..]) if c.parse::<u64>().is_err() => err_resp(&api_err(404, 10003, "Unknown Channel")),
        ("POST", ["channels", c, "messages"]) => channel_message(shared, c.parse().unwrap_or(0), None, body),
        ("PATCH", ["channels", c, "messages", mid]) => {
            channel_message(shared, c.parse().unwrap_or(0), Some(mid.parse().unwrap_or(0)), body)
        }
        ("GET", ["channels", _c, "messages", mid]) => {
            let mid: u64 = mid.parse().unwrap_or(0);
            match shared.lock().messages.get(&mid) {
                Some(msg) => json_resp(200, msg.clone()),
                None => err_resp(&api_err(404, 10008, "Unknown Message")),
            }
        }
        ("DELETE", ["channels", c, "messages", mid]) => {
            let c: u64 = c.parse().unwrap_or(0);
            let mid: u64 = mid.parse().unwrap_or(0);
            let mut inner = shared.lock();
            let found = inner.messages.remove(&mid).is_some();
            let status = if found { 204 } else { 404 };
            record(
                &mut inner,
                shared,
                ReplyKind::DeleteChannelMessage { channel_id: c, message_id: mid },
                None,
                Value::Null,
                vec![],
                status,
                (!found).then(|| "Unknown Message".to_string()),
                Some(mid),
            );
            if found {
                no_content()
            } else {
                err_resp(&api_err(404, 10008, "Unknown Message"))
            }
        }
        ("POST", ["channels", _c, "typing"]) => no_content(),
        _ => return None,
    };
    Some(r)
}

#[allow(clippy::too_many_arguments)]
fn record(
    inner: &mut Inner,
    shared: &Shared,
    kind: ReplyKind,
    token: Option<&str>,
    json: Value,
    files: Vec<(String, Vec<u8>)>,
    status: u16,
    error: Option<String>,
    message_id: Option<u64>,
) {
    let now = Instant::now();
    let after = match token.and_then(|t| inner.interactions.get(t)) {
        Some(rec) => now - rec.dispatched_at,
        None => now - shared.started,
    };
    if let Some(e) = &error {
        eprintln!("[stand-in] refused {kind:?} (token {token:?}) with {status}: {e}");
    }
    let seq = inner.calls.len() as u64;
    if let Some(t) = token {
        inner.calls_by_token.entry(t.to_string()).or_default().push(seq as usize);
    }
    inner.calls.push(Reply {
        kind,
        json,
        files,
        status,
        error,
        token: token.map(str::to_string),
        message_id,
        seq,
        after,
    });
}

fn files_of(body: &Body) -> Vec<(String, Vec<u8>)> {
    body.files.iter().map(|(_, n, b)| (n.clone(), b.clone())).collect()
}

fn callback(shared: &Arc<Shared>, id: &str, token: &str, body: Body) -> Response {
    let mut inner = shared.lock();
    let ty = body.json.get("type").and_then(Value::as_u64).unwrap_or(0) as u8;
    let kind = ReplyKind::Callback { type_: ty };
    let files = files_of(&body);
    let result = callback_inner(&mut inner, shared, id, token, ty, &body);
    match result {
        Ok(mid) => {
            record(&mut inner, shared, kind, Some(token), body.json, files, 204, None, mid);
            no_content()
        }
        Err(e) => {
            record(
                &mut inner,
                shared,
                kind,
                Some(token),
                body.json,
                files,
                e.status,
                Some(format!("{} {}", e.code, e.message)),
                None,
            );
            err_resp(&e)
        }
    }
}

fn callback_inner(
    inner: &mut Inner,
    shared: &Shared,
    id: &str,
    token: &str,
    ty: u8,
    body: &Body,
) -> Result<Option<u64>, ApiError> {
    let Some(rec) = inner.interactions.get(token) else {
        return Err(api_err(404, 10062, "Unknown interaction (token never dispatched by the stand-in)"));
    };
    if id.parse::<u64>().ok() != Some(rec.interaction_id) {
        return Err(api_err(404, 10062, "Unknown interaction (id does not match the token)"));
    }
    if let Some(prev) = rec.acked {
        return Err(api_err(
            400,
            40060,
            format!("Interaction has already been acknowledged (earlier callback type {prev})"),
        ));
    }
    let elapsed = rec.dispatched_at.elapsed();
    if elapsed > Duration::from_secs(3) {
        eprintln!("[stand-in] WARNING: callback {elapsed:?} after dispatch; Discord gives up after 3 s (10062 Unknown interaction). Defer first!");
    }
    let (ikind, channel_id, guild_id) = (rec.kind, rec.channel_id, rec.guild_id);
    let component_msg = id_of(rec.payload.pointer("/message/id"));
    let null = Value::Null;
    let data = body.json.get("data").unwrap_or(&null);
    let is_component = ikind == 3 || (ikind == 5 && component_msg.is_some());
    let original = match ty {
        4 => {
            if ikind == 4 {
                return Err(invalid("type: autocomplete interactions only accept callback type 8"));
            }
            validate_message(data, body.files.len(), true)?;
            let mid = inner.new_id();
            let msg = build_message(inner, shared, mid, channel_id, guild_id, None, data, &body.files, 20);
            inner.messages.insert(mid, msg);
            Some(mid)
        }
        5 => {
            if ikind == 4 {
                return Err(invalid("type: autocomplete interactions only accept callback type 8"));
            }
            let flags = data.get("flags").and_then(Value::as_u64).unwrap_or(0);
            let mid = inner.new_id();
            let placeholder = json!({"content": "", "flags": flags | 128});
            let msg = build_message(inner, shared, mid, channel_id, guild_id, None, &placeholder, &[], 20);
            inner.messages.insert(mid, msg);
            Some(mid)
        }
        6 | 7 => {
            if !is_component {
                return Err(invalid(format!("type: callback type {ty} is only valid for component interactions")));
            }
            let mid = component_msg.unwrap_or(0);
            if ty == 7 {
                validate_message(data, body.files.len(), false)?;
                let base = inner.messages.get(&mid).cloned();
                let msg = build_message(inner, shared, mid, channel_id, guild_id, base.as_ref(), data, &body.files, 0);
                inner.messages.insert(mid, msg);
            }
            Some(mid)
        }
        8 => {
            if ikind != 4 {
                return Err(invalid("type: callback type 8 is only valid for autocomplete interactions"));
            }
            validate_choices(data)?;
            None
        }
        9 => {
            if ikind == 4 || ikind == 5 {
                return Err(invalid("type: a modal cannot answer an autocomplete or modal submit"));
            }
            validate_modal(data)?;
            None
        }
        _ => return Err(invalid(format!("type: unsupported interaction callback type {ty}"))),
    };
    let rec = inner.interactions.get_mut(token).expect("checked above");
    rec.acked = Some(ty);
    rec.original = original;
    Ok(original)
}

fn webhook_edit(shared: &Arc<Shared>, token: &str, mid: Option<u64>, body: Body) -> Response {
    let mut inner = shared.lock();
    let kind = match mid {
        None => ReplyKind::EditOriginal,
        Some(_) => ReplyKind::EditFollowup,
    };
    let files = files_of(&body);
    let result = (|| {
        let rec = inner
            .interactions
            .get(token)
            .ok_or_else(|| api_err(404, 10015, "Unknown Webhook (token never dispatched)"))?;
        if rec.acked.is_none() {
            return Err(api_err(
                404,
                10015,
                "Unknown Webhook (no interaction callback yet for this token: respond or defer first)",
            ));
        }
        let (channel_id, guild_id) = (rec.channel_id, rec.guild_id);
        let target = match mid {
            None => rec.original.ok_or_else(|| {
                api_err(404, 10008, "Unknown Message (this interaction has no original response message)")
            })?,
            Some(m) => m,
        };
        let base = inner.messages.get(&target).cloned().ok_or_else(|| api_err(404, 10008, "Unknown Message"))?;
        validate_message(&body.json, body.files.len(), false)?;
        let msg =
            build_message(&mut inner, shared, target, channel_id, guild_id, Some(&base), &body.json, &body.files, 0);
        inner.messages.insert(target, msg.clone());
        Ok((target, msg))
    })();
    match result {
        Ok((target, msg)) => {
            record(&mut inner, shared, kind, Some(token), body.json, files, 200, None, Some(target));
            json_resp(200, msg)
        }
        Err(e) => {
            record(
                &mut inner,
                shared,
                kind,
                Some(token),
                body.json,
                files,
                e.status,
                Some(format!("{} {}", e.code, e.message)),
                mid,
            );
            err_resp(&e)
        }
    }
}

fn webhook_delete(shared: &Arc<Shared>, token: &str, mid: Option<u64>) -> Response {
    let mut inner = shared.lock();
    let kind = match mid {
        None => ReplyKind::DeleteOriginal,
        Some(_) => ReplyKind::DeleteFollowup,
    };
    let target = match mid {
        None => inner.interactions.get(token).and_then(|r| r.original),
        Some(m) => Some(m),
    };
    let found = target.is_some_and(|t| inner.messages.remove(&t).is_some());
    if found {
        record(&mut inner, shared, kind, Some(token), Value::Null, vec![], 204, None, target);
        no_content()
    } else {
        record(
            &mut inner,
            shared,
            kind,
            Some(token),
            Value::Null,
            vec![],
            404,
            Some("10008 Unknown Message".into()),
            target,
        );
        err_resp(&api_err(404, 10008, "Unknown Message"))
    }
}

fn followup(shared: &Arc<Shared>, token: &str, body: Body) -> Response {
    let mut inner = shared.lock();
    let files = files_of(&body);
    let result = (|| {
        let rec = inner
            .interactions
            .get(token)
            .ok_or_else(|| api_err(404, 10015, "Unknown Webhook (token never dispatched)"))?;
        if rec.acked.is_none() {
            return Err(api_err(
                404,
                10015,
                "Unknown Webhook (no interaction callback yet for this token: respond or defer first)",
            ));
        }
        let (channel_id, guild_id) = (rec.channel_id, rec.guild_id);
        validate_message(&body.json, body.files.len(), true)?;
        let mid = inner.new_id();
        let msg = build_message(&mut inner, shared, mid, channel_id, guild_id, None, &body.json, &body.files, 19);
        inner.messages.insert(mid, msg.clone());
        Ok((mid, msg))
    })();
    match result {
        Ok((mid, msg)) => {
            record(&mut inner, shared, ReplyKind::Followup, Some(token), body.json, files, 200, None, Some(mid));
            json_resp(200, msg)
        }
        Err(e) => {
            record(
                &mut inner,
                shared,
                ReplyKind::Followup,
                Some(token),
                body.json,
                files,
                e.status,
                Some(format!("{} {}", e.code, e.message)),
                None,
            );
            err_resp(&e)
        }
    }
}

fn channel_message(shared: &Arc<Shared>, channel_id: u64, mid: Option<u64>, body: Body) -> Response {
    let mut inner = shared.lock();
    let files = files_of(&body);
    let kind = match mid {
        None => ReplyKind::ChannelMessage { channel_id },
        Some(m) => ReplyKind::EditChannelMessage { channel_id, message_id: m },
    };
    let result = (|| -> Result<(u64, Value), ApiError> {
        validate_message(&body.json, body.files.len(), mid.is_none())?;
        let (target, base) = match mid {
            None => (inner.new_id(), None),
            Some(m) => {
                (m, Some(inner.messages.get(&m).cloned().ok_or_else(|| api_err(404, 10008, "Unknown Message"))?))
            }
        };
        let guild_id = base.as_ref().and_then(|b| id_of(b.get("guild_id")));
        let msg =
            build_message(&mut inner, shared, target, channel_id, guild_id, base.as_ref(), &body.json, &body.files, 0);
        inner.messages.insert(target, msg.clone());
        Ok((target, msg))
    })();
    match result {
        Ok((target, msg)) => {
            record(&mut inner, shared, kind, None, body.json, files, 200, None, Some(target));
            json_resp(200, msg)
        }
        Err(e) => {
            record(
                &mut inner,
                shared,
                kind,
                None,
                body.json,
                files,
                e.status,
                Some(format!("{} {}", e.code, e.message)),
                mid,
            );
            err_resp(&e)
        }
    }
}

// ── commands ──

fn put_commands(shared: &Arc<Shared>, guild: Option<u64>, json: Value) -> Response {
    let Some(list) = json.as_array() else {
        return err_resp(&invalid("expected an array of commands"));
    };
    if let Err(e) = validate_commands(list) {
        eprintln!("[stand-in] refused command registration: {}", e.message);
        return err_resp(&e);
    }
    let mut inner = shared.lock();
    let existing = match guild {
        None => inner.global_commands.clone(),
        Some(g) => inner.guild_commands.get(&g).cloned().unwrap_or_default(),
    };
    let mut out = Vec::new();
    for cmd in list {
        let keep_id = existing
            .iter()
            .find(|e| e.get("name") == cmd.get("name") && e.get("type") == Some(&json!(cmd_type(cmd))))
            .and_then(|e| id_of(e.get("id")));
        let id = keep_id.unwrap_or_else(|| inner.new_id());
        out.push(stored_command(cmd, id, guild));
    }
    match guild {
        None => inner.global_commands = out.clone(),
        Some(g) => {
            inner.guild_commands.insert(g, out.clone());
        }
    }
    json_resp(200, Value::Array(out))
}

fn post_command(shared: &Arc<Shared>, guild: Option<u64>, json: Value) -> Response {
    if let Err(e) = validate_commands(std::slice::from_ref(&json)) {
        eprintln!("[stand-in] refused command registration: {}", e.message);
        return err_resp(&e);
    }
    let mut inner = shared.lock();
    let id = inner.new_id();
    let list = match guild {
        None => &mut inner.global_commands,
        Some(g) => inner.guild_commands.entry(g).or_default(),
    };
    let pos =
        list.iter().position(|e| e.get("name") == json.get("name") && e.get("type") == Some(&json!(cmd_type(&json))));
    let id = pos.and_then(|p| id_of(list[p].get("id"))).unwrap_or(id);
    let stored = stored_command(&json, id, guild);
    match pos {
        Some(p) => list[p] = stored.clone(),
        None => list.push(stored.clone()),
    }
    json_resp(if pos.is_some() { 200 } else { 201 }, stored)
}

fn cmd_type(cmd: &Value) -> u64 {
    cmd.get("type").and_then(Value::as_u64).unwrap_or(1)
}

fn stored_command(cmd: &Value, id: u64, guild: Option<u64>) -> Value {
    let mut c = cmd.as_object().cloned().unwrap_or_default();
    c.insert("id".into(), json!(id.to_string()));
    c.insert("application_id".into(), json!(StandIn::APP_ID.to_string()));
    c.insert("version".into(), json!(id.to_string()));
    c.insert("type".into(), json!(cmd_type(cmd)));
    c.entry("description").or_insert(json!(""));
    c.entry("default_member_permissions").or_insert(Value::Null);
    c.entry("nsfw").or_insert(json!(false));
    if let Some(g) = guild {
        c.insert("guild_id".into(), json!(g.to_string()));
    }
    Value::Object(c)
}

/// Locales Discord accepts as keys of `name_localizations` / `description_localizations`.
const LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
];

fn check_name(path: &str, name: Option<&Value>, chat_input: bool) -> Result<(), ApiError> {
    let Some(name) = name.and_then(Value::as_str) else {
        return Err(invalid(format!("{path}.name: required")));
    };
    let n = name.chars().count();
    if !(1..=32).contains(&n) {
        return Err(invalid(format!("{path}.name: {name:?} must be 1-32 characters")));
    }
    if chat_input && !name.chars().all(|c| c == '-' || c == '_' || (c.is_alphanumeric() && !c.is_uppercase())) {
        return Err(invalid(format!("{path}.name: {name:?} must be lowercase letters, digits, '-' or '_'")));
    }
    Ok(())
}

fn check_len(path: &str, v: Option<&Value>, min: usize, max: usize) -> Result<(), ApiError> {
    let s = v.and_then(Value::as_str).unwrap_or_default();
    let n = s.chars().count();
    if n < min || n > max {
        return Err(invalid(format!("{path}: {s:?} must be {min}-{max} characters (is {n})")));
    }
    Ok(())
}

fn check_localizations(path: &str, obj: &Value, key: &str, chat_input: bool, is_name: bool) -> Result<(), ApiError> {
    let Some(map) = obj.get(key).and_then(Value::as_object) else { return Ok(()) };
    for (locale, v) in map {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(invalid(format!(
                "{path}.{key}: {locale:?} is not a valid Discord locale (valid: {LOCALES:?})"
            )));
        }
        if is_name {
            check_name(&format!("{path}.{key}.{locale}"), Some(v), chat_input)?;
        } else {
            check_len(&format!("{path}.{key}.{locale}"), Some(v), 1, 100)?;
        }
    }
    Ok(())
}

fn validate_commands(list: &[Value]) -> Result<(), ApiError> {
    if list.len() > 100 {
        return Err(invalid("more than 100 commands"));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, cmd) in list.iter().enumerate() {
        let path = format!("commands[{i}]");
        let ty = cmd_type(cmd);
        let chat = ty == 1;
        check_name(&path, cmd.get("name"), chat)?;
        if !seen.insert((ty, cmd.get("name").and_then(Value::as_str).unwrap_or_default().to_string())) {
            return Err(invalid(format!("{path}.name: duplicate command name")));
        }
        if chat {
            check_len(&format!("{path}.description"), cmd.get("description"), 1, 100)?;
        }
        check_localizations(&path, cmd, "name_localizations", chat, true)?;
        check_localizations(&path, cmd, "description_localizations", chat, false)?;
        if let Some(opts) = cmd.get("options").and_then(Value::as_array) {
            validate_options(&format!("{path}.options"), opts, 0)?;
        }
    }
    Ok(())
}

fn validate_options(path: &str, opts: &[Value], depth: usize) -> Result<(), ApiError> {
    if opts.len() > 25 {
        return Err(invalid(format!("{path}: more than 25 options")));
    }
    let kinds: Vec<u64> = opts.iter().map(|o| o.get("type").and_then(Value::as_u64).unwrap_or(0)).collect();
    let subs = kinds.iter().filter(|k| **k == 1 || **k == 2).count();
    if subs > 0 && subs != kinds.len() {
        return Err(invalid(format!("{path}: sub-commands cannot be mixed with other options")));
    }
    let mut optional_seen = false;
    let mut names = std::collections::HashSet::new();
    for (j, o) in opts.iter().enumerate() {
        let p = format!("{path}[{j}]");
        let k = kinds[j];
        if !(1..=11).contains(&k) {
            return Err(invalid(format!("{p}.type: invalid option type {k}")));
        }
        check_name(&p, o.get("name"), true)?;
        if !names.insert(o.get("name").and_then(Value::as_str).unwrap_or_default().to_string()) {
            return Err(invalid(format!("{p}.name: duplicate option name")));
        }
        check_len(&format!("{p}.description"), o.get("description"), 1, 100)?;
        check_localizations(&p, o, "name_localizations", true, true)?;
        check_localizations(&p, o, "description_localizations", true, false)?;
        let required = o.get("required").and_then(Value::as_bool).unwrap_or(false);
        if required && optional_seen {
            return Err(invalid(format!("{p}.required: required options must be placed before optional options")));
        }
        optional_seen |= !required && k > 2;
        match k {
            1 | 2 => {
                if k == 2 && depth > 0 || k == 1 && depth > 1 {
                    return Err(invalid(format!("{p}: sub-command nested too deeply")));
                }
                let inner = o.get("options").and_then(Value::as_array).cloned().unwrap_or_default();
                if k == 2 && inner.iter().any(|x| x.get("type").and_then(Value::as_u64) != Some(1)) {
                    return Err(invalid(format!("{p}.options: a sub-command group may only contain sub-commands")));
                }
                validate_options(&format!("{p}.options"), &inner, depth + 1)?;
            }
            _ => {
                let choices = o.get("choices").and_then(Value::as_array).map(Vec::len).unwrap_or(0);
                if choices > 25 {
                    return Err(invalid(format!("{p}.choices: more than 25 choices")));
                }
                if choices > 0 && o.get("autocomplete").and_then(Value::as_bool) == Some(true) {
                    return Err(invalid(format!("{p}.autocomplete: cannot be set with choices")));
                }
                for (c, ch) in o.get("choices").and_then(Value::as_array).into_iter().flatten().enumerate() {
                    check_len(&format!("{p}.choices[{c}].name"), ch.get("name"), 1, 100)?;
                    check_localizations(&format!("{p}.choices[{c}]"), ch, "name_localizations", false, false)?;
                }
            }
        }
    }
    Ok(())
}

// ── message validation ──

fn validate_message(m: &Value, n_files: usize, creating: bool) -> Result<(), ApiError> {
    if m.is_null() {
        return if creating { Err(api_err(400, 50006, "Cannot send an empty message")) } else { Ok(()) };
    }
    let content = m.get("content").and_then(Value::as_str).unwrap_or_default();
    let n = content.chars().count();
    if n > MAX_CONTENT {
        return Err(invalid(format!("content: must be {MAX_CONTENT} or fewer in length (is {n})")));
    }
    let embeds = m.get("embeds").and_then(Value::as_array).cloned().unwrap_or_default();
    if embeds.len() > 10 {
        return Err(invalid("embeds: must be 10 or fewer in length"));
    }
    for (i, e) in embeds.iter().enumerate() {
        check_len(&format!("embeds[{i}].title"), e.get("title").or(Some(&json!(""))), 0, 256)?;
        check_len(&format!("embeds[{i}].description"), e.get("description").or(Some(&json!(""))), 0, 4096)?;
        if e.get("fields").and_then(Value::as_array).map(Vec::len).unwrap_or(0) > 25 {
            return Err(invalid(format!("embeds[{i}].fields: must be 25 or fewer in length")));
        }
    }
    let comps = m.get("components").and_then(Value::as_array).cloned().unwrap_or_default();
    validate_components(&comps)?;
    let has_attachments = m.get("attachments").and_then(Value::as_array).is_some_and(|a| !a.is_empty());
    if creating
        && content.is_empty()
        && embeds.is_empty()
        && comps.is_empty()
        && n_files == 0
        && !has_attachments
        && m.get("poll").is_none()
    {
        return Err(api_err(400, 50006, "Cannot send an empty message"));
    }
    Ok(())
}

fn validate_components(rows: &[Value]) -> Result<(), ApiError> {
    if rows.len() > 5 {
        return Err(invalid(format!("components: must be 5 or fewer in length (is {})", rows.len())));
    }
    let mut ids = std::collections::HashSet::new();
    for (r, row) in rows.iter().enumerate() {
        let p = format!("components[{r}]");
        if row.get("type").and_then(Value::as_u64) != Some(1) {
            return Err(invalid(format!("{p}.type: top-level components must be action rows (type 1)")));
        }
        let inner = row.get("components").and_then(Value::as_array).cloned().unwrap_or_default();
        if inner.is_empty() || inner.len() > 5 {
            return Err(invalid(format!("{p}.components: must be 1-5 components (is {})", inner.len())));
        }
        let selects = inner.iter().filter(|c| matches!(c.get("type").and_then(Value::as_u64), Some(3 | 5..=8))).count();
        if selects > 0 && inner.len() > 1 {
            return Err(invalid(format!("{p}.components: a select menu must be alone in its action row")));
        }
        for (i, c) in inner.iter().enumerate() {
            let cp = format!("{p}.components[{i}]");
            let ty = c.get("type").and_then(Value::as_u64).unwrap_or(0);
            let style = c.get("style").and_then(Value::as_u64).unwrap_or(0);
            let link = ty == 2 && (style == 5 || style == 6);
            if !link {
                check_len(&format!("{cp}.custom_id"), c.get("custom_id"), 1, 100)?;
                let id = c.get("custom_id").and_then(Value::as_str).unwrap_or_default().to_string();
                if !ids.insert(id.clone()) {
                    return Err(invalid(format!("{cp}.custom_id: {id:?} is duplicated in this message")));
                }
            }
            match ty {
                2 => {
                    if !(1..=6).contains(&style) {
                        return Err(invalid(format!("{cp}.style: invalid button style {style}")));
                    }
                    if c.get("label").is_some() {
                        check_len(&format!("{cp}.label"), c.get("label"), 0, 80)?;
                    }
                    if c.get("label").is_none() && c.get("emoji").is_none() {
                        return Err(invalid(format!("{cp}: a button needs a label or an emoji")));
                    }
                }
                3 => {
                    let opts = c.get("options").and_then(Value::as_array).cloned().unwrap_or_default();
                    if opts.is_empty() || opts.len() > 25 {
                        return Err(invalid(format!("{cp}.options: must be 1-25 options (is {})", opts.len())));
                    }
                    let mut values = std::collections::HashSet::new();
                    for (o, opt) in opts.iter().enumerate() {
                        check_len(&format!("{cp}.options[{o}].label"), opt.get("label"), 1, 100)?;
                        check_len(&format!("{cp}.options[{o}].value"), opt.get("value"), 1, 100)?;
                        if opt.get("description").is_some_and(|d| !d.is_null()) {
                            check_len(&format!("{cp}.options[{o}].description"), opt.get("description"), 0, 100)?;
                        }
                        if !values.insert(str_field(opt, "value")) {
                            return Err(invalid(format!("{cp}.options[{o}].value: duplicated value")));
                        }
                    }
                    let max = c.get("max_values").and_then(Value::as_u64).unwrap_or(1);
                    let min = c.get("min_values").and_then(Value::as_u64).unwrap_or(1);
                    if max as usize > opts.len() || min > max || max > 25 {
                        return Err(invalid(format!(
                            "{cp}: min_values {min} / max_values {max} invalid for {} options",
                            opts.len()
                        )));
                    }
                }
                5..=8 => {}
                _ => return Err(invalid(format!("{cp}.type: invalid component type {ty} in a message action row"))),
            }
            if c.get("placeholder").is_some_and(|v| !v.is_null()) {
                check_len(&format!("{cp}.placeholder"), c.get("placeholder"), 0, 150)?;
            }
        }
    }
    Ok(())
}

fn validate_choices(data: &Value) -> Result<(), ApiError> {
    let choices = data.get("choices").and_then(Value::as_array).cloned().unwrap_or_default();
    if choices.len() > 25 {
        return Err(invalid(format!("data.choices: must be 25 or fewer in length (is {})", choices.len())));
    }
    for (i, ch) in choices.iter().enumerate() {
        check_len(&format!("data.choices[{i}].name"), ch.get("name"), 1, 100)?;
        match ch.get("value") {
            Some(Value::String(s)) if s.chars().count() > 100 => {
                return Err(invalid(format!("data.choices[{i}].value: must be 100 or fewer in length")))
            }
            Some(Value::String(_) | Value::Number(_)) => {}
            _ => return Err(invalid(format!("data.choices[{i}].value: must be a string or a number"))),
        }
    }
    Ok(())
}

fn validate_modal(data: &Value) -> Result<(), ApiError> {
    check_len("data.custom_id", data.get("custom_id"), 1, 100)?;
    check_len("data.title", data.get("title"), 1, 45)?;
    let rows = data.get("components").and_then(Value::as_array).cloned().unwrap_or_default();
    if rows.is_empty() || rows.len() > 5 {
        return Err(invalid("data.components: must be 1-5 action rows"));
    }
    for (r, row) in rows.iter().enumerate() {
        for (i, c) in row.get("components").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let p = format!("data.components[{r}].components[{i}]");
            check_len(&format!("{p}.custom_id"), c.get("custom_id"), 1, 100)?;
            if c.get("type").and_then(Value::as_u64) == Some(4) {
                check_len(&format!("{p}.label"), c.get("label"), 1, 45)?;
            }
        }
    }
    Ok(())
}

// ── objects ──

fn bot_user() -> Value {
    json!({
        "id": StandIn::BOT_USER_ID.to_string(),
        "username": StandIn::BOT_NAME,
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": true,
        "system": false,
        "mfa_enabled": false,
        "verified": true,
        "flags": 0,
        "public_flags": 0,
    })
}

fn application_info() -> Value {
    json!({
        "id": StandIn::APP_ID.to_string(),
        "name": StandIn::BOT_NAME,
        "icon": null,
        "description": "stand-in application",
        "rpc_origins": [],
        "bot_public": true,
        "bot_require_code_grant": false,
        "owner": {"id": "1100000000000000999", "username": "owner", "discriminator": "0", "avatar": null},
        "verify_key": "0000",
        "team": null,
        "flags": 0,
    })
}

/// Current time as RFC 3339 (UTC).
pub(crate) fn now_rfc3339() -> String {
    let d = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // civil_from_days (Howard Hinnant)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_micros()
    )
}

fn content_type_for(name: &str) -> &'static str {
    let lower = name.to_ascii_lowercase();
    match lower.rsplit('.').next().unwrap_or_default() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "txt" => "text/plain; charset=utf-8",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}

/// Width and height from a PNG header, if the bytes are a PNG.
fn png_size(b: &[u8]) -> Option<(u32, u32)> {
    if b.len() >= 24 && b.starts_with(b"\x89PNG\r\n\x1a\n") && &b[12..16] == b"IHDR" {
        let w = u32::from_be_bytes(b[16..20].try_into().ok()?);
        let h = u32::from_be_bytes(b[20..24].try_into().ok()?);
        Some((w, h))
    } else {
        None
    }
}

/// Builds (or, with `base`, edits) a message object that serenity's `Message` accepts.
#[allow(clippy::too_many_arguments)]
fn build_message(
    inner: &mut Inner,
    shared: &Shared,
    id: u64,
    channel_id: u64,
    guild_id: Option<u64>,
    base: Option<&Value>,
    payload: &Value,
    files: &[(u64, String, Vec<u8>)],
    kind: u64,
) -> Value {
    let mut msg: Map<String, Value> = match base {
        Some(b) => b.as_object().cloned().unwrap_or_default(),
        None => {
            let mut m = Map::new();
            m.insert("id".into(), json!(id.to_string()));
            m.insert("channel_id".into(), json!(channel_id.to_string()));
            if let Some(g) = guild_id {
                m.insert("guild_id".into(), json!(g.to_string()));
            }
            m.insert("author".into(), bot_user());
            m.insert("content".into(), json!(""));
            m.insert("timestamp".into(), json!(now_rfc3339()));
            m.insert("edited_timestamp".into(), Value::Null);
            m.insert("tts".into(), json!(false));
            m.insert("mention_everyone".into(), json!(false));
            m.insert("mentions".into(), json!([]));
            m.insert("mention_roles".into(), json!([]));
            m.insert("attachments".into(), json!([]));
            m.insert("embeds".into(), json!([]));
            m.insert("components".into(), json!([]));
            m.insert("pinned".into(), json!(false));
            m.insert("type".into(), json!(kind));
            m.insert("flags".into(), json!(0));
            if kind != 0 {
                m.insert("application_id".into(), json!(StandIn::APP_ID.to_string()));
                m.insert("webhook_id".into(), json!(StandIn::APP_ID.to_string()));
            }
            m
        }
    };
    // Make sure the fields serenity requires are there even on a message that came from a
    // hand-made fixture.
    for (k, v) in [
        ("content", json!("")),
        ("edited_timestamp", Value::Null),
        ("tts", json!(false)),
        ("mention_everyone", json!(false)),
        ("mentions", json!([])),
        ("mention_roles", json!([])),
        ("attachments", json!([])),
        ("embeds", json!([])),
        ("pinned", json!(false)),
        ("type", json!(0)),
    ] {
        msg.entry(k).or_insert(v);
    }
    if base.is_some() {
        msg.insert("edited_timestamp".into(), json!(now_rfc3339()));
    }
    if let Some(p) = payload.as_object() {
        for key in ["content", "embeds", "components", "tts", "poll"] {
            if let Some(v) = p.get(key) {
                let v = if v.is_null() && key != "poll" {
                    if key == "content" {
                        json!("")
                    } else if key == "tts" {
                        json!(false)
                    } else {
                        json!([])
                    }
                } else {
                    v.clone()
                };
                msg.insert(key.into(), v);
            }
        }
        if base.is_none() {
            if let Some(f) = p.get("flags").and_then(Value::as_u64) {
                msg.insert("flags".into(), json!(f));
            }
        } else if let Some(f) = p.get("flags").and_then(Value::as_u64) {
            // Edits can only toggle SUPPRESS_EMBEDS; keep EPHEMERAL etc. from the original.
            let old = msg.get("flags").and_then(Value::as_u64).unwrap_or(0);
            msg.insert("flags".into(), json!((old & !4) | (f & 4)));
        }
    }
    if base.is_some() {
        // Editing a deferred response replaces the "thinking…" (LOADING) state.
        let old = msg.get("flags").and_then(Value::as_u64).unwrap_or(0);
        msg.insert("flags".into(), json!(old & !128));
    }

    // Attachments: entries with only an id are kept from the existing message; entries whose id
    // is the index of an uploaded `files[n]` are new. Without an `attachments` list, uploaded
    // files are added to the existing ones.
    let existing: Vec<Value> = msg.get("attachments").and_then(Value::as_array).cloned().unwrap_or_default();
    let new_file = |inner: &mut Inner, name: &str, bytes: &[u8], desc: Option<&Value>| -> Value {
        let aid = inner.new_id();
        let url = format!("{}/attachments/{channel_id}/{aid}/{name}", shared.base_url());
        let mut a = json!({
            "id": aid.to_string(), "filename": name, "size": bytes.len(), "url": url, "proxy_url": url,
            "content_type": content_type_for(name),
        });
        if let Some((w, h)) = png_size(bytes) {
            a["width"] = json!(w);
            a["height"] = json!(h);
        }
        if let Some(d) = desc.filter(|d| !d.is_null()) {
            a["description"] = d.clone();
        }
        a
    };
    let attachments: Vec<Value> = match payload.get("attachments").and_then(Value::as_array) {
        Some(list) => {
            let mut out = Vec::new();
            let mut used = std::collections::HashSet::new();
            for entry in list {
                let eid = id_of(entry.get("id"));
                if let Some(f) = files.iter().find(|f| Some(f.0) == eid) {
                    used.insert(f.0);
                    let name = entry.get("filename").and_then(Value::as_str).unwrap_or(&f.1).to_string();
                    out.push(new_file(inner, &name, &f.2, entry.get("description")));
                } else if let Some(old) = existing.iter().find(|a| id_of(a.get("id")) == eid && eid.is_some()) {
                    out.push(old.clone());
                }
            }
            for f in files.iter().filter(|f| !used.contains(&f.0)) {
                out.push(new_file(inner, &f.1, &f.2, None));
            }
            out
        }
        None => {
            let mut out = existing;
            for f in files {
                out.push(new_file(inner, &f.1, &f.2, None));
            }
            out
        }
    };
    msg.insert("attachments".into(), Value::Array(attachments));
    Value::Object(msg)
}
