//! `settai bench`: speed figures for BENCHMARKS.md, with on-CPU time beside wall time so that
//! a busy machine does not make the code look slow.
//!
//! Past 500 lines: one short function per `bench` subcommand, sharing the timing and report
//! helpers of this file; the work they measure lives in the game and hospitality modules.

use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use settai::cli::replay_with_last;
use settai::i18n::Lang;
use settai::render;
use settai::table_file::TableFile;
use settai_core::doubutsu::{self as dob, Table as _};
use settai_core::reversi::engine::search::Engine;
use settai_core::{self, reversi, Game, GameKind};
use settai_lab::cpu_clock::CpuWatch;

use super::solve::FfoCase;
use super::stopwatch::{describe, Stopwatch};

/// `settai bench`: perft, one AI reply and board rendering.
pub(super) fn quick(perft_depth: u32, renders: u32) -> anyhow::Result<()> {
    println!("machine: {} logical cores", std::thread::available_parallelism().map_or(0, |n| n.get()));
    let watch = Stopwatch::start();
    let leaves = reversi::perft(&reversi::Position::start(), perft_depth);
    let (wall, cpu) = watch.stop();
    println!(
        "reversi perft {perft_depth}: {leaves} leaves, 1 thread, {}",
        describe(wall, cpu, |s| format!("{:.1} M leaves/s", leaves as f64 / s / 1e6))
    );

    // A mid-game position for the AI and the renderer.
    let moves = "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6 c5 b4 e3 g5";
    let (game, last) = replay_with_last(GameKind::Reversi, moves)?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let Game::Reversi(pos) = &game else { bail!("the benchmark position is a reversi one") };
    let watch = Stopwatch::start();
    let analysis = reversi::engine::classic::choose_move(pos, settai_core::REVERSI_DEPTH, &mut rng);
    let (wall, cpu) = watch.stop();
    println!(
        "reversi AI depth {} (mid-game): {} nodes, {}",
        analysis.depth,
        analysis.nodes,
        describe(wall, cpu, |s| format!("{:.2} M nodes/s", analysis.nodes as f64 / s / 1e6))
    );

    let last = last.as_ref().map(|(g, m)| (g, *m));
    let mut bytes = 0;
    let watch = Stopwatch::start();
    for _ in 0..renders {
        bytes = render::game_png(&game, last, Lang::En, None, &render::Names::new("Mika", "Computer")).len();
    }
    let (wall, cpu) = watch.stop();
    let n = f64::from(renders.max(1));
    println!(
        "reversi board render x{renders}: {bytes} bytes per image, {}",
        describe(wall, cpu, |s| format!("{:.2} ms per image", s * 1000.0 / n))
    );
    Ok(())
}

