//! Engine against engine: the games of a match between two players, each opening played twice
//! with the colours swapped.
//!
//! Searches run on the clock a match is given, the node clock in practice
//! ([`Clock::Nodes`]), and each pair of games draws its random choices (the strong level varies
//! its first moves) from a seed of its own: a match is a pure function of its seed, repeats
//! exactly, and its games may run on any number of threads. Both games of a pair share the
//! seed, so two copies of one player replay the same game with the colours swapped.

use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::elo::Tally;
use super::openings::Opening;
use settai_core::reversi::{
    final_margin, Clock, Color, Engine, Move, PatternEval, Position, ReversiLevel, CLASSIC_TT_BITS, TT_BITS,
};

/// A player of engine matches.
#[derive(Debug, Clone, Copy)]
pub enum Player<'a> {
    /// The strong level (`none`) with these weights.
    Strong(&'a PatternEval),
    /// The strong level as it was when the baseline was frozen (2026-12-02: no ProbCut) with
    /// these weights.
    Baseline(&'a PatternEval),
    /// The classic evaluation's fixed-depth alpha-beta (a weak sanity opponent).
    AlphaBeta(u32),
}

/// How long players think and on which clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchSettings {
    /// Thinking time of the strong level per move (alpha-beta searches its depth).
    pub budget: Duration,
    /// The clocks A's and B's deadlines are read on, in that order: the node clock in practice,
    /// each at the rates of the build it stands for, so that an engine whose nodes became
    /// cheaper searches more of them in the same time, as it does on the wall clock.
    pub clocks: [Clock; 2],
}

/// What one side spent over a game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Effort {
    /// Moves chosen among two or more placements (forced moves cost nothing).
    pub searched: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Thinking time on the player's clock (zero for alpha-beta, which has none).
    pub thinking: Duration,
}

/// A finished game of a duel (not the service's `Played`, what a request changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuelGame {
    /// The moves after the opening, passes included.
    pub moves: Vec<Move>,
    /// The final position.
    pub end: Position,
    /// What black and white spent, in that order.
    pub effort: [Effort; 2],
}

impl DuelGame {
    /// Black's final margin, empty squares going to the winner.
    pub fn black_margin(&self) -> i32 {
        final_margin(self.end.black(), self.end.white())
    }
}

/// A player with the engine it searches with.
struct Seat<'a> {
    player: Player<'a>,
    engine: Engine,
}

impl<'a> Seat<'a> {
    fn new(player: Player<'a>, clock: Clock) -> Seat<'a> {
        let engine = match player {
            Player::Strong(_) => Engine::new(TT_BITS).with_clock(clock),
            Player::Baseline(_) => Engine::new(TT_BITS).with_clock(clock).without_probcut(),
            Player::AlphaBeta(_) => Engine::new(CLASSIC_TT_BITS),
        };
        Seat { player, engine }
    }

    /// The move in `pos` (not over), with its nodes and thinking time.
    fn choose(&mut self, pos: &Position, budget: Duration, rng: &mut impl Rng) -> (Move, u64, Duration) {
        match self.player {
            Player::Strong(eval) | Player::Baseline(eval) => {
                let r = self.engine.choose_at_level(eval, pos, ReversiLevel::NoMercy, budget, &[], rng);
                (r.best, r.nodes, r.time)
            }
            Player::AlphaBeta(depth) => {
                let a = self.engine.choose_classic(pos, depth, 0, rng);
                (a.best, a.nodes, Duration::ZERO)
            }
        }
    }
}

/// Plays `opening` to the end, `black` against `white`, each thinking `budget` per move on its
/// clock (`clocks`: black's, white's).
pub fn play_game(
    black: Player<'_>,
    white: Player<'_>,
    clocks: [Clock; 2],
    budget: Duration,
    opening: &Opening,
    rng: &mut impl Rng,
) -> DuelGame {
    let mut seats = [Seat::new(black, clocks[0]), Seat::new(white, clocks[1])];
    let mut effort = [Effort::default(); 2];
    let mut pos = opening.position;
    let mut moves = Vec::new();
    while !pos.is_game_over() {
        let side = usize::from(pos.turn() == Color::White);
        let (mv, nodes, thinking) = seats[side].choose(&pos, budget, rng);
        if pos.legal_mask().count_ones() > 1 {
            let e = &mut effort[side];
            e.searched += 1;
            e.nodes += nodes;
            e.thinking += thinking;
        }
        pos = pos.play(mv).expect("players answer with legal moves");
        moves.push(mv);
    }
    DuelGame { moves, end: pos, effort }
}

/// One game of a match: the pair it belongs to, its opening and A's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixture {
    /// The pair (0-based); its two games share the opening and the seed.
    pub pair: usize,
    /// Index of the opening.
    pub opening: usize,
    /// A's colour.
    pub a: Color,
}

