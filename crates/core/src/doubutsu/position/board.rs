//! [`Position`]: the packed mover-relative board and the side to move, behind the typed API
//! (legal moves, playing them, the outcome).

use std::fmt;

use super::movegen::{child, gen_moves, mover_attacks, raw_is_legal, MoveBuf, RawMove};
use super::packed::{canon, flip, hand, mirror, nib, set_nib, validate_key, CHICK, ELEPHANT, GIRAFFE, LION, OPP};
use super::status::{mover_can_win_at_once, status, Status};
use super::types::{Color, Ending, IllegalMove, Move, Piece, Role, Square};

/// A position: the packed mover-relative board plus the colour of the side to move.
///
/// Positions after a lion capture exist (so that `play` is total) and report the capture
/// through [`Position::outcome`]; they have no legal moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    key: u64,
    turn: Color,
}

impl Position {
    /// The official starting position, sente to move.
    pub fn start() -> Position {
        // Sente-relative: gote giraffe A1, lion B1, elephant C1, chick B2; sente chick B3,
        // elephant A4, lion B4, giraffe C4.
        let mut k = 0u64;
        k = set_nib(k, 0, GIRAFFE | OPP);
        k = set_nib(k, 1, LION | OPP);
        k = set_nib(k, 2, ELEPHANT | OPP);
        k = set_nib(k, 4, CHICK | OPP);
        k = set_nib(k, 7, CHICK);
        k = set_nib(k, 9, ELEPHANT);
        k = set_nib(k, 10, LION);
        k = set_nib(k, 11, GIRAFFE);
        Position { key: k, turn: Color::Sente }
    }

    /// Builds a position from its packed mover-relative key and the side to move.
    ///
    /// Returns `None` unless the key is well formed: no stray bits, valid nibbles, one lion
    /// per side (the mover's may be missing only after a capture, which this refuses), and at
    /// most two pieces of each other kind counting hands.
    pub fn from_key(key: u64, turn: Color) -> Option<Position> {
        validate_key(key).then_some(Position { key, turn })
    }

    /// The packed mover-relative key (see the module docs).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key shared by this position and its left-right mirror image (the smaller one);
    /// both have the same game-theoretic value.
    pub fn canonical_key(&self) -> u64 {
        canon(self.key)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let n = nib(self.key, sq.relative(self.turn));
        if n == 0 {
            return None;
        }
        let color = if n & OPP == 0 { self.turn } else { self.turn.opposite() };
        Some(Piece { color, role: Role::from_code(n) })
    }

    /// How many pieces of `role` `color` holds in hand (0 for lion and hen).
    pub fn hand(&self, color: Color, role: Role) -> u8 {
        match role.hand_index() {
            Some(i) => hand(self.key, color != self.turn, i),
            None => 0,
        }
    }

    /// Whether a piece of `color` on the board could move to `sq` (whatever stands there).
    pub fn attacks(&self, color: Color, sq: Square) -> bool {
        let k = if color == self.turn { self.key } else { flip(self.key) };
        mover_attacks(k, sq.relative(color))
    }

    /// The square of the side to move's lion when an opponent piece attacks it ("check"; the
    /// board marks it so that a child sees the danger).
    pub fn lion_in_check(&self) -> Option<Square> {
        let i = (0..12).find(|&i| nib(self.key, i) == LION)?;
        // Seen from the opponent, the board is turned: square i becomes 11 - i.
        mover_attacks(flip(self.key), 11 - i).then(|| Square::from_relative(i, self.turn))
    }

    /// The position with left and right swapped (same value, same side to move).
    pub fn mirror(&self) -> Position {
        Position { key: mirror(self.key), turn: self.turn }
    }

