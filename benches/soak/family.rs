//! One family's day in the soak: it looks at its game (or starts one) and taps moves as a
//! person does, looking again when an answer fails or keeps it waiting.

use std::sync::Arc;
use std::time::Duration;

use discord_stand_in::fixtures::{self, Ctx};
use discord_stand_in::{Exchange, Incomplete, StandIn};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

use crate::checks::moves::Tap;
use crate::seen::{self, Played};

/// What one channel's family did on one day.
#[derive(Default)]
pub(crate) struct Day {
    pub(crate) taps: Vec<Tap>,
    /// Taps whose answer failed (Discord's weather): maybe played, maybe not.
    pub(crate) unknown: Vec<Tap>,
    pub(crate) games_started: usize,
    /// Interactions whose answer failed where one of their calls met a fault of Discord's.
    pub(crate) failed_answers: usize,
    /// The longest an answer took to show (its last call so far), of those that came.
    pub(crate) longest_answer: Duration,
    pub(crate) anomalies: Vec<String>,
}

impl Day {
    /// Notes how long `x`, an answered exchange, took to show.
    fn answered(&mut self, x: &Exchange) {
        let shown = x.calls.iter().filter(|c| c.ok()).map(|c| c.after).max().unwrap_or_default();
        self.longest_answer = self.longest_answer.max(shown);
    }

    /// An interaction (`what`) whose answer failed: Discord's doing where one of its calls met
    /// a fault, else an anomaly.
    fn failed(&mut self, standin: &StandIn, what: &str, x: &Result<Exchange, Incomplete>) {
        match seen::failure_of(standin, x) {
            None => self.failed_answers += 1,
            Some(wrong) => self.anomalies.push(format!("{what}: {wrong}")),
        }
    }
}

/// What a family does next.
enum Next {
    /// `/play board`: where is our game?
    Show,
    /// `/play doubutsu`.
    Start,
    /// Plays on this board message.
    Tap(u64),
}

/// How many answers in a row may fail before a family calls its game stuck.
const FAILURES_IN_A_ROW: usize = 5;

/// How long a family waits for an answer before looking at the game again (`/play board`): a
/// person's patience, well past the longest honest answer (a call of the bot's that hangs until
/// its 10 s deadline, then the board shown another way, with the bot's thinking). The run prints
/// the longest answer it saw, so that a patience cut too short shows.
pub(crate) const PATIENCE: Duration = Duration::from_secs(20);

/// How long a family looks at a board before its move, where it plays at a person's pace (the
/// run with Discord's shared webhook limit, which a machine's pace meets in every channel).
pub(crate) const LOOKING_MS: std::ops::Range<u64> = 1500..3000;

/// One family's session: shows the game on (or starts one) and taps random legal moves until
/// the game ends or, with chance `stop` after each move, they leave it for another day;
/// at a person's pace (`LOOKING_MS` before each move) where `paced`, else as fast as the
/// boards come. An answer that fails sends them to `/play board`, as a person would look at
/// the game again.
pub(crate) async fn family(standin: Arc<StandIn>, ctx: Ctx, stop: f64, seed: u64, paced: bool) -> Day {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut day = Day::default();
    let mut next = Next::Show;
    let mut failures = 0;
    loop {
        if failures >= FAILURES_IN_A_ROW {
            day.anomalies.push(format!("channel {}: {failures} answers failed in a row (stuck)", ctx.channel_id));
            return day;
        }
        let board = match next {
            Next::Show | Next::Start => {
                let start = matches!(next, Next::Start);
                let command = if start { "doubutsu" } else { "board" };
                let x = standin.try_interact(fixtures::slash(&ctx, "play", command, json!([]))).await;
                if !seen::answered(&x) {
                    day.failed(&standin, command, &x);
                    failures += 1;
                    next = Next::Show;
                    continue;
                }
                let x = x.expect("answered");
                day.answered(&x);
                match (start, x.is_ephemeral()) {
                    // No game here: a new one.
                    (false, true) => {
                        next = Next::Start;
                        continue;
                    }
                    // A game is on already (a start whose answer failed made it).
                    (true, true) if x.content().contains("already") => {
                        next = Next::Show;
                        continue;
                    }
                    (true, true) => {
                        day.anomalies.push(format!("start refused: {}", x.content()));
                        return day;
                    }
                    (true, false) => day.games_started += 1,
                    (false, false) => {}
                }
                failures = 0;
                match x.message_id() {
                    Some(id) => id,
                    None => {
                        day.anomalies.push("a board without its message".into());
                        return day;
                    }
                }
            }
            Next::Tap(id) => id,
        };
        if paced {
            tokio::time::sleep(Duration::from_millis(rng.gen_range(LOOKING_MS))).await;
        }
        let Some(mut message) = standin.message(board) else {
            day.anomalies.push("a board without its message".into());
            return day;
        };
        let Some((game, ply)) = seen::offered(&message) else { break };
        // The animal first (its squares light up in place), then where it goes.
        let origins = fixtures::touch_taps(&message, "c");
        let origin = &origins[rng.gen_range(0..origins.len())];
        let choose = fixtures::touch_id(&message, &format!("c.{origin}")).expect("its button");
        let chosen = standin.try_interact(fixtures::button_on(&ctx, &choose, &message)).await;
        if !seen::answered(&chosen) {
            day.failed(&standin, "choose", &chosen);
            failures += 1;
            next = Next::Show;
            continue;
        }
        if let Ok(x) = &chosen {
            day.answered(x);
        }
        if chosen.as_ref().is_ok_and(Exchange::is_ephemeral) {
            day.anomalies.push(format!("choosing refused: {}", chosen.map(|x| x.content()).unwrap_or_default()));
            return day;
        }
        message = match standin.message(board) {
            Some(m) => m,
            None => {
                day.anomalies.push("a board without its message".into());
                return day;
            }
        };
        let lit = fixtures::touch_taps(&message, "p");
        let Some(choice) = (!lit.is_empty()).then(|| lit[rng.gen_range(0..lit.len())].clone()) else {
            day.anomalies.push(format!("game {game}: an animal chosen and no square lit"));
            return day;
        };
        let play = fixtures::touch_id(&message, &format!("p.{choice}")).expect("its button");
        let tapped = standin.try_interact(fixtures::button_on(&ctx, &play, &message)).await;
        let tap = Tap { game, ply: ply + 1, notation: choice };
        match seen::played(&standin, &tapped, game, ply) {
            Played::Yes => {
                if let Ok(x) = &tapped {
                    day.answered(x);
                }
                day.taps.push(tap);
                failures = 0;
                next = Next::Tap(tapped.as_ref().ok().and_then(Exchange::message_id).expect("a board"));
                if rng.gen_bool(stop) {
                    break;
                }
            }
            // The board back as it was after a fault of Discord's on the tap's first answer
            // (the bot cannot know the board froze, so it does not play): Discord's doing, and
            // the family looks again.
            Played::No if seen::met_a_fault(&standin, &seen::token_of(&tapped)) => {
                day.failed_answers += 1;
                failures += 1;
                next = Next::Show;
            }
            Played::No => {
                let x = tapped.expect("an answer");
                day.anomalies.push(format!("game {game}: a tap at ply {ply} refused: {}", x.content()));
                return day;
            }
            Played::Unknown => {
                day.failed(&standin, "tap", &tapped);
                day.unknown.push(tap);
                failures += 1;
                next = Next::Show;
            }
        }
    }
    day
}