impl Fixture {
    /// Its place among [`fixtures`] (0-based).
    pub fn index(&self) -> usize {
        2 * self.pair + usize::from(self.a == Color::White)
    }
}

/// The games of a match: `games` rounded up to whole pairs; pair i plays opening i (cycling
/// when there are more pairs than openings), A black first, then white.
pub fn fixtures(games: usize, openings: usize) -> Vec<Fixture> {
    assert!(openings > 0, "a match needs an opening");
    (0..games.div_ceil(2))
        .flat_map(|pair| [Color::Black, Color::White].map(|a| Fixture { pair, opening: pair % openings, a }))
        .collect()
}

/// A game of a match, seen from A.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixtureResult {
    /// Which game it was.
    pub fixture: Fixture,
    /// The game.
    pub game: DuelGame,
}

impl FixtureResult {
    /// A's final margin (empty squares to the winner).
    pub fn a_margin(&self) -> i32 {
        match self.fixture.a {
            Color::Black => self.game.black_margin(),
            Color::White => -self.game.black_margin(),
        }
    }

    /// A's points: 1 for a win, ½ for a draw.
    pub fn a_points(&self) -> f64 {
        match self.a_margin().signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    }

    /// What A and B spent, in that order.
    pub fn effort(&self) -> [Effort; 2] {
        let [black, white] = self.game.effort;
        match self.fixture.a {
            Color::Black => [black, white],
            Color::White => [white, black],
        }
    }
}

/// The seed of pair `pair` in a match seeded with `seed` (StdRng spreads nearby seeds apart).
fn pair_seed(seed: u64, pair: usize) -> u64 {
    seed.rotate_left(32) ^ pair as u64
}

/// Plays every fixture, A against B, on the current rayon pool; `done` hears of each game as it
/// ends (for progress). Results come in fixture order whatever the threads.
pub fn play_match(
    a: Player<'_>,
    b: Player<'_>,
    openings: &[Opening],
    fixtures: &[Fixture],
    settings: &MatchSettings,
    seed: u64,
    done: impl Fn(&FixtureResult) + Sync,
) -> Vec<FixtureResult> {
    fixtures
        .par_iter()
        .map(|&fixture| {
            let mut rng = StdRng::seed_from_u64(pair_seed(seed, fixture.pair));
            let [clock_a, clock_b] = settings.clocks;
            let game = if fixture.a == Color::Black {
                play_game(a, b, [clock_a, clock_b], settings.budget, &openings[fixture.opening], &mut rng)
            } else {
                play_game(b, a, [clock_b, clock_a], settings.budget, &openings[fixture.opening], &mut rng)
            };
            let outcome = FixtureResult { fixture, game };
            done(&outcome);
            outcome
        })
        .collect()
}

