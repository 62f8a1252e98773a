//! The three AI levels behind one entry point, [`choose_at_level`]: `standard` and `highest` (the sontaku
//! levels of [`sontaku`](crate::reversi::levels::sontaku)) and `none` (忖度無し, the strong engine: pattern
//! evaluation, iterative deepening and the exact endgame solver).

use std::time::{Duration, Instant};

use rand::Rng;

use crate::reversi::engine::eval::{PatternEval, DISC};
use crate::reversi::engine::search::{final_margin, Engine};
use crate::reversi::engine::strong::Strong;
use crate::reversi::levels::sontaku::{HumanModel, Sontaku, SontakuStage, TRUSTED_STRENGTH};
use crate::reversi::levels::strength;
use crate::reversi::rules::board::{moves, Move, Position, Square};

/// Default thinking time of the strong level.
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(2400);
/// Cap on the sontaku levels' thinking time, so they answer within a second.
pub const SONTAKU_BUDGET: Duration = Duration::from_millis(800);
/// Against a human the estimate trusts ([`TRUSTED_STRENGTH`]) `standard` thinks this many times
/// [`SONTAKU_BUDGET`] (2.4 s, `none`'s time): a strong player takes every gift a shallow search
/// makes by mistake, and solving from [`TRUSTED_SOLVE_EMPTIES`](crate::reversi::levels::sontaku::TRUSTED_SOLVE_EMPTIES) empties needs the time. A
/// deviation from the original design's "within a second",
/// docs/design/reversi-sontaku.md#deviation-more-thinking-time-for-a-trusted-player.
pub const TRUSTED_BUDGET_FACTOR: u32 = 3;
/// The strong level varies its first moves while at least this many squares are empty.
pub const OPENING_EMPTIES: u32 = 50;
/// Opening moves within this many evaluation units (1.5 discs) of the best may be played.
pub const OPENING_MARGIN: i32 = 3 * DISC / 2;
/// At or below this many empties the strong level tries the exact solver directly (the classic
/// searches solve from fewer, [`CLASSIC_EXACT_EMPTIES`](crate::reversi::engine::classic::CLASSIC_EXACT_EMPTIES)).
pub const STRONG_EXACT_EMPTIES: u32 = 20;
/// At or below this many empties the strong level first tries a win/draw/loss solve.
pub const WLD_EMPTIES: u32 = 24;
/// Transposition table size used by [`choose_at_level`] (2^20 entries, 32 MiB).
pub const TT_BITS: u32 = 20;

/// An AI level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReversiLevel {
    /// 標準: keeps the game close and lets the human win by about 6.
    Standard,
    /// 最高: lets the human win as big as possible.
    Highest,
    /// 忖度無し: plays to win.
    None,
}

impl ReversiLevel {
    /// Every level, in the order menus list them.
    pub const ALL: [ReversiLevel; 3] = [ReversiLevel::Standard, ReversiLevel::Highest, ReversiLevel::None];
    /// The level used when a server has not chosen one.
    pub const DEFAULT: ReversiLevel = ReversiLevel::Standard;

    /// Every level's name ([`ReversiLevel::as_str`]), in the order of [`ReversiLevel::ALL`].
    pub const NAMES: [&'static str; 3] = [Self::ALL[0].as_str(), Self::ALL[1].as_str(), Self::ALL[2].as_str()];

    /// Stable identifier used in the database and the CLI.
    pub const fn as_str(self) -> &'static str {
        match self {
            ReversiLevel::Standard => "standard",
            ReversiLevel::Highest => "highest",
            ReversiLevel::None => "none",
        }
    }

