//! What a message may carry besides its body, as Discord checks it: the `flags` a bot may set
//! where the message goes (EPHEMERAL only on an interaction's response and follow-ups; on a
//! channel message SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2),
//! 50035 otherwise; and its files: at most 10 (50035), none past the upload limit of the place
//! (413, 40005 Request entity too large).

use serde_json::Value;

use super::validation::{api_err, invalid, ApiError};

/// SUPPRESS_EMBEDS
pub(super) const SUPPRESS_EMBEDS: u64 = 1 << 2;
/// EPHEMERAL
pub(super) const EPHEMERAL: u64 = 1 << 6;
const SUPPRESS_NOTIFICATIONS: u64 = 1 << 12;
const IS_VOICE_MESSAGE: u64 = 1 << 13;
const IS_COMPONENTS_V2: u64 = 1 << 15;

/// The flags a bot may set on a message it posts in a channel.
pub(super) const CHANNEL_MESSAGE_FLAGS: u64 =
    SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2;
/// The flags an interaction's response (or deferral) and its follow-ups may set.
pub(super) const INTERACTION_MESSAGE_FLAGS: u64 =
    SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2;

/// How many files one message may carry.
pub(super) const MAX_FILES: usize = 10;

/// Refuses `flags` of a message body (absent or null: none) outside `allowed`.
pub(super) fn check_flags(m: &Value, allowed: u64) -> Result<(), ApiError> {
    let flags = match m.get("flags") {
        None | Some(Value::Null) => return Ok(()),
        Some(f) => f.as_u64().ok_or_else(|| invalid("flags: must be an integer"))?,
    };
    let refused = flags & !allowed;
    if refused != 0 {
        return Err(invalid(format!("flags: {refused} cannot be set on this message (allowed: {allowed})")));
    }
    Ok(())
}

/// Refuses more than [`MAX_FILES`] files, or one larger than `limit` bytes.
pub(super) fn check_files(files: &[(u64, String, Vec<u8>)], limit: u64) -> Result<(), ApiError> {
    if files.len() > MAX_FILES {
        return Err(invalid(format!("files: must be {MAX_FILES} or fewer in length (is {})", files.len())));
    }
    if let Some((_, name, bytes)) = files.iter().find(|f| f.2.len() as u64 > limit) {
        return Err(api_err(
            413,
            40005,
            format!("Request entity too large ({name}: {} bytes, the limit is {limit})", bytes.len()),
        ));
    }
    Ok(())
}