/// A fingerprint of how `a` and `b` play on their clocks in `settings`: each chooses a move in a few
/// fixed positions on a short budget, and the moves and node counts are hashed (FNV-1a). Any
/// change to an engine that could change a game (evaluation, ordering, pruning, time manager)
/// changes its node counts, so a match journal written by one build is only resumed by a build
/// that plays the same games; a change that is only faster (the node clock) keeps it.
pub fn fingerprint(a: Player<'_>, b: Player<'_>, settings: &MatchSettings) -> u64 {
    const LINES: [&str; 3] = ["", "d3 e3 f3 c3 b3 c5 f6 f5", "f5 f4 c3 d6 f3 g3 f6 e3"];
    let budget = Duration::from_millis(20);
    let mut hash = FNV_START;
    let mut mix = |x: u64| hash = fnv1a(hash, &x.to_le_bytes());
    let mut positions: Vec<Position> = LINES
        .iter()
        .map(|line| {
            let moves = settai_core::reversi::parse_moves(line).expect("fingerprint lines are legal");
            moves.iter().try_fold(Position::start(), |p, &m| p.play(m)).expect("fingerprint lines are legal")
        })
        .collect();
    // And one the strong level solves exactly, so that the endgame solver is fingerprinted too:
    // 46 plies of the first legal move in square order, 18 empties left.
    let mut late = Position::start();
    for _ in 0..46 {
        late = late.play(late.legal_moves()[0]).expect("a legal move");
    }
    positions.push(late);
    for (player, clock) in [a, b].into_iter().zip(settings.clocks) {
        for &pos in &positions {
            let mut rng = StdRng::seed_from_u64(0);
            let (mv, nodes, _) = Seat::new(player, clock).choose(&pos, budget, &mut rng);
            mix(u64::from(mv.to_string().bytes().fold(0u32, |h, c| h * 31 + u32::from(c))));
            mix(nodes);
        }
    }
    hash
}

/// Where an FNV-1a hash starts.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over `bytes`, continuing from `hash`: unlike std's hasher it is the same in every
/// build, so its values may be kept in files.
pub fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A's wins, draws and losses.
pub fn tally(outcomes: &[FixtureResult]) -> Tally {
    let mut t = Tally::default();
    for o in outcomes {
        match o.a_margin().signum() {
            1 => t.wins += 1,
            0 => t.draws += 1,
            _ => t.losses += 1,
        }
    }
    t
}

/// A's points in each complete pair (0, ½, ..., 2), in pair order.
pub fn pair_points(outcomes: &[FixtureResult]) -> Vec<f64> {
    let mut points = std::collections::BTreeMap::<usize, (u32, f64)>::new();
    for o in outcomes {
        let e = points.entry(o.fixture.pair).or_default();
        e.0 += 1;
        e.1 += o.a_points();
    }
    points.into_values().filter(|&(games, _)| games == 2).map(|(_, p)| p).collect()
}

#[cfg(test)]
mod tests {
    use super::super::openings::parse_openings;
    use super::*;

    /// The strong level's node clock at the project machine's rates (as the hospitality
    /// benchmark's), so these games do not depend on the load.
    const CLOCK: Clock = Clock::Nodes { mid_ns: 455.0, end_ns: settai_core::reversi::END_NODE_NS };

    fn openings() -> Vec<Opening> {
        parse_openings("f5 d6 c3 d3 c4 f4\nf5 f6 e6 f4 e3 c5\nf5 f4 e3 d6 c5 f6").unwrap()
    }

    fn tiny() -> MatchSettings {
        MatchSettings { budget: Duration::from_millis(4), clocks: [CLOCK; 2] }
    }

    #[test]
    fn fixtures_pair_each_opening_with_both_colours() {
        let f = fixtures(5, 2);
        assert_eq!(f.len(), 6, "rounded up to whole pairs");
        for (i, x) in f.iter().enumerate() {
            assert_eq!(x.pair, i / 2);
            assert_eq!(x.opening, (i / 2) % 2);
            assert_eq!(x.a, if i % 2 == 0 { Color::Black } else { Color::White });
        }
    }

