//! Golden fixtures: behaviour pinned in committed files under `crates/lab/tests/golden/`, so
//! that a change of what a level, a search or the trainer does shows as a diff.
//!
//! To rewrite the fixtures on purpose (a deliberate change of behaviour, to be explained in the
//! commit), run the tests with `SETTAI_BLESS=1` and review the diff.

use std::path::PathBuf;

/// Compares `actual` with the committed fixture `tests/golden/<name>` of this crate, line by
/// line, or rewrites the fixture when `SETTAI_BLESS=1` is set.
pub fn check_fixture(name: &str, actual: &str) {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests/golden", name].iter().collect();
    if std::env::var_os("SETTAI_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, actual).expect("write the fixture");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut exp, mut act) = (expected.lines(), actual.lines());
    for line in 1.. {
        match (exp.next(), act.next()) {
            (None, None) => break,
            (e, a) => assert_eq!(a, e, "{name}, line {line}: got (left) vs golden (right)"),
        }
    }
}
