//! The hospitality benchmark: many simulated games between a level and guests of graded
//! strength, measuring whether the guest wins, how closely and how naturally.
//!
//! Just past 500 lines with its tests: one job, playing a run and summing it up (records, rates,
//! tables); a game's record and each game's guests have files of their own.
//!
//! Every game is reproducible: its random source is seeded from the run's seed, the guest and
//! the game's number, so the results do not depend on how many threads played them.

pub mod child_games;
pub mod child_regret;
pub mod diagnosis;
pub mod doubutsu;
mod game;
pub mod gtp;
pub mod journal;
pub mod reversi;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::SeedableRng;
use rayon::prelude::*;
use serde::Serialize;

pub use game::{game_seed, GuestResult, SimulatedGame};

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    /// Successes / trials.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// The Wilson interval of `k` successes in `n` trials (z = 1.96).
    pub fn wilson(k: u32, n: u32) -> Rate {
        let tally = crate::reversi::elo::Tally { wins: k, draws: 0, losses: n.saturating_sub(k) };
        let ci = tally.wilson();
        let value = if n == 0 { 0.0 } else { f64::from(k) / f64::from(n) };
        Rate { value, low: ci.low, high: ci.high }
    }
}

/// Figures for one (level, guest) row.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The game.
    pub game: String,
    /// The level under test.
    pub level: String,
    /// The guest.
    pub guest: String,
    /// Games played.
    pub games: u32,
    /// Guest wins, draws and losses.
    pub wins: u32,
    /// See [`Summary::wins`].
    pub draws: u32,
    /// See [`Summary::wins`].
    pub losses: u32,
    /// The guest's win rate with its interval.
    pub win_rate: Rate,
    /// Mean and standard deviation of the game length in plies.
    pub plies_mean: f64,
    /// See [`Summary::plies_mean`].
    pub plies_sd: f64,
    /// Quartiles of the game length in plies (25%, median, 75%).
    pub plies_quartiles: [f64; 3],
    /// Reversi: quartiles of the guest's final margin (25%, median, 75%).
    pub margin_quartiles: Option<[f64; 3]>,
    /// Reversi: wins that left the level without a disc.
    pub perfect_wins: u32,
    /// Mean lead changes per game.
    pub lead_changes_mean: f64,
    /// Median ply at which won games became certain.
    pub certain_at_median: Option<f64>,
    /// Careless-looking moves per 100 moves, the level's and the guest's.
    pub ai_tells_per_100: f64,
    /// See [`Summary::ai_tells_per_100`].
    pub guest_tells_per_100: f64,
    /// Mean time per level move, in milliseconds (wall time).
    pub ai_ms_per_move: f64,
    /// Mean on-CPU time per level move, in milliseconds, when every game of the row has it.
    pub ai_cpu_ms_per_move: Option<f64>,
    /// The target this row is held to, if any, e.g. "guest wins ≥ 85%".
    pub target: Option<String>,
    /// Whether the target is met (`None` without a target).
    pub pass: Option<bool>,
    /// How many games ended each way ([`SimulatedGame::ending`]), in label order.
    pub endings: BTreeMap<String, u32>,
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = (sorted.len() - 1) as f64 * q;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

impl Summary {
    /// Summarizes the games of one row.
    pub fn of(game: &str, level: &str, guest: &str, records: &[SimulatedGame]) -> Summary {
        let n = records.len() as u32;
        let count = |r: GuestResult| records.iter().filter(|g| g.result == r).count() as u32;
        let (wins, draws, losses) = (count(GuestResult::Win), count(GuestResult::Draw), count(GuestResult::Loss));
        let mut plies: Vec<f64> = records.iter().map(|g| g.plies as f64).collect();
        plies.sort_by(f64::total_cmp);
        let mean = plies.iter().sum::<f64>() / plies.len().max(1) as f64;
        let sd = (plies.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / plies.len().max(1) as f64).sqrt();
        let mut margins: Vec<f64> = records.iter().filter_map(|g| g.margin.map(f64::from)).collect();
        margins.sort_by(f64::total_cmp);
        let mut certain: Vec<f64> = records.iter().filter_map(|g| g.certain_at.map(f64::from)).collect();
        certain.sort_by(f64::total_cmp);
        let sum = |f: fn(&SimulatedGame) -> u32| records.iter().map(f).sum::<u32>() as f64;
        let per_100 = |tells: f64, moves: f64| if moves > 0.0 { 100.0 * tells / moves } else { 0.0 };
        let ai_moves = sum(|g| g.ai_moves);
        Summary {
            game: game.into(),
            level: level.into(),
            guest: guest.into(),
            games: n,
            wins,
            draws,
            losses,
            win_rate: Rate::wilson(wins, n),
            plies_mean: mean,
            plies_sd: sd,
            plies_quartiles: [quantile(&plies, 0.25), quantile(&plies, 0.5), quantile(&plies, 0.75)],
            margin_quartiles: (!margins.is_empty())
                .then(|| [quantile(&margins, 0.25), quantile(&margins, 0.5), quantile(&margins, 0.75)]),
            perfect_wins: records.iter().filter(|g| g.perfect).count() as u32,
            lead_changes_mean: sum(|g| g.lead_changes) / n.max(1) as f64,
            certain_at_median: (!certain.is_empty()).then(|| quantile(&certain, 0.5)),
            ai_tells_per_100: per_100(sum(|g| g.ai_tells), ai_moves),
            guest_tells_per_100: per_100(sum(|g| g.guest_tells), sum(|g| g.guest_moves)),
            ai_ms_per_move: if ai_moves > 0.0 {
                records.iter().map(|g| g.ai_time.as_secs_f64()).sum::<f64>() * 1e3 / ai_moves
            } else {
                0.0
            },
            ai_cpu_ms_per_move: records
                .iter()
                .map(|g| g.ai_cpu_time.map(|t| t.as_secs_f64()))
                .sum::<Option<f64>>()
                .filter(|_| ai_moves > 0.0)
                .map(|s| s * 1e3 / ai_moves),
            target: None,
            pass: None,
            endings: records.iter().filter_map(|g| g.ending.clone()).fold(BTreeMap::new(), |mut m, e| {
                *m.entry(e).or_insert(0) += 1;
                m
            }),
        }
    }

