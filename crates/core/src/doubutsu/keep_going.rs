//! How likely is a careless guest's game to keep going? A read ahead against a model of the
//! child, for `settai`'s deviation 5 (see [`super::players::settai`] and
//! docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going).
//!
//! The model is the hospitality benchmark's "child" (the exact bound of
//! [`super::table::survival()`] uses the same one): the guest takes a win in one whenever the
//! board offers one and otherwise taps any legal move, uniformly; settai plays on with its
//! best continuation. [`keep_going_chances`] gives, for each of settai's candidate moves, the
//! chance that none of the next `plies` plies (the move itself first) ends the game. A line
//! also counts as ended where the guest has only moves that lose at once: the guest would then
//! blunder whatever it taps, and settai could only take its lion or leave it a win.
//!
//! Rules only, no table: the read works on the packed core ([`super::position`]) with a memo
//! of positions already valued (by their mirror-canonical key: the chance is the same for a
//! position and its mirror image), deepening one ply at a time under a node budget so that a
//! reply never costs more than a fixed amount of work; the deepest horizon finished within the
//! budget is the one used. The repetition draw is not modelled (it needs the game's history
//! and is rare this early).

use rustc_hash::FxHashMap;

use super::position::{canon, child, gen_moves, mover_can_win_at_once, status, Move, MoveBuf, Position, Status};

/// The horizon settai reads at most (plies, its own move first).
pub(crate) const KEEP_GOING_HORIZON: u32 = 8;

/// The most positions one read may value: the budget of one reply, under a second on one
/// core of the standard machine (`settai-lab bench table`: p50 0.2 ms, p99 0.43 s, max 0.89 s
/// on-CPU; BENCHMARKS.md#doubutsu-table).
pub(crate) const KEEP_GOING_NODES: u64 = 1_500_000;

/// Each candidate's chance of keeping the game going, and the horizon it was read at.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Chances {
    /// The deepest horizon read in full within the budget (one ply needs no budget, so this
    /// is 0 only when no ply was asked for: every chance is then 1).
    pub horizon: u32,
    /// One chance per candidate, in the candidates' order.
    pub per_move: Vec<f64>,
}

/// The chance, for each of `moves` (legal in `pos`, whose mover is settai), that the game
/// goes on for `plies` more plies against the child model (see the module docs), read to the
/// deepest horizon up to `plies` that fits within `node_budget` positions.
pub(crate) fn keep_going_chances(pos: &Position, moves: &[Move], plies: u32, node_budget: u64) -> Chances {
    let mut read = Read { memo: FxHashMap::default(), nodes: 0, budget: node_budget };
    let mut best = Chances { horizon: 0, per_move: vec![1.0; moves.len()] };
    for horizon in 1..=plies {
        let per_move: Option<Vec<f64>> = moves
            .iter()
            .map(|&m| {
                let after = pos.play(m).expect("a candidate is legal");
                read.after_settai(after.key(), horizon - 1)
            })
            .collect();
        match per_move {
            Some(per_move) => best = Chances { horizon, per_move },
            None => break,
        }
    }
    best
}

/// One read: the memo, shared by every horizon (a position's chance over `r` plies does not
/// depend on the horizon it was met at), and the work done so far.
struct Read {
    /// `(canonical key, plies left, guest to move)` → chance.
    memo: FxHashMap<(u64, u32, bool), f64>,
    nodes: u64,
    budget: u64,
}

impl Read {
    /// The chance after settai's move led to `k` (the guest to move), `r` plies still to go.
    fn after_settai(&mut self, k: u64, r: u32) -> Option<f64> {
        if status(k) != Status::Ongoing {
            return Some(0.0);
        }
        if r == 0 {
            return Some(1.0);
        }
        self.valued(k, r, true)
    }

    /// Memoised value of an ongoing position `k`, `r >= 1` plies to go; `guest` says who moves.
    fn valued(&mut self, k: u64, r: u32, guest: bool) -> Option<f64> {
        let key = (canon(k), r, guest);
        if let Some(&v) = self.memo.get(&key) {
            return Some(v);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let v = if guest { self.guest_moves(k, r)? } else { self.settai_moves(k, r)? };
        self.memo.insert(key, v);
        Some(v)
    }

    /// The children of `k` and how each stands.
    fn children(k: u64) -> Vec<(u64, Status)> {
        let mut buf = MoveBuf::new();
        gen_moves(k, &mut buf);
        buf.as_slice().iter().map(|&m| child(k, m)).map(|c| (c, status(c))).collect()
    }

    /// The guest to move in the ongoing `k`: 0 if it can win at once (it will) or every move
    /// of its loses at once (it must blunder); otherwise the mean over its moves.
    fn guest_moves(&mut self, k: u64, r: u32) -> Option<f64> {
        let kids = Self::children(k);
        // A child position whose mover (settai) has lost: the guest's move won.
        if kids.is_empty() || kids.iter().any(|&(_, st)| matches!(st, Status::MoverLost(_))) {
            return Some(0.0);
        }
        if kids.iter().all(|&(c, st)| st != Status::Ongoing || mover_can_win_at_once(c)) {
            return Some(0.0);
        }
        let mut sum = 0.0;
        for &(c, st) in &kids {
            sum += match st {
                Status::Ongoing if r == 1 => 1.0,
                Status::Ongoing => self.valued(c, r - 1, false)?,
                // The guest's move ended the game another way (it lost).
                _ => 0.0,
            };
        }
        Some(sum / kids.len() as f64)
    }

    /// Settai to move in the ongoing `k`: its best move's chance.
    fn settai_moves(&mut self, k: u64, r: u32) -> Option<f64> {
        let kids = Self::children(k);
        let mut best = 0.0f64;
        for &(c, st) in &kids {
            if st != Status::Ongoing {
                continue;
            }
            let v = if r == 1 { 1.0 } else { self.valued(c, r - 1, true)? };
            best = best.max(v);
            if best >= 1.0 {
                break;
            }
        }
        Some(best)
    }
}
