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
