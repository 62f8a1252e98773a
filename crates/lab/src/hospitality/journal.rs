//! The journal of a long hospitality run (`settai-lab bench hospitality --resume`): each game is
//! appended as it ends, so a run at the bot's full thinking time that outlives a session is
//! resumed instead of replayed.
//!
//! Format: a first line `# settai bench hospitality journal v2; ...` naming the run's settings
//! (game, level, thinking time, guests, seed), then one JSON object per game (`guest`: its place
//! in the run's list, `index`: its number, `game`: the record). A game is a pure function of
//! those (node clocks, seeded per game), so a resumed run gives the games of an unbroken one.
//! That the build resuming a run plays as the one that wrote it is checked by playing again the
//! first journaled game of each guest ([`HospitalityJournal::verify`]): a build whose rules, levels, guests
//! or weights changed the games is refused, while one changed elsewhere (a comment, a test, the
//! Discord layer) goes on. Journals of v1 named a hash of the source instead; they are taken on
//! the same replay check. The file mechanics are [`crate::journal`]'s.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use anyhow::{bail, Context as _};
use rand::{rngs::StdRng, SeedableRng as _};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{game_seed, SimulatedGame};

const MAGIC: &str = "# settai bench hospitality journal v2; ";
/// v1 journals: the settings, then `; source=<hash of the source>`, which the replay check supersedes.
const MAGIC_V1: &str = "# settai bench hospitality journal v1; ";

#[derive(Serialize, Deserialize)]
struct Row {
    guest: usize,
    index: usize,
    game: SimulatedGame,
}

/// An open journal: the games it held when opened, and the file new ones go to.
pub struct HospitalityJournal {
    file: crate::journal::JournalFile,
    held: Mutex<HashMap<(usize, usize), SimulatedGame>>,
    /// The first journaled game of each guest, replayed by [`HospitalityJournal::verify`].
    witnesses: Vec<(usize, usize, SimulatedGame)>,
}

impl HospitalityJournal {
    /// Opens the journal at `path` for the run described by `settings` (one line), creating
    /// it if absent.
    pub fn open(path: &Path, settings: &str) -> anyhow::Result<HospitalityJournal> {
        let first = format!("{MAGIC}{settings}");
        let accepts = |theirs: &str| {
            theirs == first
                || theirs
                    .strip_prefix(MAGIC_V1)
                    .and_then(|rest| rest.rsplit_once("; source="))
                    .is_some_and(|(theirs, _)| theirs == settings)
        };
        let (file, found) = crate::journal::JournalFile::open(path, std::slice::from_ref(&first), accepts)?;
        if found.torn {
            println!("journal {}: a torn last line (a game cut by a kill) was removed", path.display());
        }
        let mut held = HashMap::new();
        for (n, line) in &found.rows {
            let row: Row = serde_json::from_str(line)
                .with_context(|| format!("journal {} line {n}: not a game", path.display()))?;
            if held.insert((row.guest, row.index), row.game).is_some() {
                bail!("journal {}: game {} of guest {} appears twice", path.display(), row.index, row.guest);
            }
        }
        let mut firsts: HashMap<usize, usize> = HashMap::new();
        for &(guest, index) in held.keys() {
            let i = firsts.entry(guest).or_insert(index);
            *i = (*i).min(index);
        }
        let mut witnesses: Vec<_> = firsts.into_iter().map(|(g, i)| (g, i, held[&(g, i)].clone())).collect();
        witnesses.sort_by_key(|&(g, i, _)| (g, i));
        Ok(HospitalityJournal { file, held: Mutex::new(held), witnesses })
    }

    /// How many games the journal held when opened and are not yet taken.
    pub fn held(&self) -> usize {
        lock(&self.held).len()
    }

