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
/// otherwise taps uniformly, but a tap on a move that loses at once is taken back with
/// probability `heed` for a uniform tap among those that do not; settai takes its best move.
fn plain(p: &Position, r: u32, guest: bool, heed: f64) -> f64 {
    let moves = p.legal_moves();
    // Loses at once: ends the game or leaves settai a win (by the slow, move-by-move path).
    let loses = |m: Move| {
        let c = p.play(m).unwrap();
        c.outcome().is_some() || !c.winning_moves().is_empty()
    };
    let losing = moves.iter().filter(|&&m| loses(m)).count();
    if guest && (moves.is_empty() || !p.winning_moves().is_empty() || losing == moves.len()) {
        return 0.0;
    }
    let value = |m: Move| {
        let c = p.play(m).unwrap();
        if c.outcome().is_some() {
            0.0
        } else if r == 1 {
            1.0
        } else {
            plain(&c, r - 1, !guest, heed)
        }
    };
    if !guest {
        return moves.iter().map(|&m| value(m)).fold(0.0, f64::max);
    }
    // The first tap, then the second thought.
    let n = moves.len() as f64;
    let rethought = heed * losing as f64 / n;
    let mut sum = 0.0;
    for &m in &moves {
        let tapped = if loses(m) { (1.0 - heed) / n } else { 1.0 / n + rethought / (moves.len() - losing) as f64 };
        sum += tapped * value(m);
    }
    sum
}

/// Settai's move `m` in `p`, then `plies - 1` more.
fn plain_root(p: &Position, m: Move, plies: u32, heed: f64) -> f64 {
    let c = p.play(m).unwrap();
    if c.outcome().is_some() {
        0.0
    } else if plies == 1 {
        1.0
    } else {
        plain(&c, plies - 1, true, heed)
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

fn assert_matches_plain(p: &Position, plies: u32, heed: f64) {
    let moves = p.legal_moves();
    let read = keep_going_chances(p, &moves, plies, u64::MAX, heed);
    assert_eq!(read.horizon, plies);
    for (&m, &c) in moves.iter().zip(&read.per_move) {
        let want = plain_root(p, m, plies, heed);
        assert!((c - want).abs() < 1e-9, "{m} in {p} at {plies} plies, heed {heed}: read {c}, plain {want}");
    }
}

#[test]
fn chances_match_the_plain_expectimax() {
    // Small material reads deep; the full board three plies. The careless child, the coached
    // one and one who always heeds.
    let small = positions(pos("1l1/1c1/1C1/1L1 b Gg"), 3, 12);
    let full = positions(Position::start(), 4, 8);
    assert!(small.len() >= 20 && full.len() >= 10, "{} {}", small.len(), full.len());
    for heed in [0.0, 0.5, 1.0] {
        let mut seen_between = 0;
        for p in &small {
            assert_matches_plain(p, 5, heed);
            let read = keep_going_chances(p, &p.legal_moves(), 5, u64::MAX, heed);
            seen_between += read.per_move.iter().filter(|&&c| c > 0.0 && c < 1.0).count();
        }
        for p in &full {
            assert_matches_plain(p, 3, heed);
        }
        // The reads are not trivially 0 or 1.
        assert!(seen_between > 20, "heed {heed}: {seen_between}");
    }
}

#[test]
fn heeding_the_marks_keeps_games_going_longer() {
    // A child who heeds the marks blunders less, so games go on longer on the whole. Not move
    // by move: a marked move may leave settai a win that the model's settai declines, which can
    // be worth more than an unmarked one.
    let (mut changed, mut careless_sum, mut heeding_sum) = (0, 0.0, 0.0);
    for p in positions(pos("1l1/1c1/1C1/1L1 b Gg"), 9, 12) {
        let moves = p.legal_moves();
        let careless = keep_going_chances(&p, &moves, 5, u64::MAX, 0.0).per_move;
        let heeding = keep_going_chances(&p, &moves, 5, u64::MAX, 1.0).per_move;
        changed += careless.iter().zip(&heeding).filter(|(a, b)| (*a - *b).abs() > 1e-9).count();
        careless_sum += careless.iter().sum::<f64>();
        heeding_sum += heeding.iter().sum::<f64>();
    }
    assert!(changed > 10, "{changed}");
    assert!(heeding_sum > careless_sum, "{heeding_sum} against {careless_sum}");
}

#[test]
fn the_budget_stops_at_the_deepest_horizon_read_in_full() {
    let p = positions(Position::start(), 5, 1)[0];
    let moves = p.legal_moves();
    let full = keep_going_chances(&p, &moves, 4, u64::MAX, 0.5);
    assert_eq!(full.horizon, 4);
    let tight = keep_going_chances(&p, &moves, 4, 50, 0.5);
    assert!(tight.horizon >= 1 && tight.horizon < 4, "{}", tight.horizon);
    // What it gives is the exact read at that horizon.
    for (&m, &c) in moves.iter().zip(&tight.per_move) {
        assert!((c - plain_root(&p, m, tight.horizon, 0.5)).abs() < 1e-9, "{m}");
    }
    assert_eq!(keep_going_chances(&p, &moves, 0, 0, 0.5).per_move, vec![1.0; moves.len()]);
}

#[test]
fn a_move_that_ends_the_game_has_no_chance() {
    // Sente's lion can take gote's: the capture ends the game, so its chance is 0.
    let p = pos("1l1/1L1/3/3 b -");
    let moves = p.legal_moves();
    let capture = moves.iter().position(|&m| p.captures_lion(m)).expect("a capture");
    let read = keep_going_chances(&p, &moves, 3, u64::MAX, 0.5);
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
