//! Who meets the seed's rule in `standard` (docs/design/reversi-sontaku.md#who-meets-the-seeds-rule):
//! below the modelled strength from 40 to 14 empties, the seed's search with the lead in discs,
//! through the bot's entry point, against the search written out here; below the trusted strength
//! from 13 empties, the seed's full read, whose values are `standard-classic`'s; in the opening, the
//! seed's values under the guard; and at each threshold the switch to something else.

use super::super::tuning::FALLBACK_DEPTH;
use super::*;
use crate::reversi::engine::search::Clock;
use crate::reversi::levels::level::{Choice, ReversiLevel, Stage};

/// The node clock of the midgame's checks (about five times the project machine's node time):
/// every search stops at the same node under any load, so the level and the references below
/// search alike.
const MIDGAME_CLOCK: Clock = Clock::Nodes { mid_ns: 2000.0, end_ns: 300.0 };
/// The full read's: a fast machine's, on which the reads from 13 empties finish.
const READ_CLOCK: Clock = Clock::Nodes { mid_ns: 10.0, end_ns: 2.0 };
/// Thinking time: 60,000 midgame nodes on [`MIDGAME_CLOCK`], the strength estimate's included.
const BUDGET: Duration = Duration::from_millis(120);

fn engine(clock: Clock) -> Engine {
    Engine::new(16).with_clock(clock)
}

/// The seed's `standard` written out from the design's description, on `engine` with its deadline:
/// from 13 empties every root move read to the end (out of time: a 4-ply search without a deadline,
/// as a full read), otherwise iterative deepening over every root move with a full window on
/// `Standard` (the human's lead in discs, the human assumed to play worst); values within
/// `NEAR_EQUAL` of the best (exact ties once the game is read) ranked by the CPU's own interest on
/// the classic evaluation; the 35% jitter among the first three, never once the full read began.
fn seeds_standard(engine: &mut Engine, p: u64, o: u64, rng: &mut impl Rng) -> SontakuChoice {
    let n = (!(p | o)).count_ones();
    let full_read = n <= STANDARD_FULL_READ;
    engine.clear();
    let read = if full_read { engine.read_to_end(&Standard(PatternEval::shared()), p, o) } else { None };
    let (values, depth, exact) = match read {
        Some(values) => (values, n, true),
        None => {
            let limit = if full_read {
                engine.set_deadline(None);
                engine.clear();
                FALLBACK_DEPTH
            } else {
                60
            };
            let r = engine.iterate(&Standard(PatternEval::shared()), p, o, limit, true, 0).unwrap();
            (r.scores, r.depth, r.complete)
        }
    };
    let near = if full_read || exact { 0 } else { NEAR_EQUAL };
    let top = values.iter().map(|&(_, v)| v).max().unwrap();
    let tied: Vec<u8> = values.iter().filter(|&&(_, v)| v >= top - near).map(|&(sq, _)| sq).collect();
    let own = if tied.len() > 1 { engine.own_interest(&OwnInterest, p, o, &tied) } else { Vec::new() };
    let ranked = rank_moves(&values, &own, near);
    let index = jitter_index(ranked.len(), full_read || exact, rng);
    let stage = if exact { SontakuStage::FullRead } else { SontakuStage::Midgame };
    SontakuChoice { best: ranked[index].0, ranked, depth, stage, jittered: index > 0 }
}

/// The seed's search in `depth` plies written out as plain minimax: the desirability of the
/// human's lead in tenths of a disc by the pattern evaluation (1.0 below a lead of 4 discs, 0.7
/// above), the CPU maximising, the human assumed to play worst; a pass costs no ply, a finished
/// game counts as `standard`'s final value.
fn lead_minimax(pos: &Position, cpu: Color, depth: u32) -> i32 {
    if pos.is_game_over() {
        return standard_final_value(human_margin(pos, cpu.opposite()));
    }
    if pos.must_pass() {
        return lead_minimax(&pos.play(Move::Pass).unwrap(), cpu, depth);
    }
    if depth == 0 {
        let mover = PatternEval::shared().eval(pos.player(), pos.opponent()) * 10 / DISC;
        let human = if pos.turn() == cpu { -mover } else { mover };
        // A lead of 4 discs is the target.
        return if human < 40 { -10 * (40 - human) } else { -7 * (human - 40) };
    }
    let values = pos.legal_moves().into_iter().map(|m| lead_minimax(&pos.play(m).unwrap(), cpu, depth - 1));
    if pos.turn() == cpu { values.max() } else { values.min() }.unwrap()
}

