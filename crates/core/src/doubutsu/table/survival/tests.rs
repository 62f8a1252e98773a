//! The bound checked against expectimax over the rules on small materials, and its properties.

use std::collections::HashMap;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::doubutsu::{Color, Ending};

/// The reference: expectimax over the public rules (`Position`), memoised on the position
/// and the plies played; no index, no raw keys. The careless player's moves are weighed by
/// simulating its choice (tap, then put back), and a take-back's loop back to the same
/// position is solved by iterating to the fixed point rather than in closed form.
pub(in crate::doubutsu::table) struct Reference {
    length: u32,
    player: CarelessPlayer,
    memo: HashMap<(Position, u32), f64>,
}

impl Reference {
    /// The reference for games of `length` plies against `player`.
    pub(in crate::doubutsu::table) fn new(length: u32, player: CarelessPlayer) -> Reference {
        Reference { length, player, memo: HashMap::new() }
    }

    /// The best chance that a game standing at `pos`, `played` plies in, lasts the length.
    pub(in crate::doubutsu::table) fn chance(&mut self, pos: &Position, played: u32) -> f64 {
        if played + 1 >= self.length {
            return 1.0;
        }
        if let Some(&v) = self.memo.get(&(*pos, played)) {
            return v;
        }
        let careless = pos.turn() == Color::Sente;
        let moves = pos.legal_moves();
        let v = if moves.is_empty() || (careless && !pos.winning_moves().is_empty()) {
            0.0
        } else if careless {
            self.careless(pos, played)
        } else {
            moves.iter().map(|&m| self.after(pos.play(m).unwrap(), played + 1)).fold(0.0, f64::max)
        };
        self.memo.insert((*pos, played), v);
        v
    }

    fn after(&mut self, c: Position, played: u32) -> f64 {
        if c.outcome().is_some() {
            0.0
        } else {
            self.chance(&c, played)
        }
    }

    /// The careless player to move, with no win at once.
    fn careless(&mut self, pos: &Position, played: u32) -> f64 {
        let moves = pos.legal_moves();
        let n = moves.len() as f64;
        let q = f64::from(self.player.heed);
        let risky: Vec<bool> = moves.iter().map(|&m| pos.loses_at_once(m)).collect();
        let safe = risky.iter().filter(|r| !**r).count() as f64;
        // Each move's chance: tapped uniformly; a risky tap put back with probability q
        // for a safe move drawn uniformly.
        let picked: Vec<f64> = risky
            .iter()
            .map(|&r| match (safe > 0.0, r) {
                (false, _) => 1.0 / n,
                (true, true) => (1.0 - q) / n,
                (true, false) => 1.0 / n + (n - safe) / n * q / safe,
            })
            .collect();
        // For each move: the opponent's best answer, as a function of this position's own
        // value (a take-back comes back here).
        let mut answers: Vec<Vec<(bool, f64)>> = Vec::new();
        for (&m, &r) in moves.iter().zip(&risky) {
            let c = pos.play(m).unwrap();
            if c.outcome().is_some() {
                answers.push(vec![(false, 0.0)]);
            } else if played + 2 >= self.length {
                answers.push(vec![(false, 1.0)]);
            } else {
                let offered = r && safe > 0.0 && self.player.takebacks;
                let mut replies = Vec::new();
                for y in c.legal_moves() {
                    let d = c.play(y).unwrap();
                    let quiet = d.outcome().is_none() && d.winning_moves().is_empty();
                    replies.push((offered && quiet, self.after(d, played + 2)));
                }
                answers.push(replies);
            }
        }
        let mut v = 0.0;
        for _ in 0..200 {
            v = answers
                .iter()
                .zip(&picked)
                .map(|(replies, p)| {
                    let best = replies
                        .iter()
                        .map(|&(back, f)| if back { q * v + (1.0 - q) * f } else { f })
                        .fold(0.0, f64::max);
                    p * best
                })
                .sum();
        }
        v
    }
}

fn reference(root: &Position, length: u32, player: CarelessPlayer) -> f64 {
    Reference::new(length, player).chance(root, 0)
}

