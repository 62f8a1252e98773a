//! The classic evaluation (square table with corner cancellation, mobility, discs late in the
//! game) and the plain fixed-depth search on it that the guests of the hospitality benchmark,
//! the trainer's self-play, the gallery and `settai-lab bench` use.
//!
//! The search is the shared engine ([`Engine::pvs`]) with the [`Classic`] objective, every root
//! move searched with a full window, so each gets its exact negamax value at the given depth
//! (the transposition table and move ordering change how many nodes it takes, not a value).
//! `sontaku`'s `highest` reads the human's advantage with the same evaluation ([`eval_pp`]).
//!
//! Scores are from the side to move's view. Exact results are the final disc margin (empty
//! squares going to the winner, as in tournament scoring) times [`DISC_SCORE`]; heuristic
//! evaluations stay strictly within ±[`DISC_SCORE`], so any proven win outranks any estimate.

use rand::Rng;

use crate::reversi::engine::search::{final_margin, Children, Engine, Objective, INF};
use crate::reversi::rules::board::{moves, Move, Position, Square};

/// Score of one disc of exact final margin; larger than any heuristic evaluation.
pub const DISC_SCORE: i32 = 1000;

/// With this many empty squares or fewer the classic searches ([`search`], [`choose_move`]) solve
/// the root exactly to the end of the game (the strong level has its own threshold).
pub const CLASSIC_EXACT_EMPTIES: u32 = 12;

/// Heuristic evaluations are clamped to this so they never reach one disc of exact margin.
const EVAL_LIMIT: i32 = DISC_SCORE - 1;

/// Transposition table of the engines [`search`] and [`choose_move`] make (2^16 entries, 2 MiB):
/// their searches are small, and a bigger table costs more to allocate than it saves.
pub const CLASSIC_TT_BITS: u32 = 16;

/// Result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searched {
    /// The chosen move (`Pass` when passing is forced; also `Pass` if the game is already over).
    pub best: Move,
    /// Score of `best` from the side to move's view (see the module docs for units).
    pub score: i32,
    /// Every legal root move with its score, in square order (empty if the game is over).
    pub scores: Vec<(Move, i32)>,
    /// Positions visited.
    pub nodes: u64,
    /// Plies searched (the number of empties when the position was solved exactly).
    pub depth: u32,
}

/// The classic square-value table, row by row from a1.
#[rustfmt::skip]
const SQUARE_VALUES: [i32; 64] = [
    120, -20,  20,   5,   5,  20, -20, 120,
    -20, -40,  -5,  -5,  -5,  -5, -40, -20,
     20,  -5,  15,   3,   3,  15,  -5,  20,
      5,  -5,   3,   3,   3,   3,  -5,   5,
      5,  -5,   3,   3,   3,   3,  -5,   5,
     20,  -5,  15,   3,   3,  15,  -5,  20,
    -20, -40,  -5,  -5,  -5,  -5, -40, -20,
    120, -20,  20,   5,   5,  20, -20, 120,
];

/// Distinct table values with the mask of squares holding each, so evaluation is a few popcounts.
pub(in crate::reversi) const VALUE_CLASSES: [(i32, u64); 8] = {
    const VALUES: [i32; 8] = [120, -20, 20, 5, -40, -5, 15, 3];
    let mut classes = [(0, 0u64); 8];
    let mut i = 0;
    while i < 8 {
        let mut mask = 0u64;
        let mut sq = 0;
        while sq < 64 {
            if SQUARE_VALUES[sq] == VALUES[i] {
                mask |= 1 << sq;
            }
            sq += 1;
        }
        classes[i] = (VALUES[i], mask);
        i += 1;
    }
    classes
};

/// Each corner with its X- and C-squares, whose penalties lapse once the corner is taken.
pub(in crate::reversi) const CORNER_NEIGHBOURS: [(u64, u64); 4] = [
    (1 << 0, (1 << 1) | (1 << 8) | (1 << 9)),
    (1 << 7, (1 << 6) | (1 << 15) | (1 << 14)),
    (1 << 56, (1 << 57) | (1 << 48) | (1 << 49)),
    (1 << 63, (1 << 62) | (1 << 55) | (1 << 54)),
];

