//! The bot's commands of the `settai` command line: run the bot, play in a terminal, ask the
//! AI, render, count perft, the doubutsu table, GTP, the gallery, the players' data. The lab's
//! commands (`bench`, `train`, `solve`) are another command's, `settai-lab` (`crates/lab-cli/`),
//! so that `settai` links no lab code (ARCHITECTURE.md).
//!
//! Past 500 lines because clap's derive keeps every command's options in one `Command` enum,
//! next to the small functions that run them; games, terminal play and the gallery have files
//! of their own.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context as _};
use clap::{Subcommand, ValueEnum};
use rand::SeedableRng;

use crate::config::Config;
use crate::i18n::Lang;
use crate::{discord, metrics, render, service};
use settai_core::{self, reversi, Game, GameKind, GameMove, Level, Side};

pub mod build_report;
pub mod data;
mod database;
pub mod doubutsu;
mod gallery;
mod gtp;
mod logging;
mod memory;
mod private_cluster;
pub mod shell;
mod terminal;
mod text_board;

/// The bot's commands (the binary adds the lab's beside them).
#[derive(Debug, Subcommand)]
pub enum Command {
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
    /// The doubutsu shogi table: the exact value of every legal position (`tablebase` is its
    /// older name, still understood).
    #[command(alias = "tablebase")]
    Table {
        #[command(subcommand)]
        action: doubutsu::TableAction,
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
    /// The players' data on request: export a player's as JSON, erase a player, delete a
    /// server's data (docs/design/players-data.md).
    Data {
        #[command(subcommand)]
        action: data::DataAction,
    },
    /// Write the sample boards, replays and charts of the README (`docs/gallery/`).
    Gallery {
        /// Output folder.
        #[arg(long, default_value = "docs/gallery")]
        out: PathBuf,
    },
}

/// Which game, on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
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
pub struct LevelNames;

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
        Level::Reversi(reversi::ReversiLevel::Standard) => "a close game the human wins by a few discs",
        Level::Reversi(reversi::ReversiLevel::Highest) => "the human wins big",
        Level::Reversi(reversi::ReversiLevel::NoMercy) => "no mercy: plays to win",
        Level::Reversi(reversi::ReversiLevel::StandardClassic) => {
            "the published sontaku search, as the original article describes it"
        }
        Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Settai) => {
            "hospitable: answers each move with one as good, never better (needs the table)"
        }
        Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Strongest) => {
            "perfect play from the table (needs the table)"
        }
        Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest) => {
            "random, but takes a win in one and avoids a loss in one (no table needed)"
        }
        Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::SettaiClassic) => {
            "the published settai rule, as the original article describes it (needs the table)"
        }
    }
}

fn doubutsu_level(level: Option<String>) -> anyhow::Result<settai_core::doubutsu::DoubutsuLevel> {
    Ok(match level {
        Some(l) => l.parse()?,
        None => settai_core::doubutsu::DoubutsuLevel::DEFAULT,
    })
}

/// Where settai keeps its data (the doubutsu table): `SETTAI_DATA_DIR`, else `data`.
pub fn data_dir() -> PathBuf {
    Config::from_env().map(|c| c.data_dir).unwrap_or_else(|_| PathBuf::from("data"))
}

/// Which side the human plays, on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    First,
    Second,
    Black,
    White,
}

/// The language of an image, on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LangArg {
    En,
    Ja,
}

pub use logging::init_tracing;

/// Runs one of the bot's commands.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
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
        Command::Data { action } => data::run(action),
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
        Command::Table { action } => doubutsu::table(action, &data_dir()),
    }
}