    /// Holds the row to a minimum guest win rate.
    pub fn with_min_win_rate(mut self, min: f64, why: &str) -> Summary {
        self.target = Some(format!("guest wins ≥ {:.0}% ({why})", min * 100.0));
        self.pass = Some(self.win_rate.value >= min);
        self
    }

    /// Holds the row to a maximum guest win rate (the level must win).
    pub fn with_max_win_rate(mut self, max: f64, why: &str) -> Summary {
        self.target = Some(format!("guest wins ≤ {:.0}% ({why})", max * 100.0));
        self.pass = Some(self.win_rate.value <= max);
        self
    }

    /// Also holds the row to a median game length of at least `min` plies.
    pub fn with_min_median_plies(self, min: f64) -> Summary {
        let ok = self.plies_quartiles[1] >= min;
        self.also(format!("median ≥ {min} plies"), ok)
    }

    /// Also holds the row to a median guest margin within `lo..=hi` discs.
    pub fn with_median_margin(self, lo: f64, hi: f64) -> Summary {
        let ok = self.margin_quartiles.is_some_and(|q| (lo..=hi).contains(&q[1]));
        self.also(format!("median margin {lo:+}..{hi:+}"), ok)
    }

    /// Also holds the row to a median ply of certainty (see [`SimulatedGame::certain_at`]) no
    /// earlier than `ply`: the guest's win is not settled early.
    pub fn with_certain_no_earlier_than(self, ply: f64) -> Summary {
        let ok = self.certain_at_median.is_some_and(|c| c >= ply);
        self.also(format!("win certain from ply ≥ {ply}"), ok)
    }

    fn also(mut self, what: String, ok: bool) -> Summary {
        self.target = Some(match self.target.take() {
            Some(t) => format!("{t}, {what}"),
            None => what,
        });
        self.pass = Some(self.pass.unwrap_or(true) && ok);
        self
    }
}

