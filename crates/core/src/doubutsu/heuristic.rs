//! A reading player without the table: alpha-beta on material, pieces in hand and lion
//! advancement. The hospitality benchmark's `heuristic(d)` guest, and the table levels'
//! fallback where the table cannot help.

use rand::seq::SliceRandom;
use rand::Rng;

use super::position::{Color, Ending, Move, Position, Role, Square};

const HEURISTIC_WIN: i32 = 100_000;

fn piece_value(role: Role) -> i32 {
    match role {
        Role::Chick => 100,
        Role::Elephant => 400,
        Role::Giraffe => 500,
        Role::Hen => 600,
        Role::Lion => 0,
    }
}

/// Material (pieces in hand a little above the same piece on the board, as players value
/// them) and lion advancement, for the side to move.
fn heuristic_eval(pos: &Position) -> i32 {
    let me = pos.turn();
    let mut total = 0;
    for i in 0..12 {
        let sq = Square::new(i).expect("12 squares");
        if let Some(p) = pos.piece_at(sq) {
            let sign = if p.color == me { 1 } else { -1 };
            let mut v = piece_value(p.role);
            if p.role == Role::Lion {
                // Rows advanced from its home row, toward a try.
                let advanced = if p.color == Color::Sente { 3 - sq.row() } else { sq.row() };
                v = 15 * advanced as i32;
            }
            total += sign * v;
        }
    }
    for role in Role::HAND {
        total += (pos.hand(me, role) as i32 - pos.hand(me.opposite(), role) as i32) * (piece_value(role) + 20);
    }
    total
}

fn negamax(pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
    if let Some(outcome) = pos.outcome() {
        return match outcome {
            Ending::Win { winner, .. } if winner == pos.turn() => HEURISTIC_WIN - ply,
            Ending::Win { .. } => -HEURISTIC_WIN + ply,
            Ending::Draw => 0,
        };
    }
    if depth == 0 {
        return heuristic_eval(pos);
    }
    let mut best = -HEURISTIC_WIN - 1;
    for m in pos.legal_moves() {
        let v = -negamax(&pos.play(m).expect("legal move"), depth - 1, -beta, -alpha, ply + 1);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// A reading player without the table: the best move by alpha-beta to `depth` plies on
/// material, pieces in hand and lion advancement; ties at random. The hospitality benchmark's
/// `heuristic(d)` guest, and the table levels' fallback where the table cannot help.
pub fn heuristic<R: Rng + ?Sized>(pos: &Position, depth: u32, rng: &mut R) -> Move {
    let mut moves = pos.legal_moves();
    moves.shuffle(rng);
    let mut best = (-HEURISTIC_WIN - 2, moves[0]);
    let mut ties = Vec::new();
    for m in moves {
        // A full window per root move keeps ties exact so that chance can break them.
        let v = -negamax(&pos.play(m).expect("legal move"), depth - 1, -HEURISTIC_WIN - 1, HEURISTIC_WIN + 1, 1);
        if v > best.0 {
            best = (v, m);
            ties.clear();
            ties.push(m);
        } else if v == best.0 {
            ties.push(m);
        }
    }
    *ties.choose(rng).unwrap_or(&best.1)
}
