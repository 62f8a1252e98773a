//! The exact game-theoretic table: win, loss or draw and distance for every legal position
//! of a set of pieces (the real game's, for the bot), built by retrograde analysis in place
//! over a perfect index and memory-mapped at run time.
//!
//! - [`index`]: the perfect index, a bijection between the numbers `0..len` ("slots") and the
//!   positions whose value is stored, computed from the position itself (no list of
//!   positions, no hash set). The real game has 249,442,767 slots.
//! - [`retro`]: the builder ([`build`]): every slot's value, one byte each, in place.
//! - [`format`](mod@format): the file's bytes, laid out below: the header a build writes and a checked
//!   view over bytes read back ([`TableBytes`]); opening and writing files is the bot's.
//! - [`reach`](mod@reach): the positions reachable from a start, counted over the index (Tanaka's
//!   figures: 246,803,167 positions from the official start).
//! - [`survival`](mod@survival): over the same index, the best chance that a careless player's game lasts
//!   each length (the hospitality benchmark's child guest; `settai-lab bench child-bound`).
//! - [`survival_values`](mod@survival_values): the same passes kept, the bound's chance position by position, to
//!   score a policy move by move against the best one (`settai-lab bench child-regret`).
//! - `horizon`: the slots a game from a root meets within a number of plies, by parity,
//!   so that the survival passes value only those.
//! - [`progress`]: the builder's settings and how it reports progress.
//!
//! Positions are mover-relative (see `position.rs`), so the side to move costs nothing; the
//! left-right mirror halves the lion placements that need slots. The rules value some
//! positions outright and they have no slot: a completed try, a lion that can be captured
//! next to the other one. Where the mover can capture the lion the value is a win in 1 by the
//! rules, but such a position still has its slot when its lions allow it, so that what follows
//! a missed capture is valued too.
//!
//! # Values
//! A value byte is 0 for a draw, 1 for "the side to move has already won" (its opponent
//! failed to capture a lion on the far row) and `2 + d` otherwise, where `d` is the distance
//! in plies: odd `d` is a win in `d`, even `d` a loss in `d` (a loss in 0 is a completed try
//! against the side to move). Distances count the winning capture or try as the last ply.
//!
//! # File format (little-endian), version 2
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `DBTSUTB\0` |
//! | 8 | 4 | format version (2; version 1 was a hashed table of the reachable positions) |
//! | 12 | 3 | material: giraffes, elephants, chicks besides the lions |
//! | 15 | 1 | zero |
//! | 16 | 8 | slots (the index's length; 249,442,767 for the real game) |
//! | 24 | 8×3 | slots won, lost, drawn by the side to move |
//! | 48 | 4 | longest distance |
//! | 52 | 4 | zero |
//! | 56 | 8 | checksum of the values ([`checksum`](format::checksum)) |
//! | 64 | 64 | zero |
//! | 128 | slots | values, slot by slot |
//!
//! Every slot holds the value of the position it decodes to, the mirror halves of symmetric
//! placements included, so a probe is the index's arithmetic and one byte. The file is
//! written to a temporary name and renamed into place; two builds write identical bytes.

pub(crate) mod format;
mod horizon;
pub(crate) mod index;
pub(crate) mod progress;
pub(crate) mod reach;
pub(crate) mod retro;
pub(crate) mod survival;
pub(crate) mod survival_values;

use super::position::Position;

pub use format::{header, FormatError, TableBytes, TableStats, HEADER_LEN};
pub use index::{Index, Material};
pub use progress::{BuildOptions, BuildProgress, BuildReport};
pub use reach::{reach, ReachStats};
pub use retro::{build, build_standard, BuiltTable, SolveError};
pub use survival::{survival, CarelessPlayer, Survival, PLAYERS_PER_RUN};
pub use survival_values::{survival_values, SurvivalValues};

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

/// How many values of each kind a set of positions holds, and the longest distance among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ValueCounts {
    /// Won by the side to move.
    pub wins: u64,
    /// Lost by the side to move.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// The longest distance of a win or a loss.
    pub max_distance: u32,
}

impl ValueCounts {
    /// Counts one more value.
    #[inline]
    pub fn add(&mut self, v: Value) {
        match v {
            Value::Win(d) | Value::Loss(d) => self.max_distance = self.max_distance.max(d as u32),
            Value::Draw => {}
        }
        match v {
            Value::Win(_) => self.wins += 1,
            Value::Loss(_) => self.losses += 1,
            Value::Draw => self.draws += 1,
        }
    }

    /// Adds another set's counts.
    pub fn merge(&mut self, o: &ValueCounts) {
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
        self.max_distance = self.max_distance.max(o.max_distance);
    }
}

/// Why a probe failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The position has other pieces than the table's material (only a test's small table
    /// meets a position of the real game, or the other way round).
    #[error("position {0} is not in the table (it has other pieces than the table's material)")]
    NotInTable(String),
}

/// Anything that values positions exactly: the file-backed table or the one a build holds in
/// memory.
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
