//! The reachability pass against the independent solver on sub-games (Tanaka's kind of
//! figures: counts, values, longest distance), and the file format with its errors.

use std::collections::{HashMap, HashSet};

use super::super::table::format::{header, FormatError};
use super::super::table::index::{Index, Material};
use super::super::table::{build, reach, BuildOptions, ReachStats, TableBytes, TableStats};
use super::super::{BuiltTable, Color, Position, Table, Value};
use super::naive::{self, NPos};
use super::{pos, to_engine};

pub(super) fn naive_value(v: naive::NValue) -> Value {
    match v {
        Some((true, d)) => Value::Win(d),
        Some((false, d)) => Value::Loss(d),
        None => Value::Draw,
    }
}

fn mirrored(p: &NPos) -> NPos {
    let mut q = p.clone();
    for row in &mut q.board {
        row.reverse();
    }
    q
}

/// The figures the reachability pass should give, computed by the brute-force solver: its
/// positions normalized by side to move, then paired with their mirror images.
fn brute_force_figures(roots: &[NPos]) -> (ReachStats, naive::Solved) {
    let solved = naive::solve(roots);
    let normalized: HashSet<NPos> = solved.values.keys().map(NPos::normalized).collect();
    let mut pairs: HashMap<String, Value> = HashMap::new();
    let mut longest = 0;
    for (p, v) in &solved.values {
        let (a, b) = (p.normalized().text(), mirrored(p).normalized().text());
        let v = naive_value(*v);
        if let Value::Win(d) | Value::Loss(d) = v {
            longest = longest.max(d as u32);
        }
        pairs.insert(a.min(b), v);
    }
    let count = |f: fn(&Value) -> bool| pairs.values().filter(|v| f(v)).count() as u64;
    let figures = ReachStats {
        positions: pairs.len() as u64,
        reachable: normalized.len() as u64,
        wins: count(|v| matches!(v, Value::Win(_))),
        losses: count(|v| matches!(v, Value::Loss(_))),
        draws: count(|v| matches!(v, Value::Draw)),
        max_distance: longest,
        levels: 0,
    };
    (figures, solved)
}

/// Builds the table of the roots' material, runs the reachability pass from them and checks
/// its figures and every reachable position's value against the brute-force solver.
fn check_subgame(roots: &[&str]) -> (BuiltTable, ReachStats) {
    let engine_roots: Vec<Position> = roots.iter().map(|r| pos(r)).collect();
    let naive_roots: Vec<NPos> = engine_roots.iter().map(super::from_engine).collect();
    let table = build(Material::of(&engine_roots[0]), &BuildOptions::default()).unwrap();
    let got = reach(table.index(), table.values(), &engine_roots, &BuildOptions::default()).unwrap();
    let (want, solved) = brute_force_figures(&naive_roots);
    assert!(got.same_figures(&want), "{roots:?}: pass {got:?}, brute force {want:?}");
    for (p, v) in &solved.values {
        assert_eq!(table.probe(&to_engine(p)), Ok(naive_value(*v)), "{}", p.text());
    }
    (table, got)
}

#[test]
fn lions_only() {
    let (_, r) = check_subgame(&["1l1/3/3/1L1 b -"]);
    assert!(r.positions > 30 && r.wins > 0 && r.draws > 0, "{r:?}");
}

#[test]
fn lions_and_chicks() {
    let (_, r) = check_subgame(&["1l1/1c1/1C1/1L1 b -"]);
    assert!(r.positions > 5_000 && r.wins > 0 && r.losses > 0, "{r:?}");
    // A symmetric start reaches both halves of every mirror pair.
    assert!(r.reachable > r.positions && r.reachable < 2 * r.positions, "{r:?}");
}

#[test]
fn lions_chick_and_giraffe_with_pieces_in_hand_from_lopsided_roots() {
    // Neither root is its own mirror image: the orientations are counted as reached.
    let (_, r) = check_subgame(&["1l1/3/1C1/1L1 b g", "l2/3/3/2L w Gc"]);
    assert!(r.positions > 5_000, "{r:?}");
}

