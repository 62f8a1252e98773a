//! The file of the table of every legal position (issue 19; not yet the file the bot reads):
//! a header, then one value byte per slot of the perfect index ([`super::index`]),
//! memory-mapped at run time.
//!
//! # File format (little-endian), version 2
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `DBTSUTB\0` (as version 1) |
//! | 8 | 4 | format version (2) |
//! | 12 | 3 | material: giraffes, elephants, chicks besides the lions |
//! | 15 | 1 | zero |
//! | 16 | 8 | slots (the index's length; 249,442,767 for the real game) |
//! | 24 | 8×3 | slots won, lost, drawn by the side to move |
//! | 48 | 4 | longest distance |
//! | 52 | 4 | zero |
//! | 56 | 8 | checksum of the values ([`super::checksum`]) |
//! | 64 | 64 | zero |
//! | 128 | slots | values, slot by slot, bytes as in version 1 ([`Value::from_byte`]) |
//!
//! Every slot holds the value of the position it decodes to, the mirror halves of symmetric
//! placements included, so a probe is the index's arithmetic and one byte.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::index::{Index, Material};
use super::retro::{probe_slots, Solved};
use super::{checksum, map_table_file, ProbeError, Table, TableError, Value, MAGIC};
use crate::games::doubutsu::Position;

/// The version this module writes and reads.
pub const SLOTS_FORMAT_VERSION: u32 = 2;
const HEADER_LEN: usize = 128;

/// Header figures of a version 2 file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotsStats {
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

impl SlotsStats {
    /// Counts the values of a solved table.
    pub fn of(solved: &Solved) -> SlotsStats {
        let mut s = SlotsStats {
            material: solved.index().material(),
            slots: solved.values().len() as u64,
            wins: 0,
            losses: 0,
            draws: 0,
            max_distance: 0,
        };
        for &b in solved.values() {
            match Value::from_byte(b) {
                Value::Win(d) => {
                    s.wins += 1;
                    s.max_distance = s.max_distance.max(d as u32);
                }
                Value::Loss(d) => {
                    s.losses += 1;
                    s.max_distance = s.max_distance.max(d as u32);
                }
                Value::Draw => s.draws += 1,
            }
        }
        s
    }
}

/// Writes `solved` to `path` (a temporary name first, then renamed into place).
pub fn write_slots(solved: &Solved, path: &Path) -> Result<(), TableError> {
    let io_err = |source| TableError::Io { path: path.to_path_buf(), source };
    let s = SlotsStats::of(solved);
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&SLOTS_FORMAT_VERSION.to_le_bytes());
    h[12..15].copy_from_slice(&s.material.0);
    for (off, v) in [(16, s.slots), (24, s.wins), (32, s.losses), (40, s.draws)] {
        h[off..off + 8].copy_from_slice(&v.to_le_bytes());
    }
    h[48..52].copy_from_slice(&s.max_distance.to_le_bytes());
    h[56..64].copy_from_slice(&checksum(&[solved.values()]).to_le_bytes());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_err)?;
    }
    let tmp = path.with_extension("tmp");
    let mut f = File::create(&tmp).map_err(io_err)?;
    f.write_all(&h).map_err(io_err)?;
    f.write_all(solved.values()).map_err(io_err)?;
    f.sync_all().map_err(io_err)?;
    std::fs::rename(&tmp, path).map_err(io_err)
}

/// A version 2 file, memory-mapped. Opening checks the header and the size; call
/// [`SlotsFile::verify`] (in the background) to check the values' checksum.
pub struct SlotsFile {
    path: PathBuf,
    map: memmap2::Mmap,
    index: Index,
    stats: SlotsStats,
    checksum: u64,
}

impl SlotsFile {
    /// Maps `path` and checks its header and size.
    pub fn open(path: impl AsRef<Path>) -> Result<SlotsFile, TableError> {
        let path = path.as_ref().to_path_buf();
        let corrupt = |reason: String| TableError::Corrupt { path: path.clone(), reason };
        let map = map_table_file(&path)?;
        let actual = map.len() as u64;
        let h = &map[..HEADER_LEN];
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        if u32_at(8) != SLOTS_FORMAT_VERSION {
            return Err(corrupt(format!("format version {} (this reader reads {SLOTS_FORMAT_VERSION})", u32_at(8))));
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
        let stats = SlotsStats {
            material,
            slots,
            wins: u64_at(24),
            losses: u64_at(32),
            draws: u64_at(40),
            max_distance: u32_at(48),
        };
        Ok(SlotsFile { path, checksum: u64_at(56), map, index, stats })
    }

    /// Header figures.
    pub fn stats(&self) -> SlotsStats {
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

impl Table for SlotsFile {
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        probe_slots(&self.index, self.values(), pos)
    }
}
