//! A move of either game: the typed value the shared layer passes around, so that only the
//! edges (the store, the UI, the CLI) ever see notation text.

use std::fmt;

use super::{doubutsu, reversi, GameKind};

/// A move of one of the games, as each game's own type (the way a chess library wraps the
/// moves of its variants): a reversi move cannot be handed to a doubutsu game unnoticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameMove {
    /// A reversi placement or pass.
    Reversi(reversi::Move),
    /// A doubutsu shogi step or drop.
    Doubutsu(doubutsu::Move),
}

impl GameMove {
    /// Reads a move of `kind` in any spelling its notation accepts (any case, spaces).
    pub fn parse(kind: GameKind, text: &str) -> Result<GameMove, MoveError> {
        match kind {
            GameKind::Reversi => text
                .parse::<reversi::Move>()
                .map(GameMove::Reversi)
                .map_err(|e: reversi::ParseMoveError| MoveError::Syntax(e.to_string())),
            GameKind::Doubutsu => text
                .parse::<doubutsu::Move>()
                .map(GameMove::Doubutsu)
                .map_err(|e: doubutsu::ParseMoveError| MoveError::Syntax(e.to_string())),
        }
    }

    /// The game this move belongs to.
    pub fn kind(self) -> GameKind {
        match self {
            GameMove::Reversi(_) => GameKind::Reversi,
            GameMove::Doubutsu(_) => GameKind::Doubutsu,
        }
    }

    /// Whether this is a reversi pass.
    pub fn is_pass(self) -> bool {
        self == GameMove::Reversi(reversi::Move::Pass)
    }

    /// Whether this is a doubutsu drop (an animal put down from the hand).
    pub fn is_drop(self) -> bool {
        matches!(self, GameMove::Doubutsu(doubutsu::Move::Drop { .. }))
    }
}

impl From<reversi::Move> for GameMove {
    fn from(mv: reversi::Move) -> GameMove {
        GameMove::Reversi(mv)
    }
}

impl From<doubutsu::Move> for GameMove {
    fn from(mv: doubutsu::Move) -> GameMove {
        GameMove::Doubutsu(mv)
    }
}

/// Canonical notation: what the store keeps and players read (`f5`, `pass`, `B3B2`, `C*B3`).
impl fmt::Display for GameMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameMove::Reversi(mv) => mv.fmt(f),
            GameMove::Doubutsu(mv) => mv.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_parse_per_game_and_print_canonically() {
        for (kind, typed, canonical) in [
            (GameKind::Reversi, " F 5", "f5"),
            (GameKind::Reversi, "PASS", "pass"),
            (GameKind::Doubutsu, "b3 b2", "B3B2"),
            (GameKind::Doubutsu, "c*b3", "C*B3"),
        ] {
            let mv = GameMove::parse(kind, typed).unwrap();
            assert_eq!(mv.kind(), kind);
            assert_eq!(mv.to_string(), canonical);
            assert_eq!(GameMove::parse(kind, canonical), Ok(mv));
        }
        // Each game reads only its own notation.
        assert!(matches!(GameMove::parse(GameKind::Reversi, "B3B2"), Err(MoveError::Syntax(_))));
        assert!(matches!(GameMove::parse(GameKind::Doubutsu, "pass"), Err(MoveError::Syntax(_))));
        assert!(matches!(GameMove::parse(GameKind::Doubutsu, "f5"), Err(MoveError::Syntax(_))));
    }

    #[test]
    fn passes_and_drops_are_told_by_type() {
        let parse = |kind, text| GameMove::parse(kind, text).unwrap();
        assert!(parse(GameKind::Reversi, "pass").is_pass());
        assert!(!parse(GameKind::Reversi, "f5").is_pass());
        assert!(parse(GameKind::Doubutsu, "C*B3").is_drop());
        assert!(!parse(GameKind::Doubutsu, "B3B2").is_drop());
        assert!(!parse(GameKind::Doubutsu, "B3B2").is_pass());
        assert!(!parse(GameKind::Reversi, "pass").is_drop());
    }
}

/// Why a move could not be played; the message is shown to players and CLI users.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    #[error("{0}")]
    Syntax(String),
    /// The move is well formed but not legal here.
    #[error("{0}")]
    Illegal(String),
}
