//! An independent brute-force implementation of the rules (plain arrays, absolute
//! coordinates, movement written out again) and a forward solver, used only to check the
//! engine and the table.

use std::collections::HashMap;

/// Owner 0 = sente, 1 = gote. Pieces are letters L G E C H.
pub type Cell = Option<(usize, char)>;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct NPos {
    pub board: [[Cell; 3]; 4],
    /// hands[player][kind]: kinds giraffe, elephant, chick.
    pub hands: [[u8; 3]; 2],
    pub to_move: usize,
}

/// Steps for sente as (drow, dcol), sente moving towards row 0.
fn steps(piece: char) -> Vec<(i32, i32)> {
    match piece {
        'L' => vec![(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)],
        'G' => vec![(-1, 0), (1, 0), (0, -1), (0, 1)],
        'E' => vec![(-1, -1), (-1, 1), (1, -1), (1, 1)],
        'C' => vec![(-1, 0)],
        'H' => vec![(-1, 0), (-1, -1), (-1, 1), (0, -1), (0, 1), (1, 0)],
        _ => unreachable!(),
    }
}

fn targets(player: usize, piece: char, r: usize, c: usize) -> Vec<(usize, usize)> {
    let sign = if player == 0 { 1 } else { -1 };
    steps(piece)
        .into_iter()
        .filter_map(|(dr, dc)| {
            let (nr, nc) = (r as i32 + sign * dr, c as i32 + sign * dc);
            (0..4).contains(&nr).then_some(())?;
            (0..3).contains(&nc).then_some(())?;
            Some((nr as usize, nc as usize))
        })
        .collect()
}

const KINDS: [char; 3] = ['G', 'E', 'C'];

fn far_row(player: usize) -> usize {
    if player == 0 {
        0
    } else {
        3
    }
}

fn home_row(player: usize) -> usize {
    3 - far_row(player)
}

impl NPos {
    pub fn start() -> NPos {
        let mut board = [[None; 3]; 4];
        board[0] = [Some((1, 'G')), Some((1, 'L')), Some((1, 'E'))];
        board[1][1] = Some((1, 'C'));
        board[2][1] = Some((0, 'C'));
        board[3] = [Some((0, 'E')), Some((0, 'L')), Some((0, 'G'))];
        NPos { board, hands: [[0; 3]; 2], to_move: 0 }
    }

    fn lion(&self, player: usize) -> Option<(usize, usize)> {
        (0..4).flat_map(|r| (0..3).map(move |c| (r, c))).find(|&(r, c)| self.board[r][c] == Some((player, 'L')))
    }

    /// Where the side to move's lion stands if the other player attacks it.
    pub fn lion_in_check(&self) -> Option<(usize, usize)> {
        self.lion(self.to_move).filter(|&sq| self.attacks(1 - self.to_move, sq))
    }

