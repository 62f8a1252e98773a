//! Move-path counting, to check and benchmark the move generator.

use rayon::prelude::*;

use super::position::{child, gen_moves, status, MoveBuf, Position, Status};

/// The number of move sequences of exactly `depth` plies from `pos` in which no earlier move
/// ended the game (a lion capture, a completed try, a failure to capture a lion that made a
/// try). Positions where the game is over have no moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_key(pos.key(), depth)
}

/// [`perft`] with the root moves spread over rayon's threads.
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    let k = pos.key();
    if depth == 0 || status(k) != Status::Ongoing {
        return (depth == 0) as u64;
    }
    let mut buf = MoveBuf::new();
    gen_moves(k, &mut buf);
    buf.as_slice().par_iter().map(|&m| perft_key(child(k, m), depth - 1)).sum()
}

/// `perft` of every legal move ("divide"), for locating generator bugs.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(super::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().into_iter().map(|m| (m, perft(&pos.play(m).expect("legal"), depth - 1))).collect()
}

fn perft_key(k: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if status(k) != Status::Ongoing {
        return 0;
    }
    let mut buf = MoveBuf::new();
    gen_moves(k, &mut buf);
    if depth == 1 {
        return buf.as_slice().len() as u64;
    }
    buf.as_slice().iter().map(|&m| perft_key(child(k, m), depth - 1)).sum()
}