    /// Checks that this build plays as the one that wrote the journal: plays again the first
    /// journaled game of each of the run's `guests` (seeded as [`super::run`] seeds it) and
    /// compares it with the record, all but the thinking time. `play` is the run's.
    pub fn verify<G: Sync, E: std::fmt::Debug + Send>(
        &self,
        guests: &[G],
        seed: u64,
        play: impl Fn(&G, usize, &mut StdRng) -> Result<SimulatedGame, E> + Sync,
    ) -> anyhow::Result<()> {
        let witnesses: Vec<_> = self.witnesses.iter().filter(|(g, _, _)| *g < guests.len()).collect();
        witnesses.into_par_iter().try_for_each(|(g, i, kept)| {
            let mut rng = StdRng::seed_from_u64(game_seed(seed, *g, *i));
            let again = play(&guests[*g], *i, &mut rng)
                .map_err(|e| anyhow::anyhow!("game {i} of guest {g} could not be replayed: {e:?}"))?;
            let timeless =
                |game: &SimulatedGame| SimulatedGame { ai_time: Default::default(), ai_cpu_time: None, ..game.clone() };
            if timeless(&again) != timeless(kept) {
                bail!(
                    "this build plays game {i} of guest {g} otherwise than the build that wrote the journal \
                     ({}): resume with that build, or start a new run",
                    differences(&timeless(&again), &timeless(kept)).join("; ")
                );
            }
            Ok(())
        })
    }

    /// The game `index` of guest number `guest`, if the journal holds it.
    pub fn take(&self, guest: usize, index: usize) -> Option<SimulatedGame> {
        lock(&self.held).remove(&(guest, index))
    }

    /// Appends a finished game (flushed to disk). A failure is kept for [`HospitalityJournal::finish`]:
    /// the run goes on, but its end reports that the journal is incomplete.
    pub fn append(&self, guest: usize, index: usize, game: &SimulatedGame) {
        let line = serde_json::to_string(&Row { guest, index, game: game.clone() }).expect("a game serializes");
        self.file.append(&line);
    }

    /// Whether every game was journaled.
    pub fn finish(self) -> anyhow::Result<()> {
        self.file.finish()
    }
}

