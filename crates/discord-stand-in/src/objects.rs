//! Discord's objects as the stand-in makes them: the bot user, the application, messages (built
//! and edited, with attachments given ids, urls and sizes), stored commands; timestamps, content
//! types, and small JSON helpers.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};

use super::state::{Inner, Shared};
use super::StandIn;

pub(super) fn bot_user() -> Value {
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

pub(super) fn application_info() -> Value {
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
pub(super) fn build_message(
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

// ── JSON helpers ──

pub(super) fn cmd_type(cmd: &Value) -> u64 {
    cmd.get("type").and_then(Value::as_u64).unwrap_or(1)
}

pub(super) fn stored_command(cmd: &Value, id: u64, guild: Option<u64>) -> Value {
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

pub(super) fn flatten_components(rows: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for row in rows {
        match row.get("components").and_then(Value::as_array) {
            Some(inner) => out.extend(inner.iter().cloned()),
            None => out.push(row.clone()),
        }
    }
    out
}

pub(super) fn str_field(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

pub(super) fn value_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A snowflake given as a string or a number.
pub(super) fn id_of(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}
