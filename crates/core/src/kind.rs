//! The games settai plays, by name.

use std::fmt;
use std::str::FromStr;

/// The games settai can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Reversi (Othello rules) on an 8x8 board.
    Reversi,
    /// Doubutsu shogi (どうぶつしょうぎ) on a 3x4 board.
    Doubutsu,
}

impl GameKind {
    /// Every kind, in the order menus list them.
    pub const ALL: [GameKind; 2] = [GameKind::Reversi, GameKind::Doubutsu];

    /// Stable identifier used in the database, the CLI and custom ids.
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Reversi => "reversi",
            GameKind::Doubutsu => "doubutsu",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game name that settai does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?} (expected: reversi, doubutsu)")]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "reversi" | "othello" => Ok(GameKind::Reversi),
            "doubutsu" | "dobutsu" => Ok(GameKind::Doubutsu),
            _ => Err(UnknownGame(s.to_string())),
        }
    }
}