    /// Legal moves, board moves first (by origin square), then drops.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut buf = MoveBuf::new();
        gen_moves(self.key, &mut buf);
        buf.as_slice().iter().map(|&m| self.to_public(m)).collect()
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.outcome().is_none() && self.to_raw(mv).is_some_and(|m| raw_is_legal(self.key, m))
    }

    /// Plays `mv`, returning the new position; refuses illegal moves and moves after the end.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        let illegal = |reason| IllegalMove { mv: mv.to_string(), reason };
        if self.outcome().is_some() {
            return Err(illegal("the game is over"));
        }
        let raw = self.to_raw(mv).ok_or_else(|| illegal("it is not a move of this game"))?;
        if !raw_is_legal(self.key, raw) {
            return Err(illegal(match mv {
                Move::Normal { from, .. } if self.piece_at(from).map(|p| p.color) != Some(self.turn) => {
                    "the side to move has no piece on the origin square"
                }
                Move::Normal { .. } => "the piece cannot move there",
                Move::Drop { role, .. } if self.hand(self.turn, role) == 0 => "that piece is not in hand",
                Move::Drop { .. } => "the square is occupied",
            }));
        }
        Ok(Position { key: child(self.key, raw), turn: self.turn.opposite() })
    }

    /// Whether `mv` captures the opponent's lion.
    pub fn captures_lion(&self, mv: Move) -> bool {
        match mv {
            Move::Normal { to, .. } => {
                self.piece_at(to) == Some(Piece { color: self.turn.opposite(), role: Role::Lion })
            }
            Move::Drop { .. } => false,
        }
    }

    /// The piece `mv` captures, if any.
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        match mv {
            Move::Normal { to, .. } => self.piece_at(to).filter(|p| p.color != self.turn),
            Move::Drop { .. } => None,
        }
    }

    /// The end of the game as far as this position alone tells (repetition is [`History`]'s job).
    ///
    /// [`History`]: crate::doubutsu::History
    pub fn outcome(&self) -> Option<Ending> {
        let t = self.turn;
        match status(self.key) {
            Status::Ongoing => None,
            Status::MoverWon(reason) => Some(Ending::Win { winner: t, reason }),
            Status::MoverLost(reason) => Some(Ending::Win { winner: t.opposite(), reason }),
        }
    }

    /// Whether the side to move can win on this move (capture the lion or make a try the
    /// opponent cannot answer by capturing).
    pub fn winning_moves(&self) -> Vec<Move> {
        self.legal_moves()
            .into_iter()
            .filter(|&m| {
                let c = self.play(m).expect("legal");
                c.outcome().and_then(Ending::winner) == Some(self.turn)
            })
            .collect()
    }

    /// Whether, after `mv`, the opponent wins at once (captures the lion, completes a try,
    /// or `mv` failed to capture a lion standing on the far row).
    pub fn loses_at_once(&self, mv: Move) -> bool {
        let Ok(c) = self.play(mv) else { return false };
        match c.outcome() {
            Some(o) => o.winner() == Some(c.turn),
            None => mover_can_win_at_once(c.key),
        }
    }

    /// Whether `mv` loses at once ([`Position::loses_at_once`]) while another legal move does
    /// not: a blunder the mover could have avoided, the one the coach offers to take back
    /// (docs/design/kind-coach.md).
    pub fn loses_needlessly(&self, mv: Move) -> bool {
        self.loses_at_once(mv) && self.legal_moves().into_iter().any(|m| !self.loses_at_once(m))
    }

    fn to_public(self, m: RawMove) -> Move {
        let to = Square::from_relative(m.to as usize, self.turn);
        if (m.from as usize) < 12 {
            Move::Normal { from: Square::from_relative(m.from as usize, self.turn), to }
        } else {
            Move::Drop { role: Role::HAND[m.from as usize - 12], to }
        }
    }

    fn to_raw(self, mv: Move) -> Option<RawMove> {
        match mv {
            Move::Normal { from, to } => {
                Some(RawMove { from: from.relative(self.turn) as u8, to: to.relative(self.turn) as u8 })
            }
            Move::Drop { role, to } => {
                role.hand_index().map(|h| RawMove { from: 12 + h as u8, to: to.relative(self.turn) as u8 })
            }
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self)
    }
}
