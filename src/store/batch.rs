//! What a batch read of games (a sweep's) found: the games that read back, and apart from them
//! the games whose row does not. One bad row never fails the read of the others
//! (docs/design/bot-reliability.md#robustness); the caller closes the bad ones.

use super::StoreError;

/// A game a batch read found corrupt: its row is there but does not read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorruptGame {
    /// The game's id.
    pub game_id: i64,
    /// Its version as read, so that closing it changes nothing if it moved on since.
    pub version: i32,
    /// What failed to read back.
    pub reason: String,
}

impl From<CorruptGame> for StoreError {
    fn from(bad: CorruptGame) -> StoreError {
        StoreError::Corrupt { game_id: bad.game_id, reason: bad.reason }
    }
}

/// The rows of a batch read: each sound one read, each corrupt one set apart.
#[derive(Debug)]
pub struct Batch<T> {
    /// What the sound rows hold, in the order read.
    pub sound: Vec<T>,
    /// The games whose row did not read back.
    pub corrupt: Vec<CorruptGame>,
}

impl<T> Batch<T> {
    /// The sound rows, or the first corrupt game as an error (for a caller that must trust every
    /// row or none).
    pub fn all_sound(self) -> Result<Vec<T>, StoreError> {
        match self.corrupt.into_iter().next() {
            Some(bad) => Err(bad.into()),
            None => Ok(self.sound),
        }
    }
}

impl<T> FromIterator<Result<T, CorruptGame>> for Batch<T> {
    fn from_iter<I: IntoIterator<Item = Result<T, CorruptGame>>>(rows: I) -> Batch<T> {
        let mut batch = Batch { sound: Vec::new(), corrupt: Vec::new() };
        for row in rows {
            match row {
                Ok(read) => batch.sound.push(read),
                Err(bad) => batch.corrupt.push(bad),
            }
        }
        batch
    }
}
