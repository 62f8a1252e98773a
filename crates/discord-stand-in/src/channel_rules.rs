//! What Discord refuses of a post for the state of its channel rather than the bot's
//! permissions: an archived or locked thread (50083 Thread is archived), slowmode (20016), and
//! a user who closed their DMs to the bot (50007 Cannot send messages to this user), each with
//! Discord's code; and `PATCH /channels/{thread}` with `archived: false`, which unarchives a
//! thread.
//!
//! Discord's documentation leaves three of these rules open, so the stand-in follows the
//! [`Readings`] a test chooses and the tests try each reading (docs/design/bot-reliability.md#what-only-discord-can-confirm):
//!
//! * what a message posted in an archived thread does: Discord's client unarchives a thread
//!   its user writes in, and its API documents only that a locked thread is unarchived by
//!   MANAGE_THREADS alone ("Modify Channel": `archived: false` needs SEND_MESSAGES when the
//!   thread is not locked, MANAGE_THREADS when it is) ([`ArchivedPost`]);
//! * whom slowmode spares: "bots, as well as users with the permission MANAGE_MESSAGES or
//!   MANAGE_CHANNELS, are unaffected" (`rate_limit_per_user`), read as every bot, or as a bot
//!   only with one of those permissions ([`SlowmodeSpares`]);
//! * whether interaction responses and follow-ups are spared by slowmode (not said).
//!
//! A post slowmode holds back is answered 429 with the code 20016, Discord's `retry_after` and
//! `Retry-After` (what a client waits out), and is logged with the rate limits' 429s
//! ([`super::StandIn::rate_limited`], bucket `"slowmode"`), not as a refused call.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::{HeaderValue, Method};
use axum::response::Response;
use serde_json::{json, Value};

use super::channels::permission::{MANAGE_CHANNELS, MANAGE_MESSAGES, MANAGE_THREADS, SEND_MESSAGES};
use super::channels::GuildChannel;
use super::exchange::ReplyKind;
use super::rate_limits::RateLimited;
use super::rest::{err_resp, json_resp, record, Body};
use super::state::{Inner, Shared};
use super::validation::{api_err, ApiError};
use super::StandIn;

/// How the stand-in reads the rules Discord's documentation leaves open (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Readings {
    /// What a post in an archived thread does.
    pub archived_post: ArchivedPost,
    /// Whom slowmode spares.
    pub slowmode_spares: SlowmodeSpares,
    /// Slowmode spares an interaction's response and follow-ups (they answer a person).
    pub slowmode_spares_interactions: bool,
}

impl Default for Readings {
    /// The stricter reading of each rule.
    fn default() -> Readings {
        Readings {
            archived_post: ArchivedPost::Refused,
            slowmode_spares: SlowmodeSpares::Managers,
            slowmode_spares_interactions: false,
        }
    }
}

/// What a message posted in an archived thread does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchivedPost {
    /// It unarchives the thread where the bot may unarchive it (not locked, or MANAGE_THREADS),
    /// as a member's message does in Discord's client; else 50083.
    Unarchives,
    /// 50083 Thread is archived, always: the bot unarchives it first (`PATCH` with
    /// `archived: false`).
    Refused,
}

/// Whom slowmode spares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlowmodeSpares {
    /// Every bot.
    AllBots,
    /// A bot only with MANAGE_MESSAGES or MANAGE_CHANNELS in the channel.
    Managers,
}

/// A channel's state beyond the bot's permissions, kept when later interactions come from it.
#[derive(Clone, Debug, Default)]
pub(super) struct ChannelState {
    pub(super) guild_id: u64,
    pub(super) parent_id: Option<u64>,
    pub(super) archived: bool,
    pub(super) locked: bool,
    /// `rate_limit_per_user`.
    pub(super) slowmode: Duration,
    /// When the bot last posted there (a message slowmode counts).
    pub(super) last_post: Option<Instant>,
}

