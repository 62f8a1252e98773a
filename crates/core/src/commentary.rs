//! One line on how good a player's move was, from the exact table or a search of every move.

use std::time::Duration;

use crate::game::Game;
use crate::game_move::GameMove;
use crate::thinker::Thinker;
use crate::{doubutsu, reversi};

/// How good a player's move was, as the original design's analysis log showed it
/// (docs/design/doubutsu-levels.md#commentary-seed-000s-analysis-log).
#[derive(Debug, Clone, PartialEq)]
pub enum Commentary {
    /// Doubutsu, from the exact table.
    Doubutsu {
        /// The move as played.
        mv: doubutsu::Move,
        /// Its divergence: 1 for a best move, down to 0.5 for the worst.
        divergence: f64,
        /// The best moves.
        best: Vec<doubutsu::Move>,
        /// The move's value for the player.
        value: doubutsu::Value,
        /// The best moves' value for the player.
        best_value: doubutsu::Value,
    },
    /// Reversi, from a search of every move.
    Reversi {
        /// The move as played.
        mv: reversi::Move,
        /// The move's value in discs for the player (the final margin under good play).
        value: f64,
        /// The best move and its value.
        best: reversi::Move,
        /// See [`Commentary::Reversi::best`].
        best_value: f64,
    },
}

/// Thinking time of the reversi commentary (a full-width search of every move).
pub const COMMENTARY_BUDGET: Duration = Duration::from_millis(300);

/// Analyses `mv` played by the side to move in `before`; `None` when there is nothing to say
/// (a pass, a move of the other game, or doubutsu without the table). CPU-bound: callers on an
/// async runtime run it on a blocking thread.
pub fn commentary<T: doubutsu::Table>(
    before: &Game,
    mv: GameMove,
    table: Option<&T>,
    thinker: &mut Thinker,
) -> Option<Commentary> {
    match (before, mv) {
        (Game::Reversi(pos), GameMove::Reversi(played)) => {
            let (engine, eval) = thinker.reversi();
            let (moves, _) = reversi::levels::level::analyze_moves(engine, eval, pos, COMMENTARY_BUDGET);
            let value = moves.iter().find(|(m, _)| *m == played)?.1;
            let (best, best_value) = *moves.first()?;
            Some(Commentary::Reversi { mv: played, value, best, best_value })
        }
        (Game::Doubutsu(g), GameMove::Doubutsu(played)) => {
            let a = doubutsu::analyze(table?, g.history().position(), played).ok()?;
            Some(Commentary::Doubutsu {
                mv: played,
                divergence: a.divergence,
                best: a.best,
                value: a.value,
                best_value: a.best_value,
            })
        }
        _ => None,
    }
}