/// A careless player's moves: Black's first six in a game of random moves, each the one that
/// leaves White the largest lead by a 2-ply search (a beginner however the estimate wobbles).
fn careless_players_moves(rng: &mut StdRng) -> Vec<(Position, Move)> {
    let mut pos = Position::start();
    let mut out = Vec::new();
    while out.len() < 6 {
        let legal = pos.legal_moves();
        let mut m = legal[rng.gen_range(0..legal.len())];
        if pos.turn() == Color::Black {
            let leads = judged_leads(pos.player(), pos.opponent(), 2);
            let worst = leads.by_move.iter().max_by_key(|&&(_, lead)| lead).unwrap().0;
            m = Move::Place(crate::reversi::rules::board::Square::new(worst).unwrap());
            out.push((pos, m));
        }
        pos = pos.play(m).unwrap();
    }
    out
}

/// `standard`'s reply through the bot's entry point on `clock`, and what the seed's `standard`
/// plays with the time the strength estimate leaves: the same estimate first, on an engine alike.
fn entry_point_and_seed<R: Rng>(
    clock: Clock,
    pos: &Position,
    human_moves: &[(Position, Move)],
    rng: impl Fn() -> R,
) -> (Choice, SontakuChoice) {
    let level = ReversiLevel::Standard;
    let reply = engine(clock).choose_at_level(PatternEval::shared(), pos, level, BUDGET, human_moves, &mut rng());
    let mut e = engine(clock);
    let start = e.now();
    if !human_moves.is_empty() {
        crate::reversi::levels::strength::estimate(&mut e, PatternEval::shared(), human_moves);
    }
    e.set_deadline(Some(start + BUDGET));
    let seeds = seeds_standard(&mut e, pos.player(), pos.opponent(), &mut rng());
    (reply, seeds)
}

fn square(m: Move) -> u8 {
    match m {
        Move::Place(sq) => sq.index(),
        Move::Pass => panic!("a pass where a placement was expected"),
    }
}

/// The reply through the entry point is the seed's choice: the same move, values, order, depth
/// and jitter.
fn assert_same(reply: &Choice, seeds: &SontakuChoice, what: &str) {
    let evals: Vec<(u8, i32)> = reply.evals.iter().map(|&(m, v)| (square(m), v)).collect();
    assert_eq!(evals, seeds.ranked, "{what}");
    assert_eq!((square(reply.best), reply.depth, reply.jittered), (seeds.best, seeds.depth, seeds.jittered), "{what}");
    let stage = if seeds.stage == SontakuStage::FullRead { Stage::FullRead } else { Stage::Midgame };
    assert_eq!(reply.stage, stage, "{what}");
}

/// The seed's search on a fresh engine on `clock` with `budget`, and `standard`'s choice against a
/// human of strength `s` on another; `rng` gives each the same draws.
fn seed_and_modelled<R: Rng>(
    clock: Clock,
    budget: Duration,
    pos: &Position,
    s: f64,
    rng: impl Fn() -> R,
) -> (SontakuChoice, SontakuChoice) {
    let (p, o) = (pos.player(), pos.opponent());
    let mut e = engine(clock);
    e.set_deadline(Some(e.now() + budget));
    let seeds = seeds_standard(&mut e, p, o, &mut rng());
    let mut e = engine(clock);
    e.set_deadline(Some(e.now() + budget));
    let modelled =
        e.sontaku_for(PatternEval::shared(), Sontaku::Standard, p, o, HumanModel { strength: s }, &mut rng());
    (seeds, modelled)
}

