//! The channels the stand-in knows and what the bot may do in each, as Discord decides it: the
//! server channels and threads interactions came from (the bot's permissions there are the
//! interaction's `app_permissions`, less what a test took away, which later interactions from
//! there no longer carry either), and the DMs and group DMs
//! (`state::PrivateChannel`). The channel endpoints (`/channels/{id}/...`) are answered here.
//!
//! Discord's answers, in the order it checks: a DM or group DM the app is not in, 50001 Missing
//! Access; a channel it does not know (deleted, or never seen), 10003 Unknown Channel; a server
//! channel the bot cannot see, 50001; a missing permission (SEND_MESSAGES, or
//! SEND_MESSAGES_IN_THREADS in a thread, ATTACH_FILES for files, posted or added by an edit,
//! READ_MESSAGE_HISTORY to fetch a
//! message, MANAGE_MESSAGES to delete another's), 50013 Missing Permissions; a message id that is
//! not a message of that channel (or an ephemeral one, which only its interaction's webhook
//! reaches), 10008 Unknown Message; an edit of another user's message, 50005; a deletion of
//! another's message in a DM, 50003.

use std::sync::Arc;

use axum::http::Method;
use axum::response::Response;
use serde_json::Value;

use super::channel_rules::{
    check_archived, check_closed_dm, is_modify_channel, modify_thread, thread_archived, ChannelState,
};
use super::exchange::ReplyKind;
use super::fixtures::{self, Ctx};
use super::objects::id_of;
use super::replies::{channel_message, refuse_unreachable_dm};
use super::rest::{err_resp, json_resp, no_content, record, Body};
use super::state::{Inner, Shared};
use super::validation::{api_err, ApiError};
use super::StandIn;

/// Permission bits Discord checks for the channel endpoints the bot uses.
pub mod permission {
    /// Manage Channels (a thread unarchived by `PATCH /channels/{id}`).
    pub const MANAGE_CHANNELS: u64 = 1 << 4;
    /// View Channel: without it the channel is not reachable (50001).
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    /// Send Messages, in a channel.
    pub const SEND_MESSAGES: u64 = 1 << 11;
    /// Manage Messages (another user's message deleted).
    pub const MANAGE_MESSAGES: u64 = 1 << 13;
    /// Attach Files, for a file posted or added by an edit.
    pub const ATTACH_FILES: u64 = 1 << 15;
    /// Read Message History (messages fetched).
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    /// Manage Threads (an archived thread unarchived).
    pub const MANAGE_THREADS: u64 = 1 << 34;
    /// Send Messages in Threads, in a thread.
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
}
use permission::*;

/// Discord's upload limit per file where a server has no boost (an interaction tells its own,
/// `attachment_size_limit`).
pub(super) const DEFAULT_FILE_LIMIT: u64 = 10 * 1024 * 1024;

/// A server channel or thread an interaction came from.
#[derive(Clone, Debug)]
pub(super) struct GuildChannel {
    pub(super) thread: bool,
    /// The bot's permissions there, as the latest interaction from it said.
    pub(super) granted: u64,
    /// Permissions a test took away ([`StandIn::withhold_permissions`]); kept when the next
    /// interaction says otherwise.
    pub(super) withheld: u64,
    /// The largest file a message there may carry.
    pub(super) file_limit: u64,
    /// Archived or locked, its slowmode, the bot's last post (`channel_rules`).
    pub(super) state: ChannelState,
}

impl GuildChannel {
    pub(super) fn allows(&self, bits: u64) -> bool {
        self.granted & !self.withheld & bits == bits
    }
}

/// What the bot asks of a channel.
#[derive(Clone, Copy, Debug)]
pub(super) enum Action {
    /// Post a message (with files or not).
    Send { files: bool },
    /// Fetch a message.
    Read(u64),
    /// Edit a message, adding files or not.
    Edit { message: u64, files: bool },
    /// Delete a message.
    Delete(u64),
}

/// Records the server channel an interaction comes from, with the bot's permissions there.
pub(super) fn register_channel(inner: &mut Inner, payload: &Value) {
    let (Some(guild), Some(channel_id)) = (id_of(payload.get("guild_id")), id_of(payload.get("channel_id"))) else {
        return;
    };
    let thread = matches!(payload.pointer("/channel/type").and_then(Value::as_u64), Some(10..=12));
    // Where only a user installed the app, the bot is not in the server: its own endpoints
    // reach nothing there (the interaction's webhook answers).
    let bot_in_server = payload.pointer("/authorizing_integration_owners/0").is_some();
    let granted = if bot_in_server { id_of(payload.get("app_permissions")).unwrap_or(u64::MAX) } else { 0 };
    let file_limit = payload.get("attachment_size_limit").and_then(Value::as_u64).unwrap_or(DEFAULT_FILE_LIMIT);
    let (withheld, mut state) =
        inner.channels.get(&channel_id).map_or((0, ChannelState::default()), |c| (c.withheld, c.state.clone()));
    state.guild_id = guild;
    state.parent_id = id_of(payload.pointer("/channel/parent_id"));
    inner.channels.insert(channel_id, GuildChannel { thread, granted, withheld, file_limit, state });
}

