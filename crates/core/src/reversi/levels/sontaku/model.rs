//! Who `standard` believes it plays against: the human model, from the seed's pessimistic human
//! to a player who finds the best replies.

/// Who `standard` believes it plays against (a deviation from the original design,
/// docs/design/reversi-sontaku.md#deviation-a-human-model-that-follows-the-player).
///
/// The seed assumes the human plays the move worst for the hospitality, so the CPU keeps the
/// human's lead large enough to survive a blunder; a strong human does not blunder and wins by
/// 50 discs. With strength `s` (estimated from the human's moves by
/// [`strength`](crate::reversi::levels::strength)) each root move is valued
/// `(1 - s) × seed value + s × value when the human then plays best` in the midgame, the second
/// by the strong engine's pattern search, and no midgame move gives away more than [`GIFT_CAP`](crate::reversi::levels::sontaku::tuning::GIFT_CAP);
/// the full read keeps the seed's guarantee below
/// [`TRUSTED_STRENGTH`](super::TRUSTED_STRENGTH) and values best play from it (a switch, not a
/// blend). Below [`MODELLED_FROM`](crate::reversi::levels::sontaku::tuning::MODELLED_FROM) (every newcomer, and anyone who plays
/// like a beginner) `standard` plays the seed's search against the pessimistic human, with its
/// other deviations (the lead in discs, the opening guard); the seed's rule as written is
/// `standard-classic` (docs/design/reversi-sontaku.md#who-meets-the-seeds-rule).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct HumanModel {
    /// 0: the human may play their worst move (docs/design/reversi-sontaku.md#the-idea-seed-001);
    /// 1: the human finds the best reply.
    pub strength: f64,
}

impl HumanModel {
    /// The original design's pessimistic human
    /// (docs/design/reversi-sontaku.md#standard-as-seed-001-describes-it-sontakustandard).
    pub(crate) const SEED: HumanModel = HumanModel { strength: 0.0 };
}
