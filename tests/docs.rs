//! The README and the package's papers say what is true: how to get the `settai` command, level
//! names the parsers accept, the licence and the toolchain, the rooms' imports and the words of
//! ARCHITECTURE.md.

use settai_core::{reversi, GameKind, Level};

mod papers;

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
        assert_eq!(Level::parse(GameKind::Reversi, shown), Ok(Level::Reversi(reversi::ReversiLevel::NoMercy)));
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
    // The pinned release every build uses (`.ci/run`'s lints judge the same code the same way
    // everywhere) is one the manifest accepts, and the README says rustup fetches it.
    let pinned = read("rust-toolchain.toml")
        .lines()
        .find_map(|l| l.strip_prefix("channel = \"").and_then(|v| v.strip_suffix('"')).map(str::to_string))
        .expect("rust-toolchain.toml names its channel");
    let pinned_minor: u32 = pinned.split('.').nth(1).and_then(|m| m.parse().ok()).expect("a pinned 1.N.P release");
    assert!(pinned.starts_with("1.") && pinned_minor >= minor, "the pin {pinned} is older than rust-version");
    assert!(readme.contains("`rust-toolchain.toml`"), "the README says the first build fetches the pinned release");
}

/// The README's example systemd unit: `[Section]` -> (key, value) lines, in order.
fn readme_unit() -> Vec<(String, Vec<(String, String)>)> {
    let readme = read("README.md");
    let start = readme.find("```ini").expect("an ini block in the README") + "```ini".len();
    let block = &readme[start..start + readme[start..].find("```").unwrap()];
    let mut sections: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for line in block.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            sections.push((name.to_string(), Vec::new()));
        } else {
            let (key, value) = line.split_once('=').unwrap_or_else(|| panic!("not key=value: {line:?}"));
            sections.last_mut().expect("a section first").1.push((key.to_string(), value.to_string()));
        }
    }
    sections
}

#[test]
fn the_readme_systemd_unit_is_sensible() {
    let unit = readme_unit();
    let names: Vec<&str> = unit.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Unit", "Service", "Install"]);
    let get = |section: &str, key: &str| -> Vec<String> {
        let (_, entries) = unit.iter().find(|(n, _)| n == section).unwrap();
        entries.iter().filter(|(k, _)| k == key).map(|(_, v)| v.clone()).collect()
    };
    let after = get("Unit", "After").join(" ");
    assert!(after.contains("network-online.target") && after.contains("postgresql.service"), "{after}");

    // ExecStart: an absolute path to the installed command, with arguments settai accepts.
    let exec = get("Service", "ExecStart");
    assert_eq!(exec.len(), 1);
    let words: Vec<&str> = exec[0].split_whitespace().collect();
    assert!(words[0].starts_with('/') && words[0].ends_with("/settai"), "{exec:?}");
    let readme = read("README.md");
    let bin_dir = words[0].trim_end_matches("/settai").trim_end_matches("/bin");
    assert!(readme.contains(&format!("--root {bin_dir}")), "the README installs settai where ExecStart looks");
    // The installed command accepts these arguments: clap reads them up to `--help`, which
    // then prints that subcommand's help and succeeds.
    let checked = std::process::Command::new(env!("CARGO_BIN_EXE_settai"))
        // The developer's .env never reaches a test (src/config.rs env_file).
        .env("SETTAI_ENV_FILE", "/dev/null")
        .args(&words[1..])
        .arg("--help")
        .output()
        .expect("run settai");
    assert!(checked.status.success(), "ExecStart {exec:?}: {}", String::from_utf8_lossy(&checked.stderr));
    assert_eq!(words[1], "serve");

    // Restarted after a failure only: SIGTERM (systemctl stop) ends it with success.
    let restart = get("Service", "Restart");
    assert!(restart == ["on-failure"] || restart == ["always"], "{restart:?}");
    let kill = get("Service", "KillSignal");
    assert!(kill.is_empty() || kill == ["SIGTERM"] || kill == ["SIGINT"], "settai handles {kill:?}");

    // The token comes from the environment file; every variable set is one settai reads.
    let file = get("Service", "EnvironmentFile");
    assert_eq!(file.len(), 1);
    assert!(file[0].ends_with("/.env"), "{file:?}");
    let known = read(".env.example");
    for assignment in get("Service", "Environment") {
        let (name, value) = assignment.split_once('=').unwrap_or_else(|| panic!("{assignment:?}"));
        assert!(known.contains(&format!("\n{name}=")), "{name} is not a variable settai reads");
        assert!(!value.is_empty() && name != "DISCORD_TOKEN", "{assignment:?}");
    }
    assert_eq!(get("Install", "WantedBy"), ["multi-user.target"]);

    // The user and the folder the unit names are made before it, with the `.env` and `data/` in
    // that folder and theirs: settai reads both from the folder it runs from (src/config.rs).
    let (user, dir) = (get("Service", "User"), get("Service", "WorkingDirectory"));
    let (user, dir) = (&user[0], &dir[0]);
    assert_eq!(file[0], format!("{dir}/.env"));
    let data = format!("{dir}/data");
    assert!(get("Service", "Environment").contains(&format!("SETTAI_DATA_DIR={data}")), "data/ in the folder");
    let before = &readme[..readme.find("```ini").unwrap()];
    let setup = &before[before.rfind("```sh").expect("the commands that make the user and folder")..];
    let line = |needle: &str| setup.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle}: {setup}"));
    let useradd = line("useradd --system");
    assert!(useradd.contains(&format!("--home-dir {dir} --create-home")) && useradd.ends_with(&format!(" {user}")));
    let owned = format!("-o {user} -g {user}");
    assert!(line(&format!(" .env {dir}/.env")).contains(&format!("{owned} -m 600")), "the token is the user's alone");
    assert!(line(&format!(" -d {data}")).contains(&owned), "data/ is the user's");
}

