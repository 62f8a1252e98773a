//! The table against the independent solver on sub-games, and the file format.

use std::collections::HashSet;
use std::path::PathBuf;

use super::super::table::{build, BuildOptions, REBUILD_COMMAND};
use super::super::{Position, Table, TableError, TableFile, Tablebase, Value};
use super::naive::{self, NPos};
use super::{pos, to_engine};

fn quiet() -> BuildOptions {
    BuildOptions::default()
}

pub(super) fn naive_value(v: naive::NValue) -> Value {
    match v {
        Some((true, d)) => Value::Win(d),
        Some((false, d)) => Value::Loss(d),
        None => Value::Draw,
    }
}

/// Builds the table of `roots` and checks every reachable position's value and the count
/// against the brute-force solver. Returns the table and the number of positions checked.
fn check_subgame(roots: &[&str]) -> (Tablebase, usize) {
    let engine_roots: Vec<Position> = roots.iter().map(|r| pos(r)).collect();
    let naive_roots: Vec<NPos> = engine_roots.iter().map(super::from_engine).collect();
    let (tb, report) = build(&engine_roots, &quiet());
    let solved = naive::solve(&naive_roots);
    let normalized: HashSet<NPos> = solved.values.keys().map(NPos::normalized).collect();
    assert_eq!(report.stats.reachable, normalized.len() as u64, "reachable count for {roots:?}");
    assert!(tb.len() as u64 <= report.stats.reachable && 2 * tb.len() as u64 >= report.stats.reachable);
    for (p, v) in &solved.values {
        let got = tb.probe(&to_engine(p)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(got, naive_value(*v), "{}", p.text());
    }
    let s = tb.stats();
    assert_eq!(s.wins + s.losses + s.draws, tb.len() as u64);
    (tb, solved.values.len())
}

#[test]
fn lions_only() {
    let (_, n) = check_subgame(&["1l1/3/3/1L1 b -"]);
    assert!(n > 100, "{n}");
}

#[test]
fn lions_and_chicks() {
    let (tb, n) = check_subgame(&["1l1/1c1/1C1/1L1 b -"]);
    assert!(n > 10_000, "{n}");
    let s = tb.stats();
    assert!(s.wins > 0 && s.losses > 0, "{s:?}");
}

#[test]
fn lions_chick_and_giraffe_with_pieces_in_hand() {
    let (_, n) = check_subgame(&["1l1/3/1C1/1L1 b g", "l2/3/3/2L w Gc"]);
    assert!(n > 10_000, "{n}");
}

#[test]
fn lions_and_elephants() {
    check_subgame(&["el1/3/3/1LE b -"]);
}

#[test]
fn positions_outside_the_roots_are_a_typed_error_and_finished_ones_are_valued_by_rules() {
    let (tb, _) = build(&[pos("1l1/3/3/1L1 b -")], &quiet());
    let err = tb.probe(&Position::start()).unwrap_err();
    assert!(err.to_string().contains("gle/1c1/1C1/ELG b -"), "{err}");
    // A completed try and a captured lion need no table entry.
    assert_eq!(tb.probe(&pos("L1l/3/3/3 w -")), Ok(Value::Loss(0)));
    let captured = pos("3/1l1/1L1/3 b -").play("B3B2".parse().unwrap()).unwrap();
    assert_eq!(tb.probe(&captured), Ok(Value::Loss(0)));
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

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("doubutsu-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn file_round_trip_is_deterministic_and_verifiable() {
    let roots = [pos("1l1/1c1/1C1/1L1 b -")];
    let (tb, _) = build(&roots, &quiet());
    let a = temp_path("a.tb");
    let b = temp_path("b.tb");
    tb.write(&a).unwrap();
    build(&roots, &quiet()).0.write(&b).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "deterministic output");

    let f = TableFile::open(&a).unwrap();
    assert_eq!(f.stats(), tb.stats());
    f.verify().unwrap();
    let solved = naive::solve(&[super::from_engine(&roots[0])]);
    for p in solved.values.keys() {
        let e = to_engine(p);
        assert_eq!(f.probe(&e), tb.probe(&e));
    }

    // Flip one byte of the values: open still succeeds (header + size), verify does not.
    let mut bytes = std::fs::read(&a).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5A;
    let c = temp_path("c.tb");
    std::fs::write(&c, &bytes).unwrap();
    let err = TableFile::open(&c).unwrap().verify().unwrap_err();
    assert!(matches!(err, TableError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains("c.tb") && err.to_string().contains(REBUILD_COMMAND));

    // Truncated.
    bytes[last] ^= 0x5A;
    std::fs::write(&c, &bytes[..bytes.len() - 10]).unwrap();
    let err = TableFile::open(&c).err().unwrap();
    assert!(matches!(err, TableError::Truncated { .. }), "{err}");
    assert!(err.to_string().contains(REBUILD_COMMAND));
    std::fs::write(&c, &bytes[..20]).unwrap();
    assert!(matches!(TableFile::open(&c), Err(TableError::Truncated { .. })));

    // Not a table.
    let mut junk = bytes.clone();
    junk[0] = b'X';
    std::fs::write(&c, &junk).unwrap();
    assert!(matches!(TableFile::open(&c), Err(TableError::Corrupt { .. })));
    // Another version.
    let mut other = bytes.clone();
    other[8] = 99;
    std::fs::write(&c, &other).unwrap();
    let err = TableFile::open(&c).err().unwrap();
    assert!(err.to_string().contains("version 99"), "{err}");

    // Missing.
    let missing = temp_path("missing.tb");
    let err = TableFile::open(&missing).err().unwrap();
    assert!(matches!(err, TableError::Missing { .. }));
    assert!(err.to_string().contains("missing.tb") && err.to_string().contains("settai tablebase build"));
    let _ = std::fs::remove_dir_all(a.parent().unwrap());
}
