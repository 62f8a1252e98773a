//! What the doubutsu picture shows: the pieces, the sides, the last move and the whole view of
//! a position, and how each animal moves (its dots).

use settai_core::doubutsu::{Color, Role};
use settai_core::Side;

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Animal {
    /// ライオン: one step in any direction; capturing it wins.
    Lion,
    /// キリン: one step orthogonally.
    Giraffe,
    /// ゾウ: one step diagonally.
    Elephant,
    /// ひよこ: one step forward; promotes to a hen on the far rank.
    Chick,
    /// ニワトリ: a promoted chick; moves like a gold general.
    Hen,
}

/// A side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Owner {
    /// The first player, at the bottom, moving up.
    Sente,
    /// The second player, at the top; its pieces are drawn turned 180°.
    Gote,
}

/// The last move, highlighted on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastMove {
    /// A piece moved from one square to another (square indices as in `DoubutsuView::cells`).
    Board {
        /// Square the piece left.
        from: u8,
        /// Square the piece arrived on.
        to: u8,
    },
    /// A piece was dropped from a hand onto a square.
    Drop {
        /// Square the piece was dropped on.
        to: u8,
    },
}

/// Everything the renderer needs to draw a doubutsu shogi position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoubutsuView {
    /// Squares, index = row * 3 + col; row 0 = rank 1 (top, gote's side), col 0 = file A (left).
    pub cells: [Option<(Owner, Animal)>; 12],
    /// Pieces in sente's hand as (kind, count); a `Hen` is shown as the chick it reverts to.
    pub sente_hand: Vec<(Animal, u8)>,
    /// Pieces in gote's hand as (kind, count).
    pub gote_hand: Vec<(Animal, u8)>,
    /// The last move, highlighted.
    pub last_move: Option<LastMove>,
    /// Whose turn it is; `None` when the game is over.
    pub to_move: Option<Owner>,
    /// Square index of a lion under attack, marked with a red glow.
    pub in_check: Option<u8>,
    /// Result text stamped across the board, e.g. "Sente wins: lion captured".
    pub banner: Option<String>,
    /// Sente's display name (any Unicode; glyphs the font lacks become a box).
    pub sente_name: String,
    /// Gote's display name.
    pub gote_name: String,
    /// The player's seat against the computer (English then says "You" and "Your move"; see
    /// [`Msg::BoardSeat`](crate::i18n::Msg::BoardSeat)); `None` for a board seen from outside a game.
    pub human: Option<Side>,
}

pub(in crate::render) const ANIMALS: [Animal; 5] =
    [Animal::Lion, Animal::Giraffe, Animal::Elephant, Animal::Chick, Animal::Hen];

impl Animal {
    /// Steps this piece may take for sente, as (dx, dy) with dy = -1 forward (up).
    pub(in crate::render) fn steps(self) -> &'static [(i8, i8)] {
        match self {
            Animal::Lion => &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
            Animal::Giraffe => &[(0, -1), (-1, 0), (1, 0), (0, 1)],
            Animal::Elephant => &[(-1, -1), (1, -1), (-1, 1), (1, 1)],
            Animal::Chick => &[(0, -1)],
            Animal::Hen => &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)],
        }
    }
}

impl From<Role> for Animal {
    fn from(role: Role) -> Animal {
        match role {
            Role::Lion => Animal::Lion,
            Role::Giraffe => Animal::Giraffe,
            Role::Elephant => Animal::Elephant,
            Role::Chick => Animal::Chick,
            Role::Hen => Animal::Hen,
        }
    }
}

impl From<Color> for Owner {
    fn from(color: Color) -> Owner {
        match color {
            Color::Sente => Owner::Sente,
            Color::Gote => Owner::Gote,
        }
    }
}
