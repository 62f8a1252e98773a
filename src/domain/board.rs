//! Which message is a game's board: the one a reminder links to, and the only one that offers
//! the game's moves.

/// What became of a board offered as its game's board (the store's `set_board_message`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardRemembered {
    /// It is the game's board now, in place of the board the offer said it replaces.
    Yes,
    /// It is not: another board was remembered since the offer's game was read (`now`, the
    /// game's board), or the game moved on or ended.
    Lost {
        /// The message remembered as the game's board when the offer was looked at, if any (a
        /// board remembered in the same instant may not show yet).
        now: Option<u64>,
        /// The game is over (its last board, posted when it ended, is not remembered: the
        /// board remembered before then may be this one).
        over: bool,
    },
}
