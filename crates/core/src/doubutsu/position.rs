//! Domain types and the packed rules core.
//!
//! One file of about 800 lines on purpose: the typed values and the packed core share the
//! private invariants of the packed layout (nibbles, hands, the flip), which no other module
//! may see.
//!
//! A position is one `u64` seen from the side to move ("mover-relative"): the mover always
//! plays up the board, so the table needs no colour and a move is applied by editing nibbles
//! and then [`flip`]ping the board to the other player's point of view.
//!
//! Packed layout (bits 0..60):
//! - bits `4*i..4*i+4`, `i = row * 3 + col` (row 0 is the mover's far row): the piece on
//!   square `i`; 0 empty, 1..=5 lion, giraffe, elephant, chick, hen of the mover, `| 8` for
//!   the opponent's;
//! - bits 48..54: the mover's hand, two bits per kind (giraffe, elephant, chick);
//! - bits 54..60: the opponent's hand, same order.

use std::fmt;

/// A player: sente moves first (the human in the bot), gote second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player; starts on rows 3-4 and moves up.
    Sente,
    /// The second player; starts on rows 1-2 and moves down.
    Gote,
}

impl Color {
    /// The other player.
    pub fn opposite(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }
}

/// A board square, `index = row * 3 + col`: A1 = 0 (top left, gote's side) .. C4 = 11.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// All twelve squares in index order (A1, B1, C1, A2, ...).
    pub const ALL: [Square; 12] = {
        let mut a = [Square(0); 12];
        let mut i = 0;
        while i < 12 {
            a[i] = Square(i as u8);
            i += 1;
        }
        a
    };

    /// The square with this index (0..12).
    pub fn new(index: u8) -> Option<Square> {
        (index < 12).then_some(Square(index))
    }

    /// The square at column 0..3 (A-C) and row 0..4 (rows 1-4).
    pub fn from_coords(col: u8, row: u8) -> Option<Square> {
        (col < 3 && row < 4).then_some(Square(row * 3 + col))
    }

    /// Index 0..12.
    pub fn index(self) -> u8 {
        self.0
    }

    /// Column 0..3 (A-C).
    pub fn col(self) -> u8 {
        self.0 % 3
    }

    /// Row 0..4 (printed as 1-4).
    pub fn row(self) -> u8 {
        self.0 / 3
    }

    /// The index this square has on the board as seen by `side` (gote sees it rotated).
    pub(crate) fn relative(self, side: Color) -> usize {
        match side {
            Color::Sente => self.0 as usize,
            Color::Gote => 11 - self.0 as usize,
        }
    }

    /// Inverse of [`Square::relative`].
    pub(crate) fn from_relative(i: usize, side: Color) -> Square {
        match side {
            Color::Sente => Square(i as u8),
            Color::Gote => Square(11 - i as u8),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col()) as char, self.row() + 1)
    }
}

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// ライオン: one step in any direction; losing it loses the game.
    Lion,
    /// キリン: one step orthogonally.
    Giraffe,
    /// ゾウ: one step diagonally.
    Elephant,
    /// ひよこ: one step forward; promotes to a hen on the far row.
    Chick,
    /// ニワトリ: a promoted chick; reverts to a chick when captured.
    Hen,
}

impl Role {
    /// The roles that can be held in hand, in hand order.
    pub const HAND: [Role; 3] = [Role::Giraffe, Role::Elephant, Role::Chick];

    /// Letter used in notation: L, G, E, C, H.
    pub fn letter(self) -> char {
        match self {
            Role::Lion => 'L',
            Role::Giraffe => 'G',
            Role::Elephant => 'E',
            Role::Chick => 'C',
            Role::Hen => 'H',
        }
    }

