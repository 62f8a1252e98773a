//! The doubutsu table on disk: written whole to a temporary name and renamed into place, and
//! memory-mapped read-only at run time. The bytes' format and the probe are the core's
//! ([`TableBytes`]); this room adds the file, and errors that name it and the command that
//! rebuilds it. The table is all the bot plays by: nothing beside it, so every host with the
//! table plays the same (docs/design/doubutsu-settai.md#deviation-7-dropped-choosing-early-moves-by-a-book).

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use settai_core::doubutsu::table::{
    header, BuiltTable, FormatError, Index, ProbeError, Table, TableBytes, TableStats, Value, HEADER_LEN,
};
use settai_core::doubutsu::Position;

/// The command that rebuilds the table; named in every error about the file.
pub const REBUILD_COMMAND: &str = "settai table build";
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
pub fn write(solved: &BuiltTable, path: &Path) -> Result<(), TableError> {
    write_whole(path, &[&header(solved), solved.values()])
        .map_err(|source| TableError::Io { path: path.to_path_buf(), source })
}

/// The table file, memory-mapped. Opening checks the header and the size; call
/// [`TableFile::verify`] (in the background) to check the values' checksum.
pub struct TableFile {
    path: PathBuf,
    bytes: TableBytes<memmap2::Mmap>,
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
        Ok(TableFile { path, bytes })
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
}
