//! Deviation 5 (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going):
//! early in a careless guest's game settai keeps it going, and only then.

use super::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, failure_persistence: None, ..ProptestConfig::default() })]

    /// Deviation 5
    /// (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going): early in
    /// a careless guest's game settai neither wins nor loses at once while another move remains,
    /// and its move has the best chance of keeping the game going among such moves that
    /// deviation 6 leaves.
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
        prop_assert!(tactics::guest_was_careless(&g));
        let p = *g.position();
        let reply = early_settai(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        // The moves the table values that neither win nor lose at once (as settai sees them),
        // among those deviation 6 keeps, which it applies first.
        let valued: Vec<_> = p
            .legal_moves()
            .into_iter()
            .filter_map(|m| players::value_of(t, &p.play(m).unwrap()).ok().map(|v| (m, v.parent())))
            .collect();
        let quiet: Vec<_> = candidates(t, &g, &valued, true, true)
            .into_iter()
            .map(|c| c.0)
            .filter(|&m| !p.loses_at_once(m) && !tactics::wins_at_once(&p, m))
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
        if g.moves().len() >= until_ply || !tactics::guest_was_careless(&g) {
            assert_eq!(with, without, "after {:?}", g.moves());
            same += 1;
        } else if with != without {
            changed += 1;
        }
    }
    assert!(same > 100 && changed > 5, "{same} {changed}");
}
