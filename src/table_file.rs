//! The doubutsu table on disk: written whole to a temporary name and renamed into place, and
//! memory-mapped read-only at run time. The bytes' format and the probe are the core's
//! ([`TableBytes`]); this room adds the file, and errors that name it and the command that
//! rebuilds it. The keep-going book ([`KeepGoingBook`]) lives beside the table
//! ([`book_path`]), read whole at open when it is there; without it settai plays as before
//! (docs/design/doubutsu-settai.md#deviation-7-choosing-early-moves-by-the-keep-going-book).

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use settai_core::doubutsu::table::format::{header, FormatError, HEADER_LEN};
use settai_core::doubutsu::table::index::Index;
use settai_core::doubutsu::table::keep_going_book::KeepGoingBook;
use settai_core::doubutsu::table::{ProbeError, Table, TableBytes, TableStats, Tablebase, Value};
use settai_core::doubutsu::Position;

/// The command that rebuilds the table; named in every error about the file.
pub const REBUILD_COMMAND: &str = "settai tablebase build";
/// The command that rebuilds the keep-going book alone; named in every error about its file.
pub const REBUILD_BOOK_COMMAND: &str = "settai tablebase book";

/// The keep-going book's file beside the table at `table` (`doubutsu.tb` → `doubutsu.book`).
pub fn book_path(table: &Path) -> PathBuf {
    table.with_extension("book")
}

/// Why the keep-going book cannot be used (settai then plays without it). Every message names
/// the path and the command that rebuilds the book.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file does not exist.
    #[error("keep-going book {path} is missing; build it with `{REBUILD_BOOK_COMMAND}`")]
    Missing {
        /// The path that was read.
        path: PathBuf,
    },
    /// Not a book, another version, damaged, or of another material than the table.
    #[error("keep-going book {path} is unusable ({reason}); rebuild it with `{REBUILD_BOOK_COMMAND}`")]
    Unusable {
        /// The path that was read.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing failed.
    #[error("keep-going book {path}: {source}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
}

/// Reads the book at `path`, checking its bytes.
pub fn read_book(path: &Path) -> Result<KeepGoingBook, BookError> {
    let bytes = std::fs::read(path).map_err(|source| match source.kind() {
        io::ErrorKind::NotFound => BookError::Missing { path: path.to_path_buf() },
        _ => BookError::Io { path: path.to_path_buf(), source },
    })?;
    KeepGoingBook::from_bytes(&bytes)
        .map_err(|e| BookError::Unusable { path: path.to_path_buf(), reason: e.to_string() })
}

/// Writes `book` to `path` (to a temporary name first, then renamed into place).
pub fn write_book(book: &KeepGoingBook, path: &Path) -> Result<(), BookError> {
    write_whole(path, &[&book.to_bytes()]).map_err(|source| BookError::Io { path: path.to_path_buf(), source })
}

/// Writes `parts` to `path` whole: to a temporary name first, synced, then renamed into place,
/// so that a crash never leaves a half-written file under `path`. The temporary name is per
/// process: two `serve`s on one machine may build at once (the bytes are the same).
fn write_whole(path: &Path, parts: &[&[u8]]) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    let mut f = File::create(&tmp)?;
    for part in parts {
        f.write_all(part)?;
    }
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// Why the table file cannot be used. Every message names the path and the command that
/// rebuilds the file.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file does not exist.
    #[error("doubutsu table {path} is missing; build it with `{REBUILD_COMMAND}`")]
    Missing {
        /// The path that was opened.
        path: PathBuf,
    },
    /// The file is shorter (or longer) than its header says.
    #[error(
        "doubutsu table {path} is truncated ({actual} bytes, expected {expected}); rebuild it with `{REBUILD_COMMAND}`"
    )]
    Truncated {
        /// The path that was opened.
        path: PathBuf,
        /// The size the header implies.
        expected: u64,
        /// The size on disk.
        actual: u64,
    },
    /// Not a table file, another version, or inconsistent contents.
    #[error("doubutsu table {path} is corrupt ({reason}); rebuild it with `{REBUILD_COMMAND}`")]
    Corrupt {
        /// The path that was opened.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing failed.
    #[error("doubutsu table {path}: {source}; rebuild it with `{REBUILD_COMMAND}` if it persists")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
}

impl TableError {
    fn of_format(path: &Path, e: FormatError) -> TableError {
        let path = path.to_path_buf();
        match e {
            FormatError::Truncated { expected, actual } => TableError::Truncated { path, expected, actual },
            FormatError::Corrupt(reason) => TableError::Corrupt { path, reason },
        }
    }
}

/// Writes `solved`'s table file (to a temporary name first, then renamed into place, so a
/// crash never leaves a half-written table under `path`).
pub fn write(solved: &Tablebase, path: &Path) -> Result<(), TableError> {
    write_whole(path, &[&header(solved), solved.values()])
        .map_err(|source| TableError::Io { path: path.to_path_buf(), source })
}

