//! The layout ARCHITECTURE.md promises, checked from the sources: the core crate names no I/O
//! crate and its code outside its tests is pure (no I/O, no printing, no async, no clock or entropy
//! of its own, no state in statics or threads, nothing embedded from outside its folder), the command that serves
//! links no lab code (by `cargo tree` and by the binary's symbols), and no source file of any crate of the workspace imports another that imports
//! it back (directly or around a circle, a re-export from outside a module's own children
//! counting as an import).
//!
//! Its parts: the core's purity and face (`purity.rs`) and the import circles of every crate
//! (`circles.rs`); this file holds what both read (the sources, a crate's modules, each without
//! its tests) and the checks of what a crate may name.

mod circles;
mod purity;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_core_crate_depends_on_no_io_crate() {
    let manifest = read(&root().join("crates/core/Cargo.toml"));
    let deps: Vec<&str> = manifest
        .lines()
        .skip_while(|l| !l.starts_with("[dependencies]"))
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|name| !name.is_empty() && !name.starts_with('[') && !name.starts_with('#'))
        .collect();
    assert!(deps.contains(&"rand"), "the dependencies are read: {deps:?}");
    for io in ["tokio", "sqlx", "serenity", "axum", "reqwest", "hyper", "memmap2", "indicatif", "dotenvy", "tracing"] {
        assert!(!deps.iter().any(|d| d.starts_with(io)), "the core depends on {io}");
    }
}

