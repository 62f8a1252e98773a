//! The `settai` command line: run the bot, play in a terminal, ask the AI, render, measure.
//!
//! Past 500 lines because clap's derive keeps every command's options in one `Command` enum,
//! next to the small functions that run them; games, terminal play, benchmarks and the
//! gallery have files of their own.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context as _};
use clap::{Parser, Subcommand, ValueEnum};
use rand::SeedableRng;

use crate::config::Config;
use crate::games::reversi::search::Clock;
use crate::games::{self, reversi, Game, GameKind, GameMove, Level, Side};
use crate::i18n::{side_name, Lang, Msg};
use crate::{discord, render, service, store};

mod bench;
mod doubutsu;
mod duel;
mod gallery;
mod gtp;
mod journal;
mod shell;
mod terminal;

use bench::{describe, Stopwatch};

/// settai: board games on Discord that let children win gracefully.
#[derive(Debug, Parser)]
#[command(name = "settai", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the Discord bot (reads .env; needs DISCORD_TOKEN).
    Serve {
        /// Run only gateway shards FIRST-LAST of TOTAL (e.g. `0-1/4`), so that several
        /// processes share the servers; default: one process, one shard.
        #[arg(long, value_name = "FIRST-LAST/TOTAL", conflicts_with = "http")]
        shards: Option<discord::ShardRange>,
        /// Answer interactions over HTTP at ADDR (e.g. `0.0.0.0:8080`) instead of a gateway
        /// connection, for any number of processes behind a load balancer; needs
        /// DISCORD_PUBLIC_KEY, and the application's Interactions Endpoint URL pointing here.
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
    },
    /// Play a game against the AI in this terminal (kept in the database, like the bot's games:
    /// an unfinished one goes on the next time).
    Play {
        /// Which game.
        game: GameArg,
        /// The AI's level (default: reversi standard, doubutsu settai).
        #[arg(long, value_parser = LevelNames)]
        level: Option<String>,
        /// The doubutsu table file (default: <SETTAI_DATA_DIR>/doubutsu.tb).
        #[arg(long)]
        table: Option<PathBuf>,
        /// Reversi: your side, first (black, the default) or second (white). In doubutsu shogi
        /// you always move first.
        #[arg(long)]
        side: Option<SideArg>,
        /// Seed for the AI's random choices (default: random).
        #[arg(long)]
        seed: Option<u64>,
        /// Give up the unfinished terminal game, if any, and start a new one.
        #[arg(long)]
        new: bool,
    },
    /// Print the AI's reply to the position after some moves.
    Ai {
        /// Which game.
        game: GameArg,
        /// The AI's level (default: reversi standard, doubutsu settai).
        #[arg(long, value_parser = LevelNames)]
        level: Option<String>,
        /// The doubutsu table file (default: <SETTAI_DATA_DIR>/doubutsu.tb).
        #[arg(long)]
        table: Option<PathBuf>,
        /// Moves from the start, e.g. "f5 d6 c3".
        #[arg(long, default_value = "")]
        moves: String,
        /// Print JSON with the AI's evaluation of every move.
        #[arg(long)]
        json: bool,
        /// Seed for tie-breaks (default: random).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Render the board after some moves to a PNG file.
    Render {
        /// Which game.
        game: GameArg,
        /// Moves from the start.
        #[arg(long, default_value = "")]
        moves: String,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
        /// Language of the text in the image.
        #[arg(long, default_value = "en")]
        lang: LangArg,
    },
    /// Count move sequences of exactly N plies from the start (rules check and speed test).
    Perft {
        /// Which game.
        game: GameArg,
        /// Depth in plies.
        depth: u32,
    },
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
    /// Train the reversi pattern evaluation by self-play (reproduces assets/reversi/weights.bin).
    Train {
        /// Which game (reversi).
        game: SolveGame,
        /// Output file.
        #[arg(long, default_value = "assets/reversi/weights.bin")]
        out: PathBuf,
        /// Self-play games.
        #[arg(long, default_value_t = 20_000)]
        games: usize,
        /// Worker threads (the result does not depend on it).
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// The doubutsu shogi table: the exact value of every legal position.
    Tablebase {
        #[command(subcommand)]
        action: TableAction,
    },
    /// Play reversi over the Go Text Protocol on stdin and stdout (for GUIs, engine matches and
    /// the benchmark's `gtp(...)` guest).
    Gtp {
        /// The level (default: standard).
        #[arg(long, value_parser = LevelNames)]
        level: Option<String>,
        /// Thinking time per move in seconds (default: the level's, as in the bot).
        #[arg(long)]
        budget: Option<f64>,
        /// Seed for the AI's random choices (default: random).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Write the sample boards, replays and charts of the README (`docs/gallery/`).
    Gallery {
        /// Output folder.
        #[arg(long, default_value = "docs/gallery")]
        out: PathBuf,
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
        /// The level under test (reversi: standard, highest, none, or standard-seed: standard with seed 001's pessimistic human, for comparison; doubutsu: settai, strongest, weakest).
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
    },
    /// Doubutsu: the best chance any gote policy has that a game against the child guest
    /// (takes a win in one, else taps at random) lasts at least N plies, for every even N up
    /// to `--max-length` (exact: one pass over the table's index per ply, 3 GiB of memory).
    ChildBound {
        /// The longest game length to bound, in plies.
        #[arg(long, default_value_t = 20)]
        max_length: u32,
    },
    /// Reversi engine against engine (issue 16): each balanced opening played with both colours;
    /// A's score with a 95% interval and the Elo difference. Searches run on the node clock, so a
    /// match repeats exactly from its seed whatever the load.
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
        #[arg(long, value_parser = duel::parse_clock)]
        clock_a: Option<Clock>,
        /// B's node clock, as A's.
        #[arg(long, value_parser = duel::parse_clock)]
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
    /// the table `src/games/reversi/probcut.rs` commits.
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

#[derive(Debug, Subcommand)]
enum TableAction {
    /// Compute the table by retrograde analysis and write it (about 2 minutes on two idle
    /// cores, under 0.5 GiB of memory) and print what it cost.
    Build {
        /// Output file (default: <SETTAI_DATA_DIR>/doubutsu.tb).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Open the table, print its header figures, and count and value the positions reachable
    /// from the start (Tanaka's figures; a few minutes).
    Stats {
        /// The table file.
        #[arg(long)]
        table: Option<PathBuf>,
        /// Also check the values' checksum.
        #[arg(long)]
        verify: bool,
        /// Only the header figures, without the reachability pass.
        #[arg(long)]
        header_only: bool,
    },
    /// The value of the position after some moves, and of every move there.
    Probe {
        /// The table file.
        #[arg(long)]
        table: Option<PathBuf>,
        /// Moves from the start, e.g. "B3B2 C1C2".
        #[arg(long, default_value = "")]
        moves: String,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum GameArg {
    Reversi,
    Doubutsu,
}

impl GameArg {
    fn kind(self) -> GameKind {
        match self {
            GameArg::Reversi => GameKind::Reversi,
            GameArg::Doubutsu => GameKind::Doubutsu,
        }
    }
}

/// `--level`: every game's level names (and their aliases, such as `no-mercy`), listed in
/// `--help`. Any text passes here: the game's own parser then names that game's levels in a
/// one-line error, as the bot's `/settings` does.
#[derive(Debug, Clone, Copy)]
struct LevelNames;

impl clap::builder::TypedValueParser for LevelNames {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let levels = GameKind::ALL.into_iter().flat_map(|kind| Level::for_kind(kind).iter().map(move |&l| (kind, l)));
        Some(Box::new(levels.map(|(kind, level)| {
            let default = if kind.default_level() == level { ", the default" } else { "" };
            clap::builder::PossibleValue::new(level.as_str())
                .help(format!("{kind}{default}: {}", level_help(level)))
                .aliases(level.aliases().iter().copied())
        })))
    }
}

/// What a level does, for `--help`.
fn level_help(level: Level) -> &'static str {
    match level {
        Level::Reversi(reversi::Level::Standard) => "a close game the human wins by a few discs",
        Level::Reversi(reversi::Level::Highest) => "the human wins big",
        Level::Reversi(reversi::Level::None) => "no mercy: plays to win",
        Level::Doubutsu(games::doubutsu::Level::Settai) => {
            "hospitable: answers each move with one as good, never better (needs the table)"
        }
        Level::Doubutsu(games::doubutsu::Level::Strongest) => "perfect play from the table (needs the table)",
        Level::Doubutsu(games::doubutsu::Level::Weakest) => {
            "random, but takes a win in one and avoids a loss in one (no table needed)"
        }
    }
}

fn doubutsu_level(level: Option<String>) -> anyhow::Result<games::doubutsu::Level> {
    Ok(match level {
        Some(l) => l.parse()?,
        None => games::doubutsu::Level::DEFAULT,
    })
}

fn data_dir() -> PathBuf {
    Config::from_env().map(|c| c.data_dir).unwrap_or_else(|_| PathBuf::from("data"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SideArg {
    First,
    Second,
    Black,
    White,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LangArg {
    En,
    Ja,
}

/// Entry point of the binary: parses arguments, runs, and turns errors into one line and a
/// non-zero exit code.
pub fn main() -> ExitCode {
    let _ = dotenvy::dotenv();
    init_tracing();
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve { .. }) {
        shell::quiet_on_closed_pipe();
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", shell::for_this_shell(&crate::report::one_line(e.as_ref())));
            ExitCode::from(2)
        }
    }
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("settai=info,serenity=warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve { shards, http } => serve(shards, http),
        Command::Play { game, level, table, side, seed, new } => play(game.kind(), level, table, side, seed, new),
        Command::Ai { game: GameArg::Reversi, level, moves, json, seed, .. } => {
            ai(GameKind::Reversi, level, &moves, json, seed)
        }
        Command::Ai { game: GameArg::Doubutsu, level, table, moves, json, seed } => doubutsu::ai(
            doubutsu_level(level)?,
            &moves,
            json,
            &doubutsu::table_path(table, &data_dir()),
            &mut rng_from(seed),
        ),
        Command::Render { game, moves, out, lang } => {
            let lang = match lang {
                LangArg::En => Lang::En,
                LangArg::Ja => Lang::Ja,
            };
            let png = match game {
                GameArg::Reversi => {
                    let (game, last) = replay_with_last(GameKind::Reversi, &moves)?;
                    let banner = render::result_banner(&game, lang);
                    render::game_png(
                        &game,
                        last.as_ref().map(|(g, m)| (g, *m)),
                        lang,
                        banner.as_deref(),
                        &Default::default(),
                    )
                }
                GameArg::Doubutsu => doubutsu::render(&moves, lang)?,
            };
            std::fs::write(&out, png).with_context(|| format!("could not write {}", out.display()))?;
            println!("wrote {}", out.display());
            Ok(())
        }
        Command::Gallery { out } => gallery::gallery(&out),
        Command::Gtp { level, budget, seed } => {
            let Level::Reversi(level) = level_or_default(GameKind::Reversi, level)? else {
                bail!("GTP plays reversi levels only")
            };
            let budget = match budget {
                Some(secs) if secs > 0.0 && secs <= 600.0 => std::time::Duration::from_secs_f64(secs),
                Some(secs) => bail!("--budget must be in (0, 600] seconds, got {secs}"),
                None => level.budget(),
            };
            gtp::serve(std::io::stdin().lock(), std::io::stdout().lock(), level, budget, &mut rng_from(seed))
        }
        Command::Perft { game, depth } => {
            let started = Instant::now();
            let count = match game {
                GameArg::Reversi => reversi::perft(&reversi::Position::start(), depth),
                GameArg::Doubutsu => doubutsu::perft(depth),
            };
            let secs = started.elapsed().as_secs_f64();
            println!("{count}");
            eprintln!("perft {depth}: {count} leaves in {secs:.3} s ({:.1} M leaves/s)", count as f64 / secs / 1e6);
            Ok(())
        }
        Command::Solve { game: SolveGame::Reversi, position, ffo } => solve(position, ffo),
        Command::Train { game: SolveGame::Reversi, out, games, threads } => {
            let config = reversi::TrainConfig { games, threads, verbose: true, ..reversi::TrainConfig::default() };
            let report = reversi::train(config, &out).with_context(|| format!("could not write {}", out.display()))?;
            println!("{report:#?}");
            Ok(())
        }
        Command::Tablebase { action } => match action {
            TableAction::Build { out } => doubutsu::build(&doubutsu::table_path(out, &data_dir())),
            TableAction::Stats { table, verify, header_only } => {
                doubutsu::stats(&doubutsu::table_path(table, &data_dir()), verify, !header_only)
            }
            TableAction::Probe { table, moves } => doubutsu::probe(&doubutsu::table_path(table, &data_dir()), &moves),
        },
        Command::Bench { what: None, perft_depth, renders } => bench::quick(perft_depth, renders),
        Command::Bench { what: Some(BenchWhat::Engine { ffo, perft_depth, positions }), .. } => {
            bench::engine(&ffo_cases(&ffo)?, perft_depth, positions)
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
        Command::Bench { what: Some(BenchWhat::ChildBound { max_length }), .. } => bench::child_bound(max_length),
        Command::Bench {
            what:
                Some(BenchWhat::Match { a, b, games, budget, openings, seed, threads, out, journal, clock_a, clock_b }),
            ..
        } => duel::play(&duel::MatchArgs {
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
            duel::generate(&duel::OpeningsArgs { count, plies, depth, max_value, seed, out })
        }
        Command::Bench { what: Some(BenchWhat::Probcut { games, seed }), .. } => duel::probcut_fit(games, seed),
        Command::Bench { what: Some(BenchWhat::Table { table, probes, seed }), .. } => {
            bench::table(&doubutsu::table_path(table, &data_dir()), probes, seed)
        }
    }
}

fn serve(shards: Option<discord::ShardRange>, http: Option<std::net::SocketAddr>) -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let Some(token) = config.discord_token.clone() else {
        bail!(
            "DISCORD_TOKEN is not set. Create an application at https://discord.com/developers/applications, \
             open Bot -> Reset Token, and put the token in .env (cp .env.example .env). \
             Meanwhile `settai play reversi` lets you try the game in this terminal."
        );
    };
    crate::config::check_token_shape(&token)?;
    let signatures = match (http, &config.discord_public_key) {
        (None, _) => None,
        (Some(_), None) => bail!(
            "DISCORD_PUBLIC_KEY is not set. HTTP mode checks every request against the application's public key: \
             copy it from https://discord.com/developers/applications -> your app -> General Information -> \
             Public Key into .env"
        ),
        (Some(_), Some(key)) => Some(discord::endpoint::Signatures::new(key)?),
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        // Ctrl-C and SIGTERM (systemd, containers) both stop the bot the same graceful way, in
        // whichever step it is.
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            let signal = shutdown_signal().await;
            tracing::info!("{signal} received: shutting down");
            let _ = stop_tx.send(true);
        });
        let stopped = move || {
            let mut rx = stop_rx.clone();
            async move {
                let _ = rx.wait_for(|stop| *stop).await;
            }
        };
        let database = crate::config::redact_url(&config.database_url);
        tracing::info!("opening the database at {database}");
        let store = tokio::select! {
            store = store::Store::connect(&config.database_url) => {
                store.with_context(|| format!("could not open the database at {database}"))?
            }
            () = stopped() => return Ok(()),
        };
        tracing::info!("database ready (migrations applied)");
        // A missing (or outdated) table is built in the background: reversi and the
        // table-free doubutsu level play meanwhile, the table levels say when they will be ready.
        let table = crate::service::table_keeper::TableKeeper::open_or_build(
            &config.data_dir.join("doubutsu.tb"),
            crate::games::doubutsu::table::Material::FULL,
        );
        let service = service::Service::new(store).with_table_keeper(table);
        let connection = discord::Connection {
            token,
            guild_id: config.discord_guild_id,
            api_base: config.discord_api_base.clone(),
            idle_sweep: discord::IDLE_SWEEP,
            shards,
        };
        tracing::info!("connecting to Discord");
        let ended = match (http, signatures) {
            (Some(address), Some(signatures)) => {
                let listener = tokio::net::TcpListener::bind(address)
                    .await
                    .with_context(|| format!("could not listen on {address}"))?;
                discord::endpoint::serve_until(listener, connection, signatures, service, stopped()).await
            }
            _ => discord::run_until(connection, service, stopped()).await,
        };
        if ended.is_ok() {
            tracing::info!("stopped");
        }
        ended
    })
}

/// Resolves at Ctrl-C or SIGTERM, naming which.
async fn shutdown_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = tokio::signal::ctrl_c() => "Ctrl-C",
                _ = term.recv() => "SIGTERM",
            },
            Err(e) => {
                tracing::warn!("SIGTERM cannot be handled ({e}); Ctrl-C still stops the bot");
                let _ = tokio::signal::ctrl_c().await;
                "Ctrl-C"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}

fn level_or_default(kind: GameKind, level: Option<String>) -> anyhow::Result<Level> {
    Ok(match level {
        Some(l) => Level::parse(kind, &l)?,
        None => kind.default_level(),
    })
}

fn rng_from(seed: Option<u64>) -> rand::rngs::StdRng {
    match seed {
        Some(s) => rand::rngs::StdRng::seed_from_u64(s),
        None => rand::rngs::StdRng::from_entropy(),
    }
}

fn split_moves(moves: &str) -> Vec<String> {
    moves.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).map(str::to_string).collect()
}

/// Replays `moves`, returning the position and the last move with the position it was played from.
fn replay_with_last(kind: GameKind, moves: &str) -> anyhow::Result<(Game, Option<(Game, GameMove)>)> {
    let moves = split_moves(moves);
    let (before, last) = match moves.split_last() {
        Some((last, rest)) => (games::replay(kind, rest)?, Some(last.clone())),
        None => (Game::new(kind), None),
    };
    match last {
        None => Ok((before, None)),
        Some(text) => {
            let bad = |error| games::ReplayError { ply: moves.len(), text: text.clone(), error };
            let mv = before.parse_move(&text).map_err(bad)?;
            let after = before.play(mv).map_err(bad)?;
            Ok((after, Some((before, mv))))
        }
    }
}

fn ai(kind: GameKind, level: Option<String>, moves: &str, json: bool, seed: Option<u64>) -> anyhow::Result<()> {
    let level = level_or_default(kind, level)?;
    let (game, played) = games::replay_moves(kind, &split_moves(moves))?;
    if game.to_move().is_none() {
        bail!("the game is over after these moves; there is nothing to reply");
    }
    let mut rng = rng_from(seed);
    match (&game, level) {
        (Game::Reversi(pos), Level::Reversi(level)) => {
            // As the bot does: `standard` judges the human by their moves so far.
            let reply = games::reversi::reply(pos, level, &games::human_moves(pos, &played), &mut rng);
            if json {
                // `none` evaluates in 1/32 disc for itself; the sontaku levels report the
                // desirability of each move for the human.
                let evals: Vec<_> =
                    reply.evals.iter().map(|(m, s)| serde_json::json!({ "move": m.to_string(), "eval": s })).collect();
                let out = serde_json::json!({
                    "game": kind.as_str(),
                    "level": level.as_str(),
                    "move": reply.best.to_string(),
                    "stage": format!("{:?}", reply.stage),
                    "exact": reply.exact,
                    "depth": reply.depth,
                    "nodes": reply.nodes,
                    "time_ms": (reply.time.as_secs_f64() * 10000.0).round() / 10.0,
                    "human_strength": reply.human_strength,
                    "moves": evals,
                });
                println!("{}", serde_json::to_string_pretty(&out)?);
            } else {
                println!("{}", reply.best);
            }
        }
        _ => bail!("doubutsu replies come from `settai ai doubutsu`"),
    }
    Ok(())
}

/// A position to solve: its name, the position, and the reference (score, best moves) if known.
type SolveCase = (String, reversi::Position, Option<(i32, Vec<reversi::Move>)>);

/// `settai solve reversi`: exact solving of one position, or of each position of an FFO file.
/// The positions of an FFO suite file: (name, position, exact score, best moves).
/// One FFO test: name, position, exact score for the side to move, the best moves.
pub(crate) type FfoCase = (String, reversi::Position, i32, Vec<reversi::Move>);

fn ffo_cases(path: &std::path::Path) -> anyhow::Result<Vec<FfoCase>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("could not read {}", path.display()))?;
    let mut cases = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('#') && l[1..].starts_with(|c: char| c.is_ascii_digit())) {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [name, _, board, score, best, ..] = fields[..] else { bail!("malformed FFO line {line:?}") };
        let pos = board.parse().map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        let score: i32 = score.trim_start_matches('+').parse().with_context(|| format!("{name}: score"))?;
        let best = best
            .split(',')
            .map(|m| m.trim().parse())
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        cases.push((name.to_string(), pos, score, best));
    }
    if cases.is_empty() {
        bail!("{} holds no FFO positions", path.display());
    }
    Ok(cases)
}

