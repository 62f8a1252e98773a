//! The match runner of `settai-lab bench match`, `bench openings` and `bench probcut`:
//! engine-against-engine matches for the reversi engine work (played by [`duel`], kept by
//! [`match_journal`](super::match_journal)), and the balanced openings they start from
//! (docs/design/reversi-engine.md#matches-settai-lab-bench-match-duelrs-elors).

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use indicatif::{ProgressBar, ProgressStyle};

use super::duel::{self, Fixture, FixtureResult, MatchSettings, Player};
use super::elo::{elo, elo_text, Interval};
use super::match_journal::MatchJournal;
use super::openings::{self, GenerateConfig, Opening};
use crate::cpu_clock::process_cpu_seconds;
use crate::hospitality::reversi::STRONG_CLOCK;
use settai_core::reversi::{probcut, Clock, Color, PatternEval, DISC};

/// The committed balanced openings, the default of `--openings`.
const OPENINGS: &str = include_str!("../../../../assets/reversi/openings.txt");

/// Who plays, as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Spec {
    /// `none`: the strong level with the built-in weights.
    Builtin,
    /// `none@baseline`: the strong level of 2026-12-02 (before ProbCut) with the frozen
    /// baseline weights.
    Baseline,
    /// `none@FILE`: the strong level with weights read from a file.
    File(PathBuf),
    /// `alphabeta(D)`: the classic fixed-depth search.
    AlphaBeta(u32),
}

impl Spec {
    fn parse(s: &str) -> anyhow::Result<Spec> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("none") {
            return Ok(Spec::Builtin);
        }
        if let Some(rest) = t.strip_prefix("none@") {
            return Ok(if rest == "baseline" { Spec::Baseline } else { Spec::File(rest.into()) });
        }
        let depth =
            t.to_ascii_lowercase().strip_prefix("alphabeta(").and_then(|r| r.strip_suffix(')')?.trim().parse().ok());
        match depth {
            Some(d @ 1..=10) => Ok(Spec::AlphaBeta(d)),
            _ => bail!("unknown player {s:?} (none, none@baseline, none@FILE with a weights file, alphabeta(1..10))"),
        }
    }

    /// The evaluator this player needs, loaded.
    fn load(&self) -> anyhow::Result<Option<PatternEval>> {
        Ok(match self {
            Spec::Builtin => Some(PatternEval::builtin()),
            Spec::Baseline => Some(PatternEval::baseline()),
            Spec::File(path) => {
                let bytes = std::fs::read(path).with_context(|| format!("could not read {}", path.display()))?;
                Some(
                    PatternEval::from_bytes(&bytes)
                        .with_context(|| format!("{} is not a weights file", path.display()))?,
                )
            }
            Spec::AlphaBeta(_) => None,
        })
    }
}

/// The player of `spec`, with the evaluator [`Spec::load`] gave it.
fn player<'a>(spec: &Spec, eval: Option<&'a PatternEval>) -> Player<'a> {
    match (spec, eval) {
        (Spec::AlphaBeta(d), _) => Player::AlphaBeta(*d),
        (Spec::Baseline, Some(e)) => Player::Baseline(e),
        (_, Some(e)) => Player::Strong(e),
        (_, None) => unreachable!("strong players have weights"),
    }
}

/// Reads `--openings`, or the committed set.
fn load_openings(path: Option<&Path>) -> anyhow::Result<(Vec<Opening>, String)> {
    match path {
        None => Ok((openings::parse_openings(OPENINGS).context("the built-in openings")?, "the built-in set".into())),
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| format!("could not read {}", p.display()))?;
            let set = openings::parse_openings(&text).with_context(|| p.display().to_string())?;
            Ok((set, p.display().to_string()))
        }
    }
}

/// `settai-lab bench probcut`: measures ProbCut's spreads on games played from the first `games`
/// committed openings and prints them, with the table to commit in `reversi/probcut.rs`.
pub fn probcut_fit(games: usize, seed: u64) -> anyhow::Result<()> {
    let (set, _) = load_openings(None)?;
    let set = &set[..games.clamp(1, set.len())];
    let started = Instant::now();
    let spreads = super::probcut_fit::fit(set, &PatternEval::builtin(), seed);
    println!(
        "| depth | shallow | {} |",
        (0..probcut::STAGES).map(|s| format!("stage {s}: n, mean, sigma")).collect::<Vec<_>>().join(" | ")
    );
    println!("|---|---|{}", "---|".repeat(probcut::STAGES));
    for (i, row) in spreads.iter().enumerate() {
        let depth = probcut::MIN_DEPTH + i as u32;
        let cells: Vec<String> = row.iter().map(|s| format!("{}, {:+.1}, {:.1}", s.samples, s.mean, s.sigma)).collect();
        println!("| {depth} | {} | {} |", probcut::shallow_depth(depth), cells.join(" | "));
    }
    println!(
        "\nSPREAD (mean, sigma in 1/32 discs), for crates/core/src/reversi/engine/probcut.rs:\n{}",
        super::probcut_fit::spread_table(&spreads)
    );
    eprintln!("{} games from the committed openings, seed {seed}, {:.0} s", set.len(), started.elapsed().as_secs_f64());
    Ok(())
}