fn popcount_diff(p: u64, o: u64) -> i32 {
    p.count_ones() as i32 - o.count_ones() as i32
}

/// Heuristic evaluation from the side to move's view (exact at game end).
pub fn simple_eval(pos: &Position) -> i32 {
    eval_pp(pos.player(), pos.opponent())
}

/// Evaluation for player `p` against `o`.
pub fn eval_pp(p: u64, o: u64) -> i32 {
    eval_pp_with_moves(p, o, moves(p, o))
}

/// [`eval_pp`] given `p`'s legal moves `my_moves`, which a search leaf has already generated.
#[inline]
pub(in crate::reversi) fn eval_pp_with_moves(p: u64, o: u64, my_moves: u64) -> i32 {
    let their_moves = moves(o, p);
    if my_moves == 0 && their_moves == 0 {
        return final_margin(p, o) * DISC_SCORE;
    }
    let occupied = p | o;
    let mut score = square_score(p, o);
    score += 12 * popcount_diff(my_moves, their_moves);
    // Discs only start to matter as the end nears; the weight grows with each move.
    let empties = 64 - occupied.count_ones() as i32;
    if empties <= 16 {
        score += 2 * (17 - empties) * popcount_diff(p, o);
    }
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// Square-table part of the evaluation for `p` against `o` (the classic table, X/C-square
/// penalties cancelled once their corner is taken).
pub fn square_score(p: u64, o: u64) -> i32 {
    let occupied = p | o;
    // X- and C-squares next to a taken corner are no longer dangerous, so their penalty lapses.
    let mut cancelled = 0;
    for (corner, neighbours) in CORNER_NEIGHBOURS {
        if occupied & corner != 0 {
            cancelled |= neighbours;
        }
    }
    let mut score = 0;
    for (value, mask) in VALUE_CLASSES {
        let mask = if value < -10 { mask & !cancelled } else { mask };
        score += value * popcount_diff(p & mask, o & mask);
    }
    score
}

/// The classic evaluation as an [`Objective`] for the side to move (the searching side plays for
/// itself, so `cpu` does not matter): [`eval_pp`], and the final margin × [`DISC_SCORE`] once
/// the game is over.
pub(crate) struct Classic;

impl Objective for Classic {
    type Features = ();
    #[inline]
    fn eval_with_moves(&self, p: u64, o: u64, mask: u64, _: &(), _: bool) -> i32 {
        eval_pp_with_moves(p, o, mask)
    }
    #[inline]
    fn terminal(&self, p: u64, o: u64, _: bool) -> i32 {
        final_margin(p, o) * DISC_SCORE
    }
}

impl Engine {
    /// [`search_with`] on this engine. The table and history are cleared first (a value found
    /// at another depth must not leak into this one) and a deadline set on the engine is
    /// ignored: the search always completes.
    pub(crate) fn classic(&mut self, pos: &Position, depth: u32, exact_from: u32) -> Searched {
        let depth = depth.max(1);
        let (p, o) = (pos.player(), pos.opponent());
        let empties = pos.empties();
        let mask = moves(p, o);
        if mask == 0 && moves(o, p) == 0 {
            let score = Classic.terminal(p, o, true);
            return Searched { best: Move::Pass, score, scores: Vec::new(), nodes: 1, depth: 0 };
        }
        let exact = empties <= exact_from.max(depth);
        // Reading to the end is the same search with more plies than any line has.
        let plies = if exact { 64 } else { depth };
        self.clear();
        let deadline = self.deadline.take();
        self.aborted = false;
        let start = self.nodes;
        let mut value = |p: u64, o: u64| -self.pvs(&Classic, p, o, plies - 1, -INF, INF, false);
        let scores: Vec<(Move, i32)> = if mask == 0 {
            vec![(Move::Pass, value(o, p))]
        } else {
            let children = Children::new(p, o, mask);
            children.list[..children.len]
                .iter()
                .map(|c| (Move::Place(Square::new(c.sq).expect("move squares are below 64")), value(c.p, c.o)))
                .collect()
        };
        self.deadline = deadline;
        let (best, score) = scores
            .iter()
            .copied()
            .reduce(|a, b| if b.1 > a.1 { b } else { a })
            .expect("a position that is not over has at least one move");
        let nodes = self.nodes - start + 1;
        Searched { best, score, scores, nodes, depth: if exact { empties } else { depth } }
    }

    /// [`choose_move_with`] on this engine (see [`Engine::classic`]).
    pub fn choose_classic(&mut self, pos: &Position, depth: u32, exact_from: u32, rng: &mut impl Rng) -> Searched {
        let mut analysis = self.classic(pos, depth, exact_from);
        let tied: Vec<Move> = analysis.scores.iter().filter(|(_, s)| *s == analysis.score).map(|(m, _)| *m).collect();
        if !tied.is_empty() {
            analysis.best = tied[rng.gen_range(0..tied.len())];
        }
        analysis
    }
}

/// Searches `pos` to `depth` plies (at least 1), or exactly to the end when at most
/// `max(CLASSIC_EXACT_EMPTIES, depth)` squares are empty, scoring every root move with a full window.
/// Deterministic: ties go to the first move in square order.
pub fn search(pos: &Position, depth: u32) -> Searched {
    search_with(pos, depth, CLASSIC_EXACT_EMPTIES)
}

/// [`search`] that reads to the end only from `exact_from` empties (or when `depth` reaches
/// it): `search_with(pos, d, 0)` is a plain depth-`d` alpha-beta.
pub fn search_with(pos: &Position, depth: u32, exact_from: u32) -> Searched {
    Engine::new(CLASSIC_TT_BITS).classic(pos, depth, exact_from)
}

/// Like [`search`], but picks uniformly among the moves sharing the best score.
pub fn choose_move(pos: &Position, depth: u32, rng: &mut impl Rng) -> Searched {
    choose_move_with(pos, depth, CLASSIC_EXACT_EMPTIES, rng)
}

/// [`choose_move`] over [`search_with`].
pub fn choose_move_with(pos: &Position, depth: u32, exact_from: u32, rng: &mut impl Rng) -> Searched {
    Engine::new(CLASSIC_TT_BITS).choose_classic(pos, depth, exact_from, rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::engine::search::Clock;
    use crate::reversi::rules::board::Color;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use crate::reversi::rules::naive::random_playout as random_position;

    /// Plain full-width negamax through the public API, with no pruning: the reference.
    fn reference_value(pos: &Position) -> i32 {
        if let Some(out) = pos.outcome() {
            let (me, them) = match pos.turn() {
                Color::Black => (out.black as i32, out.white as i32),
                Color::White => (out.white as i32, out.black as i32),
            };
            let empties = pos.empties() as i32;
            let margin = match (me - them).signum() {
                1 => me - them + empties,
                -1 => me - them - empties,
                _ => 0,
            };
            return margin * DISC_SCORE;
        }
        pos.legal_moves().into_iter().map(|m| -reference_value(&pos.play(m).unwrap())).max().unwrap()
    }

    #[test]
    fn square_table_cancels_penalties_next_to_taken_corners() {
        let (a1, b1, a2, b2, c3) = (1u64, 1u64 << 1, 1u64 << 8, 1u64 << 9, 1u64 << 18);
        assert_eq!(square_score(b2, 0), -40);
        assert_eq!(square_score(b1 | a2, 0), -40);
        assert_eq!(square_score(c3, 0), 15);
        // Own corner: the X- and C-squares beside it stop costing anything.
        assert_eq!(square_score(a1 | b2 | b1 | a2, 0), 120);
        // Opponent's corner cancels them too ("owned by anyone").
        assert_eq!(square_score(b2 | b1, a1), -120);
        // Other corners do not.
        assert_eq!(square_score(b2, 1 << 63), -40 - 120);
    }

    #[test]
    fn eval_is_colour_symmetric_and_counts_mobility() {
        let mut rng = StdRng::seed_from_u64(8);
        for plies in [4, 12, 30, 50] {
            let pos = random_position(&mut rng, plies);
            let swapped = Position::from_bitboards(pos.white(), pos.black(), pos.turn().opposite()).unwrap();
            assert_eq!(simple_eval(&pos), simple_eval(&swapped));
        }
        // Start position: symmetric material and 4 moves each, so exactly 0.
        assert_eq!(simple_eval(&Position::start()), 0);
        // After f5 white has 3 moves, black 3 ... mobility and squares both enter the score.
        let after = Position::start().play("f5".parse().unwrap()).unwrap();
        let (p, o) = (after.player(), after.opponent());
        let expected = square_score(p, o) + 12 * (moves(p, o).count_ones() as i32 - moves(o, p).count_ones() as i32);
        assert_eq!(simple_eval(&after), expected);
    }

    #[test]
    fn eval_is_exact_at_game_end() {
        // Black a1..c1, nothing else: game over, black wins 3-0 with 61 empties credited.
        let pos = Position::from_bitboards(0b111, 0, Color::White).unwrap();
        assert!(pos.is_game_over());
        assert_eq!(simple_eval(&pos), -64 * DISC_SCORE);
        let a = search(&pos, 4);
        assert_eq!((a.best, a.score, a.scores.len()), (Move::Pass, -64 * DISC_SCORE, 0));
    }

    #[test]
    fn takes_a_winning_corner() {
        // Black can take a1 (flipping white's top edge); if it does not, white takes a1 next
        // by flanking black a2 against the white a-file.
        let pos: Position = concat!(
            "-OOOOOOX", "X-------", "O-------", "O--OX---", "O--XO---", "O-------", "O-------", "O-------", " X"
        )
        .parse()
        .unwrap();
        assert!(pos.legal_moves().len() > 2);
        let a1 = Move::Place("a1".parse().unwrap());
        for depth in [1, 2, 3, 4] {
            let a = search(&pos, depth);
            assert_eq!(a.best, a1, "depth {depth}");
            let second = a.scores.iter().filter(|(m, _)| *m != a1).map(|(_, s)| *s).max().unwrap();
            assert!(a.score > second + 100, "corner should be clearly best: {:?}", a.scores);
        }
    }

    #[test]
    fn returns_pass_when_passing_is_the_only_move() {
        // White b1 next to black a1: white has no move, black has c1.
        let pos = Position::from_bitboards(1, 2, Color::White).unwrap();
        let a = search(&pos, 4);
        assert_eq!(a.best, Move::Pass);
        assert_eq!(a.scores.len(), 1);
        // After the pass black plays c1 and wins 3-0, all 61 empties credited.
        assert_eq!(a.score, -64 * DISC_SCORE);
        let mut rng = StdRng::seed_from_u64(1);
        assert_eq!(choose_move(&pos, 4, &mut rng).best, Move::Pass);
    }

    #[test]
    fn exact_search_matches_full_width_negamax_on_small_endgames() {
        let mut rng = StdRng::seed_from_u64(99);
        let mut decisive = 0;
        for _ in 0..12 {
            let plies = 52 + rng.gen_range(0..3);
            let pos = random_position(&mut rng, plies);
            if pos.is_game_over() {
                continue;
            }
            let a = search(&pos, 6);
            assert_eq!(a.depth, pos.empties());
            let legal = pos.legal_moves();
            assert_eq!(a.scores.iter().map(|(m, _)| *m).collect::<Vec<_>>(), legal);
            for &(m, score) in &a.scores {
                assert_eq!(score, -reference_value(&pos.play(m).unwrap()), "{} {m}", pos.to_text());
            }
            assert_eq!(a.score, reference_value(&pos));
            // Count positions where the choice decides between winning and not winning.
            let wins = a.scores.iter().filter(|(_, s)| *s > 0).count();
            if wins > 0 && wins < a.scores.len() {
                decisive += 1;
                assert!(a.score > 0, "a forced win exists and must be found");
            }
        }
        assert!(decisive > 0, "sample should include a position where only some moves win");
    }

    #[test]
    fn depth_limited_search_agrees_with_reference_when_the_end_is_in_reach() {
        // With unbounded depth the midgame search reaches every game end, so it must be exact.
        let mut rng = StdRng::seed_from_u64(5);
        let mut engine = Engine::new(CLASSIC_TT_BITS);
        for _ in 0..6 {
            let pos = random_position(&mut rng, 53);
            if pos.is_game_over() {
                continue;
            }
            let (p, o) = (pos.player(), pos.opponent());
            let v = engine.pvs(&Classic, p, o, 64, -INF, INF, true);
            assert_eq!(v, reference_value(&pos), "{}", pos.to_text());
        }
    }

    #[test]
    fn a_reused_engine_answers_as_a_fresh_one() {
        // The table is cleared between searches: a value stored at one depth must not be
        // reused at another, nor a deadline left on the engine cut the search short.
        let mut rng = StdRng::seed_from_u64(18);
        let mut engine = Engine::new(CLASSIC_TT_BITS).with_clock(Clock::Wall(std::time::Instant::now));
        engine.set_deadline(Some(engine.now()));
        for plies in [10, 20, 30, 40, 48] {
            let pos = random_position(&mut rng, plies);
            if pos.is_game_over() {
                continue;
            }
            for depth in [5, 3, 4] {
                assert_eq!(engine.classic(&pos, depth, 0).scores, search_with(&pos, depth, 0).scores);
            }
        }
    }

    #[test]
    fn never_returns_an_illegal_move() {
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..4 {
            let mut pos = Position::start();
            while !pos.is_game_over() {
                let a = choose_move(&pos, 2, &mut rng);
                assert!(pos.is_legal(a.best), "{} chose {}", pos.to_text(), a.best);
                let best_score = a.scores.iter().map(|(_, s)| *s).max().unwrap();
                assert_eq!(a.score, best_score);
                assert!(a.scores.contains(&(a.best, a.score)));
                pos = pos.play(a.best).unwrap();
            }
        }
    }

    #[test]
    fn choose_move_breaks_ties_randomly_and_search_is_deterministic() {
        // From the start all four moves are symmetric, so they must score the same.
        let start = Position::start();
        let a = search(&start, 3);
        assert_eq!(a, search(&start, 3));
        assert!(a.scores.iter().all(|(_, s)| *s == a.score));
        assert_eq!(a.best, a.scores[0].0, "ties go to the first move in square order");
        let mut rng = StdRng::seed_from_u64(11);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..40 {
            seen.insert(choose_move(&start, 3, &mut rng).best);
        }
        assert_eq!(seen.len(), 4);
    }

    #[test]
    fn depth_four_beats_a_random_player() {
        let mut rng = StdRng::seed_from_u64(20240601);
        let mut ai_wins = 0;
        for game in 0..20 {
            let ai_color = if game % 2 == 0 { Color::Black } else { Color::White };
            let mut pos = Position::start();
            while !pos.is_game_over() {
                let m = if pos.turn() == ai_color {
                    choose_move(&pos, 4, &mut rng).best
                } else {
                    let legal = pos.legal_moves();
                    legal[rng.gen_range(0..legal.len())]
                };
                pos = pos.play(m).unwrap();
            }
            if pos.outcome().unwrap().winner() == Some(ai_color) {
                ai_wins += 1;
            }
        }
        assert!(ai_wins >= 18, "AI won only {ai_wins} of 20");
    }
}
