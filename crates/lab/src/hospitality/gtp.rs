//! A Go Text Protocol client, so that an outside reversi engine (GRhino's `gtp-rhino`, or
//! `settai gtp` itself) can sit at the benchmark's table as a guest: an opponent nobody here
//! tuned for.
//!
//! The engine runs as a child process for one game. Before each of its moves it is shown the
//! whole game again (`clear_board`, then one `play` per move), so that it never has to be trusted
//! to keep its own board in step with ours; its answer is checked against our rules.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use settai_core::reversi::{Color, Move, Position};

/// What went wrong with an outside engine.
#[derive(Debug, thiserror::Error)]
pub enum GtpError {
    /// The command line is empty or the program could not be started.
    #[error("could not start the engine {command:?}: {reason}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        reason: String,
    },
    /// The engine closed its output or could not be written to.
    #[error("the engine {command:?} stopped answering (after `{request}`): {reason}")]
    Gone {
        /// The command line.
        command: String,
        /// The request it was sent.
        request: String,
        /// Why.
        reason: String,
    },
    /// The engine answered something that is not a GTP response.
    #[error("the engine {command:?} answered `{request}` with {answer:?}, which is not GTP")]
    NotGtp {
        /// The command line.
        command: String,
        /// The request it was sent.
        request: String,
        /// Its first line of answer.
        answer: String,
    },
    /// The engine refused a request (`? message`).
    #[error("the engine {command:?} refused `{request}`: {message}")]
    Refused {
        /// The command line.
        command: String,
        /// The request it was sent.
        request: String,
        /// Its message.
        message: String,
    },
    /// The engine chose a move that is not legal in the game.
    #[error("the engine {command:?} chose {answer:?}, which is not a legal move in {position}")]
    IllegalMove {
        /// The command line.
        command: String,
        /// Its answer.
        answer: String,
        /// The position, in `settai-lab solve` notation.
        position: String,
    },
}

/// One response: `Ok(text)` for `=`, `Err(message)` for `?` (the id, if any, dropped).
pub type Response = Result<String, String>;

/// Parses the lines of one GTP response (up to, not including, the empty line that ends it);
/// `None` if they are not a response.
pub fn parse_response(lines: &[String]) -> Option<Response> {
    let first = lines.first()?;
    let (ok, rest) = match first.chars().next()? {
        '=' => (true, &first[1..]),
        '?' => (false, &first[1..]),
        _ => return None,
    };
    // An optional numeric id follows the status character.
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let mut text = rest.trim().to_string();
    for line in &lines[1..] {
        text.push('\n');
        text.push_str(line.trim_end());
    }
    Some(if ok { Ok(text) } else { Err(text) })
}

