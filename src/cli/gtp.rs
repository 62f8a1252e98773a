//! `settai gtp`: the reversi levels over the Go Text Protocol on stdin and stdout, so that other
//! programs (GUIs, engine matches, the benchmark's own GTP guest) can play them.
//!
//! Reversi over GTP as GRhino speaks it: `play black f5`, `genmove white`; a colour that is not
//! to move is accepted when the side to move has to pass (the pass is played for it).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use rand::Rng;

use settai_core::reversi::{Clock, Color, Engine, Move, PatternEval, Position, ReversiLevel, TT_BITS};

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
];

/// One game over GTP: the moves so far, each with the position it was played in.
struct Session {
    history: Vec<(Position, Move)>,
}

impl Session {
    fn position(&self) -> Position {
        self.history.last().map_or_else(Position::start, |(p, m)| p.play(*m).expect("history is legal"))
    }

    /// Brings the game to `colour`'s turn, passing for the other side if it has to; an error if
    /// the other side has a move.
    fn turn_of(&mut self, colour: Color) -> Result<Position, String> {
        let pos = self.position();
        if pos.turn() == colour || pos.is_game_over() {
            return Ok(pos);
        }
        if pos.legal_moves() == [Move::Pass] {
            self.history.push((pos, Move::Pass));
            return Ok(self.position());
        }
        Err("illegal move: it is the other colour's turn".into())
    }
}

/// Answers GTP requests from `input` on `output` until `quit` or the end of input; the engine
/// plays `level` with `budget` per move (wall clock).
pub(super) fn serve(
    input: impl BufRead,
    mut output: impl Write,
    level: ReversiLevel,
    budget: Duration,
    rng: &mut impl Rng,
) -> anyhow::Result<()> {
    let eval = &PatternEval::builtin();
    let mut engine = Engine::new(TT_BITS).with_clock(Clock::Wall(Instant::now));
    let mut session = Session { history: Vec::new() };
    for line in input.lines() {
        let line = line?;
        // GTP: drop comments and control characters; skip empty lines.
        let line: String = line.split('#').next().unwrap_or("").chars().filter(|c| !c.is_control()).collect();
        let mut words = line.split_whitespace().peekable();
        let id = words.next_if(|w| w.chars().all(|c| c.is_ascii_digit())).unwrap_or("").to_string();
        let Some(command) = words.next() else { continue };
        let args: Vec<&str> = words.collect();
        let answer = answer(command, &args, &mut session, |pos, session| {
            let me = pos.turn();
            let human: Vec<(Position, Move)> =
                session.history.iter().copied().filter(|(p, _)| p.turn() != me).collect();
            engine.choose_at_level(eval, pos, level, budget, &human, rng).best
        });
        match &answer {
            Ok(text) => write!(output, "={id} {text}\n\n")?,
            Err(text) => write!(output, "?{id} {text}\n\n")?,
        }
        output.flush()?;
        if command == "quit" {
            break;
        }
    }
    Ok(())
}

fn parse_colour(word: Option<&&str>) -> Result<Color, String> {
    match word.map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("b" | "black") => Ok(Color::Black),
        Some("w" | "white") => Ok(Color::White),
        _ => Err("syntax error: expected a colour (black or white)".into()),
    }
}