/// `settai bench engine`: perft, the FFO suite (every answer checked) and each level's reply
/// on mid-game positions.
pub(super) fn engine(ffo: &[FfoCase], perft_depth: u32, positions: usize) -> anyhow::Result<()> {
    println!("machine: {} logical cores; one thread per measurement", cores());
    let watch = Stopwatch::start();
    let leaves = reversi::perft(&reversi::Position::start(), perft_depth);
    let (wall, cpu) = watch.stop();
    println!(
        "perft {perft_depth}: {leaves} leaves, {}",
        describe(wall, cpu, |s| format!("{:.1} M leaves/s", leaves as f64 / s / 1e6))
    );

    println!("\n| # | empties | best | score | nodes | on-CPU s | M nodes/s | |");
    println!("|---|---|---|---|---|---|---|---|");
    let (mut total_cpu, mut total_nodes, mut wrong) = (0.0, 0u64, 0);
    for (name, pos, score, best) in ffo {
        let watch = Stopwatch::start();
        let solved = reversi::solve(pos);
        let (wall, cpu) = watch.stop();
        let secs = cpu.unwrap_or(wall);
        let ok = solved.score == *score && best.contains(&solved.best);
        wrong += usize::from(!ok);
        total_cpu += secs;
        total_nodes += solved.nodes;
        println!(
            "| {} | {} | {} | {:+} | {:.1}M | {secs:.2} | {:.1} | {} |",
            name.trim_start_matches('#'),
            pos.empties(),
            solved.best,
            solved.score,
            solved.nodes as f64 / 1e6,
            solved.nodes as f64 / secs / 1e6,
            if ok { "ok" } else { "WRONG" }
        );
    }
    println!("FFO total: {total_cpu:.1} s, {:.0}M nodes, {wrong} wrong", total_nodes as f64 / 1e6);

    // The strong level's win/loss/draw solve (21-24 empties), alone and after a selective pass.
    println!("\n| # | empties | WLD | WLD solve: nodes, on-CPU s | after a selective pass: nodes, on-CPU s |");
    println!("|---|---|---|---|---|");
    let eval = reversi::engine::eval::PatternEval::shared();
    for (name, pos, ..) in ffo.iter().filter(|c| c.1.empties() <= 24) {
        let (p, o) = (pos.player(), pos.opponent());
        let timed = |selective: bool| {
            let mut engine = Engine::new(reversi::levels::level::TT_BITS);
            let watch = Stopwatch::start();
            let solved =
                if selective { engine.solve_window(eval, p, o, -1, 1) } else { engine.solve_root(eval, p, o, -1, 1) };
            let (wall, cpu) = watch.stop();
            (solved.expect("no deadline").1.signum(), engine.nodes, cpu.unwrap_or(wall))
        };
        let (alone, selective) = (timed(false), timed(true));
        assert_eq!(alone.0, selective.0, "both solves are exact");
        println!(
            "| {} | {} | {:+} | {:.1}M, {:.2} | {:.1}M, {:.2} |",
            name.trim_start_matches('#'),
            pos.empties(),
            alone.0,
            alone.1 as f64 / 1e6,
            alone.2,
            selective.1 as f64 / 1e6,
            selective.2
        );
    }

    // `standard`'s handover to a trusted human (docs/design/reversi-handover.md#measured): every
    // root move solved exactly, as its first version did, against the window solve that decides
    // the same choice.
    println!(
        "\n| # | empties | every move solved exactly: nodes, on-CPU s | the handover's window solve: nodes, on-CPU s |"
    );
    println!("|---|---|---|---|");
    for (name, pos, ..) in ffo.iter().filter(|c| c.1.empties() <= 22) {
        let mut engine = Engine::new(reversi::levels::level::TT_BITS);
        let watch = Stopwatch::start();
        for m in pos.legal_moves() {
            let child = pos.play(m).expect("a legal move");
            engine.solve_exact(eval, child.player(), child.opponent()).expect("no deadline");
        }
        let (wall, cpu) = watch.stop();
        let every = (engine.nodes, cpu.unwrap_or(wall));
        // The bot orders the solves by its midgame search; here a depth-6 one (not timed).
        let (p, o) = (pos.player(), pos.opponent());
        let hint = Engine::new(16).handover_hint(eval, p, o, 6);
        let mut engine = Engine::new(reversi::levels::level::TT_BITS);
        let watch = Stopwatch::start();
        engine.handover_values(eval, p, o, 0, &hint).expect("no deadline");
        let (wall, cpu) = watch.stop();
        let window = (engine.nodes, cpu.unwrap_or(wall));
        println!(
            "| {} | {} | {:.1}M, {:.2} | {:.1}M, {:.2} |",
            name.trim_start_matches('#'),
            pos.empties(),
            every.0 as f64 / 1e6,
            every.1,
            window.0 as f64 / 1e6,
            window.1
        );
    }

    // Mid-game positions: seeded random openings of 20 plies, the bot to move.
    let mut rng = StdRng::seed_from_u64(7);
    println!("\n| level | position | empties | depth | nodes | stage | wall s | M nodes/s |");
    println!("|---|---|---|---|---|---|---|---|");
    // One engine for every reply, as a bot thread keeps one.
    let mut thinker = settai_core::Thinker::new();
    for i in 0..positions {
        let pos = random_reversi_position(&mut rng, 20);
        for level in [reversi::Level::None, reversi::Level::Standard, reversi::Level::Highest] {
            let started = Instant::now();
            let reply = reversi::reply(thinker.reversi(), &pos, level, &[], &mut rng);
            let wall = started.elapsed().as_secs_f64();
            println!(
                "| {level:?} | {} | {} | {} | {:.2}M | {:?} | {wall:.2} | {:.2} |",
                i + 1,
                pos.empties(),
                reply.depth,
                reply.nodes as f64 / 1e6,
                reply.stage,
                reply.nodes as f64 / wall / 1e6
            );
        }
    }
    if wrong > 0 {
        bail!("{wrong} FFO position(s) solved differently from the reference");
    }
    Ok(())
}

