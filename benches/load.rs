//! Load through the Discord stand-in (docs/design/bot-reliability.md#load): many channels playing
//! at once at mixed levels, by touch (docs/design/touch.md), against the real bot (serenity,
//! service, store, renderer) and a real Postgres. Prints reply latency percentiles (the moves,
//! and doubutsu's first tap that lights an animal's squares, with its bytes), busy refusals,
//! errors and the longest gap between gateway heartbeats. Then the verdict (`checks/`): every
//! move a player saw accepted is stored once, where they saw it, and no other; the stand-in
//! refused no call and met no unknown route; no player met an error. Any failure exits
//! non-zero, naming it (late answers and "busy" refusals are reported, not judged: they depend
//! on the machine).
//!
//! `cargo bench --bench load -- [CHANNELS] [MOVES_PER_CHANNEL] [THINK_MS] [--rough]
//! [--shared-webhook-limit]` (default 500 × 10, players thinking 0.5-1.5 × 2000 ms between
//! moves, much faster than people do); `--rough` and `--shared-webhook-limit` as the soak's
//! (`soak.rs`); needs the
//! local Postgres of `.ci/run` (DATABASE_URL, default `postgres://postgres@localhost:5432/postgres`),
//! where it creates and afterwards drops a database of its own.

mod checks;
mod seen;

use std::sync::Arc;
use std::time::{Duration, Instant};

use checks::boards;
use checks::moves::{self, Tap};
use checks::verdict::{self, Findings};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use seen::Played;
use serde_json::json;
use settai::discord::{self, Connection};
use settai::domain::{Change, Place, Scope};
use settai::service::Service;
use settai::store::Store;
use settai_core::{doubutsu, reversi, Level};
// The Discord stand-in the bot runs against, the crate the tests use (crates/discord-stand-in).
use discord_stand_in::fixtures::{self, Ctx};
use discord_stand_in::{all_disabled, Exchange, Incomplete, RateLimits, Reply, ReplyKind, StandIn, Weather};

/// What one simulated player saw.
#[derive(Default)]
struct Tally {
    moves: usize,
    games: usize,
    /// Time from the interaction to the bot's first answer (the acknowledgement).
    ack: Vec<Duration>,
    /// Time from the interaction to the bot's last call (the new board posted).
    board: Vec<Duration>,
    busy: usize,
    errors: Vec<String>,
    /// Doubutsu's first tap (an animal chosen, its squares lit in place): time to the answer,
    /// and the bytes of that answer.
    choose: Vec<Duration>,
    choose_bytes: Vec<usize>,
    /// Time until the lit board is shown (the same call, or the edit after a late answer).
    choose_shown: Vec<Duration>,
    /// A move tap's first visible change: its board frozen in place with the move
    /// (docs/design/touch.md#every-tap-answers-at-once), as the first response or, past the
    /// acknowledgement deadline, as the edit after it.
    move_shown: Vec<Duration>,
    /// The moves the player saw accepted.
    taps: Vec<Tap>,
    /// Taps whose answer failed (Discord's weather): maybe played, maybe not.
    unknown: Vec<Tap>,
    /// Interactions whose answer failed where one of their calls met a fault of Discord's.
    failed_answers: usize,
    /// Answers that failed since the last one that came.
    failed_in_a_row: usize,
}

/// How many answers in a row may fail before a player calls the game stuck.
const FAILURES_IN_A_ROW: usize = 5;

impl Tally {
    /// An interaction whose answer failed: Discord's doing where one of its calls met a fault,
    /// else an error.
    fn failed(&mut self, standin: &StandIn, x: &Result<Exchange, Incomplete>) {
        self.failed_in_a_row += 1;
        match seen::failure_of(standin, x) {
            None => self.failed_answers += 1,
            Some(wrong) => self.errors.push(wrong),
        }
    }
}

fn times(x: &Exchange) -> Option<(Duration, Duration)> {
    let ok: Vec<Duration> = x.calls.iter().filter(|c| c.ok()).map(|c| c.after).collect();
    Some((*ok.first()?, *ok.iter().max()?))
}

/// What a simulated player does next.
enum Next {
    /// `/play <game>`.
    Start,
    /// `/play board` (after a refusal or an error: where is my game?).
    Show,
    /// Tap a random legal move on this board, by touch.
    Tap(Exchange),
}

/// Whether a board has moves to tap (a number, or an animal to choose).
fn has_moves(x: &Exchange) -> bool {
    x.custom_ids().iter().any(|id| id.starts_with("t:") && (id.contains(":p.") || id.contains(":c.")))
}

