//! The AI levels behind one entry point, [`choose_at_level`]: `standard`, `highest` and
//! `standard-classic` (the sontaku levels of [`sontaku`](crate::reversi::levels::sontaku)) and
//! `none` (忖度無し, the strong engine: pattern evaluation, iterative deepening and the exact
//! endgame solver).

use std::time::Duration;

use rand::Rng;

use crate::reversi::engine::eval::{PatternEval, DISC};
use crate::reversi::engine::search::{final_margin, Engine};
use crate::reversi::engine::strong::Strong;
use crate::reversi::levels::sontaku::{HumanModel, Sontaku, SontakuStage, TRUSTED_STRENGTH};
use crate::reversi::levels::strength;
use crate::reversi::rules::board::{moves, Move, Position, Square};

/// Default thinking time of the strong level.
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(2400);
/// Cap on the sontaku levels' thinking time, so they answer within a second (the seed's section on
/// how deep they read is empty: docs/design/reversi-sontaku.md#what-the-seed-leaves-open).
pub(crate) const SONTAKU_BUDGET: Duration = Duration::from_millis(800);
/// Against a human the estimate trusts ([`TRUSTED_STRENGTH`]) `standard` thinks this many times
/// [`SONTAKU_BUDGET`] (2.4 s, `none`'s time): a strong player takes every gift a shallow search
/// makes by mistake, and solving from `TRUSTED_SOLVE_EMPTIES` (sontaku's tuning) empties needs the time. A
/// deviation from the original design's "within a second",
/// docs/design/reversi-sontaku.md#deviation-more-thinking-time-for-a-trusted-player.
pub(crate) const TRUSTED_BUDGET_FACTOR: u32 = 3;
/// The strong level varies its first moves while at least this many squares are empty.
pub(crate) const OPENING_EMPTIES: u32 = 50;
/// Opening moves within this many evaluation units (1.5 discs) of the best may be played.
pub(crate) const OPENING_MARGIN: i32 = 3 * DISC / 2;
/// At or below this many empties the strong level tries the exact solver directly (the classic
/// searches solve from fewer, [`CLASSIC_EXACT_EMPTIES`](crate::reversi::engine::classic::CLASSIC_EXACT_EMPTIES)).
pub(crate) const STRONG_EXACT_EMPTIES: u32 = 20;
/// At or below this many empties the strong level first tries a win/draw/loss solve.
pub(crate) const WLD_EMPTIES: u32 = 24;
/// Transposition table size used by [`choose_at_level`] (2^20 entries, 32 MiB).
pub const TT_BITS: u32 = 20;

/// An AI level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReversiLevel {
    /// 標準: keeps the game close and lets the human win by about 6.
    Standard,
    /// 最高: lets the human win as big as possible.
    Highest,
    /// 忖度無し, offered as `none` ("no mercy"): plays to win. Named for what it does, since a
    /// variant called `None` read as an absence.
    NoMercy,
    /// 標準（原典）: `standard` as the original article publishes it (docs/design/reversi-sontaku.md), none of `standard`'s deviations
    /// (docs/design/reversi-sontaku.md#standard-classic-seed-001s-standard-as-published).
    StandardClassic,
}

impl ReversiLevel {
    /// Every level, in the order menus list them.
    pub const ALL: [ReversiLevel; 4] =
        [ReversiLevel::Standard, ReversiLevel::Highest, ReversiLevel::NoMercy, ReversiLevel::StandardClassic];
    /// The level used when a server has not chosen one.
    pub const DEFAULT: ReversiLevel = ReversiLevel::Standard;

    /// Every level's name ([`ReversiLevel::as_str`]), in the order of [`ReversiLevel::ALL`].
    pub const NAMES: [&'static str; 4] =
        [Self::ALL[0].as_str(), Self::ALL[1].as_str(), Self::ALL[2].as_str(), Self::ALL[3].as_str()];

    /// Stable identifier used in the database and the CLI.
    pub const fn as_str(self) -> &'static str {
        match self {
            ReversiLevel::Standard => "standard",
            ReversiLevel::Highest => "highest",
            ReversiLevel::NoMercy => "none",
            ReversiLevel::StandardClassic => "standard-classic",
        }
    }