/// The fields in which `again` differs from `kept`, each with where and how (for an array, its
/// first differing place), so that a refused resume says what changed.
fn differences(again: &SimulatedGame, kept: &SimulatedGame) -> Vec<String> {
    let fields = |g: &SimulatedGame| match serde_json::to_value(g).expect("a game serializes") {
        serde_json::Value::Object(map) => map,
        other => unreachable!("a game serializes as an object, not {other}"),
    };
    let (again, kept) = (fields(again), fields(kept));
    let mut out = Vec::new();
    for (name, now) in &again {
        let then = kept.get(name).unwrap_or(&serde_json::Value::Null);
        if now == then {
            continue;
        }
        out.push(match (now, then) {
            (serde_json::Value::Array(a), serde_json::Value::Array(b)) => {
                let at = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
                let show = |v: &Vec<serde_json::Value>| v.get(at).map_or("nothing".to_string(), |x| x.to_string());
                format!("{name}[{at}] is {} now, was {} (lengths {} and {})", show(a), show(b), a.len(), b.len())
            }
            _ => format!("{name} is {now} now, was {then}"),
        });
    }
    out
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
    fn play(guest: &u32, i: usize, rng: &mut StdRng) -> Result<SimulatedGame, ()> {
        let plies = rng.gen_range(10..60);
        let mut g = SimulatedGame {
            result: if i.is_multiple_of(3) { GuestResult::Loss } else { GuestResult::Win },
            plies,
            margin: Some(*guest as i32 + i as i32),
            values: (0..plies as i32).map(|v| v - 20).collect(),
            ai_time: std::time::Duration::from_micros(rng.gen_range(0..1_000_000)),
            ai_cpu_time: Some(std::time::Duration::from_micros(rng.gen_range(0..1_000_000))),
            moves: vec![format!("m{i}")],
            ai_gifts: vec![(3, 4)],
            guest_strength: Some(0.5),
            ending: Some("resigned".into()),
            ..SimulatedGame::default()
        };
        g.finish_curve();
        Ok(g)
    }

    /// A directory of this test's own and the journal path in it, with no journal there yet.
    fn fresh_journal(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("journal.jsonl");
        let _ = std::fs::remove_file(&path);
        (dir, path)
    }

    /// A journaled game reads back bit for bit, floats included: the replay check compares
    /// exactly, and a strength estimate one unit in the last place off once refused a resume.
    #[test]
    fn a_journaled_game_reads_back_exactly() {
        let (dir, path) = fresh_journal("settai-hosp-journal-f64");
        let mut rng = StdRng::seed_from_u64(15);
        let games: Vec<SimulatedGame> = (0..200)
            .map(|i| {
                let mut g = play(&1, i, &mut rng).unwrap();
                g.ai_time = std::time::Duration::ZERO;
                // 0.9069134812082701 is the value that came back as 0.90691348120827.
                g.guest_strength = Some(if i == 0 { 0.9069134812082701 } else { rng.gen::<f64>() });
                g
            })
            .collect();
        let j = HospitalityJournal::open(&path, "f").unwrap();
        for (i, g) in games.iter().enumerate() {
            j.append(0, i, g);
        }
        j.finish().unwrap();
        let j = HospitalityJournal::open(&path, "f").unwrap();
        for (i, g) in games.iter().enumerate() {
            let back = j.take(0, i).unwrap();
            assert_eq!(back.guest_strength.map(f64::to_bits), g.guest_strength.map(f64::to_bits), "game {i}");
            assert_eq!(&back, g, "game {i}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A run broken after some games and resumed from its journal gives the records of an
    /// unbroken run, without replaying the journaled games; another build's games, another run's
    /// journal and a bad line are refused, a torn last line cut off, a v1 journal taken.
    #[test]
    fn a_resumed_run_equals_an_unbroken_one_and_other_runs_are_refused() {
        let (dir, path) = fresh_journal("settai-hosp-journal");
        let guests = [1u32, 7];
        let whole = run(&guests, 5, 3, false, None, play).unwrap();

        // The first session plays three games per guest.
        let j = HospitalityJournal::open(&path, "s1").unwrap();
        let first = run(&guests, 3, 3, false, Some(&j), play).unwrap();
        j.finish().unwrap();
        assert_eq!(first.iter().map(|g| &g[..]).collect::<Vec<_>>(), whole.iter().map(|g| &g[..3]).collect::<Vec<_>>());

        // The next plays only the missing four.
        let j = HospitalityJournal::open(&path, "s1").unwrap();
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

        // The journal's build is recognised by its games, and another build's refused.
        let j = HospitalityJournal::open(&path, "s1").unwrap();
        j.verify(&guests, 3, play).unwrap();
        let e = j.verify(&guests, 3, |g, i, rng| play(&(g + 1), i, rng)).err().unwrap();
        assert!(format!("{e:#}").contains("otherwise than the build"), "{e:#}");
        // It names what changed (here the margin, a function of the guest) and nothing else.
        let named = guests.iter().any(|g| format!("{e:#}").contains(&format!("margin is {} now, was {g}", g + 1)));
        assert!(named && !format!("{e:#}").contains("values"), "{e:#}");
        // A journal of other settings is refused.
        let e = HospitalityJournal::open(&path, "s2").err().unwrap();
        assert!(format!("{e:#}").contains("another run"), "{e:#}");

        // A v1 journal (settings, then the source's hash) is taken on the replay check.
        let text = std::fs::read_to_string(&path).unwrap();
        let v1 = text.replacen(&format!("{MAGIC}s1"), &format!("{MAGIC_V1}s1; source=0123abcd"), 1);
        std::fs::write(&path, &v1).unwrap();
        let j = HospitalityJournal::open(&path, "s1").unwrap();
        assert_eq!(j.held(), 10);
        j.verify(&guests, 3, play).unwrap();
        assert!(HospitalityJournal::open(&path, "s2").is_err());

        // A line torn by a kill is cut off and its game played again; a whole bad line is refused.
        std::fs::write(&path, &v1[..v1.len() - 9]).unwrap();
        assert_eq!(HospitalityJournal::open(&path, "s1").unwrap().held(), 9);
        std::fs::write(&path, format!("{}{{\"guest\": 0}}\n", &v1)).unwrap();
        let e = HospitalityJournal::open(&path, "s1").err().unwrap();
        assert!(format!("{e:#}").contains("line 12: not a game"), "{e:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
