//! The game loop and the guests, on a sub-game table built once.

use super::*;
use crate::hospitality::GuestResult;
use rand::SeedableRng;
use settai_core::doubutsu::table::{build, BuildOptions, BuiltTable, Material};
use std::sync::OnceLock;

const ROOT: &str = "1l1/1c1/1C1/1L1 b -";

fn table() -> &'static BuiltTable {
    static T: OnceLock<BuiltTable> = OnceLock::new();
    T.get_or_init(|| build(Material::of(&ROOT.parse().unwrap()), &BuildOptions::default()).unwrap())
}

#[test]
fn guest_names_round_trip() {
    for g in DoubutsuGuest::all() {
        assert_eq!(DoubutsuGuest::parse(&g.name()), Some(g), "{}", g.name());
    }
    assert_eq!(DoubutsuGuest::parse(" Softmax(2.5) "), Some(DoubutsuGuest::Softmax(2.5)));
    assert_eq!(DoubutsuGuest::parse("softmax(0)"), None);
    assert_eq!(DoubutsuGuest::parse("heuristic(9)"), None);
    assert_eq!(DoubutsuGuest::parse("grandmaster"), None);
    for l in ["settai", "strongest", "weakest", "settai-classic"] {
        assert_eq!(l.parse::<DoubutsuLevel>().map(DoubutsuLevel::as_str), Ok(l));
    }
    assert_eq!("雑魚".parse::<DoubutsuLevel>(), Ok(DoubutsuLevel::Weakest));
    assert_eq!("接待（原典）".parse::<DoubutsuLevel>(), Ok(DoubutsuLevel::SettaiClassic));
    assert!("none".parse::<DoubutsuLevel>().is_err());
}

#[test]
fn the_child_takes_a_win_in_one_and_otherwise_plays_anything() {
    // Sente's lion on B3 next to gote's on B2: the capture is the only win.
    let game = History::from_position("3/1l1/1L1/3 b -".parse().unwrap());
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for _ in 0..20 {
        let m = DoubutsuGuest::Child.choose(table(), &game, &mut rng).unwrap();
        assert!(game.position().captures_lion(m), "{m}");
    }
    // Without a win in one it taps every legal move sooner or later.
    let quiet = History::from_position("1l1/3/3/1L1 b -".parse().unwrap());
    let mut seen = std::collections::HashSet::new();
    for _ in 0..400 {
        seen.insert(DoubutsuGuest::Child.choose(table(), &quiet, &mut rng).unwrap());
    }
    assert_eq!(seen.len(), quiet.position().legal_moves().len());
}

#[test]
fn the_heeding_child_skips_marked_moves_as_often_as_told() {
    // Sente's lion on C3 attacked by gote's giraffe: some moves let it be taken.
    let game = History::from_position("1l1/3/1gL/E2 b -".parse().unwrap());
    let pos = game.position();
    let risky = pos.legal_moves().into_iter().filter(|&m| pos.loses_at_once(m)).count();
    assert!(risky > 0 && risky < pos.legal_moves().len());
    let share_risky = |q: f64| {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let n = 4000;
        let hits = (0..n)
            .filter(|_| pos.loses_at_once(DoubutsuGuest::HeedingChild(q).choose(table(), &game, &mut rng).unwrap()))
            .count();
        hits as f64 / n as f64
    };
    let careless = risky as f64 / pos.legal_moves().len() as f64;
    assert!((share_risky(0.0) - careless).abs() < 0.03, "q = 0 is the child");
    assert!(share_risky(1.0) == 0.0, "q = 1 never taps a marked move");
    assert!((share_risky(0.5) - careless / 2.0).abs() < 0.03, "q = 0.5 skips half of them");
    assert_eq!(DoubutsuGuest::parse("heeding-child"), Some(DoubutsuGuest::HeedingChild(DEFAULT_HEED)));
    assert_eq!(DoubutsuGuest::parse("heeding-child(0.25)"), Some(DoubutsuGuest::HeedingChild(0.25)));
    assert_eq!(DoubutsuGuest::parse("heeding-child(2)"), None);
    assert_eq!(
        DoubutsuGuest::parse(&DoubutsuGuest::HeedingChild(0.25).name()),
        Some(DoubutsuGuest::HeedingChild(0.25))
    );
}

