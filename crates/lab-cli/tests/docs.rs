//! The papers' `settai-lab` commands are ones `settai-lab` runs: the workspace's README,
//! BENCHMARKS.md and design notes name the lab's commands, and each must parse.

#[path = "../../../tests/papers/mod.rs"]
mod papers;

/// The workspace's folder, two up from this package's.
fn workspace() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `settai-lab` command the papers name (README.md's lab block, BENCHMARKS.md's
/// commands, the design notes') is one `settai-lab` runs: clap reads its subcommands up to
/// `--help`.
#[test]
fn every_settai_lab_command_the_papers_name_is_one_settai_lab_runs() {
    let named = papers::commands_named(&workspace(), "settai-lab");
    for expected in [&["bench", "hospitality"][..], &["bench", "match"], &["train", "reversi"], &["solve", "reversi"]] {
        assert!(named.iter().any(|c| c == expected), "the papers name `settai-lab {}`: {named:?}", expected.join(" "));
    }
    for words in named {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_settai-lab"))
            .env("SETTAI_ENV_FILE", "/dev/null")
            .args(&words)
            .arg("--help")
            .output()
            .expect("run settai-lab");
        assert!(
            out.status.success(),
            "the papers name `settai-lab {}`, which settai-lab does not run: {}",
            words.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
