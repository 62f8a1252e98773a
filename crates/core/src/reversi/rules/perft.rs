//! Perft: counting move sequences, the standard correctness and speed check for move generators.

use crate::reversi::rules::board::{flips, moves, Position};

/// Number of move sequences of exactly `depth` plies from `pos`; a pass uses a ply and a
/// finished game counts as one leaf at every greater depth.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_pp(pos.player(), pos.opponent(), depth)
}

/// Perft on (player, opponent) bitboards, `depth >= 1`.
fn perft_pp(p: u64, o: u64, depth: u32) -> u64 {
    let mut mask = moves(p, o);
    if depth == 1 {
        // Bulk count: each placement is a leaf; with none, the pass or the game end is one leaf.
        return if mask == 0 { 1 } else { u64::from(mask.count_ones()) };
    }
    if mask == 0 {
        return if moves(o, p) == 0 { 1 } else { perft_pp(o, p, depth - 1) };
    }
    let mut total = 0;
    if depth == 2 {
        // Unrolled last level: saves a call per child, where most of the time goes.
        while mask != 0 {
            let sq = mask.trailing_zeros();
            mask &= mask - 1;
            let f = flips(p, o, sq);
            let child = moves(o & !f, p | f | (1u64 << sq));
            total += if child == 0 { 1 } else { u64::from(child.count_ones()) };
        }
        return total;
    }
    while mask != 0 {
        let sq = mask.trailing_zeros();
        mask &= mask - 1;
        let f = flips(p, o, sq);
        total += perft_pp(o & !f, p | f | (1u64 << sq), depth - 1);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::rules::naive::NaiveBoard;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// Published perft counts from the start position (with passes counted as plies).
    const START_COUNTS: [u64; 11] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800];

    #[test]
    fn perft_from_start_matches_published_counts() {
        let start = Position::start();
        assert_eq!(perft(&start, 0), 1);
        for depth in 1..=9u32 {
            assert_eq!(perft(&start, depth), START_COUNTS[depth as usize - 1], "depth {depth}");
        }
    }

    #[test]
    fn perft_matches_naive_from_start() {
        let start = Position::start();
        let naive = NaiveBoard::from_position(&start);
        for depth in 1..=6 {
            assert_eq!(perft(&start, depth), naive.perft(depth), "depth {depth}");
        }
    }

    #[test]
    fn perft_matches_naive_from_random_midgames() {
        let mut rng = StdRng::seed_from_u64(2024);
        for (plies, max_depth) in [(20usize, 6u32), (34, 6), (46, 6), (54, 6)] {
            let pos = crate::reversi::rules::naive::random_playout(&mut rng, plies);
            let naive = NaiveBoard::from_position(&pos);
            for depth in 1..=max_depth {
                assert_eq!(perft(&pos, depth), naive.perft(depth), "{} depth {depth}", pos.to_text());
            }
        }
    }

    #[test]
    fn perft_counts_passes_and_finished_games() {
        // White to move must pass, then black's single move ends the game.
        let pos = Position::from_bitboards(1, 2, crate::reversi::rules::board::Color::White).unwrap();
        assert_eq!(perft(&pos, 1), 1);
        assert_eq!(perft(&pos, 2), 1);
        assert_eq!(perft(&pos, 5), 1, "a finished game stays one leaf");
        let end = pos.play(crate::reversi::rules::board::Move::Pass).unwrap().play("c1".parse().unwrap()).unwrap();
        assert!(end.is_game_over());
        assert_eq!(perft(&end, 1), 1);
        assert_eq!(perft(&end, 3), 1);
    }
}