/// `settai bench midgame`: the strong level's evaluation searched to `depth` plies (PVS, the
/// table, no clock, no ProbCut) from the first `positions` balanced openings of the match set.
/// The node count is a fingerprint of the search (a pure speed-up keeps it); nodes per on-CPU
/// second measure the midgame's speed.
pub(super) fn midgame(depth: u32, positions: usize) -> anyhow::Result<()> {
    use settai_core::reversi::engine::strong::Strong;
    let set = settai_lab::reversi::openings::parse_openings(include_str!("../../../assets/reversi/openings.txt"))?;
    let eval = reversi::engine::eval::PatternEval::shared();
    println!("machine: {} logical cores; one thread", cores());
    println!("\n| # | empties | best | value | nodes | on-CPU s | M nodes/s |");
    println!("|---|---|---|---|---|---|---|");
    let (mut nodes, mut secs) = (0u64, 0.0);
    for (i, opening) in set.iter().take(positions).enumerate() {
        let pos = opening.position;
        let mut engine = Engine::new(reversi::levels::level::TT_BITS);
        let watch = Stopwatch::start();
        let r = engine
            .iterate(&Strong(eval), pos.player(), pos.opponent(), depth, false, reversi::engine::eval::DISC)
            .context("an opening without a move")?;
        let (wall, cpu) = watch.stop();
        let cpu = cpu.unwrap_or(wall);
        let (sq, value) = r.scores[0];
        nodes += engine.nodes;
        secs += cpu;
        println!(
            "| {} | {} | {} | {:+.2} | {} | {cpu:.3} | {:.2} |",
            i + 1,
            pos.empties(),
            reversi::Square::new(sq).expect("a square"),
            value as f64 / reversi::engine::eval::DISC as f64,
            engine.nodes,
            engine.nodes as f64 / cpu / 1e6
        );
    }
    println!("total: depth {depth}, {nodes} nodes, on-CPU {secs:.2} s, {:.2} M nodes/s", nodes as f64 / secs / 1e6);
    Ok(())
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(0, |n| n.get())
}

/// A position after `plies` random legal moves (re-drawn until the game is still on).
fn random_reversi_position(rng: &mut StdRng, plies: usize) -> reversi::Position {
    use rand::seq::SliceRandom;
    'again: loop {
        let mut pos = reversi::Position::start();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let Some(&mv) = moves.choose(rng) else { continue 'again };
            pos = pos.play(mv).expect("a legal move");
        }
        if !pos.is_game_over() && !pos.legal_moves().is_empty() {
            return pos;
        }
    }
}

