//! The stand-in's shared state: gateway sessions, the interactions dispatched, the messages as
//! Discord keeps them, the application's emojis, the log of the bot's calls and the faults a test
//! injected, behind one lock whose changes wake the waiting tests.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::ws::Message as WsMessage;
use serde_json::Value;
use tokio::sync::{mpsc, watch};

use super::channels::{register_channel, GuildChannel, DEFAULT_FILE_LIMIT};
use super::emojis::AppEmojis;
use super::exchange::{Exchange, Reply};
use super::faults::Faults;
use super::objects::id_of;

pub(super) struct Session {
    /// 1-based, in order of IDENTIFY.
    pub(super) number: usize,
    pub(super) session_id: String,
    /// Sender of the connection currently attached (None when disconnected).
    pub(super) tx: Option<mpsc::UnboundedSender<WsMessage>>,
    pub(super) conn: u64,
    pub(super) seq: u64,
    pub(super) identify: Value,
}

pub(super) struct InteractionRecord {
    /// The session (1-based, in order of IDENTIFY) the interaction was sent to.
    pub(super) session: usize,
    pub(super) payload: Value,
    pub(super) interaction_id: u64,
    pub(super) kind: u64,
    pub(super) channel_id: u64,
    pub(super) guild_id: Option<u64>,
    pub(super) dispatched_at: Instant,
    /// How far the stand-in's clock was ahead when it was dispatched.
    pub(super) dispatched_ahead: Duration,
    pub(super) acked: Option<u8>,
    pub(super) original: Option<u64>,
    /// Installed only to a user where it happened (`authorizing_integration_owners` names a
    /// user and no server): Discord allows such an interaction five follow-ups.
    pub(super) user_install_only: bool,
    /// Follow-ups created with the token so far.
    pub(super) followups: usize,
    /// The messages those follow-ups made (a follow-up that replaced a deferral's "thinking…"
    /// is the original): with the original, the only messages the token reaches.
    pub(super) followup_ids: Vec<u64>,
    /// The largest file a message of this interaction may carry (`attachment_size_limit`).
    pub(super) file_limit: u64,
}

impl InteractionRecord {
    /// Whether the interaction's webhook reaches message `id`: its original response or one of
    /// its follow-ups (Discord's 10008 Unknown Message for any other).
    pub(super) fn owns(&self, id: u64) -> bool {
        self.original == Some(id) || self.followup_ids.contains(&id)
    }
}

/// A DM or group DM the stand-in has seen an interaction come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PrivateChannel {
    /// The app's bot user is one of the channel's recipients (its own DM with a user): it may
    /// use the channel's endpoints there; elsewhere only the interactions' webhooks.
    pub(super) app_is_member: bool,
    /// The users in it (besides the bot).
    pub(super) recipients: Vec<u64>,
}