/// What `settai-lab bench match` was asked.
pub struct MatchArgs {
    /// Player A, as named on the command line (`none`, `none@baseline`, `none@FILE`, `alphabeta(D)`).
    pub a: String,
    /// Player B, as A.
    pub b: String,
    /// Games, rounded up to whole colour-swapped pairs.
    pub games: usize,
    /// Thinking time per move, in seconds on the node clock.
    pub budget: f64,
    /// An openings file; none: the committed set.
    pub openings: Option<PathBuf>,
    /// Seed of the players' random choices.
    pub seed: u64,
    /// Games played at once; none: one per core.
    pub threads: Option<usize>,
    /// Where to write one CSV row per game.
    pub out: Option<PathBuf>,
    /// The journal a long match goes on from.
    pub journal: Option<PathBuf>,
    /// A's and B's node clocks; none: the strong level's.
    pub clocks: [Option<Clock>; 2],
}

/// A node clock from `MID/END` (nanoseconds per midgame and per endgame node); clap's parser
/// of `--clock-a`/`--clock-b`.
pub fn parse_clock(text: &str) -> anyhow::Result<Clock> {
    let rate = |x: &str| x.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v > 0.0);
    match text.split_once('/').map(|(m, e)| (rate(m), rate(e))) {
        Some((Some(mid_ns), Some(end_ns))) => Ok(Clock::Nodes { mid_ns, end_ns }),
        _ => bail!("a clock is MID/END, nanoseconds per midgame and per endgame node (e.g. 455/27), got {text:?}"),
    }
}

/// `MID/END` of a node clock.
fn clock_text(clock: Clock) -> String {
    match clock {
        Clock::Nodes { mid_ns, end_ns } => format!("{mid_ns}/{end_ns}"),
        Clock::Wall(_) => "wall".into(),
    }
}

