//! How long can any opponent keep a careless player's game going? An exact bound over every
//! position of the index.
//!
//! The careless player (the hospitality benchmark's "child") takes a win in one whenever the
//! board offers one and otherwise taps any legal move, uniformly. Helped by the kind coach
//! (docs/design/kind-coach.md) it *heeds* with probability `q`: a tapped move that loses at
//! once, where another does not, is put back for one of the others, uniformly; and where
//! take-backs are on, after such a move that the opponent did not punish (nor answer with a
//! win at once for it), the offered take-back is taken with probability `q` (see
//! [`CarelessPlayer`]). Its opponent may play
//! anything. [`survival`] computes, for every game length `L`, the best chance over every
//! policy of the opponent that the game lasts at least `L` plies: no ply before the `L`-th ends
//! it. A win of the opponent ends the game too, so the best policy never takes one early. A
//! game's length is that of its record at the end: a move taken back is not counted.
//!
//! # Method
//! Backward induction on the plies left, over all the index's slots at once: `f(p, 0) = 1`;
//! with the careless player to move, `f(p, r)` is 0 if it can win at once and otherwise the
//! mean over its moves, weighted as it picks them, of `f(child, r - 1)` (0 for a move that ends
//! the game); with the opponent to move, the best of those. A take-back returns to the same
//! position with the same plies left, so with take-backs `f(p, r)` appears on both sides of its
//! own equation, linearly: `f = a + t·f`, solved as `a / (1 − t)` (`t ≤ q(1 − q) ≤ 1/4`).
//! One pass per ply, each over every slot in parallel, with three arrays alive (the pass and
//! the two before it), one value per player modelled, so that one run bounds several players
//! for the price of the rules' work once. A position without a slot that is not over lets its
//! mover capture the other lion (see the index's domain): the careless player then wins at
//! once (0), and the opponent, who must not, is valued on the fly from its children, two plies
//! back.
//!
//! The repetition draw is not modelled: it would only end games sooner, so the figures stay
//! upper bounds for the real games.
//!
//! (Past 500 lines: half of it is the tests' expectimax reference, which
//! [`super::survival_values()`] checks its kept passes against too.)

use rayon::prelude::*;

use super::super::position::{child, gen_moves, mover_can_win_at_once, status, MoveBuf, Status};
use super::horizon::Horizon;
use super::index::{Index, Material};
use super::progress::{bar, log, BuildOptions};
use super::ProbeError;
use crate::doubutsu::Position;

/// The careless player a bound is computed for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CarelessPlayer {
    /// The chance (0..=1) that a tapped move that loses at once, where another does not, is
    /// put back for one of the others; 0 is the benchmark's child.
    pub heed: f32,
    /// Whether take-backs are on: after a move that lost at once (another did not) and the
    /// opponent's answer that did not end the game nor leave a win at once, the take-back the
    /// coach offers is taken with probability [`CarelessPlayer::heed`].
    pub takebacks: bool,
}

impl CarelessPlayer {
    /// The benchmark's child: never heeds, never takes back.
    pub const CHILD: CarelessPlayer = CarelessPlayer { heed: 0.0, takebacks: false };

    /// Whether a take-back can ever happen for this player (it needs both).
    fn takes_back(&self) -> bool {
        self.takebacks && self.heed > 0.0
    }
}

/// The best chance that a careless player's game lasts each length.
#[derive(Debug, Clone, PartialEq)]
pub struct Survival {
    /// The player bounded.
    pub player: CarelessPlayer,
    /// `(length in plies, best chance over every policy of the opponent)`, shortest first:
    /// the even lengths from 2 when the careless player moves first at the root (so that
    /// each pass serves one length), up to the length asked for.
    pub chances: Vec<(u32, f64)>,
}

/// How many players one run bounds at most: each adds three arrays of four bytes a slot.
pub const PLAYERS_PER_RUN: usize = 4;

/// One of the careless player's moves, as the pass weighs it.
#[derive(Clone, Copy, Default)]
struct Kid {
    key: u64,
    /// The game goes on after it.
    going: bool,
    /// It loses at once (the coach marks it).
    risky: bool,
    /// The coach would offer to take it back once the opponent has answered it without ending
    /// the game (it was risky, the game goes on, another move was safe).
    offered: bool,
}

