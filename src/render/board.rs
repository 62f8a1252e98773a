//! From the game interface to the per-game renderers.

use super::{render_reversi, Disc, ReversiView};
use crate::games::{reversi, Game};
use crate::i18n::Lang;

/// The board image of `game` as PNG bytes. `last` is the position before the last move and the
/// move's notation (to mark it and what it changed); `banner` is drawn when the game is over.
pub fn game_png(game: &Game, last: Option<(&Game, &str)>, lang: Lang, banner: Option<&str>) -> Vec<u8> {
    match game {
        Game::Reversi(pos) => {
            let (last_move, flipped) = match last {
                Some((Game::Reversi(before), notation)) => match notation.parse::<reversi::Move>() {
                    Ok(reversi::Move::Place(sq)) => (Some(sq.index()), before.flips(sq)),
                    _ => (None, 0),
                },
                _ => (None, 0),
            };
            let mut cells = [Disc::Empty; 64];
            for (i, cell) in cells.iter_mut().enumerate() {
                let bit = 1u64 << i;
                if pos.black() & bit != 0 {
                    *cell = Disc::Black;
                } else if pos.white() & bit != 0 {
                    *cell = Disc::White;
                }
            }
            let to_move = (!pos.is_game_over()).then(|| match pos.turn() {
                reversi::Color::Black => Disc::Black,
                reversi::Color::White => Disc::White,
            });
            let view = ReversiView {
                cells,
                last_move,
                flipped,
                legal: if to_move.is_some() { pos.legal_mask() } else { 0 },
                to_move,
                banner: banner.map(str::to_string),
            };
            render_reversi(&view, lang)
        }
    }
}
