//! The REST API: reading JSON and multipart bodies, the routes (gateway discovery, the bot user,
//! application commands and emojis, interaction callbacks, webhooks, channel messages), the
//! faults a test injects, unknown routes, the call log, and command registration.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::channels::channel_route;
use super::emojis::emoji_route;
use super::exchange::{Reply, ReplyKind};
use super::faults::{self, injected, Injected};
use super::objects::{application_info, bot_user, cmd_type, id_of, stored_command};
use super::replies::{callback, followup, webhook_delete, webhook_edit, webhook_get};
use super::state::{Inner, PrivateChannel, Shared};
use super::validation::{api_err, invalid, validate_commands, ApiError};
use super::StandIn;

/// Largest request body the stand-in reads.
pub(super) const BODY_LIMIT: usize = 64 * 1024 * 1024;

pub(super) struct Body {
    pub(super) json: Value,
    /// (index n of `files[n]`, filename, bytes), sorted by index.
    pub(super) files: Vec<(u64, String, Vec<u8>)>,
}

pub(super) fn json_resp(status: u16, v: Value) -> Response {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        [(header::CONTENT_TYPE, "application/json")],
        v.to_string(),
    )
        .into_response()
}

pub(super) fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

pub(super) fn err_resp(e: &ApiError) -> Response {
    let mut body = json!({"code": e.code, "message": e.message});
    if let Some(errors) = &e.errors {
        body["errors"] = errors.clone();
    }
    json_resp(e.status, body)
}

/// Why a body could not be read.
enum Unreadable {
    /// The connection broke before the whole body came (the bot's process was killed while
    /// sending, say): Discord answers nobody then, and there is no call to record.
    Cut(String),
    /// The body came whole but is no JSON or multipart Discord reads: 50109.
    Invalid(String),
}

async fn read_body(req: Request) -> Result<Body, Unreadable> {
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("multipart/form-data"));
    if is_multipart {
        // axum says 500 when the stream itself failed, 4xx when what came is not multipart.
        let why = |what: String, e: axum::extract::multipart::MultipartError| {
            let text = format!("{what}: {e}");
            if e.status() == StatusCode::INTERNAL_SERVER_ERROR {
                Unreadable::Cut(text)
            } else {
                Unreadable::Invalid(text)
            }
        };
        let mut mp =
            Multipart::from_request(req, &()).await.map_err(|e| Unreadable::Invalid(format!("bad multipart: {e}")))?;
        let mut json = Value::Null;
        let mut files = Vec::new();
        let mut other = 0u64;
        while let Some(field) = mp.next_field().await.map_err(|e| why("bad multipart field".into(), e))? {
            let name = field.name().unwrap_or_default().to_string();
            let filename = field.file_name().map(str::to_string);
            let data = field.bytes().await.map_err(|e| why(format!("bad multipart field {name}"), e))?;
            if name == "payload_json" {
                json = serde_json::from_slice(&data)
                    .map_err(|e| Unreadable::Invalid(format!("payload_json is not JSON: {e}")))?;
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
        let bytes: Bytes = axum::body::to_bytes(req.into_body(), BODY_LIMIT)
            .await
            .map_err(|e| Unreadable::Cut(format!("body: {e}")))?;
        let json = if bytes.iter().all(u8::is_ascii_whitespace) {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).map_err(|e| Unreadable::Invalid(format!("body is not JSON: {e}")))?
        };
        Ok(Body { json, files: Vec::new() })
    }
}

