//! The application's own emojis, as Discord keeps them (docs.discord.com, "Emoji Resource":
//! List, Get, Create, Modify and Delete Application Emoji under `/applications/{id}/emojis`),
//! each with the image it was uploaded with, so that a test sees the very picture a button shows.
//!
//! What Discord refuses of a create (and a rename), with its answers:
//! * another application's id: 403, 20012 ("You are not authorized to perform this action on
//!   this application");
//! * a name that is not 2-32 letters, digits or underscores: 400, 50035 with the field's error
//!   (`BASE_TYPE_BAD_LENGTH`, `STRING_TYPE_REGEX`, `BASE_TYPE_REQUIRED`);
//! * a name the application already has: 400, 50035 with `APPLICATION_EMOJI_NAME_ALREADY_TAKEN`;
//! * an image that is no data URI of a PNG, JPEG, GIF, WebP or AVIF (the formats the docs list),
//!   or whose bytes are not that format: 400, 50035 with `IMAGE_INVALID`;
//! * an image past 256 KiB: 400 "and an error message, but not a JSON status code" (the docs'
//!   words), so code 0, Discord's general error;
//! * a 2001st emoji ("An application can own up to 2000 emojis"): 400, 30008 "Maximum number of
//!   emojis reached";
//! * an emoji id the application does not have: 404, 10014 Unknown Emoji.

use std::sync::Arc;

use axum::http::Method;
use axum::response::Response;
use serde_json::{json, Value};

use super::exchange::ReplyKind;
use super::objects::bot_user;
use super::rest::{err_resp, json_resp, no_content, record, Body};
use super::state::Shared;
use super::validation::{api_err, invalid_field, ApiError};
use super::StandIn;

/// How many emojis an application may own.
pub(super) const MAX_EMOJIS: usize = 2000;
/// The largest image an emoji may have: 256 KiB.
pub(super) const MAX_IMAGE_BYTES: usize = 256 * 1024;

/// One emoji of the application.
#[derive(Clone, Debug)]
pub(super) struct AppEmoji {
    pub(super) id: u64,
    pub(super) name: String,
    /// The image as uploaded, decoded from its data URI.
    pub(super) image: Vec<u8>,
    pub(super) animated: bool,
    /// Who uploaded it: the bot user through the API, a team member in the portal.
    pub(super) user: Value,
}

impl AppEmoji {
    /// The emoji object Discord answers with.
    fn object(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "name": self.name,
            "roles": [],
            "user": self.user,
            "require_colons": true,
            "managed": false,
            "animated": self.animated,
            "available": true,
        })
    }
}

/// The application's emojis and what was asked of them.
#[derive(Default)]
pub(super) struct AppEmojis {
    pub(super) list: Vec<AppEmoji>,
    /// Deletions Discord accepted.
    pub(super) deletes: usize,
}

impl AppEmojis {
    /// Whether the application has the emoji `id` (a component may show it).
    pub(super) fn owns(&self, id: u64) -> bool {
        self.list.iter().any(|e| e.id == id)
    }

    fn find(&self, id: &str) -> Result<usize, ApiError> {
        let id: u64 = id.parse().unwrap_or(0);
        self.list.iter().position(|e| e.id == id).ok_or_else(|| api_err(404, 10014, "Unknown Emoji"))
    }

    /// Refuses a name Discord refuses, or one another emoji of the application has.
    fn check_name(&self, name: Option<&Value>, except: Option<u64>) -> Result<String, ApiError> {
        let Some(name) = name.and_then(Value::as_str) else {
            return Err(invalid_field("name", "BASE_TYPE_REQUIRED", "This field is required"));
        };
        if !(2..=32).contains(&name.chars().count()) {
            return Err(invalid_field("name", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length."));
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(invalid_field("name", "STRING_TYPE_REGEX", "String value did not match validation regex."));
        }
        if self.list.iter().any(|e| e.name == name && Some(e.id) != except) {
            return Err(invalid_field(
                "name",
                "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                "An application emoji with this name already exists.",
            ));
        }
        Ok(name.to_string())
    }
}

/// The image of a create: a data URI of one of the formats Discord takes, within its size.
/// Returns the bytes and whether they are animated (a GIF).
fn image_of(uri: Option<&Value>) -> Result<(Vec<u8>, bool), ApiError> {
    let bad = || invalid_field("image", "IMAGE_INVALID", "Invalid image data");
    let uri = uri.and_then(Value::as_str).ok_or_else(bad)?;
    let (head, data) = uri.strip_prefix("data:").and_then(|rest| rest.split_once(";base64,")).ok_or_else(bad)?;
    let bytes = decode_base64(data).ok_or_else(bad)?;
    let magic: fn(&[u8]) -> bool = match head {
        "image/png" => |b| b.starts_with(b"\x89PNG\r\n\x1a\n"),
        "image/jpeg" | "image/jpg" => |b| b.starts_with(&[0xFF, 0xD8, 0xFF]),
        "image/gif" => |b| b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a"),
        "image/webp" => |b| b.len() > 12 && b.starts_with(b"RIFF") && &b[8..12] == b"WEBP",
        "image/avif" => |b| b.len() > 12 && &b[4..8] == b"ftyp" && &b[8..12] == b"avif",
        _ => return Err(bad()),
    };
    if !magic(&bytes) {
        return Err(bad());
    }
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(api_err(400, 0, "File cannot be larger than 256.0 kb."));
    }
    Ok((bytes, head == "image/gif"))
}

/// Standard base64 (with or without padding), as a data URI carries it.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits = text.trim_end_matches('=').as_bytes();
    if text.len() - digits.len() > 2 || digits.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)?) << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    Some(out)
}

