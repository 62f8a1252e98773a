//! Seed 001's position measure as its article writes it, for `standard-classic`
//! (docs/design/reversi-sontaku.md#standard-classic-seed-001s-standard-as-published): the square
//! table, 12 × the difference in legal moves, and the disc difference from 16 empties on.
//!
//! It differs from the shared classic evaluation ([`classic`](crate::reversi::engine::classic))
//! in one rule: a corner's neighbours lose their penalty for the side that *holds* the corner
//! (the article: "隅をすでに自分が取っていれば"), where the shared one lifts it for both sides
//! once anyone does. What the article leaves out (the table beyond the corners' 120 and the
//! X-squares' −40, how fast the discs' weight grows, the clamp) is the shared evaluation's.

use crate::reversi::engine::classic::{CORNER_NEIGHBOURS, DISC_SCORE, VALUE_CLASSES};
use crate::reversi::rules::board::moves;

/// The weight of one legal move of difference ("12 を掛けて").
const MOBILITY_WEIGHT: i32 = 12;
/// Discs count from this many empties on ("空きマスが 16 個以下").
const DISCS_FROM_EMPTIES: i32 = 16;

/// Seed 001's evaluation of a position that is not over, for player `p` against `o` (the
/// tests check it against the article's formula; searches use the one below).
#[cfg(test)]
pub(super) fn published_eval(p: u64, o: u64) -> i32 {
    published_eval_with_moves(p, o, moves(p, o))
}

/// Seed 001's evaluation given `p`'s legal moves, which a search leaf has already generated.
#[inline]
pub(super) fn published_eval_with_moves(p: u64, o: u64, my_moves: u64) -> i32 {
    let diff = |a: u64, b: u64| a.count_ones() as i32 - b.count_ones() as i32;
    let mut score = published_square_score(p, o) + MOBILITY_WEIGHT * diff(my_moves, moves(o, p));
    let empties = (!(p | o)).count_ones() as i32;
    if empties <= DISCS_FROM_EMPTIES {
        // The article only says the weight grows as the squares fill: the shared evaluation's
        // 2 per disc at 16 empties, 2 more with each move.
        score += 2 * (DISCS_FROM_EMPTIES + 1 - empties) * diff(p, o);
    }
    // Below one disc of exact margin, as the shared evaluation: a search's estimate never
    // passes a result it has proven.
    score.clamp(-(DISC_SCORE - 1), DISC_SCORE - 1)
}

/// The square-table part for `p` against `o`: each side's discs on the neighbours of a corner
/// it holds count 0 instead of their penalty.
pub(super) fn published_square_score(p: u64, o: u64) -> i32 {
    let lapsed = |side: u64| {
        CORNER_NEIGHBOURS.iter().filter(|&&(corner, _)| side & corner != 0).fold(0, |m, &(_, next)| m | next)
    };
    let (p_counted, o_counted) = (p & !lapsed(p), o & !lapsed(o));
    VALUE_CLASSES
        .iter()
        .map(|&(value, mask)| value * ((p_counted & mask).count_ones() as i32 - (o_counted & mask).count_ones() as i32))
        .sum()
}