pub(super) async fn rest(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let authorization = req.headers().get(header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("?").to_string());
    let body = match read_body(req).await {
        Ok(b) => b,
        Err(Unreadable::Cut(e)) => {
            eprintln!("[stand-in] {method} {path}: the request never came whole ({e})");
            return err_resp(&api_err(400, 0, e));
        }
        Err(Unreadable::Invalid(e)) => {
            eprintln!("[stand-in] {method} {path}: {e}");
            let refusal = api_err(400, 50109, format!("The request body contains invalid JSON ({e})"));
            record_refusal(&shared, &method, &path, Value::Null, &refusal);
            return err_resp(&refusal);
        }
    };
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let segs: &[&str] = match segs.as_slice() {
        ["api", v, rest @ ..] if v.starts_with('v') => rest,
        ["api", rest @ ..] => rest,
        other => other,
    };
    // The webhook limit a channel's interactions share is kept per channel.
    let channel = match segs {
        ["webhooks", _, token, ..] => shared.lock().interactions.get(*token).map(|r| r.channel_id),
        _ => None,
    };
    let admitted = shared.limiter().admit(&method, &path, segs, channel);
    let admitted = match admitted {
        Ok(admitted) => admitted,
        Err(too_many_requests) => return *too_many_requests,
    };
    // A fault the test asked for meets the call in the route's place (and is not the bot's
    // mistake).
    match injected(&shared, &method, &path, &body.json) {
        Some(Injected::Answer(answer)) => {
            shared.bump();
            return admitted.stamp(answer);
        }
        Some(Injected::Reset) => {
            shared.bump();
            return faults::reset();
        }
        Some(Injected::Hang) => {
            shared.bump();
            return std::future::pending().await;
        }
        Some(Injected::AppliedHang) => {
            if let Some(applied) = route(&shared, &method, segs, body) {
                faults::applied_unanswered(&shared, &path, applied).await;
            }
            shared.bump();
            return std::future::pending().await;
        }
        None => {}
    }
    // Discord answers a token it does not know 401 on every route. A call without the header
    // is a test's own (the bot's client always sends it).
    if authorization.as_deref().is_some_and(|a| a != format!("Bot {}", StandIn::TOKEN)) {
        let refusal = api_err(401, 0, "401: Unauthorized");
        record_refusal(&shared, &method, &path, body.json, &refusal);
        return admitted.stamp(err_resp(&refusal));
    }
    if let ["webhooks", _, token, ..] = segs {
        answer_first(&shared, token).await;
    }
    let json = body.json.clone();
    ROUTE_RECORDED.set(false);
    let resp = route(&shared, &method, segs, body);
    // The routes of the bot's messages record their calls themselves, refused or not; any other
    // refusal (a fetch, typing, a DM, commands, an emoji's route...) is recorded here, so that
    // no refused call escapes the refused-call checks.
    let recorded = ROUTE_RECORDED.replace(false);
    let resp = match resp {
        // A 429 (slowmode's, say) is listed with the rate limits' ([`StandIn::rate_limited`]).
        Some(r) if recorded || r.status().is_success() || r.status() == StatusCode::TOO_MANY_REQUESTS => r,
        Some(r) => {
            let (parts, bytes) = r.into_parts();
            let bytes = axum::body::to_bytes(bytes, BODY_LIMIT).await.unwrap_or_default();
            let answered: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            let code = answered.get("code").and_then(Value::as_u64).unwrap_or(0);
            let message = answered.get("message").and_then(Value::as_str).unwrap_or_default();
            let refusal = api_err(parts.status.as_u16(), code, message);
            record_refusal(&shared, &method, &path, json, &refusal);
            Response::from_parts(parts, axum::body::Body::from(bytes))
        }
        None => {
            let what = format!("{method} {path}");
            eprintln!(
                "[stand-in] UNKNOWN ROUTE {what} -> 404 (add it to crates/discord-stand-in/src/rest.rs if the bot needs it)"
            );
            shared.lock().unknown.push(what.clone());
            let refusal = api_err(404, 0, format!("stand-in: unknown route {what}"));
            record_refusal(&shared, &method, &path, json, &refusal);
            err_resp(&refusal)
        }
    };
    shared.bump();
    admitted.stamp(resp)
}

