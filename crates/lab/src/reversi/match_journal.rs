//! The journal of a long `settai-lab bench match`: each game is appended as it ends, so a match that
//! outlives a session (200 games at 2.4 s is some hours on two cores) is resumed, not replayed.
//!
//! Format: a first line `# settai bench match journal v1; ...` naming everything a game depends
//! on (players, budget, clock, seed, openings, and the players' behaviour fingerprint of
//! [`duel::fingerprint`](super::duel::fingerprint)), a CSV header, then one row per game in the order games ended. A game
//! is a pure function of those settings and its fixture (the node clock), so a resumed match
//! plays the same games as an unbroken one; a journal written for other settings or by an engine
//! that plays differently is refused rather than mixed. The file mechanics (flushed appends, a
//! torn last line cut off) are [`crate::journal`]'s.

use std::path::Path;
use std::time::Duration;

use anyhow::{ensure, Context as _};

use super::duel::{DuelGame, Effort, Fixture, FixtureResult};
use super::openings::Opening;
use crate::journal::JournalFile;
use settai_core::reversi::{parse_moves, Color};

const MAGIC: &str = "# settai bench match journal v1; ";
const HEADER: &str =
    "game,pair,opening,a_colour,a_margin,a_searched,a_nodes,a_thinking_ns,b_searched,b_nodes,b_thinking_ns,moves";

/// An open journal, appended to by the threads that play the games.
pub struct MatchJournal(JournalFile);

impl MatchJournal {
    /// Opens the journal at `path` for the match described by `settings` (one line), creating
    /// it if absent; returns it with the games it already holds among `fixtures`.
    pub fn open(
        path: &Path,
        settings: &str,
        set: &[Opening],
        fixtures: &[Fixture],
    ) -> anyhow::Result<(MatchJournal, Vec<FixtureResult>)> {
        let first = format!("{MAGIC}{settings}");
        let (file, held) = JournalFile::open(path, &[first.clone(), HEADER.to_owned()], |theirs| theirs == first)?;
        if held.torn {
            println!("journal {}: a torn last line (a game cut by a kill) was removed", path.display());
        }
        let prior = read(&held.rows, set, fixtures).with_context(|| format!("journal {}", path.display()))?;
        Ok((MatchJournal(file), prior))
    }

    /// Appends a finished game and flushes it to the file (a failure is kept for [`MatchJournal::finish`]).
    pub fn append(&self, o: &FixtureResult) {
        self.0.append(&row(o));
    }

    /// Whether every game was journaled.
    pub fn finish(self) -> anyhow::Result<()> {
        self.0.finish()
    }
}

/// The row of one game.
fn row(o: &FixtureResult) -> String {
    let [a, b] = o.effort();
    let moves: Vec<String> = o.game.moves.iter().map(ToString::to_string).collect();
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{}",
        o.fixture.index() + 1,
        o.fixture.pair + 1,
        o.fixture.opening + 1,
        if o.fixture.a == Color::Black { "black" } else { "white" },
        o.a_margin(),
        a.searched,
        a.nodes,
        a.thinking.as_nanos(),
        b.searched,
        b.nodes,
        b.thinking.as_nanos(),
        moves.join(" ")
    )
}

/// The games of a journal's rows among `fixtures`, in fixture order, each replayed from its
/// opening and checked against its recorded margin. Games past the requested ones are left for a
/// longer match.
fn read(rows: &[(usize, String)], set: &[Opening], fixtures: &[Fixture]) -> anyhow::Result<Vec<FixtureResult>> {
    let mut seen = vec![false; fixtures.len()];
    let mut out = Vec::new();
    for (n, line) in rows {
        let game = parse_row(line, set, fixtures).with_context(|| format!("line {n}: {line:?}"))?;
        let Some(o) = game else { continue };
        let i = o.fixture.index();
        ensure!(!seen[i], "game {} appears twice", i + 1);
        seen[i] = true;
        out.push(o);
    }
    out.sort_by_key(|o| o.fixture.index());
    Ok(out)
}

