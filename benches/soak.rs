//! The soak (docs/design/operations.md#the-soak): an accelerated month of family play through
//! the Discord stand-in, against the real `settai serve` process and a real Postgres. Each
//! simulated day most channels play (a game goes on, or a new one starts; some families stop
//! mid-game), then the clock moves a day, as the tests move it (every stored time one day
//! earlier), and the bot's own sweeps send the reminders and final notices and close the idle
//! games. The bot is stopped gracefully after a third of the days (day 10 of a month) and
//! killed after two thirds (day 20), and restarted. After each day the process's figures are
//! read from its metrics port (resident memory, threads, open files, runtime tasks, the
//! database pool) and Postgres's (connections, table sizes). At the end, the verdict
//! (`checks/`): every move the players saw accepted is stored once, where they saw it, and no
//! other; the stand-in refused no call and met no unknown route; the players met no anomaly;
//! the bot's log holds no warning or error; and the slope of every figure after each process's
//! warm-up, with its 95% interval, the bot's own memory judged against a threshold. Any failure
//! exits non-zero, naming it.
//!
//! `cargo bench --bench soak -- [DAYS] [CHANNELS] [--small-table] [--rough]
//! [--shared-webhook-limit]` (default 30 days, 100 channels; BENCHMARKS.md runs 200); needs the local Postgres (DATABASE_URL, as the tests)
//! where it creates and afterwards drops a database of its own; builds the doubutsu table first
//! unless `data/doubutsu.tb` exists (half the channels play `settai`, half `weakest`). With
//! `--small-table` the bot gets the table of lions and chicks alone, built in a moment, and
//! `settai` plays as `weakest` where it cannot value a position: CI's short run
//! (`.ci/run`), which checks the verdict's path rather than the figures. With `--rough`, Discord
//! has bad days (`Weather::rough`: 1% of the calls fail with a 5xx or a reset, one in 1,000
//! hangs): a family whose answer fails looks at the game again with `/play board`, and the
//! verdict also asks that each game is left with one board offering its moves, no more, no
//! fewer. With `--shared-webhook-limit` the stand-in applies the webhook limit a channel's
//! interactions share, and the families play at a person's pace (a look of 1.5-3 s at the
//! board before each move): at a machine's pace every channel would meet it.

mod checks;
#[path = "soak/family.rs"]
mod family;
#[path = "soak/readings.rs"]
mod readings;
mod seen;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use checks::boards;
use checks::moves::{self, Tap};
use checks::verdict::{self, Findings};
use family::{family, PATIENCE};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use readings::sample;
use settai::domain::{Change, Place, Scope};
use settai::store::Store;
use settai_core::doubutsu::table::{BuildOptions, Material};
use settai_core::{doubutsu, Level};
// The Discord stand-in the bot runs against, the crate the tests use (crates/discord-stand-in).
use discord_stand_in::fixtures::{self, Ctx};
use discord_stand_in::{RateLimits, StandIn, Weather};

const T: Duration = Duration::from_secs(120);
/// The server's idle limit in the soak: games left alone close within the month.
const IDLE_DAYS: u32 = 5;

/// The bot's process, stopped and reaped however the run ends (an error on the way out leaves
/// no bot behind).
struct BotProcess(Child);

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The bot as a process of its own, its log in `log`.
fn serve(standin: &StandIn, url: &str, metrics: &str, data_dir: &Path, log: &Path) -> BotProcess {
    let log = std::fs::OpenOptions::new().create(true).append(true).open(log).expect("the log file opens");
    Command::new(env!("CARGO_BIN_EXE_settai"))
        .arg("serve")
        .env("DISCORD_TOKEN", StandIn::TOKEN)
        .env("DISCORD_API_BASE", standin.api_base())
        .env("DISCORD_API_CA", StandIn::certificate())
        .env("DISCORD_GUILD_ID", "")
        .env("DATABASE_URL", url)
        .env("SETTAI_METRICS_ADDR", metrics)
        .env("SETTAI_SWEEP_SECS", "1")
        .env("SETTAI_DATA_DIR", data_dir)
        .env("RUST_LOG", "settai=warn,serenity=warn")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .map(BotProcess)
        .expect("the settai binary starts")
}

