//! How the bot plays: a level of either game.

use std::fmt;

use crate::kind::GameKind;
use crate::level_name::UnknownLevel;
use crate::{doubutsu, reversi};

/// How the bot plays: a level of one game, so a level of the other game cannot be asked of
/// it. Each game has its own levels ([`reversi::ReversiLevel`], [`doubutsu::DoubutsuLevel`]); server
/// admins choose them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// A reversi level.
    Reversi(reversi::ReversiLevel),
    /// A doubutsu shogi level.
    Doubutsu(doubutsu::DoubutsuLevel),
}

impl From<reversi::ReversiLevel> for Level {
    fn from(level: reversi::ReversiLevel) -> Level {
        Level::Reversi(level)
    }
}

impl From<doubutsu::DoubutsuLevel> for Level {
    fn from(level: doubutsu::DoubutsuLevel) -> Level {
        Level::Doubutsu(level)
    }
}

const REVERSI_LEVELS: [Level; 4] = [
    Level::Reversi(reversi::ReversiLevel::ALL[0]),
    Level::Reversi(reversi::ReversiLevel::ALL[1]),
    Level::Reversi(reversi::ReversiLevel::ALL[2]),
    Level::Reversi(reversi::ReversiLevel::ALL[3]),
];
const DOUBUTSU_LEVELS: [Level; 4] = [
    Level::Doubutsu(doubutsu::DoubutsuLevel::ALL[0]),
    Level::Doubutsu(doubutsu::DoubutsuLevel::ALL[1]),
    Level::Doubutsu(doubutsu::DoubutsuLevel::ALL[2]),
    Level::Doubutsu(doubutsu::DoubutsuLevel::ALL[3]),
];

impl Level {
    /// Whether the bot's move at this level is a search that takes its thinking time (reversi:
    /// 0.8-2.4 s) rather than a lookup of a millisecond (every doubutsu level: the exact table,
    /// or the weakest level's one-ply check).
    pub fn thinks_long(self) -> bool {
        matches!(self, Level::Reversi(_))
    }

    /// Whether the bot's move at this level needs the doubutsu table.
    pub fn needs_table(self) -> bool {
        match self {
            Level::Doubutsu(level) => level.needs_table(),
            Level::Reversi(_) => false,
        }
    }

    /// Whether this is a published rule as written, offered for comparison: the players'
    /// opponent picker names it only with the commentary on.
    pub fn is_classic(self) -> bool {
        match self {
            Level::Doubutsu(level) => level.is_classic(),
            Level::Reversi(level) => level.is_classic(),
        }
    }

    /// The levels a game offers.
    pub fn for_kind(kind: GameKind) -> &'static [Level] {
        match kind {
            GameKind::Reversi => &REVERSI_LEVELS,
            GameKind::Doubutsu => &DOUBUTSU_LEVELS,
        }
    }

    /// The game this level belongs to.
    pub fn kind(self) -> GameKind {
        match self {
            Level::Reversi(_) => GameKind::Reversi,
            Level::Doubutsu(_) => GameKind::Doubutsu,
        }
    }

    /// Stable identifier used in the database and the CLI.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Reversi(l) => l.as_str(),
            Level::Doubutsu(l) => l.as_str(),
        }
    }

    /// Other names accepted for the level (see [`reversi::ReversiLevel::aliases`],
    /// [`doubutsu::DoubutsuLevel::aliases`]).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Level::Reversi(l) => l.aliases(),
            Level::Doubutsu(l) => l.aliases(),
        }
    }

    /// Parses a level name or alias (any case, any spacing) of the game `kind`.
    pub fn parse(kind: GameKind, s: &str) -> Result<Level, UnknownLevel> {
        match kind {
            GameKind::Reversi => s.parse::<reversi::ReversiLevel>().map(Level::Reversi),
            GameKind::Doubutsu => s.parse::<doubutsu::DoubutsuLevel>().map(Level::Doubutsu),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

// Beside the levels, so that the games' names need not know the levels.
impl GameKind {
    /// The level used when a server has not chosen one.
    pub fn default_level(self) -> Level {
        match self {
            GameKind::Reversi => Level::Reversi(reversi::ReversiLevel::DEFAULT),
            GameKind::Doubutsu => Level::Doubutsu(doubutsu::DoubutsuLevel::DEFAULT),
        }
    }
}
