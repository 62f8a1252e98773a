//! The doubutsu table: opening, checksum and probe latency, the players' reply times
//! (`bench table`), and the exact bound on the child guest's game (`bench child-bound`).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use settai::table_file::TableFile;
use settai_core::doubutsu::{self as dob, Table as _};
use settai_core::{self};
use settai_lab::cpu_clock::CpuWatch;

use super::super::stopwatch::Stopwatch;
use super::machine::cores;

/// `settai-lab bench table`: open, checksum, probe latency and the players' reply times.
pub(crate) fn table(path: &Path, probes: usize, seed: u64) -> anyhow::Result<()> {
    println!("machine: {} logical cores; one thread", cores());
    let size = std::fs::metadata(path).with_context(|| format!("could not read {}", path.display()))?.len();
    let started = Instant::now();
    let table = TableFile::open(path)?;
    println!(
        "open: {:.2} ms ({} slots, {:.0} MB)",
        started.elapsed().as_secs_f64() * 1e3,
        table.stats().slots,
        size as f64 / 1e6
    );
    let started = Instant::now();
    table.verify()?;
    println!("checksum of the whole file: {:.2} s (reads every page once)", started.elapsed().as_secs_f64());

    // Positions of seeded games between two `weakest` players (they never miss a lion
    // capture, so every position is in the table).
    let mut rng = StdRng::seed_from_u64(seed);
    let mut games_sampled = Vec::new();
    let mut sample = Vec::with_capacity(probes);
    let mut played = 0;
    while sample.len() < probes {
        played += 1;
        let mut game = dob::History::new();
        while game.outcome().is_none() && game.moves().len() < 200 && sample.len() < probes {
            sample.push(*game.position());
            let mv = dob::weakest(&game, &mut rng)?;
            game.play(mv)?;
        }
        if games_sampled.len() < 200 {
            games_sampled.push(game);
        }
    }
    println!(
        "sampled {} positions from {played} seeded games; replies timed on {} of them",
        sample.len(),
        games_sampled.len()
    );

    for pass in ["first pass", "second pass (warm)"] {
        let mut latencies = Vec::with_capacity(sample.len());
        let started = Instant::now();
        for pos in &sample {
            let t = Instant::now();
            std::hint::black_box(table.probe(pos)?);
            latencies.push(t.elapsed());
        }
        let mean = started.elapsed() / sample.len().max(1) as u32;
        println!("probe, {pass}: mean {}, {}", micros(mean), percentiles(&mut latencies));
    }

    for level in ["weakest", "strongest", "settai"] {
        let mut latencies = Vec::new();
        for game in &games_sampled {
            // Replies at every point of the game where the bot (gote) is to move.
            let mut replay = dob::History::new();
            for &mv in game.moves() {
                if replay.position().turn() == dob::Color::Gote && replay.outcome().is_none() {
                    let t = Instant::now();
                    std::hint::black_box(match level {
                        "weakest" => dob::weakest(&replay, &mut rng)?,
                        "strongest" => dob::strongest(&table, &replay)?,
                        _ => dob::settai(&table, &replay, &mut rng)?,
                    });
                    latencies.push(t.elapsed());
                }
                replay.play(mv)?;
            }
        }
        let n = latencies.len();
        let mean = latencies.iter().sum::<Duration>() / n.max(1) as u32;
        println!("{level} reply x{n}: mean {}, {}", micros(mean), percentiles(&mut latencies));
    }

    // Settai reads ahead (deviation 5,
    // docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going) only early
    // in a careless guest's game, which the games above never are: its replies timed where a guest
    // tapping at random meets it, to the ply where the read stops, on-CPU (the read is the one
    // costly step of any doubutsu reply); beside them, for comparison, its replies in the same
    // games before the guest's first blunder.
    let (mut careless_latencies, mut other_latencies) = (Vec::new(), Vec::new());
    for _ in 0..games_sampled.len() {
        let mut game = dob::History::new();
        while game.outcome().is_none() && game.moves().len() < dob::KEEP_GOING_PLIES {
            let mv = if game.position().turn() == dob::Color::Sente {
                *game.legal_moves().choose(&mut rng).expect("a live position has moves")
            } else {
                let careless = dob::guest_was_careless(&game);
                let watch = CpuWatch::start();
                let mv = dob::settai(&table, &game, &mut rng)?;
                let spent = watch.elapsed().unwrap_or_default();
                if careless {
                    careless_latencies.push(spent);
                } else {
                    other_latencies.push(spent);
                }
                mv
            };
            game.play(mv)?;
        }
    }
    for (whose, latencies) in
        [("a careless guest", &mut careless_latencies), ("a guest yet to blunder", &mut other_latencies)]
    {
        let n = latencies.len();
        let mean = latencies.iter().sum::<Duration>() / n.max(1) as u32;
        println!(
            "settai reply to {whose} before ply {} x{n} (on-CPU): mean {}, {}",
            dob::KEEP_GOING_PLIES,
            micros(mean),
            percentiles(latencies)
        );
    }
    Ok(())
}