fn solve(position: Option<String>, ffo: Option<PathBuf>) -> anyhow::Result<()> {
    let mut cases: Vec<SolveCase> = Vec::new();
    if let Some(text) = position {
        let pos = text.parse().map_err(|e| anyhow::anyhow!("position {text:?}: {e}"))?;
        cases.push(("position".into(), pos, None));
    }
    if let Some(path) = ffo {
        cases.extend(ffo_cases(&path)?.into_iter().map(|(name, pos, score, best)| (name, pos, Some((score, best)))));
    }
    if cases.is_empty() {
        bail!("give --position \"<64 chars X/O/-> <X|O>\" or --ffo FILE");
    }
    let mut wrong = 0;
    for (name, pos, expected) in cases {
        let watch = Stopwatch::start();
        let solved = reversi::solve(&pos);
        let (wall, cpu) = watch.stop();
        let verdict = match &expected {
            Some((score, best)) if solved.score == *score && best.contains(&solved.best) => " ok",
            Some(_) => {
                wrong += 1;
                " WRONG"
            }
            None => "",
        };
        println!(
            "{name}: {} empties, best {} score {:+}, {} nodes, {}{verdict}",
            pos.empties(),
            solved.best,
            solved.score,
            solved.nodes,
            describe(wall, cpu, |s| format!("{:.1} M nodes/s", solved.nodes as f64 / s / 1e6))
        );
    }
    if wrong > 0 {
        bail!("{wrong} position(s) solved differently from the reference");
    }
    Ok(())
}

