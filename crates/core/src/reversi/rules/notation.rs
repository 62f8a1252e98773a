//! Text notation: squares ("d3"), moves ("d3" / "pass"), move lists, the 64+2 character
//! position format, and replaying a move list with precise errors.

use std::str::FromStr;

use thiserror::Error;

use crate::reversi::rules::board::{Color, IllegalMove, Move, Position, Square};

/// A string that is not a square name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("\"{0}\" is not a square (expected a1..h8)")]
pub struct ParseSquareError(pub String);

/// A string or move-list token that is not a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseMoveError {
    /// A single move string could not be parsed.
    #[error("\"{0}\" is not a move (expected a square like \"f5\" or \"pass\")")]
    Invalid(String),
    /// Token `index` (1-based) of a move list could not be parsed.
    #[error("move {index} \"{token}\": not a move (expected a square like \"f5\" or \"pass\")")]
    InvalidToken {
        /// 1-based position of the token in the list.
        index: usize,
        /// The offending text.
        token: String,
    },
}

/// A string that is not a position in the 64+2 character format.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParsePositionError {
    /// Wrong number of non-space characters.
    #[error("expected 64 board characters and a side to move, found {found} characters")]
    Length {
        /// Non-space characters found.
        found: usize,
    },
    /// A board character other than X, O or -.
    #[error("bad character '{ch}' at {square} (expected X, O or -)")]
    BadSquare {
        /// Where the character was.
        square: Square,
        /// The character.
        ch: char,
    },
    /// A side-to-move character other than X or O.
    #[error("bad side to move '{0}' (expected X or O)")]
    BadSide(char),
}

/// A move of a replayed list that is illegal where it is played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("move {ply} \"{text}\": {reason}")]
pub struct MoveListError {
    /// 1-based index of the failing move in the list.
    pub ply: usize,
    /// The move as canonical text.
    pub text: String,
    /// Why it is illegal.
    pub reason: IllegalMove,
    /// The position in which the move was attempted.
    pub position: Position,
}

/// Column letter and row digit to a square, if both are in range (case-insensitive column).
fn square_from_chars(col: char, row: char) -> Option<Square> {
    let col = col.to_ascii_lowercase();
    if !('a'..='h').contains(&col) || !('1'..='8').contains(&row) {
        return None;
    }
    Square::from_coords(col as u8 - b'a', row as u8 - b'1')
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses "d3"; case-insensitive, ignores any whitespace ("D 3").
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        match chars[..] {
            [c, r] => square_from_chars(c, r),
            _ => None,
        }
        .ok_or_else(|| ParseSquareError(s.trim().to_string()))
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses "d3" or "pass" (syntax only); case-insensitive, ignores whitespace.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        compact.parse::<Square>().map(Move::Place).map_err(|_| ParseMoveError::Invalid(s.trim().to_string()))
    }
}

/// Parses a move list such as "f5 d6 c3", "F5,d6, c3", "f5d6c3" or "f 5 pass".
pub fn parse_moves(s: &str) -> Result<Vec<Move>, ParseMoveError> {
    let chars: Vec<char> = s.chars().collect();
    let is_sep = |c: char| c.is_whitespace() || c == ',';
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        while i < chars.len() && is_sep(chars[i]) {
            i += 1;
        }
        if i == chars.len() {
            return Ok(out);
        }
        let start = i;
        // "pass", in any case.
        let word: String = chars[i..chars.len().min(i + 4)].iter().collect();
        if word.eq_ignore_ascii_case("pass") {
            out.push(Move::Pass);
            i += 4;
            continue;
        }
        // A column letter, optional spaces (not commas), then a row digit.
        let mut j = i + 1;
        while j < chars.len() && chars[j].is_whitespace() {
            j += 1;
        }
        if j < chars.len() {
            if let Some(sq) = square_from_chars(chars[i], chars[j]) {
                out.push(Move::Place(sq));
                i = j + 1;
                continue;
            }
        }
        let end = (start..chars.len()).find(|&k| is_sep(chars[k])).unwrap_or(chars.len());
        return Err(ParseMoveError::InvalidToken { index: out.len() + 1, token: chars[start..end].iter().collect() });
    }
}