    /// The published rule as written, for comparison: the players' opponent picker names it only
    /// with the commentary on.
    pub fn is_classic(self) -> bool {
        self == ReversiLevel::StandardClassic
    }

    /// Other names accepted for the level: the names admins are shown in English and Japanese
    /// (`no mercy`, `忖度無し`, ...) and the spellings people type for them.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            ReversiLevel::Standard => &["標準"],
            ReversiLevel::Highest => &["最高"],
            ReversiLevel::NoMercy => &["no mercy", "no-mercy", "no_mercy", "nomercy", "忖度無し", "忖度なし"],
            ReversiLevel::StandardClassic => {
                &["標準（原典）", "標準(原典)", "standard, as published", "standard (classic)", "standard classic"]
            }
        }
    }

    /// The bot's thinking time at this level: `none` thinks for the seed's 2.4 s, the sontaku
    /// levels for at most 0.8 s.
    pub fn budget(self) -> Duration {
        match self {
            ReversiLevel::NoMercy => DEFAULT_BUDGET,
            ReversiLevel::Standard | ReversiLevel::Highest | ReversiLevel::StandardClassic => SONTAKU_BUDGET,
        }
    }
}

impl std::fmt::Display for ReversiLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ReversiLevel {
    type Err = crate::UnknownLevel;
    /// A level name or alias, in any case and spacing.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = crate::level_name::normalize_level_name(s);
        ReversiLevel::ALL
            .into_iter()
            .find(|l| l.as_str() == wanted || l.aliases().contains(&wanted.as_str()))
            .ok_or_else(|| crate::UnknownLevel {
                kind: crate::GameKind::Reversi,
                name: s.to_string(),
                offered: &ReversiLevel::NAMES,
            })
    }
}

/// How the level's move was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The game is over; `best` is `Pass` and means nothing.
    GameOver,
    /// The only legal move (a pass or a single placement).
    Forced,
    /// Depth-limited search.
    Midgame,
    /// Read to the end with the level's objective (sontaku levels).
    FullRead,
    /// `highest`'s cooperative search.
    Cooperative,
    /// Win/draw/loss solved (strong level); the score is the sign only.
    Wld,
    /// Solved exactly (strong level); the score is the exact final margin.
    Exact,
}

/// What a level chose: the move, with the values and the search that found it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move to play.
    pub best: Move,
    /// Root moves with their values, in the AI's order of preference. Strong level: 1/[`DISC`]
    /// discs for itself (exact: final margin × DISC). Sontaku levels: desirability for the human.
    pub evals: Vec<(Move, i32)>,
    /// Plies searched (empties for complete reads).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Whether the value of `best` is exact (read to the end of the game).
    pub exact: bool,
    /// How the move was found.
    pub stage: Stage,
    /// Whether `standard` (or `standard-classic`) played its 2nd or 3rd move on purpose.
    pub jittered: bool,
    /// `standard`'s estimate of the human's strength (0 to 1) from their moves, when it had
    /// any to judge ([`strength::estimate`]).
    pub human_strength: Option<f64>,
    /// Thinking time.
    pub time: Duration,
}

impl Choice {
    /// A move found at `stage`; the engine fills in nodes and time, and only the `standard` levels
    /// jitter.
    fn found(best: Move, evals: Vec<(Move, i32)>, depth: u32, exact: bool, stage: Stage) -> Choice {
        Choice {
            best,
            evals,
            depth,
            nodes: 0,
            exact,
            stage,
            jittered: false,
            human_strength: None,
            time: Duration::ZERO,
        }
    }
}

fn place(sq: u8) -> Move {
    Move::Place(Square::new(sq).expect("square below 64"))
}

/// Answers `pos` at `level` within the level's thinking time ([`ReversiLevel::budget`]) on `engine`;
/// the bot is the side to move, the human the other colour, whose moves so far are
/// `human_moves` (see [`Engine::choose_at_level`]). The bot's one entry point. A used engine answers as
/// a fresh one would (tested), so a caller keeps one between replies (see `crate::Thinker`).
pub fn choose_at_level(
    engine: &mut Engine,
    eval: &PatternEval,
    pos: &Position,
    level: ReversiLevel,
    human_moves: &[(Position, Move)],
    rng: &mut impl Rng,
) -> Choice {
    engine.choose_at_level(eval, pos, level, level.budget(), human_moves, rng)
}