/// Plays `moves` moves in `ctx`'s channel (starting games of `game` as needed), as a person
/// would: a refusal or an error sends them to `/play board`, "busy" makes them wait.
async fn player(standin: Arc<StandIn>, ctx: Ctx, game: &'static str, moves: usize, think_ms: u64, seed: u64) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    // Players do not all start in the same millisecond.
    tokio::time::sleep(Duration::from_millis(rng.gen_range(0..=think_ms))).await;
    let mut tally = Tally::default();
    let mut next = Next::Start;
    // Players keep at it until they have made their moves (overload only slows them down).
    let give_up = tokio::time::Instant::now() + Duration::from_secs(3600);
    while tally.moves < moves && tokio::time::Instant::now() < give_up {
        if tally.failed_in_a_row >= FAILURES_IN_A_ROW {
            tally
                .errors
                .push(format!("channel {}: {} answers failed in a row (stuck)", ctx.channel_id, tally.failed_in_a_row));
            break;
        }
        // The move of the tap about to be sent, recorded once it is accepted.
        let mut tapping: Option<Tap> = None;
        let payload = match &next {
            Next::Start => fixtures::slash(&ctx, "play", game, json!([])),
            Next::Show => fixtures::slash(&ctx, "play", "board", json!([])),
            Next::Tap(b) => {
                let id = b.message_id().expect("a board message");
                let mut message = standin.message(id).expect("known message");
                if fixtures::touch_taps(&message, "p").is_empty() {
                    // Doubutsu: the first tap chooses an animal; its squares light up in place.
                    let origins = fixtures::touch_taps(&message, "c");
                    let origin = &origins[rng.gen_range(0..origins.len())];
                    let button = fixtures::touch_id(&message, &format!("c.{origin}")).expect("its button");
                    let chosen = standin.try_interact(fixtures::button_on(&ctx, &button, &message)).await;
                    if !seen::answered(&chosen) {
                        tally.failed(&standin, &chosen);
                        next = Next::Show;
                        continue;
                    }
                    let x = chosen.expect("answered");
                    if x.is_ephemeral() {
                        tally.errors.push(format!("choosing refused: {}", x.content()));
                        next = Next::Show;
                        continue;
                    }
                    if let Some((ack, shown)) = times(&x) {
                        tally.choose.push(ack);
                        tally.choose_shown.push(shown);
                    }
                    tally.choose_bytes.extend(x.calls.iter().map(|c| c.json.to_string().len()));
                    message = standin.message(id).expect("known message");
                    tokio::time::sleep(Duration::from_millis(rng.gen_range(think_ms / 4..think_ms / 2 + 1))).await;
                }
                let moves = fixtures::touch_taps(&message, "p");
                let choice = &moves[rng.gen_range(0..moves.len())];
                let button = fixtures::touch_id(&message, &format!("p.{choice}")).expect("its button");
                let (game, ply) = moves::board_place(&button).expect("a touch button names its board");
                tapping = Some(Tap { game, ply: ply + 1, notation: choice.clone() });
                fixtures::button_on(&ctx, &button, &message)
            }
        };
        let answer = standin.try_interact(payload).await;
        if let Some(tap) = tapping.take() {
            match seen::played(&standin, &answer, tap.game, tap.ply - 1) {
                Played::Yes => tapping = Some(tap),
                Played::No => {}
                Played::Unknown => {
                    tally.failed(&standin, &answer);
                    tally.unknown.push(tap);
                    next = Next::Show;
                    continue;
                }
            }
        }
        if !seen::answered(&answer) {
            tally.failed(&standin, &answer);
            next = Next::Show;
            continue;
        }
        let x = answer.expect("answered");
        tally.failed_in_a_row = 0;
        if let Some((ack, done)) = times(&x) {
            tally.ack.push(ack);
            tally.board.push(done);
        }
        if tapping.is_some() {
            // The update that froze the board: the first response itself, or past the
            // acknowledgement deadline an edit after it.
            let froze = |c: &Reply| {
                c.ok()
                    && matches!(c.kind, ReplyKind::Callback { type_: 7 } | ReplyKind::EditOriginal)
                    && c.components().is_some_and(|rows| all_disabled(&rows))
            };
            tally.move_shown.extend(x.calls.iter().find(|c| froze(c)).map(|c| c.after));
        }
        let pause = |rng: &mut StdRng, ms: std::ops::Range<u64>| Duration::from_millis(rng.gen_range(ms));
        if x.is_ephemeral() && x.file("board.png").is_some() {
            // A tap that could not play shows the game as it is now (an old board): look at it.
            next = Next::Show;
            tokio::time::sleep(pause(&mut rng, 500..1500)).await;
            continue;
        }
        if x.is_ephemeral() {
            let text = x.content();
            // A child's tap hears "busy" as ⏳; a command's, in words.
            let wait = if text.contains("lot of games") || text == "⏳" {
                // "Busy, try again in a moment": a person waits a few seconds, then tries again.
                tally.busy += 1;
                pause(&mut rng, 3000..6000)
            } else {
                // A child's tap where no game is on gets the game box (🎲).
                if text.contains("no game") || text == "🎲" {
                    next = Next::Start;
                } else {
                    // "Already played", "a game is on here", an old board: look at the game.
                    if !text.contains("already") && !text.contains("out of date") {
                        tally.errors.push(text);
                    }
                    next = Next::Show;
                }
                pause(&mut rng, 500..1500)
            };
            tokio::time::sleep(wait).await;
            continue;
        }
        match next {
            Next::Start => tally.games += 1,
            // The board came back as it was (Discord failed its first answer): not played.
            Next::Tap(_) if tapping.is_none() => {}
            Next::Tap(_) => {
                tally.moves += 1;
                tally.taps.extend(tapping.take());
            }
            Next::Show => {}
        }
        next = if has_moves(&x) { Next::Tap(x) } else { Next::Show };
        // The player looks at the new board before moving (or waits for the bot's move).
        tokio::time::sleep(pause(&mut rng, think_ms / 2..think_ms * 3 / 2 + 1)).await;
        if matches!(next, Next::Show) {
            // A finished game: a new one (a board without a menu while the game is on, too:
            // the start is refused and the player looks again).
            next = Next::Start;
        }
    }
    tally
}

