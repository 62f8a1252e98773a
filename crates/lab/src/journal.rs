//! The journal of a long benchmark run (`bench match --journal`, `bench hospitality --resume`):
//! a text file whose first lines name the run, then one line per finished game, appended and
//! flushed to disk as the game ends, so that a run longer than a working session is resumed, not
//! replayed. What a line holds, and how a resumed run checks that its build plays as the one that
//! wrote the journal, is each benchmark's own business; this file keeps the file mechanics.
//!
//! A process killed while writing leaves a last line without its newline: that torn line is
//! dropped (the file is cut back to the last whole line) and its game is played again. Any other
//! line that does not parse is the benchmark's to refuse.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context as _};

/// An open journal, appended to by the threads that play the games.
pub struct JournalFile {
    path: PathBuf,
    file: Mutex<File>,
    failed: Mutex<Option<anyhow::Error>>,
}

/// What [`JournalFile::open`] found in an existing file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// The first line as the file has it (it matched what the run accepts).
    pub first: String,
    /// The rows after the header, non-blank, with their line numbers (from 1, counting the header).
    pub rows: Vec<(usize, String)>,
    /// Whether a torn last line was cut off.
    pub torn: bool,
}

impl JournalFile {
    /// Opens the journal at `path` for a run whose header is `header` (its first line names the
    /// run; the rest, e.g. a CSV header, follow it), creating the file if absent. An existing
    /// file is taken when its first line passes `accepts` and the other header lines equal
    /// `header`'s; else it is refused, naming both.
    pub fn open(path: &Path, header: &[String], accepts: impl Fn(&str) -> bool) -> anyhow::Result<(JournalFile, Held)> {
        let held = match std::fs::read_to_string(path) {
            Ok(mut text) => {
                let torn = !text.is_empty() && !text.ends_with('\n');
                let whole = text.rfind('\n').map_or(0, |i| i + 1);
                text.truncate(whole);
                let mut lines = text.lines();
                let first = lines.next().unwrap_or_default().to_owned();
                if !accepts(&first) {
                    bail!(
                        "journal {} was written for another run or build:\n  it holds: {first}\n  this run: {}\n\
                         (use another journal, or the build and settings that wrote it)",
                        path.display(),
                        header[0]
                    );
                }
                for (n, want) in header.iter().enumerate().skip(1) {
                    if lines.next() != Some(want.as_str()) {
                        bail!("journal {}: line {} is not {want:?}", path.display(), n + 1);
                    }
                }
                let rows = lines
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                    .map(|(n, l)| (n + header.len() + 1, l.to_owned()))
                    .collect();
                // Only a journal of this run is touched: its torn last line goes.
                if torn {
                    let file = OpenOptions::new()
                        .write(true)
                        .open(path)
                        .with_context(|| format!("could not open {}", path.display()))?;
                    file.set_len(whole as u64)
                        .and_then(|()| file.sync_data())
                        .with_context(|| format!("could not cut the torn last line of {}", path.display()))?;
                }
                Held { first, rows, torn }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let text: String = header.iter().map(|l| format!("{l}\n")).collect();
                std::fs::write(path, text).with_context(|| format!("could not create {}", path.display()))?;
                Held { first: header[0].clone(), ..Held::default() }
            }
            Err(e) => return Err(e).with_context(|| format!("could not read {}", path.display())),
        };
        let file =
            OpenOptions::new().append(true).open(path).with_context(|| format!("could not open {}", path.display()))?;
        Ok((JournalFile { path: path.to_owned(), file: Mutex::new(file), failed: Mutex::new(None) }, held))
    }

    /// Appends one row (a line without its newline) and flushes it to disk. A failure is kept
    /// for [`JournalFile::finish`]: the run goes on, and its end reports the journal incomplete.
    pub fn append(&self, row: &str) {
        debug_assert!(!row.contains('\n'), "a row is one line");
        let mut file = lock(&self.file);
        // One write for the line and its newline, so that a kill leaves at most a torn last line.
        if let Err(e) = file.write_all(format!("{row}\n").as_bytes()).and_then(|()| file.sync_data()) {
            lock(&self.failed)
                .get_or_insert(anyhow::Error::new(e).context(format!("could not append to {}", self.path.display())));
        }
    }

    /// Whether every row was written.
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
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("settai-journal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    fn header() -> Vec<String> {
        vec!["# run a".into(), "col1,col2".into()]
    }

    /// Rows appended by one opening are held by the next, in order and with their line numbers.
    #[test]
    fn rows_written_are_held_on_reopening() {
        let path = temp("rows");
        let (j, held) = JournalFile::open(&path, &header(), |l| l == "# run a").unwrap();
        assert_eq!(held, Held { first: "# run a".into(), rows: vec![], torn: false });
        j.append("1,x");
        j.append("2,y");
        j.finish().unwrap();
        let (j, held) = JournalFile::open(&path, &header(), |l| l == "# run a").unwrap();
        assert_eq!(held.rows, vec![(3, "1,x".to_owned()), (4, "2,y".to_owned())]);
        j.append("3,z");
        drop(j);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "# run a\ncol1,col2\n1,x\n2,y\n3,z\n");
        std::fs::remove_file(&path).unwrap();
    }

    /// Another run's journal, or one with another column header, is refused and left as it was.
    #[test]
    fn another_runs_journal_is_refused_untouched() {
        let path = temp("other");
        std::fs::write(&path, "# run b\ncol1,col2\n1,x\n").unwrap();
        let e = JournalFile::open(&path, &header(), |l| l == "# run a").err().unwrap();
        let e = format!("{e:#}");
        assert!(e.contains("another run") && e.contains("# run b") && e.contains("# run a"), "{e}");
        std::fs::write(&path, "# run a\ncol1,col3\n1,x").unwrap();
        let e = JournalFile::open(&path, &header(), |l| l == "# run a").err().unwrap();
        assert!(format!("{e:#}").contains("line 2"), "{e:#}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "# run a\ncol1,col3\n1,x");
        std::fs::remove_file(&path).unwrap();
    }

    /// A line torn by a kill is cut off, and the rows appended after it start on a line of their own.
    #[test]
    fn a_torn_last_line_is_cut_off() {
        let path = temp("torn");
        std::fs::write(&path, "# run a\ncol1,col2\n1,x\n2,y-half").unwrap();
        let (j, held) = JournalFile::open(&path, &header(), |l| l == "# run a").unwrap();
        assert!(held.torn);
        assert_eq!(held.rows, vec![(3, "1,x".to_owned())]);
        j.append("2,y");
        drop(j);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "# run a\ncol1,col2\n1,x\n2,y\n");
        std::fs::remove_file(&path).unwrap();
    }

    /// A failed append does not stop the run but makes its end an error.
    #[test]
    fn a_failed_append_is_reported_at_the_end() {
        let path = temp("fail");
        let (mut j, _) = JournalFile::open(&path, &header(), |_| true).unwrap();
        // A read-only handle on the same file: every write fails.
        j.file = Mutex::new(File::open(&path).unwrap());
        j.append("1,x");
        let e = j.finish().err().unwrap();
        assert!(format!("{e:#}").contains("not all were journaled"), "{e:#}");
        std::fs::remove_file(&path).unwrap();
    }
}
