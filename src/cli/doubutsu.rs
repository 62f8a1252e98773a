//! The doubutsu shogi commands: perft, the table (build, stats, probe), the AI and terminal play.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context as _};
use clap::Subcommand;
use rand::Rng;

use super::build_report::TerminalReport;
use crate::i18n::{side_name, value_words, Lang};
use crate::table_file::{TableFile, REBUILD_COMMAND};
use settai_core::doubutsu::table::{build_standard, reach, ReachStats, Table};
use settai_core::doubutsu::{self as dob, Color, History, Move, Position, Role, Square};
use settai_core::{GameKind, Side};

#[derive(Debug, Subcommand)]
/// `settai table`: the doubutsu table.
pub enum TableAction {
    /// Compute the table by retrograde analysis and write it (about 2 minutes on two idle
    /// cores, under 0.5 GiB of memory), and print what it cost.
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

/// Runs a `settai table` command, files defaulting to `data_dir`.
pub fn table(action: TableAction, data_dir: &Path) -> anyhow::Result<()> {
    match action {
        TableAction::Build { out } => build(&table_path(out, data_dir)),
        TableAction::Stats { table, verify, header_only } => stats(&table_path(table, data_dir), verify, !header_only),
        TableAction::Probe { table, moves } => probe(&table_path(table, data_dir), &moves),
    }
}

/// The table file: `--table`, else `<SETTAI_DATA_DIR>/doubutsu.tb`.
pub fn table_path(explicit: Option<PathBuf>, data_dir: &Path) -> PathBuf {
    explicit.unwrap_or_else(|| data_dir.join("doubutsu.tb"))
}

/// Replays a move list such as "B3B2 C1C2", naming the first bad move.
pub fn replay(moves: &str) -> anyhow::Result<History> {
    let mut game = History::new();
    for (i, token) in moves.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).enumerate() {
        let mv: Move = token.parse().map_err(|e| anyhow::anyhow!("move {} {token:?}: {e}", i + 1))?;
        if game.outcome().is_some() {
            bail!("move {} {token:?}: the game is already over", i + 1);
        }
        game.play(mv).map_err(|e| anyhow::anyhow!("move {} {token:?}: {e}", i + 1))?;
    }
    Ok(game)
}

/// `settai perft doubutsu N`.
pub fn perft(depth: u32) -> u64 {
    dob::perft_parallel(&Position::start(), depth)
}

