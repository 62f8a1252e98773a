//! The journal of a long hospitality run (`settai bench hospitality --resume`): each game is
//! appended as it ends, so a run at the bot's full thinking time that outlives a session is
//! resumed instead of replayed.
//!
//! Format: a first line `# settai bench hospitality journal v1; ...` naming everything a game
//! depends on (game, level, thinking time, guests, seed, and the fingerprint of the source the
//! games are played by, made by `build.rs`), then one JSON object per game (`guest`: its place
//! in the run's list, `index`: its number, `game`: the record). A game is a pure function of
//! those (node clocks, seeded per game), so a resumed run gives the games of an unbroken one; a
//! journal of other settings or another build is refused rather than mixed.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context as _};
use serde::{Deserialize, Serialize};

use super::SimulatedGame;

const MAGIC: &str = "# settai bench hospitality journal v1; ";

/// The fingerprint of the game cores, guests and assets this binary was built from.
pub const SOURCE: &str = env!("SETTAI_BENCH_SOURCE");

#[derive(Serialize, Deserialize)]
struct Row {
    guest: usize,
    index: usize,
    game: SimulatedGame,
}

/// An open journal: the games it held when opened, and the file new ones go to.
pub struct Journal {
    path: PathBuf,
    held: Mutex<HashMap<(usize, usize), SimulatedGame>>,
    file: Mutex<File>,
    failed: Mutex<Option<anyhow::Error>>,
}

impl Journal {
    /// Opens the journal at `path` for the run described by `settings` (one line), creating
    /// it if absent.
    pub fn open(path: &Path, settings: &str) -> anyhow::Result<Journal> {
        let first = format!("{MAGIC}{settings}");
        let mut held = HashMap::new();
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let mut lines = text.lines();
                let theirs = lines.next().unwrap_or_default();
                if theirs != first {
                    bail!(
                        "journal {} was written for another run or build:\n  it holds: {theirs}\n  this run: {first}\n\
                         (use another --out directory, or the build and settings that wrote it)",
                        path.display()
                    );
                }
                for (n, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                    let row: Row = serde_json::from_str(line).with_context(|| {
                        format!(
                            "journal {} row {}: not a game (a torn last line may be deleted)",
                            path.display(),
                            n + 1
                        )
                    })?;
                    if held.insert((row.guest, row.index), row.game).is_some() {
                        bail!("journal {}: game {} of guest {} appears twice", path.display(), row.index, row.guest);
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::write(path, format!("{first}\n"))
                    .with_context(|| format!("could not create {}", path.display()))?;
            }
            Err(e) => return Err(e).with_context(|| format!("could not read {}", path.display())),
        }
        let file =
            OpenOptions::new().append(true).open(path).with_context(|| format!("could not open {}", path.display()))?;
        Ok(Journal { path: path.to_owned(), held: Mutex::new(held), file: Mutex::new(file), failed: Mutex::new(None) })
    }

    /// How many games the journal held when opened and are not yet taken.
    pub fn held(&self) -> usize {
        lock(&self.held).len()
    }

    /// The game `index` of guest number `guest`, if the journal holds it.
    pub fn take(&self, guest: usize, index: usize) -> Option<SimulatedGame> {
        lock(&self.held).remove(&(guest, index))
    }

    /// Appends a finished game (flushed to disk). A failure is kept for [`Journal::finish`]:
    /// the run goes on, but its end reports that the journal is incomplete.
    pub fn append(&self, guest: usize, index: usize, game: &SimulatedGame) {
        let line = serde_json::to_string(&Row { guest, index, game: game.clone() }).expect("a game serializes");
        let mut file = lock(&self.file);
        if let Err(e) = writeln!(file, "{line}").and_then(|()| file.sync_data()) {
            lock(&self.failed)
                .get_or_insert(anyhow::Error::new(e).context(format!("could not append to {}", self.path.display())));
        }
    }

    /// Whether every game was journaled.
    pub fn finish(self) -> anyhow::Result<()> {
        match self.failed.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
            Some(e) => Err(e.context("the games were played but not all were journaled")),
            None => Ok(()),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::super::{run, GuestResult};
    use super::*;
    use rand::Rng;

    /// A stand-in for a game: its record is a function of its seed (as a real game is).
    fn play(guest: &u32, i: usize, rng: &mut rand::rngs::StdRng) -> Result<SimulatedGame, ()> {
        let plies = rng.gen_range(10..60);
        let mut g = SimulatedGame {
            result: if i.is_multiple_of(3) { GuestResult::Loss } else { GuestResult::Win },
            plies,
            margin: Some(*guest as i32 + i as i32),
            values: (0..plies as i32).map(|v| v - 20).collect(),
            ai_time: std::time::Duration::from_micros(rng.gen_range(0..1_000_000)),
            moves: vec![format!("m{i}")],
            ai_gifts: vec![(3, 4)],
            guest_strength: Some(0.5),
            ending: Some("resigned".into()),
            ..SimulatedGame::default()
        };
        g.finish_curve();
        Ok(g)
    }

    /// A run broken after some games and resumed from its journal gives the records of an
    /// unbroken run, without replaying the journaled games; another run's journal is refused.
    #[test]
    fn a_resumed_run_equals_an_unbroken_one_and_other_runs_are_refused() {
        let dir = std::env::temp_dir().join(format!("settai-hosp-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("journal.jsonl");
        let _ = std::fs::remove_file(&path);
        let guests = [1u32, 7];
        let whole = run(&guests, 5, 3, false, None, play).unwrap();

        // The first session plays three games per guest.
        let j = Journal::open(&path, "s1").unwrap();
        let first = run(&guests, 3, 3, false, Some(&j), play).unwrap();
        j.finish().unwrap();
        assert_eq!(first.iter().map(|g| &g[..]).collect::<Vec<_>>(), whole.iter().map(|g| &g[..3]).collect::<Vec<_>>());

        // The next plays only the missing four.
        let j = Journal::open(&path, "s1").unwrap();
        assert_eq!(j.held(), 6);
        let played = std::sync::atomic::AtomicUsize::new(0);
        let resumed = run(&guests, 5, 3, false, Some(&j), |g, i, rng| {
            played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            play(g, i, rng)
        })
        .unwrap();
        j.finish().unwrap();
        assert_eq!(played.into_inner(), 4);
        assert_eq!(resumed, whole);

        let e = Journal::open(&path, "s2").err().unwrap();
        assert!(format!("{e:#}").contains("another run"), "{e:#}");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 9]).unwrap();
        let e = Journal::open(&path, "s1").err().unwrap();
        assert!(format!("{e:#}").contains("row 10"), "{e:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