fn percentiles(label: &str, mut v: Vec<Duration>) {
    v.sort();
    let at = |q: f64| v.get(((v.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or_default();
    println!(
        "{label:<28} n={:<6} p50 {:>7.0} ms  p95 {:>7.0} ms  p99 {:>7.0} ms  max {:>7.0} ms",
        v.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.95).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        v.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
}

async fn run(channels: u64, moves: usize, think_ms: u64, rough: bool, shared_webhook: bool) -> anyhow::Result<()> {
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@localhost:5432/postgres".into());
    let (server, _) = base.rsplit_once('/').expect("DATABASE_URL ends with a database name");
    let name = format!("settai_load_{}", std::process::id());
    let store = Store::connect(&format!("{server}/{name}")).await?;

    // Discord's rate limits, as the bot meets them in production (with `--shared-webhook-limit`,
    // the limit a channel's interactions share too), and with `--rough` its bad days.
    let limits = if shared_webhook {
        RateLimits::discord().with_shared_webhook(RateLimits::SHARED_WEBHOOK)
    } else {
        RateLimits::discord()
    };
    let mut standin = StandIn::start_with(limits).await;
    // A player's patience: an answer not whole after two minutes is one that failed (the run's
    // own figures say how long answers took); longer only left idle tails after a hung call.
    standin.interact_timeout = Duration::from_secs(120);
    if rough {
        standin.set_weather(Some(Weather::rough(20261207)));
    }
    standin.set_heartbeat_interval(Duration::from_secs(2));
    let standin = Arc::new(standin);
    let connection = Connection {
        token: StandIn::TOKEN.into(),
        guild_id: None,
        api_base: Some(standin.api_base()),
        api_certificate: Some(StandIn::certificate()),
        idle_sweep: discord::IDLE_SWEEP,
        shards: None,
    };
    let client = discord::client(connection, Service::new(store.clone())).await?;
    let shards = client.shard_manager.clone();
    tokio::spawn(discord::start(client, None));
    standin.wait_ready(Duration::from_secs(30)).await;
    standin.wait_commands(Duration::from_secs(30)).await;

    // Seven channels in ten play doubutsu at the quick level, two reversi at `standard` (0.8 s a
    // reply), one reversi at `none` (2.4 s).
    let (mut players, mut channel_ids) = (Vec::new(), Vec::new());
    for i in 0..channels {
        let ctx = Ctx::en().with_channel(fixtures::THREAD_ID + 10_000 + i).with_user(fixtures::USER_ID + 10 + i);
        let place = Place { guild_id: Some(ctx.guild_id), channel_id: ctx.channel_id, parent_id: None };
        let (game, level) = match i % 10 {
            0..=6 => ("doubutsu", Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest)),
            7 | 8 => ("reversi", Level::Reversi(reversi::ReversiLevel::Standard)),
            _ => ("reversi", Level::Reversi(reversi::ReversiLevel::NoMercy)),
        };
        store.change_setting(ctx.guild_id, &place, Scope::Channel, Change::Level(level)).await?;
        channel_ids.push(ctx.channel_id);
        players.push((ctx, game));
    }
    let started = Instant::now();
    let tasks: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, (ctx, game))| tokio::spawn(player(standin.clone(), ctx, game, moves, think_ms, i as u64)))
        .collect();
    let mut all = Tally::default();
    for t in tasks {
        let t = t.await?;
        all.moves += t.moves;
        all.games += t.games;
        all.ack.extend(t.ack);
        all.board.extend(t.board);
        all.busy += t.busy;
        all.errors.extend(t.errors);
        all.choose.extend(t.choose);
        all.choose_bytes.extend(t.choose_bytes);
        all.choose_shown.extend(t.choose_shown);
        all.move_shown.extend(t.move_shown);
        all.taps.extend(t.taps);
        all.unknown.extend(t.unknown);
        all.failed_answers += t.failed_answers;
    }
    let wall = started.elapsed();
    shards.shutdown_all().await;

    println!(
        "channels {channels}, think {think_ms} ms, {} games started, {} moves in {:.1} s ({:.1} moves/s), {} cores",
        all.games,
        all.moves,
        wall.as_secs_f64(),
        all.moves as f64 / wall.as_secs_f64(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let late = all.ack.iter().filter(|a| **a > Duration::from_secs(3)).count();
    percentiles("acknowledgement (defer)", all.ack);
    percentiles("board posted", all.board);
    percentiles("a move tap (board frozen)", all.move_shown);
    let late_choices = all.choose.iter().filter(|a| **a > Duration::from_secs(3)).count();
    percentiles("an animal chosen (first answer)", all.choose);
    percentiles("an animal chosen (lit board shown)", all.choose_shown);
    let bytes = all.choose_bytes.iter().sum::<usize>() as f64 / all.choose_bytes.len().max(1) as f64;
    println!("choosing an animal: {bytes:.0} bytes sent a tap on average, {late_choices} answers after 3 s");
    println!("first answers after Discord's 3 s: {late}");
    println!("busy refusals (polite, retried): {}", all.busy);
    let met = standin.rate_limited();
    let global = met.iter().filter(|r| r.global).count();
    println!("429s met (Discord's rate limits): {} ({global} of the global limit)", met.len());
    println!("errors: {}", all.errors.len());
    for e in all.errors.iter().take(5) {
        println!("  {e}");
    }
    let gap = standin.longest_heartbeat_gap().unwrap_or_default();
    println!("longest gap between gateway heartbeats: {:.2} s (interval 2 s)", gap.as_secs_f64());

    // Every accepted tap is stored once, where the player saw it, and no other player's move is.
    let stored = moves::stored_players_moves(store.pool()).await?;
    let (live, unknown_boards) = seen::live_boards(&standin, channel_ids);
    let (refused_calls, provoked) = seen::refusals(&standin);
    let findings = Findings {
        moves: moves::compare(&all.taps, &all.unknown, &stored),
        boards: boards::troubles(&boards::games_now(store.pool()).await?, &live),
        refused_calls,
        unknown_routes: standin.take_unknown_routes(),
        anomalies: all.errors,
        ..Findings::default()
    };
    println!("{}", seen::weather_report(&standin));
    seen::print_board_stories(&standin, &findings.boards);
    println!(
        "boards Discord made on a call it never answered, left live (the bot cannot know of them): {unknown_boards}"
    );
    println!(
        "answers that failed: {}; taps of unknown fate: {} ({} of them stored); refusals a fault provoked: {provoked}",
        all.failed_answers, findings.moves.unknown, findings.moves.unknown_stored
    );

    drop(store);
    let admin = sqlx::PgPool::connect(&base).await?;
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&admin).await?;
    verdict::conclude("load", &findings)
}

/// Exits non-zero when the run fails its checks (or cannot run), naming what failed.
fn main() -> std::process::ExitCode {
    // The bot's own warnings and errors (e.g. why a request failed): RUST_LOG=settai=warn.
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    // `cargo bench` adds flags such as `--bench`; the numbers are ours.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let channels = args.first().and_then(|a| a.parse().ok()).unwrap_or(500);
    let moves = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let think_ms = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    let rough = std::env::args().any(|a| a == "--rough");
    let shared_webhook = std::env::args().any(|a| a == "--shared-webhook-limit");
    verdict::exit_code(runtime.block_on(run(channels, moves, think_ms, rough, shared_webhook)))
}
