//! The version 2 file: byte-identical output, probes through the mapping, and the errors
//! (each names the path and the rebuild command).

use std::path::PathBuf;

use super::super::table::index::{Index, Material};
use super::super::table::retro::solve;
use super::super::table::slots_file::{write_slots, SlotsFile, SlotsStats};
use super::super::table::{BuildOptions, TableFile, REBUILD_COMMAND};
use super::super::{Color, Position, Table, TableError};

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("doubutsu-slots-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn slots_file_round_trip_is_deterministic_and_verifiable() {
    let index = Index::new(Material([1, 0, 1]));
    let solved = solve(&index, &BuildOptions::default()).unwrap();
    let (a, b, c) = (temp_path("a.tb"), temp_path("b.tb"), temp_path("c.tb"));
    write_slots(&solved, &a).unwrap();
    write_slots(&solve(&index, &BuildOptions::default()).unwrap(), &b).unwrap();
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap(), "deterministic output");
    assert_eq!(bytes.len() as u64, 128 + index.len());

    let f = SlotsFile::open(&a).unwrap();
    f.verify().unwrap();
    let stats = f.stats();
    assert_eq!(stats, SlotsStats::of(&solved));
    assert_eq!(stats.wins + stats.losses + stats.draws, index.len());
    assert!(stats.wins > 0 && stats.losses > 0 && stats.max_distance > 3, "{stats:?}");
    for s in (0..index.len()).step_by(7) {
        let p = Position::from_key(index.key(s), Color::Sente).unwrap();
        assert_eq!(f.probe(&p), solved.probe(&p), "{p}");
    }
    // The old reader refuses the new version by name.
    let err = TableFile::open(&a).err().unwrap();
    assert!(err.to_string().contains("format version 2"), "{err}");

    // One flipped value: open succeeds (header + size), verify does not.
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x5A;
    std::fs::write(&c, &bad).unwrap();
    let err = SlotsFile::open(&c).unwrap().verify().unwrap_err();
    assert!(matches!(err, TableError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains("c.tb") && err.to_string().contains(REBUILD_COMMAND), "{err}");
    // Truncated, another version, another size of index.
    std::fs::write(&c, &bytes[..bytes.len() - 1]).unwrap();
    assert!(matches!(SlotsFile::open(&c), Err(TableError::Truncated { .. })));
    let mut other = bytes.clone();
    other[8] = 1;
    std::fs::write(&c, &other).unwrap();
    let err = SlotsFile::open(&c).err().unwrap();
    assert!(err.to_string().contains("format version 1") && err.to_string().contains(REBUILD_COMMAND), "{err}");
    let mut other = bytes.clone();
    other[12] = 2;
    std::fs::write(&c, &other).unwrap();
    assert!(matches!(SlotsFile::open(&c), Err(TableError::Corrupt { .. })));
    let err = SlotsFile::open(temp_path("missing.tb")).err().unwrap();
    assert!(matches!(err, TableError::Missing { .. }) && err.to_string().contains(REBUILD_COMMAND), "{err}");
    let _ = std::fs::remove_dir_all(a.parent().unwrap());
}
