//! Balanced openings for engine matches: short move sequences whose positions a deeper search
//! judges close to even, none the same as another up to the 8 board symmetries.
//!
//! A match plays each opening twice with the colours swapped, so an opening that favours one
//! side favours both players once; balanced ones keep the games informative (a lost position
//! teaches little about who plays better). The committed set is `assets/reversi/openings.txt`,
//! made by [`generate`] (`settai-lab bench openings`).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use thiserror::Error;

use settai_core::reversi::{
    parse_moves, replay, transform, Color, Engine, Move, MoveListError, ParseMoveError, PatternEval, Position, Strong,
    DISC,
};

/// An opening: the moves from the standard start and the position they reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The moves, black first.
    pub moves: Vec<Move>,
    /// The position after them.
    pub position: Position,
}

impl Opening {
    /// The moves in the project's notation, e.g. `f5 d6 c3`.
    pub fn text(&self) -> String {
        self.moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
    }
}

/// The same key for a position and its images under the 8 board symmetries (rotations and
/// reflections), so that "the same opening seen in a mirror" is recognised.
pub fn symmetry_key(pos: &Position) -> (u64, u64, Color) {
    let key = (0..8).map(|g| (transform(g, pos.black()), transform(g, pos.white()))).min().expect("8 symmetries");
    (key.0, key.1, pos.turn())
}

/// Why an openings file could not be used; names its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OpeningsError {
    /// A token is not a move.
    #[error("line {line}: {source}")]
    Notation {
        /// The line.
        line: usize,
        /// What is wrong with it.
        source: ParseMoveError,
    },
    /// A move is illegal where it is played.
    #[error("line {line}: {source}")]
    Illegal {
        /// The line.
        line: usize,
        /// Which move, and why.
        source: MoveListError,
    },
    /// The game is over after the opening (or the line is empty but for a comment marker).
    #[error("line {line}: the game is over after these moves")]
    Over {
        /// The line.
        line: usize,
    },
    /// The position is one an earlier line already reaches, or a mirror image of it.
    #[error("line {line}: the same position as line {first} (up to a rotation or reflection)")]
    Duplicate {
        /// The line.
        line: usize,
        /// The earlier line.
        first: usize,
    },
    /// No line holds an opening.
    #[error("no openings: every line is empty or a comment")]
    Empty,
}

/// Parses an openings file: one move sequence per line, `#` starts a comment, blank lines are
/// skipped. Every line must be legal from the start, leave a game to play, and reach a position
/// no earlier line reaches up to symmetry.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut seen = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let moves = parse_moves(body).map_err(|source| OpeningsError::Notation { line, source })?;
        let position = replay(&Position::start(), &moves).map_err(|source| OpeningsError::Illegal { line, source })?;
        if position.is_game_over() {
            return Err(OpeningsError::Over { line });
        }
        if let Some(&first) = seen.get(&symmetry_key(&position)) {
            return Err(OpeningsError::Duplicate { line, first });
        }
        seen.insert(symmetry_key(&position), line);
        out.push(Opening { moves, position });
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

/// What [`generate`] looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateConfig {
    /// Openings wanted.
    pub count: usize,
    /// Random plies from the start.
    pub plies: usize,
    /// Depth of the search that judges the balance.
    pub depth: u32,
    /// Largest accepted |value|, in 1/[`DISC`] discs.
    pub max_value: i32,
    /// Seed of the random lines.
    pub seed: u64,
}

/// A generated opening with its value in 1/[`DISC`] discs for black.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balanced {
    /// The opening.
    pub opening: Opening,
    /// The judging search's value for black.
    pub value: i32,
}

/// Candidates judged together: enough to keep two cores busy, few enough to waste little.
const BATCH: usize = 32;

/// Table size of the judging engines (2^18 entries, 8 MiB each).
const JUDGE_TT_BITS: u32 = 18;

/// Random lines of `config.plies` uniformly drawn legal placements (no pass), kept when new up
/// to symmetry and within `config.max_value` of even by a `config.depth` search with `eval`,
/// in the order drawn, until `config.count` are found. Deterministic: each candidate is judged
/// by an engine cleared first, so neither the thread count nor the order of judging matters.
/// Also returns how many distinct candidates were judged.
pub fn generate(config: &GenerateConfig, eval: &PatternEval) -> (Vec<Balanced>, usize) {
    let mut rng = StdRng::seed_from_u64(config.seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(config.count);
    let mut judged = 0;
    while out.len() < config.count {
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            if let Some(opening) = random_line(config.plies, &mut rng) {
                if seen.insert(symmetry_key(&opening.position)) {
                    batch.push(opening);
                }
            }
        }
        let values: Vec<i32> = batch
            .par_iter()
            .map_init(|| Engine::new(JUDGE_TT_BITS), |engine, o| black_value(engine, eval, &o.position, config.depth))
            .collect();
        for (opening, value) in batch.into_iter().zip(values) {
            judged += 1;
            if value.abs() <= config.max_value {
                out.push(Balanced { opening, value });
                if out.len() == config.count {
                    break;
                }
            }
        }
    }
    (out, judged)
}