/// Plays `games` games for each guest on all cores, with one progress bar for the run.
/// `play(guest, game_number, rng)` plays one game.
/// With a journal, the games it holds are taken from it and each new one is appended to it.
pub fn run<G: Sync, E: Send>(
    guests: &[G],
    games: usize,
    seed: u64,
    progress: bool,
    journal: Option<&journal::HospitalityJournal>,
    play: impl Fn(&G, usize, &mut StdRng) -> Result<SimulatedGame, E> + Sync,
) -> Result<Vec<Vec<SimulatedGame>>, E> {
    let bar = if progress { ProgressBar::new((guests.len() * games) as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise:>8} [{bar:40}] {pos}/{len} games, eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let out = guests
        .iter()
        .enumerate()
        .map(|(g, guest)| {
            (0..games)
                .into_par_iter()
                .map(|i| {
                    if let Some(game) = journal.and_then(|j| j.take(g, i)) {
                        bar.inc(1);
                        return Ok(game);
                    }
                    let mut rng = StdRng::seed_from_u64(game_seed(seed, g, i));
                    let r = play(guest, i, &mut rng);
                    if let (Some(j), Ok(game)) = (journal, &r) {
                        j.append(g, i, game);
                    }
                    bar.inc(1);
                    r
                })
                .collect::<Result<Vec<_>, E>>()
        })
        .collect();
    bar.finish_and_clear();
    out
}

/// The table printed on the terminal (also valid Markdown, for BENCHMARKS.md). Its ms/move is
/// on-CPU, or wall time marked "wall" for rows with games journaled before on-CPU time was.
pub fn markdown_table(rows: &[Summary]) -> String {
    let mut out = String::from(
        "| level | guest | games | W/D/L | guest win % (95% CI) | plies mean ± sd | plies q1/med/q3 | margin q1/med/q3 | lead changes | win certain at | tells AI / guest per 100 | ms/move | target |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let margin = r.margin_quartiles.map_or("–".into(), |q| {
            let perfect = if r.perfect_wins > 0 { format!(" ({} perfect)", r.perfect_wins) } else { String::new() };
            format!("{:+.0}/{:+.0}/{:+.0}{perfect}", q[0], q[1], q[2])
        });
        let certain = r.certain_at_median.map_or("–".into(), |c| format!("ply {c:.0}"));
        let target = match (&r.target, r.pass) {
            (Some(t), Some(true)) => format!("PASS {t}"),
            (Some(t), Some(false)) => format!("FAIL {t}"),
            _ => "report".into(),
        };
        let ms = r.ai_cpu_ms_per_move.map_or(format!("{:.3} wall", r.ai_ms_per_move), |cpu| format!("{cpu:.3}"));
        out.push_str(&format!(
            "| {} | {} | {} | {}/{}/{} | {:.1} ({:.1}–{:.1}) | {:.1} ± {:.1} | {:.0}/{:.0}/{:.0} | {margin} | {:.2} | {certain} | {:.1} / {:.1} | {ms} | {target} |\n",
            r.level,
            r.guest,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.win_rate.value * 100.0,
            r.win_rate.low * 100.0,
            r.win_rate.high * 100.0,
            r.plies_mean,
            r.plies_sd,
            r.plies_quartiles[0],
            r.plies_quartiles[1],
            r.plies_quartiles[2],
            r.lead_changes_mean,
            r.ai_tells_per_100,
            r.guest_tells_per_100,
        ));
    }
    out
}

/// How each row's games ended ([`Summary::endings`]), one column per ending, the guest's wins
/// first, then its losses, then draws; empty when no game recorded an ending (reversi).
pub fn endings_table(rows: &[Summary]) -> String {
    let mut labels: Vec<&String> = rows.iter().flat_map(|r| r.endings.keys()).collect();
    let rank = |l: &str| ["W", "L", "D"].iter().position(|p| l.starts_with(p)).unwrap_or(3);
    labels.sort_by_key(|l| (rank(l), l.to_string()));
    labels.dedup();
    if labels.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "| level | guest | {} |\n|---|---|{}\n",
        labels.iter().map(|l| l.as_str()).collect::<Vec<_>>().join(" | "),
        "---|".repeat(labels.len())
    );
    for r in rows {
        let cells: Vec<String> =
            labels.iter().map(|l| r.endings.get(*l).map_or("–".into(), |n| n.to_string())).collect();
        out.push_str(&format!("| {} | {} | {} |\n", r.level, r.guest, cells.join(" | ")));
    }
    out
}