pub(super) fn micros(d: Duration) -> String {
    format!("{:.2} µs", d.as_secs_f64() * 1e6)
}

pub(super) fn percentiles(latencies: &mut [Duration]) -> String {
    if latencies.is_empty() {
        return "no samples".into();
    }
    latencies.sort_unstable();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    format!("p50 {}, p99 {}, max {}", micros(at(0.5)), micros(at(0.99)), micros(at(1.0)))
}

/// `settai-lab bench child-bound`: the exact bound on how long any gote keeps a careless
/// player's game going, for every even length up to `max_length` (one pass over the index
/// per ply), for the child heeding the coach with each probability of `heeds`, with
/// take-backs off, on, or both (docs/design/kind-coach.md#measured).
pub(crate) fn child_bound(max_length: u32, heeds: &[f32], takebacks: Takebacks) -> anyhow::Result<()> {
    use settai_core::doubutsu::table::{survival, CarelessPlayer, Material, PLAYERS_PER_RUN};
    if let Some(q) = heeds.iter().find(|q| !(0.0..=1.0).contains(*q)) {
        anyhow::bail!("--heed takes chances from 0 to 1, got {q}");
    }
    let mut players = Vec::new();
    for &heed in heeds {
        // Without heeding, or heeding always, no take-back is ever offered and taken: one
        // player serves both settings.
        let both_the_same = heed == 0.0 || heed == 1.0;
        if takebacks != Takebacks::On || both_the_same {
            players.push(CarelessPlayer { heed, takebacks: false });
        }
        if takebacks != Takebacks::Off && !both_the_same {
            players.push(CarelessPlayer { heed, takebacks: true });
        }
    }
    let opts = settai::cli::build_report::TerminalReport::new(true).options();
    let index = dob::table::Index::new(Material::FULL);
    let runs = players.len().div_ceil(PLAYERS_PER_RUN);
    println!(
        "index: {} slots; {} player(s) in {runs} run(s); three passes of 4 bytes a slot and a player are alive at once",
        index.len(),
        players.len()
    );
    let watch = Stopwatch::start();
    let results = survival(&index, &dob::Position::start(), max_length, &players, &opts)?;
    let (wall, _) = watch.stop();
    let name = |p: &CarelessPlayer| match (p.heed, p.takebacks) {
        (0.0, _) => "child".to_string(),
        (q, false) => format!("heeding-child({q})"),
        (q, true) => format!("heeding-child({q}), take-backs on"),
    };
    let lengths: Vec<u32> = results[0].chances.iter().map(|c| c.0).collect();
    println!("\nThe best chance over every gote policy that the careless player's game lasts at least L plies:\n");
    println!("| player | {} |", lengths.iter().map(|l| format!("L = {l}")).collect::<Vec<_>>().join(" | "));
    println!("|---|{}", "---|".repeat(lengths.len()));
    for result in &results {
        let cells: Vec<String> = result.chances.iter().map(|(_, chance)| format!("{chance:.4}")).collect();
        println!("| {} | {} |", name(&result.player), cells.join(" | "));
    }
    println!("\nwall {wall:.1} s (the passes run on every core)");
    Ok(())
}

/// Whether the careless player's take-backs are on in a `bench child-bound` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Takebacks {
    /// As servers start: no take-backs.
    Off,
    /// Take-backs on: the coach offers one after a risky move.
    On,
    /// Each heeding player both ways.
    Both,
}