/// The table file, memory-mapped. Opening checks the header and the size; call
/// [`TableFile::verify`] (in the background) to check the values' checksum. The keep-going
/// book beside it is read at open when it is there, or attached later
/// ([`TableFile::attach_book`]).
pub struct TableFile {
    path: PathBuf,
    bytes: TableBytes<memmap2::Mmap>,
    book: OnceLock<KeepGoingBook>,
}

impl TableFile {
    /// Maps `path` and checks its header and size.
    pub fn open(path: impl AsRef<Path>) -> Result<TableFile, TableError> {
        let path = path.as_ref().to_path_buf();
        let file = File::open(&path).map_err(|source| match source.kind() {
            io::ErrorKind::NotFound => TableError::Missing { path: path.clone() },
            _ => TableError::Io { path: path.clone(), source },
        })?;
        let actual = file.metadata().map_err(|source| TableError::Io { path: path.clone(), source })?.len();
        if actual < HEADER_LEN as u64 {
            return Err(TableError::Truncated { path, expected: HEADER_LEN as u64, actual });
        }
        // SAFETY: the file is opened read-only; the builder replaces it by rename, never in
        // place, so the mapping is not modified under us by settai itself.
        let map =
            unsafe { memmap2::Mmap::map(&file) }.map_err(|source| TableError::Io { path: path.clone(), source })?;
        let bytes = TableBytes::parse(map).map_err(|e| TableError::of_format(&path, e))?;
        Ok(TableFile { path, bytes, book: OnceLock::new() })
    }

    /// [`TableFile::open`], then the book beside it ([`book_path`]): the table, and why the
    /// book could not be attached, if it could not (settai plays without it meanwhile).
    pub fn open_with_book(path: impl AsRef<Path>) -> Result<(TableFile, Result<(), BookError>), TableError> {
        let table = TableFile::open(path)?;
        let book_file = book_path(&table.path);
        let attached = read_book(&book_file).and_then(|book| table.attach_book(book, &book_file));
        Ok((table, attached))
    }

    /// Attaches `book` (read from `from`) when it is of the table's material, is the book this
    /// build makes for that material, and none is attached yet.
    pub fn attach_book(&self, book: KeepGoingBook, from: &Path) -> Result<(), BookError> {
        if book.material() != self.stats().material {
            return Err(BookError::Unusable {
                path: from.to_path_buf(),
                reason: format!("material {:?}, the table's is {:?}", book.material().0, self.stats().material.0),
            });
        }
        // An older build's book: rebuilt as this build makes it (the bot does so in the
        // background), rather than read with chances settai no longer expects.
        if let Some(reason) = book.differs_from_the_bots() {
            return Err(BookError::Unusable { path: from.to_path_buf(), reason });
        }
        let _ = self.book.set(book);
        Ok(())
    }

    /// The keep-going book, once attached.
    pub fn book(&self) -> Option<&KeepGoingBook> {
        self.book.get()
    }

    /// The path the table was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Header figures.
    pub fn stats(&self) -> TableStats {
        self.bytes.stats()
    }

    /// The index the values follow.
    pub fn index(&self) -> &Index {
        self.bytes.index()
    }

    /// The value bytes.
    pub fn values(&self) -> &[u8] {
        self.bytes.values()
    }

    /// Checks the values' checksum (reads the whole file).
    pub fn verify(&self) -> Result<(), TableError> {
        self.bytes.verify().map_err(|e| TableError::of_format(&self.path, e))
    }
}

impl std::fmt::Debug for TableFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableFile").field("path", &self.path).field("stats", &self.stats()).finish_non_exhaustive()
    }
}

impl Table for TableFile {
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        self.bytes.probe(pos)
    }

    fn keep_going_chance(&self, pos: &Position, played: u32) -> Option<f64> {
        self.book.get()?.chance(self.bytes.index(), pos, played)
    }
}

#[cfg(test)]
mod tests {
    use settai_core::doubutsu::table::{build, BuildOptions, Material};
    use settai_core::doubutsu::Color;

    use super::*;