/// One row as the game it records; `None` for a game beyond `fixtures`.
fn parse_row(line: &str, set: &[Opening], fixtures: &[Fixture]) -> anyhow::Result<Option<FixtureResult>> {
    let cells: Vec<&str> = line.split(',').collect();
    ensure!(cells.len() == 12, "expected 12 cells, found {}", cells.len());
    let num = |i: usize| -> anyhow::Result<u64> { cells[i].trim().parse().with_context(|| format!("cell {}", i + 1)) };
    let game = usize::try_from(num(0)?)?;
    ensure!(game >= 1, "games count from 1");
    let Some(&fixture) = fixtures.get(game - 1) else { return Ok(None) };
    let colour = if fixture.a == Color::Black { "black" } else { "white" };
    ensure!(
        num(1)? == fixture.pair as u64 + 1 && num(2)? == fixture.opening as u64 + 1 && cells[3] == colour,
        "pair, opening or colour differ from game {game} of this match"
    );
    let moves = parse_moves(cells[11]).context("moves")?;
    let mut pos = set[fixture.opening].position;
    for &m in &moves {
        pos = pos.play(m).with_context(|| format!("{m} is illegal"))?;
    }
    ensure!(pos.is_game_over(), "the game did not end");
    let effort = |at: usize| -> anyhow::Result<Effort> {
        Ok(Effort {
            searched: u32::try_from(num(at)?)?,
            nodes: num(at + 1)?,
            thinking: Duration::from_nanos(num(at + 2)?),
        })
    };
    let (a, b) = (effort(5)?, effort(8)?);
    let effort = if fixture.a == Color::Black { [a, b] } else { [b, a] };
    let outcome = FixtureResult { fixture, game: DuelGame { moves, end: pos, effort } };
    let margin: i32 = cells[4].trim().parse().context("margin")?;
    ensure!(outcome.a_margin() == margin, "the moves give A {:+}, the row says {margin:+}", outcome.a_margin());
    Ok(Some(outcome))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::duel::{fixtures, play_match, MatchSettings, Player};
    use crate::reversi::openings::parse_openings;
    use settai_core::reversi::{Clock, PatternEval, END_NODE_NS};

    /// How many games a journal's text holds.
    fn prior_len(text: &str) -> usize {
        text.lines().skip(2).filter(|l| !l.trim().is_empty()).count()
    }

    fn setup() -> (Vec<Opening>, Vec<Fixture>, MatchSettings) {
        let set = parse_openings("f5 d6 c3 d3 c4 f4\nf5 f6 e6 f4 e3 c5").unwrap();
        let settings = MatchSettings {
            budget: Duration::from_millis(3),
            clocks: [Clock::Nodes { mid_ns: 455.0, end_ns: END_NODE_NS }; 2],
        };
        (set, fixtures(4, 2), settings)
    }

    /// A match broken after some games and resumed from its journal ends with the same games as
    /// one played in one go; other settings, a tampered row or a torn last line are refused.
    #[test]
    fn a_resumed_match_equals_an_unbroken_one_and_foreign_journals_are_refused() {
        let (set, all, settings) = setup();
        let eval = PatternEval::builtin();
        let (a, b) = (Player::Strong(&eval), Player::AlphaBeta(2));
        let whole = play_match(a, b, &set, &all, &settings, 5, |_| ());
        let path = std::env::temp_dir().join(format!("settai-journal-test-{}.csv", std::process::id()));
        let _ = std::fs::remove_file(&path);

        // The first session plays games 1 and 3, then stops.
        let (journal, prior) = MatchJournal::open(&path, "m1", &set, &all).unwrap();
        assert!(prior.is_empty());
        let first = [all[0], all[2]];
        play_match(a, b, &set, &first, &settings, 5, |o| journal.append(o));
        journal.finish().unwrap();

        // The next one finds them and plays the rest.
        let (journal, prior) = MatchJournal::open(&path, "m1", &set, &all).unwrap();
        assert_eq!(prior.iter().map(|o| o.fixture).collect::<Vec<_>>(), first);
        let rest: Vec<Fixture> = all.iter().filter(|f| !first.contains(f)).copied().collect();
        let mut games = play_match(a, b, &set, &rest, &settings, 5, |o| journal.append(o));
        journal.finish().unwrap();
        games.extend(prior);
        games.sort_by_key(|o| o.fixture.index());
        assert_eq!(games, whole);

        // A shorter match takes only its own games from the same journal.
        let (_, two) = MatchJournal::open(&path, "m1", &set, &all[..2]).unwrap();
        assert_eq!(two.len(), 2);

        let other = MatchJournal::open(&path, "m2", &set, &all).err().unwrap();
        assert!(format!("{other:#}").contains("another run"), "{other:#}");

        let text = std::fs::read_to_string(&path).unwrap();
        let last = text.lines().last().unwrap();
        let mut cells: Vec<String> = last.split(',').map(str::to_owned).collect();
        let margin: i32 = cells[4].parse().unwrap();
        cells[4] = (if margin == 0 { 1 } else { -margin }).to_string();
        let tampered = text.replace(last, &cells.join(","));
        std::fs::write(&path, tampered).unwrap();
        let e = MatchJournal::open(&path, "m1", &set, &all).err().unwrap();
        assert!(format!("{e:#}").contains("the row says"), "{e:#}");

        // A line torn by a kill is dropped, and its game is played again.
        std::fs::write(&path, &text[..text.len() - 5]).unwrap();
        let (_, torn) = MatchJournal::open(&path, "m1", &set, &all).unwrap();
        assert_eq!(torn.len(), prior_len(&text) - 1);
        // A whole line that is not a game is refused.
        std::fs::write(&path, format!("{text}1,2,3\n")).unwrap();
        let e = MatchJournal::open(&path, "m1", &set, &all).err().unwrap();
        assert!(format!("{e:#}").contains("expected 12 cells"), "{e:#}");
        std::fs::remove_file(&path).unwrap();
    }
}
