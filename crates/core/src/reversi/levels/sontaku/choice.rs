//! The sontaku levels and their decisions: which level, how a move was chosen, and how the root
//! moves are ranked and one of the first few picked.

use rand::Rng;

use super::tuning::JITTER_PROBABILITY;

/// Which sontaku level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sontaku {
    /// 標準: a close game the human wins by about 6.
    Standard,
    /// 最高: the human wins as big as possible.
    Highest,
    /// 標準（原典）: `standard` as the original article publishes it (docs/design/reversi-sontaku.md), for comparison: the pessimistic human
    /// whoever plays, the lead by the seed's own evaluation
    /// (docs/design/reversi-sontaku.md#standard-classic-seed-001s-standard-as-published).
    StandardClassic,
}

/// How a sontaku move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SontakuStage {
    /// Depth-limited search with the heuristic desirability.
    Midgame,
    /// Read to the end of the game.
    FullRead,
    /// `highest`'s cooperative search among guaranteed wins.
    Cooperative,
}

/// A sontaku decision: root moves ranked best first with their desirability.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SontakuChoice {
    /// Square index of the move played.
    pub best: u8,
    /// Root moves (square index, desirability), in rank order.
    pub ranked: Vec<(u8, i32)>,
    /// Plies searched (empties for reads to the end).
    pub depth: u32,
    /// How the move was chosen.
    pub stage: SontakuStage,
    /// Whether the 2nd/3rd-move jitter was applied.
    pub jittered: bool,
}

/// Ranks root values best first; moves within `near` of the best are reordered by the CPU's
/// own interest (`own`, larger is better for the CPU), so the play looks natural.
pub(super) fn rank_moves(values: &[(u8, i32)], own: &[(u8, i32)], near: i32) -> Vec<(u8, i32)> {
    let mut ranked = values.to_vec();
    ranked.sort_by_key(|&(_, v)| -v);
    let Some(&(_, top)) = ranked.first() else {
        return ranked;
    };
    let own_of = |sq: u8| own.iter().find(|&&(s, _)| s == sq).map_or(i32::MIN, |&(_, v)| v);
    let k = ranked.iter().take_while(|&&(_, v)| v >= top - near).count();
    ranked[..k].sort_by_key(|&(sq, v)| (-own_of(sq), -v));
    ranked
}

/// Index into the ranking to play: 0, or with [`JITTER_PROBABILITY`] the 2nd or 3rd move,
/// never during a full read.
pub(super) fn jitter_index(len: usize, full_read: bool, rng: &mut impl Rng) -> usize {
    if full_read || len < 2 {
        return 0;
    }
    if rng.gen_bool(JITTER_PROBABILITY) {
        rng.gen_range(1..=len.min(3) - 1)
    } else {
        0
    }
}
