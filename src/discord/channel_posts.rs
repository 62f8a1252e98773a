//! What the bot posts in a channel on its own, outside any interaction: reminders, notices and
//! boards its sweeps post. Discord may refuse such a post for the channel's state or a
//! player's choice, or hold it back; the bot then does what it may and otherwise gives up
//! quietly, and the game stays as stored in every case
//! (docs/design/bot-reliability.md#channels-that-refuse-a-post):
//!
//! - an archived thread (50083 Thread is archived): unarchived (`archived: false`), which
//!   Discord allows where the thread is not locked, or with MANAGE_THREADS, then posted again;
//!   where Discord refuses that too, given up;
//! - slowmode (20016): serenity waits out its 429 like any other; a post still held back after
//!   [`POST_PATIENCE`] is given up, so that one channel's slowmode (up to six hours) holds
//!   back no other channel's reminders;
//! - a player who closed their DMs to the bot (50007): given up;
//! - an outage (a 5xx, a cut connection, no answer): tried again with the same nonce, which
//!   Discord de-duplicates (calls.rs).

use std::future::Future;
use std::time::Duration;

use serenity::all::{ChannelId, CreateMessage, EditThread, Message};
use serenity::http::Http;

use super::calls::{self, discord_code, Repeat};

/// How long a post of the bot's own may be held back (by slowmode, say) before it is given
/// up: far past what a post takes, a channel's rate limit waited out included (5 s).
pub(super) const POST_PATIENCE: Duration = Duration::from_secs(15);

/// 50083 Thread is archived.
const THREAD_ARCHIVED: isize = 50083;
/// Discord's refusals the bot expects of a post of its own: the channel deleted since (10003),
/// the bot's access or permission taken away (50001, 50013), a player who closed their DMs
/// (50007), a thread archived or locked (50083), slowmode (20016).
const EXPECTED: [isize; 6] = [10003, 50001, 50013, 50007, THREAD_ARCHIVED, 20016];
/// The error of a post given up after [`POST_PATIENCE`].
const HELD_BACK: &str = "Discord held the post back longer than the bot waits (slowmode)";

/// Posts `message` in `channel`, unarchiving the thread first where Discord says it is
/// archived and lets the bot unarchive it; each attempt waits at most [`POST_PATIENCE`].
pub(super) async fn post(http: &Http, channel: ChannelId, message: CreateMessage) -> serenity::Result<Message> {
    // One nonce for every try: Discord answers a second post of it with the first message.
    let message = message.nonce(calls::nonce()).enforce_nonce(true);
    match send(http, channel, &message).await {
        Err(e) if discord_code(&e) == Some(THREAD_ARCHIVED) => {
            if let Err(refused) = patiently(channel.edit_thread(http, EditThread::new().archived(false))).await {
                tracing::info!(error = %refused, %channel, "an archived thread the bot may not unarchive");
                return Err(e);
            }
            tracing::info!(%channel, "unarchived a thread to post in it");
            send(http, channel, &message).await
        }
        sent => sent,
    }
}

/// Sends `message` (its nonce enforced), tried again where Discord may pass (calls.rs), each
/// try given up after [`POST_PATIENCE`].
async fn send(http: &Http, channel: ChannelId, message: &CreateMessage) -> serenity::Result<Message> {
    calls::retried("post a message", Repeat::Safe, || patiently(channel.send_message(http, message.clone()))).await
}

/// Whether `e` is a refusal the bot expects of a post of its own (see the module docs): given
/// up quietly, logged at info rather than as a fault.
pub(super) fn expected_refusal(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Other(HELD_BACK)) || discord_code(e).is_some_and(|c| EXPECTED.contains(&c))
}

/// `call`, given up after [`POST_PATIENCE`].
async fn patiently<T>(call: impl Future<Output = serenity::Result<T>>) -> serenity::Result<T> {
    tokio::time::timeout(POST_PATIENCE, call).await.unwrap_or(Err(serenity::Error::Other(HELD_BACK)))
}
