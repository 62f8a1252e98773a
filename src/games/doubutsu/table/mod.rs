//! The exact game-theoretic table: win, loss or draw and distance for every position
//! reachable from a set of roots (the official start for the real table).
//!
//! Past 500 lines on purpose: one job, the table's format (index, file layout, probing), beside the
//! documentation of that format below; building it is in `build.rs`.
//!
//! Positions are normalized by side to move (keys are mover-relative) and by the left-right
//! mirror (the smaller key of the two represents both), which halves the table. As in
//! Tanaka's analysis, positions where the side to move can capture the lion, and completed
//! tries, are stored but not expanded; from the official start this gives exactly
//! 246,803,167 stored positions (493,573,042 when mirror images are counted apart).
//!
//! # Index
//! A position maps to a dense 38-bit number ([`dense_key`]: lion squares and, per kind, the
//! sorted pair of piece states), scrambled by a bijection on 38 bits ([`scramble`]). Entries
//! are sorted by that scrambled number `h`; the top 22 bits of `h` pick a bucket (an offset
//! table of 2^22 + 1 `u32`) and the low 16 bits are stored per entry, so the index costs two
//! bytes per position and is exact (no false hits). A probe reads one bucket entry and
//! binary-searches about thirty suffixes.
//!
//! # File format (little-endian), version 1
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `DBTSUTB\0` |
//! | 8 | 4 | format version |
//! | 12 | 4 | bucket bits (22) |
//! | 16 | 8 | positions stored (mirror-normalized) |
//! | 24 | 8 | reachable positions without mirror normalization |
//! | 32 | 8×3 | wins, losses, draws among stored positions |
//! | 56 | 4 | longest distance |
//! | 60 | 4 | flags (bit 0: built from the official start) |
//! | 64 | 8 | payload length |
//! | 72 | 8 | payload checksum ([`checksum`]) |
//! | 80 | 48 | zero |
//! | 128 | | payload: buckets `u32`×(2^22+1), suffixes `u16`×n, values `u8`×n |
//!
//! A value byte is 0 for a draw, 1 for "the side to move has already won" (its opponent
//! failed to capture a lion on the far row) and `2 + d` otherwise, where `d` is the distance
//! in plies: odd `d` is a win in `d`, even `d` a loss in `d` (a loss in 0 is a completed try
//! against the side to move). Distances count the winning capture or try as the last ply.
//!
//! # Version 2 (issue 19, being built)
//! The table of every legal position, with no list of positions: [`index`] numbers them,
//! [`retro`] solves them in place (one byte each), [`slots_file`] is its file. The bot reads
//! version 1 until version 2 is proven and wired in.

mod build;
pub mod index;
pub mod retro;
pub mod slots_file;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub use build::{build, build_standard, BuildOptions, BuildReport, Phase};

use super::position::{can_capture_lion, canon, nib, status, Position, Status, BOARD_MASK};

/// The command that rebuilds the table; named in every error about the file.
pub const REBUILD_COMMAND: &str = "settai tablebase build";

/// The file's magic bytes.
pub const MAGIC: [u8; 8] = *b"DBTSUTB\0";
/// The current file format version.
pub const FORMAT_VERSION: u32 = 1;
/// Bits of the scrambled key that select a bucket.
pub const BUCKET_BITS: u32 = 22;
const SUFFIX_BITS: u32 = 16;
const HEADER_LEN: usize = 128;
const NUM_BUCKETS: usize = 1 << BUCKET_BITS;
const DENSE_BITS: u32 = BUCKET_BITS + SUFFIX_BITS;
const DENSE_MASK: u64 = (1 << DENSE_BITS) - 1;

/// The game-theoretic value of a position for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins; the last of these plies is its winning capture or try.
    Win(u16),
    /// The side to move loses in this many plies at best (0: it has already lost).
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// Decodes a value byte (see the module docs).
    pub fn from_byte(b: u8) -> Value {
        match b {
            0 => Value::Draw,
            1 => Value::Win(0),
            _ => {
                let d = (b - 2) as u16;
                if d % 2 == 1 {
                    Value::Win(d)
                } else {
                    Value::Loss(d)
                }
            }
        }
    }

    /// Encodes a value as a byte; `None` when the distance does not fit or has the wrong
    /// parity (wins are odd, losses even, except the special win in 0).
    pub fn to_byte(self) -> Option<u8> {
        match self {
            Value::Draw => Some(0),
            Value::Win(0) => Some(1),
            Value::Win(d) if d % 2 == 1 && d <= 253 => Some(d as u8 + 2),
            Value::Loss(d) if d % 2 == 0 && d <= 253 => Some(d as u8 + 2),
            _ => None,
        }
    }

    /// The value one ply earlier, for the player who moved into this position.
    pub fn parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }
}

