//! The exact solver against plain negamax, its windows and passes, and stable discs.

use super::stability::stable_discs;
use super::*;
use crate::reversi::engine::search::final_margin;
use crate::reversi::rules::board::Color;
use crate::reversi::rules::naive::random_position;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Plain full-width negamax over the public `Position` API: the reference.
fn negamax(pos: &Position) -> i32 {
    if pos.is_game_over() {
        return final_margin(pos.player(), pos.opponent());
    }
    pos.legal_moves().into_iter().map(|m| -negamax(&pos.play(m).unwrap())).max().unwrap()
}

#[test]
fn solver_matches_plain_negamax_on_random_endgames() {
    let mut rng = StdRng::seed_from_u64(404);
    let eval = PatternEval::builtin();
    let mut engine = Engine::new(16);
    for i in 0..120 {
        let pos = random_position(&mut rng, 1 + i % 10, 0);
        let want = negamax(&pos);
        engine.clear();
        let (best, score) = engine.solve_root(&eval, pos.player(), pos.opponent(), -64, 64).unwrap();
        assert_eq!(score, want, "{}", pos.to_text());
        assert_eq!(-negamax(&pos.play(best).unwrap()), want, "best move {best} in {}", pos.to_text());
        // Null windows around the value bracket it; the WLD window gets the sign.
        for a in [want - 1, want] {
            engine.clear();
            let v = engine.nws_end(&eval, pos.player(), pos.opponent(), a, pos.empties());
            assert_eq!(v > a, want > a, "nws at {a} gave {v}, value {want}");
        }
        let (_, wld) = engine.solve_root(&eval, pos.player(), pos.opponent(), -1, 1).unwrap();
        assert_eq!(wld.signum(), want.signum());
    }
}

#[test]
fn last_four_empties_routines_bracket_the_exact_value_at_every_alpha() {
    // Positions with passes and unfillable squares are common this close to the end; every
    // null window must land on the right side of the exact value.
    let mut rng = StdRng::seed_from_u64(2024);
    let mut engine = Engine::new(12);
    let eval = PatternEval::builtin();
    let mut passes = 0;
    for i in 0..400 {
        let pos = random_position(&mut rng, 1 + i % 4, 0);
        let want = negamax(&pos);
        passes += usize::from(pos.legal_moves() == [Move::Pass]);
        for a in (-64..64).step_by(3).chain([want - 1, want]) {
            let v = engine.nws_end(&eval, pos.player(), pos.opponent(), a, pos.empties());
            assert_eq!(v > a, want > a, "alpha {a}: {v} for value {want} in {}", pos.to_text());
            if v > a {
                assert!(v <= want, "fail-high bound {v} above the value {want}");
            } else {
                assert!(v >= want, "fail-low bound {v} below the value {want}");
            }
        }
    }
    assert!(passes > 0, "the sample should include positions where the side to move passes");
}

#[test]
fn aspiration_solve_agrees_with_the_full_window() {
    let mut rng = StdRng::seed_from_u64(1616);
    let eval = PatternEval::builtin();
    let mut engine = Engine::new(18);
    for _ in 0..4 {
        let pos = random_position(&mut rng, 16, 0);
        engine.clear();
        let (_, full) = engine.solve_root(&eval, pos.player(), pos.opponent(), -64, 64).unwrap();
        engine.clear();
        let (best, asp) = engine.solve_exact(&eval, pos.player(), pos.opponent()).unwrap();
        assert_eq!(asp, full, "{}", pos.to_text());
        if let Move::Place(_) = best {
            let after = pos.play(best).unwrap();
            engine.clear();
            let (_, v) = engine.solve_root(&eval, after.player(), after.opponent(), -64, 64).unwrap();
            assert_eq!(-v, full, "best move {best} of {}", pos.to_text());
        }
    }
}

/// The selective pass's bounds are never taken for exact ones: after a pass that prunes
/// wherever it may (a negative margin, so its values are often wrong), a solve on the same
/// table still gives the exact value.
#[test]
fn selective_results_only_order_the_exact_search() {
    let mut rng = StdRng::seed_from_u64(1217);
    let eval = PatternEval::builtin();
    let mut wrong = 0;
    for _ in 0..6 {
        let pos = random_position(&mut rng, 16, 0);
        let (p, o) = (pos.player(), pos.opponent());
        let (_, exact) = Engine::new(18).solve_root(&eval, p, o, -64, 64).unwrap();
        let mut engine = Engine::new(18);
        engine.end_probcut = Some(-8);
        let (_, selective) = engine.solve_root(&eval, p, o, -64, 64).unwrap();
        engine.end_probcut = None;
        wrong += usize::from(selective != exact);
        let (_, v) = engine.solve_root(&eval, p, o, -64, 64).unwrap();
        assert_eq!(v, exact, "{}", pos.to_text());
    }
    assert!(wrong > 0, "the test's selective pass should be wrong somewhere");
}

#[test]
fn stable_discs_are_never_flipped() {
    // Every disc called stable must keep its colour through any continuation.
    fn check(pos: &Position, stable_black: u64, stable_white: u64, depth: u32) {
        assert_eq!(pos.black() & stable_black, stable_black, "{}", pos.to_text());
        assert_eq!(pos.white() & stable_white, stable_white, "{}", pos.to_text());
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            check(&pos.play(m).unwrap(), stable_black, stable_white, depth - 1);
        }
    }
    let mut rng = StdRng::seed_from_u64(77);
    let mut seen = 0;
    for i in 0..40 {
        let pos = random_position(&mut rng, 6 + i % 8, 0);
        let sb = stable_discs(pos.black(), pos.white());
        let sw = stable_discs(pos.white(), pos.black());
        seen += (sb | sw).count_ones();
        check(&pos, sb, sw, pos.empties().min(5));
    }
    assert!(seen > 100, "the sample should contain stable discs ({seen})");
    // A lone corner is stable; a lone centre disc is not.
    assert_eq!(stable_discs(1, 1 << 9), 1);
    assert_eq!(stable_discs(1 << 27, 1 << 28), 0);
    let full = Position::from_bitboards(!0 ^ 0xffff, 0xffff, Color::Black).unwrap();
    assert_eq!(stable_discs(full.black(), full.white()), full.black());
}

#[test]
fn solve_reports_pass_and_finished_games() {
    let pos = Position::from_bitboards(1, 2, Color::White).unwrap();
    let s = solve(&pos);
    assert_eq!((s.best, s.score), (Move::Pass, -64));
    let end = Position::from_bitboards(0b111, 0, Color::White).unwrap();
    assert_eq!(solve(&end).score, -64);
}
