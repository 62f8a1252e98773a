//! The seed's levels: `standard`'s full read, ranking and jitter, `highest`'s full read and its
//! cooperative search.

use super::*;

#[test]
fn standard_full_read_picks_the_reference_best_and_never_jitters() {
    let mut rng = StdRng::seed_from_u64(61);
    // StepRng(0, 0) makes every gen_bool(0.35) true: jitter would fire if it could.
    let mut always_jitter = StepRng::new(0, 0);
    let mut wins_possible = 0;
    for i in 0..16 {
        let pos = random_position(&mut rng, 5 + i % 5, 2);
        let cpu = pos.turn();
        let human = cpu.opposite();
        let value = |q: &Position| standard_final_value(human_margin(q, human));
        let c = choose(Sontaku::Standard, &pos, &mut always_jitter);
        assert_eq!(c.stage, SontakuStage::FullRead);
        assert!(!c.jittered);
        let chosen = reference(&play_sq(&pos, c.best), cpu, &value);
        let best = reference(&pos, cpu, &value);
        assert_eq!(chosen, best, "{}", pos.to_text());
        // Every engine value is the exact minimax value of that move.
        for &(sq, v) in &c.ranked {
            assert_eq!(v, reference(&play_sq(&pos, sq), cpu, &value));
        }
        if best > 0 {
            // A guaranteed human win exists, so the chosen move guarantees one.
            wins_possible += 1;
            let worst_margin = reference(&play_sq(&pos, c.best), cpu, &|q| human_margin(q, human));
            assert!(worst_margin > 0 || chosen > 0);
        }
    }
    assert!(wins_possible > 0, "the sample should include positions with a human win");
}

#[test]
fn standard_human_win_ranks_above_every_loss_and_six_is_the_aim() {
    for m in 1..=64 {
        assert!(standard_final_value(m) > standard_final_value(0));
        for l in -64..0 {
            assert!(standard_final_value(m) > standard_final_value(l));
        }
        if m != TARGET_WIN_MARGIN {
            assert!(standard_final_value(TARGET_WIN_MARGIN) > standard_final_value(m));
        }
    }
    // Every final value is beyond every heuristic desirability.
    let worst_heuristic = standard_desirability(-999).min(standard_desirability(999));
    assert!(standard_final_value(1) > 0 && standard_final_value(0) < worst_heuristic);
    // Shortfall costs 1.0, excess 0.7 (scaled by 10).
    assert_eq!(standard_desirability(STANDARD_TARGET), 0);
    assert_eq!(standard_desirability(STANDARD_TARGET - 10), -100);
    assert_eq!(standard_desirability(STANDARD_TARGET + 10), -70);
}

#[test]
fn jitter_plays_second_or_third_about_35_percent_outside_the_full_read() {
    let mut rng = StdRng::seed_from_u64(9);
    let mut counts = [0usize; 3];
    for _ in 0..20_000 {
        counts[jitter_index(5, false, &mut rng)] += 1;
        assert_eq!(jitter_index(5, true, &mut rng), 0);
    }
    let rate = (counts[1] + counts[2]) as f64 / 20_000.0;
    assert!((0.33..0.37).contains(&rate), "jitter rate {rate}");
    assert!(counts[1] > 0 && counts[2] > 0);
    assert_eq!(jitter_index(1, false, &mut rng), 0);
    // A midgame choice with a jitter-forcing rng plays a lower-ranked move.
    let mut srng = StdRng::seed_from_u64(3);
    let pos = random_position(&mut srng, 36, 2);
    let mut engine = Engine::new(18).with_clock(Clock::Wall(Instant::now));
    engine.set_deadline(Some(engine.now() + Duration::from_millis(300)));
    let c =
        engine.sontaku(PatternEval::shared(), Sontaku::Standard, pos.player(), pos.opponent(), &mut StepRng::new(0, 0));
    assert_eq!(c.stage, SontakuStage::Midgame);
    assert!(c.jittered);
    assert_ne!(c.best, c.ranked[0].0);
    assert!(c.ranked[1..c.ranked.len().min(3)].iter().any(|&(s, _)| s == c.best));
}

#[test]
fn nearly_equal_moves_go_to_the_cpus_own_interest() {
    let values = [(1, -101), (2, -90), (3, -60), (4, -500)];
    let own = [(1, 50), (2, 300), (3, -20)];
    let ranked = rank_moves(&values, &own, 40);
    // 2 and 3 are within 40 of the best (-60); 2 is better for the CPU.
    assert_eq!(ranked.iter().map(|r| r.0).collect::<Vec<_>>(), [2, 3, 1, 4]);
    let strict = rank_moves(&values, &own, 0);
    assert_eq!(strict.iter().map(|r| r.0).collect::<Vec<_>>(), [3, 2, 1, 4]);
}

#[test]
fn highest_full_read_maximises_the_human_result() {
    let mut rng = StdRng::seed_from_u64(12);
    for _ in 0..8 {
        let pos = random_position(&mut rng, 9, 2);
        let cpu = pos.turn();
        let human = cpu.opposite();
        let value = |q: &Position| highest_final_value(human_margin(q, human), q.count(cpu));
        let c = choose(Sontaku::Highest, &pos, &mut rng);
        assert_eq!(c.stage, SontakuStage::FullRead);
        let best = reference(&pos, cpu, &value);
        assert_eq!(reference(&play_sq(&pos, c.best), cpu, &value), best, "{}", pos.to_text());
    }
}

#[test]
fn cooperative_search_never_gives_up_the_guaranteed_win() {
    let mut rng = StdRng::seed_from_u64(2718);
    let mut tried = 0;
    let mut cooperative_gain = 0;
    while tried < 12 {
        let e = 5 + rng.gen_range(0..4);
        let pos = random_position(&mut rng, e, 2);
        let cpu = pos.turn();
        let human = cpu.opposite();
        let guarantee = reference(&pos, cpu, &|q| human_margin(q, human));
        if guarantee < GUARANTEE_MARGIN {
            continue;
        }
        tried += 1;
        let c = choose(Sontaku::Highest, &pos, &mut rng);
        assert_eq!(c.stage, SontakuStage::Cooperative);
        // The chosen move keeps the guarantee...
        let kept = reference(&play_sq(&pos, c.best), cpu, &|q| human_margin(q, human));
        assert!(kept >= GUARANTEE_MARGIN, "{} kept only {kept}", pos.to_text());
        // ...and over whole games against a random human the win by 8 always holds.
        for _ in 0..4 {
            let mut q = pos;
            while !q.is_game_over() {
                let m = if q.turn() == cpu && q.legal_mask().count_ones() >= 2 {
                    let c = choose(Sontaku::Highest, &q, &mut rng);
                    Move::Place(crate::reversi::rules::board::Square::new(c.best).unwrap())
                } else {
                    let legal = q.legal_moves();
                    legal[rng.gen_range(0..legal.len())]
                };
                q = q.play(m).unwrap();
            }
            let final_margin = human_margin(&q, human);
            assert!(final_margin >= GUARANTEE_MARGIN, "{}: final {final_margin}", pos.to_text());
            cooperative_gain += i32::from(final_margin > guarantee);
        }
    }
    assert!(cooperative_gain > 0, "cooperation should sometimes beat the guaranteed minimum");
}