/// `settai play`: checks the seat and the level (opening the doubutsu table if the level needs
/// it) before the first board, then plays in this terminal.
fn play(
    kind: GameKind,
    level: Option<String>,
    table: Option<PathBuf>,
    side: Option<SideArg>,
    seed: Option<u64>,
    new: bool,
) -> anyhow::Result<()> {
    let human = match (kind, side) {
        (_, None | Some(SideArg::First | SideArg::Black)) => Side::First,
        (GameKind::Doubutsu, Some(_)) => bail!(
            "in doubutsu shogi you always move first (sente), so --side is for reversi only; \
             try `settai play doubutsu` without it"
        ),
        (GameKind::Reversi, Some(SideArg::Second | SideArg::White)) => Side::Second,
    };
    let level = level_or_default(kind, level)?;
    let config = Config::from_env()?;
    let runtime = tokio::runtime::Runtime::new()?;
    let store = runtime.block_on(terminal::open_store(&config.database_url))?;
    let service = service::Service::new(store).with_seed(seed);
    terminal::play(
        &runtime,
        service,
        &doubutsu::table_path(table, &config.data_dir),
        terminal::Request { kind, level, human, new },
        std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
    )
}

/// Opens the doubutsu table; a missing one names the level that plays without it.
pub(crate) fn open_table(path: &std::path::Path) -> anyhow::Result<games::doubutsu::TableFile> {
    games::doubutsu::TableFile::open(path).map_err(|e| match e {
        games::doubutsu::TableError::Missing { .. } => {
            anyhow::anyhow!("{e} (about 2 minutes), or play without it at `--level weakest`")
        }
        e => e.into(),
    })
}

