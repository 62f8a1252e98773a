//! A guest's loss-in-one: when it counts, try attempts, and settai's answer in kind or by giving
//! the win slowly (docs/design/doubutsu-settai.md#deviation-4-giving-the-win-slowly).

use super::*;

#[test]
fn a_loss_in_one_counts_only_when_a_safe_move_existed() {
    use super::super::mv;
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
    use super::super::mv;
    // Gote's lion on B3, sente's on C4 (far from it), a gote chick on A3: gote to move.
    let p = pos("3/3/cl1/2L w -");
    assert!(tactics::try_attempt(&p, mv("B3B4")) && tactics::try_attempt(&p, mv("B3A4")));
    assert!(!tactics::try_attempt(&p, mv("B3B2")), "not the far row");
    assert!(!tactics::try_attempt(&p, mv("A3A4")), "not the lion");
    // Sente's far row is row 1.
    let q = pos("l2/1L1/3/3 b -");
    assert!(tactics::try_attempt(&q, mv("B2B1")) && !tactics::try_attempt(&q, mv("B2B3")));
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
            if g.outcome().is_some() || g.legal_moves().iter().any(|&r| tactics::seen_before(&g, r) > 0) {
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
    for _ in 0..400 {
        let choices: Vec<u32> = (0..rng.gen_range(0..30)).map(|_| rng.gen()).collect();
        let mut g = history(&choices);
        let before = *g.position();
        if g.outcome().is_some() || g.legal_moves().iter().any(|&m| before.captures_lion(m)) {
            continue;
        }
        let blunders: Vec<_> = before.legal_moves().into_iter().filter(|&m| guest_lost_at_once(&before, m)).collect();
        let Some(&m) = blunders.choose(&mut rng) else { continue };
        g.play(m).unwrap();
        if g.outcome().is_some() || g.legal_moves().iter().any(|&r| tactics::seen_before(&g, r) > 0) {
            continue;
        }
        let p = *g.position();
        let guest = analyze(t, &before, m).unwrap();
        let valued = evaluate_moves(t, &p).unwrap();
        let best = valued.iter().map(|e| score(e.1)).max().unwrap();
        let pool = candidates(t, &g, &valued, true, true);
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
        let pool: Vec<i32> = candidates(t, &g, &valued, true, true).into_iter().map(|c| c.1).collect();
        if pool.len() < valued.len() {
            // Some try trap was left out: the reply is none of them.
            prop_assert!(!(p.loses_at_once(reply) && tactics::try_attempt(&p, reply)), "{}", reply);
        }
        let qualifying: Vec<i32> = pool.iter().copied().filter(|&c| divergence(c, best) <= guest.divergence + 1e-12).collect();
        let seed_aim = if qualifying.is_empty() { *pool.iter().min().unwrap() } else { *qualifying.iter().max().unwrap() };
        let pool_moves = candidates(t, &g, &valued, true, true);
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
