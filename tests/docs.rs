//! The README and the package's papers say what is true: how to get the `settai` command, level
//! names the parsers accept, the licence and the toolchain.

use settai::games::{GameKind, Level};

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The README's lines that start with `needle` (after leading spaces).
fn lines_with<'a>(text: &'a str, needle: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.trim_start().starts_with(needle)).collect()
}

#[test]
fn the_readme_says_how_to_get_the_settai_command_and_how_long_building_takes() {
    let readme = read("README.md");
    for needle in ["cargo install --locked --path .", "target/release/settai", "cargo run --release --"] {
        assert!(readme.contains(needle), "the README should mention {needle:?}");
    }
    let setup = &readme[readme.find("## Run the bot").unwrap()..readme.find("### Creating").unwrap()];
    assert!(
        setup.contains("minutes") && setup.contains("first build"),
        "the build time is said before the first build"
    );
    // The install step comes before the first bare `settai` command.
    let install = readme.find("cargo install --locked --path .").unwrap();
    let first_use = readme.find("\nsettai ").expect("a settai command");
    assert!(install < first_use, "`settai` is used before it is installed");
}

#[test]
fn every_level_the_readme_names_is_accepted() {
    let readme = read("README.md");
    let row = lines_with(&readme, "| `/settings level").pop().expect("the /settings level row");
    let named: Vec<&str> = row.split('`').skip(1).step_by(2).filter(|w| !w.starts_with('/')).collect();
    assert!(named.len() >= 6, "{row}");
    for name in named {
        let accepted = GameKind::ALL.iter().any(|&kind| Level::parse(kind, name).is_ok());
        assert!(accepted, "the README names level {name:?}, which no game accepts");
    }
    // The words the picker and the README show for `none`.
    for shown in ["no mercy", "no-mercy"] {
        assert_eq!(Level::parse(GameKind::Reversi, shown), Ok(Level::None));
    }
    for line in lines_with(&readme, "settai play reversi") {
        if let Some(levels) = line.split("levels: ").nth(1) {
            for name in levels.trim_end_matches(')').split(", ") {
                assert!(Level::parse(GameKind::Reversi, name).is_ok(), "{name:?} in {line:?}");
            }
        }
    }
}

#[test]
fn the_licence_and_the_toolchain_are_declared() {
    let manifest = read("Cargo.toml");
    assert!(manifest.contains("license = \"MIT\""), "Cargo.toml declares MIT");
    let licence = read("LICENSE");
    assert!(licence.starts_with("MIT License"), "LICENSE is the MIT licence");
    assert!(licence.contains("Copyright (c) 2026 the settai authors"));
    assert!(licence.contains("THE SOFTWARE IS PROVIDED \"AS IS\""));
    let rust_version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("Cargo.toml declares rust-version");
    let minor: u32 = rust_version.split('.').nth(1).and_then(|m| m.parse().ok()).expect("1.N");
    assert!(rust_version.starts_with("1.") && minor >= 85, "{rust_version}");
    let readme = read("README.md");
    assert!(readme.contains(&format!("Rust ({rust_version} or newer)")), "the README names rust-version");
}
