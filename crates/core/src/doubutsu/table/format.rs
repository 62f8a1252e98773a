//! The table file's bytes (layout in the [module docs](super)): the header a build writes
//! ([`header`]) and a checked view over bytes read back ([`TableBytes`], over a memory map or
//! a vector alike). Reading and writing files is the caller's: the core touches no file.

use super::index::{Index, Material};
use super::retro::{probe_slots, BuiltTable};
use super::{ProbeError, Table, Value, ValueCounts};
use crate::doubutsu::Position;

/// The file's magic bytes.
pub(crate) const MAGIC: [u8; 8] = *b"DBTSUTB\0";
/// The file format version this build writes and reads.
pub(crate) const FORMAT_VERSION: u32 = 2;
/// The header's length; the values follow it.
pub const HEADER_LEN: usize = 128;

/// Header figures: what the values hold, slot by slot (for Tanaka's figures, which count
/// the positions reachable from the start, see [`super::reach`](mod@super::reach)).
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
    pub fn of(solved: &BuiltTable) -> TableStats {
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

/// Why bytes are not a usable table (the caller names the file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// Shorter (or longer) than the header says.
    #[error("{actual} bytes, expected {expected}")]
    Truncated {
        /// The size the header implies (the header's own size when there is none).
        expected: u64,
        /// The size given.
        actual: u64,
    },
    /// Not a table, another version, or inconsistent contents.
    #[error("{0}")]
    Corrupt(String),
}

/// The header of `solved`'s file; the values follow it as [`BuiltTable::values`] holds them.
/// The bytes depend only on the material: two builds write identical files.
pub fn header(solved: &BuiltTable) -> [u8; HEADER_LEN] {
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
    h
}

/// Checksum of the values: a four-lane multiply-rotate hash over each part in turn.
pub(crate) fn checksum(parts: &[&[u8]]) -> u64 {
    const P: [u64; 4] = [0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x85EB_CA77_C2B2_AE63];
    let mut lanes = [1u64, 2, 3, 4];
    let mut total = 0u64;
    for part in parts {
        let mut chunks = part.chunks_exact(32);
        for c in &mut chunks {
            for (l, lane) in lanes.iter_mut().enumerate() {
                let w = u64::from_le_bytes(c[8 * l..8 * l + 8].try_into().expect("8 bytes"));
                *lane = (*lane ^ w).wrapping_mul(P[l]).rotate_left(31);
            }
        }
        for &b in chunks.remainder() {
            lanes[0] = (lanes[0] ^ b as u64).wrapping_mul(P[0]).rotate_left(31);
        }
        total = total.wrapping_add(part.len() as u64);
    }
    let mut h = total.wrapping_mul(P[3]);
    for (l, lane) in lanes.iter().enumerate() {
        h = (h ^ lane).wrapping_mul(P[l]).rotate_left(27);
    }
    h ^ (h >> 29)
}

/// A table file's bytes, header and size checked: probing is the index's arithmetic and one
/// byte. [`TableBytes::verify`] checks the values' checksum (it reads every byte).
pub struct TableBytes<B> {
    bytes: B,
    index: Index,
    stats: TableStats,
    checksum: u64,
}

impl<B: AsRef<[u8]>> TableBytes<B> {
    /// Checks the header and the size of `bytes`.
    pub fn parse(bytes: B) -> Result<TableBytes<B>, FormatError> {
        let all = bytes.as_ref();
        let actual = all.len() as u64;
        if all.len() < HEADER_LEN {
            return Err(FormatError::Truncated { expected: HEADER_LEN as u64, actual });
        }
        let h = &all[..HEADER_LEN];
        if h[0..8] != MAGIC {
            return Err(FormatError::Corrupt("not a doubutsu table (bad magic)".into()));
        }
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        if u32_at(8) != FORMAT_VERSION {
            return Err(FormatError::Corrupt(format!(
                "format version {} (this build reads {FORMAT_VERSION})",
                u32_at(8)
            )));
        }
        let material = Material([h[12], h[13], h[14]]);
        if material.0.iter().any(|&c| c > 2) {
            return Err(FormatError::Corrupt(format!("material {:?}", material.0)));
        }
        let index = Index::new(material);
        let slots = u64_at(16);
        if slots != index.len() {
            return Err(FormatError::Corrupt(format!(
                "{slots} slots, the index of {:?} has {}",
                material.0,
                index.len()
            )));
        }
        let expected = HEADER_LEN as u64 + slots;
        if actual != expected {
            return Err(FormatError::Truncated { expected, actual });
        }
        let stats = TableStats {
            material,
            slots,
            wins: u64_at(24),
            losses: u64_at(32),
            draws: u64_at(40),
            max_distance: u32_at(48),
        };
        let checksum = u64_at(56);
        Ok(TableBytes { bytes, index, stats, checksum })
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
        &self.bytes.as_ref()[HEADER_LEN..]
    }

    /// Checks the values' checksum against the header's (reads every byte).
    pub fn verify(&self) -> Result<(), FormatError> {
        let got = checksum(&[self.values()]);
        if got != self.checksum {
            return Err(FormatError::Corrupt(format!(
                "values checksum {got:016x} does not match the header's {:016x}",
                self.checksum
            )));
        }
        Ok(())
    }
}

impl<B> std::fmt::Debug for TableBytes<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableBytes").field("stats", &self.stats).finish_non_exhaustive()
    }
}

impl<B: AsRef<[u8]>> Table for TableBytes<B> {
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        probe_slots(&self.index, self.values(), pos)
    }
}