/// `plies` random placements from the start, or `None` if a side had to pass or the game ended.
fn random_line(plies: usize, rng: &mut StdRng) -> Option<Opening> {
    let mut position = Position::start();
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = position.legal_moves();
        let &mv = legal.choose(rng)?;
        if mv == Move::Pass {
            return None;
        }
        position = position.play(mv).expect("a legal move");
        moves.push(mv);
    }
    (!position.is_game_over()).then_some(Opening { moves, position })
}

/// The value of `pos` for black by a fixed-depth search with the pattern evaluation, on a
/// cleared engine so that it does not depend on what the engine searched before.
pub fn black_value(engine: &mut Engine, eval: &PatternEval, pos: &Position, depth: u32) -> i32 {
    engine.clear();
    engine.set_deadline(None);
    let (p, o) = (pos.player(), pos.opponent());
    let mover = match engine.iterate(&Strong(eval), p, o, depth, false, DISC) {
        Some(r) => r.scores[0].1,
        // The side to move must pass: the value is the opponent's, negated.
        None => -engine.iterate(&Strong(eval), o, p, depth, false, DISC).map_or(0, |r| r.scores[0].1),
    };
    if pos.turn() == Color::Black {
        mover
    } else {
        -mover
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed set, checked independently of the parser's own duplicate check.
    #[test]
    fn the_committed_openings_are_legal_distinct_and_short() {
        let text = include_str!("../../../../assets/reversi/openings.txt");
        let openings = parse_openings(text).expect("the committed openings parse");
        assert!(openings.len() >= 100, "{} openings", openings.len());
        let mut keys = std::collections::HashSet::new();
        for o in &openings {
            assert!((6..=10).contains(&o.moves.len()), "{}", o.text());
            assert!(!o.position.is_game_over() && !o.position.legal_moves().is_empty(), "{}", o.text());
            for g in 0..8 {
                let image = Position::from_bitboards(
                    transform(g, o.position.black()),
                    transform(g, o.position.white()),
                    o.position.turn(),
                )
                .unwrap();
                assert_eq!(symmetry_key(&image), symmetry_key(&o.position), "symmetry {g} of {}", o.text());
            }
            assert!(keys.insert(symmetry_key(&o.position)), "{} repeats an earlier position", o.text());
        }
    }

    #[test]
    fn bad_lines_are_named_by_number() {
        let err = |text: &str| parse_openings(text).unwrap_err().to_string();
        assert_eq!(
            err("# header\nf5 d6\nf5 zz\n"),
            "line 3: move 2 \"zz\": not a move (expected a square like \"f5\" or \"pass\")"
        );
        assert!(err("f5 d6\n\nf5 f5").starts_with("line 3: move 2 \"f5\""), "{}", err("f5 d6\n\nf5 f5"));
        // d3 is f5 reflected in the a8-h1 diagonal, as are their replies.
        assert_eq!(
            err("f5 d6  # a comment\nd3 c5\n"),
            "line 2: the same position as line 1 (up to a rotation or reflection)"
        );
        assert_eq!(err("# nothing\n\n"), "no openings: every line is empty or a comment");
        // The shortest game: black wipes white out in 9 moves.
        assert_eq!(err("f5 d6 c5 f4 e7 f6 g5 e6 e3"), "line 1: the game is over after these moves");
        let ok = parse_openings("f5 d6 c3 # tiger\n f5 f6 e6 f4").unwrap();
        assert_eq!(ok.iter().map(Opening::text).collect::<Vec<_>>(), ["f5 d6 c3", "f5 f6 e6 f4"]);
    }

    #[test]
    fn generation_repeats_from_its_seed_and_keeps_only_close_new_positions() {
        let eval = &PatternEval::builtin();
        let config = GenerateConfig { count: 6, plies: 6, depth: 3, max_value: DISC, seed: 11 };
        let (a, judged) = generate(&config, eval);
        let (b, _) = generate(&config, eval);
        assert_eq!(a, b);
        assert_eq!(a.len(), 6);
        assert!(judged >= 6);
        let mut keys = std::collections::HashSet::new();
        let mut engine = Engine::new(JUDGE_TT_BITS);
        for g in &a {
            assert_eq!(g.opening.moves.len(), 6);
            assert!(g.value.abs() <= DISC, "{} {}", g.opening.text(), g.value);
            assert_eq!(black_value(&mut engine, eval, &g.opening.position, 3), g.value, "{}", g.opening.text());
            assert!(keys.insert(symmetry_key(&g.opening.position)));
        }
        let other = generate(&GenerateConfig { seed: 12, ..config }, eval).0;
        assert_ne!(a, other, "another seed draws other lines");
    }
}
