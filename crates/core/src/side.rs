//! The seats at the board.

/// A seat at the board: the player who moves first (black, sente) or second (white, gote).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Moves first: black in reversi.
    First,
    /// Moves second: white in reversi.
    Second,
}

impl Side {
    /// The other seat.
    pub fn opposite(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second (database encoding).
    pub fn index(self) -> i16 {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// Inverse of [`Side::index`].
    pub fn from_index(i: i16) -> Option<Side> {
        match i {
            0 => Some(Side::First),
            1 => Some(Side::Second),
            _ => None,
        }
    }
}