#[test]
fn the_heeding_child_takes_back_offered_moves_and_the_record_is_the_final_game() {
    // Against `weakest` (which never misses a lion capture, so a blunder that lets the
    // lion be taken ends the game at once) and `settai` (which sometimes leaves it), with
    // take-backs on: every take-back undid a needless blunder the level did not punish,
    // and the record is a consistent game without the moves taken back.
    let start: Position = ROOT.parse().unwrap();
    let mut takebacks = 0;
    for level in [DoubutsuLevel::Settai, DoubutsuLevel::Weakest] {
        for seed in 0..40 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let g =
                play_game(table(), start, level, DoubutsuGuest::HeedingChild(0.5), Takebacks::On, &mut rng).unwrap();
            takebacks += g.takebacks;
            assert_eq!(g.moves.len(), g.plies as usize);
            assert_eq!(g.values.len(), g.plies as usize + 1);
            assert_eq!(g.ai_moves + g.guest_moves, g.plies);
            let moves: Vec<Move> = g.moves.iter().map(|m| m.parse().unwrap()).collect();
            let mut replay = History::from_position(start);
            for &m in &moves {
                replay.play(m).unwrap();
            }
            // Never a take-back where none is offered: the child and `heeding-child(0)`
            // never take one, nor anyone with take-backs off.
            for guest in [DoubutsuGuest::Child, DoubutsuGuest::HeedingChild(0.0)] {
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                assert_eq!(play_game(table(), start, level, guest, Takebacks::On, &mut rng).unwrap().takebacks, 0);
            }
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let off =
                play_game(table(), start, level, DoubutsuGuest::HeedingChild(0.5), Takebacks::Off, &mut rng).unwrap();
            assert_eq!(off.takebacks, 0);
        }
    }
    assert!(takebacks > 0, "no take-back in 80 games: the test would prove nothing");
}

#[test]
fn the_heeding_child_takes_back_what_the_coach_offers_and_nothing_else() {
    // When the coach offers is the core's rule (its own tests); here, that the guest asks
    // it about its own last move, and takes the offer only where take-backs are on.
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let always = DoubutsuGuest::HeedingChild(1.0);
    // Sente's lion on A4 stepping to A3, next to gote's lone lion on B2: a needless blunder.
    let before: Position = "3/1l1/3/LHC b -".parse().unwrap();
    let blunder: Move = "A4A3".parse().unwrap();
    let safe = before.legal_moves().into_iter().find(|&m| !before.loses_at_once(m)).expect("a safe move");
    // Every answer of the level that does not end the game, with the game after it.
    let answered = |mv: Move| -> Vec<History> {
        let mut g = History::from_position(before);
        g.play(mv).unwrap();
        g.legal_moves()
            .into_iter()
            .map(|r| {
                let mut h = g.clone();
                h.play(r).unwrap();
                h
            })
            .filter(|h| h.outcome().is_none())
            .collect()
    };
    let mut offers = 0;
    for game in answered(blunder) {
        let offered = doubutsu_offers_takeback(&before, blunder, &game, true);
        offers += usize::from(offered);
        assert_eq!(always.takes_offered_takeback(&game, Takebacks::On, &mut rng), offered, "{game:?}");
        assert!(!always.takes_offered_takeback(&game, Takebacks::Off, &mut rng));
        assert!(!DoubutsuGuest::Child.takes_offered_takeback(&game, Takebacks::On, &mut rng));
        assert!(!DoubutsuGuest::HeedingChild(0.0).takes_offered_takeback(&game, Takebacks::On, &mut rng));
    }
    assert!(offers > 0, "a quiet answer to the blunder");
    for game in answered(safe) {
        assert!(!always.takes_offered_takeback(&game, Takebacks::On, &mut rng), "nothing offered after {safe}");
    }
    // Only the guest's own move: gote's blunder, answered by sente, is offered nothing.
    let mut bots = History::from_position("chl/3/1L1/3 w -".parse().unwrap());
    bots.play("C1C2".parse().unwrap()).unwrap();
    let quiet = bots.legal_moves().into_iter().find(|&r| {
        let after = bots.position().play(r).unwrap();
        after.outcome().is_none() && after.winning_moves().is_empty()
    });
    bots.play(quiet.expect("a quiet answer")).unwrap();
    assert!(!always.takes_offered_takeback(&bots, Takebacks::On, &mut rng));
}

