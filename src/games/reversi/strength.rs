//! How well the human plays, estimated from the moves they have made: seed 000's best-move
//! divergence, applied to reversi and averaged over the human's recent moves.
//!
//! A move's *cost* is how many discs it gives away against the best move in its position, by a
//! shallow search with the pattern evaluation. A beginner's moves cost several discs each, a
//! strong player's about one (the shallow search is itself imperfect). `standard` reads the
//! estimate as the chance that the human finds good replies (see
//! [`sontaku::HumanModel`](super::sontaku::HumanModel)).

use super::board::{Move, Position};
use super::eval::{PatternEval, DISC};
use super::level::Strong;
use super::search::Engine;

/// Plies of the search that values each of the human's moves.
pub const COST_DEPTH: u32 = 4;
/// How many of the human's most recent moves count.
pub const RECENT_MOVES: usize = 12;
/// One move's cost is capped here (discs), so a single wild move cannot decide the estimate.
pub const MAX_COST: f64 = 16.0;
/// Mean cost per move (discs) of a player taken as a beginner: strength 0.
pub const BEGINNER_COST: f64 = 6.0;
/// Mean cost per move (discs) of a player taken as strong: strength 1.
pub const STRONG_COST: f64 = 1.5;
/// Before the human has moved, the estimate counts this many imaginary moves of a beginner:
/// the product's first guess is a child, and a few good moves are needed to move it.
pub const PRIOR_MOVES: f64 = 3.0;

/// The estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Strength {
    /// 0 (a beginner) ..= 1 (a strong player).
    pub value: f64,
    /// Mean cost of the moves that counted (discs), without the prior.
    pub mean_cost: f64,
    /// How many moves counted (forced moves and passes tell nothing and are skipped).
    pub moves: usize,
}

impl Strength {
    /// What is assumed before the human has made a move.
    pub const UNKNOWN: Strength = Strength { value: 0.0, mean_cost: f64::NAN, moves: 0 };
}

/// Discs that `mv` gives away in `pos` against the best move there, or `None` when the move
/// tells nothing (a pass, or the only legal move).
pub fn move_cost(engine: &mut Engine, eval: &PatternEval, pos: &Position, mv: Move) -> Option<f64> {
    let Move::Place(sq) = mv else { return None };
    if pos.legal_mask().count_ones() < 2 {
        return None;
    }
    let deadline = engine.deadline.take();
    let r = engine.iterate(&Strong(eval), pos.player(), pos.opponent(), COST_DEPTH, true, DISC);
    engine.set_deadline(deadline);
    let r = r?;
    let best = r.scores.first()?.1;
    let chosen = r.scores.iter().find(|&&(s, _)| s == sq.index())?.1;
    Some(((best - chosen) as f64 / DISC as f64).clamp(0.0, MAX_COST))
}

/// The human's strength from their moves so far (`(position, move)` in the order played; only
/// the last [`RECENT_MOVES`] count, so the estimate follows a player who warms up or tires).
pub fn estimate(engine: &mut Engine, eval: &PatternEval, history: &[(Position, Move)]) -> Strength {
    let from = history.len().saturating_sub(RECENT_MOVES);
    let costs: Vec<f64> = history[from..].iter().filter_map(|(pos, mv)| move_cost(engine, eval, pos, *mv)).collect();
    from_costs(&costs)
}

/// The estimate from move costs (discs each), with the beginner prior.
pub fn from_costs(costs: &[f64]) -> Strength {
    let n = costs.len() as f64;
    let sum: f64 = costs.iter().sum();
    let with_prior = (sum + PRIOR_MOVES * BEGINNER_COST) / (n + PRIOR_MOVES);
    let value = ((BEGINNER_COST - with_prior) / (BEGINNER_COST - STRONG_COST)).clamp(0.0, 1.0);
    Strength { value, mean_cost: if costs.is_empty() { f64::NAN } else { sum / n }, moves: costs.len() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::naive::random_position;
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
            let mv = |sq: u8| Move::Place(crate::games::reversi::Square::new(sq).unwrap());
            assert_eq!(move_cost(&mut engine, &eval, &pos, mv(r.scores[0].0)), Some(0.0));
            let (worst, worst_value) = *r.scores.last().unwrap();
            let expected = (((r.scores[0].1 - worst_value) as f64) / DISC as f64).clamp(0.0, MAX_COST);
            let got = move_cost(&mut engine, &eval, &pos, mv(worst)).unwrap();
            assert!((got - expected).abs() < 1e-9, "{}: {got} vs {expected}", pos.to_text());
            assert!(got > 0.0 || r.scores[0].1 == worst_value);
        }
        assert_eq!(move_cost(&mut engine, &eval, &Position::start(), Move::Pass), None);
    }

    #[test]
    fn a_newcomer_starts_as_a_beginner_and_good_moves_raise_the_estimate() {
        assert_eq!(from_costs(&[]).value, 0.0);
        let perfect = from_costs(&[0.0; RECENT_MOVES]);
        assert!(perfect.value > 0.9, "{perfect:?}");
        // Three perfect moves are not yet proof of a strong player.
        let three = from_costs(&[0.0; 3]);
        assert!(three.value > 0.0 && three.value < perfect.value);
        assert_eq!(from_costs(&[BEGINNER_COST * 2.0; 6]).value, 0.0);
    }

    proptest! {
        /// Cheaper moves never lower the estimate; more evidence moves it further from the prior.
        #[test]
        fn the_estimate_moves_the_right_way(costs in prop::collection::vec(0.0f64..MAX_COST, 1..12), i in 0usize..12, cut in 0.0f64..4.0) {
            let i = i % costs.len();
            let before = from_costs(&costs);
            let mut better = costs.clone();
            better[i] = (better[i] - cut).max(0.0);
            let after = from_costs(&better);
            prop_assert!(after.value >= before.value);
            prop_assert!((0.0..=1.0).contains(&after.value));
            let mut more = costs.clone();
            more.push(0.0);
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
                    careful.push((pos, Move::Place(crate::games::reversi::Square::new(r.scores[0].0).unwrap())));
                    random.push((pos, mv));
                }
                pos = pos.play(mv).unwrap();
            }
        }
        let r = estimate(&mut engine, &eval, &random);
        let c = estimate(&mut engine, &eval, &careful);
        assert_eq!((r.moves, c.moves), (RECENT_MOVES, RECENT_MOVES));
        assert!(c.value > 0.9 && r.value < 0.3, "careful {c:?}, random {r:?}");
        assert!(c.mean_cost < 0.5 && r.mean_cost > 3.0, "careful {c:?}, random {r:?}");
    }
}
