//! How desirable a human lead or a final margin is for each sontaku level: the scores the
//! searches maximise, and the aim and ceiling of the human's lead as the game goes on.

use super::tuning::{
    BEGINNER_OPENING_CEILING, CLASSIC_TARGET, MODELLED_FROM, OPENING_GUARD_EMPTIES, OPENING_LEAD_CEILING,
    OPENING_UNKNOWN_EMPTIES, PERFECT_BONUS, STANDARD_TARGET, TARGET_WIN_MARGIN, TRUSTED_LEAD_CEILING,
    TRUSTED_MIDGAME_TARGET, TRUSTED_SOLVE_EMPTIES, TRUSTED_STRENGTH,
};

/// Standard desirability of a human lead `h` (tenths of a disc): 10 units per tenth short of the target,
/// 7 per tenth beyond it (the 1.0 / 0.7 weights, scaled to integers).
pub(super) fn standard_desirability(h: i32) -> i32 {
    desirability_around(h, STANDARD_TARGET)
}

/// `standard-classic`'s desirability of a human advantage `h` by the published article's evaluation (its
/// points): the same 1.0 / 0.7 weights around [`CLASSIC_TARGET`].
pub(super) fn classic_desirability(h: i32) -> i32 {
    desirability_around(h, CLASSIC_TARGET)
}

/// Desirability of a human lead `h` around `target` (both in tenths of a disc), with the seed's
/// 1.0 / 0.7 weights.
pub(super) fn desirability_around(h: i32, target: i32) -> i32 {
    if h < target {
        -10 * (target - h)
    } else {
        -7 * (h - target)
    }
}

/// The best-play lead `standard` steers a trusted human towards with `n` empties (tenths of a
/// disc): a disc behind until the solve ([`TRUSTED_SOLVE_EMPTIES`]), which hands the lead over,
/// then the seed's slight lead if the solve does not finish. A strong player who is kept a little
/// ahead from the opening on has won by the middle of the game, and every later gift is a margin
/// added to a won game; held behind, the game stays open until the endgame (a deviation from the
/// original design, docs/design/reversi-sontaku.md#deviation-a-trusted-player-held-a-disc-behind).
/// Until 2026-12-01 late night the aim was level (0) from 22 empties to the solve: the guest's
/// value at ply 39-40 (21-20 empties) is what decides whether the win was settled before ply 40.
pub(super) fn trusted_target(n: u32) -> i32 {
    if n > TRUSTED_SOLVE_EMPTIES {
        TRUSTED_MIDGAME_TARGET
    } else {
        STANDARD_TARGET
    }
}

/// The most best-play lead (tenths of a disc) a move of `standard` may leave a human of strength
/// `s` with `n` empties, if any: in the opening [`OPENING_LEAD_CEILING`], or
/// [`BEGINNER_OPENING_CEILING`] for a human still estimated a beginner after the first moves
/// ([`OPENING_UNKNOWN_EMPTIES`]); then [`TRUSTED_LEAD_CEILING`] against a trusted human until
/// the solve. A move above it is played only if every move is (then only the moves within a
/// disc of the CPU's best, or against a trusted human the strongest: [`Engine::standard_chase`](crate::reversi::engine::search::Engine::standard_chase)).
pub(super) fn lead_ceiling(n: u32, s: f64) -> Option<i32> {
    if n > OPENING_GUARD_EMPTIES {
        let beginner = s < MODELLED_FROM && n <= OPENING_UNKNOWN_EMPTIES;
        Some(if beginner { BEGINNER_OPENING_CEILING } else { OPENING_LEAD_CEILING })
    } else if s >= TRUSTED_STRENGTH && n > TRUSTED_SOLVE_EMPTIES {
        Some(TRUSTED_LEAD_CEILING)
    } else {
        None
    }
}

/// Standard value of a finished game by the human's final margin: human wins rank first
/// (closest to +6 best), then draws, then losses (closest first); all beyond any heuristic.
pub(crate) fn standard_final_value(human_margin: i32) -> i32 {
    if human_margin > 0 {
        30_000 - 10 * (human_margin - TARGET_WIN_MARGIN).abs()
    } else if human_margin == 0 {
        -15_000
    } else {
        -20_000 + 10 * human_margin
    }
}

/// Highest value of a finished game: 500 per disc of human margin (1000 per human disc, empties
/// to the winner) plus [`PERFECT_BONUS`] when the CPU has no disc left.
pub(super) fn highest_final_value(human_margin: i32, cpu_discs: u32) -> i32 {
    500 * human_margin + if cpu_discs == 0 { PERFECT_BONUS } else { 0 }
}
