//! The bot's replies, taken as Discord takes them: interaction callbacks (one per interaction),
//! edits and deletions of the original response and follow-ups (only after a callback), new
//! follow-ups and plain channel messages; each checked, applied to the stored messages and
//! recorded.

use std::sync::Arc;
use std::time::Duration;

use axum::response::Response;
use serde_json::{json, Value};

use super::channel_rules::{posted, slowmode_refusal, slowmode_wait};
use super::channels::{check, file_limit, Action};
use super::exchange::ReplyKind;
use super::limits::{check_files, check_flags, CHANNEL_MESSAGE_FLAGS, INTERACTION_MESSAGE_FLAGS};
use super::objects::{build_message, id_of};
use super::rest::{err_resp, files_of, json_resp, no_content, record, Body};
use super::state::{Inner, InteractionRecord, Shared, USER_INSTALL_FOLLOWUPS};
use super::validation::{api_err, invalid, validate_choices, validate_message, validate_modal, ApiError};

/// How long Discord waits for an interaction's first response (an answer or a deferral).
pub(super) const FIRST_RESPONSE_WITHIN: Duration = Duration::from_secs(3);
/// The flag of a deferred response's "thinking…" message.
const LOADING: u64 = 1 << 7;

pub(super) fn callback(shared: &Arc<Shared>, id: &str, token: &str, body: Body) -> Response {
    let mut inner = shared.lock();
    let ty = body.json.get("type").and_then(Value::as_u64).unwrap_or(0) as u8;
    if ty == 4 {
        if let Some(refused) = slowed(&mut inner, shared, token, body.json.get("data"), "callback") {
            return refused;
        }
    }
    let kind = ReplyKind::Callback { type_: ty };
    let files = files_of(&body);
    let result = callback_inner(&mut inner, shared, id, token, ty, &body);
    match result {
        Ok(mid) => {
            if ty == 4 {
                new_message(&mut inner, token, body.json.get("data"));
            }
            record(&mut inner, shared, kind, Some(token), body.json, files, 204, None, mid);
            if let Some(by) = inner.age_on_ack.take() {
                inner.clock_ahead += by;
            }
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
    if elapsed > FIRST_RESPONSE_WITHIN {
        // Discord has dropped the interaction by then; the player saw "The application did not
        // respond". The bot acknowledges first and does slow work after.
        return Err(api_err(
            404,
            10062,
            format!("Unknown interaction (first response {elapsed:?} after dispatch; Discord allows {FIRST_RESPONSE_WITHIN:?})"),
        ));
    }
    let file_limit = rec.file_limit;
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
            validate_message(data, body.files.len(), true, &inner.emojis)?;
            check_flags(data, INTERACTION_MESSAGE_FLAGS)?;
            check_files(&body.files, file_limit)?;
            let mid = inner.new_id();
            let msg = build_message(inner, shared, mid, channel_id, guild_id, None, data, &body.files, 20);
            inner.messages.insert(mid, msg);
            Some(mid)
        }
        5 => {
            if ikind == 4 {
                return Err(invalid("type: autocomplete interactions only accept callback type 8"));
            }
            check_flags(data, INTERACTION_MESSAGE_FLAGS)?;
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
                validate_message(data, body.files.len(), false, &inner.emojis)?;
                check_files(&body.files, file_limit)?;
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

pub(super) fn webhook_edit(shared: &Arc<Shared>, token: &str, mid: Option<u64>, body: Body) -> Response {
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
        if inner.token_expired(rec) {
            return Err(expired());
        }
        let (channel_id, guild_id, file_limit) = (rec.channel_id, rec.guild_id, rec.file_limit);
        let target = token_message(rec, mid)?;
        let base = inner.messages.get(&target).cloned().ok_or_else(|| api_err(404, 10008, "Unknown Message"))?;
        validate_message(&body.json, body.files.len(), false, &inner.emojis)?;
        check_files(&body.files, file_limit)?;
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

pub(super) fn webhook_delete(shared: &Arc<Shared>, token: &str, mid: Option<u64>) -> Response {
    let mut inner = shared.lock();
    let kind = match mid {
        None => ReplyKind::DeleteOriginal,
        Some(_) => ReplyKind::DeleteFollowup,
    };
    let result = reachable(&inner, token, mid).and_then(|target| {
        inner.messages.remove(&target).map(|_| target).ok_or_else(|| api_err(404, 10008, "Unknown Message"))
    });
    match result {
        Ok(target) => {
            record(&mut inner, shared, kind, Some(token), Value::Null, vec![], 204, None, Some(target));
            no_content()
        }
        Err(e) => {
            let error = Some(format!("{} {}", e.code, e.message));
            let target = mid.or_else(|| inner.interactions.get(token).and_then(|r| r.original));
            record(&mut inner, shared, kind, Some(token), Value::Null, vec![], e.status, error, target);
            err_resp(&e)
        }
    }
}

/// `GET /webhooks/{app}/{token}/messages/{id or @original}`: a message the token reaches.
pub(super) fn webhook_get(shared: &Arc<Shared>, token: &str, mid: Option<u64>) -> Response {
    let inner = shared.lock();
    let found = reachable(&inner, token, mid)
        .and_then(|target| inner.messages.get(&target).ok_or_else(|| api_err(404, 10008, "Unknown Message")));
    match found {
        Ok(msg) => json_resp(200, msg.clone()),
        Err(e) => err_resp(&e),
    }
}

/// The message `mid` (None: the original response) through `token`'s webhook, as Discord
/// finds it: an unknown token or one not acknowledged yet is 10015 Unknown Webhook, an expired
/// one 50027, a message the interaction did not make 10008.
fn reachable(inner: &Inner, token: &str, mid: Option<u64>) -> Result<u64, ApiError> {
    let rec =
        inner.interactions.get(token).ok_or_else(|| api_err(404, 10015, "Unknown Webhook (token never dispatched)"))?;
    if rec.acked.is_none() {
        return Err(api_err(404, 10015, "Unknown Webhook (no interaction callback yet for this token)"));
    }
    if inner.token_expired(rec) {
        return Err(expired());
    }
    token_message(rec, mid)
}

/// The message `mid` (None: the original response) if the interaction made it.
fn token_message(rec: &InteractionRecord, mid: Option<u64>) -> Result<u64, ApiError> {
    match mid {
        None => rec
            .original
            .ok_or_else(|| api_err(404, 10008, "Unknown Message (this interaction has no original response message)")),
        Some(m) if rec.owns(m) => Ok(m),
        Some(_) => Err(api_err(404, 10008, "Unknown Message (not a message of this interaction's webhook)")),
    }
}

pub(super) fn followup(shared: &Arc<Shared>, token: &str, body: Body) -> Response {
    let mut inner = shared.lock();
    if let Some(refused) = slowed(&mut inner, shared, token, Some(&body.json), "follow-up") {
        return refused;
    }
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
        if inner.token_expired(rec) {
            return Err(expired());
        }
        if rec.user_install_only && rec.followups >= USER_INSTALL_FOLLOWUPS {
            return Err(api_err(400, 40094, "This interaction has hit the maximum number of follow up messages"));
        }
        let (channel_id, guild_id, file_limit) = (rec.channel_id, rec.guild_id, rec.file_limit);
        // After a deferred message (5), the first follow-up takes the place of the "thinking…"
        // message, with the deferral's visibility, while it is still there.
        let thinking = rec.original.filter(|_| rec.acked == Some(5)).and_then(|m| {
            let loading = inner.messages.get(&m)?.get("flags").and_then(Value::as_u64).unwrap_or(0) & LOADING != 0;
            loading.then_some(m)
        });
        validate_message(&body.json, body.files.len(), true, &inner.emojis)?;
        check_flags(&body.json, INTERACTION_MESSAGE_FLAGS)?;
        check_files(&body.files, file_limit)?;
        let mid = match thinking {
            Some(m) => m,
            None => inner.new_id(),
        };
        if let Some(rec) = inner.interactions.get_mut(token) {
            rec.followups += 1;
            if thinking.is_none() {
                rec.followup_ids.push(mid);
            }
        }
        let base = thinking.and_then(|m| inner.messages.get(&m).cloned());
        let msg =
            build_message(&mut inner, shared, mid, channel_id, guild_id, base.as_ref(), &body.json, &body.files, 19);
        inner.messages.insert(mid, msg.clone());
        Ok((mid, msg))
    })();
    match result {
        Ok((mid, msg)) => {
            new_message(&mut inner, token, Some(&body.json));
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

pub(super) fn channel_message(shared: &Arc<Shared>, channel_id: u64, mid: Option<u64>, body: Body) -> Response {
    let mut inner = shared.lock();
    // Slowmode holds back a post Discord would otherwise take.
    let send = Action::Send { files: !body.files.is_empty() };
    if let Some(wait) = mid.is_none().then(|| slowmode_wait(&inner, channel_id, false)).flatten() {
        if check(&inner, channel_id, send).is_ok() {
            drop(inner);
            return slowmode_refusal(shared, format!("POST /channels/{channel_id}/messages"), channel_id, wait);
        }
    }
    let files = files_of(&body);
    let kind = match mid {
        None => ReplyKind::ChannelMessage { channel_id },
        Some(m) => ReplyKind::EditChannelMessage { channel_id, message_id: m },
    };
    let result = (|| -> Result<(u64, Value), ApiError> {
        let action = match mid {
            None => Action::Send { files: !body.files.is_empty() },
            Some(m) => Action::Edit { message: m, files: !body.files.is_empty() },
        };
        check(&inner, channel_id, action)?;
        validate_message(&body.json, body.files.len(), mid.is_none(), &inner.emojis)?;
        if mid.is_none() {
            check_flags(&body.json, CHANNEL_MESSAGE_FLAGS)?;
        }
        check_files(&body.files, file_limit(&inner, channel_id))?;
        let nonce = if mid.is_none() { nonce_of(&body.json)? } else { None };
        // Discord de-duplicates within "the past few minutes": the stand-in's whole life.
        if let Some(first) = nonce.as_ref().and_then(|n| inner.nonces.get(&(channel_id, n.clone()))) {
            return Ok((*first, inner.messages[first].clone()));
        }
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
        if let Some(nonce) = nonce {
            inner.nonces.insert((channel_id, nonce), target);
        }
        Ok((target, msg))
    })();
    match result {
        Ok((target, msg)) => {
            if mid.is_none() {
                posted(&mut inner, channel_id);
            }
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

/// Slowmode's 429 for a visible message an interaction's token posts (`data`: its body), where
/// the reading does not spare interactions.
fn slowed(inner: &mut Inner, shared: &Shared, token: &str, data: Option<&Value>, what: &str) -> Option<Response> {
    let channel_id = inner.interactions.get(token)?.channel_id;
    if ephemeral(data) {
        return None;
    }
    let wait = slowmode_wait(inner, channel_id, true)?;
    Some(slowmode_refusal(shared, format!("{what} of {token}"), channel_id, wait))
}

/// Whether a message body is only for the user who acted (slowmode does not count it).
fn ephemeral(data: Option<&Value>) -> bool {
    data.and_then(|d| d.get("flags")).and_then(Value::as_u64).unwrap_or(0) & 64 != 0
}

/// Slowmode counts a visible message an interaction's token posted.
fn new_message(inner: &mut Inner, token: &str, data: Option<&Value>) {
    if let Some(channel_id) = inner.interactions.get(token).map(|r| r.channel_id).filter(|_| !ephemeral(data)) {
        posted(inner, channel_id);
    }
}

/// Discord's answer to a webhook call with an interaction token past its 15 minutes.
fn expired() -> ApiError {
    api_err(401, 50027, "Invalid Webhook Token (the interaction's 15 minutes have passed)")
}

/// Refuses messages to a DM whose user the bot may not write to ("Cannot send messages to this
/// user": they neither installed the app nor share a server with it). The channels the app is
/// not in never get here: the router refuses all their routes.
pub(super) fn refuse_unreachable_dm(inner: &Inner, channel_id: u64) -> Result<(), ApiError> {
    if let Some(dm) = inner.private_channels.get(&channel_id) {
        if dm.app_is_member && !dm.recipients.iter().all(|u| inner.reachable_users.contains(u)) {
            return Err(api_err(403, 50007, "Cannot send messages to this user"));
        }
    }
    Ok(())
}

/// The nonce a new channel message is to be de-duplicated by (`enforce_nonce`), checked as
/// Discord checks it: a string of at most 25 characters or an integer.
fn nonce_of(m: &Value) -> Result<Option<String>, ApiError> {
    let nonce = match m.get("nonce") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.chars().count() <= 25 => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(_) => return Err(invalid("nonce: must be a string of 25 or fewer characters or an integer")),
    };
    Ok(nonce.filter(|_| m.get("enforce_nonce").and_then(Value::as_bool) == Some(true)))
}
