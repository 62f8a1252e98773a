//! The child-length bound position by position: the best chance, over every policy of the
//! opponent, that a game lasts a given length from each position a game from the root meets
//! with the careless player to move (the passes [`super::survival()`] computes, kept).
//!
//! With them, any policy of the opponent can be scored move by move against the best one: a
//! move's chance is that of the position it leaves, the best move's is the position's own, and
//! over a game the differences add up to what the policy loses against the bound
//! (docs/design/kind-coach.md#where-settai-and-the-bound-part-ways).

use super::horizon::Horizon;
use super::index::{Index, Material};
use super::progress::{log, BuildOptions};
use super::survival::{survival_within, top, CarelessPlayer};
use super::ProbeError;
use crate::doubutsu::position::{status, Status};
use crate::doubutsu::Position;

/// The bound's chances for one careless player and one length, at every slot a game from the
/// root meets with that player to move.
pub struct SurvivalValues {
    length: u32,
    top: u32,
    /// By plies left (odd, the careless player's passes), each pass's chance per slot.
    passes: Vec<(u32, Vec<f32>)>,
}

impl SurvivalValues {
    /// The game length the chances are for.
    pub fn length(&self) -> u32 {
        self.length
    }

    /// The best chance over every policy of the opponent that a game standing at `pos`,
    /// `played` plies from the root, lasts [`SurvivalValues::length`] plies: 1 once it has, 0
    /// when it is over before. `None` when the careless player is not the one to move at that
    /// ply or `pos` is of another material; a position no game from the root reaches in
    /// `played` plies reads 0.
    pub fn chance(&self, index: &Index, pos: &Position, played: u32) -> Option<f64> {
        if Material::of(pos) != index.material() {
            return None;
        }
        if status(pos.key()) != Status::Ongoing {
            return Some(0.0);
        }
        if played >= self.top {
            return Some(1.0);
        }
        let plies_left = self.top - played;
        let (_, pass) = self.passes.iter().find(|p| p.0 == plies_left)?;
        // Without a slot the side to move can capture the other lion: the careless player
        // takes it. A placement with both lions on the middle file has a slot for each mirror
        // image, and the pass valued the one its games were expanded through (the other reads
        // 0): the chance is the same.
        let at = |s: u64| f64::from(pass[s as usize]);
        Some(index.slot(pos.key()).map_or(0.0, |s| at(s).max(index.slot(pos.mirror().key()).map_or(0.0, at))))
    }
}

/// The bound's chances that a game from `root` (the careless player to move) lasts
/// `length` plies, for `player`, at every ply where that player moves; four bytes per slot of
/// the index per such ply are kept. A root of another material is an error.
pub fn survival_values(
    index: &Index,
    root: &Position,
    length: u32,
    player: CarelessPlayer,
    opts: &BuildOptions,
) -> Result<SurvivalValues, ProbeError> {
    let mut passes = Vec::new();
    kept_passes(index, root, length, player, opts, |plies_left, pass, _| {
        passes.push((plies_left, pass.iter().map(|c| c[0]).collect()));
    })?;
    Ok(SurvivalValues { length, top: top(length), passes })
}

/// The bound's passes for games from `root` lasting `length` plies against `player`, over the
/// slots a game from the root meets: `keep` sees each pass with the careless player to move
/// (its plies left, the chances slot by slot, and the horizon saying which slots a game meets).
/// What [`survival_values`] keeps of them is its own. A root of another
/// material is an error.
pub(super) fn kept_passes(
    index: &Index,
    root: &Position,
    length: u32,
    player: CarelessPlayer,
    opts: &BuildOptions,
    mut keep: impl FnMut(u32, &[[f32; 1]], &Horizon),
) -> Result<(), ProbeError> {
    if Material::of(root) != index.material() {
        return Err(ProbeError::NotInTable(root.to_text()));
    }
    let top = top(length);
    let horizon = Horizon::grow(index, root.key(), top - 1, opts);
    log(opts, format_args!("horizon: {} of {} slots at the deepest", horizon.len(top - 1), index.len()));
    survival_within(index, root, length, &[player], Some(&horizon), opts, |plies_left, pass| {
        keep(plies_left, pass, &horizon)
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::super::survival::tests::{random_root, Reference};
    use super::*;

    #[test]
    fn kept_passes_match_the_reference_two_plies_in_and_at_the_root() {
        let mut rng = StdRng::seed_from_u64(29);
        let players = [CarelessPlayer::CHILD, CarelessPlayer { heed: 0.5, takebacks: true }];
        let (mut compared, mut strictly_between) = (0, 0);
        for material in [[0, 0, 1], [1, 0, 1]] {
            let index = Index::new(Material(material));
            for _ in 0..3 {
                let root = random_root(&index, &mut rng);
                for player in players {
                    let values = survival_values(&index, &root, 8, player, &BuildOptions::default()).unwrap();
                    let mut reference = Reference::new(8, player);
                    let at_root = values.chance(&index, &root, 0).unwrap();
                    assert!((at_root - reference.chance(&root, 0)).abs() < 1e-4, "{root:?}");
                    for m in root.legal_moves() {
                        let after = root.play(m).unwrap();
                        // The opponent's turn is not kept.
                        assert_eq!(values.chance(&index, &after, 1), None);
                        if after.outcome().is_some() {
                            continue;
                        }
                        for y in after.legal_moves() {
                            let pos = after.play(y).unwrap();
                            let got = values.chance(&index, &pos, 2).unwrap();
                            let want = if pos.outcome().is_some() { 0.0 } else { reference.chance(&pos, 2) };
                            assert!((got - want).abs() < 1e-4, "{material:?} {pos:?}: {got} vs {want}");
                            compared += 1;
                            strictly_between += usize::from(got > 0.0 && got < 1.0);
                        }
                    }
                }
            }
        }
        assert!(compared > 100 && strictly_between > 20, "{compared} compared, {strictly_between} strictly between");
    }

    #[test]
    fn a_game_that_reached_the_length_made_it_and_other_pieces_are_not_valued() {
        let index = Index::new(Material([0, 0, 1]));
        let root = random_root(&index, &mut StdRng::seed_from_u64(5));
        let values = survival_values(&index, &root, 6, CarelessPlayer::CHILD, &BuildOptions::default()).unwrap();
        assert_eq!(values.chance(&index, &root, 5), Some(1.0));
        assert_eq!(values.chance(&index, &Position::start(), 0), None);
        assert!(
            survival_values(&index, &Position::start(), 6, CarelessPlayer::CHILD, &BuildOptions::default()).is_err()
        );
    }
}
