//! How a finished game ended by its rules.

use crate::side::Side;

/// How a finished game ended, as far as the rules are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Final disc counts (first, second) where the game scores them (reversi).
    pub score: Option<(u32, u32)>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// Why a game ended by its rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// Neither side can move (reversi): the discs are counted.
    Count,
    /// A lion was captured (doubutsu).
    LionCaptured,
    /// A lion reached the far row and survived (doubutsu "try").
    Try,
    /// The same position occurred for the third time (doubutsu).
    Repetition,
    /// The side to move had no legal move (doubutsu, practically unreachable).
    NoMoves,
}
