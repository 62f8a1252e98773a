//! Level names as people type them: the one spelling rule every game's parser shares, and the
//! error that names the levels a game offers.

use crate::kind::GameKind;

/// A level name as the parsers compare it: lower case, single spaces.
pub(crate) fn normalize_level_name(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// A level name the game does not offer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} level {name:?} (expected one of: {})", offered.join(", "))]
pub struct UnknownLevel {
    /// The game that was asked about.
    pub kind: GameKind,
    /// The name that did not match.
    pub name: String,
    /// The names of the levels the game offers.
    pub offered: &'static [&'static str],
}