    #[test]
    fn a_match_repeats_from_its_seed_and_swaps_colours_within_each_pair() {
        let eval = &PatternEval::builtin();
        let (a, b) = (Player::Strong(eval), Player::AlphaBeta(2));
        let (openings, fixtures) = (openings(), fixtures(4, 3));
        let count = std::sync::atomic::AtomicUsize::new(0);
        let first = play_match(a, b, &openings, &fixtures, &tiny(), 7, |_| {
            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(count.into_inner(), 4);
        let again = play_match(a, b, &openings, &fixtures, &tiny(), 7, |_| ());
        assert_eq!(first, again);
        for (o, f) in first.iter().zip(&fixtures) {
            assert_eq!(o.fixture, *f);
            assert!(o.game.end.is_game_over());
            // The game went on from its opening: replaying it from there is legal.
            let replayed = o.game.moves.iter().try_fold(openings[f.opening].position, |p, &m| p.play(m));
            assert_eq!(replayed, Ok(o.game.end));
            let [ea, eb] = o.effort();
            assert!(ea.searched > 0 && ea.nodes > 0 && ea.thinking > Duration::ZERO, "{ea:?}");
            assert!(eb.searched > 0 && eb.nodes > 0 && eb.thinking == Duration::ZERO, "{eb:?}");
        }
        assert_eq!(pair_points(&first).len(), 2);
        assert_eq!(tally(&first).games(), 4);
    }

    /// Both games of a pair share their seed, so a player against itself plays the same moves
    /// with the colours swapped, and each pair scores exactly one point.
    #[test]
    fn a_player_against_itself_replays_each_pair_with_the_colours_swapped() {
        let eval = &PatternEval::builtin();
        let p = Player::Strong(eval);
        let out = play_match(p, p, &openings(), &fixtures(4, 3), &tiny(), 3, |_| ());
        for pair in out.chunks(2) {
            assert_eq!(pair[0].game, pair[1].game);
            assert_eq!(pair[0].a_margin(), -pair[1].a_margin());
        }
        assert_eq!(pair_points(&out), [1.0, 1.0]);
        // Another seed varies the strong level's first moves.
        let other = play_match(p, p, &openings(), &fixtures(4, 3), &tiny(), 4, |_| ());
        assert_ne!(out, other);
    }

    /// Each side thinks on its own clock whatever its colour: with its nodes half as dear, A
    /// searches about twice the nodes of an identical B in the same time; and the fingerprint
    /// tells the clocks apart.
    #[test]
    fn each_side_thinks_on_its_own_clock() {
        let eval = &PatternEval::builtin();
        let p = Player::Strong(eval);
        let Clock::Nodes { mid_ns, end_ns } = CLOCK else { unreachable!() };
        let cheap = Clock::Nodes { mid_ns: mid_ns / 2.0, end_ns: end_ns / 2.0 };
        let s = MatchSettings { budget: Duration::from_millis(4), clocks: [cheap, CLOCK] };
        let out = play_match(p, p, &openings(), &fixtures(6, 3), &s, 3, |_| ());
        let (mut a, mut b) = (0u64, 0u64);
        for o in &out {
            let [black, white] = o.game.effort;
            let (mine, theirs) = if o.fixture.a == Color::Black { (black, white) } else { (white, black) };
            a += mine.nodes / u64::from(mine.searched.max(1));
            b += theirs.nodes / u64::from(theirs.searched.max(1));
        }
        assert!(a as f64 > 1.5 * b as f64, "nodes per move: A {a}, B {b}");
        assert_ne!(fingerprint(p, p, &s), fingerprint(p, p, &tiny()));
    }

    /// The fingerprint repeats, and tells engines that play differently apart (ProbCut or not,
    /// other weights, other depths).
    #[test]
    fn the_fingerprint_repeats_and_tells_engines_apart() {
        let (eval, zero) = (&PatternEval::builtin(), PatternEval::zero());
        let s = tiny();
        let f = |a, b| fingerprint(a, b, &s);
        let strong = f(Player::Strong(eval), Player::AlphaBeta(2));
        assert_eq!(strong, f(Player::Strong(eval), Player::AlphaBeta(2)));
        for other in [
            f(Player::Baseline(eval), Player::AlphaBeta(2)),
            f(Player::Strong(&zero), Player::AlphaBeta(2)),
            f(Player::Strong(eval), Player::AlphaBeta(3)),
            f(Player::AlphaBeta(2), Player::Strong(eval)),
        ] {
            assert_ne!(strong, other);
        }
    }

    #[test]
    fn the_strong_level_beats_one_ply_alpha_beta_clearly() {
        let eval = &PatternEval::builtin();
        let out =
            play_match(Player::Strong(eval), Player::AlphaBeta(1), &openings(), &fixtures(6, 3), &tiny(), 1, |_| ());
        let t = tally(&out);
        assert!(t.score() >= 5.0 / 6.0, "{t:?}");
        let mean = out.iter().map(FixtureResult::a_margin).sum::<i32>() as f64 / out.len() as f64;
        assert!(mean > 10.0, "mean margin {mean}");
    }
}
