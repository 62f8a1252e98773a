//! Move notation and the position text format.
//!
//! Moves: a board move is origin + destination (`B3B2`), a drop is letter + `*` + square
//! (`E*B2`; L/G/E/C). Parsing ignores case and spaces; printing is canonical (uppercase).
//!
//! Positions (SFEN-like, stable, for the database): `<board> <side> <hands>`, e.g. the start
//! is `gle/1c1/1C1/ELG b -`.
//! - board: rows 1 to 4 (top to bottom from sente's side) separated by `/`, each row from
//!   column A to C; `L G E C H` = lion, giraffe, elephant, chick, hen, uppercase for sente and
//!   lowercase for gote, a digit 1-3 for a run of empty squares;
//! - side to move: `b` sente, `w` gote;
//! - hands: `-` when both are empty, else sente's pieces (uppercase) then gote's (lowercase),
//!   each in the order G E C, with a `2` before a letter held twice (`2CEg`).

use std::fmt;
use std::str::FromStr;

use super::position::{set_nib, Color, Move, Piece, Position, Role, Square, CHICK, GIRAFFE, OPP};

/// Why a square name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?} (expected a column A-C and a row 1-4, e.g. B3)")]
pub struct ParseSquareError(pub String);

/// Why a move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Nothing but spaces.
    #[error("empty move")]
    Empty,
    /// A square that is not A1..C4.
    #[error(transparent)]
    Square(#[from] ParseSquareError),
    /// A drop letter that is not L, G, E or C.
    #[error("invalid piece letter {0:?} in a drop (expected L, G, E or C)")]
    Role(char),
    /// Neither `B3B2` nor `E*B2`.
    #[error("invalid move {0:?} (expected e.g. B3B2 or E*B2)")]
    Shape(String),
}

/// Why a position text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// Not three space-separated fields.
    #[error("expected three fields: board, side to move, hands")]
    Fields,
    /// A board that is not four rows of three squares.
    #[error("invalid board {0:?}")]
    Board(String),
    /// A piece letter that is not L, G, E, C or H.
    #[error("invalid piece letter {0:?}")]
    Piece(char),
    /// A side to move that is not `b` or `w`.
    #[error("invalid side to move {0:?} (expected b or w)")]
    Side(String),
    /// A hand field that cannot be read.
    #[error("invalid hands {0:?}")]
    Hands(String),
    /// Well formed but impossible: wrong number of lions or more than two of a kind.
    #[error("impossible position: {0}")]
    Impossible(&'static str),
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let t: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        let err = || ParseSquareError(s.to_string());
        if t.len() != 2 {
            return Err(err());
        }
        let col = match t[0].to_ascii_uppercase() {
            c @ 'A'..='C' => c as u8 - b'A',
            _ => return Err(err()),
        };
        let row = match t[1] {
            c @ '1'..='4' => c as u8 - b'1',
            _ => return Err(err()),
        };
        Square::from_coords(col, row).ok_or_else(err)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to } => write!(f, "{from}{to}"),
            Move::Drop { role, to } => write!(f, "{}*{to}", role.letter()),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        if t.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        if let Some((piece, sq)) = t.split_once('*') {
            let mut chars = piece.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(ParseMoveError::Shape(s.to_string()));
            };
            let role = match Role::from_letter(c) {
                Some(r @ (Role::Lion | Role::Giraffe | Role::Elephant | Role::Chick)) => r,
                _ => return Err(ParseMoveError::Role(c)),
            };
            return Ok(Move::Drop { role, to: sq.parse()? });
        }
        if t.chars().count() != 4 || !t.is_ascii() {
            return Err(ParseMoveError::Shape(s.to_string()));
        }
        Ok(Move::Normal { from: t[..2].parse()?, to: t[2..].parse()? })
    }
}

