//! Properties of the players from the seed, on a sub-game table built once.
//!
//! Past 500 lines: tests only, the players' properties side by side on the one sub-game table they
//! share.

use std::sync::OnceLock;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::super::keep_going::keep_going_chances;
use super::super::players::{self, guest_lost_at_once, loses_at_once, preference, score, KeepGoing};
use super::super::table::{build, BuildOptions, Material};
use super::super::{analyze, evaluate_moves, settai, strongest, weakest, Game, Position, Table, Tablebase, Value};
use super::pos;

const ROOT: &str = "1l1/1c1/1C1/1L1 b Gg";

fn table() -> &'static Tablebase {
    static T: OnceLock<Tablebase> = OnceLock::new();
    T.get_or_init(|| build(Material::of(&pos(ROOT)), &BuildOptions::default()).unwrap())
}

/// A game from the root following `choices` (each picks a legal move by index). It stops
/// where the lion could be captured (what follows a missed capture has its own test below).
fn history(choices: &[u32]) -> Game {
    let mut g = Game::from_position(pos(ROOT));
    for &c in choices {
        let moves = g.legal_moves();
        if moves.is_empty() || moves.iter().any(|&m| g.position().captures_lion(m)) {
            break;
        }
        // Mostly moves that do not hang the lion, so that histories go on.
        let p = *g.position();
        let safe: Vec<_> = moves.iter().copied().filter(|&m| !p.loses_at_once(m)).collect();
        let moves = if safe.is_empty() || c % 8 == 0 { moves } else { safe };
        let m = moves[c as usize % moves.len()];
        let mut next = g.clone();
        next.play(m).unwrap();
        if next.outcome().is_some() {
            break;
        }
        g = next;
    }
    g
}

fn divergence(s: i32, best: i32) -> f64 {
    (s + 300) as f64 / (best + 300) as f64
}

/// The moves settai chooses among, as its doc states it (before the repetition rules): the
/// ones that do not lose at once unless none does; after the guest's own loss-in-one every
/// move except try attempts that lose at once (unless nothing else is left).
fn candidates(
    p: &Position,
    valued: &[(super::super::Move, Value)],
    guest_blundered: bool,
) -> Vec<(super::super::Move, i32)> {
    let all: Vec<_> = valued.iter().map(|e| (e.0, score(e.1))).collect();
    let safe: Vec<_> = valued.iter().filter(|e| !loses_at_once(e.1)).map(|e| (e.0, score(e.1))).collect();
    if safe.is_empty() {
        return all;
    }
    if !guest_blundered {
        return safe;
    }
    let in_kind: Vec<_> = valued
        .iter()
        .filter(|e| !(loses_at_once(e.1) && players::try_attempt(p, e.0)))
        .map(|e| (e.0, score(e.1)))
        .collect();
    if in_kind.is_empty() {
        all
    } else {
        in_kind
    }
}

/// The score settai aims at, as its doc states it (before the repetition rules): the best
/// candidate within the guest's divergence (the lowest candidate when none is), except that
/// after the guest's loss-in-one an aim that loses at once gives way to the slow gift, the best
/// candidate that leaves the guest winning without losing at once, if any (deviation 4,
/// docs/design/doubutsu-settai.md#deviation-4-giving-the-win-slowly).
fn aimed_score(
    candidates: &[(super::super::Move, i32)],
    best: i32,
    guest_divergence: f64,
    guest_blundered: bool,
) -> i32 {
    let qualifying: Vec<i32> =
        candidates.iter().map(|c| c.1).filter(|&c| divergence(c, best) <= guest_divergence + 1e-12).collect();
    let seed = qualifying.iter().max().or(candidates.iter().map(|c| c.1).min().as_ref()).copied().unwrap();
    let slow = candidates.iter().map(|c| c.1).filter(|&c| c < 0 && c > score(Value::Loss(2))).max();
    match slow {
        Some(slow) if guest_blundered && seed <= score(Value::Loss(2)) => slow,
        _ => seed,
    }
}

/// Settai as it plays from ply [`players::KEEP_GOING_PLIES`] on: deviations 1-4 without deviation 5
/// (docs/design/doubutsu-settai.md), whose early-game rule has its own tests below. The sub-game's
/// histories are short, so `settai` itself would apply deviation 5 after any careless guest move.
fn late_settai(t: &Tablebase, g: &Game, rng: &mut StdRng) -> Result<super::super::Move, players::PlayerError> {
    players::settai_keeping_going(t, g, rng, KeepGoing::OFF)
}