pub(super) struct Inner {
    pub(super) sessions: Vec<Session>,
    pub(super) next_conn: u64,
    pub(super) next_id: u64,
    pub(super) global_commands: Vec<Value>,
    pub(super) guild_commands: HashMap<u64, Vec<Value>>,
    /// Bulk overwrites of commands accepted (global or a guild's): one per registration.
    pub(super) command_registrations: usize,
    /// Servers the application was removed from ([`super::StandIn::remove_from_guild`]): its
    /// commands' routes there answer 403 with 50001 Missing Access, as Discord's do.
    pub(super) left_guilds: std::collections::HashSet<u64>,
    pub(super) interactions: HashMap<String, InteractionRecord>,
    pub(super) messages: HashMap<u64, Value>,
    pub(super) calls: Vec<Reply>,
    /// Positions in `calls` of each interaction token's calls (the load harness waits on
    /// hundreds of tokens at once; scanning the whole log per wake-up was quadratic).
    pub(super) calls_by_token: HashMap<String, Vec<usize>>,
    pub(super) unknown: Vec<String>,
    /// When each heartbeat (op 1) arrived, per gateway connection.
    pub(super) heartbeats: Vec<(u64, Instant)>,
    /// Messages deleted by someone in the channel ([`StandIn::delete_message`](crate::StandIn::delete_message)): a tap on a
    /// copy still on a player's screen does not bring them back.
    pub(super) deleted: std::collections::HashSet<u64>,
    /// The server channels and threads interactions came from, with the bot's permissions.
    pub(super) channels: HashMap<u64, GuildChannel>,
    /// The DMs and group DMs interactions came from, and the DMs the bot opened.
    pub(super) private_channels: HashMap<u64, PrivateChannel>,
    /// Users who installed the app to their account (seen as an authorizing owner), and users
    /// seen in a server with it: the people the bot may open a DM with.
    pub(super) reachable_users: std::collections::HashSet<u64>,
    /// How far the stand-in's clock is ahead of the real one ([`super::StandIn::advance_clock`]):
    /// interaction tokens expire 15 minutes after their interaction by this clock (an
    /// interaction dispatched after a jump is as fresh as any).
    pub(super) clock_ahead: Duration,
    /// How far the clock jumps once the next interaction is acknowledged
    /// ([`super::StandIn::age_after_next_answer`]).
    pub(super) age_on_ack: Option<Duration>,
    /// The application's own emojis, with their images.
    pub(super) emojis: AppEmojis,
    /// The faults a test injected ([`super::StandIn::fail_calls`], [`super::StandIn::set_weather`]),
    /// and the calls they answered.
    pub(super) faults: Faults,
    /// The channel messages posted with an enforced nonce: (channel, nonce) to message id.
    pub(super) nonces: HashMap<(u64, String), u64>,
    /// The tokens of interactions delivered to an HTTP endpoint whose answer has not come back
    /// to the stand-in yet: their webhook calls wait for it (`rest::answer_first`).
    pub(super) answers_on_their_way: std::collections::HashSet<String>,
    /// How the rules Discord's documentation leaves open are read (`channel_rules`).
    pub(super) readings: super::channel_rules::Readings,
    /// Users who closed their DMs to the bot ([`super::StandIn::close_dms`]).
    pub(super) closed_dms: std::collections::HashSet<u64>,
}

/// How long Discord keeps an interaction's token valid for its webhooks.
pub(super) const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// How many follow-ups Discord allows an interaction of an app installed only to a user.
pub(super) const USER_INSTALL_FOLLOWUPS: usize = 5;

impl Inner {
    /// Whether `token`'s interaction is older than Discord keeps its webhook, by the
    /// stand-in's clock.
    pub(super) fn token_expired(&self, rec: &InteractionRecord) -> bool {
        rec.dispatched_at.elapsed() + self.clock_ahead.saturating_sub(rec.dispatched_ahead) >= TOKEN_LIFETIME
    }

    /// Whether the app may not use the endpoints of `channel_id` (a DM or group DM it is not
    /// in; it answers there only through interactions).
    pub(super) fn outside_of(&self, channel_id: u64) -> bool {
        self.private_channels.get(&channel_id).is_some_and(|c| !c.app_is_member)
    }

    /// The calls made with `token`, in order.
    pub(super) fn calls_of<'a>(&'a self, token: &str) -> impl Iterator<Item = &'a Reply> + 'a {
        let at = self.calls_by_token.get(token).map(Vec::as_slice).unwrap_or_default();
        at.iter().map(|&i| &self.calls[i])
    }
}

pub(super) struct Shared {
    pub(super) inner: Mutex<Inner>,
    pub(super) version: watch::Sender<u64>,
    pub(super) port: u16,
    pub(super) started: Instant,
    /// The heartbeat interval announced in HELLO, in milliseconds.
    pub(super) heartbeat_ms: std::sync::atomic::AtomicU64,
    /// Discord's rate limits on the REST API.
    pub(super) limiter: Mutex<super::rate_limits::Limiter>,
}

impl Shared {
    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn limiter(&self) -> MutexGuard<'_, super::rate_limits::Limiter> {
        self.limiter.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn bump(&self) {
        self.version.send_modify(|v| *v += 1);
    }

