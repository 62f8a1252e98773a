//! The doubutsu shogi levels an admin chooses, and the one place a level becomes a player.

use std::fmt;
use std::str::FromStr;

use rand::Rng;

use super::classic::settai_classic;
use super::players::{settai_or_weakest, strongest_or_heuristic, weakest, PlayerError};
use super::table::Table;
use super::{History, Move};
use crate::level_name::normalize_level_name;
use crate::{GameKind, UnknownLevel};

/// How the bot plays doubutsu shogi.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DoubutsuLevel {
    /// 接待: answers a move of divergence d with the best move of divergence ≤ d.
    Settai,
    /// 最強: perfect play from the table.
    Strongest,
    /// 雑魚: random, but takes a win in one and avoids a loss in one.
    Weakest,
    /// 接待（原典）: the divergence rule as published, without settai's deviations
    /// (docs/design/doubutsu-settai.md#settai-classic-the-rule-as-published).
    SettaiClassic,
}

/// A level that plays from the table was asked to move without it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChooseError {
    /// The level plays from the table, which is not available.
    #[error("the doubutsu table is not available")]
    NoTable,
    /// The player could not move.
    #[error(transparent)]
    Player(#[from] PlayerError),
}

impl DoubutsuLevel {
    /// Every level, in the order menus list them.
    pub const ALL: [DoubutsuLevel; 4] =
        [DoubutsuLevel::Settai, DoubutsuLevel::Strongest, DoubutsuLevel::Weakest, DoubutsuLevel::SettaiClassic];
    /// The level used when a server has not chosen one.
    pub const DEFAULT: DoubutsuLevel = DoubutsuLevel::Settai;

    /// Every level's name ([`DoubutsuLevel::as_str`]), in the order of [`DoubutsuLevel::ALL`].
    pub const NAMES: [&'static str; 4] =
        [Self::ALL[0].as_str(), Self::ALL[1].as_str(), Self::ALL[2].as_str(), Self::ALL[3].as_str()];

    /// Stable identifier used in the database and the CLI.
    pub const fn as_str(self) -> &'static str {
        match self {
            DoubutsuLevel::Settai => "settai",
            DoubutsuLevel::Strongest => "strongest",
            DoubutsuLevel::Weakest => "weakest",
            DoubutsuLevel::SettaiClassic => "settai-classic",
        }
    }

    /// Other names accepted for the level: the names admins are shown in English and Japanese
    /// and the spellings people type for them.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            DoubutsuLevel::Settai => &["settai (hospitable)", "hospitable", "接待"],
            DoubutsuLevel::Strongest => &["最強"],
            DoubutsuLevel::Weakest => &["雑魚", "ざこ"],
            DoubutsuLevel::SettaiClassic => {
                &["接待（原典）", "接待(原典)", "settai, as published", "settai (classic)", "settai classic"]
            }
        }
    }

    /// The published rule as written, for comparison: the players' opponent picker names it
    /// only with the commentary on.
    pub fn is_classic(self) -> bool {
        self == DoubutsuLevel::SettaiClassic
    }

    /// Whether the level plays from the exact table.
    pub fn needs_table(self) -> bool {
        self != DoubutsuLevel::Weakest
    }

    /// The level's reply in `game` (the side to move is the bot), as the bot plays it,
    /// fallbacks included; the table levels need `table`. The one place a level becomes a
    /// player.
    pub fn choose_move<T: Table, R: Rng + ?Sized>(
        self,
        table: Option<&T>,
        game: &History,
        rng: &mut R,
    ) -> Result<Move, ChooseError> {
        Ok(match (self, table) {
            (DoubutsuLevel::Weakest, _) => weakest(game, rng)?,
            (DoubutsuLevel::Settai, Some(t)) => settai_or_weakest(t, game, rng)?,
            (DoubutsuLevel::Strongest, Some(t)) => strongest_or_heuristic(t, game, rng)?,
            // As settai, the weakest's move where a test's small table values no move.
            (DoubutsuLevel::SettaiClassic, Some(t)) => match settai_classic(t, game, rng) {
                Err(PlayerError::Probe(_)) => weakest(game, rng)?,
                other => other?,
            },
            (DoubutsuLevel::Settai | DoubutsuLevel::Strongest | DoubutsuLevel::SettaiClassic, None) => {
                return Err(ChooseError::NoTable)
            }
        })
    }
}

impl fmt::Display for DoubutsuLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for DoubutsuLevel {
    type Err = UnknownLevel;
    /// A level name or alias, in any case and spacing.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = normalize_level_name(s);
        DoubutsuLevel::ALL
            .into_iter()
            .find(|l| l.as_str() == wanted || l.aliases().contains(&wanted.as_str()))
            .ok_or_else(|| UnknownLevel {
                kind: GameKind::Doubutsu,
                name: s.to_string(),
                offered: &DoubutsuLevel::NAMES,
            })
    }
}