/// The end of a terminal game from the human's side, through the catalogue ("you win", "I win").
pub(crate) fn game_over_line(outcome: &games::Outcome, human: Side) -> String {
    let human_won = outcome.winner.map(|w| w == human);
    Msg::GameOver { human_won, score: outcome.score, reason: Some(outcome.reason) }.text(Lang::En)
}

/// A plain text board: `X` black, `O` white, `*` legal moves for the side to move.
pub fn text_board(game: &Game) -> String {
    match game {
        Game::Reversi(p) => {
            let legal = p.legal_mask();
            let mut out = String::from("   a b c d e f g h\n");
            for row in 0..8 {
                out.push_str(&format!(" {}", row + 1));
                for col in 0..8 {
                    let bit = 1u64 << (row * 8 + col);
                    let c = if p.black() & bit != 0 {
                        'X'
                    } else if p.white() & bit != 0 {
                        'O'
                    } else if legal & bit != 0 {
                        '*'
                    } else {
                        '.'
                    };
                    out.push(' ');
                    out.push(c);
                }
                out.push('\n');
            }
            out.push_str(&format!("X {}  O {}", p.count(reversi::Color::Black), p.count(reversi::Color::White)));
            if let Some(side) = game.to_move() {
                let mark = if side == Side::First { "X" } else { "O" };
                out.push_str(&format!("  — {} ({mark}) to move", side_name(GameKind::Reversi, side, Lang::En)));
            }
            out
        }
        Game::Doubutsu(g) => doubutsu::text_board(&g.0),
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
