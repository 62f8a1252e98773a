//! How well the human plays, estimated from the moves they have made: doubutsu settai's
//! best-move divergence, applied to reversi and averaged over the human's recent moves
//! (docs/design/reversi-strength.md).
//!
//! A move's *cost* is how many discs it gives away against the best move in its position, by a
//! shallow search with the pattern evaluation. A beginner's moves cost several discs each, a
//! strong player's about one (the shallow search is itself imperfect). `standard` reads the
//! estimate as the chance that the human finds good replies (see
//! [`sontaku::HumanModel`](crate::reversi::levels::sontaku::HumanModel)).

use crate::reversi::engine::eval::{PatternEval, DISC};
use crate::reversi::engine::search::Engine;
use crate::reversi::engine::strong::Strong;
use crate::reversi::rules::board::{Move, Position};

/// Plies of the search that values each of the human's moves.
pub const COST_DEPTH: u32 = 4;
/// How many of the human's most recent moves count.
pub const RECENT_MOVES: usize = 12;
/// One move's cost is capped here (discs), so a single wild move cannot decide the estimate.
pub const MAX_COST: f64 = 16.0;
/// Cost ratio (see [`Strength::ratio`]) from which a player is taken as a beginner: strength 0.
/// A player who taps at random scores about 1.
pub const BEGINNER_RATIO: f64 = 0.8;
/// Cost ratio of a player taken as strong: strength 1.
pub const STRONG_RATIO: f64 = 0.25;
/// Before the human has moved, the estimate counts this many discs of choice made at random:
/// the product's first guess is a child, and the opening (where most moves are worth about the
/// same) moves it little.
pub const PRIOR_DISCS: f64 = 12.0;

/// The estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Strength {
    /// 0 (a beginner) ..= 1 (a strong player).
    pub value: f64,
    /// What the human's moves cost against what moves picked at random would have cost in the
    /// same positions (with the prior): about 1 for a child tapping anywhere, near 0 for the
    /// best player. Positions where every move is worth the same weigh nothing.
    pub ratio: f64,
    /// Mean cost of the moves that counted (discs), without the prior.
    pub mean_cost: f64,
    /// How many moves counted (forced moves and passes tell nothing and are skipped).
    pub moves: usize,
}

impl Strength {
    /// What is assumed before the human has made a move.
    pub const UNKNOWN: Strength = Strength { value: 0.0, ratio: 1.0, mean_cost: f64::NAN, moves: 0 };
}

/// What one move cost, and what a move picked at random would have cost on average there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveCost {
    /// Discs given away against the best move.
    pub cost: f64,
    /// The mean cost of all legal moves in that position.
    pub typical: f64,
}

/// What `mv` gives away in `pos`, or `None` when the move tells nothing (a pass, or the only
/// legal move).
pub fn move_cost(engine: &mut Engine, eval: &PatternEval, pos: &Position, mv: Move) -> Option<MoveCost> {
    let Move::Place(sq) = mv else { return None };
    if pos.legal_mask().count_ones() < 2 {
        return None;
    }
    let deadline = engine.deadline.take();
    let r = engine.iterate(&Strong(eval), pos.player(), pos.opponent(), COST_DEPTH, true, DISC);
    engine.set_deadline(deadline);
    let r = r?;
    let best = r.scores.first()?.1;
    let cost_of = |v: i32| ((best - v) as f64 / DISC as f64).clamp(0.0, MAX_COST);
    let chosen = r.scores.iter().find(|&&(s, _)| s == sq.index())?.1;
    let typical = r.scores.iter().map(|&(_, v)| cost_of(v)).sum::<f64>() / r.scores.len() as f64;
    Some(MoveCost { cost: cost_of(chosen), typical })
}

/// The human's strength from their moves so far (`(position, move)` in the order played; only
/// the last [`RECENT_MOVES`] count, so the estimate follows a player who warms up or tires).
pub fn estimate(engine: &mut Engine, eval: &PatternEval, history: &[(Position, Move)]) -> Strength {
    let from = history.len().saturating_sub(RECENT_MOVES);
    let costs: Vec<MoveCost> =
        history[from..].iter().filter_map(|(pos, mv)| move_cost(engine, eval, pos, *mv)).collect();
    from_costs(&costs)
}