/// `settai table build`: builds the table of every legal position over the perfect index
/// and prints what it cost (wall and CPU time, peak memory sampled from /proc every 50 ms
/// and the kernel's mark), then writes the file and checks it (`settai-lab bench table` times
/// probes through it).
pub fn build(out: &Path) -> anyhow::Result<()> {
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("could not create {}", dir.display()))?;
    }
    let sampler = RssSampler::start();
    let started = Instant::now();
    let cpu_before = process_cpu_seconds();
    // Without a terminal (CI, nohup, logs) indicatif draws nothing: plain lines instead.
    let table = build_standard(&TerminalReport::new(false).options())?;
    let wall = started.elapsed().as_secs_f64();
    let cpu = process_cpu_seconds() - cpu_before;
    let (sampled, kernel) = sampler.stop();
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    let slots = table.values().len();
    println!("slots: {slots} ({} MiB of values), {} levels", slots >> 20, table.levels);
    println!(
        "wall {wall:.1} s, CPU {cpu:.1} s, peak memory {:.3} GiB sampled, {:.3} GiB kernel mark",
        gib(sampled),
        gib(kernel)
    );
    println!("start position: {} for sente", value_words(table.probe(&Position::start())?, Lang::En));
    let started = Instant::now();
    crate::table_file::write(&table, out)?;
    println!(
        "wrote {} ({} bytes) in {:.1} s",
        out.display(),
        std::fs::metadata(out)?.len(),
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let file = TableFile::open(out)?;
    println!("open: {:.2} ms", started.elapsed().as_secs_f64() * 1e3);
    // The figures the write just counted into the header.
    let s = file.stats();
    println!(
        "slots won / lost / drawn by the side to move: {} / {} / {}; longest distance {}",
        s.wins, s.losses, s.draws, s.max_distance
    );
    let started = Instant::now();
    file.verify()?;
    println!("checksum of the whole file: {:.2} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// `settai table stats`: the header figures, the start's value and, with `reachable`,
/// Tanaka's figures from a reachability pass over the table.
pub fn stats(path: &Path, verify: bool, reachable: bool) -> anyhow::Result<()> {
    let started = Instant::now();
    let table = TableFile::open(path)?;
    println!("{}: opened in {:.1} ms", path.display(), started.elapsed().as_secs_f64() * 1000.0);
    println!("{:#?}", table.stats());
    println!("start position: {} for sente", value_words(table.probe(&Position::start())?, Lang::En));
    if verify {
        let started = Instant::now();
        table.verify()?;
        println!("checksum verified in {:.1} s", started.elapsed().as_secs_f64());
    }
    if reachable {
        let started = Instant::now();
        let r = reach(table.index(), table.values(), &[Position::start()], &TerminalReport::new(false).options())?;
        println!("reachable from the start ({} levels, {:.1} s):", r.levels, started.elapsed().as_secs_f64());
        println!("  positions (one per mirror pair): {}", r.positions);
        println!("  with mirror images apart: {}", r.reachable);
        println!("  won / lost / drawn by the side to move: {} / {} / {}", r.wins, r.losses, r.draws);
        println!("  longest distance: {}", r.max_distance);
        if r.same_figures(&ReachStats::TANAKA) {
            println!("  these are Tanaka's (2009) figures");
        } else {
            bail!(
                "these differ from Tanaka's (2009) figures {:?}; rebuild the table with `{REBUILD_COMMAND}`",
                ReachStats::TANAKA
            );
        }
    }
    Ok(())
}

/// `settai table probe`: the value of the position after `moves` and of every move there.
pub fn probe(path: &Path, moves: &str) -> anyhow::Result<()> {
    let table = TableFile::open(path)?;
    let game = replay(moves)?;
    let pos = game.position();
    let mover = match pos.turn() {
        Color::Sente => "sente",
        Color::Gote => "gote",
    };
    println!("{pos}: {} for {mover}, to move", value_words(dob::value_of(&table, pos)?, Lang::En));
    for (mv, value) in dob::evaluate_moves(&table, pos)? {
        println!("  {mv}: {} for {mover}", value_words(value, Lang::En));
    }
    Ok(())
}

/// The AI's reply, needing the table for settai and strongest.
pub fn choose_move(
    level: dob::DoubutsuLevel,
    game: &History,
    table: Option<&TableFile>,
    rng: &mut impl Rng,
) -> anyhow::Result<Move> {
    Ok(level.choose_move(table, game, rng)?)
}

fn open_for(level: dob::DoubutsuLevel, path: &Path) -> anyhow::Result<Option<TableFile>> {
    match level.needs_table() {
        false => Ok(None),
        true => Ok(Some(open_table(path)?)),
    }
}

/// `settai ai doubutsu`.
pub fn ai(
    level: dob::DoubutsuLevel,
    moves: &str,
    json: bool,
    table_path: &Path,
    rng: &mut impl Rng,
) -> anyhow::Result<()> {
    let game = replay(moves)?;
    if game.outcome().is_some() {
        bail!("the game is over after these moves; there is nothing to reply");
    }
    let table = open_for(level, table_path)?;
    let started = Instant::now();
    let mv = choose_move(level, &game, table.as_ref(), rng)?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if !json {
        println!("{mv}");
        return Ok(());
    }
    let mut out =
        serde_json::json!({ "game": "doubutsu", "move": mv.to_string(), "time_ms": (ms * 100.0).round() / 100.0 });
    if let Some(table) = &table {
        let pos = game.position();
        let values: Vec<_> = dob::evaluate_moves(table, pos)?
            .into_iter()
            .map(|(m, v)| serde_json::json!({ "move": m.to_string(), "value": format!("{v:?}"), "score": dob::score(v) }))
            .collect();
        out["moves"] = serde_json::Value::Array(values);
        if let Some((before, last)) = game.last_move() {
            let a = dob::analyze(table, &before, last)?;
            out["last_move"] = serde_json::json!({
                "move": last.to_string(),
                "score": a.score,
                "best": a.best.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "best_score": a.best_score,
                "divergence": a.divergence,
            });
        }
    }
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}

/// A plain text board: sente's pieces upper case, gote's lower case, hands below, then whose
/// move it is while the game goes on.
pub fn text_board(game: &History) -> String {
    let pos = game.position();
    let mut out = String::from("    A  B  C\n");
    for row in 0..4 {
        out.push_str(&format!(" {} ", row + 1));
        for col in 0..3 {
            let sq = Square::from_coords(col, row).expect("on the board");
            let cell = match pos.piece_at(sq) {
                None => " . ".to_string(),
                Some(p) if p.color == Color::Sente => format!(" {} ", p.role.letter()),
                Some(p) => format!(" {} ", p.role.letter().to_ascii_lowercase()),
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    let hand = |c: Color| {
        Role::HAND.iter().flat_map(|&r| std::iter::repeat_n(r.letter(), pos.hand(c, r) as usize)).collect::<String>()
    };
    out.push_str(&format!("hands: sente [{}] gote [{}]", hand(Color::Sente), hand(Color::Gote)));
    if game.outcome().is_none() {
        let side = if pos.turn() == Color::Sente { Side::First } else { Side::Second };
        out.push_str(&format!("; {} to move", side_name(GameKind::Doubutsu, side, Lang::En)));
    }
    out.push_str("\nUPPER CASE is you (sente), lower case the computer (gote): L lion, G giraffe, E elephant, C chick, H hen (a chick that reached the far row)");
    out
}

/// `settai render doubutsu`.
pub fn render(moves: &str, lang: Lang) -> anyhow::Result<Vec<u8>> {
    let game = settai_core::Game::Doubutsu(settai_core::DoubutsuGame::new(replay(moves)?));
    let banner = crate::render::result_banner(&game, lang);
    Ok(crate::render::game_png(&game, None, lang, banner.as_deref(), &Default::default()))
}

/// User + system CPU seconds of the whole process.
fn process_cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getrusage only writes the struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: as above; `u` is a valid, writable rusage.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
            return t(u.ru_utime) + t(u.ru_stime);
        }
    }
    0.0
}

/// Samples the process's resident memory (VmRSS) every 50 ms on a thread.
struct RssSampler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<u64>,
}

impl RssSampler {
    fn start() -> RssSampler {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut peak = 0;
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(status_kib("VmRSS:") * 1024);
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            peak
        });
        RssSampler { stop, thread }
    }

    /// (the sampled peak, the kernel's VmHWM), in bytes.
    fn stop(self) -> (u64, u64) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (self.thread.join().unwrap_or(0), status_kib("VmHWM:") * 1024)
    }
}

/// A `kB` field of /proc/self/status (0 where there is none).
fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with(field))?.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// Opens the doubutsu table; a missing table names the level that plays without it.
pub fn open_table(path: &Path) -> anyhow::Result<TableFile> {
    TableFile::open(path).map_err(|e| match e {
        crate::table_file::TableError::Missing { .. } => {
            anyhow::anyhow!("{e} (about 2 minutes), or play without it at `--level weakest`")
        }
        e => anyhow::Error::from(e),
    })
}