/// Plays `moves` from `start`, naming the first illegal move (1-based) and why.
pub fn replay(start: &Position, moves: &[Move]) -> Result<Position, MoveListError> {
    let mut pos = *start;
    for (i, &m) in moves.iter().enumerate() {
        pos = pos.play(m).map_err(|reason| MoveListError { ply: i + 1, text: m.to_string(), reason, position: pos })?;
    }
    Ok(pos)
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Parses the 64+2 format; case-insensitive, whitespace anywhere is ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.len() != 65 {
            return Err(ParsePositionError::Length { found: chars.len() });
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, &ch) in chars[..64].iter().enumerate() {
            match ch {
                'X' | 'x' => black |= 1 << i,
                'O' | 'o' => white |= 1 << i,
                '-' => {}
                _ => return Err(ParsePositionError::BadSquare { square: Square::new(i as u8).expect("i < 64"), ch }),
            }
        }
        let turn = match chars[64] {
            'X' | 'x' => Color::Black,
            'O' | 'o' => Color::White,
            ch => return Err(ParsePositionError::BadSide(ch)),
        };
        Ok(Position::from_bitboards(black, white, turn).expect("one character per square cannot overlap"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn squares_and_moves_parse_tolerantly_and_print_canonically() {
        for text in ["f5", "F5", " f5 ", "f 5", "\tF 5\n"] {
            let m: Move = text.parse().unwrap();
            assert_eq!(m.to_string(), "f5", "input {text:?}");
        }
        for text in ["pass", "PASS", " Pass ", "pa ss"] {
            assert_eq!(text.parse::<Move>().unwrap(), Move::Pass);
        }
        assert_eq!(Move::Pass.to_string(), "pass");
        for bad in ["", "i1", "a0", "a9", "f", "f55", "5f", "passs", "xx"] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?} should not parse");
            assert!(bad.parse::<Square>().is_err(), "{bad:?} should not parse as a square");
        }
        assert_eq!(
            "z9".parse::<Move>().unwrap_err().to_string(),
            "\"z9\" is not a move (expected a square like \"f5\" or \"pass\")"
        );
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
    }

    #[test]
    fn every_move_round_trips_through_text() {
        for i in 0..64u8 {
            let m = Move::Place(Square::new(i).unwrap());
            assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
            assert_eq!(m.to_string().to_uppercase().parse::<Move>().unwrap(), m);
        }
    }

    #[test]
    fn move_lists_accept_spaces_commas_and_compact_text() {
        let expected: Vec<Move> = ["f5", "d6", "c3"].iter().map(|t| t.parse().unwrap()).collect();
        for text in ["f5 d6 c3", "F5,d6, C3", "f5d6c3", "  f 5 ,d6 c3 ", "f5,,d6\nc3"] {
            assert_eq!(parse_moves(text).unwrap(), expected, "input {text:?}");
        }
        assert_eq!(parse_moves("").unwrap(), vec![]);
        assert_eq!(parse_moves("f5 pass PASS").unwrap()[1..], [Move::Pass, Move::Pass]);
    }

    #[test]
    fn move_list_errors_name_the_token_and_index() {
        let err = parse_moves("f5 d6 z9 c3").unwrap_err();
        assert_eq!(err, ParseMoveError::InvalidToken { index: 3, token: "z9".into() });
        assert_eq!(err.to_string(), "move 3 \"z9\": not a move (expected a square like \"f5\" or \"pass\")");
        let err = parse_moves("f5,hello").unwrap_err();
        assert_eq!(err, ParseMoveError::InvalidToken { index: 2, token: "hello".into() });
        let err = parse_moves("f5 d").unwrap_err();
        assert_eq!(err, ParseMoveError::InvalidToken { index: 2, token: "d".into() });
    }

    #[test]
    fn position_text_round_trips() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut pos = Position::start();
        assert_eq!(pos.to_text(), "---------------------------OX------XO--------------------------- X");
        while !pos.is_game_over() {
            let text = pos.to_text();
            assert_eq!(text.parse::<Position>().unwrap(), pos);
            // Lowercase and scattered whitespace are accepted too.
            let spaced: String = text.to_lowercase().chars().flat_map(|c| [c, ' ']).collect();
            assert_eq!(format!("  {spaced}\n").parse::<Position>().unwrap(), pos);
            let legal = pos.legal_moves();
            pos = pos.play(legal[rng.gen_range(0..legal.len())]).unwrap();
        }
    }

    #[test]
    fn position_parse_errors_are_typed() {
        let start = Position::start().to_text();
        assert_eq!("X".parse::<Position>(), Err(ParsePositionError::Length { found: 1 }));
        let bad = start.replacen('-', "?", 1);
        assert_eq!(
            bad.parse::<Position>(),
            Err(ParsePositionError::BadSquare { square: "a1".parse().unwrap(), ch: '?' })
        );
        let bad_side = format!("{} B", &start[..64]);
        assert_eq!(bad_side.parse::<Position>(), Err(ParsePositionError::BadSide('B')));
    }

    #[test]
    fn ffo_reference_positions_parse() {
        // A position line from the FFO suite (#40), in the same format.
        let pos: Position = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X".parse().unwrap();
        assert_eq!(pos.empties(), 20);
        assert_eq!(pos.turn(), Color::Black);
        assert!(pos.is_legal("a2".parse().unwrap()));
    }

    #[test]
    fn replay_plays_legal_lines_and_reports_the_first_illegal_move() {
        let start = Position::start();
        let moves = parse_moves("f5 d6 c3").unwrap();
        let mut expected = start;
        for &m in &moves {
            expected = expected.play(m).unwrap();
        }
        assert_eq!(replay(&start, &moves).unwrap(), expected);

        let err = replay(&start, &parse_moves("f5 d6 a1 c3").unwrap()).unwrap_err();
        assert_eq!(err.ply, 3);
        assert_eq!(err.text, "a1");
        assert_eq!(err.reason, IllegalMove::FlipsNothing("a1".parse().unwrap()));
        assert_eq!(err.position, replay(&start, &moves[..2]).unwrap());
        assert_eq!(err.to_string(), "move 3 \"a1\": square is not a legal move (it flips nothing)");

        let err = replay(&start, &parse_moves("f5 f5").unwrap()).unwrap_err();
        assert_eq!((err.ply, err.reason), (2, IllegalMove::Occupied("f5".parse().unwrap())));
        let err = replay(&start, &[Move::Pass]).unwrap_err();
        assert_eq!(err.to_string(), "move 1 \"pass\": cannot pass while a legal move exists");
    }

    #[test]
    fn replay_reports_moves_after_the_game_ended() {
        // Black a1, white b1, black to move: c1 ends the game.
        let pos = Position::from_bitboards(1, 2, Color::Black).unwrap();
        let err = replay(&pos, &parse_moves("c1 d1").unwrap()).unwrap_err();
        assert_eq!((err.ply, err.reason), (2, IllegalMove::GameOver));
        assert_eq!(err.to_string(), "move 2 \"d1\": the game is over");
    }
}
