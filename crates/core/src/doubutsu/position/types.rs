//! The typed values of the game: players, squares, roles, pieces, moves, and how a game ends.

use std::fmt;

use super::packed::{CHICK, ELEPHANT, GIRAFFE, HEN, LION};

/// A player: sente moves first (the human in the bot), gote second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player; starts on rows 3-4 and moves up.
    Sente,
    /// The second player; starts on rows 1-2 and moves down.
    Gote,
}

impl Color {
    /// The other player.
    pub fn opposite(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }
}

/// A board square, `index = row * 3 + col`: A1 = 0 (top left, gote's side) .. C4 = 11.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// All twelve squares in index order (A1, B1, C1, A2, ...).
    pub const ALL: [Square; 12] = {
        let mut a = [Square(0); 12];
        let mut i = 0;
        while i < 12 {
            a[i] = Square(i as u8);
            i += 1;
        }
        a
    };

    /// The square with this index (0..12).
    pub fn new(index: u8) -> Option<Square> {
        (index < 12).then_some(Square(index))
    }

    /// The square at column 0..3 (A-C) and row 0..4 (rows 1-4).
    pub fn from_coords(col: u8, row: u8) -> Option<Square> {
        (col < 3 && row < 4).then_some(Square(row * 3 + col))
    }

    /// Index 0..12.
    pub fn index(self) -> u8 {
        self.0
    }

    /// Column 0..3 (A-C).
    pub fn col(self) -> u8 {
        self.0 % 3
    }

    /// Row 0..4 (printed as 1-4).
    pub fn row(self) -> u8 {
        self.0 / 3
    }

    /// The index this square has on the board as seen by `side` (gote sees it rotated).
    pub(crate) fn relative(self, side: Color) -> usize {
        match side {
            Color::Sente => self.0 as usize,
            Color::Gote => 11 - self.0 as usize,
        }
    }

    /// Inverse of [`Square::relative`].
    pub(crate) fn from_relative(i: usize, side: Color) -> Square {
        match side {
            Color::Sente => Square(i as u8),
            Color::Gote => Square(11 - i as u8),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col()) as char, self.row() + 1)
    }
}

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// ライオン: one step in any direction; losing it loses the game.
    Lion,
    /// キリン: one step orthogonally.
    Giraffe,
    /// ゾウ: one step diagonally.
    Elephant,
    /// ひよこ: one step forward; promotes to a hen on the far row.
    Chick,
    /// ニワトリ: a promoted chick; reverts to a chick when captured.
    Hen,
}

impl Role {
    /// The roles that can be held in hand, in hand order.
    pub const HAND: [Role; 3] = [Role::Giraffe, Role::Elephant, Role::Chick];

    /// Letter used in notation: L, G, E, C, H.
    pub fn letter(self) -> char {
        match self {
            Role::Lion => 'L',
            Role::Giraffe => 'G',
            Role::Elephant => 'E',
            Role::Chick => 'C',
            Role::Hen => 'H',
        }
    }

    /// Inverse of [`Role::letter`], case-insensitive.
    pub fn from_letter(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'L' => Some(Role::Lion),
            'G' => Some(Role::Giraffe),
            'E' => Some(Role::Elephant),
            'C' => Some(Role::Chick),
            'H' => Some(Role::Hen),
            _ => None,
        }
    }

    pub(crate) fn code(self) -> u8 {
        match self {
            Role::Lion => LION,
            Role::Giraffe => GIRAFFE,
            Role::Elephant => ELEPHANT,
            Role::Chick => CHICK,
            Role::Hen => HEN,
        }
    }

    pub(crate) fn from_code(c: u8) -> Role {
        match c & 7 {
            LION => Role::Lion,
            GIRAFFE => Role::Giraffe,
            ELEPHANT => Role::Elephant,
            CHICK => Role::Chick,
            _ => Role::Hen,
        }
    }

    /// Index in a hand (giraffe 0, elephant 1, chick 2), `None` for lion and hen.
    pub(crate) fn hand_index(self) -> Option<usize> {
        match self {
            Role::Giraffe => Some(0),
            Role::Elephant => Some(1),
            Role::Chick => Some(2),
            _ => None,
        }
    }
}

/// A piece: a role owned by a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub role: Role,
}

/// A move: a board move (promotion is compulsory, so implied) or a drop from the hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Moves the piece on `from` to `to`, capturing whatever stands there.
    Normal {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
    },
    /// Drops a piece of `role` from the mover's hand on the empty square `to`.
    Drop {
        /// Giraffe, elephant or chick.
        role: Role,
        /// Destination square.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }
}

/// How a finished game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser's lion was captured.
    LionCaptured,
    /// The winner's lion reached the far row and could not be (or was not) captured.
    Try,
    /// The loser had no legal move (practically unreachable, ruled as in shogi).
    NoMoves,
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// `winner` won for `reason`.
    Win {
        /// The player who won.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Drawn (only by repetition, see [`History`](crate::doubutsu::History)).
    Draw,
}

impl Ending {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Ending::Win { winner, .. } => Some(winner),
            Ending::Draw => None,
        }
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// The move, in canonical notation.
    pub mv: String,
    /// Why it is illegal.
    pub reason: &'static str,
}