/// The chances at one position, `plies_left` plies to go, for each player, from the two
/// previous passes (`prev`: one ply fewer left, `prev2`: two fewer); `careless` says who is
/// to move.
#[allow(clippy::too_many_arguments, reason = "the passes' innermost call, once per slot: its inputs stay plain")]
fn chance<const M: usize>(
    index: &Index,
    k: u64,
    plies_left: u32,
    careless: bool,
    players: &[CarelessPlayer; M],
    prev: &[[f32; M]],
    prev2: &[[f32; M]],
    buf: &mut MoveBuf,
) -> [f32; M] {
    if plies_left == 0 {
        return [1.0; M];
    }
    gen_moves(k, buf);
    let n = buf.as_slice().len();
    if n == 0 {
        return [0.0; M];
    }
    let heeds = careless && players.iter().any(|p| p.heed > 0.0);
    let takes_back = heeds && plies_left >= 2 && players.iter().any(CarelessPlayer::takes_back);
    // Each child and whether it is still going, computed once (the status is most of a
    // pass's work); a fixed array, as the pass visits every slot.
    let mut kids = [Kid::default(); 96];
    let mut risky_moves = 0usize;
    for (kid, &m) in kids.iter_mut().zip(buf.as_slice()) {
        let c = child(k, m);
        let st = status(c);
        if careless && matches!(st, Status::MoverLost(_)) {
            // The careless player wins at once when it can.
            return [0.0; M];
        }
        let going = st == Status::Ongoing;
        let risky = heeds && (!going || mover_can_win_at_once(c));
        risky_moves += usize::from(risky);
        *kid = Kid { key: c, going, risky, offered: false };
    }
    let safe_moves = n - risky_moves;
    if takes_back && safe_moves > 0 {
        // Offered after an answer of the opponent's that lets the game go on and leaves the
        // careless player no win at once (the coach stays quiet then). An answer that ends
        // the game scores 0 at two plies left or more, and one that leaves a win at once
        // scores 0 from three (the careless player takes it), so the best answer is a quiet
        // one whenever one exists; at two plies left a game reaches its length either way,
        // and an answer leaving a win is the better (no take-back follows).
        for kid in kids[..n].iter_mut().filter(|kid| kid.risky && kid.going) {
            gen_moves(kid.key, buf);
            let key = kid.key;
            let (mut quiet, mut leaves_a_win) = (false, false);
            for &r in buf.as_slice() {
                let answer = child(key, r);
                if status(answer) == Status::Ongoing {
                    if mover_can_win_at_once(answer) {
                        leaves_a_win = true;
                    } else {
                        quiet = true;
                    }
                }
            }
            kid.offered = quiet && !(plies_left == 2 && leaves_a_win);
        }
    }
    // The careless player's weights, per player: a safe move gets its own tap and a share of
    // the risky taps put back (in units of 1/n, so that the plain child's sum is unchanged).
    let mut sum = [0.0f32; M];
    let mut taken_back = [0.0f32; M];
    let mut best = [0.0f32; M];
    for kid in &kids[..n] {
        let v: [f32; M] = if !kid.going {
            [0.0; M]
        } else if plies_left == 1 {
            [1.0; M]
        } else if let Some(s) = index.slot(kid.key) {
            prev[s as usize]
        } else if careless {
            // No slot and not over: its mover (the opponent) can capture the careless
            // player's lion and must not; valued from its own children, two plies back.
            chance(index, kid.key, plies_left - 1, false, players, prev2, &[], buf)
        } else {
            // The careless player could capture the lion there, and would.
            [0.0; M]
        };
        if careless {
            for (j, p) in players.iter().enumerate() {
                let q = if safe_moves > 0 && risky_moves > 0 { p.heed } else { 0.0 };
                let w = if kid.risky { 1.0 - q } else { 1.0 + q * risky_moves as f32 / safe_moves as f32 };
                if kid.offered && p.takes_back() {
                    // Taken back with probability q: back here, the same plies left.
                    sum[j] += w * (1.0 - q) * v[j];
                    taken_back[j] += w * q;
                } else {
                    sum[j] += w * v[j];
                }
            }
        } else {
            for j in 0..M {
                best[j] = best[j].max(v[j]);
            }
            if best.iter().all(|&b| b >= 1.0) {
                break;
            }
        }
    }
    if careless {
        let mut out = [0.0f32; M];
        for j in 0..M {
            out[j] = if taken_back[j] > 0.0 { sum[j] / (n as f32 - taken_back[j]) } else { sum[j] / n as f32 };
        }
        out
    } else {
        best
    }
}

