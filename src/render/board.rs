//! From the game interface to the per-game renderers.

use image::RgbImage;

use super::doubutsu::{doubutsu_image, Animal, DoubutsuView, LastMove, Owner};
use super::reversi::reversi_image;
use super::{Disc, Names, ReversiView};
use crate::games::doubutsu::{self, Color, Move, Role, Square};
use crate::games::{reversi, Game};
use crate::i18n::Lang;

/// The board image of `game` as PNG bytes. `last` is the position before the last move and the
/// move's notation (to mark it and what it changed); `banner` is drawn when the game is over;
/// `names` label the seats.
pub fn game_png(game: &Game, last: Option<(&Game, &str)>, lang: Lang, banner: Option<&str>, names: &Names) -> Vec<u8> {
    super::encode_png(&game_image(game, last, lang, banner, names)).expect("PNG encoding of an in-memory RGB image")
}

/// The board image of `game` (see [`game_png`]).
pub fn game_image(
    game: &Game,
    last: Option<(&Game, &str)>,
    lang: Lang,
    banner: Option<&str>,
    names: &Names,
) -> RgbImage {
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
                names: [names.first.clone(), names.second.clone()],
            };
            reversi_image(&view, lang)
        }
        Game::Doubutsu(g) => doubutsu_image(&doubutsu_view(&g.0, banner.map(str::to_string), names), lang),
    }
}

/// The doubutsu board as the renderer draws it (the last move comes from the game's history).
fn doubutsu_view(game: &doubutsu::Game, banner: Option<String>, names: &Names) -> DoubutsuView {
    let pos = game.position();
    let owner = |c: Color| if c == Color::Sente { Owner::Sente } else { Owner::Gote };
    let animal = |r: Role| match r {
        Role::Lion => Animal::Lion,
        Role::Giraffe => Animal::Giraffe,
        Role::Elephant => Animal::Elephant,
        Role::Chick => Animal::Chick,
        Role::Hen => Animal::Hen,
    };
    let mut cells = [None; 12];
    for (i, cell) in cells.iter_mut().enumerate() {
        let sq = Square::new(i as u8).expect("12 squares");
        *cell = pos.piece_at(sq).map(|p| (owner(p.color), animal(p.role)));
    }
    let hand =
        |c: Color| Role::HAND.iter().filter(|&&r| pos.hand(c, r) > 0).map(|&r| (animal(r), pos.hand(c, r))).collect();
    let last_move = game.last_move().map(|(_, mv)| match mv {
        Move::Normal { from, to } => LastMove::Board { from: from.index(), to: to.index() },
        Move::Drop { to, .. } => LastMove::Drop { to: to.index() },
    });
    DoubutsuView {
        cells,
        sente_hand: hand(Color::Sente),
        gote_hand: hand(Color::Gote),
        last_move,
        to_move: game.outcome().is_none().then(|| owner(pos.turn())),
        in_check: game.outcome().is_none().then(|| pos.lion_in_check()).flatten().map(|sq| sq.index()),
        banner,
        // An empty name shows the side's label in the viewer's language.
        sente_name: names.first.clone(),
        gote_name: names.second.clone(),
    }
}