/// `settai-lab bench match`.
pub fn play(args: &MatchArgs) -> anyhow::Result<()> {
    if !(args.budget > 0.0 && args.budget <= 60.0) {
        bail!("--budget must be in (0, 60] seconds, got {}", args.budget);
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let (spec_a, spec_b) = (Spec::parse(&args.a)?, Spec::parse(&args.b)?);
    let (eval_a, eval_b) = (spec_a.load()?, spec_b.load()?);
    let (a, b) = (player(&spec_a, eval_a.as_ref()), player(&spec_b, eval_b.as_ref()));
    let (set, source) = load_openings(args.openings.as_deref())?;
    let fixtures = duel::fixtures(args.games, set.len());
    let pairs = fixtures.len() / 2;
    let settings = MatchSettings {
        budget: Duration::from_secs_f64(args.budget),
        clocks: args.clocks.map(|c| c.unwrap_or(STRONG_CLOCK)),
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads.unwrap_or(0)).build()?;
    let threads = pool.current_num_threads();

    // One clock is written as before, so that journals of matches on one clock stay valid.
    let clocks = if settings.clocks[0] == settings.clocks[1] {
        clock_text(settings.clocks[0])
    } else {
        format!("A {}, B {}", clock_text(settings.clocks[0]), clock_text(settings.clocks[1]))
    };
    println!(
        "match: A = {}, B = {}; {} games = {pairs} openings of {source} ({} there) x both colours{}",
        args.a.trim(),
        args.b.trim(),
        fixtures.len(),
        set.len(),
        if pairs > set.len() { ", openings reused" } else { "" },
    );
    println!(
        "{:.3} s per move on the node clock ({clocks} ns per midgame/endgame node; \
         alphabeta searches its depth), seed {}, {threads} threads",
        args.budget, args.seed
    );
    let (journal, prior) = match &args.journal {
        None => (None, Vec::new()),
        Some(path) => {
            let fingerprint = duel::fingerprint(a, b, &settings);
            let openings_hash = set.iter().fold(duel::FNV_START, |h, o| duel::fnv1a(h, o.text().as_bytes()));
            let line = format!(
                "a={}; b={}; budget={:.3}; clock={clocks}; seed={}; openings={openings_hash:016x}; \
                 fingerprint={fingerprint:016x}",
                args.a.trim(),
                args.b.trim(),
                args.budget,
                args.seed
            );
            let (journal, prior) = MatchJournal::open(path, &line, &set, &fixtures)?;
            println!(
                "journal {}: {} of these games already played, {} to play",
                path.display(),
                prior.len(),
                fixtures.len() - prior.len()
            );
            (Some(journal), prior)
        }
    };
    let todo: Vec<Fixture> = fixtures.iter().filter(|f| !prior.iter().any(|o| o.fixture == **f)).copied().collect();
    let bar = progress(todo.len());
    let (started, cpu0) = (Instant::now(), process_cpu_seconds());
    let done = |o: &FixtureResult| {
        if let Some(j) = &journal {
            j.append(o);
        }
        if bar.is_hidden() {
            let colour = if o.fixture.a == Color::Black { "black" } else { "white" };
            eprintln!(
                "game {} (pair {}, opening {}, A {colour}): A {:+}",
                o.fixture.index() + 1,
                o.fixture.pair + 1,
                o.fixture.opening + 1,
                o.a_margin()
            );
        } else {
            bar.inc(1);
        }
    };
    let mut outcomes = pool.install(|| duel::play_match(a, b, &set, &todo, &settings, args.seed, done));
    bar.finish_and_clear();
    journal.map(MatchJournal::finish).transpose()?;
    let played = outcomes.len();
    outcomes.extend(prior);
    outcomes.sort_by_key(|o| o.fixture.index());
    let (wall, cpu) = (started.elapsed().as_secs_f64(), process_cpu_seconds() - cpu0);
    print!("{}", summary(&outcomes, played, wall, cpu));
    if let Some(path) = &args.out {
        std::fs::write(path, csv(&outcomes, &set)).with_context(|| format!("could not write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// A progress bar on a terminal; hidden otherwise (each game is then logged as a line).
fn progress(games: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise:>8} [{bar:40}] {pos}/{len} games, eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

/// The result lines: score with its intervals, Elo, margin, effort and time.
fn summary(outcomes: &[FixtureResult], played: usize, wall: f64, cpu: f64) -> String {
    let t = duel::tally(outcomes);
    let pairs = duel::pair_points(outcomes);
    let by_pair = Interval::over_pairs(&pairs);
    let by_game = t.wilson();
    let (lo, hi) = by_pair.elo();
    let n = outcomes.len().max(1) as f64;
    let margins: Vec<f64> = outcomes.iter().map(|o| f64::from(o.a_margin())).collect();
    let mean = margins.iter().sum::<f64>() / n;
    let sd = (margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let mut s = String::new();
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let _ = writeln!(s, "A: {} wins, {} draws, {} losses in {} games", t.wins, t.draws, t.losses, t.games());
    let _ = writeln!(
        s,
        "score {} (95% CI {}-{}: normal approximation over the {} colour-swapped pairs)",
        pct(t.score()),
        pct(by_pair.low),
        pct(by_pair.high),
        pairs.len()
    );
    let _ = writeln!(s, "Elo difference {} (95% CI {} to {})", elo_text(elo(t.score())), elo_text(lo), elo_text(hi));
    if pairs.len() > 1 && by_pair.low == by_pair.high {
        let _ = writeln!(s, "(zero width: every pair scored the same, which a normal approximation cannot weigh)");
    }
    let _ = writeln!(
        s,
        "(Wilson interval over games taken as independent, a draw half a win: 95% CI {}-{})",
        pct(by_game.low),
        pct(by_game.high)
    );
    let _ = writeln!(s, "mean disc margin for A: {mean:+.2} (sd {sd:.1})");
    for (i, side) in ["A", "B"].into_iter().enumerate() {
        let (moves, nodes, thinking) = outcomes.iter().fold((0u64, 0u64, Duration::ZERO), |acc, o| {
            let e = o.effort()[i];
            (acc.0 + u64::from(e.searched), acc.1 + e.nodes, acc.2 + e.thinking)
        });
        let per = moves.max(1) as f64;
        let _ = writeln!(
            s,
            "{side}: {moves} searched moves, {:.3} M nodes and {:.3} s of node clock per move",
            nodes as f64 / per / 1e6,
            thinking.as_secs_f64() / per
        );
    }
    let _ = writeln!(
        s,
        "time: wall {wall:.1} s, on-CPU {cpu:.1} s for the {played} games played in this run ({:.2} s per game)",
        cpu / played.max(1) as f64
    );
    s
}

/// One CSV row per game, in fixture order.
fn csv(outcomes: &[FixtureResult], set: &[Opening]) -> String {
    let mut s = String::from("game,pair,opening,a_colour,a_points,a_margin,a_moves,a_nodes,b_moves,b_nodes,moves\n");
    for (i, o) in outcomes.iter().enumerate() {
        let [ea, eb] = o.effort();
        let moves: Vec<String> = o.game.moves.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{} {}",
            i + 1,
            o.fixture.pair + 1,
            o.fixture.opening + 1,
            if o.fixture.a == Color::Black { "black" } else { "white" },
            o.a_points(),
            o.a_margin(),
            ea.searched,
            ea.nodes,
            eb.searched,
            eb.nodes,
            set[o.fixture.opening].text(),
            moves.join(" ")
        );
    }
    s
}

/// What `settai-lab bench openings` was asked.
pub struct OpeningsArgs {
    /// Openings wanted.
    pub count: usize,
    /// Random plies from the start (6 to 10).
    pub plies: usize,
    /// Depth of the judging search.
    pub depth: u32,
    /// Largest accepted value, in discs either way.
    pub max_value: f64,
    /// Seed of the random lines.
    pub seed: u64,
    /// The file written.
    pub out: PathBuf,
}

/// `settai-lab bench openings`: writes a balanced set, judged with the frozen baseline weights so
/// that the same command gives the same file whatever the built-in weights have become.
pub fn generate(args: &OpeningsArgs) -> anyhow::Result<()> {
    if !(6..=10).contains(&args.plies) || args.count == 0 || !(1..=20).contains(&args.depth) {
        bail!("--plies must be 6..=10, --depth 1..=20 and --count at least 1");
    }
    if args.max_value.is_nan() || args.max_value < 0.0 {
        bail!("--max-value must be a number of discs, at least 0");
    }
    let limit = (args.max_value * f64::from(DISC)).round() as i32;
    let config =
        GenerateConfig { count: args.count, plies: args.plies, depth: args.depth, max_value: limit, seed: args.seed };
    let (started, cpu0) = (Instant::now(), process_cpu_seconds());
    let (found, judged) = openings::generate(&config, &PatternEval::baseline());
    let (wall, cpu) = (started.elapsed().as_secs_f64(), process_cpu_seconds() - cpu0);
    let OpeningsArgs { count, plies, depth, max_value, seed, .. } = *args;
    // The header names the numbered issue the openings were made for
    // (docs/design/reversi-engine.md#matches-settai-lab-bench-match-duelrs-elors).
    let mut text = format!(
        "# Balanced reversi openings for `settai-lab bench match`: {count} lines of {plies} random plies,\n\
         # each within {max_value:.1} discs of even for black by a depth-{depth} search with the frozen baseline\n\
         # weights, no two the same up to rotation or reflection ({judged} distinct lines judged). Made by:\n\
         #   settai-lab bench openings --count {count} --plies {plies} --depth {depth} --max-value {max_value} --seed {seed}\n\
         # After each line: the value for black in discs.\n"
    );
    for b in &found {
        let _ = writeln!(text, "{}  # {:+.2}", b.opening.text(), f64::from(b.value) / f64::from(DISC));
    }
    std::fs::write(&args.out, text).with_context(|| format!("could not write {}", args.out.display()))?;
    println!(
        "wrote {} openings to {} ({judged} judged); wall {wall:.1} s, on-CPU {cpu:.1} s",
        found.len(),
        args.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Clocks read as `MID/END`, print back the same (a journal names them), and bad ones
    /// say what is accepted.
    #[test]
    fn clocks_parse_and_bad_ones_say_what_is_accepted() {
        assert_eq!(parse_clock("264/27").unwrap(), Clock::Nodes { mid_ns: 264.0, end_ns: 27.0 });
        assert_eq!(parse_clock(" 263.5 / 27 ").unwrap(), Clock::Nodes { mid_ns: 263.5, end_ns: 27.0 });
        assert_eq!(clock_text(STRONG_CLOCK), "455/27");
        assert_eq!(clock_text(parse_clock("263.5/27").unwrap()), "263.5/27");
        for bad in ["264", "264/", "/27", "0/27", "-1/27", "x/27", "NaN/27", "264/27/1"] {
            let e = parse_clock(bad).unwrap_err().to_string();
            assert!(e.contains("MID/END") && e.contains(bad), "{e}");
        }
    }

    #[test]
    fn player_specs_parse_and_bad_ones_say_what_is_accepted() {
        assert_eq!(Spec::parse("none").unwrap(), Spec::Builtin);
        assert_eq!(Spec::parse("none@baseline").unwrap(), Spec::Baseline);
        assert_eq!(Spec::parse("none@/tmp/w.bin").unwrap(), Spec::File("/tmp/w.bin".into()));
        assert_eq!(Spec::parse("AlphaBeta( 4)").unwrap(), Spec::AlphaBeta(4));
        for bad in ["alphabeta(0)", "alphabeta(11)", "standard", "edax"] {
            let e = Spec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad) && e.contains("none@baseline"), "{e}");
        }
        let missing = Spec::File("/nonexistent/w.bin".into()).load().unwrap_err().to_string();
        assert!(missing.contains("/nonexistent/w.bin"), "{missing}");
        assert!(Spec::Baseline.load().unwrap().is_some() && Spec::AlphaBeta(2).load().unwrap().is_none());
    }
}