fn serve(shards: Option<discord::ShardRange>, http: Option<std::net::SocketAddr>) -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let Some(token) = config.discord_token.clone() else {
        let file = crate::config::env_file();
        let file = std::path::absolute(&file).unwrap_or(file);
        let found = if file.is_file() { "has no DISCORD_TOKEN" } else { "does not exist" };
        bail!(
            "DISCORD_TOKEN is not set, and {} {found} (settai reads .env from the folder it runs from). Create an \
             application at https://discord.com/developers/applications, open Bot -> Reset Token, and put the token \
             in .env (cp .env.example .env). Meanwhile `settai play reversi` lets you try the game in this terminal.",
            file.display()
        );
    };
    crate::config::check_token_shape(&token)?;
    memory::fewer_arenas();
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
        // The host's port answers first, so that /healthz says the process is up (and /readyz
        // that it is not ready yet) while the database and Discord are reached.
        let metrics = std::sync::Arc::new(metrics::Metrics::new());
        if let Some(address) = config.metrics_addr {
            let listener = tokio::net::TcpListener::bind(address)
                .await
                .with_context(|| format!("could not listen on {address} (SETTAI_METRICS_ADDR)"))?;
            let serving = metrics::serve(listener, metrics.clone(), stopped());
            tokio::spawn(async move {
                if let Err(e) = serving.await {
                    tracing::error!(error = %e, "the metrics endpoint stopped");
                }
            });
        }
        tracing::info!("opening the database");
        let store = tokio::select! {
            store = database::open(&config) => store?,
            () = stopped() => return Ok(()),
        };
        tracing::info!("database ready (migrations applied)");
        // A missing (or outdated) table is built in the background: reversi and the
        // table-free doubutsu level play meanwhile, the table levels say when they will be ready.
        let table = service::table_keeper::TableKeeper::open_or_build(
            &config.data_dir.join("doubutsu.tb"),
            settai_core::doubutsu::table::Material::FULL,
        );
        let service = service::Service::new(store).with_table_keeper(table).with_figures(metrics.figures());
        let connection = discord::Connection {
            token,
            guild_id: config.discord_guild_id,
            api_base: config.discord_api_base.clone(),
            api_certificate: config.discord_api_ca.clone(),
            idle_sweep: config.sweep_every,
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

/// A seeded generator, or one seeded from the OS.
pub fn rng_from(seed: Option<u64>) -> rand::rngs::StdRng {
    match seed {
        Some(s) => rand::rngs::StdRng::seed_from_u64(s),
        None => rand::rngs::StdRng::from_entropy(),
    }
}

fn split_moves(moves: &str) -> Vec<String> {
    moves.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).map(str::to_string).collect()
}

/// Replays `moves`, returning the position and the last move with the position it was played from.
pub fn replay_with_last(kind: GameKind, moves: &str) -> anyhow::Result<(Game, Option<(Game, GameMove)>)> {
    let moves = split_moves(moves);
    let (before, last) = match moves.split_last() {
        Some((last, rest)) => (settai_core::replay(kind, rest)?, Some(last.clone())),
        None => (Game::new(kind), None),
    };
    match last {
        None => Ok((before, None)),
        Some(text) => {
            let bad = |error| settai_core::ReplayError { ply: moves.len(), text: text.clone(), error };
            let mv = before.parse_move(&text).map_err(bad)?;
            let after = before.play(mv).map_err(bad)?;
            Ok((after, Some((before, mv))))
        }
    }
}

fn ai(kind: GameKind, level: Option<String>, moves: &str, json: bool, seed: Option<u64>) -> anyhow::Result<()> {
    let level = level_or_default(kind, level)?;
    let (game, played) = settai_core::replay_moves(kind, &split_moves(moves))?;
    if game.to_move().is_none() {
        bail!("the game is over after these moves; there is nothing to reply");
    }
    let mut rng = rng_from(seed);
    match (&game, level) {
        (Game::Reversi(pos), Level::Reversi(level)) => {
            // As the bot does: `standard` judges the human by their moves so far.
            let mut thinker = settai_core::Thinker::new(Instant::now);
            let (engine, eval) = thinker.reversi();
            let reply =
                reversi::choose_at_level(engine, eval, pos, level, &settai_core::human_moves(pos, &played), &mut rng);
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
    let level_asked = level.is_some();
    let level = level_or_default(kind, level)?;
    let config = Config::from_env()?;
    let runtime = tokio::runtime::Runtime::new()?;
    let store = runtime.block_on(database::open(&config))?;
    let service = service::Service::new(store).with_seed(seed);
    terminal::play(
        &runtime,
        service,
        &doubutsu::table_path(table, &config.data_dir),
        terminal::Request { kind, level, level_asked, human, new },
        std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bot's commands as a command line of their own, for clap's checks.
    #[derive(Debug, clap::Parser)]
    struct BotCli {
        #[command(subcommand)]
        command: Command,
    }

    #[test]
    fn cli_parses() {
        use clap::CommandFactory;
        BotCli::command().debug_assert();
    }
}
