//! How long can any opponent keep a careless player's game going? An exact bound over every
//! position of the index.
//!
//! The careless player (the hospitality benchmark's "child") takes a win in one whenever the
//! board offers one and otherwise taps any legal move, uniformly. Its opponent may play
//! anything. [`survival`] computes, for every game length `L`, the best chance over every
//! policy of the opponent that the game lasts at least `L` plies: no ply before the `L`-th ends
//! it. A win of the opponent ends the game too, so the best policy never takes one early.
//!
//! # Method
//! Backward induction on the plies left, over all the index's slots at once: `f(p, 0) = 1`;
//! with the careless player to move, `f(p, r)` is 0 if it can win at once and otherwise the
//! mean over its moves of `f(child, r - 1)` (0 for a move that ends the game); with the
//! opponent to move, the best of those. One pass per ply, each over every slot in parallel,
//! with three arrays of `f32` alive (the pass and the two before it). A position without a
//! slot that is not over lets its mover capture the other lion (see the index's domain): the
//! careless player then wins at once (0), and the opponent, who must not, is valued on the fly
//! from its children, two plies back.
//!
//! The repetition draw is not modelled: it would only end games sooner, so the figures stay
//! upper bounds for the real games.

use rayon::prelude::*;

use super::super::position::{child, gen_moves, status, MoveBuf, Status};
use super::index::{Index, Material};
use super::progress::{bar, log, BuildOptions};
use super::ProbeError;
use crate::doubutsu::Position;

/// The best chance that a careless player's game lasts each length.
#[derive(Debug, Clone, PartialEq)]
pub struct Survival {
    /// `(length in plies, best chance over every policy of the opponent)`, shortest first:
    /// the even lengths from 2 when the careless player moves first at the root (so that
    /// each pass serves one length), up to the length asked for.
    pub chances: Vec<(u32, f64)>,
}

/// The chance at one position, `plies_left` plies to go, from the two previous passes
/// (`prev`: one ply fewer left, `prev2`: two fewer); `careless` says who is to move.
fn chance(
    index: &Index,
    k: u64,
    plies_left: u32,
    careless: bool,
    prev: &[f32],
    prev2: &[f32],
    buf: &mut MoveBuf,
) -> f32 {
    if plies_left == 0 {
        return 1.0;
    }
    gen_moves(k, buf);
    let n = buf.as_slice().len();
    if n == 0 {
        return 0.0;
    }
    // Each child and whether it is still going, computed once (the status is most of a
    // pass's work); a fixed array, as the pass visits every slot.
    let mut kids = [(0u64, false); 96];
    for (kid, &m) in kids.iter_mut().zip(buf.as_slice()) {
        let c = child(k, m);
        let st = status(c);
        if careless && matches!(st, Status::MoverLost(_)) {
            // The careless player wins at once when it can.
            return 0.0;
        }
        *kid = (c, st == Status::Ongoing);
    }
    let mut sum = 0.0f32;
    let mut best = 0.0f32;
    for &(c, going) in &kids[..n] {
        let v = if !going {
            0.0
        } else if plies_left == 1 {
            1.0
        } else if let Some(s) = index.slot(c) {
            prev[s as usize]
        } else if careless {
            // No slot and not over: its mover (the opponent) can capture the careless
            // player's lion and must not; valued from its own children, two plies back.
            chance(index, c, plies_left - 1, false, prev2, &[], buf)
        } else {
            // The careless player could capture the lion there, and would.
            0.0
        };
        sum += v;
        best = best.max(v);
        if !careless && best >= 1.0 {
            break;
        }
    }
    if careless {
        sum / n as f32
    } else {
        best
    }
}

