//! The table file (format in the [module docs](super)): a 128-byte header, then one value
//! byte per slot of the perfect index, memory-mapped at run time.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::index::{Index, Material};
use super::retro::{probe_slots, Tablebase};
use super::{checksum, map_table_file, ProbeError, Table, TableError, Value, ValueCounts, FORMAT_VERSION, MAGIC};
use crate::games::doubutsu::Position;

use super::HEADER_LEN;

/// Header figures: what the values hold, slot by slot (for Tanaka's figures, which count
/// the positions reachable from the start, see [`super::reach`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableStats {
    /// The pieces besides the lions.
    pub material: Material,
    /// Slots (positions whose value is stored).
    pub slots: u64,
    /// Slots won by the side to move.
    pub wins: u64,
    /// Slots lost by the side to move.
    pub losses: u64,
    /// Slots drawn.
    pub draws: u64,
    /// The longest distance of any slot.
    pub max_distance: u32,
}

impl TableStats {
    /// Counts the values of a built table.
    pub fn of(solved: &Tablebase) -> TableStats {
        let mut c = ValueCounts::default();
        for &b in solved.values() {
            c.add(Value::from_byte(b));
        }
        TableStats {
            material: solved.index().material(),
            slots: solved.values().len() as u64,
            wins: c.wins,
            losses: c.losses,
            draws: c.draws,
            max_distance: c.max_distance,
        }
    }
}

impl Tablebase {
    /// Writes the table file (to a temporary name first, then renamed into place, so a crash
    /// never leaves a half-written table under `path`). The bytes depend only on the
    /// material: two builds write identical files.
    pub fn write(&self, path: &Path) -> Result<(), TableError> {
        write(self, path)
    }
}

fn write(solved: &Tablebase, path: &Path) -> Result<(), TableError> {
    let io_err = |source| TableError::Io { path: path.to_path_buf(), source };
    let s = TableStats::of(solved);
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12..15].copy_from_slice(&s.material.0);
    for (off, v) in [(16, s.slots), (24, s.wins), (32, s.losses), (40, s.draws)] {
        h[off..off + 8].copy_from_slice(&v.to_le_bytes());
    }
    h[48..52].copy_from_slice(&s.max_distance.to_le_bytes());
    h[56..64].copy_from_slice(&checksum(&[solved.values()]).to_le_bytes());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_err)?;
    }
    // Per process: two `serve`s on one machine may build at once (the bytes are the same).
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    let mut f = File::create(&tmp).map_err(io_err)?;
    f.write_all(&h).map_err(io_err)?;
    f.write_all(solved.values()).map_err(io_err)?;
    f.sync_all().map_err(io_err)?;
    std::fs::rename(&tmp, path).map_err(io_err)
}

/// The table file, memory-mapped. Opening checks the header and the size; call
/// [`TableFile::verify`] (in the background) to check the values' checksum.
pub struct TableFile {
    path: PathBuf,
    map: memmap2::Mmap,
    index: Index,
    stats: TableStats,
    checksum: u64,
}

impl TableFile {
    /// Maps `path` and checks its header and size.
    pub fn open(path: impl AsRef<Path>) -> Result<TableFile, TableError> {
        let path = path.as_ref().to_path_buf();
        let corrupt = |reason: String| TableError::Corrupt { path: path.clone(), reason };
        let map = map_table_file(&path)?;
        let actual = map.len() as u64;
        let h = &map[..HEADER_LEN];
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        if u32_at(8) != FORMAT_VERSION {
            return Err(corrupt(format!("format version {} (this build reads {FORMAT_VERSION})", u32_at(8))));
        }
        let material = Material([h[12], h[13], h[14]]);
        if material.0.iter().any(|&c| c > 2) {
            return Err(corrupt(format!("material {:?}", material.0)));
        }
        let index = Index::new(material);
        let slots = u64_at(16);
        if slots != index.len() {
            return Err(corrupt(format!("{slots} slots, the index of {:?} has {}", material.0, index.len())));
        }
        let expected = HEADER_LEN as u64 + slots;
        if actual != expected {
            return Err(TableError::Truncated { path: path.clone(), expected, actual });
        }
        let stats = TableStats {
            material,
            slots,
            wins: u64_at(24),
            losses: u64_at(32),
            draws: u64_at(40),
            max_distance: u32_at(48),
        };
        Ok(TableFile { path, checksum: u64_at(56), map, index, stats })
    }

    /// The path the table was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Header figures.
    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// The index the values follow.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The value bytes.
    pub fn values(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// Checks the values' checksum (reads the whole file).
    pub fn verify(&self) -> Result<(), TableError> {
        let got = checksum(&[self.values()]);
        if got != self.checksum {
            return Err(TableError::Corrupt {
                path: self.path.clone(),
                reason: format!("values checksum {got:016x} does not match the header's {:016x}", self.checksum),
            });
        }
        Ok(())
    }
}

impl std::fmt::Debug for TableFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableFile").field("path", &self.path).field("stats", &self.stats).finish_non_exhaustive()
    }
}

impl Table for TableFile {
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        probe_slots(&self.index, self.values(), pos)
    }
}