    /// Inverse of [`Role::letter`], case-insensitive.
    pub fn from_letter(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'L' => Some(Role::Lion),
            'G' => Some(Role::Giraffe),
            'E' => Some(Role::Elephant),
            'C' => Some(Role::Chick),
            'H' => Some(Role::Hen),
            _ => None,
        }
    }

    pub(crate) fn code(self) -> u8 {
        match self {
            Role::Lion => LION,
            Role::Giraffe => GIRAFFE,
            Role::Elephant => ELEPHANT,
            Role::Chick => CHICK,
            Role::Hen => HEN,
        }
    }

    pub(crate) fn from_code(c: u8) -> Role {
        match c & 7 {
            LION => Role::Lion,
            GIRAFFE => Role::Giraffe,
            ELEPHANT => Role::Elephant,
            CHICK => Role::Chick,
            _ => Role::Hen,
        }
    }

    /// Index in a hand (giraffe 0, elephant 1, chick 2), `None` for lion and hen.
    pub(crate) fn hand_index(self) -> Option<usize> {
        match self {
            Role::Giraffe => Some(0),
            Role::Elephant => Some(1),
            Role::Chick => Some(2),
            _ => None,
        }
    }
}

/// A piece: a role owned by a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub role: Role,
}

/// A move: a board move (promotion is compulsory, so implied) or a drop from the hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Moves the piece on `from` to `to`, capturing whatever stands there.
    Normal {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
    },
    /// Drops a piece of `role` from the mover's hand on the empty square `to`.
    Drop {
        /// Giraffe, elephant or chick.
        role: Role,
        /// Destination square.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }
}

/// How a finished game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser's lion was captured.
    LionCaptured,
    /// The winner's lion reached the far row and could not be (or was not) captured.
    Try,
    /// The loser had no legal move (practically unreachable, ruled as in shogi).
    NoMoves,
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won for `reason`.
    Win {
        /// The player who won.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Drawn (only by repetition, see [`super::game::Game`]).
    Draw,
}