/// `payload` (an interaction) as Discord sends it: its `app_permissions` without what a test
/// took away in its channel ([`StandIn::withhold_permissions`]).
pub(super) fn as_discord_sends(inner: &Inner, mut payload: Value) -> Value {
    let withheld = id_of(payload.get("channel_id")).and_then(|c| inner.channels.get(&c)).map_or(0, |c| c.withheld);
    if let Some(app) = id_of(payload.get("app_permissions")).filter(|_| withheld != 0) {
        payload["app_permissions"] = Value::String((app & !withheld).to_string());
    }
    payload
}

/// Whether Discord lets the bot do `action` in `channel_id` (see the module docs).
pub(super) fn check(inner: &Inner, channel_id: u64, action: Action) -> Result<(), ApiError> {
    if inner.outside_of(channel_id) {
        return Err(api_err(403, 50001, "Missing Access (the app is not in this DM or group DM)"));
    }
    let guild = inner.channels.get(&channel_id);
    let private = inner.private_channels.get(&channel_id);
    if guild.is_none() && private.is_none() {
        return Err(api_err(404, 10003, "Unknown Channel"));
    }
    let missing = |bits: u64, what: &str| -> Result<(), ApiError> {
        match guild {
            Some(c) if !c.allows(bits) => Err(api_err(403, 50013, format!("Missing Permissions ({what})"))),
            _ => Ok(()),
        }
    };
    missing(VIEW_CHANNEL, "VIEW_CHANNEL").map_err(|_| api_err(403, 50001, "Missing Access (VIEW_CHANNEL)"))?;
    let message = |mid: u64| -> Result<&Value, ApiError> {
        inner
            .messages
            .get(&mid)
            .filter(|m| id_of(m.get("channel_id")) == Some(channel_id))
            // Only the interaction's webhook reaches an ephemeral message.
            .filter(|m| m.get("flags").and_then(Value::as_u64).unwrap_or(0) & 64 == 0)
            .ok_or_else(|| api_err(404, 10008, "Unknown Message (not a message of this channel)"))
    };
    let by_bot = |m: &Value| id_of(m.pointer("/author/id")) == Some(StandIn::BOT_USER_ID);
    match action {
        Action::Send { files } => {
            if guild.is_some_and(|c| c.thread) {
                missing(SEND_MESSAGES_IN_THREADS, "SEND_MESSAGES_IN_THREADS")?;
            } else {
                missing(SEND_MESSAGES, "SEND_MESSAGES")?;
            }
            if files {
                missing(ATTACH_FILES, "ATTACH_FILES")?;
            }
            if let Some(c) = guild {
                check_archived(inner.readings, c)?;
            }
            check_closed_dm(inner, channel_id)?;
            refuse_unreachable_dm(inner, channel_id)
        }
        Action::Read(mid) => {
            missing(READ_MESSAGE_HISTORY, "READ_MESSAGE_HISTORY")?;
            message(mid).map(drop)
        }
        Action::Edit { message: mid, files } => {
            if !by_bot(message(mid)?) {
                return Err(api_err(403, 50005, "Cannot edit a message authored by another user"));
            }
            if files {
                missing(ATTACH_FILES, "ATTACH_FILES")?;
            }
            // An edit never unarchives a thread (only a new message might, by reading).
            if guild.is_some_and(|c| c.thread && c.state.archived) {
                return Err(thread_archived());
            }
            Ok(())
        }
        Action::Delete(mid) => {
            if by_bot(message(mid)?) {
                Ok(())
            } else if guild.is_some() {
                missing(MANAGE_MESSAGES, "MANAGE_MESSAGES")
            } else {
                Err(api_err(403, 50003, "Cannot execute action on a DM channel"))
            }
        }
    }
}

/// The largest file a message in `channel_id` may carry.
pub(super) fn file_limit(inner: &Inner, channel_id: u64) -> u64 {
    inner.channels.get(&channel_id).map_or(DEFAULT_FILE_LIMIT, |c| c.file_limit)
}