/// Why a probe failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The position is not reachable from the table's roots.
    #[error("position {0} is not in the table (not reachable from the roots it was built from)")]
    NotInTable(String),
}

/// Anything that values positions exactly: the file-backed table, an in-memory one, or a
/// test double.
pub trait Table {
    /// The value of `pos` for its side to move. Finished positions and positions where the
    /// lion can be captured are valued by the rules; the rest is looked up.
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError>;
}

impl<T: Table + ?Sized> Table for &T {
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        (**self).probe(pos)
    }
}

/// Summary figures stored in the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TableStats {
    /// Positions stored (one per mirror pair): Tanaka's count of reachable positions.
    pub positions: u64,
    /// The same positions normalized by side to move only (a mirror pair counts twice
    /// when both halves are reachable).
    pub reachable: u64,
    /// Stored positions won by the side to move.
    pub wins: u64,
    /// Stored positions lost by the side to move.
    pub losses: u64,
    /// Stored positions drawn.
    pub draws: u64,
    /// The longest distance in the table.
    pub max_distance: u32,
    /// Whether the roots were exactly the official start.
    pub standard: bool,
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

/// The 38-bit dense number of a mover-relative key with both lions on the board.
///
/// Per kind the two pieces' states are sorted so that identical pieces give one number.
/// Giraffe/elephant state: 0..12 the mover's on a square, 12..24 the opponent's, 24 mover's
/// hand, 25 opponent's hand, 26 absent (sub-games with fewer pieces). Chick state: 0..24 as
/// above for chicks, 24..48 for hens, 48/49 hands, 50 absent.
pub fn dense_key(k: u64) -> u64 {
    // Hot in the builder (once per predecessor): walk only the occupied squares, pick each
    // piece's slot by table and counter instead of branching on its kind, and sort each
    // pair with min/max. Slot 2 of a kind only ever receives its own value back.
    const KIND: [usize; 8] = [0, 3, 0, 1, 2, 2, 0, 0];
    const HEN_ADD: [u8; 8] = [0, 0, 0, 0, 0, 24, 0, 0];
    let mut st = [[26u8; 3], [26u8; 3], [50u8; 3], [0u8; 3]];
    let mut n = [0usize; 4];
    let board = k & BOARD_MASK;
    let mut occupied = (board | (board >> 1) | (board >> 2) | (board >> 3)) & 0x1111_1111_1111;
    while occupied != 0 {
        let i = occupied.trailing_zeros() as usize / 4;
        occupied &= occupied - 1;
        let p = nib(k, i);
        let kind = (p & 7) as usize;
        let opp = (p >> 3) as usize;
        let t = KIND[kind];
        if t == 3 {
            st[3][opp] = i as u8;
        } else {
            st[t][n[t]] = i as u8 + 12 * opp as u8 + HEN_ADD[kind];
            n[t] += 1;
        }
    }
    for (t, hand_base) in [(0usize, 24u8), (1, 24), (2, 48)] {
        for opp in 0..2u8 {
            let h = ((k >> (48 + 6 * opp as u32 + 2 * t as u32)) & 3) as usize;
            for needed in 1..=2 {
                let slot = &mut st[t][n[t]];
                *slot = if h >= needed { hand_base + opp } else { *slot };
                n[t] += (h >= needed) as usize;
            }
        }
    }
    let pair = |a: [u8; 3], base: u64| a[0].min(a[1]) as u64 * base + a[0].max(a[1]) as u64;
    let (ml, ol) = (st[3][0] as u64, st[3][1] as u64);
    (((ml * 12 + ol) * 729 + pair(st[0], 27)) * 729 + pair(st[1], 27)) * 2601 + pair(st[2], 51)
}

/// A bijection on 38-bit numbers that spreads dense keys evenly over the buckets.
pub fn scramble(mut x: u64) -> u64 {
    // xorshifts and odd multiplications modulo 2^38 are each invertible.
    x ^= x >> 19;
    x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15) & DENSE_MASK;
    x ^= x >> 17;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9) & DENSE_MASK;
    x ^= x >> 19;
    x
}

/// The scrambled index number of a canonical key.
#[inline]
pub(crate) fn index_hash(canonical: u64) -> u64 {
    scramble(dense_key(canonical))
}

/// Checksum of the payload: a four-lane multiply-rotate hash over each part in turn.
pub fn checksum(parts: &[&[u8]]) -> u64 {
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

/// Borrowed index + values; shared by the in-memory and the mapped table.
#[derive(Clone, Copy)]
struct View<'a> {
    buckets: &'a [u32],
    suffixes: &'a [u16],
    values: &'a [u8],
}