/// A position of `index`'s material, sente (the careless player) to move, not over.
pub(in crate::doubutsu::table) fn random_root(index: &Index, rng: &mut StdRng) -> Position {
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
            let got = survival(&index, &root, 8, &[CarelessPlayer::CHILD], &BuildOptions::default()).unwrap();
            assert_eq!(got[0].chances.iter().map(|c| c.0).collect::<Vec<_>>(), vec![2, 4, 6, 8]);
            for &(length, chance) in &got[0].chances {
                let want = reference(&root, length, CarelessPlayer::CHILD);
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
    let got = survival(&index, &root, 10, &[CarelessPlayer::CHILD], &BuildOptions::default()).unwrap().remove(0);
    for w in got.chances.windows(2) {
        assert!(w[1].1 <= w[0].1 + 1e-6, "{:?}", got.chances);
    }
    // A root where the careless player can capture the lion: the game ends on ply 1.
    let winning_root = loop {
        let key = index.key(rng.gen_range(0..index.len()));
        if let Some(pos) = Position::from_key(key, Color::Sente) {
            if pos.outcome().is_none()
                && pos
                    .legal_moves()
                    .iter()
                    .any(|&m| matches!(pos.play(m).unwrap().outcome(), Some(Ending::Win { winner: Color::Sente, .. })))
            {
                break pos;
            }
        }
    };
    let heeding = CarelessPlayer { heed: 1.0, takebacks: true };
    for lost in survival(&index, &winning_root, 4, &[CarelessPlayer::CHILD, heeding], &BuildOptions::default()).unwrap()
    {
        assert!(lost.chances.iter().all(|c| c.1 == 0.0), "{:?}", lost.chances);
    }
}

#[test]
fn passes_over_the_horizon_give_the_chances_of_passes_over_every_slot() {
    let players = [CarelessPlayer::CHILD, CarelessPlayer { heed: 0.5, takebacks: true }];
    let mut rng = StdRng::seed_from_u64(13);
    let mut below_one = 0;
    for material in [[0, 0, 1], [1, 0, 1], [0, 1, 1]] {
        let index = Index::new(Material(material));
        for _ in 0..3 {
            let root = random_root(&index, &mut rng);
            let opts = BuildOptions::default();
            let horizon = Horizon::grow(&index, root.key(), top(10) - 1, &opts);
            let narrow = survival_within(&index, &root, 10, &players, Some(&horizon), &opts, |_, _| {});
            let full = survival_within(&index, &root, 10, &players, None, &opts, |_, _| {});
            assert_eq!(narrow, full, "{material:?} {root:?}");
            below_one += full.iter().flat_map(|s| &s.chances).filter(|c| c.1 < 1.0).count();
            // The horizon is narrower than the index, or the test proves nothing.
            assert!(horizon.len(top(10) - 1) < index.len(), "{material:?}");
        }
    }
    assert!(below_one >= 10, "only {below_one} chances below 1");
}

#[test]
fn a_root_of_another_material_is_a_typed_error() {
    let index = Index::new(Material([0, 0, 1]));
    assert!(matches!(
        survival(&index, &Position::start(), 4, &[CarelessPlayer::CHILD], &BuildOptions::default()),
        Err(ProbeError::NotInTable(_))
    ));
}

#[test]
fn heeding_players_match_the_reference() {
    // Five players in one call (two runs): the child, heeding without and with take-backs,
    // and always heeding; each against the reference, each run sharing the rules' work.
    let players = [
        CarelessPlayer::CHILD,
        CarelessPlayer { heed: 0.5, takebacks: false },
        CarelessPlayer { heed: 0.5, takebacks: true },
        CarelessPlayer { heed: 1.0, takebacks: false },
        CarelessPlayer { heed: 0.25, takebacks: true },
    ];
    let mut rng = StdRng::seed_from_u64(11);
    let mut differ = 0;
    for material in [[0, 0, 1], [1, 0, 1]] {
        let index = Index::new(Material(material));
        for _ in 0..4 {
            let root = random_root(&index, &mut rng);
            let got = survival(&index, &root, 8, &players, &BuildOptions::default()).unwrap();
            assert_eq!(got.iter().map(|s| s.player).collect::<Vec<_>>(), players);
            for s in &got {
                for &(length, chance) in &s.chances {
                    let want = reference(&root, length, s.player);
                    assert!(
                        (chance - want).abs() < 1e-4,
                        "{material:?} {root:?} {:?} length {length}: {chance} vs {want}",
                        s.player
                    );
                }
            }
            // The comparison means something only if the models differ somewhere.
            for b in 1..players.len() {
                for (x, y) in got[0].chances.iter().zip(&got[b].chances) {
                    differ += usize::from((y.1 - x.1).abs() > 1e-4);
                }
            }
        }
    }
    assert!(differ >= 5, "the players differ from the child only {differ} times");
}
