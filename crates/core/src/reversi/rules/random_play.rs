//! Positions reached by seeded random play from the start: the sample positions of tests,
//! benchmarks and golden fixtures. Pure: the generator is the caller's.

use rand::Rng;

use crate::reversi::rules::board::Position;

/// The position after `plies` uniformly random moves from the start (fewer if the game ends).
pub fn random_playout(rng: &mut impl Rng, plies: usize) -> Position {
    let mut pos = Position::start();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        pos = pos.play(legal[rng.gen_range(0..legal.len())]).unwrap();
    }
    pos
}

/// A position reached by random play with at most `empties` empty squares, game not over, and
/// at least `min_placements` placements for the side to move (0 allows a forced pass).
pub fn random_position(rng: &mut impl Rng, empties: u32, min_placements: u32) -> Position {
    loop {
        let mut pos = Position::start();
        while pos.empties() > empties && !pos.is_game_over() {
            let legal = pos.legal_moves();
            pos = pos.play(legal[rng.gen_range(0..legal.len())]).unwrap();
        }
        if !pos.is_game_over() && pos.legal_mask().count_ones() >= min_placements {
            return pos;
        }
    }
}
