//! Deadlines and retries of the bot's calls to Discord
//! (docs/design/bot-reliability.md#when-discord-fails).
//!
//! Every call has a deadline: the HTTP client gives up on a connection after
//! [`CONNECT_DEADLINE`] and on a whole request after [`CALL_DEADLINE`], so a hung call holds
//! nothing for ever. A call that failed in a way that may pass (Discord's 5xx, a timeout, a reset
//! connection) is tried again, [`TRIES`] times in all with a growing pause, but only where a
//! second try cannot do a thing twice ([`Repeat`]): Discord may apply a call and never answer.

use std::time::Duration;

use serenity::http::HttpError;

/// How long a connection to Discord may take to open.
pub const CONNECT_DEADLINE: Duration = Duration::from_secs(3);

/// How long one request to Discord may take, from sending to the whole answer read (a board
/// picture of a few hundred kilobytes over a slow home uplink included).
pub const CALL_DEADLINE: Duration = Duration::from_secs(10);

/// How many times a call that may pass is tried in all.
pub const TRIES: u32 = 3;

/// The pause before the second try; each later pause is four times longer (with up to a
/// quarter more at random, so that many processes hit by one outage do not come back at once).
const FIRST_PAUSE: Duration = Duration::from_millis(250);

/// Whether a call may be sent again when its outcome is unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// Doing it twice is doing it once: a read, an edit that leaves nothing to tap, a bulk
    /// overwrite, a deletion, an interaction's first response (Discord refuses a second one,
    /// 40060), a channel message with an enforced nonce (Discord returns the first message
    /// instead of a second).
    Safe,
    /// It may make something twice (a follow-up message), or a copy landing late may undo
    /// what came after it (an edit that offers moves, [`Repeat::of_edit`]): tried again only
    /// when it surely never reached Discord (the connection could not be opened).
    OnlyIfUnsent,
}

impl Repeat {
    /// How an edit of a message may be sent again. One that leaves something to tap (a board's
    /// moves, an animal's lit squares) is not, once it may have shown: the player may have
    /// tapped it meanwhile and played on, and a copy landing seconds later would bring back
    /// moves already played (docs/design/bot-reliability.md#when-discord-fails).
    pub fn of_edit(edit: &impl serde::Serialize) -> Repeat {
        let offers = serde_json::to_value(edit).ok().and_then(|e| e.get("components").map(offers_taps));
        if offers == Some(true) {
            Repeat::OnlyIfUnsent
        } else {
            Repeat::Safe
        }
    }
}

/// Whether `components` (rows, or one component) hold something a player can tap: a button or
/// menu with a custom id that is not disabled (a link button only opens a page).
fn offers_taps(components: &serde_json::Value) -> bool {
    match components {
        serde_json::Value::Array(all) => all.iter().any(offers_taps),
        serde_json::Value::Object(c) => {
            let tappable = c.contains_key("custom_id") && c.get("disabled").and_then(|d| d.as_bool()) != Some(true);
            tappable || c.get("components").is_some_and(offers_taps)
        }
        _ => false,
    }
}

/// What a failed call says about trying it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failed {
    /// Discord answered and refused it (4xx): the same call would be refused again.
    Refused,
    /// It never reached Discord: no connection could be opened.
    Unsent,
    /// Discord may or may not have applied it (a 5xx, a timeout, a connection reset while
    /// the request or its answer was on the way).
    Unknown,
}

impl Failed {
    /// What `e` says.
    pub fn of(e: &serenity::Error) -> Failed {
        match e {
            serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) if r.status_code.is_server_error() => {
                Failed::Unknown
            }
            serenity::Error::Http(HttpError::UnsuccessfulRequest(_)) => Failed::Refused,
            serenity::Error::Http(HttpError::Request(e)) if e.is_connect() => Failed::Unsent,
            serenity::Error::Http(HttpError::Request(_)) => Failed::Unknown,
            // The answer came but could not be read (cut short): the call may have been applied.
            serenity::Error::Json(_) | serenity::Error::Io(_) => Failed::Unknown,
            serenity::Error::Other(m) if *m == TIMED_OUT => Failed::Unknown,
            _ => Failed::Refused,
        }
    }

    /// Whether a call that failed so may be tried again.
    fn may_repeat(self, repeat: Repeat) -> bool {
        match (self, repeat) {
            (Failed::Refused, _) => false,
            (Failed::Unsent, _) => true,
            (Failed::Unknown, Repeat::Safe) => true,
            (Failed::Unknown, Repeat::OnlyIfUnsent) => false,
        }
    }
}

/// Discord's JSON error code, when Discord answered and refused the call.
pub fn discord_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// The error of a call cut off by a deadline of the bot's own ([`within`]).
pub const TIMED_OUT: &str = "Discord did not answer in time";