/// For every even length up to `max_length`, the best chance that a game from `root` (the
/// careless player to move) lasts that long, for each of `players` (in runs of
/// [`PLAYERS_PER_RUN`]). A root of another material is an error.
pub fn survival(
    index: &Index,
    root: &Position,
    max_length: u32,
    players: &[CarelessPlayer],
    opts: &BuildOptions,
) -> Result<Vec<Survival>, ProbeError> {
    if Material::of(root) != index.material() {
        return Err(ProbeError::NotInTable(root.to_text()));
    }
    let mut out = Vec::with_capacity(players.len());
    for run in players.chunks(PLAYERS_PER_RUN) {
        out.extend(match *run {
            [a] => survival_of(index, root, max_length, &[a], opts),
            [a, b] => survival_of(index, root, max_length, &[a, b], opts),
            [a, b, c] => survival_of(index, root, max_length, &[a, b, c], opts),
            [a, b, c, d] => survival_of(index, root, max_length, &[a, b, c, d], opts),
            _ => unreachable!("chunks of at most PLAYERS_PER_RUN"),
        });
    }
    Ok(out)
}

/// [`survival`] for one run of players, each pass over the slots a game from the root meets
/// ([`Horizon`]).
fn survival_of<const M: usize>(
    index: &Index,
    root: &Position,
    max_length: u32,
    players: &[CarelessPlayer; M],
    opts: &BuildOptions,
) -> Vec<Survival> {
    let top = top(max_length);
    let horizon = Horizon::grow(index, root.key(), top - 1, opts);
    log(opts, format_args!("horizon: {} of {} slots at the deepest", horizon.len(top - 1), index.len()));
    survival_within(index, root, max_length, players, Some(&horizon), opts, |_, _| {})
}

/// Plies left at the root for the longest length: the game lasts `L` plies when none of the
/// first `L - 1` ends it; odd, so that the careless player moves in the passes of the root's
/// parity.
pub(super) fn top(max_length: u32) -> u32 {
    max_length.saturating_sub(1) | 1
}

/// The passes, over every slot or only those of `horizon`; `keep` sees each pass with the
/// careless player to move, with its plies left, once it is complete.
pub(super) fn survival_within<const M: usize>(
    index: &Index,
    root: &Position,
    max_length: u32,
    players: &[CarelessPlayer; M],
    horizon: Option<&Horizon>,
    opts: &BuildOptions,
    mut keep: impl FnMut(u32, &[[f32; M]]),
) -> Vec<Survival> {
    let len = usize::try_from(index.len()).expect("fits in memory");
    let top = top(max_length);
    let mut out: Vec<Survival> = players.iter().map(|&player| Survival { player, chances: Vec::new() }).collect();
    let (mut prev2, mut prev): (Vec<[f32; M]>, Vec<[f32; M]>) = (Vec::new(), Vec::new());
    let mut buf = MoveBuf::new();
    for plies_left in 1..=top {
        let careless = (top - plies_left).is_multiple_of(2);
        let pb = bar(opts, index.len(), "survival");
        let cur: Vec<[f32; M]> = (0..len)
            .into_par_iter()
            .with_min_len(1 << 14)
            .map_init(MoveBuf::new, |buf, s| {
                if s % (1 << 20) == 0 {
                    pb.inc(1 << 20);
                }
                // The pass is read only where a game from the root stands `top - plies_left`
                // plies in (see the horizon's docs).
                if horizon.is_some_and(|h| !h.contains(top - plies_left, s as u64)) {
                    return [0.0; M];
                }
                chance(index, index.key(s as u64), plies_left, careless, players, &prev, &prev2, buf)
            })
            .collect();
        pb.finish_and_clear();
        if careless {
            let v = chance(index, root.key(), plies_left, true, players, &prev, &prev2, &mut buf);
            for (survival, &chance) in out.iter_mut().zip(&v) {
                survival.chances.push((plies_left + 1, f64::from(chance)));
            }
            log(opts, format_args!("survival: {} plies or more: {v:.4?}", plies_left + 1));
            keep(plies_left, &cur);
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    out
}

#[cfg(test)]
pub(super) mod tests;
