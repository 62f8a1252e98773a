//! The `settai-lab` command line, run as a process: the lab's commands fail with one line
//! naming the problem before any work, and read what the bot's commands read.

use std::process::{Command, Output};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_settai-lab"))
        // The developer's .env never reaches a test (src/config.rs env_file).
        .env("SETTAI_ENV_FILE", "/dev/null")
        .env_remove("CARGO")
        .env_remove("CARGO_MANIFEST_DIR")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).trim().to_string()
}

/// Each command fails with a non-zero exit and one line of stderr naming the problem.
fn assert_one_line_failures(cases: &[(&[&str], &str)]) {
    for &(args, needle) in cases {
        let out = lab(args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: one line expected, got {err:?}");
        assert!(err.contains(needle), "{args:?}: {err:?} should name {needle:?}");
    }
}

#[test]
fn a_bad_match_player_or_openings_file_is_named_before_any_game() {
    let bad_line = std::env::temp_dir().join(format!("settai-openings-{}.txt", std::process::id()));
    std::fs::write(&bad_line, "# two openings\nf5 d6 c3\nf5 d6 a1\n").unwrap();
    let bad_line = bad_line.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["bench", "match", "--a", "none", "--b", "edax", "--games", "2"], "unknown player \"edax\""),
        (&["bench", "match", "--a", "none@/nonexistent/w.bin", "--b", "none", "--games", "2"], "/nonexistent/w.bin"),
        (&["bench", "match", "--a", "none", "--b", "none", "--openings", "/nonexistent/o.txt"], "/nonexistent/o.txt"),
        (&["bench", "match", "--a", "none", "--b", "none", "--openings", bad_line], "line 3: move 3 \"a1\""),
        (
            &[
                "bench",
                "hospitality",
                "--game",
                "reversi",
                "--level",
                "standard",
                "--guests",
                "gtp(/nonexistent/engine -l 3)",
                "--games",
                "1",
            ],
            "could not start the engine \"/nonexistent/engine -l 3\"",
        ),
    ];
    assert_one_line_failures(&cases);
    std::fs::remove_file(bad_line).unwrap();
}

#[test]
fn a_missing_doubutsu_table_or_a_bad_level_or_guest_is_one_line() {
    let missing = "/nonexistent/settai-doubutsu.tb";
    let hospitality = |level: &'static str, guests: &'static str| -> Vec<&'static str> {
        vec!["bench", "hospitality", "--game", "doubutsu", "--level", level, "--guests", guests, "--table", missing]
    };
    let (h1, h2, h3) =
        (hospitality("settai", "random"), hospitality("kind", "random"), hospitality("settai", "random,grandmaster"));
    let cases: [(&[&str], &str); 4] = [
        (&["bench", "table", "--table", missing], missing),
        // The table is the bot's: the message names the bot's command that builds it.
        (&h1, "`settai table build`"),
        (&h2, "unknown doubutsu level \"kind\""),
        (&h3, "unknown guest \"grandmaster\""),
    ];
    assert_one_line_failures(&cases);
}

#[test]
fn a_position_may_start_with_a_hyphen() {
    // a1 empty, b1 white, the rest black: black takes a1 and the board is full.
    let position = format!("-OX{} X", "X".repeat(61));
    let out = lab(&["solve", "reversi", "--position", &position]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("best a1 score +64"), "{}", stdout(&out));
}

#[test]
fn help_names_the_lab_s_commands() {
    let out = lab(&["--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for command in ["bench", "train", "solve"] {
        assert!(stdout(&out).contains(command), "{command} in {}", stdout(&out));
    }
}
