//! The levels behind one entry point: a used engine answers (and analyses) as a fresh one, every
//! level legally and within its time, forced moves and finished games, the strong level perfect
//! near the end and varied in the opening.

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
    for round in 0..12 {
        let pos = random_position(&mut rng, [40, 24, 12][round % 3], 2);
        let level =
            [ReversiLevel::NoMercy, ReversiLevel::Standard, ReversiLevel::Highest, ReversiLevel::StandardClassic]
                [(round / 3) % 4];
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
            ReversiLevel::NoMercy,
            budget,
            &[],
            &mut StdRng::seed_from_u64(round as u64),
        );
    }
}

#[test]
fn strong_level_plays_perfectly_near_the_end() {
    let mut rng = StdRng::seed_from_u64(14);
    let mut engine = Engine::new(TT_BITS).with_clock(Clock::Wall(std::time::Instant::now));
    for _ in 0..6 {
        let pos = random_position(&mut rng, 14, 2);
        let r = choose_at_level(&mut engine, PatternEval::shared(), &pos, ReversiLevel::NoMercy, &[], &mut rng);
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
        for level in ReversiLevel::ALL {
            let budget = Duration::from_millis(300);
            let r = reply_on_node_clock(&pos, level, budget, &mut rng);
            assert!(pos.is_legal(r.best), "{level:?} {}", pos.to_text());
            assert!(!r.evals.is_empty());
            // Deadline plus the allowance for the nodes searched between two looks at the clock.
            let limit = if level == ReversiLevel::NoMercy { budget } else { budget.min(SONTAKU_BUDGET) };
            assert!(r.time < limit + Duration::from_millis(150), "{level:?} took {:?} at {empties} empties", r.time);
        }
    }
}

#[test]
fn forced_moves_and_finished_games() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut engine = Engine::new(TT_BITS);
    let pass = Position::from_bitboards(1, 2, Color::White).unwrap();
    for level in ReversiLevel::ALL {
        let r = choose_at_level(&mut engine, PatternEval::shared(), &pass, level, &[], &mut rng);
        assert_eq!((r.best, r.stage), (Move::Pass, Stage::Forced));
        let end = Position::from_bitboards(7, 0, Color::White).unwrap();
        assert_eq!(
            choose_at_level(&mut engine, PatternEval::shared(), &end, level, &[], &mut rng).stage,
            Stage::GameOver
        );
    }
}

#[test]
fn opening_moves_vary_within_a_disc_and_a_half() {
    let pos = Position::start().play("f5".parse().unwrap()).unwrap();
    let mut seen = std::collections::HashSet::new();
    for seed in 0..12 {
        let mut rng = StdRng::seed_from_u64(seed);
        let r = reply_on_node_clock(&pos, ReversiLevel::NoMercy, Duration::from_millis(150), &mut rng);
        let top = r.evals[0].1;
        let mine = r.evals.iter().find(|e| e.0 == r.best).unwrap().1;
        assert!(mine >= top - OPENING_MARGIN);
        seen.insert(r.best);
    }
    // After f5 the diagonal (f4/f6) and perpendicular (d6) replies are close in value.
    assert!(seen.len() >= 2, "{seen:?}");
}

/// The published rule is a level of its own, named as the design says, listed last, never the
/// default, and the only one `is_classic` names.
#[test]
fn the_published_rule_is_a_level_of_its_own() {
    let classic = ReversiLevel::StandardClassic;
    assert_eq!(classic.as_str(), "standard-classic");
    assert_eq!(ReversiLevel::ALL.last(), Some(&classic));
    assert_eq!(ReversiLevel::NAMES.last(), Some(&"standard-classic"));
    assert_ne!(ReversiLevel::DEFAULT, classic);
    for name in
        ["standard-classic", "標準（原典）", "standard (classic)", "Standard  Classic", "standard, as published"]
    {
        assert_eq!(name.parse::<ReversiLevel>(), Ok(classic), "{name:?}");
    }
    assert!(ReversiLevel::ALL.iter().all(|&l| l.is_classic() == (l == classic)));
    assert_eq!(classic.budget(), SONTAKU_BUDGET);
}
