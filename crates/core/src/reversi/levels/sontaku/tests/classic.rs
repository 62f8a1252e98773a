//! `standard-classic`, seed 001's `standard` as published
//! (docs/design/reversi-sontaku.md#standard-classic-seed-001s-standard-as-published): its
//! evaluation against the seed's formula, written out here square by square.

use super::*;
use crate::reversi::engine::classic::eval_pp;
use crate::reversi::engine::search::Objective;
use crate::reversi::rules::naive::NaiveBoard;

/// The square table row by row from a1: the article's corners (120) and X-squares (−40), the
/// rest the classic table the design page lists.
#[rustfmt::skip]
const TABLE: [[i32; 8]; 8] = [
    [120, -20,  20,   5,   5,  20, -20, 120],
    [-20, -40,  -5,  -5,  -5,  -5, -40, -20],
    [ 20,  -5,  15,   3,   3,  15,  -5,  20],
    [  5,  -5,   3,   3,   3,   3,  -5,   5],
    [  5,  -5,   3,   3,   3,   3,  -5,   5],
    [ 20,  -5,  15,   3,   3,  15,  -5,  20],
    [-20, -40,  -5,  -5,  -5,  -5, -40, -20],
    [120, -20,  20,   5,   5,  20, -20, 120],
];

/// Seed 001's evaluation for the side to move, from the article's words: each own disc adds
/// its square's value and each opponent's disc subtracts it, except that a side's discs next
/// to a corner that side holds lose their penalty; 12 × (own − opponent's legal moves); from 16
/// empties, 2 × (17 − empties) × (own − opponent's discs). Clamped below one disc of margin.
fn seed_formula(pos: &Position) -> i32 {
    let text = pos.to_text();
    let cell = |r: usize, c: usize| text.as_bytes()[r * 8 + c];
    let me = if pos.turn() == Color::Black { b'X' } else { b'O' };
    let holds_corner_next_to = |who: u8, r: usize, c: usize| {
        [(0, 0), (0, 7), (7, 0), (7, 7)].into_iter().any(|(cr, cc): (usize, usize)| {
            cr.abs_diff(r) <= 1 && cc.abs_diff(c) <= 1 && (cr, cc) != (r, c) && cell(cr, cc) == who
        })
    };
    let (mut squares, mut discs) = (0, 0);
    for r in 0..8 {
        for c in 0..8 {
            let who = cell(r, c);
            if who != b'X' && who != b'O' {
                continue;
            }
            let value = if holds_corner_next_to(who, r, c) { 0 } else { TABLE[r][c] };
            let sign = if who == me { 1 } else { -1 };
            squares += sign * value;
            discs += sign;
        }
    }
    let mine = NaiveBoard::from_position(pos).legal_mask().count_ones() as i32;
    let other = Position::from_bitboards(pos.black(), pos.white(), pos.turn().opposite()).unwrap();
    let theirs = NaiveBoard::from_position(&other).legal_mask().count_ones() as i32;
    let empties = pos.empties() as i32;
    let late = if empties <= 16 { 2 * (17 - empties) * discs } else { 0 };
    (squares + 12 * (mine - theirs) + late).clamp(-999, 999)
}

fn bit(s: &str) -> u64 {
    1u64 << s.parse::<crate::reversi::rules::board::Square>().unwrap().index()
}

#[test]
fn the_classic_evaluation_is_the_seeds_formula() {
    // The start: four discs of 3 each side, four moves each.
    let start = Position::start();
    assert_eq!(published_eval(start.player(), start.opponent()), 0);
    // Black holds a1, White sits on b2 beside it: b2 keeps its −40 for White, who does not hold
    // a1 (160), and Black's one move (c3) against none (+12). The shared evaluation lifts b2's
    // penalty for both sides (132): the one rule where it is not the article's.
    let corner = Position::from_bitboards(bit("a1"), bit("b2"), Color::Black).unwrap();
    assert_eq!(published_eval(corner.player(), corner.opponent()), 172);
    assert_eq!(eval_pp(corner.player(), corner.opponent()), 132);
    // Seen from White: the same position, negated.
    let white_view = Position::from_bitboards(bit("a1"), bit("b2"), Color::White).unwrap();
    assert_eq!(published_eval(white_view.player(), white_view.opponent()), -172);
    // Rows 1-5 Black, row 6 White, 16 empties, Black to move: squares 360 − 66 (Black holds a1
    // and h1, so b1, a2, b2, g1, h2, g2 count 0), eight moves to none (+96), 32 discs ahead at
    // weight 2 (+64).
    let late = Position::from_bitboards((1 << 40) - 1, 0xFF << 40, Color::Black).unwrap();
    assert_eq!(late.empties(), 16);
    assert_eq!(published_eval(late.player(), late.opponent()), 454);
    for pos in [start, corner, white_view, late] {
        assert_eq!(published_eval(pos.player(), pos.opponent()), seed_formula(&pos), "{}", pos.to_text());
    }
    // And on positions of every stage of the game.
    let mut rng = StdRng::seed_from_u64(1001);
    for i in 0..400 {
        let pos = random_position(&mut rng, 4 + i % 56, 1);
        assert_eq!(published_eval(pos.player(), pos.opponent()), seed_formula(&pos), "{}", pos.to_text());
    }
}

#[test]
fn the_classic_objective_is_the_seeds_desirability_of_the_humans_advantage() {
    // 1.0 below the target, 0.7 above it (in tenths), around a slight human lead.
    assert_eq!(classic_desirability(CLASSIC_TARGET), 0);
    assert_eq!(classic_desirability(CLASSIC_TARGET - 10), -100);
    assert_eq!(classic_desirability(CLASSIC_TARGET + 10), -70);
    let mut rng = StdRng::seed_from_u64(1002);
    for i in 0..200 {
        let pos = random_position(&mut rng, 14 + i % 46, 1);
        let (p, o) = (pos.player(), pos.opponent());
        let mover = seed_formula(&pos);
        // The CPU to move: the human's advantage is the mover's negated; the engine's negamax
        // sees the CPU's desirability as is.
        let cpu_moves = StandardClassic.eval(p, o, &(), true);
        assert_eq!(cpu_moves, classic_desirability(-mover), "{}", pos.to_text());
        // The human to move: their own advantage, and the value negated for the mover.
        let human_moves = StandardClassic.eval(p, o, &(), false);
        assert_eq!(human_moves, -classic_desirability(mover), "{}", pos.to_text());
    }
    // The end of the game is `standard`'s: a +6 human win best.
    let end = Position::from_bitboards(u64::MAX >> 26, !(u64::MAX >> 26), Color::White).unwrap();
    let human_margin = -final_margin(end.player(), end.opponent());
    assert_eq!(StandardClassic.terminal(end.player(), end.opponent(), true), standard_final_value(human_margin));
}
