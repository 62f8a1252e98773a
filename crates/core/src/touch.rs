//! Play by touch (docs/design/touch.md): what a board of buttons offers the player to move.
//!
//! Doubutsu shogi is played in two taps: an [`Origin`] (one of the player's animals, or a kind
//! of animal in hand), then one of the squares it may go to ([`moves_from`]). Reversi is one tap
//! on a number drawn on the board: [`numbered_moves`] gives the legal squares in reading order,
//! so that the picture and the buttons number them alike. Pure rules: no text but notation.

use std::fmt;
use std::str::FromStr;

use crate::doubutsu::{self, Role, Square};
use crate::game::Game;
use crate::game_move::GameMove;

/// Where a doubutsu move starts: an animal on the board, or a kind of animal in hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// The animal standing on this square.
    Board(Square),
    /// An animal of this kind in the mover's hand (giraffe, elephant or chick).
    Hand(Role),
}

impl Origin {
    /// Where `mv` starts.
    pub fn of(mv: doubutsu::Move) -> Origin {
        match mv {
            doubutsu::Move::Normal { from, .. } => Origin::Board(from),
            doubutsu::Move::Drop { role, .. } => Origin::Hand(role),
        }
    }
}

/// As in the notation: the square (`B3`), or the animal's letter and `*` for the hand (`E*`),
/// the way a drop begins (`E*B2`).
impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Board(sq) => sq.fmt(f),
            Origin::Hand(role) => write!(f, "{}*", role.letter()),
        }
    }
}

/// A text that names no origin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is neither a square (B3) nor an animal in hand (E*)")]
pub struct ParseOriginError(pub String);

impl FromStr for Origin {
    type Err = ParseOriginError;

    fn from_str(s: &str) -> Result<Origin, ParseOriginError> {
        let bad = || ParseOriginError(s.to_string());
        match s.strip_suffix('*') {
            Some(letter) => {
                let mut chars = letter.chars();
                let role = chars.next().and_then(Role::from_letter).ok_or_else(bad)?;
                let held = Role::HAND.contains(&role) && chars.next().is_none();
                held.then_some(Origin::Hand(role)).ok_or_else(bad)
            }
            None => s.parse::<Square>().map(Origin::Board).map_err(|_| bad()),
        }
    }
}

/// The doubutsu moves of the side to move, if `game` is a doubutsu game still on.
fn doubutsu_moves(game: &Game) -> Vec<doubutsu::Move> {
    game.legal_moves()
        .into_iter()
        .filter_map(|mv| match mv {
            GameMove::Doubutsu(mv) => Some(mv),
            GameMove::Reversi(_) => None,
        })
        .collect()
}

/// The origins the side to move can move from, each once, board squares in index order
/// (reading order from sente's side) and then the hand in hand order: what a first tap may
/// choose. Empty for reversi and for a game that is over.
pub fn origins(game: &Game) -> Vec<Origin> {
    let mut origins: Vec<Origin> = doubutsu_moves(game).into_iter().map(Origin::of).collect();
    origins.sort_by_key(|o| match *o {
        Origin::Board(sq) => (0, usize::from(sq.index())),
        Origin::Hand(role) => (1, role.hand_index().unwrap_or(Role::HAND.len())),
    });
    origins.dedup();
    origins
}

/// The legal moves starting at `origin`, by destination square index: the squares a second
/// tap may choose. A chick reaching the far row promotes by itself, so no destination is
/// offered twice. Empty when `origin` has no move (or the game is not doubutsu).
pub fn moves_from(game: &Game, origin: Origin) -> Vec<doubutsu::Move> {
    let mut moves: Vec<doubutsu::Move> =
        doubutsu_moves(game).into_iter().filter(|&mv| Origin::of(mv) == origin).collect();
    moves.sort_by_key(|mv| mv.to().index());
    moves
}

/// Reversi: the squares the side to move may play, in reading order (row 1 first, each row from
/// a to h), numbered from 1 by their place in this list. The picture draws the numbers and the
/// buttons carry them. A forced pass is not a square and is not numbered; empty for doubutsu.
pub fn numbered_moves(game: &Game) -> Vec<GameMove> {
    let mut moves: Vec<(u8, GameMove)> = game
        .legal_moves()
        .into_iter()
        .filter_map(|mv| match mv {
            GameMove::Reversi(crate::reversi::Move::Place(sq)) => Some((sq.index(), mv)),
            _ => None,
        })
        .collect();
    moves.sort_by_key(|&(index, _)| index);
    moves.into_iter().map(|(_, mv)| mv).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameKind;
    use rand::{Rng, SeedableRng};

    /// Random games of either kind, every position of them.
    fn positions(kind: GameKind, games: usize, seed: u64) -> Vec<Game> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut seen = Vec::new();
        for _ in 0..games {
            let mut game = Game::new(kind);
            while game.outcome().is_none() && seen.len() < 100_000 {
                seen.push(game.clone());
                let legal = game.legal_moves();
                game = game.play(legal[rng.gen_range(0..legal.len())]).unwrap();
            }
            seen.push(game);
        }
        seen
    }

    #[test]
    fn two_taps_reach_every_doubutsu_move_and_nothing_else() {
        for game in positions(GameKind::Doubutsu, 60, 3) {
            let legal = game.legal_moves();
            let mut reached: Vec<GameMove> = Vec::new();
            for origin in origins(&game) {
                let moves = moves_from(&game, origin);
                assert!(!moves.is_empty(), "{origin} is offered without a move");
                let mut squares: Vec<Square> = moves.iter().map(|mv| mv.to()).collect();
                squares.dedup();
                assert_eq!(squares.len(), moves.len(), "a destination offered twice from {origin}");
                reached.extend(moves.into_iter().map(GameMove::Doubutsu));
            }
            assert_eq!(reached.len(), legal.len(), "each legal move once");
            assert!(legal.iter().all(|mv| reached.contains(mv)), "every legal move is reachable");
            if game.outcome().is_some() {
                assert!(origins(&game).is_empty(), "nothing to tap after the end");
            }
        }
    }

    #[test]
    fn origins_print_and_parse_back() {
        let mut all: Vec<Origin> = Square::ALL.into_iter().map(Origin::Board).collect();
        all.extend(Role::HAND.into_iter().map(Origin::Hand));
        for origin in all {
            assert_eq!(origin.to_string().parse::<Origin>(), Ok(origin));
            assert_eq!(origin.to_string().to_lowercase().parse::<Origin>(), Ok(origin), "any case");
        }
        for bad in ["", "*", "L*", "H*", "D1", "A5", "B3*", "GE*", "E**", "b"] {
            assert!(bad.parse::<Origin>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn reversi_numbers_follow_reading_order_and_cover_every_square_move() {
        for game in positions(GameKind::Reversi, 20, 5) {
            let numbered = numbered_moves(&game);
            let squares: Vec<u8> = numbered
                .iter()
                .map(|mv| match mv {
                    GameMove::Reversi(crate::reversi::Move::Place(sq)) => sq.index(),
                    other => panic!("{other} is numbered"),
                })
                .collect();
            assert!(squares.windows(2).all(|w| w[0] < w[1]), "reading order: {squares:?}");
            let placements = game.legal_moves().into_iter().filter(|mv| !mv.is_pass()).count();
            assert_eq!(numbered.len(), placements);
        }
        assert!(numbered_moves(&Game::new(GameKind::Doubutsu)).is_empty());
    }
}