    pub(super) fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub(super) fn gateway_url(&self) -> String {
        format!("ws://127.0.0.1:{}/gateway", self.port)
    }

    /// Waits until `f` returns Some, re-checking on every state change, up to `timeout`.
    pub(super) async fn wait_for<T>(&self, timeout: Duration, mut f: impl FnMut(&Inner) -> Option<T>) -> Option<T> {
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
    pub(super) fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub(super) fn live_session(&self) -> Option<usize> {
        self.sessions.iter().rposition(|s| s.tx.is_some())
    }

    /// The connected session that receives events of `guild_id`: with several shards, the one
    /// whose IDENTIFY named shard `(guild_id >> 22) % total` (Discord's rule; DMs go to shard 0);
    /// with one, the newest connected session.
    pub(super) fn session_for(&self, guild_id: Option<u64>) -> Option<usize> {
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

/// Everything recorded for `token` so far, as an exchange.
pub(super) fn exchange_of(inner: &Inner, token: &str) -> Exchange {
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
pub(super) fn register(inner: &mut Inner, payload: &Value, session: usize) {
    let token = payload.get("token").and_then(Value::as_str).unwrap_or_default().to_string();
    if !token.is_empty() {
        let rec = InteractionRecord {
            interaction_id: id_of(payload.get("id")).unwrap_or(0),
            kind: payload.get("type").and_then(Value::as_u64).unwrap_or(0),
            channel_id: id_of(payload.get("channel_id")).unwrap_or(0),
            guild_id: id_of(payload.get("guild_id")),
            payload: payload.clone(),
            dispatched_at: Instant::now(),
            dispatched_ahead: inner.clock_ahead,
            acked: None,
            original: None,
            session,
            user_install_only: user_install_only(payload),
            followups: 0,
            followup_ids: Vec::new(),
            file_limit: payload.get("attachment_size_limit").and_then(Value::as_u64).unwrap_or(DEFAULT_FILE_LIMIT),
        };
        inner.interactions.insert(token, rec);
    }
    register_channel(inner, payload);
    let owners = payload.get("authorizing_integration_owners");
    if let Some(user) = id_of(owners.and_then(|o| o.get("1"))) {
        inner.reachable_users.insert(user);
    }
    let actor = id_of(payload.pointer("/member/user/id")).or_else(|| id_of(payload.pointer("/user/id")));
    // Someone in a server with the app, or writing in its own DM, may be written to.
    let in_own_dm = payload.get("context").and_then(Value::as_u64) == Some(1);
    if let Some(user) = actor.filter(|_| in_own_dm || payload.get("guild_id").is_some()) {
        inner.reachable_users.insert(user);
    }
    // A DM (1) or group DM (3): the app is in it only when it is its own DM with the user
    // (context 1, the bot's DM); in any other private channel (context 2) it only answers.
    let channel_type = payload.pointer("/channel/type").and_then(Value::as_u64);
    if let (Some(1 | 3), Some(channel_id)) = (channel_type, id_of(payload.get("channel_id"))) {
        let recipients: Vec<u64> = payload
            .pointer("/channel/recipients")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(|u| id_of(u.get("id"))).collect())
            .unwrap_or_default();
        let app_is_member = payload.get("context").and_then(Value::as_u64) == Some(1);
        inner.private_channels.insert(channel_id, PrivateChannel { app_is_member, recipients });
    }
    // A component interaction is on a message: make sure the stand-in knows that message so
    // that "update message" callbacks have something to update.
    if let Some(msg) = payload.get("message") {
        if let Some(mid) = id_of(msg.get("id")).filter(|mid| !inner.deleted.contains(mid)) {
            inner.messages.entry(mid).or_insert_with(|| msg.clone());
        }
    }
}

/// Whether the interaction's app is installed only to a user there (no server install).
fn user_install_only(payload: &Value) -> bool {
    let owners = payload.get("authorizing_integration_owners");
    owners.and_then(|o| o.get("1")).is_some() && owners.and_then(|o| o.get("0")).is_none()
}
