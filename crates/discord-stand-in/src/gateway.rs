//! The gateway WebSocket: HELLO, heartbeats, IDENTIFY (a new session and READY), RESUME of a
//! known session, and the frames `INTERACTION_CREATE` is dispatched in.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::objects::bot_user;
use super::state::{Session, Shared};
use super::StandIn;

pub(super) async fn gateway(ws: WebSocketUpgrade, State(shared): State<Arc<Shared>>) -> Response {
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

pub(super) fn text(v: &Value) -> WsMessage {
    WsMessage::Text(v.to_string().into())
}
