//! Move lists replayed from the start: the command line's and the tests' edge, and a game's line of positions.

use crate::game::Game;
use crate::game_move::{GameMove, MoveError};
use crate::kind::GameKind;

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

/// Every position of `moves` played from `start`, the start first; names the first bad move.
pub fn line(start: &Game, moves: &[GameMove]) -> Result<Vec<Game>, ReplayError> {
    let mut games = vec![start.clone()];
    for (i, &mv) in moves.iter().enumerate() {
        let next = games[i].play(mv).map_err(|error| ReplayError { ply: i + 1, text: mv.to_string(), error })?;
        games.push(next);
    }
    Ok(games)
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
