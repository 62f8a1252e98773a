//! The perfect index: a bijection on small materials (against an enumeration written without
//! it), round trips on the full material, and a slot for every position of random games.

use std::collections::{HashMap, HashSet};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::super::position::{
    can_capture_lion, mirror, set_nib, status, Status, CHICK, ELEPHANT, GIRAFFE, HEN, LION, OPP,
};
use super::super::table::index::{Index, Material};
use super::super::{Color, Position};
use super::{random_positions, to_engine};

/// Every key of material `m` whose lions stand where the module docs say slots are, built
/// piece by piece from states (square and owner, hen or not, or a hand) without the index.
fn brute_force_keys(m: [u8; 3]) -> HashSet<u64> {
    let mut pieces = Vec::new();
    for (kind, &count) in [GIRAFFE, ELEPHANT, CHICK].iter().zip(&m) {
        pieces.extend(std::iter::repeat_n(*kind, count as usize));
    }
    let mut out = HashSet::new();
    let (row, col) = (|s: usize| s / 3, |s: usize| s % 3);
    let mirrored = |s: usize| row(s) * 3 + 2 - col(s);
    for ml in 0..12 {
        for ol in 0..12 {
            let adjacent = row(ml).abs_diff(row(ol)) <= 1 && col(ml).abs_diff(col(ol)) <= 1;
            let kept = (ml, ol) <= (mirrored(ml), mirrored(ol));
            // The mover's lion is not on its far row, the opponent's not on the mover's
            // home row, and neither can take the other.
            if ml < 3 || ol >= 9 || adjacent || !kept {
                continue;
            }
            let k = set_nib(set_nib(0, ml, LION), ol, LION | OPP);
            place(k, &pieces, &mut out);
        }
    }
    out
}

/// Adds every way to put `pieces` on the free squares or in a hand.
fn place(k: u64, pieces: &[u8], out: &mut HashSet<u64>) {
    let Some((&code, rest)) = pieces.split_first() else {
        out.insert(k);
        return;
    };
    let idx = (code - GIRAFFE) as u64;
    for opp in [0u64, 1] {
        place(k + (1 << (48 + 6 * opp + 2 * idx)), rest, out);
        for s in 0..12 {
            if (k >> (4 * s)) & 15 != 0 {
                continue;
            }
            let owner = if opp == 1 { OPP } else { 0 };
            place(set_nib(k, s, code | owner), rest, out);
            if code == CHICK {
                place(set_nib(k, s, HEN | owner), rest, out);
            }
        }
    }
}

#[test]
fn the_index_is_a_bijection_onto_the_brute_force_domain() {
    for m in [[0, 0, 0], [1, 0, 0], [0, 2, 0], [0, 0, 2], [1, 0, 1], [2, 0, 1], [1, 1, 1]] {
        let index = Index::new(Material(m));
        let keys = brute_force_keys(m);
        assert_eq!(index.len(), keys.len() as u64, "count for {m:?}");
        let mut seen = HashSet::new();
        for &k in &keys {
            let s = index.slot(k).unwrap_or_else(|| panic!("no slot for {k:x} ({m:?})"));
            assert!(s < index.len());
            assert!(seen.insert(s), "two keys in slot {s} ({m:?})");
            assert_eq!(index.key(s), k);
        }
    }
}

#[test]
fn every_slot_of_small_materials_decodes_to_a_legal_key_that_encodes_back() {
    for m in [[0, 0, 1], [1, 1, 0], [0, 1, 1], [2, 2, 0]] {
        let index = Index::new(Material(m));
        for s in 0..index.len() {
            let k = index.key(s);
            assert!(Position::from_key(k, Color::Sente).is_some(), "{k:x}");
            assert_eq!(Material::of_key(k), Material(m));
            assert_eq!(index.slot(k), Some(s), "{k:x}");
        }
    }
}

#[test]
fn the_full_index_has_the_documented_size_and_round_trips_on_samples() {
    let index = Index::new(Material::FULL);
    assert_eq!(index.len(), 249_442_767);
    let mut rng = StdRng::seed_from_u64(19);
    let samples = (0..20_000).map(|_| rng.gen_range(0..index.len())).chain([0, index.len() - 1]);
    for s in samples {
        let k = index.key(s);
        assert!(Position::from_key(k, Color::Sente).is_some(), "{k:x}");
        assert_eq!(Material::of_key(k), Material::FULL);
        assert_eq!(index.slot(k), Some(s), "{k:x}");
    }
}

#[test]
fn every_position_of_random_games_that_needs_a_value_has_one_slot_per_mirror_pair() {
    let index = Index::new(Material::FULL);
    let mut owner: HashMap<u64, u64> = HashMap::new();
    let mut checked = 0;
    for p in random_positions(1919, 800) {
        let k = to_engine(&p).key();
        let needs_value = status(k) == Status::Ongoing && !can_capture_lion(k);
        let Some(s) = index.slot(k) else {
            assert!(!needs_value, "{} has no slot", p.text());
            continue;
        };
        checked += 1;
        assert!(s < index.len());
        let back = index.key(s);
        assert!(back == k || back == mirror(k), "{}", p.text());
        // Both halves of a mirror pair share a slot unless both have their own (lions in
        // column B).
        let m = index.slot(mirror(k)).expect("the mirror image has a slot too");
        assert!(m == s || index.key(m) == mirror(k), "{}", p.text());
        // Injective: a slot never holds two different positions (up to the mirror).
        let canon = k.min(mirror(k));
        assert_eq!(*owner.entry(s).or_insert(canon), canon, "slot {s} shared by {}", p.text());
    }
    assert!(checked > 4_000, "{checked}");
}

#[test]
fn other_materials_and_finished_positions_have_no_slot() {
    let full = Index::new(Material::FULL);
    let small = Index::new(Material([0, 0, 2]));
    let chicks: Position = "1l1/1c1/1C1/1L1 b -".parse().unwrap();
    assert_eq!(full.slot(chicks.key()), None);
    assert!(small.slot(chicks.key()).is_some());
    assert_eq!(small.slot(Position::start().key()), None);
    assert!(full.slot(Position::start().key()).is_some());
    // The mover's lion on its far row (won), adjacent lions (capture).
    let won: Position = "L1l/1c1/1C1/3 b -".parse().unwrap();
    let adjacent: Position = "3/1l1/1L1/3 b Cc".parse().unwrap();
    assert_eq!(small.slot(won.key()), None);
    assert_eq!(small.slot(adjacent.key()), None);
}