/// The estimate from move costs, with the beginner prior.
pub fn from_costs(costs: &[MoveCost]) -> Strength {
    let spent: f64 = costs.iter().map(|c| c.cost).sum();
    let typical: f64 = costs.iter().map(|c| c.typical).sum();
    let ratio = (spent + PRIOR_DISCS) / (typical + PRIOR_DISCS);
    let value = ((BEGINNER_RATIO - ratio) / (BEGINNER_RATIO - STRONG_RATIO)).clamp(0.0, 1.0);
    let mean_cost = if costs.is_empty() { f64::NAN } else { spent / costs.len() as f64 };
    Strength { value, ratio, mean_cost, moves: costs.len() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::rules::naive::random_position;
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn the_best_move_costs_nothing_and_a_worse_one_costs_its_difference() {
        let eval = PatternEval::builtin();
        let mut engine = Engine::new(16);
        let mut rng = StdRng::seed_from_u64(4);
        let mut checked = 0;
        while checked < 10 {
            let pos = random_position(&mut rng, 40, 2);
            if pos.legal_mask().count_ones() < 3 {
                continue;
            }
            checked += 1;
            let r = engine.iterate(&Strong(&eval), pos.player(), pos.opponent(), COST_DEPTH, true, DISC).unwrap();
            let mv = |sq: u8| Move::Place(crate::reversi::Square::new(sq).unwrap());
            assert_eq!(move_cost(&mut engine, &eval, &pos, mv(r.scores[0].0)).unwrap().cost, 0.0);
            let (worst, worst_value) = *r.scores.last().unwrap();
            let expected = (((r.scores[0].1 - worst_value) as f64) / DISC as f64).clamp(0.0, MAX_COST);
            let got = move_cost(&mut engine, &eval, &pos, mv(worst)).unwrap();
            assert!((got.cost - expected).abs() < 1e-9, "{}: {got:?} vs {expected}", pos.to_text());
            assert!(got.cost > 0.0 || r.scores[0].1 == worst_value);
            // The worst move costs at least what a move picked at random costs on average.
            assert!(got.cost >= got.typical - 1e-9 && got.typical >= 0.0);
        }
        assert_eq!(move_cost(&mut engine, &eval, &Position::start(), Move::Pass), None);
    }

    fn at(cost: f64, typical: f64) -> MoveCost {
        MoveCost { cost, typical }
    }

    #[test]
    fn a_newcomer_starts_as_a_beginner_and_good_moves_raise_the_estimate() {
        assert_eq!(from_costs(&[]).value, 0.0);
        let perfect = from_costs(&[at(0.0, 5.0); RECENT_MOVES]);
        assert!(perfect.value > 0.9, "{perfect:?}");
        // Three perfect moves are not yet proof of a strong player.
        let three = from_costs(&[at(0.0, 5.0); 3]);
        assert!(three.value > 0.0 && three.value < perfect.value);
        // Moves as costly as random ones are a beginner's, and choices among equal moves
        // (the opening) say little.
        assert_eq!(from_costs(&[at(5.0, 5.0); 12]).value, 0.0);
        assert!(from_costs(&[at(0.0, 0.3); 12]).value < 0.1);
    }

    proptest! {
        /// Cheaper moves never lower the estimate; a perfect move never lowers it either.
        #[test]
        fn the_estimate_moves_the_right_way(
            costs in prop::collection::vec((0.0f64..MAX_COST, 0.0f64..MAX_COST), 1..12),
            i in 0usize..12,
            cut in 0.0f64..4.0,
        ) {
            let costs: Vec<MoveCost> = costs.into_iter().map(|(a, b)| at(a.min(b), a.max(b))).collect();
            let i = i % costs.len();
            let before = from_costs(&costs);
            let mut better = costs.clone();
            better[i].cost = (better[i].cost - cut).max(0.0);
            let after = from_costs(&better);
            prop_assert!(after.value >= before.value);
            prop_assert!((0.0..=1.0).contains(&after.value));
            let mut more = costs.clone();
            more.push(at(0.0, 3.0));
            prop_assert!(from_costs(&more).value >= before.value);
        }
    }

    #[test]
    fn estimates_separate_a_random_player_from_a_careful_one() {
        use rand::seq::SliceRandom;
        let eval = PatternEval::builtin();
        let mut engine = Engine::new(16);
        let mut rng = StdRng::seed_from_u64(21);
        // The same positions (from random games), answered at random and by the search's best.
        let (mut random, mut careful) = (Vec::new(), Vec::new());
        while careful.len() < 2 * RECENT_MOVES {
            let mut pos = Position::start();
            while !pos.is_game_over() && pos.empties() > 14 {
                let legal = pos.legal_moves();
                let mv = *legal.choose(&mut rng).unwrap();
                if legal.len() >= 2 {
                    let r =
                        engine.iterate(&Strong(&eval), pos.player(), pos.opponent(), COST_DEPTH, false, DISC).unwrap();
                    careful.push((pos, Move::Place(crate::reversi::Square::new(r.scores[0].0).unwrap())));
                    random.push((pos, mv));
                }
                pos = pos.play(mv).unwrap();
            }
        }
        let r = estimate(&mut engine, &eval, &random);
        let c = estimate(&mut engine, &eval, &careful);
        assert_eq!((r.moves, c.moves), (RECENT_MOVES, RECENT_MOVES));
        assert!(c.value > 0.9 && r.value < 0.1, "careful {c:?}, random {r:?}");
        assert!(c.ratio < 0.2 && r.ratio > 0.7, "careful {c:?}, random {r:?}");
    }
}
