//! The seed's rules: settai's divergence rule, the weakest and strongest players, the analysis,
//! whole games, and the positions after a missed lion capture.

use super::*;

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
        prop_assume!(g.legal_moves().iter().all(|&m| tactics::seen_before(&g, m) == 0));
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
        // A guest who blundered earlier in the history is never cornered (deviation 6), unless
        // its last move was its best: then the seed's choice.
        let careless = tactics::guest_was_careless(&g) && guest.divergence < 1.0;
        let pool = candidates(t, &g, &valued, blundered, careless);
        let candidates: Vec<i32> = pool.iter().map(|c| c.1).collect();
        let qualifying: Vec<i32> = candidates.iter().copied().filter(|&c| divergence(c, best) <= guest.divergence + 1e-12).collect();
        if guest.divergence == 1.0 {
            // The best answer to a best move: against a guest who has played its best, exactly
            // the seed, after any history.
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
        let mut g = History::from_position(pos(ROOT));
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
    use super::super::super::players::value_of;
    use super::super::naive;
    let root = pos("1l1/1c1/1C1/1L1 b -");
    let t = build(Material::of(&root), &BuildOptions::default()).unwrap();
    let mut rng = StdRng::seed_from_u64(11);
    let mut checked = 0;
    for _ in 0..400 {
        let mut g = History::from_position(root);
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
                    let solved = naive::solve(&[super::super::from_engine(&q)]);
                    let want = super::super::table_tests::naive_value(solved.values[&super::super::from_engine(&q)]);
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
        let mut g = History::from_position(pos(ROOT));
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
    use super::super::super::heuristic::heuristic;
    use super::super::super::players::{settai_or_weakest, strongest_or_heuristic};
    // The table of this sub-game knows nothing of positions with elephants.
    let t = table();
    let game = History::from_position(pos("el1/1c1/1C1/1LE b -"));
    assert!(settai(t, &game, &mut StdRng::seed_from_u64(1)).is_err());
    assert!(strongest(t, &game).is_err());
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
