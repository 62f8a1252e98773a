//! Test-only brute-force reference: an 8x8 array board that walks each direction square by
//! square. It shares no code with the bitboard core so the two can check each other.

use crate::reversi::rules::board::{Color, Move, Position};

const DIRS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Cell contents: 0 empty, 1 black, 2 white.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NaiveBoard {
    cells: [[u8; 8]; 8], // [row][col]
    to_move: u8,
}

impl NaiveBoard {
    pub fn from_position(pos: &Position) -> Self {
        let mut cells = [[0u8; 8]; 8];
        let text = pos.to_text();
        // Reads the text form rather than bitboards, so index conventions are checked too.
        for (i, ch) in text.chars().take(64).enumerate() {
            cells[i / 8][i % 8] = match ch {
                'X' => 1,
                'O' => 2,
                _ => 0,
            };
        }
        let to_move = if pos.turn() == Color::Black { 1 } else { 2 };
        NaiveBoard { cells, to_move }
    }

    fn flip_list(&self, who: u8, col: i32, row: i32) -> Vec<(i32, i32)> {
        let mut all = Vec::new();
        if self.cells[row as usize][col as usize] != 0 {
            return all;
        }
        let them = 3 - who;
        for (dc, dr) in DIRS {
            let mut run = Vec::new();
            let (mut c, mut r) = (col + dc, row + dr);
            while (0..8).contains(&c) && (0..8).contains(&r) && self.cells[r as usize][c as usize] == them {
                run.push((c, r));
                c += dc;
                r += dr;
            }
            if !run.is_empty()
                && (0..8).contains(&c)
                && (0..8).contains(&r)
                && self.cells[r as usize][c as usize] == who
            {
                all.extend(run);
            }
        }
        all
    }

    /// Whether `who` may play at (col, row): some direction has an opponent run then `who`.
    fn can_play(&self, who: u8, col: i32, row: i32) -> bool {
        if self.cells[row as usize][col as usize] != 0 {
            return false;
        }
        DIRS.iter().any(|&(dc, dr)| {
            let (mut c, mut r, mut run) = (col + dc, row + dr, 0);
            while (0..8).contains(&c) && (0..8).contains(&r) && self.cells[r as usize][c as usize] == 3 - who {
                c += dc;
                r += dr;
                run += 1;
            }
            run > 0 && (0..8).contains(&c) && (0..8).contains(&r) && self.cells[r as usize][c as usize] == who
        })
    }

    fn mask_for(&self, who: u8) -> u64 {
        let mut m = 0;
        for row in 0..8 {
            for col in 0..8 {
                if self.can_play(who, col, row) {
                    m |= 1u64 << (row * 8 + col);
                }
            }
        }
        m
    }

    pub fn legal_mask(&self) -> u64 {
        self.mask_for(self.to_move)
    }

    pub fn flips(&self, index: usize) -> u64 {
        self.flip_list(self.to_move, (index % 8) as i32, (index / 8) as i32)
            .iter()
            .fold(0, |m, &(c, r)| m | 1u64 << (r * 8 + c))
    }

    pub fn is_game_over(&self) -> bool {
        self.mask_for(1) == 0 && self.mask_for(2) == 0
    }

    /// Plays a move assumed legal.
    pub fn play(&self, m: Move) -> Self {
        let mut next = self.clone();
        if let Move::Place(sq) = m {
            let (col, row) = (sq.col() as i32, sq.row() as i32);
            for (c, r) in self.flip_list(self.to_move, col, row) {
                next.cells[r as usize][c as usize] = self.to_move;
            }
            next.cells[row as usize][col as usize] = self.to_move;
        }
        next.to_move = 3 - self.to_move;
        next
    }

    /// Reference perft with the same conventions (pass uses a ply, finished game = 1 leaf).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mask = self.legal_mask();
        if mask == 0 {
            if self.mask_for(3 - self.to_move) == 0 {
                return 1;
            }
            return self.play(Move::Pass).perft(depth - 1);
        }
        if depth == 1 {
            return u64::from(mask.count_ones());
        }
        let mut total = 0;
        for i in 0..64u8 {
            if mask >> i & 1 == 1 {
                let sq = crate::reversi::rules::board::Square::new(i).unwrap();
                total += self.play(Move::Place(sq)).perft(depth - 1);
            }
        }
        total
    }
}

pub use crate::reversi::rules::random_play::random_playout;

/// A position reached by random play with at most `empties` empty squares, game not over, and
/// at least `min_placements` placements for the side to move (0 allows a forced pass).
pub fn random_position(rng: &mut impl rand::Rng, empties: u32, min_placements: u32) -> Position {
    loop {
        let mut pos = Position::start();
        while pos.empties() > empties && !pos.is_game_over() {
            let legal = pos.legal_moves();
            pos = pos.play(legal[rng.gen_range(0..legal.len())]).unwrap();
        }
        if !pos.is_game_over() && pos.legal_mask().count_ones() >= min_placements {
            return pos;
        }
    }
}
