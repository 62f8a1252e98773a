//! Properties of the players from the seed, on a sub-game table built once: the fixture and the
//! references below (the rules as the players' docs state them), the tests by concern in the
//! files beside it.

mod classic;
mod keep_going;
mod loss_in_one;
mod repetition;
mod seed_rules;
mod seeds_choice;
mod way_out;
mod withdrawn;

use std::sync::OnceLock;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::super::keep_going::keep_going_chances;
use super::super::players::{self, loses_at_once, preference, score, KeepGoing};
use super::super::table::{build, BuildOptions, Material};
use super::super::tactics::{self, guest_lost_at_once};
use super::super::{analyze, evaluate_moves, settai, strongest, weakest, BuiltTable, History, Position, Table, Value};
use super::pos;

const ROOT: &str = "1l1/1c1/1C1/1L1 b Gg";

fn table() -> &'static BuiltTable {
    static T: OnceLock<BuiltTable> = OnceLock::new();
    T.get_or_init(|| build(Material::of(&pos(ROOT)), &BuildOptions::default()).unwrap())
}

/// A game from the root following `choices` (each picks a legal move by index). It stops
/// where the lion could be captured (what follows a missed capture has its own test below).
fn history(choices: &[u32]) -> History {
    history_from(ROOT, choices)
}

/// [`history`] from another root of the same pieces.
fn history_from(root: &str, choices: &[u32]) -> History {
    let mut g = History::from_position(pos(root));
    for &c in choices {
        let moves = g.legal_moves();
        if moves.is_empty() || moves.iter().any(|&m| g.position().captures_lion(m)) {
            break;
        }
        // Mostly moves that do not hang the lion, so that histories go on.
        let p = *g.position();
        let safe: Vec<_> = moves.iter().copied().filter(|&m| !p.loses_at_once(m)).collect();
        let moves = if safe.is_empty() || c % 8 == 0 { moves } else { safe };
        let m = moves[c as usize % moves.len()];
        let mut next = g.clone();
        next.play(m).unwrap();
        if next.outcome().is_some() {
            break;
        }
        g = next;
    }
    g
}

fn divergence(s: i32, best: i32) -> f64 {
    (s + 300) as f64 / (best + 300) as f64
}

/// The moves settai chooses among, as its doc states it (before the repetition rules): the
/// ones that do not lose at once unless none does; after the guest's own loss-in-one every
/// move except try attempts that lose at once (unless nothing else is left); and once the guest
/// has been careless, of those only the ones that leave it a move that does not lose at once,
/// if any do, and of those only the ones after which no best reply of the guest's lets settai's
/// answer corner it, if any (deviation 6, docs/design/doubutsu-settai.md#deviation-6-leaving-a-careless-guest-a-way-out).
fn candidates(
    t: &BuiltTable,
    g: &History,
    valued: &[(super::super::Move, Value)],
    guest_blundered: bool,
    guest_careless: bool,
) -> Vec<(super::super::Move, i32)> {
    let p = g.position();
    let pool = excluding_losses_in_one(p, valued, guest_blundered);
    if !guest_careless {
        return pool;
    }
    let open: Vec<_> = pool.iter().copied().filter(|c| !corners(p, c.0)).collect();
    let pool = if open.is_empty() { pool } else { open };
    let open: Vec<_> = pool.iter().copied().filter(|c| !cornered_ahead(t, g, c.0)).collect();
    if open.is_empty() {
        pool
    } else {
        open
    }
}

/// Whether, after settai's `mv` in `g`, a line of the guest's replies with the best score, each
/// answered by settai (the seed's choice, which `seeds_choice` checks on its own; here taken
/// from `players::settai_choices`, every tied move counted), lets settai's answer corner the
/// guest within `players::WAY_OUT_ROUNDS` replies (deviation 6, looking ahead).
fn cornered_ahead(t: &BuiltTable, g: &History, mv: super::super::Move) -> bool {
    let mut after = g.clone();
    after.play(mv).unwrap();
    cornered_within(t, &after, players::WAY_OUT_ROUNDS)
}

fn cornered_within(t: &BuiltTable, g: &History, rounds: u32) -> bool {
    if rounds == 0 || g.outcome().is_some() {
        return false;
    }
    let Ok(replies) = evaluate_moves(t, g.position()) else { return false };
    let best = replies.iter().map(|r| score(r.1)).max().unwrap();
    replies.iter().filter(|r| score(r.1) == best).any(|r| {
        let mut reply = g.clone();
        reply.play(r.0).unwrap();
        if reply.outcome().is_some() {
            return false;
        }
        let Ok(answers) = players::settai_choices(t, &reply, KeepGoing::OFF) else { return false };
        answers.into_iter().any(|a| {
            let mut answered = reply.clone();
            answered.play(a).unwrap();
            corners(reply.position(), a) || cornered_within(t, &answered, rounds - 1)
        })
    })
}

/// The seed's exclusion of moves that lose at once, as deviation 2 lifts it
/// (docs/design/doubutsu-settai.md#deviation-2-answering-a-loss-in-one-in-kind).
fn excluding_losses_in_one(
    p: &Position,
    valued: &[(super::super::Move, Value)],
    guest_blundered: bool,
) -> Vec<(super::super::Move, i32)> {
    let all: Vec<_> = valued.iter().map(|e| (e.0, score(e.1))).collect();
    let safe: Vec<_> = valued.iter().filter(|e| !loses_at_once(e.1)).map(|e| (e.0, score(e.1))).collect();
    if safe.is_empty() {
        return all;
    }
    if !guest_blundered {
        return safe;
    }
    let in_kind: Vec<_> = valued
        .iter()
        .filter(|e| !(loses_at_once(e.1) && tactics::try_attempt(p, e.0)))
        .map(|e| (e.0, score(e.1)))
        .collect();
    if in_kind.is_empty() {
        all
    } else {
        in_kind
    }
}