impl View<'_> {
    #[inline]
    fn find(&self, h: u64) -> Option<usize> {
        let b = (h >> SUFFIX_BITS) as usize;
        let (lo, hi) = (self.buckets[b] as usize, self.buckets[b + 1] as usize);
        let s = (h & 0xFFFF) as u16;
        self.suffixes[lo..hi].binary_search(&s).ok().map(|i| lo + i)
    }

    /// [`View::find`] for a batch, in stages that prefetch every bucket and then every
    /// suffix run first, so the cache misses of the batch overlap instead of queueing.
    fn find_batch(&self, hashes: &[u64], out: &mut Vec<Option<usize>>) {
        out.clear();
        for &h in hashes {
            prefetch(&self.buckets[(h >> SUFFIX_BITS) as usize]);
        }
        let mut ranges = [(0u32, 0u32); 256];
        let n = hashes.len().min(ranges.len());
        for (r, &h) in ranges.iter_mut().zip(&hashes[..n]) {
            let b = (h >> SUFFIX_BITS) as usize;
            *r = (self.buckets[b], self.buckets[b + 1]);
            if r.0 < r.1 {
                prefetch(&self.suffixes[(r.0 + (r.1 - r.0) / 2) as usize]);
            }
        }
        for (r, &h) in ranges.iter().zip(&hashes[..n]) {
            let s = (h & 0xFFFF) as u16;
            out.push(self.suffixes[r.0 as usize..r.1 as usize].binary_search(&s).ok().map(|i| r.0 as usize + i));
        }
        for &h in &hashes[n..] {
            out.push(self.find(h));
        }
    }

    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        let k = pos.key();
        match status(k) {
            Status::MoverWon(_) => return Ok(Value::Win(0)),
            Status::MoverLost(_) => return Ok(Value::Loss(0)),
            Status::Ongoing if can_capture_lion(k) => return Ok(Value::Win(1)),
            Status::Ongoing => {}
        }
        self.find(index_hash(canon(k)))
            .map(|i| Value::from_byte(self.values[i]))
            .ok_or_else(|| ProbeError::NotInTable(pos.to_text()))
    }
}

/// Hints the cache to fetch `x` (no-op off x86-64).
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; it never faults, whatever the address.
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// A table held in memory, as the builder returns it.
pub struct Tablebase {
    stats: TableStats,
    buckets: Vec<u32>,
    suffixes: Vec<u16>,
    values: Vec<u8>,
}

impl Tablebase {
    /// Header figures.
    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// Positions stored.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no position is stored.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    fn view(&self) -> View<'_> {
        View { buckets: &self.buckets, suffixes: &self.suffixes, values: &self.values }
    }

    /// Writes the table file (to a temporary name first, then renamed into place, so a
    /// crash never leaves a half-written table under `path`).
    pub fn write(&self, path: &Path) -> Result<(), TableError> {
        let io_err = |source| TableError::Io { path: path.to_path_buf(), source };
        let bucket_bytes = le_bytes_u32(&self.buckets);
        let suffix_bytes = le_bytes_u16(&self.suffixes);
        let payload_len = (bucket_bytes.len() + suffix_bytes.len() + self.values.len()) as u64;
        let sum = checksum(&[&bucket_bytes, &suffix_bytes, &self.values]);
        let mut header = [0u8; HEADER_LEN];
        let s = &self.stats;
        header[0..8].copy_from_slice(&MAGIC);
        header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        header[12..16].copy_from_slice(&BUCKET_BITS.to_le_bytes());
        for (off, v) in [(16, s.positions), (24, s.reachable), (32, s.wins), (40, s.losses), (48, s.draws)] {
            header[off..off + 8].copy_from_slice(&v.to_le_bytes());
        }
        header[56..60].copy_from_slice(&s.max_distance.to_le_bytes());
        header[60..64].copy_from_slice(&(s.standard as u32).to_le_bytes());
        header[64..72].copy_from_slice(&payload_len.to_le_bytes());
        header[72..80].copy_from_slice(&sum.to_le_bytes());
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io_err)?;
        }
        let tmp = path.with_extension("tmp");
        let file = File::create(&tmp).map_err(io_err)?;
        let mut w = BufWriter::with_capacity(1 << 20, file);
        for part in [&header[..], &bucket_bytes, &suffix_bytes, &self.values] {
            w.write_all(part).map_err(io_err)?;
        }
        w.into_inner().map_err(|e| io_err(e.into_error()))?.sync_all().map_err(io_err)?;
        std::fs::rename(&tmp, path).map_err(io_err)
    }
}

impl Table for Tablebase {
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        self.view().probe(pos)
    }
}

