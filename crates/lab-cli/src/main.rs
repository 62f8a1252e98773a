//! The `settai-lab` command: the lab's commands (`bench`, `train`, `solve`), the thin layer above
//! the lab (`settai-lab`) and the bot's library (`settai`: its renderer, the doubutsu table's
//! file). A package of its own, so that `settai`, the command that serves, links no lab code
//! (ARCHITECTURE.md).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};
use settai::cli::{self as bot, data_dir, doubutsu, shell, LevelNames};
use settai_core::reversi::Clock;
use settai_lab::reversi::runner;

mod bench;
mod charts;
mod solve;
mod stopwatch;

/// settai's lab: benchmarks, engine matches, training and the exact reversi solver.
#[derive(Debug, Parser)]
#[command(name = "settai-lab", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve reversi positions exactly (best move and final disc difference).
    Solve {
        /// Which game (reversi).
        game: SolveGame,
        /// A position: 64 chars a1..h1, a2..h8 (X black, O white, - empty), then X or O to move.
        /// It may begin with `-` (an empty a1).
        #[arg(long, allow_hyphen_values = true)]
        position: Option<String>,
        /// An FFO test file (`#NN | empties | board side | score | best moves | ...`); every
        /// position is solved and checked.
        #[arg(long)]
        ffo: Option<PathBuf>,
    },
    /// Train the reversi pattern evaluation by self-play (reproduces crates/core/assets/reversi/weights.bin).
    Train {
        /// Which game (reversi).
        game: SolveGame,
        /// Output file.
        #[arg(long, default_value = "crates/core/assets/reversi/weights.bin")]
        out: PathBuf,
        /// Self-play games.
        #[arg(long, default_value_t = 20_000)]
        games: usize,
        /// Worker threads (the result does not depend on it).
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// Measure speed. Without a subcommand: perft, one AI reply and board rendering.
    Bench {
        #[command(subcommand)]
        what: Option<BenchWhat>,
        /// Perft depth for reversi.
        #[arg(long, default_value_t = 11)]
        perft_depth: u32,
        /// How many boards to render.
        #[arg(long, default_value_t = 200)]
        renders: u32,
    },
}

