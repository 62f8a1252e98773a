//! What the stand-in recorded of the bot's calls, as a test reads it: every call, the refused
//! ones, the messages as they stand, the 429s and the routes it did not know.

use std::time::Duration;

use serde_json::Value;

use crate::exchange::{Exchange, Reply};
use crate::rate_limits::RateLimited;
use crate::StandIn;

impl StandIn {
    /// Every call recorded, in order.
    pub fn all_calls(&self) -> Vec<Reply> {
        self.shared.lock().calls.clone()
    }

    /// Every call the stand-in refused so far, in order, whatever its method and route: the
    /// bot's messages, fetches, typing, DMs, commands, emojis, an unknown route (404), a token
    /// Discord does not know (401), a body it cannot read. Not the 429s, which the bot waits
    /// out ([`Self::rate_limited`]), nor the injected faults ([`Self::injected_faults`]).
    pub fn refused(&self) -> Vec<Reply> {
        self.shared.lock().calls.iter().filter(|c| !c.ok()).cloned().collect()
    }

    /// Panics naming every call the stand-in refused ([`Self::refused`]): how every end-to-end
    /// test ends, once the bot has stopped or has nothing left to do, so that a refused call
    /// the bot shrugged off (a best-effort reminder, a fetch) still fails its test.
    pub fn assert_none_refused(&self) {
        let refused: Vec<String> = self.refused().iter().map(|c| c.to_string()).collect();
        assert!(refused.is_empty(), "the bot made calls Discord would refuse:\n{}", refused.join("\n"));
    }

    /// [`Self::assert_none_refused`] for a test that provoked some refusals on purpose (a
    /// deleted channel, a race of two processes): panics naming every refused call that
    /// `provoked` does not own.
    pub fn assert_refused_only(&self, provoked: impl Fn(&Reply) -> bool) {
        let refused: Vec<String> = self.refused().iter().filter(|c| !provoked(c)).map(|c| c.to_string()).collect();
        assert!(refused.is_empty(), "the bot made calls Discord would refuse:\n{}", refused.join("\n"));
    }

    /// Position in the global call log: calls made from now on have `seq >= cursor()`.
    pub fn cursor(&self) -> u64 {
        self.shared.lock().calls.len() as u64
    }

    /// Waits for the first call with `seq >= since` matching `pred`. Panics after `timeout`.
    pub async fn wait_call(&self, since: u64, timeout: Duration, pred: impl Fn(&Reply) -> bool) -> Reply {
        let got =
            self.shared.wait_for(timeout, |i| i.calls.iter().skip(since as usize).find(|c| pred(c)).cloned()).await;
        match got {
            Some(c) => c,
            None => panic!(
                "stand-in: no matching call within {timeout:?} (calls since #{since}):\n{}",
                self.log_summary_since(since)
            ),
        }
    }

    /// Waits for the next call for the exchange's token after the calls it already holds
    /// (e.g. the bot's own move posted as a follow-up after its answer). Panics after `timeout`.
    pub async fn next_reply(&self, after: &Exchange, timeout: Duration) -> Reply {
        let since = after.calls.last().map(|c| c.seq + 1).unwrap_or(0);
        let token = after.token.clone();
        self.wait_call(since, timeout, move |c| c.token.as_deref() == Some(token.as_str())).await
    }

    /// Waits for any call creating or editing a visible message (follow-up, edit, channel
    /// message, message callback) with `seq >= since` (see [`Self::cursor`]).
    pub async fn wait_new_message(&self, since: u64, timeout: Duration) -> Reply {
        self.wait_call(since, timeout, |c| c.ok() && c.is_message()).await
    }

    /// Deletes a message as a member of the channel would: later edits of it are refused
    /// (10008 Unknown Message), even by interactions on a copy still on someone's screen.
    pub fn delete_message(&self, id: u64) {
        let mut inner = self.shared.lock();
        inner.messages.remove(&id);
        inner.deleted.insert(id);
    }

    /// Current state of a message, as Discord would return it.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.shared.lock().messages.get(&id).cloned()
    }

    /// The messages now in channel `channel_id`, oldest first.
    pub fn messages_in(&self, channel_id: u64) -> Vec<Value> {
        let inner = self.shared.lock();
        let mut in_channel: Vec<(u64, Value)> = inner
            .messages
            .iter()
            .filter(|(_, m)| m["channel_id"].as_str() == Some(channel_id.to_string().as_str()))
            .map(|(&id, m)| (id, m.clone()))
            .collect();
        in_channel.sort_by_key(|(id, _)| *id);
        in_channel.into_iter().map(|(_, m)| m).collect()
    }

    /// Current state of the `@original` response of the interaction with this token.
    pub fn original_message(&self, token: &str) -> Option<Value> {
        let inner = self.shared.lock();
        inner.interactions.get(token).and_then(|r| r.original).and_then(|id| inner.messages.get(&id).cloned())
    }

    /// The requests answered 429 (rate limited) so far, in order.
    pub fn rate_limited(&self) -> Vec<RateLimited> {
        self.shared.limiter().refused().to_vec()
    }

    /// Routes the stand-in did not know (`"METHOD /path"`), in order.
    pub fn unknown_routes(&self) -> Vec<String> {
        self.shared.lock().unknown.clone()
    }

    /// [`Self::unknown_routes`], forgotten: for a test that calls one on purpose (any left when
    /// the stand-in is dropped fail the test).
    pub fn take_unknown_routes(&self) -> Vec<String> {
        std::mem::take(&mut self.shared.lock().unknown)
    }
}
