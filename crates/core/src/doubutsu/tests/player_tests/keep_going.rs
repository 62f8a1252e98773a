//! Deviations 5 and 7 (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going,
//! docs/design/doubutsu-settai.md#deviation-7-reading-ahead-after-a-slip): early in a careless
//! guest's game, or after a guest's slip, settai keeps it going, and only then.

use super::*;

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

/// Whether the guest's last move in `g` was not its best (a table that cannot value it counts
/// it as a slip, as settai does).
fn slipped(g: &History) -> bool {
    let (before, mv) = g.last_move().expect("a move was played");
    analyze(table(), &before, mv).map_or(true, |a| a.score < a.best_score)
}

/// The game of `choices` followed by a guest's move that neither loses at once nor is its
/// best (`pick` chooses which), if there is one.
fn guest_slip(choices: &[u32], pick: usize) -> Option<History> {
    let mut game = history(choices);
    if game.outcome().is_some() {
        return None;
    }
    let before = *game.position();
    let evals = evaluate_moves(table(), &before).ok()?;
    let best = evals.iter().map(|e| score(e.1)).max()?;
    let slips: Vec<_> = evals.iter().filter(|e| score(e.1) < best && !before.loses_at_once(e.0)).map(|e| e.0).collect();
    let &m = slips.get(pick % slips.len().max(1))?;
    game.play(m).unwrap();
    game.outcome().is_none().then_some(game)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, failure_persistence: None, ..ProptestConfig::default() })]

    /// Deviation 7 (docs/design/doubutsu-settai.md#deviation-7-reading-ahead-after-a-slip):
    /// early in the game of a guest who has not blundered, after a move that was not its best,
    /// settai plays a move the divergence rule allows that does not win at once, with the best
    /// chance of keeping the game going among those, and the best score among those.
    #[test]
    fn early_after_a_slip_settai_reads_among_the_moves_the_rule_allows(
        choices in prop::collection::vec(any::<u32>(), 1..18),
        seed in any::<u64>(),
    ) {
        let t = table();
        let g = history(&choices);
        prop_assume!(g.outcome().is_none() && !g.moves().is_empty());
        prop_assume!(g.moves().len() < players::KEEP_GOING_PLIES && !players::guest_was_careless(&g));
        prop_assume!(slipped(&g));
        let p = *g.position();
        // Away from the repetition rules.
        prop_assume!(p.legal_moves().iter().all(|&m| players::seen_before(&g, m) == 0));
        let (before, mv) = g.last_move().unwrap();
        let guest = analyze(t, &before, mv).unwrap();
        let valued: Vec<_> = p
            .legal_moves()
            .into_iter()
            .filter_map(|r| players::value_of(t, &p.play(r).unwrap()).ok().map(|v| (r, v.parent())))
            .collect();
        let best = valued.iter().map(|e| score(e.1)).max().unwrap();
        let guest_divergence = divergence(guest.score, guest.best_score);
        let quiet: Vec<_> = candidates(&p, &valued, false)
            .into_iter()
            .filter(|&(m, s)| divergence(s, best) <= guest_divergence + 1e-12 && !players::wins_at_once(&p, m))
            .collect();
        prop_assume!(!quiet.is_empty());
        let reply = early_settai(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        let moves: Vec<_> = quiet.iter().map(|c| c.0).collect();
        prop_assert!(moves.contains(&reply), "{} after {:?}", reply, g.moves());
        let chance = chances(&g, &moves);
        let top = *chance.iter().max().unwrap();
        let at = moves.iter().position(|&m| m == reply).unwrap();
        prop_assert_eq!(chance[at], top, "{} after {:?}", reply, g.moves());
        let top_score = quiet.iter().zip(&chance).filter(|(_, &c)| c == top).map(|(q, _)| q.1).max().unwrap();
        prop_assert_eq!(quiet[at].1, top_score, "{} after {:?}", reply, g.moves());
    }
}

#[test]
fn deviations_five_and_seven_change_early_replies_after_a_blunder_or_a_slip_only() {
    use rand::Rng;
    // Against a guest who never left a win in one and has just played its best move, and from
    // the ply where they stop, settai is the same with or without deviations 5 and 7; before
    // it, after a guest's loss-in-one or a slip, they do change replies (neither is idle;
    // docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going,
    // docs/design/doubutsu-settai.md#deviation-7-reading-ahead-after-a-slip).
    let t = table();
    let mut rng = StdRng::seed_from_u64(21);
    let (mut same, mut changed_careless, mut changed_slip) = (0, 0, 0);
    for i in 0..900 {
        let choices: Vec<u32> = (0..rng.gen_range(0..16)).map(|_| rng.gen()).collect();
        // A third of the games end with a guest's blunder (a careless guest), a third with a
        // slip.
        let g = match i % 3 {
            0 => history(&choices),
            1 => guest_blunder(&choices, rng.gen()).map_or(history(&choices), |b| b.game),
            _ => guest_slip(&choices, rng.gen()).unwrap_or(history(&choices)),
        };
        if g.outcome().is_some() || g.moves().is_empty() {
            continue;
        }
        let seed = rng.gen();
        // The slips keep the deviations on: in this sub-game the read changes few replies.
        let until_ply = if i % 3 == 2 || rng.gen_bool(0.5) {
            players::KEEP_GOING_PLIES
        } else {
            rng.gen_range(0..=g.moves().len())
        };
        let keep = KeepGoing { until_ply, ..TEST_KEEP_GOING };
        let with = players::settai_keeping_going(t, &g, &mut StdRng::seed_from_u64(seed), keep).unwrap();
        let without = late_settai(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        let careless = players::guest_was_careless(&g);
        if g.moves().len() >= until_ply || (!careless && !slipped(&g)) {
            assert_eq!(with, without, "after {:?}", g.moves());
            same += 1;
        } else if with != without {
            if careless {
                changed_careless += 1;
            } else {
                changed_slip += 1;
            }
        }
    }
    assert!(same > 100 && changed_careless > 5 && changed_slip > 5, "{same} {changed_careless} {changed_slip}");
}
