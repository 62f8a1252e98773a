//! Exact endgame solver: final disc margin (or only win/loss/draw with a narrow window) with
//! perfect play, in disc units, empty squares going to the winner.
//!
//! Null-window search does most of the work. Deep nodes use the transposition table,
//! stability cut-offs and fastest-first ordering (sharpened by a static evaluation far from
//! the end); shallow nodes order by quadrant parity only; the last empty square is counted
//! without playing it out. A full solve first makes a selective pass (ProbCut by shallow
//! midgame searches) whose best moves order the exact one.
//!
//! [`root`]: the roots and the aspiration; [`deep`]: the nodes with the table, their ordering
//! and the selective pass; [`shallow`]: the last plies; [`stability`]: stable discs.

use crate::reversi::engine::eval::PatternEval;
use crate::reversi::engine::search::Engine;
use crate::reversi::rules::board::{Move, Position};

mod deep;
mod root;
mod shallow;
mod stability;

/// Result of [`solve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// A best move (`Pass` when forced; `Pass` too if the game is already over).
    pub best: Move,
    /// Exact final disc margin for the side to move with perfect play (empties to the winner).
    pub score: i32,
    /// Positions visited.
    pub nodes: u64,
}

/// Solves `pos` exactly (no time limit): a best move and the final margin with perfect play.
/// How long it took is the caller's to time.
pub fn solve(pos: &Position) -> Solved {
    let mut engine = Engine::new(22);
    let eval = PatternEval::builtin();
    let (best, score) =
        engine.solve_exact(&eval, pos.player(), pos.opponent()).expect("no deadline set, so the solve completes");
    Solved { best, score, nodes: engine.nodes }
}

#[cfg(test)]
mod tests;