/// Whether a post in `channel` is refused for the thread's being archived: 50083 unless the
/// reading lets the post unarchive it and the bot may.
pub(super) fn check_archived(readings: Readings, channel: &GuildChannel) -> Result<(), ApiError> {
    if !channel.thread || !channel.state.archived {
        return Ok(());
    }
    let may_unarchive = !channel.state.locked || channel.allows(MANAGE_THREADS);
    match readings.archived_post {
        ArchivedPost::Unarchives if may_unarchive => Ok(()),
        _ => Err(thread_archived()),
    }
}

/// Discord's answer to an action in an archived thread.
pub(super) fn thread_archived() -> ApiError {
    api_err(400, 50083, "Thread is archived")
}

/// How long slowmode still holds back a post of the bot's in `channel_id` (`interaction`: an
/// interaction's response or follow-up), if it does.
pub(super) fn slowmode_wait(inner: &Inner, channel_id: u64, interaction: bool) -> Option<Duration> {
    let channel = inner.channels.get(&channel_id)?;
    let readings = inner.readings;
    if channel.state.slowmode.is_zero() || (interaction && readings.slowmode_spares_interactions) {
        return None;
    }
    let spared = match readings.slowmode_spares {
        SlowmodeSpares::AllBots => true,
        SlowmodeSpares::Managers => channel.allows(MANAGE_MESSAGES) || channel.allows(MANAGE_CHANNELS),
    };
    let since = channel.state.last_post?.elapsed();
    (!spared && since < channel.state.slowmode).then(|| channel.state.slowmode - since)
}

/// Discord's 429 for a post slowmode holds back, logged with the rate limits' 429s.
pub(super) fn slowmode_refusal(shared: &Shared, request: String, channel_id: u64, wait: Duration) -> Response {
    eprintln!("[stand-in] 429 {request} (slowmode, retry after {wait:?})");
    shared.limiter().note(RateLimited {
        request,
        bucket: "slowmode".into(),
        resource: Some(channel_id.to_string()),
        global: false,
        retry_after: wait,
    });
    let secs = (wait.as_secs_f64() * 1000.0).ceil() / 1000.0;
    let body = json!({
        "code": 20016,
        "message": "This action cannot be performed due to slowmode rate limit.",
        "retry_after": secs,
        "global": false,
    });
    let mut response = json_resp(429, body);
    let header = HeaderValue::from_str(&(secs.ceil() as u64).to_string()).expect("digits");
    response.headers_mut().insert("retry-after", header);
    response
}

/// What a post the bot made in `channel_id` does to it: slowmode counts from it, and a post
/// the reading let through unarchives its thread.
pub(super) fn posted(inner: &mut Inner, channel_id: u64) {
    if let Some(channel) = inner.channels.get_mut(&channel_id) {
        channel.state.last_post = Some(Instant::now());
        channel.state.archived = false;
    }
}

/// Refuses messages to a DM with a user who closed their DMs to the bot.
pub(super) fn check_closed_dm(inner: &Inner, channel_id: u64) -> Result<(), ApiError> {
    match inner.private_channels.get(&channel_id) {
        Some(dm) if dm.app_is_member && dm.recipients.iter().any(|u| inner.closed_dms.contains(u)) => {
            Err(api_err(403, 50007, "Cannot send messages to this user"))
        }
        _ => Ok(()),
    }
}

