//! The numbers the sontaku levels are tuned by: the targets, the depths where reads to the end
//! begin, the jitter, and the human model's thresholds, ceilings and caps
//! (docs/design/reversi-sontaku.md).

/// The slight human lead that `standard` steers towards: 4 discs, in tenths of a disc.
pub(super) const STANDARD_TARGET: i32 = 40;
/// The slight human lead `standard-classic` steers towards, in points of the published article's evaluation
/// (`published_eval`): a third of a corner, or three
/// legal moves and a bit. The seed says only "a slight lead"; 40 is what this repository's first
/// implementation of the seed used, before `standard` measured the lead in discs
/// (docs/design/reversi-sontaku.md#standard-classic-seed-001s-standard-as-published).
pub(super) const CLASSIC_TARGET: i32 = 40;
/// Final human margin `standard` (and `standard-classic`) aims for in the full read.
pub(crate) const TARGET_WIN_MARGIN: i32 = 6;
/// Empties from which `standard` reads to the end.
pub(super) const STANDARD_FULL_READ: u32 = 13;
/// Empties from which `highest` reads to the end.
pub(super) const HIGHEST_FULL_READ: u32 = 12;
/// Empties from which `highest` may switch to the cooperative search.
pub(super) const COOPERATIVE_EMPTIES: u32 = 8;
/// Human margin that must be guaranteed before the cooperative search starts.
pub(super) const GUARANTEE_MARGIN: i32 = 8;
/// Chance that `standard` plays its 2nd or 3rd move outside the full read.
pub(super) const JITTER_PROBABILITY: f64 = 0.35;
/// Desirability gap (units of [`standard_desirability`](crate::reversi::levels::sontaku::desirability::standard_desirability)) under which moves count as equal.
pub(super) const NEAR_EQUAL: i32 = 40;
/// Depth of the quick search used if a full read runs out of time.
pub(super) const FALLBACK_DEPTH: u32 = 4;
/// Bonus of `highest` for a perfect win (the CPU left with no disc).
pub(super) const PERFECT_BONUS: i32 = 16_000;
/// Most that one midgame move of `standard` may give away (tenths of a disc), by the strong
/// engine's judgement against the CPU's best move, once the human is modelled
/// ([`GIFT_CAP_FROM`]; a beginner far behind needs bigger gifts, which they do not notice).
pub(super) const GIFT_CAP: i32 = 60;
/// Against a human of shown strength, the 2nd or 3rd move of the 35% jitter must be within this
/// much of the best move's value (units of [`standard_desirability`](crate::reversi::levels::sontaku::desirability::standard_desirability): 1.5 discs of shortfall),
/// narrowing to [`JITTER_SPAN_STRONG`] for the strongest: a strong human takes whatever a
/// random 2nd move gives away.
pub(super) const JITTER_SPAN: i32 = 150;
/// The jitter's span against a perfect player (0.3 discs of shortfall).
pub(super) const JITTER_SPAN_STRONG: i32 = 30;
/// Below this strength `standard` keeps the seed's search and pessimistic human (the lead still in
/// discs, the opening still guarded): a beginner's estimate wobbles, and the seed's pessimistic
/// human is the right model for a beginner.
pub(super) const MODELLED_FROM: f64 = 0.25;
/// Strength from which the full read trusts the human to find the best replies; below it the
/// seed's guarantee (a win whatever the human plays) holds, since a beginner's blunders in the
/// last moves cannot be given back.
pub(crate) const TRUSTED_STRENGTH: f64 = 0.6;
/// In the full read against a trusted human, the best-play margin aimed at is +6 plus this many
/// discs per unit of missing strength (+10 at the threshold, +6 for a perfect player): room for
/// the small slips a good player still makes.
pub(super) const SLIP_ALLOWANCE: f64 = 10.0;