    fn attacks(&self, player: usize, sq: (usize, usize)) -> bool {
        for r in 0..4 {
            for c in 0..3 {
                if let Some((o, p)) = self.board[r][c] {
                    if o == player && targets(o, p, r, c).contains(&sq) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Some(true) if the side to move has won already, Some(false) if it has lost.
    pub fn terminal(&self) -> Option<bool> {
        let me = self.to_move;
        let them = 1 - me;
        let Some(my_lion) = self.lion(me) else { return Some(false) };
        if my_lion.0 == far_row(me) {
            return Some(true);
        }
        if let Some(their) = self.lion(them) {
            if their.0 == home_row(me) && !self.attacks(me, their) {
                return Some(false);
            }
        }
        if self.moves_unchecked().is_empty() {
            return Some(false);
        }
        None
    }

    /// (notation, child) pairs ignoring terminality.
    fn moves_unchecked(&self) -> Vec<(String, NPos)> {
        let me = self.to_move;
        let name = |r: usize, c: usize| format!("{}{}", (b'A' + c as u8) as char, r + 1);
        let mut out = Vec::new();
        for r in 0..4 {
            for c in 0..3 {
                let Some((o, p)) = self.board[r][c] else { continue };
                if o != me {
                    continue;
                }
                for (nr, nc) in targets(me, p, r, c) {
                    if matches!(self.board[nr][nc], Some((o2, _)) if o2 == me) {
                        continue;
                    }
                    let mut n = self.clone();
                    if let Some((_, cap)) = n.board[nr][nc] {
                        let kind = match cap {
                            'G' => Some(0),
                            'E' => Some(1),
                            'C' | 'H' => Some(2),
                            _ => None,
                        };
                        if let Some(k) = kind {
                            n.hands[me][k] += 1;
                        }
                    }
                    n.board[r][c] = None;
                    let promoted = if p == 'C' && nr == far_row(me) { 'H' } else { p };
                    n.board[nr][nc] = Some((me, promoted));
                    n.to_move = 1 - me;
                    out.push((format!("{}{}", name(r, c), name(nr, nc)), n));
                }
            }
        }
        for (k, &kind) in KINDS.iter().enumerate() {
            if self.hands[me][k] == 0 {
                continue;
            }
            for r in 0..4 {
                for c in 0..3 {
                    if self.board[r][c].is_none() {
                        let mut n = self.clone();
                        n.hands[me][k] -= 1;
                        n.board[r][c] = Some((me, kind));
                        n.to_move = 1 - me;
                        out.push((format!("{kind}*{}", name(r, c)), n));
                    }
                }
            }
        }
        out
    }

    pub fn moves(&self) -> Vec<(String, NPos)> {
        if self.terminal().is_some() {
            return Vec::new();
        }
        self.moves_unchecked()
    }

    pub fn lion_missing(&self) -> bool {
        self.lion(self.to_move).is_none()
    }

    /// The same position seen with the side to move as sente (rotated, colours swapped).
    pub fn normalized(&self) -> NPos {
        if self.to_move == 0 {
            return self.clone();
        }
        let mut board = [[None; 3]; 4];
        for r in 0..4 {
            for c in 0..3 {
                board[3 - r][2 - c] = self.board[r][c].map(|(o, p)| (1 - o, p));
            }
        }
        NPos { board, hands: [self.hands[1], self.hands[0]], to_move: 0 }
    }

    /// The text format, written independently (see notation.rs docs).
    pub fn text(&self) -> String {
        let mut rows = Vec::new();
        for r in 0..4 {
            let mut s = String::new();
            let mut run = 0;
            for c in 0..3 {
                match self.board[r][c] {
                    None => run += 1,
                    Some((o, p)) => {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        s.push(if o == 0 { p } else { p.to_ascii_lowercase() });
                    }
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            rows.push(s);
        }
        let mut hands = String::new();
        for o in 0..2 {
            for (k, &kind) in KINDS.iter().enumerate() {
                let n = self.hands[o][k];
                if n == 2 {
                    hands.push('2');
                }
                if n > 0 {
                    hands.push(if o == 0 { kind } else { kind.to_ascii_lowercase() });
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        format!("{} {} {}", rows.join("/"), if self.to_move == 0 { 'b' } else { 'w' }, hands)
    }
}

pub fn perft(p: &NPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    p.moves().iter().map(|(_, c)| perft(c, depth - 1)).sum()
}

/// Value for the side to move: Some((true, d)) win in d, Some((false, d)) loss in d, None draw.
pub type NValue = Option<(bool, u16)>;

pub struct Solved {
    pub values: HashMap<NPos, NValue>,
}

/// Everything reachable from `roots` (positions after a lion capture excluded; positions where
/// the lion can be captured are leaves), solved by
/// depth-bounded minimax iterated to a fixpoint (round d settles exactly the positions whose
/// value is decided within d plies).
pub fn solve(roots: &[NPos]) -> Solved {
    let mut index: HashMap<NPos, usize> = HashMap::new();
    let mut all: Vec<NPos> = Vec::new();
    let mut stack: Vec<NPos> = Vec::new();
    for r in roots {
        if !r.lion_missing() && !index.contains_key(r) {
            index.insert(r.clone(), all.len());
            all.push(r.clone());
            stack.push(r.clone());
        }
    }
    while let Some(p) = stack.pop() {
        let moves = p.moves();
        // A position where the lion can be captured is a leaf (a win in 1).
        if moves.iter().any(|(_, c)| c.lion_missing()) {
            continue;
        }
        for (_, c) in moves {
            if c.lion_missing() || index.contains_key(&c) {
                continue;
            }
            index.insert(c.clone(), all.len());
            all.push(c.clone());
            stack.push(c);
        }
    }
    // children[i]: None for a lion capture.
    let children: Vec<Vec<Option<usize>>> = all
        .iter()
        .map(|p| {
            let moves = p.moves();
            if moves.iter().any(|(_, c)| c.lion_missing()) {
                return vec![None];
            }
            moves.into_iter().map(|(_, c)| Some(index[&c])).collect()
        })
        .collect();
    let mut value: Vec<NValue> = all.iter().map(|p| p.terminal().map(|won| (won, 0))).collect();
    let mut d = 1u16;
    loop {
        let snapshot = value.clone();
        let mut changed = false;
        for i in 0..all.len() {
            if snapshot[i].is_some() {
                continue;
            }
            let kids = &children[i];
            let wins_now = kids.iter().any(|k| match k {
                None => d == 1,
                Some(j) => snapshot[*j] == Some((false, d - 1)),
            });
            let all_lose = kids.iter().all(|k| matches!(k, Some(j) if matches!(snapshot[*j], Some((true, _)))));
            if wins_now {
                value[i] = Some((true, d));
                changed = true;
            } else if all_lose && !kids.is_empty() {
                value[i] = Some((false, d));
                changed = true;
            }
        }
        if !changed && d > 1 {
            break;
        }
        d += 1;
    }
    Solved { values: all.into_iter().zip(value).collect() }
}