/// Writes `results.json` (summaries and every game) and `results.csv` (one row per summary)
/// into `dir` (the command line draws the charts beside them).
pub fn write_outputs(dir: &Path, rows: &[Summary], games: &[Vec<SimulatedGame>]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("could not create {}", dir.display()))?;
    let json = serde_json::json!({ "summaries": rows, "games": games });
    let path = dir.join("results.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&json)?)
        .with_context(|| format!("could not write {}", path.display()))?;
    let mut csv = String::from(
        "game,level,guest,games,wins,draws,losses,win_rate,win_low,win_high,plies_mean,plies_sd,plies_q1,plies_median,plies_q3,margin_q1,margin_median,margin_q3,perfect_wins,lead_changes_mean,certain_at_median,ai_tells_per_100,guest_tells_per_100,ai_ms_per_move,ai_cpu_ms_per_move,target,pass\n",
    );
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v}"));
    for r in rows {
        let q = r.margin_quartiles;
        csv.push_str(&format!(
            "{},{},\"{}\",{},{},{},{},{:.4},{:.4},{:.4},{:.2},{:.2},{},{},{},{},{},{},{},{:.3},{},{:.2},{:.2},{:.3},{},\"{}\",{}\n",
            r.game,
            r.level,
            r.guest,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.win_rate.value,
            r.win_rate.low,
            r.win_rate.high,
            r.plies_mean,
            r.plies_sd,
            r.plies_quartiles[0],
            r.plies_quartiles[1],
            r.plies_quartiles[2],
            opt(q.map(|q| q[0])),
            opt(q.map(|q| q[1])),
            opt(q.map(|q| q[2])),
            r.perfect_wins,
            r.lead_changes_mean,
            opt(r.certain_at_median),
            r.ai_tells_per_100,
            r.guest_tells_per_100,
            r.ai_ms_per_move,
            r.ai_cpu_ms_per_move.map_or(String::new(), |v| format!("{v:.3}")),
            r.target.clone().unwrap_or_default(),
            r.pass.map_or(String::new(), |p| p.to_string()),
        ));
    }
    let path = dir.join("results.csv");
    std::fs::write(&path, csv).with_context(|| format!("could not write {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let r = Rate::wilson(85, 100);
        assert!((r.value - 0.85).abs() < 1e-12);
        assert!(r.low < 0.85 && r.high > 0.85);
        // Known value: 85/100 → about 0.767–0.907.
        assert!((r.low - 0.767).abs() < 0.002 && (r.high - 0.907).abs() < 0.002, "{r:?}");
        let all = Rate::wilson(20, 20);
        assert_eq!(all.high, 1.0);
        assert!(all.low > 0.8 && all.low < 0.9);
        assert_eq!(Rate::wilson(0, 0).low, 0.0);
    }

    #[test]
    fn lead_changes_and_certainty_come_from_the_curve() {
        let mut g = SimulatedGame {
            result: GuestResult::Win,
            values: vec![-5, 0, 3, -2, -1, 0, 4, 6, 99],
            ..Default::default()
        };
        g.finish_curve();
        assert_eq!(g.lead_changes, 3);
        assert_eq!(g.certain_at, Some(6));
        let mut lost = SimulatedGame { result: GuestResult::Loss, values: vec![1, 2, -3], ..Default::default() };
        lost.finish_curve();
        assert_eq!((lost.lead_changes, lost.certain_at), (1, None));
    }

    #[test]
    fn seeds_differ_per_game_and_guest_and_repeat_per_run() {
        assert_eq!(game_seed(1, 2, 3), game_seed(1, 2, 3));
        assert_ne!(game_seed(1, 2, 3), game_seed(1, 2, 4));
        assert_ne!(game_seed(1, 2, 3), game_seed(1, 3, 3));
        assert_ne!(game_seed(1, 2, 3), game_seed(2, 2, 3));
    }

    #[test]
    fn summaries_count_and_judge() {
        let game = |result, plies| SimulatedGame { result, plies, ai_moves: 10, ai_tells: 1, ..Default::default() };
        let games = vec![
            game(GuestResult::Win, 20),
            game(GuestResult::Win, 30),
            game(GuestResult::Loss, 40),
            game(GuestResult::Draw, 50),
        ];
        // A target as the benchmark sets it (docs/design/hospitality-benchmark.md#targets).
        let s = Summary::of("doubutsu", "settai", "random", &games).with_min_win_rate(0.85, "most games");
        assert_eq!((s.wins, s.draws, s.losses, s.games), (2, 1, 1, 4));
        assert!((s.plies_mean - 35.0).abs() < 1e-9);
        assert!((s.ai_tells_per_100 - 10.0).abs() < 1e-9);
        assert_eq!(s.pass, Some(false));
        assert!(markdown_table(&[s]).contains("FAIL"));
    }

    /// ms/move is on-CPU when every game of the row has it, else wall time marked as such; and
    /// a game journaled before on-CPU time was reads back without it.
    #[test]
    fn ms_per_move_is_on_cpu_unless_a_game_predates_it() {
        let game = |cpu_ms: Option<u64>| SimulatedGame {
            ai_moves: 10,
            ai_time: Duration::from_millis(500),
            ai_cpu_time: cpu_ms.map(Duration::from_millis),
            ..Default::default()
        };
        let both = Summary::of("reversi", "highest", "none", &[game(Some(100)), game(Some(300))]);
        assert_eq!(both.ai_cpu_ms_per_move, Some(20.0));
        assert!(markdown_table(&[both]).contains("| 20.000 |"));
        let mixed = Summary::of("reversi", "highest", "none", &[game(Some(100)), game(None)]);
        assert_eq!(mixed.ai_cpu_ms_per_move, None);
        assert!(markdown_table(&[mixed]).contains("| 50.000 wall |"));

        let old_line = serde_json::to_string(&game(None)).unwrap();
        assert!(!old_line.contains("ai_cpu_time"), "{old_line}");
        let back: SimulatedGame = serde_json::from_str(&old_line).unwrap();
        assert_eq!(back.ai_cpu_time, None);
        let new_line = serde_json::to_string(&game(Some(7))).unwrap();
        let back: SimulatedGame = serde_json::from_str(&new_line).unwrap();
        assert_eq!(back.ai_cpu_time, Some(Duration::from_millis(7)));
    }
}