/// Runs `call` (one try) until `deadline`; past it, the call is dropped (its connection with
/// it) and [`TIMED_OUT`] is the error.
pub async fn within<T>(
    deadline: Duration,
    call: impl std::future::Future<Output = serenity::Result<T>>,
) -> serenity::Result<T> {
    if deadline.is_zero() {
        // Not even started: a first poll could already send it.
        return Err(serenity::Error::Other(TIMED_OUT));
    }
    tokio::time::timeout(deadline, call).await.unwrap_or(Err(serenity::Error::Other(TIMED_OUT)))
}

/// Runs `call` up to [`TRIES`] times while it fails in a way that may pass and that `repeat`
/// allows to try again; logs each retry with `what`. The last error is returned.
pub async fn retried<T, F, Fut>(what: &'static str, repeat: Repeat, call: F) -> serenity::Result<T>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = serenity::Result<T>>,
{
    let mut pause = FIRST_PAUSE;
    let mut tried = 1;
    loop {
        match call().await {
            Err(e) if tried < TRIES && Failed::of(&e).may_repeat(repeat) => {
                tracing::info!(error = %e, call = what, tried, "a call to Discord failed; trying again");
                tokio::time::sleep(pause.mul_f64(1.0 + rand::random::<f64>() / 4.0)).await;
                pause *= 4;
                tried += 1;
            }
            done => return done,
        }
    }
}

/// A fresh nonce for a channel message: with `enforce_nonce`, Discord answers a second post
/// with the same nonce (from a retry) with the first message instead of making another.
pub fn nonce() -> serenity::all::Nonce {
    // Discord takes nonces of up to 25 characters.
    serenity::all::Nonce::String(format!("{:016x}", rand::random::<u64>()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn only_what_may_pass_and_cannot_happen_twice_is_tried_again() {
        assert_eq!(Failed::of(&serenity::Error::Other(TIMED_OUT)), Failed::Unknown);
        assert_eq!(Failed::of(&serenity::Error::Other("a builder's own check")), Failed::Refused);
        assert!(!Failed::Refused.may_repeat(Repeat::Safe));
        assert!(Failed::Unknown.may_repeat(Repeat::Safe) && !Failed::Unknown.may_repeat(Repeat::OnlyIfUnsent));
        assert!(Failed::Unsent.may_repeat(Repeat::OnlyIfUnsent));
    }

    async fn tries(repeat: Repeat, error: &'static str) -> u32 {
        let tries = AtomicU32::new(0);
        let out: serenity::Result<()> = retried("test", repeat, || async {
            tries.fetch_add(1, Ordering::SeqCst);
            Err(serenity::Error::Other(error))
        })
        .await;
        assert!(out.is_err(), "the last error is returned");
        tries.into_inner()
    }

    #[test]
    fn an_edit_is_sent_again_only_when_it_leaves_nothing_to_tap() {
        use serenity::all::{CreateActionRow, CreateButton, EditInteractionResponse};
        let row = |button: CreateButton| vec![CreateActionRow::Buttons(vec![button])];
        let tap = || CreateButton::new("t:1:0:p.d3").label("1");
        assert_eq!(Repeat::of_edit(&EditInteractionResponse::new().components(row(tap()))), Repeat::OnlyIfUnsent);
        let frozen = EditInteractionResponse::new().components(row(tap().disabled(true)));
        assert_eq!(Repeat::of_edit(&frozen), Repeat::Safe, "a frozen board");
        assert_eq!(Repeat::of_edit(&EditInteractionResponse::new().components(vec![])), Repeat::Safe, "no menu");
        assert_eq!(Repeat::of_edit(&EditInteractionResponse::new().content("…")), Repeat::Safe, "its text alone");
        let link = EditInteractionResponse::new().components(row(CreateButton::new_link("https://discord.com")));
        assert_eq!(Repeat::of_edit(&link), Repeat::Safe, "a link opens a page");
    }

    #[tokio::test]
    async fn a_call_is_tried_at_most_three_times_and_a_refusal_once() {
        assert_eq!(tries(Repeat::Safe, TIMED_OUT).await, TRIES);
        assert_eq!(tries(Repeat::OnlyIfUnsent, TIMED_OUT).await, 1, "a post of unknown outcome is not sent again");
        assert_eq!(tries(Repeat::Safe, "refused").await, 1);
    }

    #[tokio::test]
    async fn a_call_past_its_deadline_is_cut_off() {
        let hung = within(Duration::from_millis(10), std::future::pending::<serenity::Result<()>>()).await;
        assert!(matches!(hung, Err(serenity::Error::Other(m)) if m == TIMED_OUT));
    }
}