fn answer(
    command: &str,
    args: &[&str],
    session: &mut Session,
    mut think: impl FnMut(&Position, &Session) -> Move,
) -> Result<String, String> {
    match command {
        "protocol_version" => Ok("2".into()),
        "name" => Ok("settai".into()),
        "version" => Ok(env!("CARGO_PKG_VERSION").into()),
        "known_command" => Ok(COMMANDS.contains(args.first().unwrap_or(&"")).to_string()),
        "list_commands" => Ok(COMMANDS.join("\n")),
        "quit" | "komi" => Ok(String::new()),
        "boardsize" => match args.first() {
            Some(&"8") => Ok(String::new()),
            _ => Err("unacceptable size".into()),
        },
        "clear_board" => {
            session.history.clear();
            Ok(String::new())
        }
        "play" => {
            let colour = parse_colour(args.first())?;
            let mv: Move = args.get(1).ok_or("syntax error: expected a move")?.parse().map_err(|_| "syntax error")?;
            let saved = session.history.len();
            let pos = session.turn_of(colour)?;
            if pos.turn() != colour || !pos.is_legal(mv) {
                session.history.truncate(saved); // nothing was changed
                return Err("illegal move".into());
            }
            session.history.push((pos, mv));
            Ok(String::new())
        }
        "genmove" => {
            let colour = parse_colour(args.first())?;
            let pos = session.turn_of(colour)?;
            if pos.is_game_over() {
                return Ok("pass".into());
            }
            let mv = think(&pos, session);
            session.history.push((pos, mv));
            Ok(mv.to_string())
        }
        "undo" => {
            // A pass played for a side is undone with the move before it.
            session.history.pop().ok_or("cannot undo")?;
            while session.history.last().is_some_and(|(_, m)| *m == Move::Pass) {
                session.history.pop();
            }
            Ok(String::new())
        }
        "showboard" => Ok(format!("\n{}", session.position())),
        "final_score" => {
            let pos = session.position();
            let outcome = pos.outcome().ok_or("the game is not over")?;
            Ok(match outcome.black.cmp(&outcome.white) {
                std::cmp::Ordering::Greater => format!("B+{}", outcome.black - outcome.white),
                std::cmp::Ordering::Less => format!("W+{}", outcome.white - outcome.black),
                std::cmp::Ordering::Equal => "0".into(),
            })
        }
        _ => Err("unknown command".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn run(requests: &str) -> String {
        let mut out = Vec::new();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        serve(requests.as_bytes(), &mut out, ReversiLevel::NoMercy, Duration::from_millis(5), &mut rng).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn answers_the_protocol_with_ids() {
        let out = run("1 protocol_version\nname\n\n# a comment\nboardsize 9\n7 frobnicate\nquit\nname\n");
        assert_eq!(out, "=1 2\n\n= settai\n\n? unacceptable size\n\n?7 unknown command\n\n= \n\n");
    }

    #[test]
    fn plays_legal_moves_and_refuses_the_rest_without_change() {
        let out = run("play black f5\nplay black d6\nplay white e6\nplay white d6\nshowboard\nquit\n");
        let answers: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(answers[..4], ["= ", "? illegal move: it is the other colour's turn", "? illegal move", "= "]);
        let expected = Position::start().play("f5".parse().unwrap()).unwrap().play("d6".parse().unwrap()).unwrap();
        assert_eq!(answers[4], format!("= \n{expected}"));
    }

    #[test]
    fn a_whole_game_against_itself_ends_with_a_score() {
        let mut requests = String::new();
        for _ in 0..40 {
            requests.push_str("genmove black\ngenmove white\n");
        }
        requests.push_str("final_score\nundo\nquit\n");
        let out = run(&requests);
        let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
        // Replaying the answers is a legal, finished game (a forced pass may be played for a side).
        let mut session = Session { history: Vec::new() };
        let moves = &answers[..80];
        for (i, a) in moves.iter().enumerate() {
            let mv: Move = a.strip_prefix("= ").expect("accepted").parse().expect("a move");
            let colour = if i % 2 == 0 { Color::Black } else { Color::White };
            let pos = session.turn_of(colour).expect("its turn");
            if pos.is_game_over() {
                assert_eq!(mv, Move::Pass);
                continue;
            }
            assert!(pos.is_legal(mv), "{mv} in {pos}");
            session.history.push((pos, mv));
        }
        let pos = session.position();
        let outcome = pos.outcome().expect("the game is over after 80 requests");
        let score = answers[80].strip_prefix("= ").unwrap();
        let diff = outcome.black as i32 - outcome.white as i32;
        let expected = match diff {
            0 => "0".to_string(),
            d if d > 0 => format!("B+{d}"),
            d => format!("W+{}", -d),
        };
        assert_eq!(score, expected);
        assert_eq!(answers[81], "= ");
    }
}
