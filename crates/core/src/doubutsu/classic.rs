//! `settai-classic` (接待（原典）): the best-move divergence rule exactly as its design note
//! publishes it, for a parent or a teacher who wants the published rule itself
//! (docs/design/doubutsu-settai.md#settai-classic-the-rule-as-published).
//!
//! The seed's values unclamped (`100 − n` for a win in `n`, `−100 + n` for a loss, 0 for a
//! draw), the +300 offset, "at most" (以下), moves that lose at once left out, and nothing
//! remembered but the guest's last move. The one point added is the repetition draw's, which
//! the published app did not have: among the moves the rule ties on, one that does not end the
//! game by a third occurrence of a position. Ties left after that go to the most natural move,
//! then to chance (the note is silent on ties).

use rand::seq::SliceRandom;
use rand::Rng;

use super::game::{History, REPETITION_DRAW};
use super::players::{divergence_allowed, evaluate_moves, loses_at_once, PlayerError};
use super::position::{Move, Position};
use super::table::{ProbeError, Table, Value};
use super::tactics::{naturalness, seen_before};

/// The seed's score of a move whose value for its mover is `v`, unclamped: a win or a loss
/// past 100 plies crosses zero, as published (settai's own [`super::players::score`] clamps).
pub(crate) fn classic_score(v: Value) -> i32 {
    match v {
        Value::Win(n) => 100 - n as i32,
        Value::Loss(n) => -100 + n as i32,
        Value::Draw => 0,
    }
}

/// The divergence of the guest's last move by the seed's score, as the fraction `(num, den)`:
/// 1 without a previous move; a move the table cannot value (a test's small table) counts as
/// the worst possible, 0.5, as in settai.
pub(crate) fn classic_guest_divergence<T: Table>(table: &T, game: &History) -> Result<(i32, i32), PlayerError> {
    let Some((before, mv)) = game.last_move() else { return Ok((1, 1)) };
    let evals = match evaluate_moves(table, &before) {
        Ok(evals) => evals,
        Err(_) => return Ok((1, 2)),
    };
    let Some(played) = evals.iter().find(|e| e.0 == mv) else { return Err(PlayerError::GameOver) };
    let best = evals.iter().map(|e| classic_score(e.1)).max().expect("the played move is among them");
    Ok((classic_score(played.1) + 300, best + 300))
}

/// The moves the published rule ties on in `game` (the side to move is the bot), with their
/// seed scores: the highest-scored moves whose divergence is at most the guest's, or the
/// lowest-scored when none is, among the moves that do not lose at once (all of them when every
/// one does). Moves the table cannot value are left out.
pub(crate) fn classic_choices<T: Table>(table: &T, game: &History) -> Result<Vec<(Move, i32)>, PlayerError> {
    if game.outcome().is_some() {
        return Err(PlayerError::GameOver);
    }
    let guest = classic_guest_divergence(table, game)?;
    let evals = valued_moves(table, game.position())?;
    let best = evals.iter().map(|e| classic_score(e.1)).max().ok_or(PlayerError::GameOver)?;
    let scored = |keep: &dyn Fn(Value) -> bool| -> Vec<(Move, i32)> {
        evals.iter().filter(|e| keep(e.1)).map(|e| (e.0, classic_score(e.1))).collect()
    };
    let safe = scored(&|v| !loses_at_once(v));
    let candidates = if safe.is_empty() { scored(&|_| true) } else { safe };
    let allowed = divergence_allowed(&candidates, best, guest);
    let target = allowed.iter().map(|c| c.1).max().expect("a live position has moves");
    Ok(allowed.into_iter().filter(|c| c.1 == target).collect())
}

/// 接待（原典）: the published rule's move (see the module docs). A [`PlayerError::Probe`]
/// only when the table can value no move at all (a test's small table).
pub fn settai_classic<T: Table, R: Rng + ?Sized>(table: &T, game: &History, rng: &mut R) -> Result<Move, PlayerError> {
    let tied = classic_choices(table, game)?;
    // What the repetition draw forces: the published app let a repeating game go on, so among
    // the rule's equal choices, one that does not end the game here.
    let ends = |m: Move| seen_before(game, m) + 1 >= REPETITION_DRAW as usize;
    let going: Vec<Move> = tied.iter().map(|c| c.0).filter(|&m| !ends(m)).collect();
    let tied: Vec<Move> = if going.is_empty() { tied.iter().map(|c| c.0).collect() } else { going };
    let pos = game.position();
    let top = tied.iter().map(|&m| naturalness(pos, m)).max().expect("non-empty");
    let natural: Vec<Move> = tied.into_iter().filter(|&m| naturalness(pos, m) == top).collect();
    Ok(*natural.choose(rng).expect("non-empty"))
}

/// Every legal move the table can value, with its value for the mover; an error only when it
/// can value none.
fn valued_moves<T: Table>(table: &T, pos: &Position) -> Result<Vec<(Move, Value)>, PlayerError> {
    let mut evals = Vec::new();
    let mut first_err: Option<ProbeError> = None;
    for m in pos.legal_moves() {
        let Ok(after) = pos.play(m) else { continue };
        match table.probe(&after) {
            Ok(v) => evals.push((m, v.parent())),
            Err(e) => first_err = first_err.or(Some(e)),
        }
    }
    if evals.is_empty() {
        return Err(first_err.map_or(PlayerError::GameOver, PlayerError::Probe));
    }
    Ok(evals)
}
