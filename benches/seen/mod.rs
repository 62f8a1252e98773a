//! What a bench's players see through the Discord stand-in, for `soak.rs` and `load.rs`: the
//! board a message offers, how a tap's answer went under Discord's weather (docs/design/bot-reliability.md#when-discord-fails),
//! the boards left in the channels, and which of the stand-in's refusals Discord's own failures
//! provoked.
// Each bench uses what it needs of these.
#![allow(dead_code)]

use serde_json::Value;

use crate::checks::boards::LiveBoard;
use crate::checks::moves;
use discord_stand_in::fixtures;
use discord_stand_in::{Exchange, Incomplete, StandIn};

/// The game and ply a message's board offers moves at (an animal to choose, or a square or
/// number to play), read from its buttons' ids (`t:{game}:{ply}:...`); none once the game is
/// over, or on a board whose buttons are disabled or gone.
pub fn offered(message: &Value) -> Option<(i64, u32)> {
    let taps = fixtures::touch_taps(message, "c").len() + fixtures::touch_taps(message, "p").len();
    let id = fixtures::buttons_of(message).into_iter().find_map(|b| b["custom_id"].as_str().map(str::to_string))?;
    moves::board_place(&id).filter(|_| taps > 0)
}

/// How a move's tap went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// The player saw the game go on past the move: a new board, or the game's end.
    Yes,
    /// The answer says it was not: a refusal, or the board back as it was.
    No,
    /// The answer never came whole: the player cannot tell.
    Unknown,
}

/// How the tap of a move at `ply` of `game` went, from its exchange.
pub fn played(standin: &StandIn, tapped: &Result<Exchange, Incomplete>, game: i64, ply: u32) -> Played {
    let Ok(x) = tapped else { return Played::Unknown };
    if !x.answered() {
        return Played::Unknown;
    }
    if x.is_ephemeral() {
        return Played::No;
    }
    match x.message_id().and_then(|id| standin.message(id)).as_ref().map(offered) {
        None => Played::Unknown,
        Some(Some((g, p))) if g == game && p <= ply => Played::No,
        Some(_) => Played::Yes,
    }
}

/// Whether an exchange ended as its player expects: answered, nothing refused.
pub fn answered(x: &Result<Exchange, Incomplete>) -> bool {
    x.as_ref().is_ok_and(|x| x.answered() && x.refused().is_empty())
}

/// The interaction token an exchange was made with.
pub fn token_of(x: &Result<Exchange, Incomplete>) -> String {
    match x {
        Ok(x) => x.token.clone(),
        Err(e) => e.partial.token.clone(),
    }
}

/// How an interaction whose answer failed is judged: `None` where one of its calls met a fault
/// of Discord's (the failure is Discord's doing), else what went wrong, for the run's anomalies.
pub fn failure_of(standin: &StandIn, x: &Result<Exchange, Incomplete>) -> Option<String> {
    if met_a_fault(standin, &token_of(x)) {
        return None;
    }
    Some(match x {
        Ok(x) if !x.refused().is_empty() => format!("a call refused\n{x}"),
        Ok(x) => format!("unanswered\n{x}"),
        Err(e) => e.to_string(),
    })
}

/// Whether one of the calls made with `token` met a fault of Discord's (the stand-in's weather):
/// the interaction's answer may then fail, and that is Discord's doing, not the bot's.
pub fn met_a_fault(standin: &StandIn, token: &str) -> bool {
    !token.is_empty() && standin.injected_faults().iter().any(|f| f.path.contains(token))
}

/// The stand-in's refusals of the bot's calls, apart from those on an interaction one of whose
/// calls met a fault (a first answer tried again past Discord's window, a board brought back
/// that was never frozen): `(the bot's, provoked)`.
pub fn refusals(standin: &StandIn) -> (Vec<String>, usize) {
    let faults = standin.injected_faults();
    let provoked = |token: &Option<String>| {
        token.as_deref().is_some_and(|t| !t.is_empty() && faults.iter().any(|f| f.path.contains(t)))
    };
    let refused = standin.refused();
    let theirs = refused.iter().filter(|c| provoked(&c.token)).count();
    (refused.iter().filter(|c| !provoked(&c.token)).map(|c| c.to_string()).collect(), theirs)
}

/// The boards offering moves in `channels` now: the public messages whose buttons do, apart
/// from those Discord made on a call it never answered (the bot cannot know of them, and a tap
/// there is answered as on an old board; docs/design/bot-reliability.md#when-discord-fails),
/// which are counted: `(the boards, those left apart)`.
pub fn live_boards(standin: &StandIn, channels: impl IntoIterator<Item = u64>) -> (Vec<LiveBoard>, usize) {
    let unknown: std::collections::HashSet<u64> = standin.injected_faults().iter().filter_map(|f| f.made).collect();
    let (live, apart): (Vec<LiveBoard>, Vec<LiveBoard>) =
        boards_offering_moves(standin, channels).into_iter().partition(|b| !unknown.contains(&b.message));
    (live, apart.len())
}