/// For every even length up to `max_length`, the best chance that a game from `root` (the
/// careless player to move) lasts that long. A root of another material is an error.
pub fn survival(index: &Index, root: &Position, max_length: u32, opts: &BuildOptions) -> Result<Survival, ProbeError> {
    if Material::of(root) != index.material() {
        return Err(ProbeError::NotInTable(root.to_text()));
    }
    let len = usize::try_from(index.len()).expect("fits in memory");
    // Plies left at the root for the longest length: the game lasts `L` plies when none of
    // the first `L - 1` ends it. Passes alternate movers; the careless player moves in the
    // passes of the root's parity.
    let top = max_length.saturating_sub(1) | 1;
    let mut chances = Vec::new();
    let (mut prev2, mut prev): (Vec<f32>, Vec<f32>) = (Vec::new(), Vec::new());
    let mut buf = MoveBuf::new();
    for plies_left in 1..=top {
        let careless = (top - plies_left).is_multiple_of(2);
        let pb = bar(opts, index.len(), "survival");
        let cur: Vec<f32> = (0..len)
            .into_par_iter()
            .with_min_len(1 << 14)
            .map_init(MoveBuf::new, |buf, s| {
                if s % (1 << 20) == 0 {
                    pb.inc(1 << 20);
                }
                chance(index, index.key(s as u64), plies_left, careless, &prev, &prev2, buf)
            })
            .collect();
        pb.finish_and_clear();
        if careless {
            let v = chance(index, root.key(), plies_left, true, &prev, &prev2, &mut buf);
            chances.push((plies_left + 1, f64::from(v)));
            log(opts, format_args!("survival: {} plies or more: {v:.4}", plies_left + 1));
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    Ok(Survival { chances })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::doubutsu::{Color, Ending};

    /// The reference: expectimax over the public rules (`Position`), memoised on the position
    /// and the plies played; no index, no raw keys.
    struct Reference {
        length: u32,
        memo: HashMap<(Position, u32), f64>,
    }

    impl Reference {
        fn chance(&mut self, pos: &Position, played: u32) -> f64 {
            if played + 1 >= self.length {
                return 1.0;
            }
            if let Some(&v) = self.memo.get(&(*pos, played)) {
                return v;
            }
            let careless = pos.turn() == Color::Sente;
            let children: Vec<Position> = pos.legal_moves().into_iter().map(|m| pos.play(m).unwrap()).collect();
            let v = if children.is_empty() || (careless && !pos.winning_moves().is_empty()) {
                0.0
            } else {
                let values: Vec<f64> = children
                    .iter()
                    .map(|c| if c.outcome().is_some() { 0.0 } else { self.chance(c, played + 1) })
                    .collect();
                if careless {
                    values.iter().sum::<f64>() / values.len() as f64
                } else {
                    values.iter().copied().fold(0.0, f64::max)
                }
            };
            self.memo.insert((*pos, played), v);
            v
        }
    }

    fn reference(root: &Position, length: u32) -> f64 {
        Reference { length, memo: HashMap::new() }.chance(root, 0)
    }

    /// A position of `index`'s material, sente (the careless player) to move, not over.
    fn random_root(index: &Index, rng: &mut StdRng) -> Position {
        loop {
            let key = index.key(rng.gen_range(0..index.len()));
            let Some(pos) = Position::from_key(key, Color::Sente) else { continue };
            if pos.outcome().is_none() && pos.winning_moves().is_empty() {
                return pos;
            }
        }
    }

    #[test]
    fn every_length_matches_expectimax_over_the_rules_on_small_materials() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut strictly_between = 0;
        for material in [[0, 0, 1], [1, 0, 1]] {
            let index = Index::new(Material(material));
            for _ in 0..6 {
                let root = random_root(&index, &mut rng);
                let got = survival(&index, &root, 8, &BuildOptions::default()).unwrap();
                assert_eq!(got.chances.iter().map(|c| c.0).collect::<Vec<_>>(), vec![2, 4, 6, 8]);
                for &(length, chance) in &got.chances {
                    let want = reference(&root, length);
                    assert!((chance - want).abs() < 1e-4, "{material:?} {root:?} length {length}: {chance} vs {want}");
                    strictly_between += usize::from(chance > 0.0 && chance < 1.0);
                }
            }
        }
        // The comparison means something only if chance is at play.
        assert!(strictly_between >= 10, "only {strictly_between} chances strictly between 0 and 1");
    }

    #[test]
    fn chances_fall_with_the_length_and_a_lost_position_gives_none() {
        let index = Index::new(Material([1, 0, 1]));
        let mut rng = StdRng::seed_from_u64(5);
        let root = random_root(&index, &mut rng);
        let got = survival(&index, &root, 10, &BuildOptions::default()).unwrap();
        for w in got.chances.windows(2) {
            assert!(w[1].1 <= w[0].1 + 1e-6, "{:?}", got.chances);
        }
        // A root where the careless player can capture the lion: the game ends on ply 1.
        let winning_root = loop {
            let key = index.key(rng.gen_range(0..index.len()));
            if let Some(pos) = Position::from_key(key, Color::Sente) {
                if pos.outcome().is_none()
                    && pos.legal_moves().iter().any(|&m| {
                        matches!(pos.play(m).unwrap().outcome(), Some(Ending::Win { winner: Color::Sente, .. }))
                    })
                {
                    break pos;
                }
            }
        };
        let lost = survival(&index, &winning_root, 4, &BuildOptions::default()).unwrap();
        assert!(lost.chances.iter().all(|c| c.1 == 0.0), "{:?}", lost.chances);
    }

    #[test]
    fn a_root_of_another_material_is_a_typed_error() {
        let index = Index::new(Material([0, 0, 1]));
        assert!(matches!(
            survival(&index, &Position::start(), 4, &BuildOptions::default()),
            Err(ProbeError::NotInTable(_))
        ));
    }
}