/// Parses a whitespace- or comma-separated move list.
pub fn parse_moves(s: &str) -> Result<Vec<Move>, ParseMoveError> {
    // Moves have no internal spaces once tokenized on separators: `B3 B2` style input is
    // accepted by joining pairs of two-character tokens.
    let tokens: Vec<&str> = s.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let tok = tokens[i];
        if tok.len() == 2 && !tok.contains('*') && i + 1 < tokens.len() && tokens[i + 1].len() == 2 {
            out.push(format!("{tok}{}", tokens[i + 1]).parse()?);
            i += 2;
        } else {
            out.push(tok.parse()?);
            i += 1;
        }
    }
    Ok(out)
}

fn piece_char(p: Piece) -> char {
    let c = p.role.letter();
    match p.color {
        Color::Sente => c,
        Color::Gote => c.to_ascii_lowercase(),
    }
}

impl Position {
    /// The stable text form (see the module docs).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for row in 0..4 {
            if row > 0 {
                s.push('/');
            }
            let mut run = 0;
            for col in 0..3 {
                match self.piece_at(Square::from_coords(col, row).expect("on board")) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            s.push(char::from(b'0' + run));
                            run = 0;
                        }
                        s.push(piece_char(p));
                    }
                }
            }
            if run > 0 {
                s.push(char::from(b'0' + run));
            }
        }
        s.push_str(match self.turn() {
            Color::Sente => " b ",
            Color::Gote => " w ",
        });
        let mut hands = String::new();
        for color in [Color::Sente, Color::Gote] {
            for role in Role::HAND {
                match self.hand(color, role) {
                    0 => {}
                    n => {
                        if n > 1 {
                            hands.push(char::from(b'0' + n));
                        }
                        hands.push(piece_char(Piece { color, role }));
                    }
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        s.push_str(&hands);
        s
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

fn letter_code(c: char) -> Result<(Color, u8), ParsePositionError> {
    let role = Role::from_letter(c).ok_or(ParsePositionError::Piece(c))?;
    let color = if c.is_ascii_uppercase() { Color::Sente } else { Color::Gote };
    Ok((color, role.code()))
}

impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        let [board, side, hands] = fields[..] else {
            return Err(ParsePositionError::Fields);
        };
        let turn = match side {
            "b" | "B" => Color::Sente,
            "w" | "W" => Color::Gote,
            _ => return Err(ParsePositionError::Side(side.to_string())),
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 4 {
            return Err(ParsePositionError::Board(board.to_string()));
        }
        let mut key = 0u64;
        for (r, row) in rows.iter().enumerate() {
            let mut col = 0u8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(ParsePositionError::Board(board.to_string()));
                    }
                    col += d as u8;
                    continue;
                }
                let (color, code) = letter_code(c)?;
                let sq =
                    Square::from_coords(col, r as u8).ok_or_else(|| ParsePositionError::Board(board.to_string()))?;
                let n = if color == turn { code } else { code | OPP };
                key = set_nib(key, sq.relative(turn), n);
                col += 1;
            }
            if col != 3 {
                return Err(ParsePositionError::Board(board.to_string()));
            }
        }
        if hands != "-" {
            let mut count = 1u64;
            let mut pending = false;
            for c in hands.chars() {
                if let Some(d) = c.to_digit(10) {
                    if pending || !(1..=2).contains(&d) {
                        return Err(ParsePositionError::Hands(hands.to_string()));
                    }
                    count = d as u64;
                    pending = true;
                    continue;
                }
                let (color, code) = letter_code(c)?;
                if !(GIRAFFE..=CHICK).contains(&code) {
                    return Err(ParsePositionError::Hands(hands.to_string()));
                }
                let opp = color != turn;
                let shift = 48 + 6 * opp as u32 + 2 * (code - GIRAFFE) as u32;
                let now = (key >> shift) & 3;
                if now + count > 2 {
                    return Err(ParsePositionError::Impossible("more than two pieces of a kind"));
                }
                key += count << shift;
                count = 1;
                pending = false;
            }
            if pending {
                return Err(ParsePositionError::Hands(hands.to_string()));
            }
        }
        Position::from_key(key, turn)
            .ok_or(ParsePositionError::Impossible("need one lion per side and at most two pieces of each other kind"))
    }
}
