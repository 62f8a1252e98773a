//! The `settai` command line, run as a process. Terminal games are kept in Postgres: each test
//! that plays gets a fresh database of its own (`#[sqlx::test]`) and hands it to the process.
//!
//! (Past 500 lines: one test per command of the program, each run as a process; split, the
//! process helpers would be shared across files for no gain.)

mod support;

use std::process::{Command, Output};

use sqlx::PgPool;
use support::database_url;

fn settai(args: &[&str]) -> Output {
    command().args(args).output().expect("the binary runs")
}

/// The binary as a user starts it: no token, and not under cargo (whose variables make its
/// messages say `cargo run --`).
fn command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_settai"));
    // The developer's .env never reaches a test (src/config.rs env_file).
    command.env("SETTAI_ENV_FILE", "/dev/null");
    command.env("DISCORD_TOKEN", "").env_remove("CARGO").env_remove("CARGO_MANIFEST_DIR");
    command
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

/// `settai play ...` on the test's database.
fn play(pool: &PgPool, args: &[&str]) -> Command {
    let mut command = command();
    command.arg("play").args(args).env("DATABASE_URL", database_url(pool));
    command
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
    let game = settai_core::replay(settai_core::GameKind::Reversi, &["f5".into(), "d6".into(), "c3".into()]).unwrap();
    let legal: Vec<String> = game.legal_moves().iter().map(ToString::to_string).collect();
    assert!(legal.contains(&mv), "{mv} is not legal");

    let out = settai(&["ai", "reversi", "--level", "none", "--moves", "f5 d6 c3", "--json", "--seed", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed: Vec<&str> = json["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    let mut legal = legal;
    legal.sort();
    let mut listed_sorted: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
    listed_sorted.sort();
    assert_eq!(listed_sorted, legal);
    assert!(legal.contains(&json["move"].as_str().unwrap().to_string()));
    assert!(json["human_strength"].is_null(), "only standard judges the human");

    // As the bot does, `standard` judges the human (black: f5, c3) by their moves so far.
    let out = settai(&["ai", "reversi", "--level", "standard", "--moves", "f5 d6 c3", "--json", "--seed", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let strength = json["human_strength"].as_f64().expect("standard judged the human's two moves");
    assert!((0.0..=1.0).contains(&strength), "{strength}");
}

#[test]
fn bad_input_fails_with_one_line_naming_the_problem() {
    let cases: [(&[&str], &str); 7] = [
        (&["ai", "reversi", "--moves", "f5 d6 a1"], "move 3 \"a1\""),
        (&["play", "doubutsu", "--side", "second", "--level", "weakest"], "--side is for reversi"),
        (&["serve"], "play reversi"),
        (&["ai", "reversi", "--moves", "f5 zz"], "zz"),
        (&["ai", "reversi", "--level", "superhuman", "--moves", ""], "superhuman"),
        (&["render", "reversi", "--moves", "f5 f5", "--out", "/tmp/never.png"], "move 2 \"f5\""),
        (&["serve"], "DISCORD_TOKEN"),
    ];
    assert_one_line_failures(&cases);
}

/// The benchmark's GTP guest plays whole games against `settai gtp` run as its own process:
/// both ends of the protocol, every answer checked by the benchmark's rules as it is played.
#[test]
fn an_outside_engine_over_gtp_plays_whole_benchmark_games() {
    use rand::SeedableRng;
    use settai_core::reversi::{Color, Move, PatternEval, Position};
    use settai_lab::hospitality::{
        reversi::{play_game, LevelUnderTest, ReversiGuest},
        GuestResult,
    };
    let command = format!("gtp({} gtp --level none --budget 0.01 --seed 3)", env!("CARGO_BIN_EXE_settai"));
    let guest = ReversiGuest::parse(&command).expect("a GTP guest");
    assert_eq!(ReversiGuest::parse(&guest.name()), Some(guest), "the name reads back");
    let level = LevelUnderTest::parse("standard", 0.02).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for colour in [Color::Black, Color::White] {
        let game = play_game(&PatternEval::builtin(), level, guest, colour, &mut rng).expect("the engine plays");
        let mut pos = Position::start();
        for mv in &game.moves {
            pos = pos.play(mv.parse::<Move>().unwrap()).unwrap_or_else(|e| panic!("{mv} in {pos}: {e:?}"));
        }
        let outcome = pos.outcome().expect("the game was played to its end");
        let (guest_discs, level_discs) =
            if colour == Color::Black { (outcome.black, outcome.white) } else { (outcome.white, outcome.black) };
        assert_eq!(game.margin, Some(guest_discs as i32 - level_discs as i32));
        assert!(game.guest_moves >= 10, "the engine placed {} discs", game.guest_moves);
        let expected = match guest_discs.cmp(&level_discs) {
            std::cmp::Ordering::Greater => GuestResult::Win,
            std::cmp::Ordering::Equal => GuestResult::Draw,
            std::cmp::Ordering::Less => GuestResult::Loss,
        };
        assert_eq!(game.result, expected);
    }
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn render_writes_a_png_and_play_runs_in_a_terminal(pool: PgPool) {
    let dir = std::env::temp_dir().join(format!("settai-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("board.png");
    let out = settai(&["render", "reversi", "--moves", "f5 d6 c3", "--out", path.to_str().unwrap(), "--lang", "ja"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let img = image::open(&path).unwrap();
    assert!(img.width() > 400);

    use std::io::Write;
    let mut child = play(&pool, &["reversi", "--seed", "3"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"a1\nmoves\nf5\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("`a1` is not legal here. Legal moves: d3 c4 f5 e6"), "{text}");
    assert!(text.contains("legal: d3 c4 f5 e6"), "{text}");
    assert!(text.contains("The AI plays"), "{text}");
    let kept = text[text.rfind("Bye!").expect("a goodbye")..].trim_end();
    assert!(
        kept.starts_with("Bye! The game is kept: `") && kept.ends_with(" play reversi` goes on with it."),
        "{text}"
    );
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
    let reply: settai_core::doubutsu::Move = stdout(&out).parse().unwrap();
    let game = settai_core::doubutsu::History::replay(&["B3B2".parse().unwrap()]).unwrap();
    assert!(game.legal_moves().contains(&reply));
}

#[test]
fn doubutsu_bad_input_and_a_missing_table_are_one_line_errors() {
    let missing = "/nonexistent/settai-doubutsu.tb";
    let cases: [(&[&str], &str); 5] = [
        (&["ai", "doubutsu", "--level", "weakest", "--moves", "B3B2 A1A3"], "move 2 \"A1A3\""),
        (&["ai", "doubutsu", "--level", "weakest", "--moves", "Z9Z9"], "Z9Z9"),
        (&["ai", "doubutsu", "--level", "settai", "--table", missing, "--moves", "B3B2"], "settai table build"),
        (&["table", "stats", "--table", missing], missing),
        // The command's older name is still understood.
        (&["tablebase", "stats", "--table", missing], missing),
    ];
    assert_one_line_failures(&cases);
}

#[test]
fn messages_name_the_command_the_way_it_was_started() {
    let missing = "/nonexistent/settai-doubutsu.tb";
    let args = ["ai", "doubutsu", "--level", "settai", "--table", missing, "--moves", "B3B2"];
    // Started by its path: the path.
    let out = settai(&args);
    let by_path = format!("`{} table build`", env!("CARGO_BIN_EXE_settai"));
    assert!(stderr(&out).contains(&by_path), "{}", stderr(&out));
    // Under `cargo run` (a debug build here): what cargo runs it with.
    let out = command()
        .args(args)
        .env("CARGO", "cargo")
        .env("CARGO_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(stderr(&out).contains("`cargo run -- table build`"), "{}", stderr(&out));
}

#[test]
fn help_lists_the_levels_and_aliases_are_accepted() {
    let out = settai(&["play", "--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let help = stdout(&out);
    for level in ["standard", "highest", "none", "settai", "strongest", "weakest"] {
        assert!(help.contains(level), "`play --help` should list {level}:\n{help}");
    }
    for args in [["ai", "reversi", "--level", "no mercy"], ["ai", "reversi", "--level", "no-mercy"]] {
        let out = settai(&[&args[..], &["--moves", "f5 d6 c3", "--seed", "1"]].concat());
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    let out = settai(&["ai", "doubutsu", "--level", "雑魚", "--moves", "B3B2", "--seed", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    for args in
        [&["ai", "doubutsu", "--level", "weakest", "--moves", "B3B2", "--json"][..], &["perft", "doubutsu", "3"][..]]
    {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader); // as `head` does once it has its lines
        let out = command().args(args).stdout(writer).output().unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?} panicked");
    }
}

/// Drives `settai play` through piped stdin and stdout, a line at a time as a person types.
struct Terminal {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    chunks: std::sync::mpsc::Receiver<String>,
    /// Everything printed so far.
    seen: String,
}

impl Terminal {
    /// `settai play` with `args` on the test's database.
    fn start(pool: &PgPool, args: &[&str]) -> Terminal {
        use std::io::Read;
        let mut child = play(pool, args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let (stdin, mut stdout) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
        let (tx, chunks) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                if tx.send(String::from_utf8_lossy(&buf[..n]).into_owned()).is_err() {
                    break;
                }
            }
        });
        Terminal { child, stdin, chunks, seen: String::new() }
    }

    /// What is printed until the next prompt (`None`: the program ended first).
    fn until_prompt(&mut self) -> Option<String> {
        let from = self.seen.len();
        loop {
            if let Some(at) = self.seen[from..].find("your move> ") {
                let text = self.seen[from..from + at].to_string();
                self.seen.replace_range(from + at..from + at + "your move> ".len(), "<prompt>");
                return Some(text);
            }
            match self.chunks.recv_timeout(std::time::Duration::from_secs(60)) {
                Ok(chunk) => self.seen.push_str(&chunk),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(e) => panic!("no prompt within 60 s ({e}); so far:\n{}", self.seen),
            }
        }
    }

    fn type_line(&mut self, line: &str) {
        use std::io::Write;
        writeln!(self.stdin, "{line}").unwrap();
    }

    /// Everything printed once the program has ended, and whether it succeeded.
    fn finish(mut self) -> (String, bool) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        while let Ok(chunk) = self.chunks.recv_timeout(std::time::Duration::from_secs(60)) {
            self.seen.push_str(&chunk);
        }
        (self.seen, status.success())
    }
}

/// A whole doubutsu game in a terminal, typed a line at a time against the weakest level: the
/// AI's move is named before each board, mistakes get one line naming the input and no board,
/// and the end is told in words.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_whole_terminal_game(pool: PgPool) {
    use rand::{Rng, SeedableRng};
    use settai_core::{Game, GameKind};
    let mut terminal = Terminal::start(&pool, &["doubutsu", "--level", "weakest", "--seed", "7"]);
    let mut game = Game::new(GameKind::Doubutsu);
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let intro = terminal.until_prompt().expect("a first prompt");
    assert!(intro.contains("doubutsu shogi against the AI (weakest). You are sente."), "{intro}");
    assert!(intro.contains("resign") && intro.contains("quit"), "{intro}");
    assert!(intro.contains("Sente to move"), "{intro}");
    // The board's legend: whose animals are whose, and which letter is which.
    assert!(
        intro.contains(
            "UPPER CASE is you (sente), lower case the computer (gote): L lion, G giraffe, E elephant, C chick, H hen"
        ),
        "{intro}"
    );
    // Mistakes: one line each, naming what was typed; the board is not drawn again.
    for (typed, said) in [
        ("Z9Z9", "`Z9Z9` is not a move: expected a move like `B3B2` or a drop like `E*B2`"),
        ("A1A2", "`A1A2` is not legal here. Legal moves: "),
    ] {
        terminal.type_line(typed);
        let answer = terminal.until_prompt().expect("a prompt after a mistake");
        assert!(answer.starts_with(said), "{typed}: {answer:?}");
        assert_eq!(answer.trim_end().lines().count(), 1, "{typed}: {answer:?}");
    }
    terminal.type_line("moves");
    let listed = terminal.until_prompt().unwrap();
    assert!(listed.starts_with("legal: ") && listed.contains("B3B2"), "{listed:?}");
    let mut plies = 0;
    let ended = loop {
        let legal = game.legal_moves();
        let mv = legal[rng.gen_range(0..legal.len())];
        terminal.type_line(&mv.to_string());
        game = game.play(mv).unwrap();
        plies += 1;
        let ai_move = |text: &str| {
            text.lines().find_map(|l| l.strip_prefix("The AI plays ")).map(|m| m.trim_end_matches('.').to_string())
        };
        let Some(answer) = terminal.until_prompt() else {
            // The game ended, by this move or by the AI's answer.
            let after = &terminal.seen[terminal.seen.rfind("<prompt>").unwrap()..];
            if let Some(ai) = ai_move(after) {
                game = game.play(game.parse_move(&ai).unwrap()).unwrap();
            }
            break true;
        };
        // The AI's move, then the board it leads to, then the prompt.
        let ai = ai_move(&answer).expect("the AI's move");
        let at_move = answer.find("The AI plays").unwrap();
        assert!(answer[at_move..].contains("Sente to move"), "the board follows the AI's move: {answer:?}");
        game = game.play(game.parse_move(&ai).unwrap()).unwrap();
        plies += 1;
        assert!(plies < 1000, "the game did not end");
    };
    assert!(ended);
    let (text, ok) = terminal.finish();
    assert!(ok, "{text}");
    let last = text.trim_end().lines().last().unwrap();
    let outcome = game.outcome().expect("the local replay of the game ended too");
    let verdict = match outcome.winner {
        Some(settai_core::Side::First) => "Game over: you win",
        Some(_) => "Game over: I win",
        None => "Game over: a draw",
    };
    assert!(last.starts_with(verdict), "{last:?} after {plies} plies");
    let tail = &text[text.rfind("<prompt>").unwrap()..];
    for debug in ["Some(", "None", "Win {", "LionCaptured", "to move", "Weakest"] {
        assert!(!tail.contains(debug), "{debug:?} in the end of the game:\n{tail}");
    }
}

/// Reversi as the second player: the AI opens, and `resign` ends the game with a word.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_terminal_game_can_be_resigned(pool: PgPool) {
    let mut terminal = Terminal::start(&pool, &["reversi", "--side", "second", "--seed", "1"]);
    let opening = terminal.until_prompt().expect("a prompt");
    assert!(opening.contains("You are white."), "{opening}");
    let ai = opening.find("The AI plays ").expect("the AI opens");
    assert!(opening[ai..].contains("White (O) to move"), "{opening}");
    terminal.type_line("resign");
    let (text, ok) = terminal.finish();
    assert!(ok);
    assert!(text.trim_end().ends_with("You resigned. Good game!"), "{text}");
    assert_eq!(games(&pool).await, [("reversi".to_string(), "resigned".to_string(), 1)]);
    // The next game is a new one.
    let mut terminal = Terminal::start(&pool, &["reversi"]);
    let opening = terminal.until_prompt().expect("a prompt");
    assert!(opening.contains("You are black.") && !opening.contains("goes on"), "{opening}");
    terminal.type_line("quit");
    assert!(terminal.finish().1);
}

/// The terminal's games as stored: (kind, status, ply), oldest first.
async fn games(pool: &PgPool) -> Vec<(String, String, i32)> {
    sqlx::query_as("SELECT kind, status, ply FROM games WHERE channel_id = 1 ORDER BY id")
        .fetch_all(pool)
        .await
        .unwrap()
}

/// A game left with `quit` goes on the next time, in the same position; another game waits
/// for it to end; `--new` gives it up and starts over.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn an_unfinished_terminal_game_goes_on_the_next_time(pool: PgPool) {
    use settai_core::{Game, GameKind};
    let mut terminal = Terminal::start(&pool, &["reversi", "--seed", "5"]);
    terminal.until_prompt().expect("a first prompt");
    terminal.type_line("f5");
    let answer = terminal.until_prompt().expect("the AI answers");
    let ai = answer.lines().find_map(|l| l.strip_prefix("The AI plays ")).expect("the AI's move");
    let ai = ai.trim_end_matches('.').to_string();
    terminal.type_line("quit");
    let (text, ok) = terminal.finish();
    assert!(ok && text.contains("The game is kept"), "{text}");
    assert_eq!(games(&pool).await, [("reversi".to_string(), "active".to_string(), 2)]);

    // The same game, from where it was: its legal moves are those after f5 and the AI's reply.
    let start = Game::new(GameKind::Reversi);
    let after = start.play(start.parse_move("f5").unwrap()).unwrap();
    let after = after.play(after.parse_move(&ai).unwrap()).unwrap();
    let legal: Vec<String> = after.legal_moves().iter().map(ToString::to_string).collect();
    // `--level` is for a new game: the resumed one says it keeps its own.
    let mut terminal = Terminal::start(&pool, &["reversi", "--seed", "5", "--level", "highest"]);
    let opening = terminal.until_prompt().expect("a prompt");
    assert!(opening.contains("Your unfinished game goes on from move 3"), "{opening}");
    assert!(opening.contains("It keeps its own level, standard; --level highest is for a new game"), "{opening}");
    assert!(opening.contains("play reversi --new --level highest`"), "{opening}");
    assert!(opening.contains("play reversi --new`"), "{opening}");
    terminal.type_line("moves");
    assert_eq!(terminal.until_prompt().unwrap().trim_end(), format!("legal: {}", legal.join(" ")));
    terminal.type_line("quit");
    assert!(terminal.finish().1);

    // Another game waits: one line says which game is on and how to go on or give it up.
    let out = play(&pool, &["doubutsu", "--level", "weakest"]).output().unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("your reversi game is not finished") && err.contains("play doubutsu --new`"), "{err}");
    assert_eq!(games(&pool).await, [("reversi".to_string(), "active".to_string(), 2)]);

    // `--new` resigns it and starts from the beginning.
    let mut terminal = Terminal::start(&pool, &["reversi", "--new"]);
    let opening = terminal.until_prompt().expect("a prompt");
    assert!(opening.contains("Your unfinished reversi game is resigned; a new one begins."), "{opening}");
    terminal.type_line("moves");
    assert_eq!(terminal.until_prompt().unwrap().trim_end(), "legal: d3 c4 f5 e6");
    terminal.type_line("quit");
    assert!(terminal.finish().1);
    let expected =
        [("reversi".to_string(), "resigned".to_string(), 2), ("reversi".to_string(), "active".to_string(), 0)];
    assert_eq!(games(&pool).await, expected);
}

/// Terminal play needs the database; without it, one line says what to do. A table level
/// without the table names the level that plays without it.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn terminal_play_without_the_database_or_the_table_is_one_line(pool: PgPool) {
    /// The one line of stderr of a failing `command`.
    fn one_line_failure(command: &mut Command) -> String {
        let out = command.stdin(std::process::Stdio::null()).output().unwrap();
        assert!(!out.status.success());
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    }
    let err = one_line_failure(
        command().args(["play", "reversi"]).env("DATABASE_URL", "postgres://postgres@127.0.0.1:9/settai"),
    );
    assert!(err.contains("PostgreSQL") && err.contains("DATABASE_URL") && err.contains("README"), "{err}");
    for raw in ["sqlx", "os error", "panicked", "Connection refused"] {
        assert!(!err.contains(raw), "{raw:?} in {err}");
    }
    let err = one_line_failure(&mut play(&pool, &["doubutsu", "--table", "/nonexistent/settai-doubutsu.tb"]));
    assert!(err.contains("--level weakest"), "{err}");
    assert!(games(&pool).await.is_empty(), "nothing was started");
}

/// settai reads `.env` from the folder it runs from, and says which file it looked in when the
/// token is missing.
#[test]
fn the_env_file_is_the_one_in_the_folder_settai_runs_from() {
    let folder = std::env::temp_dir().join(format!("settai-env-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let run = |args: &[&str]| {
        let mut command = command();
        command.env_remove("SETTAI_ENV_FILE").current_dir(&folder).args(args).stdin(std::process::Stdio::null());
        stderr(&command.output().unwrap())
    };
    let err = run(&["serve"]);
    let env = folder.canonicalize().unwrap().join(".env");
    assert!(err.contains(&format!("{} does not exist", env.display())), "{err}");
    assert!(err.contains("settai reads .env from the folder it runs from"), "{err}");
    // A .env there is read: its unusable server id stops the command.
    std::fs::write(folder.join(".env"), "DISCORD_GUILD_ID=not-a-number\n").unwrap();
    let err = run(&["play", "reversi"]);
    std::fs::remove_dir_all(&folder).unwrap();
    assert!(err.contains("DISCORD_GUILD_ID is set to \"not-a-number\""), "{err}");
}