#[test]
fn endings_name_the_winner_the_way_and_the_losers_last_move() {
    // Gote (the bot) leaves its lion next to sente's, the guest captures it.
    let mut g = History::from_position("1l1/3/1L1/3 w -".parse().unwrap());
    g.play("B1A2".parse().unwrap()).unwrap();
    g.play("B3A2".parse().unwrap()).unwrap();
    assert_eq!(ending(&g), "W lion (chosen)");
    // The guest walks its lion next to the bot's (a loss-in-one although safe moves
    // existed); the bot answers in kind and loses its lion.
    let mut h = History::from_position("1l1/3/1L1/3 b -".parse().unwrap());
    h.play("B3B2".parse().unwrap()).unwrap();
    h.play("B1A1".parse().unwrap()).unwrap();
    h.play("B2A1".parse().unwrap()).unwrap();
    assert_eq!(ending(&h), "W lion (missed)");
    // A game still going at the cap.
    assert_eq!(ending(&History::from_position("1l1/3/3/1L1 b -".parse().unwrap())), "D cap");
}

#[test]
fn hanging_pieces_and_tells() {
    // Sente giraffe on B2 next to gote's lion on B1, undefended: it hangs.
    let p: Position = "1l1/1G1/3/1L1 w -".parse().unwrap();
    assert_eq!(hanging(&p, Color::Sente), 1);
    assert_eq!(hanging(&p, Color::Gote), 0);
    // Defended by the sente lion on B3, it does not.
    let q: Position = "1l1/1G1/1L1/3 w -".parse().unwrap();
    assert_eq!(hanging(&q, Color::Sente), 0);
    // Sente to move, giraffe safe on C3: moving it to C2 (next to the gote lion on B1,
    // undefended) is a tell because other moves keep everything.
    let r: Position = "1l1/3/2G/L2 b -".parse().unwrap();
    assert!(is_tell(&r, "C3C2".parse().unwrap()));
    assert!(!is_tell(&r, "C3C4".parse().unwrap()));
}

#[test]
fn games_are_consistent_records_and_reproducible() {
    let start: Position = ROOT.parse().unwrap();
    for level in DoubutsuLevel::ALL {
        for guest in DoubutsuGuest::all() {
            let mut rng = rand::rngs::StdRng::seed_from_u64(4);
            let g = play_game(table(), start, level, guest, Takebacks::Off, &mut rng).unwrap();
            assert_eq!(g.values.len(), g.plies as usize + 1);
            assert_eq!(g.moves.len(), g.plies as usize);
            assert_eq!(g.ai_moves + g.guest_moves, g.plies);
            assert!(g.ai_tells <= g.ai_moves && g.guest_tells <= g.guest_moves);
            // A finished game's last value is the result itself.
            match g.result {
                GuestResult::Win => assert!(*g.values.last().unwrap() > 0, "{level:?} {guest:?} {g:?}"),
                GuestResult::Loss => assert!(*g.values.last().unwrap() < 0, "{level:?} {guest:?} {g:?}"),
                GuestResult::Draw => {}
            }
            // The ending agrees with the result.
            let ending = g.ending.clone().unwrap();
            let mark = match g.result {
                GuestResult::Win => "W ",
                GuestResult::Loss => "L ",
                GuestResult::Draw => "D ",
            };
            assert!(ending.starts_with(mark), "{ending} {:?}", g.result);
            let mut again = rand::rngs::StdRng::seed_from_u64(4);
            assert_eq!(play_game(table(), start, level, guest, Takebacks::Off, &mut again).unwrap().moves, g.moves);
        }
    }
}

#[test]
fn the_perfect_guest_never_loses_a_won_position_and_strongest_never_loses_a_won_one() {
    // In this sub-game the first player wins or draws with perfect play: the perfect guest
    // keeps the table's verdict against every level.
    let start: Position = ROOT.parse().unwrap();
    let verdict = dob::value_of(table(), &start).unwrap();
    for level in DoubutsuLevel::ALL {
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        let g = play_game(table(), start, level, DoubutsuGuest::Perfect, Takebacks::Off, &mut rng).unwrap();
        match verdict {
            Value::Win(_) => assert_eq!(g.result, GuestResult::Win, "{level:?}"),
            Value::Loss(_) if level == DoubutsuLevel::Strongest => assert_eq!(g.result, GuestResult::Loss),
            _ => {}
        }
    }
}