#[test]
fn below_a_quarter_from_forty_to_fourteen_empties_standard_is_the_seeds_search() {
    let mut rng = StdRng::seed_from_u64(5701);
    let (mut by_guest, mut wide_jitter, mut modelled_apart) = ([0; 4], 0, 0);
    for n in 14..=40 {
        let pos = random_position(&mut rng, n, 2);
        let seed = rng.gen::<u64>();
        let guest = n as usize % 4;
        by_guest[guest] += 1;
        let what = format!("guest {guest} at {}", pos.to_text());
        let seeds = match guest {
            // A newcomer (no move yet) and a careless player, through the bot's entry point.
            0 | 1 => {
                let moves = if guest == 0 { Vec::new() } else { careless_players_moves(&mut rng) };
                let (reply, seeds) = if guest == 0 {
                    entry_point_and_seed(MIDGAME_CLOCK, &pos, &moves, || StepRng::new(0, 0))
                } else {
                    entry_point_and_seed(MIDGAME_CLOCK, &pos, &moves, || StdRng::seed_from_u64(seed))
                };
                match reply.human_strength {
                    None => assert!(moves.is_empty()),
                    Some(s) => assert!(s < MODELLED_FROM, "{what}: estimated {s}"),
                }
                assert_same(&reply, &seeds, &what);
                seeds
            }
            // Any estimate below the modelled strength.
            _ => {
                let (seeds, modelled) = if guest == 2 {
                    seed_and_modelled(MIDGAME_CLOCK, BUDGET, &pos, 0.1, || StdRng::seed_from_u64(seed))
                } else {
                    // StepRng(0, 0) makes every gen_bool true: the jitter fires wherever it may.
                    seed_and_modelled(MIDGAME_CLOCK, BUDGET, &pos, MODELLED_FROM - 1e-9, || StepRng::new(0, 0))
                };
                assert_eq!(modelled, seeds, "{what}");
                seeds
            }
        };
        assert_eq!(seeds.stage, SontakuStage::Midgame, "{what}");
        // The seed's search maximises the desirability of the lead in discs against the worst
        // human: at 3 plies every value is the minimax written out.
        let mut e = engine(MIDGAME_CLOCK);
        let shallow = e.iterate(&Standard(PatternEval::shared()), pos.player(), pos.opponent(), 3, true, 0).unwrap();
        assert_eq!(shallow.depth, 3);
        for &(sq, v) in &shallow.scores {
            assert_eq!(v, lead_minimax(&play_sq(&pos, sq), pos.turn(), 2), "{sq}: {what}");
        }
        // The seed's jitter has no span: a 2nd move further below the best than `standard`'s
        // modelled jitter ever goes was played here.
        let top = seeds.ranked[0].1;
        wide_jitter += usize::from(
            seeds.jittered && seeds.ranked.iter().any(|&(sq, v)| sq == seeds.best && v < top - JITTER_SPAN),
        );
        // From the modelled strength on, `standard` plays something else.
        let (seeds, modelled) =
            seed_and_modelled(MIDGAME_CLOCK, BUDGET, &pos, MODELLED_FROM, || StdRng::seed_from_u64(seed));
        modelled_apart += usize::from(modelled.ranked != seeds.ranked);
    }
    assert!(by_guest.iter().all(|&k| k >= 6), "{by_guest:?}");
    assert!(wide_jitter >= 3, "no jitter beyond the modelled span: the check could not fail");
    assert!(modelled_apart >= 20, "a modelled human met the seed's values in {} of 27", 27 - modelled_apart);
}

#[test]
fn below_six_tenths_from_thirteen_empties_standard_is_the_seeds_full_read() {
    let mut rng = StdRng::seed_from_u64(5702);
    let (mut brute, mut trusted_apart, mut cut, mut cut_apart) = (0, 0, 0, 0);
    // StepRng(0, 0) makes every gen_bool true: the jitter would fire if it could.
    let always_jitter = || StepRng::new(0, 0);
    for i in 0..12 {
        let pos = random_position(&mut rng, [13, 12, 5, 7, 8, 10, 11][i % 7], 2);
        let (p, o, cpu) = (pos.player(), pos.opponent(), pos.turn());
        let what = pos.to_text();
        // The reads from 12 empties are slow in a debug build: there, one estimate of each kind.
        let quick = pos.empties() < 12;
        let seeds = if quick {
            // A careless player through the bot's entry point.
            let (reply, seeds) =
                entry_point_and_seed(READ_CLOCK, &pos, &careless_players_moves(&mut rng), always_jitter);
            assert!(reply.human_strength.unwrap() < MODELLED_FROM, "{what}");
            assert_same(&reply, &seeds, &what);
            seeds
        } else {
            let mut e = engine(READ_CLOCK);
            e.set_deadline(Some(e.now() + BUDGET));
            seeds_standard(&mut e, p, o, &mut always_jitter())
        };
        assert_eq!((seeds.stage, seeds.jittered), (SontakuStage::FullRead, false), "{what}");
        // Any estimate below 0.6.
        let modelled = |s: f64| {
            let mut e = engine(READ_CLOCK);
            e.set_deadline(Some(e.now() + BUDGET));
            e.sontaku_for(
                PatternEval::shared(),
                Sontaku::Standard,
                p,
                o,
                HumanModel { strength: s },
                &mut always_jitter(),
            )
        };
        let below: &[f64] =
            if quick { &[0.2, MODELLED_FROM, TRUSTED_STRENGTH - 1e-9] } else { &[TRUSTED_STRENGTH - 1e-9] };
        for &s in below {
            assert_eq!(modelled(s), seeds, "s = {s}: {what}");
        }
        // The values are the published rule's: the exact worst-case value of each move.
        let mut mine = seeds.ranked.clone();
        let mut published = engine(READ_CLOCK).read_to_end(&StandardClassic, p, o).unwrap();
        mine.sort_unstable();
        published.sort_unstable();
        assert_eq!(mine, published, "{what}");
        assert_eq!(seeds.ranked.iter().find(|&&(sq, _)| sq == seeds.best).unwrap().1, seeds.ranked[0].1);
        if pos.empties() <= 8 {
            brute += 1;
            let human = cpu.opposite();
            let value = |q: &Position| standard_final_value(human_margin(q, human));
            for &(sq, v) in &seeds.ranked {
                assert_eq!(v, reference(&play_sq(&pos, sq), cpu, &value), "{sq}: {what}");
            }
        }
        // A trusted human's full read values best play instead.
        trusted_apart += usize::from(modelled(TRUSTED_STRENGTH).ranked != seeds.ranked);
        // A read out of time: the seed's fallback below the modelled strength, `standard`'s own above.
        let (seeds, modelled) = seed_and_modelled(MIDGAME_CLOCK, Duration::ZERO, &pos, 0.2, always_jitter);
        assert_eq!(modelled, seeds, "cut read: {what}");
        if seeds.depth == FALLBACK_DEPTH.min(pos.empties()) && seeds.stage == SontakuStage::Midgame {
            cut += 1;
            let (seeds, modelled) = seed_and_modelled(MIDGAME_CLOCK, Duration::ZERO, &pos, 0.3, always_jitter);
            cut_apart += usize::from(modelled.ranked != seeds.ranked);
        }
    }
    assert!(brute >= 6 && trusted_apart >= 3, "{brute} checked by brute force, {trusted_apart} apart when trusted");
    assert!(cut >= 3 && cut_apart == cut, "{cut} reads cut, {cut_apart} of them apart when modelled");
}