/// Every legal move of `pos` with its value in discs for the side to move, best first, from a
/// full-window search of all root moves within `budget` on `engine` (for commentary on a
/// player's move). Returns `(moves, exact)`; empty when the side to move must pass.
pub(crate) fn analyze_moves(
    engine: &mut Engine,
    eval: &PatternEval,
    pos: &Position,
    budget: Duration,
) -> (Vec<(Move, f64)>, bool) {
    engine.analyze(eval, pos, budget)
}

/// Depth of [`position_value`]'s midgame search.
pub(crate) const VALUE_DEPTH: u32 = 6;
/// Empties from which [`position_value`] solves exactly.
pub(crate) const VALUE_EXACT: u32 = 14;

/// The value of `pos` in discs for the side to move: exact from [`VALUE_EXACT`] empties,
/// otherwise a fixed-depth search with the pattern evaluation (deterministic, a few
/// milliseconds). For after-game charts.
pub fn position_value(engine: &mut Engine, eval: &PatternEval, pos: &Position) -> i32 {
    let (p, o) = (pos.player(), pos.opponent());
    if pos.is_game_over() {
        return final_margin(p, o);
    }
    if moves(p, o) == 0 {
        let passed = pos.play(Move::Pass).expect("a pass is legal without placements");
        return -position_value(engine, eval, &passed);
    }
    engine.set_deadline(None);
    if pos.empties() <= VALUE_EXACT {
        return engine.solve_exact(eval, p, o).map_or(0, |(_, v)| v);
    }
    let r = engine.iterate(&Strong(eval), p, o, VALUE_DEPTH, false, DISC).expect("the side to move has placements");
    (r.scores[0].1 as f64 / DISC as f64).round() as i32
}

impl Engine {
    /// [`analyze_moves`] with this engine; what an earlier search left in its table is
    /// forgotten first, so the analysis is a fresh engine's.
    pub fn analyze(&mut self, eval: &PatternEval, pos: &Position, budget: Duration) -> (Vec<(Move, f64)>, bool) {
        self.clear();
        let (p, o) = (pos.player(), pos.opponent());
        self.set_deadline(Some(self.now() + budget));
        let Some(r) = self.iterate(&Strong(eval), p, o, 60, true, DISC) else { return (Vec::new(), true) };
        let moves = r.scores.iter().map(|&(sq, v)| (place(sq), v as f64 / DISC as f64)).collect();
        (moves, r.complete)
    }