thread_local! {
    /// Whether the route now running recorded its call ([`record`]). Routes run synchronously,
    /// on the thread of [`rest`], which clears and reads this around them; a lock's log could
    /// not tell this request's call from another's recorded meanwhile.
    static ROUTE_RECORDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Records a refused call that no route recorded (as [`ReplyKind::Other`]).
fn record_refusal(shared: &Shared, method: &Method, path: &str, json: Value, refusal: &ApiError) {
    let kind = ReplyKind::Other { method: method.to_string(), path: path.to_string() };
    let error = Some(format!("{} {}", refusal.code, refusal.message));
    record(&mut shared.lock(), shared, kind, None, json, vec![], refusal.status, error, None);
    shared.bump();
}

/// Waits while the first response of the interaction with `token` is on its way back from the
/// bot's HTTP endpoint to the stand-in ([`StandIn::try_interact_http`]): the bot made its next
/// call after handing the answer to its server, and Discord, which reads the answer as it
/// comes, has it by then. The stand-in reads it only once the whole answer is back, so without
/// this wait it would refuse, as not acknowledged yet, a call Discord takes.
async fn answer_first(shared: &Shared, token: &str) {
    let pending = |i: &Inner| (!i.answers_on_their_way.contains(token)).then_some(());
    if shared.wait_for(std::time::Duration::from_secs(10), pending).await.is_none() {
        eprintln!("[stand-in] the endpoint's answer for token {token} never came back");
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
        ("POST", ["users", "@me", "channels"]) => open_dm(shared, &body.json),
        ("GET", ["oauth2", "applications", "@me"]) | ("GET", ["applications", "@me"]) => {
            json_resp(200, application_info())
        }

        // ── application commands ──
        // Discord refuses an application's commands on a server it was removed from.
        (_, ["applications", a, "guilds", g, "commands", ..])
            if *a == app && g.parse().is_ok_and(|g: u64| shared.lock().left_guilds.contains(&g)) =>
        {
            err_resp(&api_err(403, 50001, "Missing Access"))
        }
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

        // ── application emojis ──
        (_, ["applications", a, "emojis", rest @ ..]) => return emoji_route(shared, method, a, rest, body),

        // ── interactions ──
        ("POST", ["interactions", id, token, "callback"]) => callback(shared, id, token, body),
        ("GET", ["webhooks", a, token, "messages", "@original"]) if *a == app => webhook_get(shared, token, None),
        ("PATCH", ["webhooks", a, token, "messages", "@original"]) if *a == app => {
            webhook_edit(shared, token, None, body)
        }
        ("DELETE", ["webhooks", a, token, "messages", "@original"]) if *a == app => webhook_delete(shared, token, None),
        ("POST", ["webhooks", a, token]) if *a == app => followup(shared, token, body),
        ("GET", ["webhooks", a, token, "messages", mid]) if *a == app => {
            webhook_get(shared, token, Some(mid.parse().unwrap_or(0)))
        }
        ("PATCH", ["webhooks", a, token, "messages", mid]) if *a == app => {
            webhook_edit(shared, token, Some(mid.parse().unwrap_or(0)), body)
        }
        ("DELETE", ["webhooks", a, token, "messages", mid]) if *a == app => {
            webhook_delete(shared, token, Some(mid.parse().unwrap_or(0)))
        }

        // ── plain channel messages ──
        (_, ["channels", c, rest @ ..]) => return channel_route(shared, method, c, rest, body),
        _ => return None,
    };
    Some(r)
}

/// `POST /users/@me/channels`: the bot's DM with a user (the same channel every time). Opening
/// it always works; whether a message may go there is the message's question.
fn open_dm(shared: &Arc<Shared>, json: &Value) -> Response {
    let Some(user) = id_of(json.get("recipient_id")) else {
        return err_resp(&invalid("recipient_id: this field is required"));
    };
    let channel_id = StandIn::dm_channel_of(user);
    let dm = PrivateChannel { app_is_member: true, recipients: vec![user] };
    shared.lock().private_channels.insert(channel_id, dm);
    json_resp(
        200,
        json!({
            "id": channel_id.to_string(),
            "type": 1,
            "flags": 0,
            "last_message_id": null,
            "recipients": [super::fixtures::user(user)],
        }),
    )
}

#[allow(clippy::too_many_arguments)]
pub(super) fn record(
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
    ROUTE_RECORDED.set(true);
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

pub(super) fn files_of(body: &Body) -> Vec<(String, Vec<u8>)> {
    body.files.iter().map(|(_, n, b)| (n.clone(), b.clone())).collect()
}

// ── command registration ──

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
    inner.command_registrations += 1;
    drop(inner);
    shared.bump();
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
