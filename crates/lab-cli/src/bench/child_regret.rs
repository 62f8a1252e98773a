//! `settai-lab bench child-regret`: where settai and the child-length bound part ways, move by move
//! (docs/design/kind-coach.md#where-settai-and-the-bound-part-ways).

use std::path::Path;
use std::sync::Mutex;

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::SeedableRng;
use rayon::prelude::*;

use settai_core::doubutsu::table::{survival_values, CarelessPlayer, Index, Material};
use settai_core::doubutsu::{self as dob};
use settai_lab::hospitality::child_regret::{play_scored, within_the_rule_by_the_bound, Among, Regret, ScoredGame};
use settai_lab::hospitality::doubutsu::DoubutsuGuest;
use settai_lab::hospitality::game_seed;

use super::super::stopwatch::Stopwatch;

/// Plays `games` games of settai against `heeding-child(heed)` (take-backs off) up to `length`
/// plies, scoring each of settai's moves by the bound's exact chances, and prints where the
/// games fell short of the bound. Each game goes to `<out>/child-regret.jsonl` as it ends.
pub(crate) fn child_regret(
    table_path: &Path,
    length: u32,
    heed: f32,
    games: usize,
    seed: u64,
    out: &Path,
) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&heed) {
        anyhow::bail!("--heed takes a chance from 0 to 1, got {heed}");
    }
    let table = settai::cli::doubutsu::open_table(table_path)?;
    let opts = settai::cli::build_report::TerminalReport::new(true).options();
    let index = Index::new(Material::FULL);
    let root = dob::Position::start();
    let player = CarelessPlayer { heed, takebacks: false };
    let passes = length.div_ceil(2);
    println!("the bound's passes for heeding-child({heed}), {length} plies: about {passes} GiB kept");
    let watch = Stopwatch::start();
    let values = survival_values(&index, &root, length, player, &opts)?;
    let bound = values.chance(&index, &root, 0).context("the start is the careless player's")?;
    let (bound_wall, _) = watch.stop();
    println!("bound {bound:.4} ({bound_wall:.0} s)");
    std::fs::create_dir_all(out).with_context(|| format!("could not create {}", out.display()))?;
    let path = out.join("child-regret.jsonl");
    let journal =
        Mutex::new(std::fs::File::create(&path).with_context(|| format!("could not write {}", path.display()))?);
    let guest = DoubutsuGuest::HeedingChild(f64::from(heed));
    let settai = dob::DoubutsuLevel::Settai;
    // Settai as the bot plays, then settai choosing its moves before the first blunder by the
    // bound among those the divergence rule allows: over all the plies, and over the first ten.
    let policies: [(&str, u32, Among); 5] = [
        ("settai", 0, Among::Allowed),
        ("settai, by the bound within the rule", length, Among::Allowed),
        ("settai, by the bound within the rule before ply 10", 10, Among::Allowed),
        ("settai, by the bound among allowed moves of its own outcome before ply 10", 10, Among::SameOutcome),
        ("settai, by the bound among its ties before ply 10", 10, Among::SameScore),
    ];
    for (name, before_ply, among) in policies {
        let bar = ProgressBar::new(games as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left").expect("a fixed template"),
        );
        let watch = Stopwatch::start();
        let scored: Vec<ScoredGame> = (0..games)
            .into_par_iter()
            .map(|i| {
                let mut rng = StdRng::seed_from_u64(game_seed(seed, 0, i));
                let choose = |g: &dob::History, r: &mut StdRng| {
                    let own = settai.choose_move(Some(&table), g, r)?;
                    within_the_rule_by_the_bound(&table, &index, &values, before_ply, among, g, own, r)
                };
                let game = play_scored(&table, &index, &values, root, choose, guest, &mut rng)?;
                let line = serde_json::to_string(&(name, &game))?;
                {
                    use std::io::Write as _;
                    let mut file = journal.lock().expect("no panics while writing");
                    writeln!(file, "{line}")?;
                }
                bar.inc(1);
                Ok(game)
            })
            .collect::<anyhow::Result<_>>()?;
        bar.finish_and_clear();
        let (wall, _) = watch.stop();
        report(name, &Regret::of(bound, &scored), &scored, heed, seed, length, wall);
    }
    Ok(())
}

/// Prints one policy's figures: the losses against the bound, then by ply.
fn report(name: &str, r: &Regret, scored: &[ScoredGame], heed: f32, seed: u64, length: u32, wall: f64) {
    let games = scored.len();
    println!("\n{name} against heeding-child({heed}), {games} games (seed {seed}), {length} plies, {wall:.0} s:\n");
    println!("| | chance of {length} plies |");
    println!("|---|---|");
    println!("| the bound (every policy) | {:.4} |", r.bound);
    println!("| lost before the guest's first blunder, forced by the divergence rule | {:.4} |", r.before_forced);
    println!("| lost before the first blunder, the level's choice within the rule | {:.4} |", r.before_chosen);
    println!("| lost after the first blunder | {:.4} |", r.after);
    println!("| the level, the bound less the losses (estimate) | {:.4} |", r.estimate());
    println!("| the level, games that lasted (share) | {:.4} |", r.reached);
    println!(
        "\nmoves before the first blunder: {} ({} with the bound's best move outside the rule); after: {} ({} short of the best); games ended by repetition before {length} plies: {}",
        r.before_moves, r.before_forbidden, r.after_moves, r.after_short, r.repetitions
    );
    println!("\nBy ply (the level's moves; losses per game):\n");
    println!(
        "| ply | moves before the first blunder | best outside the rule | forced | chosen | moves after | lost after |"
    );
    println!("|---|---|---|---|---|---|---|");
    for ply in (1..length).step_by(2) {
        let at = Regret::of_moves(r.bound, scored, |m| m.ply == ply);
        println!(
            "| {ply} | {} | {} | {:.4} | {:.4} | {} | {:.4} |",
            at.before_moves, at.before_forbidden, at.before_forced, at.before_chosen, at.after_moves, at.after
        );
    }
}