/// The rooms and what each may import, from ARCHITECTURE.md's table: `everything`, nothing, or
/// the rooms named in backticks.
fn allowed_imports() -> Vec<(String, Option<Vec<String>>)> {
    let doc = read("ARCHITECTURE.md");
    let ticked = |cell: &str| -> Vec<String> { cell.split('`').skip(1).step_by(2).map(str::to_string).collect() };
    let mut rooms = Vec::new();
    for line in doc.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let may = cells[3];
        let allowed = if may == "everything" { None } else { Some(ticked(may)) };
        for room in ticked(cells[1]) {
            rooms.push((room, allowed.clone()));
        }
    }
    rooms
}

#[test]
fn every_room_imports_only_what_architecture_md_allows() {
    let rooms = allowed_imports();
    assert!(rooms.len() >= 9, "ARCHITECTURE.md's table lists the rooms: {rooms:?}");
    let out = std::process::Command::new("bash")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/rooms.sh"))
        .output()
        .expect("bash runs scripts/rooms.sh");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let graph = String::from_utf8(out.stdout).unwrap();
    let edges: Vec<(&str, &str)> = graph.lines().filter_map(|l| l.trim().split_once(" --> ")).collect();
    // The script sees the imports that are there (the bot's shell uses the service).
    assert!(edges.contains(&("discord", "service")) && edges.contains(&("cli", "core")), "{graph}");
    for (from, to) in edges {
        let (_, allowed) = rooms
            .iter()
            .find(|(room, _)| room == from)
            .unwrap_or_else(|| panic!("room {from} is missing from ARCHITECTURE.md's table"));
        if let Some(allowed) = allowed {
            assert!(allowed.iter().any(|a| a == to), "{from} imports {to}, which ARCHITECTURE.md does not allow");
        }
    }
}

