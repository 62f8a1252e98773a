//! The stand-in's shared state: gateway sessions, the interactions dispatched, the messages as
//! Discord keeps them and the log of the bot's calls, behind one lock whose changes wake the
//! waiting tests.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::ws::Message as WsMessage;
use serde_json::Value;
use tokio::sync::{mpsc, watch};

use super::exchange::{Exchange, Reply};
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
    pub(super) acked: Option<u8>,
    pub(super) original: Option<u64>,
}

pub(super) struct Inner {
    pub(super) sessions: Vec<Session>,
    pub(super) next_conn: u64,
    pub(super) next_id: u64,
    pub(super) global_commands: Vec<Value>,
    pub(super) guild_commands: HashMap<u64, Vec<Value>>,
    pub(super) interactions: HashMap<String, InteractionRecord>,
    pub(super) messages: HashMap<u64, Value>,
    pub(super) calls: Vec<Reply>,
    /// Positions in `calls` of each interaction token's calls (the load harness waits on
    /// hundreds of tokens at once; scanning the whole log per wake-up was quadratic).
    pub(super) calls_by_token: HashMap<String, Vec<usize>>,
    pub(super) unknown: Vec<String>,
    /// When each heartbeat (op 1) arrived, per gateway connection.
    pub(super) heartbeats: Vec<(u64, Instant)>,
    /// Messages deleted by someone in the channel ([`StandIn::delete_message`]): a tap on a
    /// copy still on a player's screen does not bring them back.
    pub(super) deleted: std::collections::HashSet<u64>,
}

impl Inner {
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
}

impl Shared {
    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
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