/// `PATCH /channels/{id}` of a thread: `archived` and `locked`, as Discord allows them
/// ("Modify Channel", thread): unarchiving a thread that is not locked needs SEND_MESSAGES,
/// anything else MANAGE_THREADS (50013); a channel that is not a thread takes none of these
/// fields here (50024); one the stand-in does not know, 10003.
pub(super) fn modify_thread(shared: &Arc<Shared>, channel_id: u64, body: Body) -> Response {
    let mut inner = shared.lock();
    let kind = ReplyKind::ModifyChannel { channel_id };
    let result = (|| -> Result<Value, ApiError> {
        let channel = inner.channels.get(&channel_id).ok_or_else(|| api_err(404, 10003, "Unknown Channel"))?;
        if !channel.thread {
            return Err(api_err(400, 50024, "Cannot execute action on this channel type"));
        }
        let archived = body.json.get("archived").and_then(Value::as_bool);
        let locked = body.json.get("locked").and_then(Value::as_bool);
        let only_unarchives = archived == Some(false) && locked.is_none() && !channel.state.locked;
        let needed = if only_unarchives { SEND_MESSAGES } else { MANAGE_THREADS };
        if !channel.allows(needed) {
            let what = if needed == SEND_MESSAGES { "SEND_MESSAGES" } else { "MANAGE_THREADS" };
            return Err(api_err(403, 50013, format!("Missing Permissions ({what})")));
        }
        let channel = inner.channels.get_mut(&channel_id).expect("checked above");
        if let Some(a) = archived {
            channel.state.archived = a;
        }
        if let Some(l) = locked {
            channel.state.locked = l;
        }
        Ok(thread_object(channel_id, &channel.state))
    })();
    match result {
        Ok(thread) => {
            record(&mut inner, shared, kind, None, body.json, vec![], 200, None, None);
            json_resp(200, thread)
        }
        Err(e) => {
            let error = Some(format!("{} {}", e.code, e.message));
            record(&mut inner, shared, kind, None, body.json, vec![], e.status, error, None);
            err_resp(&e)
        }
    }
}

/// A thread as Discord returns it.
fn thread_object(id: u64, state: &ChannelState) -> Value {
    json!({
        "id": id.to_string(),
        "type": 11,
        "guild_id": state.guild_id.to_string(),
        "parent_id": state.parent_id.map(|p| p.to_string()),
        "name": "family-game",
        "owner_id": "1",
        "flags": 0,
        "last_message_id": null,
        "rate_limit_per_user": state.slowmode.as_secs(),
        "message_count": 3,
        "member_count": 2,
        "thread_metadata": {
            "archived": state.archived,
            "auto_archive_duration": 10080,
            "archive_timestamp": "2026-11-29T00:00:00.000000+00:00",
            "locked": state.locked,
        },
    })
}

/// Whether a route is `PATCH /channels/{id}` (the channel itself).
pub(super) fn is_modify_channel(method: &Method, rest: &[&str]) -> bool {
    method == Method::PATCH && rest.is_empty()
}

/// What a test does to channels' state and to Discord's readings, as a member, a moderator or
/// Discord would.
impl StandIn {
    /// Reads the rules Discord's documentation leaves open as `readings` from now on.
    pub fn set_readings(&self, readings: Readings) {
        self.shared.lock().readings = readings;
    }

    /// Archives thread `channel_id` (an interaction came from it), and locks it with `locked`,
    /// as Discord does after its inactivity or a moderator does.
    pub fn archive_thread(&self, channel_id: u64, locked: bool) {
        let mut inner = self.shared.lock();
        let channel = inner.channels.get_mut(&channel_id).expect("archive_thread: a thread an interaction came from");
        assert!(channel.thread, "archive_thread: {channel_id} is no thread");
        channel.state.archived = true;
        channel.state.locked = locked;
    }

    /// Whether thread `channel_id` is (archived, locked) now.
    pub fn thread_state(&self, channel_id: u64) -> Option<(bool, bool)> {
        self.shared.lock().channels.get(&channel_id).map(|c| (c.state.archived, c.state.locked))
    }

    /// Sets the slowmode of channel `channel_id` (`rate_limit_per_user`), as its manager would.
    pub fn set_slowmode(&self, channel_id: u64, every: Duration) {
        let mut inner = self.shared.lock();
        let channel = inner.channels.get_mut(&channel_id).expect("set_slowmode: a channel an interaction came from");
        channel.state.slowmode = every;
    }

    /// `user` closes their DMs to the bot (blocks it, or turns off DMs from the server's
    /// members): the bot's messages to their DM are refused (50007) from now on.
    pub fn close_dms(&self, user: u64) {
        self.shared.lock().closed_dms.insert(user);
    }
}
