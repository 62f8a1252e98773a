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

/// `settai bench table`: open, checksum, probe latency and the players' reply times.
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
    // costly step of any doubutsu reply).
    let mut latencies = Vec::new();
    for _ in 0..games_sampled.len() {
        let mut game = dob::History::new();
        while game.outcome().is_none() && game.moves().len() < dob::players::KEEP_GOING_PLIES {
            let mv = if game.position().turn() == dob::Color::Sente {
                *game.legal_moves().choose(&mut rng).expect("a live position has moves")
            } else {
                let careless = dob::players::guest_was_careless(&game);
                let watch = CpuWatch::start();
                let mv = dob::settai(&table, &game, &mut rng)?;
                if careless {
                    latencies.push(watch.elapsed().unwrap_or_default());
                }
                mv
            };
            game.play(mv)?;
        }
    }
    let n = latencies.len();
    let mean = latencies.iter().sum::<Duration>() / n.max(1) as u32;
    println!(
        "settai reply to a careless guest before ply {} x{n} (on-CPU): mean {}, {}",
        dob::players::KEEP_GOING_PLIES,
        micros(mean),
        percentiles(&mut latencies)
    );
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

/// `settai bench child-bound`: the exact bound on how long any gote keeps the child guest's
/// game going, for every even length up to `max_length` (one pass over the index per ply).
pub(crate) fn child_bound(max_length: u32) -> anyhow::Result<()> {
    use settai_core::doubutsu::table::{survival::survival, Material};
    let opts = settai::cli::build_report::TerminalReport::new(true).options();
    let index = dob::table::index::Index::new(Material::FULL);
    println!("index: {} slots; three passes of 4 bytes a slot are alive at once", index.len());
    let watch = Stopwatch::start();
    let result = survival(&index, &dob::Position::start(), max_length, &opts)?;
    let (wall, _) = watch.stop();
    println!("\n| game length (plies) | best chance over every gote policy that the child's game lasts that long |");
    println!("|---|---|");
    for (length, chance) in &result.chances {
        println!("| {length} | {chance:.4} |");
    }
    println!("\nwall {wall:.1} s (the passes run on every core)");
    Ok(())
}
