//! `settai-lab solve reversi`: exact solving of one position, or of each position of an FFO suite
//! file checked against its published answers.

use std::path::PathBuf;

use anyhow::{bail, Context as _};
use settai_core::reversi;

use super::stopwatch::{describe, Stopwatch};

/// A position to solve: its name, the position, and the reference (score, best moves) if known.
type SolveCase = (String, reversi::Position, Option<(i32, Vec<reversi::Move>)>);

/// `settai-lab solve reversi`: exact solving of one position, or of each position of an FFO file.
/// The positions of an FFO suite file: (name, position, exact score, best moves).
/// One FFO test: name, position, exact score for the side to move, the best moves.
pub(super) type FfoCase = (String, reversi::Position, i32, Vec<reversi::Move>);

pub(super) fn ffo_cases(path: &std::path::Path) -> anyhow::Result<Vec<FfoCase>> {
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

pub(super) fn solve(position: Option<String>, ffo: Option<PathBuf>) -> anyhow::Result<()> {
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
