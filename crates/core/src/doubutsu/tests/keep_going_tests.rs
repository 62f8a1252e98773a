//! The keep-going read against a plain expectimax written from its definition (public rules
//! only, no memo, no budget), on positions of random games.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::super::keep_going::keep_going_chances;
use super::super::{History, Move, Position};
use super::pos;

/// The chance that the `r` plies from `p` (ongoing) do not end the game, the child model to
/// move when `guest`: it takes a win in one, is stuck when every move loses at once, and
/// otherwise taps uniformly; settai takes its best move.
fn plain(p: &Position, r: u32, guest: bool) -> f64 {
    let moves = p.legal_moves();
    // Stuck: every move ends the game or leaves settai a win (by the slow, move-by-move path).
    let stuck = || {
        moves.iter().all(|&m| {
            let c = p.play(m).unwrap();
            c.outcome().is_some() || !c.winning_moves().is_empty()
        })
    };
    if guest && (moves.is_empty() || !p.winning_moves().is_empty() || stuck()) {
        return 0.0;
    }
    let values = moves.iter().map(|&m| {
        let c = p.play(m).unwrap();
        if c.outcome().is_some() {
            0.0
        } else if r == 1 {
            1.0
        } else {
            plain(&c, r - 1, !guest)
        }
    });
    if guest {
        values.sum::<f64>() / moves.len() as f64
    } else {
        values.fold(0.0, f64::max)
    }
}

/// Settai's move `m` in `p`, then `plies - 1` more.
fn plain_root(p: &Position, m: Move, plies: u32) -> f64 {
    let c = p.play(m).unwrap();
    if c.outcome().is_some() {
        0.0
    } else if plies == 1 {
        1.0
    } else {
        plain(&c, plies - 1, true)
    }
}

/// Ongoing positions of random games from `root`, one every few plies.
fn positions(root: Position, seed: u64, games: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut g = History::from_position(root);
        for ply in 0..24 {
            let Some(&m) = g.legal_moves().choose(&mut rng) else { break };
            g.play(m).unwrap();
            if g.outcome().is_some() {
                break;
            }
            if ply % 5 == 2 {
                out.push(*g.position());
            }
        }
    }
    out
}

fn assert_matches_plain(p: &Position, plies: u32) {
    let moves = p.legal_moves();
    let read = keep_going_chances(p, &moves, plies, u64::MAX);
    assert_eq!(read.horizon, plies);
    for (&m, &c) in moves.iter().zip(&read.per_move) {
        let want = plain_root(p, m, plies);
        assert!((c - want).abs() < 1e-9, "{m} in {p} at {plies} plies: read {c}, plain {want}");
    }
}

#[test]
fn chances_match_the_plain_expectimax() {
    // Small material reads deep; the full board three plies.
    let small = positions(pos("1l1/1c1/1C1/1L1 b Gg"), 3, 12);
    let full = positions(Position::start(), 4, 8);
    assert!(small.len() >= 20 && full.len() >= 10, "{} {}", small.len(), full.len());
    let mut seen_between = 0;
    for p in &small {
        assert_matches_plain(p, 5);
        let read = keep_going_chances(p, &p.legal_moves(), 5, u64::MAX);
        seen_between += read.per_move.iter().filter(|&&c| c > 0.0 && c < 1.0).count();
    }
    for p in &full {
        assert_matches_plain(p, 3);
    }
    // The reads are not trivially 0 or 1.
    assert!(seen_between > 20, "{seen_between}");
}

#[test]
fn the_budget_stops_at_the_deepest_horizon_read_in_full() {
    let p = positions(Position::start(), 5, 1)[0];
    let moves = p.legal_moves();
    let full = keep_going_chances(&p, &moves, 4, u64::MAX);
    assert_eq!(full.horizon, 4);
    let tight = keep_going_chances(&p, &moves, 4, 50);
    assert!(tight.horizon >= 1 && tight.horizon < 4, "{}", tight.horizon);
    // What it gives is the exact read at that horizon.
    for (&m, &c) in moves.iter().zip(&tight.per_move) {
        assert!((c - plain_root(&p, m, tight.horizon)).abs() < 1e-9, "{m}");
    }
    assert_eq!(keep_going_chances(&p, &moves, 0, 0).per_move, vec![1.0; moves.len()]);
}

#[test]
fn a_move_that_ends_the_game_has_no_chance() {
    // Sente's lion can take gote's: the capture ends the game, so its chance is 0.
    let p = pos("1l1/1L1/3/3 b -");
    let moves = p.legal_moves();
    let capture = moves.iter().position(|&m| p.captures_lion(m)).expect("a capture");
    let read = keep_going_chances(&p, &moves, 3, u64::MAX);
    assert_eq!(read.per_move[capture], 0.0);
    assert!(read.per_move.iter().any(|&c| c > 0.0));
}

#[test]
fn the_fast_win_in_one_test_agrees_with_playing_every_move() {
    use super::super::position::mover_can_win_at_once;
    // Positions of random games from the start and from small material, where tries and
    // positions without a move for the opponent come up.
    let mut all = positions(Position::start(), 6, 200);
    all.extend(positions(pos("1l1/1c1/1C1/1L1 b Gg"), 7, 200));
    all.extend(positions(pos("1l1/3/3/1L1 b -"), 8, 200));
    let mut wins = 0;
    for p in &all {
        let want = !p.winning_moves().is_empty();
        assert_eq!(mover_can_win_at_once(p.key()), want, "{p}");
        wins += want as usize;
    }
    assert!(wins > 20 && wins < all.len(), "{wins} of {}", all.len());
}