#[derive(Debug, Subcommand)]
enum BenchWhat {
    /// The reversi engine: perft speed, the FFO endgame suite, and every level's reply time.
    Engine {
        /// The FFO suite file.
        #[arg(long, default_value = "assets/reversi/ffo-40-49.txt")]
        ffo: PathBuf,
        /// Perft depth.
        #[arg(long, default_value_t = 11)]
        perft_depth: u32,
        /// Mid-game positions to time each level on.
        #[arg(long, default_value_t = 6)]
        positions: usize,
    },
    /// The reversi midgame search at a fixed depth (no clock) from the committed balanced
    /// openings: nodes (the same in every build that searches alike) and nodes per second.
    Midgame {
        /// Search depth in plies.
        #[arg(long, default_value_t = 10)]
        depth: u32,
        /// How many openings of the set, from the first.
        #[arg(long, default_value_t = 20)]
        positions: usize,
    },
    /// The hospitality benchmark: a level against simulated guests from a child to an expert.
    Hospitality {
        /// Which game.
        #[arg(long, value_enum)]
        game: HospitalityGame,
        /// The level under test (reversi: standard, highest, none, or standard-classic: standard as the original article publishes it, for comparison; doubutsu: settai, strongest, weakest, or settai-classic: the divergence rule as published).
        ///
        /// standard-classic: docs/design/reversi-sontaku.md#standard-classic-seed-001s-standard-as-published;
        /// settai-classic: docs/design/doubutsu-settai.md#settai-classic-the-rule-as-published.
        #[arg(long, value_parser = LevelNames)]
        level: String,
        /// Guests: `all`, or names such as `random,weakest,softmax(10),heuristic(2),perfect`.
        #[arg(long, default_value = "all")]
        guests: String,
        /// Games per guest.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Seed of the run (each game's random source derives from it).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where to write results.json, results.csv and the charts.
        #[arg(long, default_value = "bench-results")]
        out: PathBuf,
        /// The doubutsu table (default: <SETTAI_DATA_DIR>/doubutsu.tb).
        #[arg(long)]
        table: Option<PathBuf>,
        /// Reversi: multiplies the bot's thinking time (1 = the bot's 0.8 s / 2.4 s; quick
        /// development runs use less). Searches run on a node clock calibrated on the
        /// project's machine, so results repeat exactly from the seed.
        #[arg(long, default_value_t = 1.0)]
        budget_scale: f64,
        /// Keep each game in <OUT>/journal.jsonl as it ends, and first take the games it already
        /// holds for this run and build: a long run goes on across invocations.
        #[arg(long)]
        resume: bool,
        /// Doubutsu: play as where take-backs are allowed (the coach offers one after a
        /// needless blunder; `heeding-child(q)` takes it with probability q).
        #[arg(long)]
        takebacks: bool,
    },
    /// Doubutsu: the best chance any gote policy has that a game against the child guest
    /// (takes a win in one, else taps at random) lasts at least N plies, for every even N up
    /// to `--max-length` (exact: one pass over the table's index per ply, 3 GiB of memory a
    /// player; up to four players share a run's passes).
    ///
    /// With `--heed`, the child helped by the coach: docs/design/kind-coach.md#measured.
    ChildBound {
        /// The longest game length to bound, in plies.
        #[arg(long, default_value_t = 20)]
        max_length: u32,
        /// How often the child skips a move marked ⚠ for an unmarked one (and takes an
        /// offered take-back), one player per value: e.g. `0,0.5,1`. 0 is the plain child.
        #[arg(long, value_delimiter = ',', default_value = "0")]
        heed: Vec<f32>,
        /// Whether the coach offers take-backs (heeding players only).
        #[arg(long, value_enum, default_value_t = bench::Takebacks::Off)]
        takebacks: bench::Takebacks,
    },
    /// Doubutsu: settai's games against the coached child scored move by move by the exact
    /// child-length bound: how much of what settai falls short of the bound the divergence
    /// rule forces before the child's first blunder, how much settai chooses, and how much comes
    /// after (docs/design/kind-coach.md#where-settai-and-the-bound-part-ways). Keeps one pass of
    /// the bound a ply of the child's: about 1 GiB each.
    ChildRegret {
        /// The game length, in plies.
        #[arg(long, default_value_t = 20)]
        length: u32,
        /// How often the child skips a move marked ⚠ (take-backs off); 0 is the plain child.
        #[arg(long, default_value_t = 0.5)]
        heed: f32,
        /// Games.
        #[arg(long, default_value_t = 2000)]
        games: usize,
        /// Seed of the run (each game's random source derives from it).
        #[arg(long, default_value_t = 11)]
        seed: u64,
        /// Where to write child-regret.jsonl (one line a game).
        #[arg(long, default_value = "bench-results")]
        out: PathBuf,
        /// The doubutsu table (default: <SETTAI_DATA_DIR>/doubutsu.tb).
        #[arg(long)]
        table: Option<PathBuf>,
    },
    /// Reversi engine against engine: each balanced opening played with both colours; A's score
    /// with a 95% interval and the Elo difference. Searches run on the node clock, so a match
    /// repeats exactly from its seed whatever the load.
    ///
    /// How matches work: docs/design/reversi-engine.md#matches-settai-lab-bench-match-duelrs-elors.
    Match {
        /// Player A: `none`, `none@baseline` (the strong level of 2026-12-02: frozen weights, no ProbCut), `none@FILE`
        /// (weights from a file) or `alphabeta(D)`.
        #[arg(long)]
        a: String,
        /// Player B, as A.
        #[arg(long)]
        b: String,
        /// Games, rounded up to whole colour-swapped pairs.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Thinking time per move in seconds (on the node clock), as the bot's 2.4 s.
        #[arg(long, default_value_t = 2.4)]
        budget: f64,
        /// An openings file (one move sequence per line); default: assets/reversi/openings.txt,
        /// built in.
        #[arg(long)]
        openings: Option<PathBuf>,
        /// Seed of the players' random choices (the strong level varies its first moves).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Write one CSV row per game here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Append each game here as it ends, and first take the games this file already holds
        /// for the same match and engine: a long match goes on across runs.
        #[arg(long)]
        journal: Option<PathBuf>,
        /// A's node clock, `MID/END` nanoseconds per midgame and per endgame node (default: the
        /// strong level's, 455/27): a build whose nodes are cheaper gets more of them per move.
        #[arg(long, value_parser = runner::parse_clock)]
        clock_a: Option<Clock>,
        /// B's node clock, as A's.
        #[arg(long, value_parser = runner::parse_clock)]
        clock_b: Option<Clock>,
    },
    /// Write a set of balanced reversi openings for `bench match`: random lines kept when a
    /// search with the frozen baseline weights finds them close to even and no earlier line
    /// reaches the same position up to symmetry.
    Openings {
        /// Openings wanted.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// Random plies from the start (6 to 10).
        #[arg(long, default_value_t = 8)]
        plies: usize,
        /// Depth of the judging search.
        #[arg(long, default_value_t = 10)]
        depth: u32,
        /// Largest accepted value, in discs either way.
        #[arg(long, default_value_t = 2.0)]
        max_value: f64,
        /// Seed of the random lines.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file.
        #[arg(long, default_value = "assets/reversi/openings.txt")]
        out: PathBuf,
    },
    /// Reversi: the spread of (deep - shallow) search values that ProbCut's margins come
    /// from, per depth and stage, on positions of play from the committed openings; prints
    /// the table `crates/core/src/reversi/engine/probcut.rs` commits.
    Probcut {
        /// Openings to play games from (one game each).
        #[arg(long, default_value_t = 120)]
        games: usize,
        /// Seed of the games' varied moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The doubutsu table: open, checksum, probe latency and the players' reply times.
    Table {
        /// The table file (default: <SETTAI_DATA_DIR>/doubutsu.tb).
        #[arg(long)]
        table: Option<PathBuf>,
        /// Positions to probe (sampled from seeded games).
        #[arg(long, default_value_t = 100_000)]
        probes: usize,
        /// Seed of the sampled games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum HospitalityGame {
    Doubutsu,
    Reversi,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SolveGame {
    Reversi,
}

/// Parses arguments, runs, and turns errors into one line and a non-zero exit code.
fn main() -> ExitCode {
    let _ = dotenvy::from_path(settai::config::env_file());
    bot::init_tracing();
    let cli = Cli::parse();
    shell::quiet_on_closed_pipe();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Not `shell::for_this_shell`: the commands a message names (`settai table build`)
            // are the bot's, which this command's path or `cargo run` would not run.
            eprintln!("error: {}", settai::report::one_line(e.as_ref()));
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Solve { game: SolveGame::Reversi, position, ffo } => solve::solve(position, ffo),
        Command::Train { game: SolveGame::Reversi, out, games, threads } => {
            let config = settai_lab::reversi::TrainConfig {
                games,
                threads,
                verbose: true,
                ..settai_lab::reversi::TrainConfig::default()
            };
            let report = settai_lab::reversi::train(config, &out)
                .with_context(|| format!("could not write {}", out.display()))?;
            println!("{report:#?}");
            Ok(())
        }
        Command::Bench { what: None, perft_depth, renders } => bench::quick(perft_depth, renders),
        Command::Bench { what: Some(BenchWhat::Engine { ffo, perft_depth, positions }), .. } => {
            bench::engine(&solve::ffo_cases(&ffo)?, perft_depth, positions)
        }
        Command::Bench { what: Some(BenchWhat::Midgame { depth, positions }), .. } => bench::midgame(depth, positions),
        Command::Bench {
            what:
                Some(BenchWhat::Hospitality {
                    game: HospitalityGame::Doubutsu,
                    level,
                    guests,
                    games,
                    seed,
                    out,
                    table,
                    resume,
                    takebacks,
                    ..
                }),
            ..
        } => bench::hospitality_doubutsu(
            &doubutsu::table_path(table, &data_dir()),
            &level,
            &guests,
            games,
            seed,
            &out,
            resume,
            takebacks,
        ),
        Command::Bench {
            what:
                Some(BenchWhat::Hospitality {
                    game: HospitalityGame::Reversi,
                    level,
                    guests,
                    games,
                    seed,
                    out,
                    budget_scale,
                    resume,
                    ..
                }),
            ..
        } => bench::hospitality_reversi(&level, &guests, games, seed, budget_scale, &out, resume),
        Command::Bench { what: Some(BenchWhat::ChildBound { max_length, heed, takebacks }), .. } => {
            bench::child_bound(max_length, &heed, takebacks)
        }
        Command::Bench { what: Some(BenchWhat::ChildRegret { length, heed, games, seed, out, table }), .. } => {
            bench::child_regret(&doubutsu::table_path(table, &data_dir()), length, heed, games, seed, &out)
        }
        Command::Bench {
            what:
                Some(BenchWhat::Match { a, b, games, budget, openings, seed, threads, out, journal, clock_a, clock_b }),
            ..
        } => runner::play(&runner::MatchArgs {
            a,
            b,
            games,
            budget,
            openings,
            seed,
            threads,
            out,
            journal,
            clocks: [clock_a, clock_b],
        }),
        Command::Bench { what: Some(BenchWhat::Openings { count, plies, depth, max_value, seed, out }), .. } => {
            runner::generate(&runner::OpeningsArgs { count, plies, depth, max_value, seed, out })
        }
        Command::Bench { what: Some(BenchWhat::Probcut { games, seed }), .. } => runner::probcut_fit(games, seed),
        Command::Bench { what: Some(BenchWhat::Table { table, probes, seed }), .. } => {
            bench::table(&doubutsu::table_path(table, &data_dir()), probes, seed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_parses() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