/// An outside engine playing reversi over GTP, for one game.
pub struct GtpEngine {
    command: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl GtpEngine {
    /// Starts `command_line` (a program and its arguments, split at whitespace; the program is
    /// looked up on `PATH`) and checks that it speaks GTP.
    pub fn spawn(command_line: &str) -> Result<GtpEngine, GtpError> {
        let spawn_error = |reason: String| GtpError::Spawn { command: command_line.to_string(), reason };
        let mut words = command_line.split_whitespace();
        let program = words.next().ok_or_else(|| spawn_error("the command line is empty".into()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| spawn_error(e.to_string()))?;
        let input = child.stdin.take().expect("stdin is piped");
        let output = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut engine = GtpEngine { command: command_line.to_string(), child, input, output };
        engine.request("protocol_version")?;
        Ok(engine)
    }

    /// The engine's `name` and `version`, e.g. "GRhino 0.16.1".
    pub fn identity(&mut self) -> Result<String, GtpError> {
        let name = self.request("name")?;
        let version = self.request("version").unwrap_or_default();
        Ok(format!("{name} {version}").trim().to_string())
    }

    /// Sends one request and waits for its response; a refusal is an error.
    pub fn request(&mut self, request: &str) -> Result<String, GtpError> {
        self.exchange(request)?.map_err(|message| GtpError::Refused {
            command: self.command.clone(),
            request: request.to_string(),
            message,
        })
    }

    fn exchange(&mut self, request: &str) -> Result<Response, GtpError> {
        let gone =
            |reason: String| GtpError::Gone { command: self.command.clone(), request: request.to_string(), reason };
        writeln!(self.input, "{request}").and_then(|()| self.input.flush()).map_err(|e| gone(e.to_string()))?;
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let read = self.output.read_line(&mut line).map_err(|e| gone(e.to_string()))?;
            if read == 0 {
                return Err(gone("it closed its output".into()));
            }
            let line = line.trim_end_matches(['\r', '\n']).to_string();
            if line.trim().is_empty() {
                if lines.is_empty() {
                    continue; // blank lines before a response carry nothing
                }
                break;
            }
            // A first line that is no response ends the exchange at once: waiting for the
            // empty line that ends a response could wait for ever (`cat` echoes and waits).
            if lines.is_empty() && !line.starts_with(['=', '?']) {
                return Err(GtpError::NotGtp {
                    command: self.command.clone(),
                    request: request.to_string(),
                    answer: line,
                });
            }
            lines.push(line);
        }
        parse_response(&lines).ok_or_else(|| GtpError::NotGtp {
            command: self.command.clone(),
            request: request.to_string(),
            answer: lines[0].clone(),
        })
    }

    /// The engine's move for the side to move after `history` (moves from the start, passes
    /// included), checked against the rules.
    pub fn genmove(&mut self, history: &[Move]) -> Result<Move, GtpError> {
        self.request("clear_board")?;
        let mut pos = Position::start();
        for &mv in history {
            let request = format!("play {} {mv}", colour_word(pos.turn()));
            match self.exchange(&request)? {
                Ok(_) => {}
                // Engines that keep the turn themselves (GRhino) refuse an explicit pass; the
                // next `play` names its colour, so nothing is lost by skipping it.
                Err(_) if mv == Move::Pass => {}
                Err(message) => return Err(GtpError::Refused { command: self.command.clone(), request, message }),
            }
            pos = pos.play(mv).expect("the history is a legal game");
        }
        let answer = self.request(&format!("genmove {}", colour_word(pos.turn())))?;
        let illegal = || GtpError::IllegalMove {
            command: self.command.clone(),
            answer: answer.clone(),
            position: pos.to_string(),
        };
        let mv: Move = answer.parse().map_err(|_| illegal())?;
        if !pos.is_legal(mv) {
            return Err(illegal());
        }
        Ok(mv)
    }
}

impl Drop for GtpEngine {
    fn drop(&mut self) {
        // Ask politely, then make sure: a benchmark must not leave engines behind.
        let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// GTP's colour word for `c`.
pub fn colour_word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &[&str]) -> Vec<String> {
        s.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn responses_parse_with_and_without_ids() {
        assert_eq!(parse_response(&lines(&["= F5"])), Some(Ok("F5".into())));
        assert_eq!(parse_response(&lines(&["=12 pass"])), Some(Ok("pass".into())));
        assert_eq!(parse_response(&lines(&["="])), Some(Ok(String::new())));
        assert_eq!(parse_response(&lines(&["? illegal move"])), Some(Err("illegal move".into())));
        assert_eq!(parse_response(&lines(&["= a", "b "])), Some(Ok("a\nb".into())));
        assert_eq!(parse_response(&lines(&["genmove black"])), None);
        assert_eq!(parse_response(&[]), None);
    }

    #[test]
    fn a_missing_program_is_a_clear_error() {
        let err = GtpEngine::spawn("/nonexistent/engine -l 3").err().expect("no such program");
        assert!(matches!(err, GtpError::Spawn { .. }), "{err}");
        assert!(matches!(GtpEngine::spawn("   ").err(), Some(GtpError::Spawn { .. })));
    }

    #[test]
    fn a_program_that_does_not_speak_gtp_is_named_as_such() {
        // `cat` echoes the request back, which is no response.
        let err = GtpEngine::spawn("cat").err().expect("cat is no engine");
        assert!(matches!(err, GtpError::NotGtp { .. }), "{err}");
        // `true` exits at once.
        let err = GtpEngine::spawn("true").err().expect("true is no engine");
        assert!(matches!(err, GtpError::Gone { .. }), "{err}");
    }
}