/// The public messages in `channels` whose buttons offer moves.
fn boards_offering_moves(standin: &StandIn, channels: impl IntoIterator<Item = u64>) -> Vec<LiveBoard> {
    let mut live = Vec::new();
    for channel in channels {
        for m in standin.messages_in(channel) {
            let private = m["flags"].as_u64().unwrap_or(0) & 64 != 0;
            let Some(((game, ply), message)) = offered(&m).zip(m["id"].as_str().and_then(|id| id.parse().ok())) else {
                continue;
            };
            if !private {
                live.push(LiveBoard { message, game, ply });
            }
        }
    }
    live
}

/// The faults Discord's weather brought, by kind, and the calls the bot sent again after one.
pub fn weather_report(standin: &StandIn) -> String {
    use discord_stand_in::FaultKind;
    let faults = standin.injected_faults();
    let count = |f: &dyn Fn(&FaultKind) -> bool| faults.iter().filter(|x| f(&x.kind)).count();
    format!(
        "Discord's faults met: {} ({} 5xx, {} resets, {} hung, {} applied and hung); calls sent again after one: {}",
        faults.len(),
        count(&|k| matches!(k, FaultKind::Status { .. })),
        count(&|k| matches!(k, FaultKind::Reset)),
        count(&|k| matches!(k, FaultKind::Hang)),
        count(&|k| matches!(k, FaultKind::AppliedHang)),
        standin.repeated_calls()
    )
}

/// Whether a line of the bot's log reports a failure of Discord's (a call cut, timed out, or
/// answered with a 5xx), as the soak's bad weather brings; any other warning is the bot's.
pub fn says_discord_failed(line: &str) -> bool {
    const DISCORD_FAILED: [&str; 7] = [
        "Error while sending HTTP request",
        // The first answer's tries failed until Discord's window closed.
        "window for the first response had closed",
        // `discord::calls::TIMED_OUT`, the bot's own deadline.
        "Discord did not answer in time",
        "error decoding response body",
        "Internal Server Error",
        "Bad Gateway",
        "Service Unavailable",
    ];
    DISCORD_FAILED.iter().any(|s| line.contains(s))
}

/// The game a board trouble names (`boards::troubles`' lines start `game {id}:`).
pub fn trouble_game(line: &str) -> Option<i64> {
    line.strip_prefix("game ")?.split(':').next()?.parse().ok()
}

/// Every call of the bot's that touched `game`'s boards, in order, and the faults they met: so
/// that a board left wrong says how it came to be. A call is counted when its body carries the
/// game's buttons, when it was made on a message that ever did, or with the token of an
/// interaction that did.
pub fn board_story(standin: &StandIn, game: i64) -> String {
    use std::collections::HashSet;
    let calls = standin.all_calls();
    let prefix = format!("\"t:{game}:");
    // Each body read once: a run holds tens of thousands of calls.
    let carrying: Vec<bool> = calls.iter().map(|c| c.json.to_string().contains(&prefix)).collect();
    let carriers = || calls.iter().zip(&carrying).filter(|(_, &carries)| carries).map(|(c, _)| c);
    let messages: HashSet<u64> = carriers().filter_map(|c| c.message_id).collect();
    let tokens: HashSet<&str> = carriers().filter_map(|c| c.token.as_deref()).collect();
    let mut story = format!("  the story of game {game}'s boards:");
    for (c, &carries) in calls.iter().zip(&carrying) {
        let token = c.token.as_deref().filter(|t| tokens.contains(t));
        if !(carries || c.message_id.is_some_and(|m| messages.contains(&m)) || token.is_some()) {
            continue;
        }
        let offers = match fixtures::buttons_of(c.message_json()).is_empty() {
            true if c.message_json().get("components").is_some() => "offers nothing".to_string(),
            true => String::new(),
            false => match offered(c.message_json()) {
                Some((_, ply)) => format!("offers ply {ply}"),
                None => "buttons, no move".to_string(),
            },
        };
        story.push_str(&format!(
            "\n    #{} {:?} -> {} message {:?} token {} {offers}",
            c.seq,
            c.kind,
            c.status,
            c.message_id,
            c.token.as_deref().unwrap_or("-")
        ));
    }
    for f in standin.injected_faults() {
        let touched =
            tokens.iter().any(|t| f.path.contains(t)) || messages.iter().any(|m| f.path.contains(&m.to_string()));
        if touched {
            story.push_str(&format!("\n    fault: {} {} {:?} (made {:?})", f.method, f.path, f.kind, f.made));
        }
    }
    story
}

/// Prints the story of every game a board trouble or an anomaly names (the first
/// `STORIES_AT_MOST`: a story can run to hundreds of lines).
pub fn print_board_stories<'a>(standin: &StandIn, troubles: impl IntoIterator<Item = &'a String>) {
    let games: std::collections::BTreeSet<i64> = troubles.into_iter().filter_map(|t| trouble_game(t)).collect();
    for game in games.iter().take(STORIES_AT_MOST) {
        println!("{}", board_story(standin, *game));
    }
    if games.len() > STORIES_AT_MOST {
        println!("  ({} more games named; their stories left out)", games.len() - STORIES_AT_MOST);
    }
}

/// How many games' stories a run prints at most.
const STORIES_AT_MOST: usize = 8;