/// `/channels/{channel}/...`: messages posted, fetched, edited and deleted, and typing. None for
/// a route Discord does not have.
pub(super) fn channel_route(
    shared: &Arc<Shared>,
    method: &Method,
    channel: &str,
    rest: &[&str],
    body: Body,
) -> Option<Response> {
    let Ok(c) = channel.parse::<u64>() else {
        return Some(err_resp(&api_err(404, 10003, "Unknown Channel")));
    };
    if is_modify_channel(method, rest) {
        return Some(modify_thread(shared, c, body));
    }
    let r = match (method.as_str(), rest) {
        ("POST", ["messages"]) => channel_message(shared, c, None, body),
        ("PATCH", ["messages", m]) => channel_message(shared, c, Some(id(m)), body),
        ("GET", ["messages", m]) => {
            let inner = shared.lock();
            match check(&inner, c, Action::Read(id(m))) {
                Ok(()) => json_resp(200, inner.messages[&id(m)].clone()),
                Err(e) => err_resp(&e),
            }
        }
        ("DELETE", ["messages", m]) => delete_message(shared, c, id(m)),
        ("POST", ["typing"]) => match check(&shared.lock(), c, Action::Send { files: false }) {
            Ok(()) => no_content(),
            Err(e) => err_resp(&e),
        },
        _ => return None,
    };
    Some(r)
}

/// A snowflake in a path (0, which names nothing, if it is none).
fn id(s: &str) -> u64 {
    s.parse().unwrap_or(0)
}

fn delete_message(shared: &Arc<Shared>, channel_id: u64, mid: u64) -> Response {
    let mut inner = shared.lock();
    let kind = ReplyKind::DeleteChannelMessage { channel_id, message_id: mid };
    let checked = check(&inner, channel_id, Action::Delete(mid));
    let (status, error) = match &checked {
        Ok(()) => {
            inner.messages.remove(&mid);
            (204, None)
        }
        Err(e) => (e.status, Some(format!("{} {}", e.code, e.message))),
    };
    record(&mut inner, shared, kind, None, Value::Null, vec![], status, error, Some(mid));
    match checked {
        Ok(()) => no_content(),
        Err(e) => err_resp(&e),
    }
}

/// What a test does to the channels, as a member or a server's manager would.
impl StandIn {
    /// Makes `ctx`'s server channel or thread known, as if an interaction had come from there
    /// (where a test stored a game the bot was never asked about).
    pub fn add_channel(&self, ctx: &Ctx) {
        let payload = fixtures::slash(ctx, "play", "", Value::Null);
        register_channel(&mut self.shared.lock(), &payload);
    }

    /// Takes `bits` (see [`permission`]) away from the bot in server channel `channel_id`, as a
    /// manager would with a channel override: later interactions from it do not give them back,
    /// and their `app_permissions` lack them.
    pub fn withhold_permissions(&self, channel_id: u64, bits: u64) {
        let mut inner = self.shared.lock();
        let channel =
            inner.channels.get_mut(&channel_id).expect("withhold_permissions: a channel an interaction came from");
        channel.withheld |= bits;
    }

    /// Gives back `bits` taken with [`StandIn::withhold_permissions`] in `channel_id`, as a
    /// manager would by removing the override.
    pub fn restore_permissions(&self, channel_id: u64, bits: u64) {
        let mut inner = self.shared.lock();
        if let Some(channel) = inner.channels.get_mut(&channel_id) {
            channel.withheld &= !bits;
        }
    }

    /// Deletes server channel `channel_id` with everything in it: the bot's calls there are
    /// refused from now on (10003 Unknown Channel).
    pub fn delete_channel(&self, channel_id: u64) {
        let mut inner = self.shared.lock();
        inner.channels.remove(&channel_id);
        let gone: Vec<u64> = inner
            .messages
            .iter()
            .filter(|(_, m)| id_of(m.get("channel_id")) == Some(channel_id))
            .map(|(id, _)| *id)
            .collect();
        for id in gone {
            inner.messages.remove(&id);
            inner.deleted.insert(id);
        }
    }

    /// Posts `content` in `channel_id` as user `author` (a member's own message, which the
    /// bot may not edit); returns its id.
    pub fn post_as(&self, author: u64, channel_id: u64, content: &str) -> u64 {
        let mut inner = self.shared.lock();
        let id = inner.new_id();
        let mut message = fixtures::bot_message(&Ctx::en().with_channel(channel_id), id);
        message["author"] = fixtures::user(author);
        message["content"] = Value::String(content.to_string());
        message["type"] = 0.into();
        message.as_object_mut().expect("a message object").remove("application_id");
        message.as_object_mut().expect("a message object").remove("webhook_id");
        inner.messages.insert(id, message);
        id
    }
}
