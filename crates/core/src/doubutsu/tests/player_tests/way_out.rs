//! Deviation 6 (docs/design/doubutsu-settai.md#deviation-6-leaving-a-careless-guest-a-way-out):
//! a guest who has blundered is never cornered (left only moves that lose at once) while settai
//! has a move that neither loses at once nor corners it; and, after such a guest's move that was
//! not its best, settai's move leaves no best reply of the guest's after which settai's answer
//! (the seed's choice, which settai must then play) corners it, while another such move exists.

use rand::Rng;

use super::*;

#[test]
fn a_careless_guest_is_left_a_way_out() {
    let t = table();
    let mut rng = StdRng::seed_from_u64(61);
    let (mut checked, mut could_corner) = (0, 0);
    for _ in 0..600 {
        // Past the plies deviation 5 looks after.
        let Some(game) = careless_game_played_on(t, &mut rng, 0) else { continue };
        let p = *game.position();
        assert!(tactics::guest_was_careless(&game));
        let fresh = |m| tactics::seen_before(&game, m) == 0;
        let way_out = p.legal_moves().into_iter().any(|m| fresh(m) && !p.loses_at_once(m) && !corners(&p, m));
        could_corner += usize::from(p.legal_moves().into_iter().any(|m| !p.loses_at_once(m) && corners(&p, m)));
        let reply = late_settai(t, &game, &mut StdRng::seed_from_u64(rng.gen())).unwrap();
        assert_eq!(tactics::leaves_a_way_out(&p, reply), !corners(&p, reply));
        if way_out {
            assert!(!corners(&p, reply), "{reply} corners the guest after {:?}", game.moves());
            checked += 1;
        }
    }
    assert!(checked > 100 && could_corner > 10, "{checked} positions checked, {could_corner} where a move cornered");
}

#[test]
fn a_corner_is_seen_and_avoided_after_a_blunder() {
    // Gote (settai) to move: sente's lion on A4, alone; gote's chick on A2 and giraffe on B2
    // guard A3 and B3, and C3C4 would guard B4 too.
    let cornering: super::super::super::Move = "C3C4".parse().unwrap();
    let p = pos("2l/cg1/2g/L2 w c");
    assert!(corners(&p, cornering) && !tactics::leaves_a_way_out(&p, cornering));
    assert!(p.legal_moves().into_iter().any(|m| !p.loses_at_once(m) && tactics::leaves_a_way_out(&p, m)));
    // The same position after a careless sente: its lion walked into the giraffe (A4B3, a
    // needless blunder), gote let it be, and it walked back.
    let mut careless = History::from_position(pos("1l1/cg1/2g/L2 b c"));
    for m in ["A4B3", "B1C1", "B3A4"] {
        careless.play(m.parse().unwrap()).unwrap();
    }
    assert_eq!(*careless.position(), p);
    assert!(tactics::guest_was_careless(&careless));
    // Past the plies deviation 5 reads ahead for, the rule itself keeps the corner shut.
    let t = table();
    let mut cornered = 0;
    for seed in 0..40 {
        let reply = late_settai(t, &careless, &mut StdRng::seed_from_u64(seed)).unwrap();
        cornered += usize::from(corners(&p, reply));
    }
    assert_eq!(cornered, 0);
}

#[test]
fn a_careless_guest_is_left_a_way_out_further_on() {
    let t = table();
    let mut rng = StdRng::seed_from_u64(62);
    let (mut checked, mut could_corner) = (0, 0);
    for _ in 0..600 {
        // Stopped after a guest move that was not its best.
        let Some(game) = careless_game_played_on(t, &mut rng, 1) else { continue };
        let p = *game.position();
        let (before, guest_move) = game.last_move().unwrap();
        if analyze(t, &before, guest_move).unwrap().divergence >= 1.0 {
            continue;
        }
        let fresh = |m| tactics::seen_before(&game, m) == 0;
        let open = |m| fresh(m) && !p.loses_at_once(m) && !corners(&p, m);
        let opens: Vec<_> = p.legal_moves().into_iter().filter(|&m| open(m)).collect();
        let cornering = opens.iter().filter(|&&m| cornered_ahead(t, &game, m)).count();
        could_corner += usize::from(cornering > 0);
        if cornering == 0 || cornering == opens.len() {
            continue;
        }
        for seed in 0..4 {
            let reply = late_settai(t, &game, &mut StdRng::seed_from_u64(seed)).unwrap();
            assert!(
                !cornered_ahead(t, &game, reply),
                "{reply} lets the seed's choice corner the guest after {:?}",
                game.moves()
            );
            assert!(!players::seeds_choice_may_corner(t, &game, reply, KeepGoing::OFF));
        }
        checked += 1;
    }
    // Positions where settai chose between moves that let the seed's choice corner the guest
    // and moves that do not (in the others every open move does, or none).
    assert!(checked > 20, "{checked} positions checked, {could_corner} where a move could corner");
}

/// A game from the sub-game's root that ends in a guest's blunder, played on for
/// `min_plies..30` plies (as many as the game allows) by settai against a guest tapping at
/// random: `None` unless settai is then to move in a live game whose every reply the table
/// values.
fn careless_game_played_on(t: &BuiltTable, rng: &mut StdRng, min_plies: i32) -> Option<History> {
    let choices: Vec<u32> = (0..rng.gen_range(0..14)).map(|_| rng.gen()).collect();
    let GuestBlunder { mut game, .. } = guest_blunder(&choices, rng.gen())?;
    for _ in 0..rng.gen_range(min_plies..30) {
        if game.outcome().is_some() || game.legal_moves().iter().any(|&m| game.position().captures_lion(m)) {
            break;
        }
        let mv = if game.position().turn() == pos(ROOT).turn() {
            *game.legal_moves().choose(rng).unwrap()
        } else {
            late_settai(t, &game, rng).unwrap()
        };
        game.play(mv).unwrap();
    }
    let p = *game.position();
    let live = game.outcome().is_none() && p.turn() != pos(ROOT).turn();
    (live && p.legal_moves().iter().all(|&m| players::value_of(t, &p.play(m).unwrap()).is_ok())).then_some(game)
}