/// Every `.rs` file of the workspace (the bot, its crates, tests and benches), with its text.
fn rust_sources() -> Vec<(std::path::PathBuf, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((path.clone(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["src", "crates", "tests", "benches"] {
        walk(&root.join(dir), &mut out);
    }
    out
}

/// The names in backticks in `row`, each with whether it is struck through (~~`name`~~).
fn ticked(row: &str) -> Vec<(&str, bool)> {
    let pieces: Vec<&str> = row.split('`').collect();
    (1..pieces.len()).step_by(2).map(|i| (pieces[i], pieces[i - 1].ends_with("~~"))).collect()
}

/// ARCHITECTURE.md's Words table, one row a line.
fn words_table() -> Vec<String> {
    let doc = read("ARCHITECTURE.md");
    let words = doc.split("## Words").nth(1).expect("ARCHITECTURE.md has a Words section");
    words.lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')).map(str::to_string).collect()
}

/// The external names that keep a word the Words forbid, each where it is allowed and why:
/// something outside the code reads them, so renaming would break a dashboard, a log query or a
/// user's habit. (A struck spelling found anywhere else fails the test below.)
const ALLOWED_EXTERNAL_NAMES: &[(&str, &str, &str)] = &[
    ("tablebase", "src/cli/mod.rs", "the `table` command's older name, still understood (`alias = \"tablebase\"`)"),
    ("tablebase", "tests/cli.rs", "the test that the older name is still understood"),
];

/// `text` without its `//` comments (doc comments included): the Words speak of the code's
/// names, and a comment may quote an old one to say it is gone.
fn code_only(text: &str) -> String {
    text.lines()
        .map(|line| {
            // A `//` inside a string (a URL) is rare; cutting there only hides code.
            let mut in_string = false;
            let bytes = line.as_bytes();
            for i in 0..bytes.len() {
                match bytes[i] {
                    b'"' if i == 0 || bytes[i - 1] != b'\\' => in_string = !in_string,
                    b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
                    _ => {}
                }
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The Words are kept both ways: every spelling the table strikes through (~~`player_record`~~)
/// is absent from the code of every crate, test and bench, but for the external names of
/// [`ALLOWED_EXTERNAL_NAMES`], each in its own file.
#[test]
fn no_word_architecture_md_s_words_strike_is_in_the_code() {
    let struck: Vec<String> = words_table()
        .iter()
        .flat_map(|row| ticked(row).into_iter().filter(|(_, struck)| *struck).map(|(name, _)| name.to_string()))
        .collect();
    for expected in ["player_record", "outcome: Handled", "let progress = self.", "tablebase"] {
        assert!(struck.iter().any(|s| s == expected), "the Words strike {expected:?}: {struck:?}");
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut allowed_used = vec![false; ALLOWED_EXTERNAL_NAMES.len()];
    for (path, text) in rust_sources() {
        let relative = path.strip_prefix(root).unwrap().to_str().unwrap().to_string();
        // This file spells them to look for them.
        if relative == "tests/docs.rs" {
            continue;
        }
        let code = code_only(&text);
        for spelling in &struck {
            for (n, line) in code.lines().enumerate().filter(|(_, line)| line.contains(spelling.as_str())) {
                match ALLOWED_EXTERNAL_NAMES.iter().position(|(s, file, _)| s == spelling && *file == relative) {
                    Some(i) => allowed_used[i] = true,
                    None => found.push(format!("{relative}:{}: `{spelling}` in {:?}", n + 1, line.trim())),
                }
            }
        }
    }
    assert!(found.is_empty(), "the code uses words ARCHITECTURE.md's Words strike:\n{}", found.join("\n"));
    for ((spelling, file, _), used) in ALLOWED_EXTERNAL_NAMES.iter().zip(allowed_used) {
        assert!(used, "`{spelling}` is allowed in {file}, which no longer uses it: drop it from the list");
    }
}

#[test]
fn every_name_in_architecture_md_s_words_is_in_the_code() {
    let table = words_table();
    assert!(table.len() > 5, "the Words table: {table:?}");
    let sources = rust_sources();
    let mut names = 0;
    for (name, struck) in table.iter().flat_map(|row| ticked(row)) {
        // A command a player types, or a crate, is not a name in the code; a struck name is
        // one the code never uses (checked by the test below).
        if name.starts_with('/') || name == "indicatif" || struck {
            continue;
        }
        let last = name.rsplit("::").next().unwrap();
        // Defined as an item (`struct Name`, `fn name`, ...), a field (`pub name:`) or a variant.
        let defined = |text: &str| {
            let whole = |pattern: String| {
                text.match_indices(&pattern)
                    .any(|(at, found)| !text[at + found.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
            };
            ["struct", "enum", "fn", "trait", "type", "mod"].iter().any(|kind| whole(format!("{kind} {last}")))
                || text.contains(&format!("pub {last}: "))
                || text.lines().any(|line| line.trim() == format!("{last},"))
        };
        let file_named = |path: &std::path::Path| path.file_stem().is_some_and(|s| s == last);
        assert!(
            sources.iter().any(|(path, text)| defined(text) || file_named(path)),
            "ARCHITECTURE.md's Words name `{name}`, which the code does not define"
        );
        names += 1;
    }
    assert!(names > 20, "{names} names checked");
}

/// Every `settai` command the papers name is one the installed `settai` runs: clap reads its
/// subcommands up to `--help`. The lab's commands are `settai-lab`'s (crates/lab-cli/tests).
#[test]
fn every_settai_command_the_papers_name_is_one_settai_runs() {
    let named = papers::commands_named(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), "settai");
    assert!(named.iter().any(|c| c == &["table", "build"]), "the papers are read: {named:?}");
    for words in named {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_settai"))
            .env("SETTAI_ENV_FILE", "/dev/null")
            .args(&words)
            .arg("--help")
            .output()
            .expect("run settai");
        assert!(
            out.status.success(),
            "the papers name `settai {}`, which settai does not run: {}",
            words.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