/// Whether every move of the side to move after `mv` loses at once (the game going on): `mv`
/// corners it (deviation 6).
fn corners(p: &Position, mv: super::super::Move) -> bool {
    let after = p.play(mv).unwrap();
    after.outcome().is_none() && after.legal_moves().into_iter().all(|g| after.loses_at_once(g))
}

/// The score settai aims at, as its doc states it (before the repetition rules): the best
/// candidate within the guest's divergence (the lowest candidate when none is), except that
/// after the guest's loss-in-one an aim that loses at once gives way to the slow gift, the best
/// candidate that leaves the guest winning without losing at once, if any (deviation 4,
/// docs/design/doubutsu-settai.md#deviation-4-giving-the-win-slowly).
fn aimed_score(
    candidates: &[(super::super::Move, i32)],
    best: i32,
    guest_divergence: f64,
    guest_blundered: bool,
) -> i32 {
    let qualifying: Vec<i32> =
        candidates.iter().map(|c| c.1).filter(|&c| divergence(c, best) <= guest_divergence + 1e-12).collect();
    let seed = qualifying.iter().max().or(candidates.iter().map(|c| c.1).min().as_ref()).copied().unwrap();
    let slow = candidates.iter().map(|c| c.1).filter(|&c| c < 0 && c > score(Value::Loss(2))).max();
    match slow {
        Some(slow) if guest_blundered && seed <= score(Value::Loss(2)) => slow,
        _ => seed,
    }
}

/// The score settai aims at in `g` before the repetition rules ([`aimed_score`] over
/// [`candidates`]), deviation 6 only after a guest move that was not its best
/// (docs/design/doubutsu-settai.md#who-meets-the-seeds-rule).
fn rule_target(t: &BuiltTable, g: &History) -> i32 {
    let p = *g.position();
    let valued = evaluate_moves(t, &p).unwrap();
    let best = valued.iter().map(|e| score(e.1)).max().unwrap();
    let (before, guest_move) = g.last_move().unwrap();
    let guest = analyze(t, &before, guest_move).unwrap().divergence;
    let blundered = guest_lost_at_once(&before, guest_move);
    let careless = tactics::guest_was_careless(g) && guest < 1.0;
    aimed_score(&candidates(t, g, &valued, blundered, careless), best, guest, blundered)
}

/// Settai as it plays from ply [`players::KEEP_GOING_PLIES`] on: deviations 1-4 without deviation 5
/// (docs/design/doubutsu-settai.md), whose early-game rule has its own tests below. The sub-game's
/// histories are short, so `settai` itself would apply deviation 5 after any careless guest move.
fn late_settai(t: &BuiltTable, g: &History, rng: &mut StdRng) -> Result<super::super::Move, players::PlayerError> {
    players::settai_keeping_going(t, g, rng, KeepGoing::OFF)
}

/// Deviation 5 (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going) as
/// the bot has it, with a shorter read (the properties below check the rule, not the horizon; the
/// read itself is checked against a plain expectimax).
const TEST_KEEP_GOING: KeepGoing = KeepGoing { horizon: 4, node_budget: 200_000, ..KeepGoing::BOT };

fn early_settai(t: &BuiltTable, g: &History, rng: &mut StdRng) -> Result<super::super::Move, players::PlayerError> {
    players::settai_keeping_going(t, g, rng, TEST_KEEP_GOING)
}

/// Each move's chance of keeping the game going, in millionths, as deviation 5 reads it
/// (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going).
fn chances(g: &History, moves: &[super::super::Move]) -> Vec<i64> {
    let plies = TEST_KEEP_GOING.plies_after(g.moves().len());
    keep_going_chances(g.position(), moves, plies, TEST_KEEP_GOING.node_budget)
        .per_move
        .iter()
        .map(|c| (c * 1e6).round() as i64)
        .collect()
}

fn move_score(t: &BuiltTable, p: &Position, m: super::super::Move) -> i32 {
    score(t.probe(&p.play(m).unwrap()).unwrap().parent())
}

/// A guest's loss-in-one for settai to answer.
struct GuestBlunder {
    /// The game after the blunder.
    game: History,
    /// The guest's move, analysed in the position before it.
    guest: players::Analysis,
    /// Every reply the table values, with its value for the replying side.
    valued: Vec<(super::super::Move, Value)>,
}

/// The game of `choices` followed by one of the guest's moves that lose at once although
/// another does not (`pick` chooses which), if there is one; not after a missed lion capture
/// (the table does not value every move there) and not where a reply would repeat a position.
fn guest_blunder(choices: &[u32], pick: usize) -> Option<GuestBlunder> {
    let t = table();
    let mut game = history(choices);
    if game.outcome().is_some() {
        return None;
    }
    let before = *game.position();
    if before.legal_moves().iter().any(|&m| before.captures_lion(m)) {
        return None;
    }
    let blunders: Vec<_> = before.legal_moves().into_iter().filter(|&m| guest_lost_at_once(&before, m)).collect();
    let &m = blunders.get(pick % blunders.len().max(1))?;
    game.play(m).unwrap();
    if game.outcome().is_some() || game.legal_moves().iter().any(|&r| tactics::seen_before(&game, r) > 0) {
        return None;
    }
    let guest = analyze(t, &before, m).unwrap();
    let p = *game.position();
    let valued = p
        .legal_moves()
        .into_iter()
        .filter_map(|r| players::value_of(t, &p.play(r).unwrap()).ok().map(|v| (r, v.parent())))
        .collect();
    Some(GuestBlunder { game, guest, valued })
}
