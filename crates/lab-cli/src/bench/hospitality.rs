//! The hospitality benchmark (`bench hospitality`): a level against the guests, for either game,
//! with its journal to resume from and its report.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context as _};

use settai_core::doubutsu as dob;
use settai_core::{self, reversi};

/// `settai-lab bench hospitality --game doubutsu`.
#[allow(clippy::too_many_arguments, reason = "one argument per command-line flag, as parsed")]
pub(crate) fn hospitality_doubutsu(
    table_path: &Path,
    level: &str,
    guests: &str,
    games: usize,
    seed: u64,
    out: &Path,
    resume: bool,
    takebacks: bool,
) -> anyhow::Result<()> {
    use settai_lab::hospitality::doubutsu::{play_game, DoubutsuGuest, Takebacks, DEFAULT_HEED};
    use settai_lab::hospitality::{self, Summary};
    let level = level
        .parse::<dob::DoubutsuLevel>()
        .ok()
        .with_context(|| format!("unknown doubutsu level {level:?} ({})", dob::DoubutsuLevel::NAMES.join(", ")))?;
    let guests = parse_guests(guests, DoubutsuGuest::all, DoubutsuGuest::parse)?;
    // Every level is measured against the exact values, so the table is needed even for weakest.
    let table = settai::cli::doubutsu::open_table(table_path)?;
    let started = Instant::now();
    let mut settings = format!(
        "game=doubutsu; level={}; guests={:?}; seed={seed}",
        level.as_str(),
        guests.iter().map(|g| g.name()).collect::<Vec<_>>()
    );
    // Said only when on, so that the journals of runs before take-backs existed still match.
    let takebacks = if takebacks { Takebacks::On } else { Takebacks::Off };
    if takebacks == Takebacks::On {
        settings.push_str("; takebacks=on");
    }
    let play = |guest: &DoubutsuGuest, _: usize, rng: &mut rand::rngs::StdRng| {
        play_game(&table, dob::Position::start(), level, *guest, takebacks, rng)
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
                (dob::DoubutsuLevel::Settai, DoubutsuGuest::Perfect) => row,
                (dob::DoubutsuLevel::Settai, DoubutsuGuest::Random | DoubutsuGuest::Child) => {
                    row.with_min_win_rate(0.95, "close games").with_min_median_plies(20.0)
                }
                // The coached child blunders half as often as the child (or more often);
                // one who heeds every mark never blunders, and meets the design's 7 in 10 as
                // `weakest` does.
                (dob::DoubutsuLevel::Settai, DoubutsuGuest::HeedingChild(q)) if *q <= DEFAULT_HEED => {
                    row.with_min_win_rate(0.97, "the coached child")
                }
                (dob::DoubutsuLevel::Settai, DoubutsuGuest::HeedingChild(_)) => {
                    row.with_min_win_rate(0.70, "the design's 7 in 10")
                }
                (dob::DoubutsuLevel::Settai, DoubutsuGuest::Weakest) => {
                    row.with_min_win_rate(0.70, "the design's 7 in 10")
                }
                (dob::DoubutsuLevel::Settai, _) => row.with_min_win_rate(0.85, "most games"),
                // The published rule is a baseline; its design note claims one figure of its own.
                (dob::DoubutsuLevel::SettaiClassic, DoubutsuGuest::Weakest) => {
                    row.with_min_win_rate(0.70, "the design's 7 in 10")
                }
                _ => row,
            }
        })
        .collect();
    let title = match takebacks {
        Takebacks::On => format!("doubutsu {}, take-backs on", level.as_str()),
        Takebacks::Off => format!("doubutsu {}", level.as_str()),
    };
    report(&title, games, seed, started, &rows, &records, out)?;
    let children: Vec<_> = guests
        .iter()
        .zip(&records)
        .map(|(guest, games)| hospitality::child_games::ChildGames::of(&guest.name(), games))
        .collect();
    let table = hospitality::child_games::markdown_table(&children);
    println!("\nHow long the games went, and how visible the gifts were:\n\n{table}");
    let path = out.join("child_games.md");
    std::fs::write(&path, &table).with_context(|| format!("could not write {}", path.display()))
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
    super::super::charts::write_charts(out, rows, records)?;
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

/// `settai-lab bench hospitality --game reversi`.
pub(crate) fn hospitality_reversi(
    level: &str,
    guests: &str,
    games: usize,
    seed: u64,
    budget_scale: f64,
    out: &Path,
    resume: bool,
) -> anyhow::Result<()> {
    use settai_core::reversi::PatternEval;
    use settai_lab::hospitality::reversi::{play_game, LevelUnderTest, ReversiGuest};
    use settai_lab::hospitality::{self, Summary};
    if !(budget_scale > 0.0 && budget_scale <= 10.0) {
        bail!("--budget-scale must be in (0, 10], got {budget_scale}");
    }
    let level = LevelUnderTest::parse(level, budget_scale)
        .with_context(|| format!("unknown reversi level {level:?} ({})", reversi::ReversiLevel::NAMES.join(", ")))?;
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
            let identity = hospitality::gtp::GtpEngine::spawn(command)?.identity()?;
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
                (reversi::ReversiLevel::Standard, ReversiGuest::NoneAt(2400)) => row.with_median_margin(2.0, 12.0),
                (reversi::ReversiLevel::Standard, _) => {
                    let row = row.with_min_win_rate(0.90, "close games").with_median_margin(2.0, 12.0);
                    if reads {
                        row.with_certain_no_earlier_than(40.0)
                    } else {
                        row
                    }
                }
                (reversi::ReversiLevel::Highest, _) if up_to_ab6 => row.with_min_win_rate(0.99, "most games"),
                // A baseline, reported only: the published rule promises close games that the
                // human wins by about 6 against anyone, but nothing here was tuned to hold it
                // (docs/design/hospitality-benchmark.md#targets).
                (reversi::ReversiLevel::StandardClassic, _) => row,
                (reversi::ReversiLevel::NoMercy, ReversiGuest::Foundation | ReversiGuest::AlphaBeta(6)) => {
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
        .map(|(guest, games)| hospitality::diagnosis::Diagnosis::of(&guest.name(), games))
        .collect();
    let table = hospitality::diagnosis::markdown_table(&diagnosis);
    println!(
        "\nWhere the lead went (discs, from the guest's side; gifts by the strong engine's judgement):\n\n{table}"
    );
    let path = out.join("diagnosis.md");
    std::fs::write(&path, &table).with_context(|| format!("could not write {}", path.display()))
}
