//! How busy each channel's interaction webhooks are (docs/design/bot-reliability.md#rate-limits).
//!
//! Discord shares one limit among the follow-ups and edits of every interaction of a channel,
//! reported at about 30 a minute, and answers a call past it with a 429 that can ask for up to
//! a minute's wait. Each interaction's client learns of it only from that 429. So the bot counts
//! its own such calls per channel: in a lively channel a move's board is shown on the board
//! tapped (one edit) rather than as a new message (a follow-up, and an edit that takes the old
//! board's buttons off), which halves what each move spends before the limit is met.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serenity::all::ChannelId;

/// The window the shared limit is counted over.
pub const WINDOW: Duration = Duration::from_secs(60);

/// From how many calls within [`WINDOW`] a channel counts as lively: two thirds of the limit
/// as reported, leaving room for the edits a move cannot do without (a frozen board's late
/// answer, an animal's squares lit after the acknowledgement).
pub const LIVELY_FROM: usize = 20;

/// How many calls are noted between two sweeps of the channels gone quiet.
const SWEEP_EVERY: u32 = 256;

/// The recent interaction webhook calls of each channel, shared by every interaction's
/// responder (cheap to clone).
#[derive(Clone, Default)]
pub struct ChannelPace(Arc<Mutex<Calls>>);

#[derive(Default)]
struct Calls {
    by_channel: HashMap<ChannelId, VecDeque<Instant>>,
    since_sweep: u32,
}

impl ChannelPace {
    /// Notes a call made now on the webhook of an interaction of `channel`.
    pub fn note(&self, channel: ChannelId) {
        self.note_at(channel, Instant::now());
    }

    /// Whether `channel` has made [`LIVELY_FROM`] such calls or more within the last [`WINDOW`].
    pub fn lively(&self, channel: ChannelId) -> bool {
        self.lively_at(channel, Instant::now())
    }

    fn note_at(&self, channel: ChannelId, now: Instant) {
        let mut calls = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let recent = calls.by_channel.entry(channel).or_default();
        forget_before(recent, now);
        recent.push_back(now);
        calls.since_sweep += 1;
        // Channels gone quiet are dropped now and then, so the map holds the last minute's
        // channels only.
        if calls.since_sweep >= SWEEP_EVERY {
            calls.since_sweep = 0;
            calls.by_channel.retain(|_, recent| {
                forget_before(recent, now);
                !recent.is_empty()
            });
        }
    }

    fn lively_at(&self, channel: ChannelId, now: Instant) -> bool {
        let mut calls = self.0.lock().unwrap_or_else(|e| e.into_inner());
        calls.by_channel.get_mut(&channel).is_some_and(|recent| {
            forget_before(recent, now);
            recent.len() >= LIVELY_FROM
        })
    }

    /// How many channels it holds calls of.
    #[cfg(test)]
    fn channels(&self) -> usize {
        self.0.lock().unwrap().by_channel.len()
    }
}

/// Drops the calls of `recent` made a [`WINDOW`] or more before `now`.
fn forget_before(recent: &mut VecDeque<Instant>, now: Instant) {
    while recent.front().is_some_and(|&t| now.duration_since(t) >= WINDOW) {
        recent.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_is_lively_from_its_twentieth_call_within_the_window_and_no_longer_after() {
        let pace = ChannelPace::default();
        let (busy, quiet) = (ChannelId::new(1), ChannelId::new(2));
        let start = Instant::now();
        for n in 0..LIVELY_FROM {
            assert!(!pace.lively_at(busy, start), "lively after {n} calls");
            pace.note_at(busy, start + Duration::from_millis(n as u64));
        }
        assert!(pace.lively_at(busy, start + Duration::from_secs(1)));
        assert!(!pace.lively_at(quiet, start + Duration::from_secs(1)), "channels are counted apart");
        // The first call leaves the window: one short again.
        assert!(!pace.lively_at(busy, start + WINDOW));
    }

    #[test]
    fn channels_gone_quiet_are_forgotten() {
        let pace = ChannelPace::default();
        let start = Instant::now();
        for c in 1..SWEEP_EVERY as u64 {
            pace.note_at(ChannelId::new(c), start);
        }
        assert_eq!(pace.channels(), SWEEP_EVERY as usize - 1);
        // A minute later, the sweep at the next call forgets every channel but its own.
        pace.note_at(ChannelId::new(u64::from(SWEEP_EVERY)), start + WINDOW);
        assert_eq!(pace.channels(), 1);
    }
}