    fn temp_path(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("doubutsu-table-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn file_round_trip_is_deterministic_and_verifiable_and_bad_files_name_the_rebuild() {
        let material = Material([1, 0, 1]);
        let table = build(material, &BuildOptions::default()).unwrap();
        let (a, b, c) = (temp_path("a.tb"), temp_path("b.tb"), temp_path("c.tb"));
        write(&table, &a).unwrap();
        write(&build(material, &BuildOptions::default()).unwrap(), &b).unwrap();
        let bytes = std::fs::read(&a).unwrap();
        assert_eq!(bytes, std::fs::read(&b).unwrap(), "deterministic output");
        // The file is the core's bytes (their format is tested there), mapped and probed as built.
        assert_eq!(bytes[..HEADER_LEN], header(&table));
        let f = TableFile::open(&a).unwrap();
        f.verify().unwrap();
        assert_eq!(f.stats(), TableStats::of(&table));
        let index = table.index();
        for s in (0..index.len()).step_by(97) {
            let p = Position::from_key(index.key(s), Color::Sente).unwrap();
            assert_eq!(f.probe(&p), table.probe(&p), "{p}");
        }

        // One flipped value: open succeeds (header + size), verify does not.
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 0x5A;
        std::fs::write(&c, &bad).unwrap();
        let err = TableFile::open(&c).unwrap().verify().unwrap_err();
        assert!(matches!(err, TableError::Corrupt { .. }), "{err}");
        assert!(err.to_string().contains("c.tb") && err.to_string().contains(REBUILD_COMMAND), "{err}");
        // Truncated, shorter than a header, not a table, the old version, another material.
        std::fs::write(&c, &bytes[..bytes.len() - 1]).unwrap();
        let err = TableFile::open(&c).err().unwrap();
        assert!(matches!(err, TableError::Truncated { .. }) && err.to_string().contains(REBUILD_COMMAND), "{err}");
        std::fs::write(&c, &bytes[..20]).unwrap();
        assert!(matches!(TableFile::open(&c), Err(TableError::Truncated { .. })));
        let mut junk = bytes.clone();
        junk[0] = b'X';
        std::fs::write(&c, &junk).unwrap();
        assert!(matches!(TableFile::open(&c), Err(TableError::Corrupt { .. })));
        let mut old = bytes.clone();
        old[8] = 1;
        std::fs::write(&c, &old).unwrap();
        let err = TableFile::open(&c).err().unwrap();
        assert!(err.to_string().contains("format version 1") && err.to_string().contains(REBUILD_COMMAND), "{err}");
        let mut other = bytes.clone();
        other[12] = 2;
        std::fs::write(&c, &other).unwrap();
        assert!(matches!(TableFile::open(&c), Err(TableError::Corrupt { .. })));
        let err = TableFile::open(temp_path("missing.tb")).err().unwrap();
        assert!(matches!(err, TableError::Missing { .. }), "{err}");
        assert!(err.to_string().contains("missing.tb") && err.to_string().contains(REBUILD_COMMAND), "{err}");
        let _ = std::fs::remove_dir_all(a.parent().unwrap());
    }

    #[test]
    fn the_book_beside_the_table_is_attached_and_a_bad_one_leaves_the_table_playing_without_it() {
        use settai_core::doubutsu::table::keep_going_book::KeepGoingBook;
        use settai_core::doubutsu::table::survival::CarelessPlayer;
        let dir = std::env::temp_dir().join(format!("doubutsu-book-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("small.tb");
        let root: Position = "1l1/1c1/1C1/1L1 b Gg".parse().unwrap();
        let material = Material::of(&root);
        write(&build(material, &BuildOptions::default()).unwrap(), &path).unwrap();
        let player = CarelessPlayer { heed: 0.5, takebacks: false };
        let index = Index::new(material);
        let book = KeepGoingBook::build(&index, &root, 8, player, 4, &BuildOptions::default()).unwrap();

        // Without a book: the table plays, the book's absence is named with its command.
        let (table, attached) = TableFile::open_with_book(&path).unwrap();
        let err = attached.unwrap_err();
        assert!(matches!(err, BookError::Missing { .. }) && err.to_string().contains(REBUILD_BOOK_COMMAND), "{err}");
        assert!(table.book().is_none());
        assert!(table.probe(&root).is_ok());

        // A book written beside it is read and answers through the table.
        write_book(&book, &book_path(&path)).unwrap();
        assert_eq!(book_path(&path), dir.join("small.book"));
        let (table, attached) = TableFile::open_with_book(&path).unwrap();
        attached.unwrap();
        assert_eq!(table.book(), Some(&book));
        let mut answered = 0;
        for m in root.legal_moves() {
            let first = root.play(m).unwrap();
            for y in first.legal_moves() {
                let pos = first.play(y).unwrap();
                assert_eq!(table.keep_going_chance(&pos, 2), book.chance(&index, &pos, 2));
                answered += usize::from(table.keep_going_chance(&pos, 2).is_some());
            }
        }
        assert!(answered > 10, "{answered}");

        // A damaged book is refused by name; the table still opens and plays without it.
        let mut bytes = std::fs::read(book_path(&path)).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        std::fs::write(book_path(&path), &bytes).unwrap();
        let (table, attached) = TableFile::open_with_book(&path).unwrap();
        let err = attached.unwrap_err();
        assert!(matches!(err, BookError::Unusable { .. }) && err.to_string().contains("small.book"), "{err}");
        assert!(table.book().is_none() && table.keep_going_chance(&root, 2).is_none());

        // A book of other pieces is not attached to this table.
        let other = Index::new(Material([0, 0, 1]));
        let other_root = (0..other.len())
            .filter_map(|s| Position::from_key(other.key(s), Color::Sente))
            .find(|p| p.outcome().is_none())
            .unwrap();
        let other_book = KeepGoingBook::build(&other, &other_root, 4, player, 2, &BuildOptions::default()).unwrap();
        let err = table.attach_book(other_book, &book_path(&path)).unwrap_err();
        assert!(matches!(err, BookError::Unusable { .. }), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