/// Deviation 5 (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going) as
/// the bot has it, with a shorter read (the properties below check the rule, not the horizon; the
/// read itself is checked against a plain expectimax).
const TEST_KEEP_GOING: KeepGoing = KeepGoing { horizon: 4, node_budget: 200_000, ..KeepGoing::BOT };

fn early_settai(t: &Tablebase, g: &Game, rng: &mut StdRng) -> Result<super::super::Move, players::PlayerError> {
    players::settai_keeping_going(t, g, rng, TEST_KEEP_GOING)
}

/// Each move's chance of keeping the game going, in millionths, as deviation 5 reads it
/// (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going).
fn chances(g: &Game, moves: &[super::super::Move]) -> Vec<i64> {
    let plies = TEST_KEEP_GOING.plies_after(g.moves().len());
    keep_going_chances(g.position(), moves, plies, TEST_KEEP_GOING.node_budget)
        .per_move
        .iter()
        .map(|c| (c * 1e6).round() as i64)
        .collect()
}

fn move_score(t: &Tablebase, p: &Position, m: super::super::Move) -> i32 {
    score(t.probe(&p.play(m).unwrap()).unwrap().parent())
}

proptest! {
    // No regression files: the module is mounted inside another crate's tree.
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn settai_follows_the_divergence_rule(choices in prop::collection::vec(any::<u32>(), 1..40), seed in any::<u64>()) {
        let t = table();
        let g = history(&choices);
        prop_assume!(g.last_move().is_some() && g.outcome().is_none());
        // Where the lion can be captured, not every move can be valued (own test below).
        prop_assume!(!g.legal_moves().iter().any(|&m| g.position().captures_lion(m)));
        // The seed's rule exactly where no move goes back to an earlier position (the
        // repetition rules have their own property below).
        prop_assume!(g.legal_moves().iter().all(|&m| players::seen_before(&g, m) == 0));
        let (before, guest_move) = g.last_move().unwrap();
        let guest = analyze(t, &before, guest_move).unwrap();
        let reply = late_settai(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        let p = *g.position();
        let evals = evaluate_moves(t, &p).unwrap();
        let best = evals.iter().map(|e| score(e.1)).max().unwrap();
        let s = move_score(t, &p, reply);
        // The seed's exclusion, unless the guest's own move lost at once while it had a move
        // that did not (then settai answers in kind: see `candidates`).
        let excluding = evals.iter().any(|e| !loses_at_once(e.1)) && !guest_lost_at_once(&before, guest_move);
        // Never a move that loses at once unless all do, or the guest just made one.
        prop_assert!(!excluding || !p.loses_at_once(reply));
        let valued: Vec<_> = evals.iter().map(|e| (e.0, e.1)).collect();
        let blundered = guest_lost_at_once(&before, guest_move);
        let pool = candidates(&p, &valued, blundered);
        let candidates: Vec<i32> = pool.iter().map(|c| c.1).collect();
        let qualifying: Vec<i32> = candidates.iter().copied().filter(|&c| divergence(c, best) <= guest.divergence + 1e-12).collect();
        if guest.divergence == 1.0 {
            // The best answer to a best move: against a best-playing guest, exactly the seed.
            prop_assert_eq!(s, best);
        }
        prop_assert_eq!(s, aimed_score(&pool, best, guest.divergence, blundered));
        if !blundered {
            // Without a guest loss-in-one, the seed's rule: a blunder is answered by a move of
            // equal or lower divergence, the best such (the lowest when none is).
            if qualifying.is_empty() {
                prop_assert_eq!(s, *candidates.iter().min().unwrap());
            } else {
                prop_assert!(divergence(s, best) <= guest.divergence + 1e-12);
                prop_assert_eq!(s, *qualifying.iter().max().unwrap());
            }
        }
    }

    #[test]
    fn weakest_wins_when_it_can_and_avoids_losing_at_once(choices in prop::collection::vec(any::<u32>(), 0..40), seed in any::<u64>()) {
        let t = table();
        let g = history(&choices);
        prop_assume!(g.outcome().is_none());
        let p = *g.position();
        let m = weakest(&g, &mut StdRng::seed_from_u64(seed)).unwrap();
        // A history may end where the guest hung its lion: the table does not expand such a
        // position (most moves there cannot be valued), and the win in one is the capture.
        if g.legal_moves().iter().any(|&c| p.captures_lion(c)) {
            prop_assert_eq!(t.probe(&p.play(m).unwrap()).unwrap().parent(), Value::Win(1), "{}", m);
            return Ok(());
        }
        let evals = evaluate_moves(t, &p).unwrap();
        let v = t.probe(&p.play(m).unwrap()).unwrap().parent();
        if evals.iter().any(|e| e.1 == Value::Win(1)) {
            prop_assert_eq!(v, Value::Win(1));
        }
        if evals.iter().any(|e| !loses_at_once(e.1)) {
            prop_assert!(!loses_at_once(v));
        }
    }

    #[test]
    fn strongest_is_perfect_and_the_table_is_consistent(choices in prop::collection::vec(any::<u32>(), 0..40)) {
        let t = table();
        let g = history(&choices);
        prop_assume!(g.outcome().is_none());
        // Where the lion can be captured, not every move can be valued (own test below).
        prop_assume!(!g.legal_moves().iter().any(|&m| g.position().captures_lion(m)));
        let p = *g.position();
        let evals = evaluate_moves(t, &p).unwrap();
        let best = evals.iter().map(|e| e.1).max_by_key(|&v| preference(v)).unwrap();
        // Bellman consistency: the position's value is the best move's value.
        prop_assert_eq!(t.probe(&p).unwrap(), best);
        let m = strongest(t, &g).unwrap();
        prop_assert_eq!(t.probe(&p.play(m).unwrap()).unwrap().parent(), best);
        // The table's "loses at once" agrees with the rules' one-ply look-ahead.
        for (mv, v) in evals {
            prop_assert_eq!(loses_at_once(v), p.loses_at_once(mv), "{}", mv);
        }
    }

    #[test]
    fn analysis_is_consistent(choices in prop::collection::vec(any::<u32>(), 1..40)) {
        let t = table();
        let g = history(&choices);
        prop_assume!(g.last_move().is_some());
        let (before, m) = g.last_move().unwrap();
        let a = analyze(t, &before, m).unwrap();
        prop_assert!(a.divergence <= 1.0 && a.divergence >= 0.5);
        prop_assert_eq!(a.divergence == 1.0, a.best.contains(&m));
        prop_assert_eq!(a.score, score(a.value));
        for b in &a.best {
            prop_assert_eq!(move_score(t, &before, *b), a.best_score);
        }
    }
}

#[test]
fn scores_keep_wins_above_draws_above_losses() {
    assert_eq!(score(Value::Win(1)), 99);
    assert_eq!(score(Value::Win(173)), 1);
    assert_eq!(score(Value::Draw), 0);
    assert_eq!(score(Value::Loss(2)), -98);
    assert_eq!(score(Value::Loss(172)), -1);
    assert!(preference(Value::Win(3)) > preference(Value::Win(5)));
    assert!(preference(Value::Loss(8)) > preference(Value::Loss(6)));
    assert!(preference(Value::Draw) > preference(Value::Loss(200)));
}

#[test]
fn whole_games_between_players_finish() {
    let t = table();
    let mut rng = StdRng::seed_from_u64(7);
    let mut finished = 0;
    for game in 0..20 {
        let mut g = Game::from_position(pos(ROOT));
        for ply in 0..300 {
            if g.outcome().is_some() {
                finished += 1;
                break;
            }
            let m = match (game % 2, ply % 2) {
                (0, 0) | (1, 1) => weakest(&g, &mut rng).unwrap(),
                _ => settai(t, &g, &mut rng).unwrap(),
            };
            g.play(m).unwrap();
        }
        assert!(matches!(settai(t, &g, &mut rng), Err(players::PlayerError::GameOver)) || g.outcome().is_none());
    }
    assert!(finished >= 15, "{finished}");
}

#[test]
fn positions_after_a_missed_lion_capture_are_valued_exactly() {
    use super::super::players::value_of;
    use super::naive;
    let root = pos("1l1/1c1/1C1/1L1 b -");
    let t = build(Material::of(&root), &BuildOptions::default()).unwrap();
    let mut rng = StdRng::seed_from_u64(11);
    let mut checked = 0;
    for _ in 0..400 {
        let mut g = Game::from_position(root);
        for _ in 0..40 {
            if g.outcome().is_some() {
                break;
            }
            let p = *g.position();
            let captures: Vec<_> = g.legal_moves().into_iter().filter(|&m| p.captures_lion(m)).collect();
            if !captures.is_empty() {
                // Miss the capture on purpose and value what follows.
                for m in g.legal_moves().into_iter().filter(|&m| !p.captures_lion(m)) {
                    let q = p.play(m).unwrap();
                    if q.outcome().is_some() || checked >= 30 {
                        continue;
                    }
                    let solved = naive::solve(&[super::from_engine(&q)]);
                    let want = super::table_tests::naive_value(solved.values[&super::from_engine(&q)]);
                    assert_eq!(value_of(&t, &q).unwrap(), want, "{q}");
                    checked += 1;
                }
                break;
            }
            let m = *g.legal_moves().choose(&mut rng).unwrap();
            g.play(m).unwrap();
        }
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn settai_moves_where_the_guest_left_its_lion_hanging() {
    let t = table();
    let mut rng = StdRng::seed_from_u64(5);
    let mut seen = 0;
    for _ in 0..300 {
        let mut g = Game::from_position(pos(ROOT));
        for _ in 0..40 {
            if g.outcome().is_some() {
                break;
            }
            let p = *g.position();
            if g.legal_moves().iter().any(|&m| p.captures_lion(m)) {
                let m = settai(t, &g, &mut rng).unwrap();
                assert!(p.is_legal(m));
                seen += 1;
                break;
            }
            let m = *g.legal_moves().choose(&mut rng).unwrap();
            g.play(m).unwrap();
        }
    }
    assert!(seen > 20, "{seen}");
}

#[test]
fn table_levels_fall_back_where_the_table_cannot_help() {
    use super::super::heuristic::heuristic;
    use super::super::players::{settai_or_weakest, strongest_or_heuristic};
    // The table of this sub-game knows nothing of positions with elephants.
    let t = table();
    let game = Game::from_position(pos("el1/1c1/1C1/1LE b -"));
    assert!(super::super::settai(t, &game, &mut StdRng::seed_from_u64(1)).is_err());
    assert!(super::super::strongest(t, &game).is_err());
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..20 {
        let m = settai_or_weakest(t, &game, &mut rng).unwrap();
        assert!(game.position().is_legal(m));
        assert!(!game.position().loses_at_once(m), "the fallback still refuses to lose at once");
        assert!(game.position().is_legal(strongest_or_heuristic(t, &game, &mut rng).unwrap()));
    }
    // The heuristic reader takes a lion that is left hanging and saves its own.
    let capture = pos("3/1l1/1G1/1L1 b -");
    assert!(capture.captures_lion(heuristic(&capture, 1, &mut rng)));
    let threatened = pos("1l1/1g1/3/L2 w -");
    let reply = heuristic(&threatened, 2, &mut rng);
    assert!(
        !threatened
            .play(reply)
            .unwrap()
            .legal_moves()
            .iter()
            .any(|&m| threatened.play(reply).unwrap().captures_lion(m)),
        "{reply}"
    );
}

/// A back-and-forth: the side to move and then the other each move a piece and move it back
/// (board moves that capture nothing and are not chicks, which cannot step back), so that
/// the position recurs. `None` when no such four moves exist.
fn shuffle(g: &Game, pick: usize) -> Option<[super::super::Move; 4]> {
    use super::super::Move;
    let reversible = |p: &Position| -> Vec<Move> {
        p.legal_moves()
            .into_iter()
            .filter(|&m| match m {
                Move::Normal { from, .. } => {
                    p.captured(m).is_none()
                        && p.piece_at(from).is_some_and(|pc| pc.role != super::super::Role::Chick)
                        && !p.loses_at_once(m)
                }
                Move::Drop { .. } => false,
            })
            .collect()
    };
    let p0 = *g.position();
    let firsts = reversible(&p0);
    for i in 0..firsts.len() {
        let m1 = firsts[(i + pick) % firsts.len()];
        let p1 = p0.play(m1).ok()?;
        if p1.outcome().is_some() {
            continue;
        }
        for m2 in reversible(&p1) {
            let p2 = p1.play(m2).unwrap();
            let (Move::Normal { from: f1, to: t1 }, Move::Normal { from: f2, to: t2 }) = (m1, m2) else { continue };
            let back1 = Move::Normal { from: t1, to: f1 };
            let back2 = Move::Normal { from: t2, to: f2 };
            if p2.outcome().is_none() && p2.is_legal(back1) {
                let p3 = p2.play(back1).unwrap();
                if p3.outcome().is_none() && p3.is_legal(back2) && p3.play(back2).unwrap() == p0 {
                    return Some([m1, m2, back1, back2]);
                }
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

    /// Repetition (the bot draws at the third occurrence): while settai is not winning it
    /// never shuffles back to a position already seen when a move to a fresh one is available
    /// that does not lose at once, so a guest's win is not turned into a draw.
    #[test]
    fn settai_does_not_shuffle_toward_a_repetition_draw_unless_it_is_winning(
        choices in prop::collection::vec(any::<u32>(), 1..30),
        pick in any::<usize>(),
        cycles in 1usize..3,
        seed in any::<u64>(),
    ) {
        let t = table();
        let mut g = history(&choices);
        prop_assume!(g.outcome().is_none());
        let Some(cycle) = shuffle(&g, pick) else { return Ok(()) };
        for _ in 0..cycles {
            for m in cycle {
                if g.outcome().is_none() {
                    g.play(m).unwrap();
                }
            }
        }
        // One more move so that it is settai's turn after a repetition by either side.
        if g.outcome().is_some() || g.legal_moves().iter().any(|&m| g.position().captures_lion(m)) {
            return Ok(());
        }
        let p = *g.position();
        let evals = evaluate_moves(t, &p).unwrap();
        let best = evals.iter().map(|e| score(e.1)).max().unwrap();
        let any_safe = evals.iter().any(|e| !loses_at_once(e.1));
        let candidates: Vec<_> = evals.iter().filter(|e| !any_safe || !loses_at_once(e.1)).map(|e| e.0).collect();
        let reply = late_settai(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        if best <= 0 && candidates.iter().any(|&m| players::seen_before(&g, m) == 0) {
            prop_assert_eq!(players::seen_before(&g, reply), 0, "{} after {:?}", reply, g.moves());
        }
        // A move that loses at once only when settai is lost anyway and every other move
        // goes back to a position already seen (it concedes rather than draw by repetition),
        // or in kind after the guest's own loss-in-one: the shuffle's moves back can leave a
        // try open, and that answer has a test of its own.
        let guest_blundered = g.last_move().is_some_and(|(before, mv)| guest_lost_at_once(&before, mv));
        if any_safe && !guest_blundered && p.loses_at_once(reply) {
            prop_assert!(best < 0, "{} after {:?}", reply, g.moves());
            prop_assert!(candidates.iter().all(|&m| players::seen_before(&g, m) > 0), "{} after {:?}", reply, g.moves());
            prop_assert_eq!(players::seen_before(&g, reply), 0);
        }
    }
}

#[test]
fn a_loss_in_one_counts_only_when_a_safe_move_existed() {
    use super::mv;
    // Sente's lion on B4, gote's on B2: stepping to B3 puts it next to gote's lion; A4 does not.
    let p = pos("3/1l1/3/1L1 b -");
    assert!(p.loses_at_once(mv("B4B3")) && guest_lost_at_once(&p, mv("B4B3")));
    assert!(!p.loses_at_once(mv("B4A4")) && !guest_lost_at_once(&p, mv("B4A4")));
    // Sente's lion on A4 boxed in by gote's lion on B2, giraffe on A2 and chick on B3: A3, B3
    // and B4 are all attacked, so the move it is forced to make does not count as a blunder.
    let forced = pos("3/gl1/1c1/L2 b -");
    let moves = forced.legal_moves();
    assert!(!moves.is_empty() && moves.iter().all(|&m| forced.loses_at_once(m)), "{moves:?}");
    assert!(moves.iter().all(|&m| !guest_lost_at_once(&forced, m)));
}

#[test]
fn try_attempts_are_lion_moves_onto_the_far_row() {
    use super::mv;
    // Gote's lion on B3, sente's on C4 (far from it), a gote chick on A3: gote to move.
    let p = pos("3/3/cl1/2L w -");
    assert!(players::try_attempt(&p, mv("B3B4")) && players::try_attempt(&p, mv("B3A4")));
    assert!(!players::try_attempt(&p, mv("B3B2")), "not the far row");
    assert!(!players::try_attempt(&p, mv("A3A4")), "not the lion");
    // Sente's far row is row 1.
    let q = pos("l2/1L1/3/3 b -");
    assert!(players::try_attempt(&q, mv("B2B1")) && !players::try_attempt(&q, mv("B2B3")));
}

#[test]
fn settai_answers_a_guest_loss_in_one_in_kind() {
    use rand::Rng;
    // Random histories of the sub-game, then a move that loses at once although a safe one
    // existed. Settai follows the bare divergence rule (property below), which here often
    // picks a move that loses at once too; the same history with a safe move instead never
    // gets one.
    let t = table();
    let mut rng = StdRng::seed_from_u64(9);
    let mut in_kind = 0;
    for _ in 0..600 {
        let choices: Vec<u32> = (0..rng.gen_range(0..30)).map(|_| rng.gen()).collect();
        let g = history(&choices);
        let before = *g.position();
        if g.outcome().is_some() || g.legal_moves().iter().any(|&m| before.captures_lion(m)) {
            continue;
        }
        let (blunders, safe): (Vec<_>, Vec<_>) =
            before.legal_moves().into_iter().partition(|&m| before.loses_at_once(m));
        let (Some(&blunder), Some(&fine)) = (blunders.choose(&mut rng), safe.choose(&mut rng)) else { continue };
        for (m, is_blunder) in [(blunder, true), (fine, false)] {
            let mut g = g.clone();
            g.play(m).unwrap();
            // Away from repetitions (settai may concede there, see below).
            if g.outcome().is_some() || g.legal_moves().iter().any(|&r| players::seen_before(&g, r) > 0) {
                continue;
            }
            let p = *g.position();
            let any_safe = p.legal_moves().iter().any(|&r| !p.loses_at_once(r));
            let reply = late_settai(t, &g, &mut rng).unwrap();
            if any_safe && p.loses_at_once(reply) {
                assert!(is_blunder, "{reply} answered the safe {m} after {:?}", g.moves());
                in_kind += 1;
            }
        }
    }
    assert!(in_kind >= 5, "{in_kind}");
}

#[test]
fn settai_gives_the_win_slowly_where_the_bare_rule_would_lose_at_once() {
    use rand::Rng;
    // Random histories of the sub-game ending in a guest loss-in-one. Where the seed's bare
    // divergence rule (deviation 2) would answer with a move that loses at once but a move that
    // does not also leaves the guest winning, settai plays the latter (deviation 4): it happens,
    // and each time the guest is left a forced win that does not end at once (deviations 2 and 4:
    // docs/design/doubutsu-settai.md).
    let t = table();
    let mut rng = StdRng::seed_from_u64(15);
    let mut slow = 0;
    for _ in 0..1500 {
        let choices: Vec<u32> = (0..rng.gen_range(0..30)).map(|_| rng.gen()).collect();
        let mut g = history(&choices);
        let before = *g.position();
        if g.outcome().is_some() || g.legal_moves().iter().any(|&m| before.captures_lion(m)) {
            continue;
        }
        let blunders: Vec<_> = before.legal_moves().into_iter().filter(|&m| guest_lost_at_once(&before, m)).collect();
        let Some(&m) = blunders.choose(&mut rng) else { continue };
        g.play(m).unwrap();
        if g.outcome().is_some() || g.legal_moves().iter().any(|&r| players::seen_before(&g, r) > 0) {
            continue;
        }
        let p = *g.position();
        let guest = analyze(t, &before, m).unwrap();
        let valued = evaluate_moves(t, &p).unwrap();
        let best = valued.iter().map(|e| score(e.1)).max().unwrap();
        let pool = candidates(&p, &valued, true);
        let bare = pool
            .iter()
            .map(|c| c.1)
            .filter(|&c| divergence(c, best) <= guest.divergence + 1e-12)
            .max()
            .unwrap_or_else(|| pool.iter().map(|c| c.1).min().unwrap());
        let reply = late_settai(t, &g, &mut rng).unwrap();
        let v = players::value_of(t, &p.play(reply).unwrap()).unwrap().parent();
        if bare <= score(Value::Loss(2)) && pool.iter().any(|c| c.1 < 0 && c.1 > score(Value::Loss(2))) {
            assert!(matches!(v, Value::Loss(n) if n > 2), "{reply} ({v:?}) after {:?}", g.moves());
            slow += 1;
        }
    }
    assert!(slow >= 5, "{slow}");
}

/// A guest's loss-in-one for settai to answer.
struct GuestBlunder {
    /// The game after the blunder.
    game: Game,
    /// The guest's move, analysed in the position before it.
    guest: super::super::players::Analysis,
    /// Every reply the table values, with its value for the replying side.
    valued: Vec<(super::super::Move, Value)>,
}

/// The game of `choices` followed by one of the guest's moves that lose at once although
/// another does not (`pick` chooses which), if there is one; not after a missed lion capture
/// (the table does not value every move there) and not where a reply would repeat a position.
fn guest_blunder(choices: &[u32], pick: usize) -> Option<GuestBlunder> {
    let t = table();
    let mut game = history(choices);
    if game.outcome().is_some() {
        return None;
    }
    let before = *game.position();
    if before.legal_moves().iter().any(|&m| before.captures_lion(m)) {
        return None;
    }
    let blunders: Vec<_> = before.legal_moves().into_iter().filter(|&m| guest_lost_at_once(&before, m)).collect();
    let &m = blunders.get(pick % blunders.len().max(1))?;
    game.play(m).unwrap();
    if game.outcome().is_some() || game.legal_moves().iter().any(|&r| players::seen_before(&game, r) > 0) {
        return None;
    }
    let guest = analyze(t, &before, m).unwrap();
    let p = *game.position();
    let valued = p
        .legal_moves()
        .into_iter()
        .filter_map(|r| players::value_of(t, &p.play(r).unwrap()).ok().map(|v| (r, v.parent())))
        .collect();
    Some(GuestBlunder { game, guest, valued })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// A guest move that lost at once although another did not lifts the exclusion for one
    /// reply: settai then follows the divergence rule over every move it can value.
    #[test]
    fn after_a_guest_loss_in_one_settai_follows_the_bare_divergence_rule(
        choices in prop::collection::vec(any::<u32>(), 0..30),
        pick in any::<usize>(),
        seed in any::<u64>(),
    ) {
        let t = table();
        let blunder = guest_blunder(&choices, pick);
        prop_assume!(blunder.is_some());
        let GuestBlunder { game: g, guest, valued } = blunder.unwrap();
        let p = *g.position();
        let best = valued.iter().map(|e| score(e.1)).max().unwrap();
        let reply = late_settai(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        let s = score(players::value_of(t, &p.play(reply).unwrap()).unwrap().parent());
        let pool: Vec<i32> = candidates(&p, &valued, true).into_iter().map(|c| c.1).collect();
        if pool.len() < valued.len() {
            // Some try trap was left out: the reply is none of them.
            prop_assert!(!(p.loses_at_once(reply) && players::try_attempt(&p, reply)), "{}", reply);
        }
        let qualifying: Vec<i32> = pool.iter().copied().filter(|&c| divergence(c, best) <= guest.divergence + 1e-12).collect();
        let seed_aim = if qualifying.is_empty() { *pool.iter().min().unwrap() } else { *qualifying.iter().max().unwrap() };
        let pool_moves = candidates(&p, &valued, true);
        let slow = players::slow_gift(&pool_moves);
        match slow {
            // Deviation 4 (docs/design/doubutsu-settai.md#deviation-4-giving-the-win-slowly): the
            // bare rule would lose at once, a slower gift exists.
            Some(slow) if seed_aim <= score(Value::Loss(2)) => {
                prop_assert_eq!(s, slow);
                prop_assert!(!p.loses_at_once(reply), "{}", reply);
            }
            _ => prop_assert_eq!(s, seed_aim),
        }
    }

    /// Deviation 4 (docs/design/doubutsu-settai.md#deviation-4-giving-the-win-slowly): after the
    /// guest's loss-in-one settai gives the win back slowly. It loses at once only when no move
    /// that does not lose at once leaves the guest winning, and whatever it plays, the guest keeps
    /// a winning continuation whenever such a move existed.
    #[test]
    fn after_a_guest_blunder_settai_gives_the_win_slowly(
        choices in prop::collection::vec(any::<u32>(), 0..30),
        pick in any::<usize>(),
        seed in any::<u64>(),
    ) {
        let t = table();
        let blunder = guest_blunder(&choices, pick);
        prop_assume!(blunder.is_some());
        let GuestBlunder { game: g, guest, valued } = blunder.unwrap();
        let p = *g.position();
        // A move that keeps the game going and leaves the guest a forced win by the table.
        let slow_exists = valued.iter().any(|e| matches!(e.1, Value::Loss(_)) && !loses_at_once(e.1));
        let reply = late_settai(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        let v = players::value_of(t, &p.play(reply).unwrap()).unwrap().parent();
        let best = valued.iter().map(|e| score(e.1)).max().unwrap();
        if slow_exists {
            prop_assert!(!p.loses_at_once(reply), "{} hands over a win in one although a slower gift existed", reply);
            if !matches!(v, Value::Loss(_)) {
                // Settai did not give the lead away: only because the guest's blunder was mild
                // enough that the seed's rule found an answer within its divergence.
                prop_assert!(divergence(score(v), best) <= guest.divergence + 1e-12, "{}", reply);
            }
        }
    }
}

#[test]
fn a_lost_settai_concedes_rather_than_draw_by_repetition() {
    // Guests that read two plies shuffle in won positions (they cannot see a win three plies
    // away). Settai, lost, loses at once only when every safe move goes back to a position
    // already seen; and that does happen in these games.
    let t = table();
    let mut rng = StdRng::seed_from_u64(3);
    let (mut conceded, mut drawn_while_won) = (0, 0);
    for _ in 0..200 {
        let mut g = Game::from_position(pos(ROOT));
        while g.outcome().is_none() && g.moves().len() < 200 {
            let p = *g.position();
            if g.moves().len().is_multiple_of(2) {
                g.play(super::super::heuristic::heuristic(&p, 2, &mut rng)).unwrap();
                continue;
            }
            let Ok(evals) = evaluate_moves(t, &p) else { break };
            let reply = late_settai(t, &g, &mut rng).unwrap();
            let blundered = g.last_move().is_some_and(|(b, m)| guest_lost_at_once(&b, m));
            let any_safe = evals.iter().any(|e| !loses_at_once(e.1));
            if any_safe && !blundered && p.loses_at_once(reply) {
                let best = evals.iter().map(|e| score(e.1)).max().unwrap();
                assert!(best < 0, "{reply} after {:?}", g.moves());
                for e in evals.iter().filter(|e| !loses_at_once(e.1)) {
                    assert!(players::seen_before(&g, e.0) > 0, "{reply} while {} was fresh", e.0);
                }
                assert_eq!(players::seen_before(&g, reply), 0);
                conceded += 1;
            }
            g.play(reply).unwrap();
        }
        if g.outcome() == Some(super::super::Outcome::Draw)
            && t.probe(g.position()).is_ok_and(|v| {
                // The side to move at the draw; a draw with sente (the guest) winning.
                let sente_to_move = g.position().turn() == super::super::Color::Sente;
                matches!((v, sente_to_move), (Value::Win(_), true) | (Value::Loss(_), false))
            })
        {
            drawn_while_won += 1;
        }
    }
    assert!(conceded > 0, "no concession seen (draws with the guest winning: {drawn_while_won})");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, failure_persistence: None, ..ProptestConfig::default() })]

    /// Deviation 5
    /// (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going): early in
    /// a careless guest's game settai neither wins nor loses at once while another move remains,
    /// and its move has the best chance of keeping the game going among such moves.
    #[test]
    fn early_in_a_careless_guests_game_settai_keeps_it_going(
        choices in prop::collection::vec(any::<u32>(), 0..18),
        pick in any::<usize>(),
        seed in any::<u64>(),
    ) {
        let t = table();
        let blunder = guest_blunder(&choices, pick);
        prop_assume!(blunder.is_some());
        let GuestBlunder { game: g, .. } = blunder.unwrap();
        prop_assume!(g.moves().len() < players::KEEP_GOING_PLIES);
        prop_assert!(players::guest_was_careless(&g));
        let p = *g.position();
        let reply = early_settai(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        // The moves the table values that neither win nor lose at once (as settai sees them).
        let quiet: Vec<_> = p
            .legal_moves()
            .into_iter()
            .filter(|&m| players::value_of(t, &p.play(m).unwrap()).is_ok())
            .filter(|&m| !p.loses_at_once(m) && !players::wins_at_once(&p, m))
            .collect();
        if !quiet.is_empty() {
            prop_assert!(quiet.contains(&reply), "{} wins or loses at once after {:?}", reply, g.moves());
            let chance = chances(&g, &quiet);
            let top = *chance.iter().max().unwrap();
            let mine = chance[quiet.iter().position(|&m| m == reply).unwrap()];
            prop_assert_eq!(mine, top, "{} after {:?}", reply, g.moves());
        }
    }
}

#[test]
fn deviation_five_changes_early_replies_to_careless_guests_only() {
    use rand::Rng;
    // Against a guest who never left a win in one, and from the ply where it stops, settai is the
    // same with or without deviation 5; before it, after a guest's loss-in-one, the rule does
    // change replies (it is not idle;
    // docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going).
    let t = table();
    let mut rng = StdRng::seed_from_u64(21);
    let (mut same, mut changed) = (0, 0);
    for i in 0..400 {
        let choices: Vec<u32> = (0..rng.gen_range(0..16)).map(|_| rng.gen()).collect();
        // Every other game ends with a guest's blunder (a careless guest).
        let g = if i % 2 == 0 {
            history(&choices)
        } else {
            guest_blunder(&choices, rng.gen()).map_or(history(&choices), |b| b.game)
        };
        if g.outcome().is_some() || g.moves().is_empty() {
            continue;
        }
        let seed = rng.gen();
        let until_ply = if rng.gen_bool(0.5) { players::KEEP_GOING_PLIES } else { rng.gen_range(0..=g.moves().len()) };
        let keep = KeepGoing { until_ply, ..TEST_KEEP_GOING };
        let with = players::settai_keeping_going(t, &g, &mut StdRng::seed_from_u64(seed), keep).unwrap();
        let without = late_settai(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        if g.moves().len() >= until_ply || !players::guest_was_careless(&g) {
            assert_eq!(with, without, "after {:?}", g.moves());
            same += 1;
        } else if with != without {
            changed += 1;
        }
    }
    assert!(same > 100 && changed > 5, "{same} {changed}");
}
