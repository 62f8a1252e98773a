//! The `settai` command line, run as a process.

use std::process::{Command, Output};

fn settai(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_settai"))
        .args(args)
        .env_remove("DISCORD_TOKEN")
        .env("DISCORD_TOKEN", "")
        .output()
        .expect("the binary runs")
}

/// Each command fails with a non-zero exit and one line of stderr naming the problem.
fn assert_one_line_failures(cases: &[(&[&str], &str)]) {
    for &(args, needle) in cases {
        let out = settai(args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: one line expected, got {err:?}");
        assert!(err.contains(needle), "{args:?}: {err:?} should name {needle:?}");
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).trim().to_string()
}

#[test]
fn perft_reproduces_the_published_counts_to_depth_11() {
    let published = [4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800];
    for depth in [1, 5, 8, 11] {
        let out = settai(&["perft", "reversi", &depth.to_string()]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), published[depth - 1].to_string(), "depth {depth}");
    }
}

#[test]
fn the_ai_answers_with_a_legal_move_and_explains_itself_in_json() {
    let out = settai(&["ai", "reversi", "--moves", "f5 d6 c3", "--seed", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mv = stdout(&out);
    let game =
        settai::games::replay(settai::games::GameKind::Reversi, &["f5".into(), "d6".into(), "c3".into()]).unwrap();
    assert!(game.legal_moves().contains(&mv), "{mv} is not legal");

    let out = settai(&["ai", "reversi", "--level", "none", "--moves", "f5 d6 c3", "--json", "--seed", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed: Vec<&str> = json["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    let mut legal = game.legal_moves();
    legal.sort();
    let mut listed_sorted: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
    listed_sorted.sort();
    assert_eq!(listed_sorted, legal);
    assert!(legal.contains(&json["move"].as_str().unwrap().to_string()));
}

#[test]
fn bad_input_fails_with_one_line_naming_the_problem() {
    let cases: [(&[&str], &str); 5] = [
        (&["ai", "reversi", "--moves", "f5 d6 a1"], "move 3 \"a1\""),
        (&["ai", "reversi", "--moves", "f5 zz"], "zz"),
        (&["ai", "reversi", "--level", "superhuman", "--moves", ""], "superhuman"),
        (&["render", "reversi", "--moves", "f5 f5", "--out", "/tmp/never.png"], "move 2 \"f5\""),
        (&["serve"], "DISCORD_TOKEN"),
    ];
    assert_one_line_failures(&cases);
}

#[test]
fn render_writes_a_png_and_play_runs_in_a_terminal() {
    let dir = std::env::temp_dir().join(format!("settai-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("board.png");
    let out = settai(&["render", "reversi", "--moves", "f5 d6 c3", "--out", path.to_str().unwrap(), "--lang", "ja"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let img = image::open(&path).unwrap();
    assert!(img.width() > 400);

    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_settai"))
        .args(["play", "reversi", "--seed", "3"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"a1\nmoves\nf5\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("not a legal move") || text.contains("flips nothing"), "{text}");
    assert!(text.contains("legal: d3 c4 f5 e6") || text.contains("legal:"), "{text}");
    assert!(text.contains("AI plays"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn doubutsu_perft_matches_an_independent_count_and_the_weakest_ai_answers() {
    // Depths 1-6 as counted by the engine's independent brute-force checker (unit tests).
    let expected = [4u64, 17, 123, 976, 8122, 71677];
    for (depth, count) in expected.iter().enumerate() {
        let out = settai(&["perft", "doubutsu", &(depth + 1).to_string()]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), count.to_string());
    }
    let out = settai(&["ai", "doubutsu", "--level", "weakest", "--moves", "b3b2", "--seed", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let reply: settai::games::doubutsu::Move = stdout(&out).parse().unwrap();
    let game = settai::games::doubutsu::Game::replay(&["B3B2".parse().unwrap()]).unwrap();
    assert!(game.legal_moves().contains(&reply));
}

#[test]
fn doubutsu_bad_input_and_a_missing_table_are_one_line_errors() {
    let missing = "/nonexistent/settai-doubutsu.tb";
    let hospitality = |level: &'static str, guests: &'static str| -> Vec<&'static str> {
        vec!["bench", "hospitality", "--game", "doubutsu", "--level", level, "--guests", guests, "--table", missing]
    };
    let (h1, h2, h3) =
        (hospitality("settai", "random"), hospitality("kind", "random"), hospitality("settai", "random,grandmaster"));
    let cases: [(&[&str], &str); 8] = [
        (&["ai", "doubutsu", "--level", "weakest", "--moves", "B3B2 A1A3"], "move 2 \"A1A3\""),
        (&["ai", "doubutsu", "--level", "weakest", "--moves", "Z9Z9"], "Z9Z9"),
        (&["ai", "doubutsu", "--level", "settai", "--table", missing, "--moves", "B3B2"], "settai tablebase build"),
        (&["tablebase", "stats", "--table", missing], missing),
        (&["bench", "table", "--table", missing], missing),
        (&h1, "settai tablebase build"),
        (&h2, "unknown doubutsu level \"kind\""),
        (&h3, "unknown guest \"grandmaster\""),
    ];
    assert_one_line_failures(&cases);
}