/// Moves every stored time one day into the past: the next sweep sees a day gone by.
async fn a_day_passes(pool: &sqlx::PgPool) -> anyhow::Result<()> {
    for statement in [
        "UPDATE games SET created_at = created_at - interval '1 day', updated_at = updated_at - interval '1 day',
                finished_at = finished_at - interval '1 day', reminded_at = reminded_at - interval '1 day',
                final_notice_at = final_notice_at - interval '1 day'",
        "UPDATE moves SET played_at = played_at - interval '1 day'",
        "UPDATE guild_departures SET left_at = left_at - interval '1 day'",
    ] {
        sqlx::query(statement).execute(pool).await?;
    }
    Ok(())
}

/// Waits until the bot's sweeps have done what a day owes: no game past the idle limit is
/// open, no reminder or final notice is owed. `false` if they did not within [`T`].
async fn sweeps_done(pool: &sqlx::PgPool) -> anyhow::Result<bool> {
    let owed = format!(
        "SELECT count(*) FROM games WHERE status = 'active' AND (
             updated_at <= now() - interval '{IDLE_DAYS} days'
          OR (reminded_at IS NULL AND updated_at <= now() - interval '24 hours')
          OR (final_notice_at IS NULL AND updated_at <= now() - interval '{} days'))",
        IDLE_DAYS - 1
    );
    let deadline = Instant::now() + T;
    while Instant::now() < deadline {
        let n: i64 = sqlx::query_scalar(&owed).fetch_one(pool).await?;
        if n == 0 {
            return Ok(true);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(false)
}

/// The days after whose reading the bot is restarted: gracefully after a third of the run, killed
/// after two thirds (days 10 and 20 of a month). A short run restarts too, so that CI's checks
/// cross both.
fn restart_days(days: u32) -> (u32, u32) {
    (days / 3, 2 * days / 3)
}

/// The doubutsu table for the bot: the table of lions and chicks alone built into `dir` if
/// `small`, else `data/doubutsu.tb` if it is there, else the whole table built into `dir`.
fn table_dir(dir: &Path, small: bool) -> anyhow::Result<PathBuf> {
    if small {
        let root: doubutsu::Position = "1l1/1c1/1C1/1L1 b -".parse()?;
        let table = doubutsu::table::build(Material::of(&root), &BuildOptions::default())?;
        settai::table_file::write(&table, &dir.join("doubutsu.tb"))?;
        return Ok(dir.to_path_buf());
    }
    let kept = PathBuf::from("data");
    if kept.join("doubutsu.tb").exists() {
        return Ok(kept);
    }
    eprintln!("building the doubutsu table into {} (about 2 minutes)", dir.display());
    let built = Command::new(env!("CARGO_BIN_EXE_settai"))
        .args(["table", "build", "--out"])
        .arg(dir.join("doubutsu.tb"))
        .stdout(Stdio::null())
        .status()?;
    anyhow::ensure!(built.success(), "the table could not be built");
    Ok(dir.to_path_buf())
}

async fn run(days: u32, channels: u64, small_table: bool, rough: bool, shared_webhook: bool) -> anyhow::Result<()> {
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@localhost:5432/postgres".into());
    let (server, _) = base.rsplit_once('/').expect("DATABASE_URL ends with a database name");
    let db = format!("settai_soak_{}", std::process::id());
    let url = format!("{server}/{db}");
    let store = Store::connect(&url).await?;
    let pool = store.pool().clone();
    let work = std::env::temp_dir().join(format!("settai-soak-{}", std::process::id()));
    std::fs::create_dir_all(&work)?;
    let data_dir = table_dir(&work, small_table)?;
    let log = work.join("bot.log");

    // One server; half the channels at each doubutsu level, its idle limit short enough that
    // games left alone close within the month.
    let families: Vec<Ctx> = (0..channels)
        .map(|i| Ctx::en().with_channel(fixtures::THREAD_ID + 20_000 + i).with_user(fixtures::USER_ID + 20 + i))
        .collect();
    let server_place =
        Place { guild_id: Some(families[0].guild_id), channel_id: families[0].channel_id, parent_id: None };
    store.change_setting(families[0].guild_id, &server_place, Scope::Server, Change::IdleDays(IDLE_DAYS)).await?;
    for (i, ctx) in families.iter().enumerate().filter(|(i, _)| i % 2 == 1) {
        let place = Place { guild_id: Some(ctx.guild_id), channel_id: ctx.channel_id, parent_id: None };
        let weakest = Change::Level(Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest));
        store
            .change_setting(ctx.guild_id, &place, Scope::Channel, weakest)
            .await
            .map_err(|e| anyhow::anyhow!("{i}: {e}"))?;
    }

    // Discord's rate limits, as the bot meets them in production (with `--shared-webhook-limit`,
    // the limit a channel's interactions share too), and with `--rough` its bad days.
    let limits = if shared_webhook {
        RateLimits::discord().with_shared_webhook(RateLimits::SHARED_WEBHOOK)
    } else {
        RateLimits::discord()
    };
    let mut standin = StandIn::start_with(limits).await;
    standin.interact_timeout = PATIENCE;
    if rough {
        standin.set_weather(Some(Weather::rough(20261207)));
    }
    let standin = Arc::new(standin);
    let metrics_addr = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.to_string();
    let metrics_url = format!("http://{metrics_addr}/metrics");
    let mut bot = serve(&standin, &url, &metrics_addr, &data_dir, &log);
    let mut sessions = 1;
    standin.wait_sessions(sessions, T).await;

    let started = Instant::now();
    let mut rng = StdRng::seed_from_u64(20261205);
    let (mut taps, mut unknown, mut games_started, mut anomalies) =
        (Vec::<Tap>::new(), Vec::<Tap>::new(), 0, Vec::<String>::new());
    let mut failed_answers = 0;
    let mut longest_answer = Duration::ZERO;
    let mut samples = Vec::new();
    let (graceful_stop, kill) = restart_days(days);
    let (mut process, mut process_started) = (0, 1);
    let mut away_until = vec![0u32; families.len()];
    for day in 1..=days {
        // Seven families in ten play today; one in five of those stops mid-game for the day.
        let mut playing = Vec::new();
        for (ctx, away) in families.iter().zip(away_until.iter_mut()) {
            // Now and then a family goes away for a week (its game waits: a reminder, a final
            // notice, and the idle close).
            if *away < day && rng.gen_bool(0.03) {
                *away = day + 7;
            }
            if *away < day && rng.gen_bool(0.7) {
                let stop = if rng.gen_bool(0.2) { 0.1 } else { 0.0 };
                playing.push(tokio::spawn(family(standin.clone(), ctx.clone(), stop, rng.gen(), shared_webhook)));
            }
        }
        for done in playing {
            let done = done.await?;
            taps.extend(done.taps);
            unknown.extend(done.unknown);
            failed_answers += done.failed_answers;
            longest_answer = longest_answer.max(done.longest_answer);
            games_started += done.games_started;
            anomalies.extend(done.anomalies);
        }
        a_day_passes(&pool).await?;
        if !sweeps_done(&pool).await? {
            anomalies.push(format!("day {day}: the sweeps had not caught up after {} s", T.as_secs()));
        }
        let s = sample((day, process, day + 1 - process_started), &metrics_url, &pool, &db).await?;
        eprintln!(
            "day {day:>2}: {} games, {} moves, {:.1} MiB ({:.1} its own), {} tasks, {:.0} s",
            s.games,
            s.moves,
            s.resident_mib,
            s.own_mib,
            s.tasks,
            started.elapsed().as_secs_f64()
        );
        samples.push(s);
        // Restarts (after the day's reading): a graceful stop, later a kill; none after the last day.
        if day < days && (day == graceful_stop || day == kill) {
            if day == graceful_stop {
                Command::new("kill").args(["-TERM", &bot.0.id().to_string()]).status()?;
            } else {
                bot.0.kill()?;
            }
            bot.0.wait()?;
            standin.wait_disconnected(T).await;
            bot = serve(&standin, &url, &metrics_addr, &data_dir, &log);
            sessions += 1;
            standin.wait_sessions(sessions, T).await;
            (process, process_started) = (process + 1, day + 1);
        }
    }
    let wall = started.elapsed();
    let _ = Command::new("kill").args(["-TERM", &bot.0.id().to_string()]).status();
    bot.0.wait()?;

    // Every accepted tap is stored once, where the player saw it, and no other player's move is.
    let stored = moves::stored_players_moves(&pool).await?;
    let (live, unknown_boards) = seen::live_boards(&standin, families.iter().map(|f| f.channel_id));
    let board_troubles = boards::troubles(&boards::games_now(&pool).await?, &live);
    let (refused_calls, provoked) = seen::refusals(&standin);
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    let troubles = log_text.lines().filter(|l| l.contains("WARN") || l.contains("ERROR")).map(str::to_string);
    // In bad weather the bot says what Discord did to it; those lines are counted, not judged.
    let (weather_lines, log_troubles): (Vec<String>, Vec<String>) =
        troubles.partition(|l| rough && seen::says_discord_failed(l));
    for line in &weather_lines {
        eprintln!("bad weather, logged: {line}");
    }
    let (closed, reminded): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM games WHERE status = 'expired'),
                (SELECT count(*) FROM games WHERE reminded_at IS NOT NULL OR status = 'expired')",
    )
    .fetch_one(&pool)
    .await?;

    println!(
        "{days} days, {channels} channels: {games_started} games started, {} moves tapped, {closed} games closed idle, \
         {reminded} reminded and not moved since, in {:.0} s on {} cores",
        taps.len(),
        wall.as_secs_f64(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    readings::print_days(&samples);
    let creeps = readings::slopes(&samples);
    let findings = Findings {
        memory: readings::memory(&samples),
        moves: moves::compare(&taps, &unknown, &stored),
        boards: board_troubles,
        refused_calls,
        unknown_routes: standin.take_unknown_routes(),
        anomalies,
        log_troubles,
        creeps,
    };
    let met = standin.rate_limited();
    let global = met.iter().filter(|r| r.global).count();
    println!("429s met (Discord's rate limits): {} ({global} of the global limit)", met.len());
    println!("{}", seen::weather_report(&standin));
    seen::print_board_stories(&standin, findings.boards.iter().chain(&findings.anomalies));
    println!(
        "boards Discord made on a call it never answered, left live (the bot cannot know of them): {unknown_boards}"
    );
    println!("the bot's warnings of Discord's failures: {}", weather_lines.len());
    println!(
        "answers that failed: {failed_answers}; taps of unknown fate: {} ({} of them stored); refusals a fault provoked: {provoked}",
        findings.moves.unknown, findings.moves.unknown_stored
    );
    println!(
        "the longest answer seen: {:.1} s (a family waits {} s before looking again)",
        longest_answer.as_secs_f64(),
        PATIENCE.as_secs()
    );
    drop(store);
    pool.close().await;
    let admin = sqlx::PgPool::connect(&base).await?;
    sqlx::query(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)")).execute(&admin).await?;
    let _ = std::fs::remove_dir_all(&work);
    verdict::conclude("soak", &findings)
}

/// Exits non-zero when the run fails its checks (or cannot run), naming what failed.
fn main() -> std::process::ExitCode {
    // `cargo bench` adds flags such as `--bench`; the numbers and `--small-table` are ours.
    let small_table = std::env::args().any(|a| a == "--small-table");
    let rough = std::env::args().any(|a| a == "--rough");
    let shared_webhook = std::env::args().any(|a| a == "--shared-webhook-limit");
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let days = args.first().and_then(|a| a.parse().ok()).unwrap_or(30);
    let channels = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    verdict::exit_code(runtime.block_on(run(days, channels, small_table, rough, shared_webhook)))
}