/// While more than this many squares are empty the human has made too few moves for the strength
/// estimate to tell a child from an expert, so `standard` does not give the lead away yet: whatever
/// the estimate, its moves keep the human's best-play lead at most [`OPENING_LEAD_CEILING`] (a
/// deviation from the original design, docs/design/reversi-sontaku.md#deviation-the-opening-guard).
pub(super) const OPENING_GUARD_EMPTIES: u32 = 40;
/// The human's best-play lead (tenths of a disc, by the strong engine) that no opening move of
/// `standard` may exceed, unless every move does (then only the moves within a disc of the CPU's
/// best remain). It was +6 discs, then +3 (2026-12-01 evening and night): at +3 a strong guest led
/// by +1..+2 at ply 10 (the guest's value, its opponent to move) and was never caught again. Level
/// (0) since 2026-12-01 late night (−2 at ply 10 against `none`; the three steps:
/// docs/design/reversi-sontaku.md#deviation-the-opening-guard); a beginner meets
/// [`BEGINNER_OPENING_CEILING`] after the first moves (see [`lead_ceiling`](crate::reversi::levels::sontaku::desirability::lead_ceiling)).
pub(super) const OPENING_LEAD_CEILING: i32 = 0;
/// From this many empties a trusted human's game is solved exactly, as `none` does, rather than
/// searched: a strong player reads the endgame from here, and a heuristic gift there is final.
pub(super) const TRUSTED_SOLVE_EMPTIES: u32 = 20;

/// Against a trusted human, the midgame's best-play lead aimed at until the solve
/// ([`TRUSTED_SOLVE_EMPTIES`]): a disc behind (see [`trusted_target`](crate::reversi::levels::sontaku::desirability::trusted_target)).
pub(super) const TRUSTED_MIDGAME_TARGET: i32 = -10;
/// Against a trusted human, the best-play lead (tenths of a disc) that no midgame move may exceed
/// until the solve, unless every move does (then [`Engine::standard_chase`](crate::reversi::engine::search::Engine::standard_chase) plays the strongest
/// move), as [`OPENING_LEAD_CEILING`] in the opening. The aim alone ([`TRUSTED_MIDGAME_TARGET`])
/// weighs an excess at 0.7 of a shortfall, so it took a move that left the human a disc ahead over
/// one that left them two behind, and a guest who reads as deep as `standard` kept every such disc.
/// With the level opening ceiling and this one (8 games each, a tenth of the time), `none(0.5)`'s
/// win became certain at ply 44 instead of 12 and `none(2.4)`'s at 35 instead of 26, the guest's
/// value at ply 40 still rising by half a disc a move pair; with the chase as well, 44 and 45 (a
/// deviation from the original design,
/// docs/design/reversi-sontaku.md#deviation-a-trusted-player-held-a-disc-behind).
pub(super) const TRUSTED_LEAD_CEILING: i32 = 0;

/// Share of the thinking time in which [`Engine::standard_chase`](crate::reversi::engine::search::Engine::standard_chase) values every root move to see
/// whether a trusted human is ahead of the plan; the rest goes to the search for the strongest
/// move, or, if the human is not ahead, to the usual midgame search (which starts afresh, so
/// this share is lost to it: a quarter, less than one ply). Not tuned: the one value measured.
pub(super) const CHASE_PROBE_SHARE: f64 = 0.25;

/// While more than this many squares are empty (the human's first four moves) nothing is
/// known of the human and the level ceiling [`OPENING_LEAD_CEILING`] holds for everyone; later
/// in the opening a human still estimated a beginner (below [`MODELLED_FROM`]) meets
/// [`BEGINNER_OPENING_CEILING`] instead. A strong player's estimate passes [`MODELLED_FROM`]
/// after about four moves; a random or greedy player's stays at 0.
pub(super) const OPENING_UNKNOWN_EMPTIES: u32 = 52;
/// The opening ceiling (tenths of a disc) against a human who has shown no skill after their first
/// moves: the +3 discs the opening ceiling had for everyone before 2026-12-01 late night. With the
/// level ceiling for everyone, random's median margin went from +6 to +10 (16 games, 15/0/1); with
/// this one for beginners, +6 and 16/0/0 (a deviation from the original design,
/// docs/design/reversi-sontaku.md#deviation-the-opening-guard).
pub(super) const BEGINNER_OPENING_CEILING: i32 = 30;
/// Strength from which [`GIFT_CAP`] holds: every human `standard` models (it held from
/// [`TRUSTED_STRENGTH`] until 2026-12-01 late night). Held level in the opening, a middling player
/// (between the two) was a few discs behind when the guard lifted, and the seed's share of the
/// value then handed back 10-25 discs in one move; measured together with
/// [`BEGINNER_OPENING_CEILING`]: alphabeta(4)'s median margin +10 back to +8, the strong guests
/// unchanged (a deviation from the original design,
/// docs/design/reversi-sontaku.md#deviation-the-gift-cap).
pub(super) const GIFT_CAP_FROM: f64 = MODELLED_FROM;

/// One disc in the tenths that leads are counted in.
pub(super) const DISC_TENTHS: i32 = 10;