#[test]
fn lions_and_elephants() {
    check_subgame(&["el1/3/3/1LE b -"]);
}

#[test]
fn the_official_start_is_a_root_of_the_real_material_only() {
    let table = build(Material([0, 0, 2]), &BuildOptions::default()).unwrap();
    let err = reach(table.index(), table.values(), &[Position::start()], &BuildOptions::default()).unwrap_err();
    assert!(err.to_string().contains("gle/1c1/1C1/ELG b -"), "{err}");
    assert_eq!(Material::of(&Position::start()), Material::FULL);
    assert_eq!(Index::new(Material::FULL).len(), 249_442_767);
}

#[test]
fn positions_of_other_pieces_are_a_typed_error_and_finished_ones_are_valued_by_rules() {
    let table = build(Material([0, 0, 0]), &BuildOptions::default()).unwrap();
    let err = table.probe(&Position::start()).unwrap_err();
    assert!(err.to_string().contains("gle/1c1/1C1/ELG b -"), "{err}");
    // A completed try and a captured lion need no slot.
    assert_eq!(table.probe(&pos("L1l/3/3/3 w -")), Ok(Value::Loss(0)));
    let captured = pos("3/1l1/1L1/3 b -").play("B3B2".parse().unwrap()).unwrap();
    assert_eq!(table.probe(&captured), Ok(Value::Loss(0)));
}

#[test]
fn value_bytes_round_trip() {
    for b in 0..=255u8 {
        let v = Value::from_byte(b);
        assert_eq!(v.to_byte(), Some(b), "{b} -> {v:?}");
    }
    assert_eq!(Value::Win(2).to_byte(), None);
    assert_eq!(Value::Loss(3).to_byte(), None);
    assert_eq!(Value::Loss(4).parent(), Value::Win(5));
    assert_eq!(Value::Win(5).parent(), Value::Loss(6));
    assert_eq!(Value::Draw.parent(), Value::Draw);
}

#[test]
fn the_file_bytes_round_trip_and_bad_bytes_are_refused() {
    let material = Material([1, 0, 1]);
    let table = build(material, &BuildOptions::default()).unwrap();
    let bytes: Vec<u8> = header(&table).iter().chain(table.values()).copied().collect();
    let again = build(material, &BuildOptions::default()).unwrap();
    assert_eq!(header(&again), header(&table), "deterministic header");
    assert_eq!(again.values(), table.values(), "deterministic values");
    let index = table.index();
    assert_eq!(bytes.len() as u64, 128 + index.len());

    let f = TableBytes::parse(bytes.as_slice()).unwrap();
    f.verify().unwrap();
    let stats = f.stats();
    assert_eq!(stats, TableStats::of(&table));
    assert_eq!(stats.wins + stats.losses + stats.draws, index.len());
    assert!(stats.wins > 0 && stats.losses > 0 && stats.max_distance > 3, "{stats:?}");
    for s in (0..index.len()).step_by(7) {
        let p = Position::from_key(index.key(s), Color::Sente).unwrap();
        assert_eq!(f.probe(&p), table.probe(&p), "{p}");
    }

    // One flipped value: the header and size are fine, the checksum is not.
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x5A;
    assert!(matches!(TableBytes::parse(&bad).unwrap().verify(), Err(FormatError::Corrupt(_))));
    // Truncated, shorter than a header, not a table, the old version, another material.
    assert!(matches!(TableBytes::parse(&bytes[..bytes.len() - 1]), Err(FormatError::Truncated { .. })));
    assert!(matches!(TableBytes::parse(&bytes[..20]), Err(FormatError::Truncated { .. })));
    let mut junk = bytes.clone();
    junk[0] = b'X';
    assert!(matches!(TableBytes::parse(&junk), Err(FormatError::Corrupt(_))));
    let mut old = bytes.clone();
    old[8] = 1;
    let err = TableBytes::parse(&old).err().unwrap();
    assert!(err.to_string().contains("format version 1"), "{err}");
    let mut other = bytes.clone();
    other[12] = 2;
    assert!(matches!(TableBytes::parse(&other), Err(FormatError::Corrupt(_))));
}