fn le_bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn le_bytes_u16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Opens and maps a table file of either format version: a missing or unreadable file, one
/// shorter than the 128-byte header (both versions' length) or without the magic bytes gets
/// its error here, naming the file.
pub(super) fn map_table_file(path: &Path) -> Result<memmap2::Mmap, TableError> {
    let path = path.to_path_buf();
    let file = File::open(&path).map_err(|source| match source.kind() {
        io::ErrorKind::NotFound => TableError::Missing { path: path.clone() },
        _ => TableError::Io { path: path.clone(), source },
    })?;
    let actual = file.metadata().map_err(|source| TableError::Io { path: path.clone(), source })?.len();
    if actual < HEADER_LEN as u64 {
        return Err(TableError::Truncated { path: path.clone(), expected: HEADER_LEN as u64, actual });
    }
    // SAFETY: the file is opened read-only; the builders replace it by rename, never in
    // place, so the mapping is not modified under us by settai itself.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|source| TableError::Io { path: path.clone(), source })?;
    if map[0..8] != MAGIC {
        return Err(TableError::Corrupt { path, reason: "not a doubutsu table (bad magic)".into() });
    }
    Ok(map)
}

/// The table file, memory-mapped. Opening checks the header and the size only; call
/// [`TableFile::verify`] (in the background) to check the payload checksum.
pub struct TableFile {
    path: PathBuf,
    map: memmap2::Mmap,
    stats: TableStats,
    checksum: u64,
    n: usize,
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
        if u32_at(12) != BUCKET_BITS {
            return Err(corrupt(format!("bucket bits {}", u32_at(12))));
        }
        let n = u64_at(16);
        let payload_len = u64_at(64);
        let want_payload = 4 * (NUM_BUCKETS as u64 + 1) + 3 * n;
        if payload_len != want_payload {
            return Err(corrupt(format!("payload length {payload_len} does not match {n} positions")));
        }
        let expected = HEADER_LEN as u64 + payload_len;
        if actual != expected {
            return Err(TableError::Truncated { path: path.clone(), expected, actual });
        }
        let stats = TableStats {
            positions: n,
            reachable: u64_at(24),
            wins: u64_at(32),
            losses: u64_at(40),
            draws: u64_at(48),
            max_distance: u32_at(56),
            standard: u32_at(60) & 1 == 1,
        };
        let t = TableFile { path: path.clone(), checksum: u64_at(72), map, stats, n: n as usize };
        let v = t.view().map_err(corrupt)?;
        if v.buckets[0] != 0 || v.buckets[NUM_BUCKETS] as u64 != n {
            return Err(corrupt("bucket offsets do not span the positions".into()));
        }
        Ok(t)
    }

    /// The path the table was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Header figures.
    pub fn stats(&self) -> TableStats {
        self.stats
    }

    /// Checks the payload checksum (reads the whole file: about a second when cached).
    pub fn verify(&self) -> Result<(), TableError> {
        let p = &self.map[HEADER_LEN..];
        let nb = 4 * (NUM_BUCKETS + 1);
        let got = checksum(&[&p[..nb], &p[nb..nb + 2 * self.n], &p[nb + 2 * self.n..]]);
        if got != self.checksum {
            return Err(TableError::Corrupt {
                path: self.path.clone(),
                reason: format!("payload checksum {got:016x} does not match the header's {:016x}", self.checksum),
            });
        }
        let v = self.view().expect("checked at open");
        if v.buckets.windows(2).any(|w| w[0] > w[1]) {
            return Err(TableError::Corrupt { path: self.path.clone(), reason: "bucket offsets decrease".into() });
        }
        Ok(())
    }

    fn view(&self) -> Result<View<'_>, String> {
        if cfg!(target_endian = "big") {
            return Err("table files are little-endian; this machine is not".into());
        }
        let p = &self.map[HEADER_LEN..];
        let nb = 4 * (NUM_BUCKETS + 1);
        // SAFETY: u32 and u16 have no invalid bit patterns; align_to only yields the aligned
        // middle, and we insist that the prefix is empty and the length exact.
        let (pre, buckets, _) = unsafe { p[..nb].align_to::<u32>() };
        let (pre2, suffixes, _) = unsafe { p[nb..nb + 2 * self.n].align_to::<u16>() };
        if !pre.is_empty() || !pre2.is_empty() || buckets.len() != NUM_BUCKETS + 1 || suffixes.len() != self.n {
            return Err("misaligned payload".into());
        }
        Ok(View { buckets, suffixes, values: &p[nb + 2 * self.n..] })
    }
}

impl Table for TableFile {
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        self.view().expect("checked at open").probe(pos)
    }
}