/// What an accepted call did.
enum Done {
    /// An emoji object (or the list) to answer with.
    Answer(u16, Value),
    /// A new emoji, to be given an id.
    Created {
        name: String,
        image: Vec<u8>,
        animated: bool,
    },
    Deleted,
}

/// `/applications/{app}/emojis[/{id}]`; None for a route Discord does not have there.
pub(super) fn emoji_route(
    shared: &Arc<Shared>,
    method: &Method,
    app: &str,
    rest: &[&str],
    body: Body,
) -> Option<Response> {
    let emoji_id = rest.first().map(|id| id.parse().unwrap_or(0));
    let kind = match (method.as_str(), emoji_id) {
        ("GET", None) => ReplyKind::ListApplicationEmojis,
        ("POST", None) => ReplyKind::CreateApplicationEmoji,
        ("GET", Some(emoji_id)) => ReplyKind::GetApplicationEmoji { emoji_id },
        ("PATCH", Some(emoji_id)) => ReplyKind::EditApplicationEmoji { emoji_id },
        ("DELETE", Some(emoji_id)) => ReplyKind::DeleteApplicationEmoji { emoji_id },
        _ => return None,
    };
    if rest.len() > 1 {
        return None;
    }
    let mut inner = shared.lock();
    let emojis = &mut inner.emojis;
    let done = (|| -> Result<Done, ApiError> {
        if app != StandIn::APP_ID.to_string() {
            return Err(api_err(403, 20012, "You are not authorized to perform this action on this application"));
        }
        let Some(id) = rest.first() else {
            if kind == ReplyKind::ListApplicationEmojis {
                let items: Vec<Value> = emojis.list.iter().map(AppEmoji::object).collect();
                return Ok(Done::Answer(200, json!({ "items": items })));
            }
            let name = emojis.check_name(body.json.get("name"), None)?;
            let (image, animated) = image_of(body.json.get("image"))?;
            if emojis.list.len() >= MAX_EMOJIS {
                return Err(api_err(400, 30008, format!("Maximum number of emojis reached ({MAX_EMOJIS})")));
            }
            return Ok(Done::Created { name, image, animated });
        };
        let at = emojis.find(id)?;
        match kind {
            ReplyKind::EditApplicationEmoji { .. } => {
                emojis.list[at].name = emojis.check_name(body.json.get("name"), Some(emojis.list[at].id))?;
            }
            ReplyKind::DeleteApplicationEmoji { .. } => {
                emojis.list.remove(at);
                emojis.deletes += 1;
                return Ok(Done::Deleted);
            }
            _ => {}
        }
        Ok(Done::Answer(200, emojis.list[at].object()))
    })();
    // A new emoji is stored here, where a new id may be taken.
    let answer = done.map(|done| match done {
        Done::Created { name, image, animated } => {
            let emoji = AppEmoji { id: inner.new_id(), name, image, animated, user: bot_user() };
            let object = emoji.object();
            inner.emojis.list.push(emoji);
            (201, object)
        }
        Done::Answer(status, object) => (status, object),
        Done::Deleted => (204, Value::Null),
    });
    let (status, error) = match &answer {
        Ok((status, _)) => (*status, None),
        Err(e) => (e.status, Some(format!("{} {}", e.code, e.message))),
    };
    record(&mut inner, shared, kind, None, body.json, vec![], status, error, None);
    Some(match answer {
        Ok((204, _)) => no_content(),
        Ok((status, object)) => json_resp(status, object),
        Err(e) => err_resp(&e),
    })
}

impl StandIn {
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
        let owner = crate::objects::application_info()["owner"].clone();
        let animated = image.starts_with(b"GIF8");
        inner.emojis.list.push(AppEmoji { id, name: name.into(), image: image.into(), animated, user: owner });
        drop(inner);
        self.shared.bump();
        id
    }

    /// Waits until the application has at least `n` emojis and returns them like
    /// [`Self::application_emojis`]. Panics after `timeout`.
    pub async fn wait_application_emojis(&self, n: usize, timeout: std::time::Duration) -> Vec<(u64, String, Vec<u8>)> {
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
}