/// `text` without comments and without the items compiled for tests only: each
/// `#[cfg(test)]` takes the item after it (and that item's other attributes) away, whether a
/// `mod tests { .. }` block, a `mod tests;` line, a function or a `use`, up to the `;` or the
/// brace that closes it (braces in strings and character literals are not counted).
fn without_tests(text: &str) -> String {
    let code: String = text
        .lines()
        .map(|line| match line.find("//") {
            // A `//` inside a string (a URL) is rare in the core; cutting there only hides code.
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    while i < chars.len() {
        if chars[i..].starts_with(&marker) {
            i += marker.len();
            // Skip the item: to its `;` (or, for a field or an argument, its `,`) outside any
            // brackets, to the brace that closes its first `{`, or up to the `}` that closes
            // what holds it.
            let (mut depth, mut nested) = (0usize, 0usize);
            while i < chars.len() {
                match chars[i] {
                    '(' | '[' => nested += 1,
                    ')' | ']' => nested = nested.saturating_sub(1),
                    '<' if depth == 0 => nested += 1,
                    '>' if depth == 0 && i > 0 && !['-', '='].contains(&chars[i - 1]) => {
                        nested = nested.saturating_sub(1)
                    }
                    ',' if depth == 0 && nested == 0 => {
                        i += 1;
                        break;
                    }
                    '}' if depth == 0 => break,
                    '"' => {
                        i += 1;
                        while i < chars.len() && chars[i] != '"' {
                            i += if chars[i] == '\\' { 2 } else { 1 };
                        }
                    }
                    '\'' if chars.get(i + 2) == Some(&'\'') => i += 2,
                    '\'' if chars.get(i + 1) == Some(&'\\') => {
                        while i + 1 < chars.len() && chars[i + 1] != '\'' {
                            i += 1;
                        }
                        i += 1;
                    }
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    ';' if depth == 0 => {
                        i += 1;
                        break;
                    }
                    _ => {}
                }
                i += 1;
            }
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The packages that `settai`, the command that serves, links: `cargo tree` over its normal
/// dependencies (what is compiled into it; dev-dependencies are for its tests), one name a line.
fn linked_by_the_serving_command() -> Vec<String> {
    linked_by("settai")
}

/// The packages `package` links: `cargo tree` over its normal dependencies, one name a line.
fn linked_by(package: &str) -> Vec<String> {
    let out = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root())
        .args(["tree", "-p", package, "-e", "normal", "--prefix", "none", "--locked", "--offline"])
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// Cargo keeps the layering, not a grep: the serving command's package does not depend on the
/// lab, so neither its library nor its binary can name it (ARCHITECTURE.md's packages).
#[test]
fn the_serving_command_depends_on_no_lab_package() {
    let linked = linked_by_the_serving_command();
    // The tree is read: the bot and its core are there.
    assert!(linked.iter().any(|p| p == "settai") && linked.iter().any(|p| p == "settai-core"), "{linked:?}");
    assert!(linked.iter().any(|p| p == "serenity"), "{linked:?}");
    let lab: Vec<&String> = linked.iter().filter(|p| p.starts_with("settai-lab")).collect();
    assert!(
        lab.is_empty(),
        "the serving command links {lab:?}: the lab's commands belong to `settai-lab` (crates/lab-cli)"
    );
}

/// The Discord stand-in, the tests' and benches' dev-dependency, depends on no settai crate: the
/// bot compiles once for them, and the types a test gets from the bot are the bot's
/// (crates/discord-stand-in/Cargo.toml).
#[test]
fn the_discord_stand_in_depends_on_no_settai_crate() {
    let linked = linked_by("discord-stand-in");
    assert!(linked.iter().any(|p| p == "discord-stand-in") && linked.iter().any(|p| p == "serenity"), "{linked:?}");
    let ours: Vec<&String> = linked.iter().filter(|p| p.starts_with("settai")).collect();
    assert!(ours.is_empty(), "the Discord stand-in depends on {ours:?}");
}

/// What was built says the same: no symbol of the serving binary comes from the lab's crate
/// (mangled names carry their crate's, e.g. `10settai_lab`), while the core's are there.
#[test]
fn the_serving_binary_holds_no_lab_symbol() {
    let binary = std::fs::read(env!("CARGO_BIN_EXE_settai")).expect("the settai binary is built for the tests");
    let holds = |name: &[u8]| binary.windows(name.len()).any(|w| w == name);
    assert!(holds(b"settai_core"), "the binary's symbols are read");
    assert!(!holds(b"settai_lab"), "the serving binary holds code of the lab's crate (settai_lab)");
}

/// One module of a crate: its path from the crate root, its file, and its code without
/// comments and without its `#[cfg(test)]` items ([`without_tests`]).
struct Module {
    path: Vec<String>,
    file: PathBuf,
    code: String,
}

/// The modules a `mod` file declares, except those compiled for tests only.
fn declared_children(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut test_only = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("#[cfg(test)]") {
            test_only = true;
            continue;
        }
        let decl = line.trim_start_matches("pub ").trim_start_matches("pub(crate) ").trim_start_matches("pub(super) ");
        if let Some(name) = decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
            if !test_only {
                out.push(name.trim().to_string());
            }
        }
        if !line.starts_with("#[") {
            test_only = false;
        }
    }
    out
}

/// The modules of the crate whose root file is `root_file`, following `mod` declarations.
fn modules(root_file: &Path) -> Vec<Module> {
    let mut out = Vec::new();
    let mut todo = vec![(Vec::<String>::new(), root_file.to_path_buf())];
    while let Some((path, file)) = todo.pop() {
        let text = read(&file);
        // Children of `x.rs` and of `x/mod.rs` alike live in the folder `x/`; of a root, beside it.
        let name = file.file_stem().unwrap().to_str().unwrap();
        let dir = if path.is_empty() || name == "mod" {
            file.parent().unwrap().to_path_buf()
        } else {
            file.parent().unwrap().join(name)
        };
        for child in declared_children(&text) {
            let flat = dir.join(format!("{child}.rs"));
            let nested = dir.join(&child).join("mod.rs");
            let child_file = if flat.exists() { flat } else { nested };
            assert!(child_file.exists(), "{}: mod {child} has no file", file.display());
            let mut child_path = path.clone();
            child_path.push(child);
            todo.push((child_path, child_file));
        }
        out.push(Module { path, file, code: without_tests(&text) });
    }
    out
}