/// `settai bench table`: open, checksum, probe latency and the players' reply times.
pub(super) fn table(path: &Path, probes: usize, seed: u64) -> anyhow::Result<()> {
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
        let mut game = dob::Game::new();
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
            let mut replay = dob::Game::new();
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
        let mut game = dob::Game::new();
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

/// `settai bench hospitality --game doubutsu`.
pub(super) fn hospitality_doubutsu(
    table_path: &Path,
    level: &str,
    guests: &str,
    games: usize,
    seed: u64,
    out: &Path,
    resume: bool,
) -> anyhow::Result<()> {
    use settai_lab::hospitality::doubutsu::{play_game, DoubutsuGuest};
    use settai_lab::hospitality::{self, Summary};
    let level = level
        .parse::<dob::Level>()
        .ok()
        .with_context(|| format!("unknown doubutsu level {level:?} (settai, strongest, weakest)"))?;
    let guests = parse_guests(guests, DoubutsuGuest::all, DoubutsuGuest::parse)?;
    // Every level is measured against the exact values, so the table is needed even for weakest.
    let table = TableFile::open(table_path)?;
    let started = Instant::now();
    let settings = format!(
        "game=doubutsu; level={}; guests={:?}; seed={seed}",
        level.as_str(),
        guests.iter().map(|g| g.name()).collect::<Vec<_>>()
    );
    let play = |guest: &DoubutsuGuest, _: usize, rng: &mut rand::rngs::StdRng| {
        play_game(&table, dob::Position::start(), level, *guest, rng)
    };
    let journal = open_journal(resume, out, settings, &guests, seed, play)?;
    let records = hospitality::run(&guests, games, seed, std::io::stderr().is_terminal(), journal.as_ref(), play)?;
    journal.map(|j| j.finish()).transpose()?;
    let rows: Vec<Summary> = guests
        .iter()
        .zip(&records)
        .map(|(guest, games)| {
            let row = Summary::of("doubutsu", level.as_str(), &guest.name(), games);
            // Each target names its kind; all of them, with where they come from:
            // docs/design/hospitality-benchmark.md#targets.
            match (level, guest) {
                (dob::Level::Settai, DoubutsuGuest::Perfect) => row,
                (dob::Level::Settai, DoubutsuGuest::Random | DoubutsuGuest::Child) => {
                    row.with_min_win_rate(0.95, "close games").with_min_median_plies(20.0)
                }
                (dob::Level::Settai, DoubutsuGuest::Weakest) => row.with_min_win_rate(0.70, "the design's 7 in 10"),
                (dob::Level::Settai, _) => row.with_min_win_rate(0.85, "most games"),
                _ => row,
            }
        })
        .collect();
    report(&format!("doubutsu {}", level.as_str()), games, seed, started, &rows, &records, out)
}

/// The guests named on the command line (`all`, or a comma-separated list), shared by both games.
fn parse_guests<G>(list: &str, all: fn() -> Vec<G>, parse: fn(&str) -> Option<G>) -> anyhow::Result<Vec<G>> {
    if list.trim() == "all" {
        return Ok(all());
    }
    split_guests(list).iter().map(|g| parse(g).with_context(|| format!("unknown guest {g:?}"))).collect()
}

/// Prints a run's table and writes its files, for both games.
fn report(
    title: &str,
    games: usize,
    seed: u64,
    started: Instant,
    rows: &[settai_lab::hospitality::Summary],
    records: &[Vec<settai_lab::hospitality::SimulatedGame>],
    out: &Path,
) -> anyhow::Result<()> {
    println!(
        "{title}: {games} games per guest, seed {seed}, {} threads, {:.1} s\n",
        rayon::current_num_threads(),
        started.elapsed().as_secs_f64()
    );
    print!("{}", settai_lab::hospitality::markdown_table(rows));
    let endings = settai_lab::hospitality::endings_table(rows);
    if !endings.is_empty() {
        print!("\nHow the games ended (W/L/D for the guest; in brackets the loser's last move):\n\n{endings}");
    }
    settai_lab::hospitality::write_outputs(out, rows, records)?;
    super::charts::write_charts(out, rows, records)?;
    println!("\nwrote {}/results.json, results.csv, win_rates.png, distribution.png, value_curve.png", out.display());
    Ok(())
}

/// With `--resume`, the journal `<out>/journal.jsonl` of the run `settings` describes, checked
/// by playing again its first game of each guest (`play` is the run's).
fn open_journal<G: Sync, E: std::fmt::Debug + Send>(
    resume: bool,
    out: &Path,
    settings: String,
    guests: &[G],
    seed: u64,
    play: impl Fn(&G, usize, &mut rand::rngs::StdRng) -> Result<settai_lab::hospitality::SimulatedGame, E> + Sync,
) -> anyhow::Result<Option<settai_lab::hospitality::journal::HospitalityJournal>> {
    use settai_lab::hospitality::journal::HospitalityJournal;
    if !resume {
        return Ok(None);
    }
    std::fs::create_dir_all(out).with_context(|| format!("could not create {}", out.display()))?;
    let path = out.join("journal.jsonl");
    let journal = HospitalityJournal::open(&path, &settings)?;
    let held = journal.held();
    println!("journal {}: {held} games of this run already played", path.display());
    if held > 0 {
        println!("checking that this build plays them as journaled (the first game of each guest again)...");
        journal.verify(guests, seed, play)?;
    }
    Ok(Some(journal))
}

/// Splits `a,softmax(1.5),b` at the commas outside parentheses.
fn split_guests(list: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0;
    for c in list.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().expect("non-empty").push(c);
    }
    out.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

/// `settai bench hospitality --game reversi`.
pub(super) fn hospitality_reversi(
    level: &str,
    guests: &str,
    games: usize,
    seed: u64,
    budget_scale: f64,
    out: &Path,
    resume: bool,
) -> anyhow::Result<()> {
    use settai_core::reversi::engine::eval::PatternEval;
    use settai_lab::hospitality::reversi::{play_game, ReversiGuest, ReversiLevel};
    use settai_lab::hospitality::{self, Summary};
    if !(budget_scale > 0.0 && budget_scale <= 10.0) {
        bail!("--budget-scale must be in (0, 10], got {budget_scale}");
    }
    let level = ReversiLevel::parse(level, budget_scale)
        .with_context(|| format!("unknown reversi level {level:?} (standard, highest, none)"))?;
    let guests = parse_guests(guests, ReversiGuest::all, ReversiGuest::parse)?;
    let eval = PatternEval::builtin();
    let started = Instant::now();
    let settings = format!(
        "game=reversi; level={}; budget-scale={budget_scale}; guests={:?}; seed={seed}",
        level.name(),
        guests.iter().map(ReversiGuest::name).collect::<Vec<_>>()
    );
    let play = |guest: &ReversiGuest, i: usize, rng: &mut rand::rngs::StdRng| {
        // Both colours: even games the guest has black, odd ones white.
        let colour = if i.is_multiple_of(2) { reversi::Color::Black } else { reversi::Color::White };
        play_game(&eval, level, *guest, colour, rng)
    };
    // An outside engine that cannot be started is said before any game is played.
    for guest in &guests {
        if let ReversiGuest::Gtp(command) = guest {
            let identity = settai_lab::hospitality::gtp::GtpEngine::spawn(command)?.identity()?;
            println!("guest {}: {identity}", guest.name());
        }
    }
    let journal = open_journal(resume, out, settings, &guests, seed, play)?;
    let records = hospitality::run(&guests, games, seed, std::io::stderr().is_terminal(), journal.as_ref(), play)?;
    journal.map(|j| j.finish()).transpose()?;
    let rows: Vec<Summary> = guests
        .iter()
        .zip(&records)
        .map(|(guest, games)| {
            let row = Summary::of("reversi", level.name(), &guest.name(), games);
            let up_to_ab6 =
                !matches!(guest, ReversiGuest::AlphaBeta(7..) | ReversiGuest::Foundation) && !guest.is_strong();
            // Guests that read ahead (alphabeta(4) up): their win must not be settled early.
            let reads = !matches!(
                guest,
                ReversiGuest::Random | ReversiGuest::Greedy | ReversiGuest::Positional | ReversiGuest::AlphaBeta(..4)
            );
            // Each target names its kind; all of them, with where they come from:
            // docs/design/hospitality-benchmark.md#targets.
            match (level.level, guest) {
                // A close game against everyone, `none` at full strength included.
                (reversi::Level::Standard, ReversiGuest::NoneAt(2400)) => row.with_median_margin(2.0, 12.0),
                (reversi::Level::Standard, _) => {
                    let row = row.with_min_win_rate(0.90, "close games").with_median_margin(2.0, 12.0);
                    if reads {
                        row.with_certain_no_earlier_than(40.0)
                    } else {
                        row
                    }
                }
                (reversi::Level::Highest, _) if up_to_ab6 => row.with_min_win_rate(0.99, "most games"),
                (reversi::Level::None, ReversiGuest::Foundation | ReversiGuest::AlphaBeta(6)) => {
                    row.with_max_win_rate(0.05, "the level wins")
                }
                _ => row,
            }
        })
        .collect();
    let title = format!("reversi {} at {:.2} s per move", level.name(), level.budget.as_secs_f64());
    report(&title, games, seed, started, &rows, &records, out)?;
    let diagnosis: Vec<_> = guests
        .iter()
        .zip(&records)
        .map(|(guest, games)| settai_lab::hospitality::diagnosis::Diagnosis::of(&guest.name(), games))
        .collect();
    let table = settai_lab::hospitality::diagnosis::markdown_table(&diagnosis);
    println!(
        "\nWhere the lead went (discs, from the guest's side; gifts by the strong engine's judgement):\n\n{table}"
    );
    let path = out.join("diagnosis.md");
    std::fs::write(&path, &table).with_context(|| format!("could not write {}", path.display()))
}

/// `settai bench child-bound`: the exact bound on how long any gote keeps the child guest's
/// game going, for every even length up to `max_length` (one pass over the index per ply).
pub(super) fn child_bound(max_length: u32) -> anyhow::Result<()> {
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