impl Outcome {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw => None,
        }
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// The move, in canonical notation.
    pub mv: String,
    /// Why it is illegal.
    pub reason: &'static str,
}

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

    /// The end of the game as far as this position alone tells (repetition is [`Game`]'s job).
    ///
    /// [`Game`]: super::game::Game
    pub fn outcome(&self) -> Option<Outcome> {
        let t = self.turn;
        match status(self.key) {
            Status::Ongoing => None,
            Status::MoverWon(reason) => Some(Outcome::Win { winner: t, reason }),
            Status::MoverLost(reason) => Some(Outcome::Win { winner: t.opposite(), reason }),
        }
    }

    /// Whether the side to move can win on this move (capture the lion or make a try the
    /// opponent cannot answer by capturing).
    pub fn winning_moves(&self) -> Vec<Move> {
        self.legal_moves()
            .into_iter()
            .filter(|&m| {
                let c = self.play(m).expect("legal");
                c.outcome().and_then(Outcome::winner) == Some(self.turn)
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

// ---------------------------------------------------------------------------------------
// Packed core, shared with the table builder.

pub(crate) const LION: u8 = 1;
pub(crate) const GIRAFFE: u8 = 2;
pub(crate) const ELEPHANT: u8 = 3;
pub(crate) const CHICK: u8 = 4;
pub(crate) const HEN: u8 = 5;
pub(crate) const OPP: u8 = 8;

pub(crate) const BOARD_MASK: u64 = (1 << 48) - 1;
const KEY_MASK: u64 = (1 << 60) - 1;
const COL0: u64 = 0x00F0_0F00_F00F;
const COL1: u64 = 0x0F00_F00F_00F0;
const COL2: u64 = 0xF00F_00F0_0F00;

/// The nibble of square `i`.
#[inline(always)]
pub(crate) fn nib(k: u64, i: usize) -> u8 {
    ((k >> (4 * i)) & 15) as u8
}

#[inline(always)]
pub(crate) fn set_nib(k: u64, i: usize, v: u8) -> u64 {
    (k & !(15u64 << (4 * i))) | ((v as u64) << (4 * i))
}

#[inline(always)]
fn hand_shift(opp: bool, idx: usize) -> u32 {
    48 + 6 * opp as u32 + 2 * idx as u32
}

/// Hand count of kind `idx` (giraffe, elephant, chick) of the mover or the opponent.
#[inline(always)]
pub(crate) fn hand(k: u64, opp: bool, idx: usize) -> u8 {
    ((k >> hand_shift(opp, idx)) & 3) as u8
}

/// The board seen from the other player: rotate 180 degrees, swap owners and hands.
#[inline]
pub(crate) fn flip(k: u64) -> u64 {
    // Reverse the 12 nibbles: byte swap then swap the two nibbles of every byte.
    let x = ((k & BOARD_MASK) << 16).swap_bytes();
    let x = ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4) | ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
    let occupied = (x | (x >> 1) | (x >> 2)) & 0x1111_1111_1111;
    let x = x ^ (occupied << 3);
    let h = (k >> 48) & 0xFFF;
    x | ((((h & 0x3F) << 6) | (h >> 6)) << 48)
}

/// The board with columns A and C swapped.
#[inline]
pub(crate) fn mirror(k: u64) -> u64 {
    (k & !BOARD_MASK) | (k & COL1) | ((k & COL0) << 8) | ((k & COL2) >> 8)
}

/// The smaller of a key and its mirror image.
#[inline]
pub(crate) fn canon(k: u64) -> u64 {
    k.min(mirror(k))
}

fn validate_key(k: u64) -> bool {
    if k & !KEY_MASK != 0 {
        return false;
    }
    let mut count = [0u8; 6];
    let mut lions = [0u8; 2];
    for i in 0..12 {
        let n = nib(k, i);
        if n == 0 {
            continue;
        }
        let c = n & 7;
        if !(LION..=HEN).contains(&c) || n & 0b0111 == 0 {
            return false;
        }
        if c == LION {
            lions[(n >> 3) as usize] += 1;
        } else {
            count[if c == HEN { CHICK } else { c } as usize] += 1;
        }
    }
    for opp in [false, true] {
        for idx in 0..3 {
            let h = hand(k, opp, idx);
            if h == 3 {
                return false;
            }
            count[idx + 2] += h;
        }
    }
    lions == [1, 1] && count[2..5].iter().all(|&c| c <= 2)
}

/// Movement of the mover's pieces: `MOVES[code][from]` is the set of destination squares.
pub(crate) const MOVES: [[u16; 12]; 6] = build_moves(false);
/// Movement of the opponent's pieces (they move down the board).
pub(crate) const OPP_MOVES: [[u16; 12]; 6] = build_moves(true);
/// `REV_OPP[code][to]`: squares from which an opponent piece of `code` reaches `to`.
const REV_OPP: [[u16; 12]; 6] = {
    let mut r = [[0u16; 12]; 6];
    let mut c = 1;
    while c < 6 {
        let mut s = 0;
        while s < 12 {
            let mut t = 0;
            while t < 12 {
                if OPP_MOVES[c][s] & (1 << t) != 0 {
                    r[c][t] |= 1 << s;
                }
                t += 1;
            }
            s += 1;
        }
        c += 1;
    }
    r
};

const fn build_moves(opponent: bool) -> [[u16; 12]; 6] {
    // (drow, dcol) for the mover; forward is drow = -1.
    const L: &[(i8, i8)] = &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];
    const G: &[(i8, i8)] = &[(-1, 0), (0, -1), (0, 1), (1, 0)];
    const E: &[(i8, i8)] = &[(-1, -1), (-1, 1), (1, -1), (1, 1)];
    const C: &[(i8, i8)] = &[(-1, 0)];
    const H: &[(i8, i8)] = &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)];
    let dirs: [&[(i8, i8)]; 6] = [&[], L, G, E, C, H];
    let mut t = [[0u16; 12]; 6];
    let mut c = 1;
    while c < 6 {
        let mut s = 0;
        while s < 12 {
            let (r, col) = ((s / 3) as i8, (s % 3) as i8);
            let mut d = 0;
            while d < dirs[c].len() {
                let (mut dr, mut dc) = dirs[c][d];
                if opponent {
                    dr = -dr;
                    dc = -dc;
                }
                let (nr, nc) = (r + dr, col + dc);
                if nr >= 0 && nr < 4 && nc >= 0 && nc < 3 {
                    t[c][s] |= 1 << (nr * 3 + nc);
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// A move in mover-relative coordinates: `from` 0..12 is a square, 12..15 a drop of hand
/// kind `from - 12`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawMove {
    pub from: u8,
    pub to: u8,
}

/// A fixed-capacity move list (no allocation in the hot loops).
pub(crate) struct MoveBuf {
    moves: [RawMove; 96],
    len: usize,
}

impl MoveBuf {
    pub fn new() -> MoveBuf {
        MoveBuf { moves: [RawMove { from: 0, to: 0 }; 96], len: 0 }
    }
    #[inline(always)]
    fn push(&mut self, m: RawMove) {
        self.moves[self.len] = m;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[RawMove] {
        &self.moves[..self.len]
    }
}

/// Occupancy masks (mover, opponent) of the board.
#[inline(always)]
fn occupancy(k: u64) -> (u16, u16) {
    let (mut own, mut opp) = (0u16, 0u16);
    for i in 0..12 {
        let n = nib(k, i);
        if n != 0 {
            if n & OPP == 0 {
                own |= 1 << i;
            } else {
                opp |= 1 << i;
            }
        }
    }
    (own, opp)
}

/// Pseudo-legal = legal moves of a non-terminal position (moving into attack is legal).
pub(crate) fn gen_moves(k: u64, out: &mut MoveBuf) {
    out.len = 0;
    let (own, opp) = occupancy(k);
    let mut mine = own;
    while mine != 0 {
        let s = mine.trailing_zeros() as usize;
        mine &= mine - 1;
        let n = nib(k, s);
        let mut t = MOVES[n as usize][s] & !own;
        while t != 0 {
            let to = t.trailing_zeros() as u8;
            t &= t - 1;
            out.push(RawMove { from: s as u8, to });
        }
    }
    let empty = !(own | opp) & 0xFFF;
    for idx in 0..3 {
        if hand(k, false, idx) != 0 {
            let mut e = empty;
            while e != 0 {
                let to = e.trailing_zeros() as u8;
                e &= e - 1;
                out.push(RawMove { from: 12 + idx as u8, to });
            }
        }
    }
}

fn raw_is_legal(k: u64, m: RawMove) -> bool {
    let mut buf = MoveBuf::new();
    gen_moves(k, &mut buf);
    buf.as_slice().contains(&m)
}

/// Applies `m` and returns the position from the opponent's point of view.
#[inline]
pub(crate) fn child(k: u64, m: RawMove) -> u64 {
    let to = m.to as usize;
    let k = if (m.from as usize) < 12 {
        let from = m.from as usize;
        let p = nib(k, from);
        let target = nib(k, to);
        let mut k = set_nib(k, from, 0);
        let tc = target & 7;
        if target != 0 && tc != LION {
            let idx = if tc == HEN { 2 } else { (tc - GIRAFFE) as usize };
            k += 1 << hand_shift(false, idx);
        }
        let p = if p == CHICK && to < 3 { HEN } else { p };
        set_nib(k, to, p)
    } else {
        let idx = (m.from - 12) as usize;
        set_nib(k - (1 << hand_shift(false, idx)), to, idx as u8 + GIRAFFE)
    };
    flip(k)
}

/// Whether any mover piece attacks square `t`.
#[inline]
pub(crate) fn mover_attacks(k: u64, t: usize) -> bool {
    (0..12).any(|s| {
        let n = nib(k, s);
        n != 0 && n & OPP == 0 && MOVES[n as usize][s] & (1 << t) != 0
    })
}

/// Terminal status of a packed position from the mover's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Ongoing,
    MoverWon(WinReason),
    MoverLost(WinReason),
}

/// Terminal rules, in order: the mover's lion was captured; the mover's lion stands on the
/// far row (the opponent did not capture it: try completed); the opponent's lion stands on
/// the mover's home row and cannot be captured (try completed, counted at the try move);
/// no legal move.
#[inline]
pub(crate) fn status(k: u64) -> Status {
    let (mut ml, mut ol) = (usize::MAX, usize::MAX);
    for i in 0..12 {
        match nib(k, i) {
            n if n == LION => ml = i,
            n if n == LION | OPP => ol = i,
            _ => {}
        }
    }
    if ml == usize::MAX {
        return Status::MoverLost(WinReason::LionCaptured);
    }
    if ml < 3 {
        return Status::MoverWon(WinReason::Try);
    }
    if ol >= 9 && !mover_attacks(k, ol) {
        return Status::MoverLost(WinReason::Try);
    }
    if (k >> 48) & 0x3F == 0 {
        let mut buf = MoveBuf::new();
        gen_moves(k, &mut buf);
        if buf.len == 0 {
            return Status::MoverLost(WinReason::NoMoves);
        }
    }
    Status::Ongoing
}

/// Whether the mover can capture the opponent's lion right now.
#[inline]
pub(crate) fn can_capture_lion(k: u64) -> bool {
    (0..12).find(|&i| nib(k, i) == LION | OPP).is_some_and(|ol| mover_attacks(k, ol))
}

/// Whether the mover of the ongoing `k` has a move that wins on the spot: it captures the
/// lion, its lion steps onto the far row out of reach, or the opponent is left without a move.
/// Exact; the full look at every move only where a try or a stalemate is possible at all.
pub(crate) fn mover_can_win_at_once(k: u64) -> bool {
    if can_capture_lion(k) {
        return true;
    }
    let lion_next_to_far_row = (3..6).any(|i| nib(k, i) == LION);
    let opponent_hand_empty = (k >> 54) & 0x3F == 0;
    if !lion_next_to_far_row && !opponent_hand_empty {
        return false;
    }
    let mut buf = MoveBuf::new();
    gen_moves(k, &mut buf);
    buf.as_slice().iter().any(|&m| matches!(status(child(k, m)), Status::MoverLost(_)))
}

/// Every predecessor of `k` (keys from the predecessor's mover's point of view): positions
/// where the opponent was to move and one of its moves led to `k`. Terminal predecessors
/// are included; callers skip them (the table has already valued them).
pub(crate) fn unmoves(k: u64, out: &mut Vec<u64>) {
    let (own, opp) = occupancy(k);
    let empty = !(own | opp) & 0xFFF;
    let mut o = opp;
    while o != 0 {
        let t = o.trailing_zeros() as usize;
        o &= o - 1;
        let code = nib(k, t) & 7;
        let cleared = set_nib(k, t, 0);
        // Un-drop: the piece came from the opponent's hand.
        if (GIRAFFE..=CHICK).contains(&code) {
            let idx = (code - GIRAFFE) as usize;
            out.push(flip(cleared + (1 << hand_shift(true, idx))));
        }
        // Un-move, with or without an un-capture on `t`.
        let mut froms: [(u16, u8); 2] = [(0, code | OPP), (0, 0)];
        match code {
            CHICK if t >= 9 => {} // a chick on its far row was dropped
            HEN if t >= 9 => {
                froms[0].0 = REV_OPP[HEN as usize][t] & empty;
                froms[1] = (REV_OPP[CHICK as usize][t] & empty, CHICK | OPP); // promotion
            }
            _ => froms[0].0 = REV_OPP[code as usize][t] & empty,
        }
        for (mut from_set, piece) in froms {
            while from_set != 0 {
                let s = from_set.trailing_zeros() as usize;
                from_set &= from_set - 1;
                let base = set_nib(cleared, s, piece);
                out.push(flip(base));
                for idx in 0..3 {
                    if hand(k, true, idx) == 0 {
                        continue;
                    }
                    let b = base - (1 << hand_shift(true, idx));
                    out.push(flip(set_nib(b, t, idx as u8 + GIRAFFE)));
                    if idx == 2 {
                        out.push(flip(set_nib(b, t, HEN)));
                    }
                }
            }
        }
    }
}
