//! Move lists replayed from the start: the command line's and the tests' edge, and a game's line of positions.

use crate::game::Game;
use crate::game_move::{GameMove, MoveError};
use crate::kind::GameKind;
use crate::side::Side;
use crate::{doubutsu, reversi};

/// Reads and replays a move list given as text (any accepted spelling; the CLI's and the
/// tests' edge) from the start of `kind`, naming the first bad move.
pub fn replay(kind: GameKind, moves: &[String]) -> Result<Game, ReplayError> {
    replay_moves(kind, moves).map(|(game, _)| game)
}

/// [`replay`], with the moves as parsed (for [`Game::ai_move_after`] and its like).
pub fn replay_moves(kind: GameKind, moves: &[String]) -> Result<(Game, Vec<GameMove>), ReplayError> {
    let mut game = Game::new(kind);
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let bad = |error| ReplayError { ply: i + 1, text: text.clone(), error };
        let mv = game.parse_move(text).map_err(bad)?;
        game = game.play(mv).map_err(bad)?;
        played.push(mv);
    }
    Ok((game, played))
}

/// Every position of a game, its start first, each computed once from the one before, in place:
/// linear in the game's length, where a game per position would copy a doubutsu history per
/// move. A finished game's line is made once and read by its story and by every size its
/// replay is drawn at (docs/design/storage.md#the-end-of-a-game).
#[derive(Debug, Clone)]
pub struct Line {
    moves: Vec<GameMove>,
    /// Who is to move in each position (`None`: the game is over there).
    to_move: Vec<Option<Side>>,
    /// Each reversi position (a doubutsu game's are in `end`'s history, from `first` on).
    reversi: Vec<reversi::Position>,
    /// Where `end`'s doubutsu history reaches the line's start.
    first: usize,
    /// The game after every move.
    end: Game,
}

/// One position of a [`Line`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinePosition<'a> {
    /// A reversi position.
    Reversi(&'a reversi::Position),
    /// A doubutsu shogi position.
    Doubutsu(&'a doubutsu::Position),
}

impl Line {
    /// The line of `moves` played from `start`; names the first bad move.
    pub fn new(start: &Game, moves: &[GameMove]) -> Result<Line, ReplayError> {
        let mut end = start.clone();
        let first = match &end {
            Game::Doubutsu(g) => g.history().moves().len(),
            Game::Reversi(_) => 0,
        };
        let mut reversi = Vec::new();
        let mut to_move = Vec::with_capacity(moves.len() + 1);
        let mut note = |game: &Game| {
            to_move.push(game.to_move());
            if let Game::Reversi(p) = game {
                reversi.push(*p);
            }
        };
        note(&end);
        for (i, &mv) in moves.iter().enumerate() {
            end.play_in_place(mv).map_err(|error| ReplayError { ply: i + 1, text: mv.to_string(), error })?;
            note(&end);
        }
        Ok(Line { moves: moves.to_vec(), to_move, reversi, first, end })
    }

    /// The moves, in order: move `i` leads from position `i` to position `i + 1`.
    pub fn moves(&self) -> &[GameMove] {
        &self.moves
    }

    /// The index of the last position (as many as the moves).
    pub fn last(&self) -> usize {
        self.moves.len()
    }

    /// Position `i` (0: the start).
    pub fn position(&self, i: usize) -> LinePosition<'_> {
        match &self.end {
            Game::Reversi(_) => LinePosition::Reversi(&self.reversi[i]),
            Game::Doubutsu(g) => LinePosition::Doubutsu(&g.history().positions()[self.first + i]),
        }
    }

    /// Who is to move in position `i`; `None` when the game is over there.
    pub fn to_move(&self, i: usize) -> Option<Side> {
        self.to_move[i]
    }

    /// The game after every move.
    pub fn end(&self) -> &Game {
        &self.end
    }
}

/// A move list that does not replay from the start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {ply} {text:?}: {error}")]
pub struct ReplayError {
    /// 1-based index of the bad move.
    pub ply: usize,
    /// The move as given.
    pub text: String,
    /// Why it failed.
    pub error: MoveError,
}