    /// Other names accepted for the level: the names admins are shown in English and Japanese
    /// (`no mercy`, `忖度無し`, ...) and the spellings people type for them.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            ReversiLevel::Standard => &["標準"],
            ReversiLevel::Highest => &["最高"],
            ReversiLevel::None => &["no mercy", "no-mercy", "no_mercy", "nomercy", "忖度無し", "忖度なし"],
        }
    }

    /// The bot's thinking time at this level: `none` thinks for the seed's 2.4 s, the sontaku
    /// levels for at most 0.8 s.
    pub fn budget(self) -> Duration {
        match self {
            ReversiLevel::None => DEFAULT_BUDGET,
            ReversiLevel::Standard | ReversiLevel::Highest => SONTAKU_BUDGET,
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
    /// Whether `standard` played its 2nd or 3rd move on purpose.
    pub jittered: bool,
    /// `standard`'s estimate of the human's strength (0 to 1) from their moves, when it had
    /// any to judge ([`strength::estimate`]).
    pub human_strength: Option<f64>,
    /// Thinking time.
    pub time: Duration,
}

impl Choice {
    /// A move found at `stage`; the engine fills in nodes and time, and only `standard` jitters.
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
    pos: &Position,
    level: ReversiLevel,
    human_moves: &[(Position, Move)],
    rng: &mut impl Rng,
) -> Choice {
    engine.choose_at_level(PatternEval::shared(), pos, level, level.budget(), human_moves, rng)
}

/// Every legal move of `pos` with its value in discs for the side to move, best first, from a
/// full-window search of all root moves within `budget` on `engine` (for commentary on a
/// player's move). Returns `(moves, exact)`; empty when the side to move must pass.
pub fn analyze_moves(engine: &mut Engine, pos: &Position, budget: Duration) -> (Vec<(Move, f64)>, bool) {
    engine.analyze(PatternEval::shared(), pos, budget)
}

/// Depth of [`position_value`]'s midgame search.
pub const VALUE_DEPTH: u32 = 6;
/// Empties from which [`position_value`] solves exactly.
pub const VALUE_EXACT: u32 = 14;

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
    /// is part of the thinking time.
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
            ReversiLevel::Standard | ReversiLevel::Highest => {
                let budget = budget.min(SONTAKU_BUDGET);
                let which = if level == ReversiLevel::Standard { Sontaku::Standard } else { Sontaku::Highest };
                let judged = (which == Sontaku::Standard && !human_moves.is_empty())
                    .then(|| strength::estimate(self, eval, human_moves).value);
                let model = judged.map_or(HumanModel::SEED, |strength| HumanModel { strength });
                // A trusted player reads deeply: the time to match them (see TRUSTED_BUDGET_FACTOR).
                let budget = if model.strength >= TRUSTED_STRENGTH { budget * TRUSTED_BUDGET_FACTOR } else { budget };
                self.set_deadline(Some(start + budget));
                let c = self.sontaku_for(which, p, o, model, rng);
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
            ReversiLevel::None => self.strong(eval, p, o, start + budget, rng),
        };
        self.set_deadline(None);
        reply.nodes = self.nodes - nodes0;
        reply.time = self.now().saturating_duration_since(start);
        reply
    }

    /// The strong level: solver near the end, otherwise iterative deepening until `deadline`.
    fn strong(&mut self, eval: &PatternEval, p: u64, o: u64, deadline: Instant, rng: &mut impl Rng) -> Choice {
        let n = (!(p | o)).count_ones();
        let obj = Strong(eval);
        self.clear();
        let midgame = |engine: &mut Engine, until: Instant, all: bool| {
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
mod tests {
    use super::*;
    use crate::reversi::engine::endgame::solve;
    use crate::reversi::engine::search::Clock;
    use crate::reversi::rules::board::Color;
    use crate::reversi::rules::naive::random_position;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// [`choose_at_level`] on a clock that counts nodes, at a slow machine's rates (about five times the
    /// project machine's): when the search stops, and what it found by then, no longer depend on
    /// how busy the machine is, so these tests give one answer under any load (and stay quick).
    fn reply_on_node_clock(pos: &Position, level: ReversiLevel, budget: Duration, rng: &mut StdRng) -> Choice {
        let clock = Clock::Nodes { mid_ns: 2000.0, end_ns: 300.0 };
        Engine::new(TT_BITS).with_clock(clock).choose_at_level(PatternEval::shared(), pos, level, budget, &[], rng)
    }

    /// The bot's thread keeps its engine between replies ([`choose_at_level`]): a used engine answers
    /// exactly as a fresh one, whatever it searched before (other positions, levels,
    /// objectives), on a clock that makes the searches repeatable.
    #[test]
    fn a_used_engine_answers_as_a_fresh_one() {
        let clock = Clock::Nodes { mid_ns: 2000.0, end_ns: 300.0 };
        let mut used = Engine::new(TT_BITS).with_clock(clock);
        let mut rng = StdRng::seed_from_u64(31);
        for round in 0..9 {
            let pos = random_position(&mut rng, [40, 24, 12][round % 3], 2);
            let level = [ReversiLevel::None, ReversiLevel::Standard, ReversiLevel::Highest][(round / 3) % 3];
            let seed = rng.gen::<u64>();
            let budget = Duration::from_millis(150);
            let fresh = Engine::new(TT_BITS).with_clock(clock).choose_at_level(
                PatternEval::shared(),
                &pos,
                level,
                budget,
                &[],
                &mut StdRng::seed_from_u64(seed),
            );
            let again =
                used.choose_at_level(PatternEval::shared(), &pos, level, budget, &[], &mut StdRng::seed_from_u64(seed));
            assert_eq!(fresh, again, "round {round}: {level:?} at {}", pos.to_text());
        }
    }

    /// Commentary shares the bot's engine: after replies and analyses, of other positions and of
    /// the same one, an analysis equals a fresh engine's (node clock: both search alike).
    #[test]
    fn a_used_engine_analyses_as_a_fresh_one() {
        let clock = Clock::Nodes { mid_ns: 2000.0, end_ns: 300.0 };
        let mut used = Engine::new(TT_BITS).with_clock(clock);
        let mut rng = StdRng::seed_from_u64(32);
        let budget = Duration::from_millis(100);
        for round in 0..6 {
            let pos = random_position(&mut rng, [40, 22, 12][round % 3], 2);
            let fresh = Engine::new(TT_BITS).with_clock(clock).analyze(PatternEval::shared(), &pos, budget);
            assert!(!fresh.0.is_empty(), "{}", pos.to_text());
            // Twice: the second time the table holds this very position's search.
            for time in 0..2 {
                let again = used.analyze(PatternEval::shared(), &pos, budget);
                assert_eq!(again, fresh, "round {round}, time {time}: {}", pos.to_text());
            }
            // Dirty the table with a reply somewhere else before the next round.
            let other = random_position(&mut rng, 30, 2);
            used.choose_at_level(
                PatternEval::shared(),
                &other,
                ReversiLevel::None,
                budget,
                &[],
                &mut StdRng::seed_from_u64(round as u64),
            );
        }
    }

    #[test]
    fn strong_level_plays_perfectly_near_the_end() {
        let mut rng = StdRng::seed_from_u64(14);
        let mut engine = Engine::new(TT_BITS);
        for _ in 0..6 {
            let pos = random_position(&mut rng, 14, 2);
            let r = choose_at_level(&mut engine, &pos, ReversiLevel::None, &[], &mut rng);
            assert_eq!(r.stage, Stage::Exact);
            let exact = solve(&pos).score;
            assert_eq!(r.evals[0].1, exact * DISC);
            // The move played achieves the exact value.
            assert_eq!(-solve(&pos.play(r.best).unwrap()).score, exact, "{}", pos.to_text());
        }
    }

    #[test]
    fn every_level_answers_legally_within_its_time() {
        let mut rng = StdRng::seed_from_u64(15);
        for empties in [58, 44, 30, 20, 13, 12, 8] {
            let pos = random_position(&mut rng, empties, 2);
            for level in [ReversiLevel::Standard, ReversiLevel::Highest, ReversiLevel::None] {
                let budget = Duration::from_millis(300);
                let r = reply_on_node_clock(&pos, level, budget, &mut rng);
                assert!(pos.is_legal(r.best), "{level:?} {}", pos.to_text());
                assert!(!r.evals.is_empty());
                // Deadline plus the allowance for the nodes searched between two looks at the clock.
                let limit = if level == ReversiLevel::None { budget } else { budget.min(SONTAKU_BUDGET) };
                assert!(
                    r.time < limit + Duration::from_millis(150),
                    "{level:?} took {:?} at {empties} empties",
                    r.time
                );
            }
        }
    }

    #[test]
    fn forced_moves_and_finished_games() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut engine = Engine::new(TT_BITS);
        let pass = Position::from_bitboards(1, 2, Color::White).unwrap();
        for level in [ReversiLevel::Standard, ReversiLevel::Highest, ReversiLevel::None] {
            let r = choose_at_level(&mut engine, &pass, level, &[], &mut rng);
            assert_eq!((r.best, r.stage), (Move::Pass, Stage::Forced));
            let end = Position::from_bitboards(7, 0, Color::White).unwrap();
            assert_eq!(choose_at_level(&mut engine, &end, level, &[], &mut rng).stage, Stage::GameOver);
        }
    }

    #[test]
    fn opening_moves_vary_within_a_disc_and_a_half() {
        let pos = Position::start().play("f5".parse().unwrap()).unwrap();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..12 {
            let mut rng = StdRng::seed_from_u64(seed);
            let r = reply_on_node_clock(&pos, ReversiLevel::None, Duration::from_millis(150), &mut rng);
            let top = r.evals[0].1;
            let mine = r.evals.iter().find(|e| e.0 == r.best).unwrap().1;
            assert!(mine >= top - OPENING_MARGIN);
            seen.insert(r.best);
        }
        // After f5 the diagonal (f4/f6) and perpendicular (d6) replies are close in value.
        assert!(seen.len() >= 2, "{seen:?}");
    }
}