#[test]
fn in_the_opening_a_beginner_meets_the_seeds_values_under_the_guard() {
    let mut rng = StdRng::seed_from_u64(5703);
    let (mut left_out, mut beginner_ceiling, mut jittered, mut refused) = (0, 0, 0, 0);
    for n in OPENING_GUARD_EMPTIES + 1..=60 {
        let pos = if n == 60 { Position::start() } else { random_position(&mut rng, n, 3) };
        let (p, o) = (pos.player(), pos.opponent());
        let what = pos.to_text();
        let moves = if n % 2 == 0 { Vec::new() } else { careless_players_moves(&mut rng) };
        let reply = engine(MIDGAME_CLOCK).choose_at_level(
            PatternEval::shared(),
            &pos,
            ReversiLevel::Standard,
            BUDGET,
            &moves,
            &mut StepRng::new(0, 0),
        );
        assert!(reply.human_strength.is_none_or(|s| s < MODELLED_FROM), "{what}");
        // The seed's search with half the time the estimate leaves, the strong search with the rest.
        let mut e = engine(MIDGAME_CLOCK);
        let start = e.now();
        if !moves.is_empty() {
            crate::reversi::levels::strength::estimate(&mut e, PatternEval::shared(), &moves);
        }
        let deadline = start + BUDGET;
        let now = e.now();
        e.set_deadline(Some(now + deadline.saturating_sub(now).mul_f64(0.5)));
        e.clear();
        let seeds = e.iterate(&Standard(PatternEval::shared()), p, o, 60, true, 0).unwrap().scores;
        e.set_deadline(Some(deadline));
        e.clear();
        let strong = e.iterate(&Strong(PatternEval::shared()), p, o, 60, true, DISC).unwrap().scores;
        let lead = |sq: u8| -strong.iter().find(|&&(m, _)| m == sq).unwrap().1 * 10 / DISC;
        let least = strong.iter().map(|&(sq, _)| lead(sq)).min().unwrap();
        let ceiling = if n <= OPENING_UNKNOWN_EMPTIES { BEGINNER_OPENING_CEILING } else { OPENING_LEAD_CEILING };
        beginner_ceiling += usize::from(ceiling == BEGINNER_OPENING_CEILING);
        // Every move left the human's lead under the ceiling (or within a disc of the least), valued
        // as the seed values it.
        let mut kept: Vec<(u8, i32)> =
            seeds.iter().copied().filter(|&(sq, _)| lead(sq) <= ceiling.max(least + 10)).collect();
        let mut offered: Vec<(u8, i32)> = reply.evals.iter().map(|&(m, v)| (square(m), v)).collect();
        left_out += seeds.len() - kept.len();
        kept.sort_unstable();
        offered.sort_unstable();
        assert_eq!(offered, kept, "{what}");
        // The jitter plays the 2nd move only within 1.5 discs of shortfall of the best.
        let (top, second) = (reply.evals[0].1, reply.evals.get(1).map(|e| e.1));
        let within = second.is_some_and(|v| v >= top - JITTER_SPAN);
        assert_eq!(reply.jittered, within, "{what}");
        assert_eq!(reply.best, reply.evals[usize::from(within)].0, "{what}");
        jittered += usize::from(within);
        refused += usize::from(second.is_some() && !within);
    }
    assert!(left_out > 0 && beginner_ceiling > 0, "{left_out} moves left out, {beginner_ceiling} under +3");
    assert!(jittered > 0 && refused > 0, "{jittered} jittered, {refused} refused");
}