    /// [`choose_at_level`] with this engine's table and the given evaluator. `human_moves` are the
    /// human's `(position, move)` so far, in the order played: `standard` estimates from them how
    /// well the human plays and models its human accordingly ([`HumanModel`]; none: the original
    /// design's pessimistic human, docs/design/reversi-sontaku.md#the-idea-seed-001); the estimate
    /// is part of the thinking time. The other levels never look at them: `standard-classic`
    /// plays the seed's pessimistic human whoever plays.
    pub fn choose_at_level(
        &mut self,
        eval: &PatternEval,
        pos: &Position,
        level: ReversiLevel,
        budget: Duration,
        human_moves: &[(Position, Move)],
        rng: &mut impl Rng,
    ) -> Choice {
        let start = self.now();
        let nodes0 = self.nodes;
        let (p, o) = (pos.player(), pos.opponent());
        let mask = moves(p, o);
        let simple = |best: Move, stage: Stage| Choice::found(best, vec![], 0, stage == Stage::GameOver, stage);
        if mask == 0 {
            let stage = if moves(o, p) == 0 { Stage::GameOver } else { Stage::Forced };
            return simple(Move::Pass, stage);
        }
        if mask.count_ones() == 1 {
            return simple(place(mask.trailing_zeros() as u8), Stage::Forced);
        }
        let mut reply = match level {
            ReversiLevel::Standard | ReversiLevel::Highest | ReversiLevel::StandardClassic => {
                let budget = budget.min(SONTAKU_BUDGET);
                let which = match level {
                    ReversiLevel::Highest => Sontaku::Highest,
                    ReversiLevel::StandardClassic => Sontaku::StandardClassic,
                    _ => Sontaku::Standard,
                };
                let judged = (which == Sontaku::Standard && !human_moves.is_empty())
                    .then(|| strength::estimate(self, eval, human_moves).value);
                let model = judged.map_or(HumanModel::SEED, |strength| HumanModel { strength });
                // A trusted player reads deeply: the time to match them (see TRUSTED_BUDGET_FACTOR).
                let budget = if model.strength >= TRUSTED_STRENGTH { budget * TRUSTED_BUDGET_FACTOR } else { budget };
                self.set_deadline(Some(start + budget));
                let c = self.sontaku_for(eval, which, p, o, model, rng);
                let stage = match c.stage {
                    SontakuStage::Midgame => Stage::Midgame,
                    SontakuStage::FullRead => Stage::FullRead,
                    SontakuStage::Cooperative => Stage::Cooperative,
                };
                let evals = c.ranked.iter().map(|&(s, v)| (place(s), v)).collect();
                Choice {
                    jittered: c.jittered,
                    human_strength: judged,
                    ..Choice::found(place(c.best), evals, c.depth, stage != Stage::Midgame, stage)
                }
            }
            ReversiLevel::NoMercy => self.strong(eval, p, o, start + budget, rng),
        };
        self.set_deadline(None);
        reply.nodes = self.nodes - nodes0;
        reply.time = self.now().saturating_sub(start);
        reply
    }

    /// The strong level: solver near the end, otherwise iterative deepening until `deadline`.
    fn strong(&mut self, eval: &PatternEval, p: u64, o: u64, deadline: Duration, rng: &mut impl Rng) -> Choice {
        let n = (!(p | o)).count_ones();
        let obj = Strong(eval);
        self.clear();
        let midgame = |engine: &mut Engine, until: Duration, all: bool| {
            engine.set_deadline(Some(until));
            // The strong level's own midgame search prunes selectively; the solvers do not.
            engine.selective = engine.probcut_allowed();
            let r = engine.iterate(&obj, p, o, 60, all, DISC);
            engine.selective = false;
            let r = r.expect("a placement exists");
            let evals = r.scores.iter().map(|&(s, v)| (place(s), v)).collect();
            let stage = if r.complete { Stage::Exact } else { Stage::Midgame };
            Choice::found(place(r.scores[0].0), evals, r.depth, r.complete, stage)
        };
        if n <= WLD_EMPTIES {
            // A quick midgame answer first, in case the solver runs out of time.
            // Solving far from the end may not finish: then the midgame answer gets more time.
            let share = if n <= STRONG_EXACT_EMPTIES { 10 } else { 3 };
            let now = self.now();
            let fallback = midgame(self, now + (deadline - now.min(deadline)) / share, false);
            self.set_deadline(Some(deadline));
            let mut wld = None;
            if n > STRONG_EXACT_EMPTIES {
                wld = self.solve_root(eval, p, o, -1, 1);
            }
            // A drawn WLD is already exact; a failed one left no time.
            if n <= STRONG_EXACT_EMPTIES || matches!(wld, Some((_, v)) if v != 0) {
                if let Some((m, v)) = self.solve_exact(eval, p, o) {
                    return Choice::found(m, vec![(m, v * DISC)], n, true, Stage::Exact);
                }
            }
            if let Some((m, v)) = wld {
                // The sign is known exactly (a draw is exact too).
                return Choice::found(m, vec![(m, v.signum() * DISC)], n, v == 0, Stage::Wld);
            }
            return fallback;
        }
        let opening = n >= OPENING_EMPTIES;
        let mut r = midgame(self, deadline, opening);
        if opening {
            // A little variety: any move within 1.5 discs of the best.
            let top = r.evals[0].1;
            let close: Vec<Move> =
                r.evals.iter().filter(|&&(_, v)| v >= top - OPENING_MARGIN).map(|&(m, _)| m).collect();
            r.best = close[rng.gen_range(0..close.len())];
        }
        r
    }
}

#[cfg(test)]
mod tests;
