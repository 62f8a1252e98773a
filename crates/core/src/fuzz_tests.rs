//! Bad input, generated (docs/design/bot-reliability.md#robustness): move text and stored games
//! from anywhere never panic, and whatever is accepted is consistent with what the rules and the
//! stored form say.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{doubutsu, reversi, Game, GameKind};

/// The game after `plies` random legal moves from the start (or its end, if sooner).
fn playout(kind: GameKind, seed: u64, plies: usize) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(kind);
    for _ in 0..plies {
        let legal = game.legal_moves();
        if game.outcome().is_some() || legal.is_empty() {
            break;
        }
        game = game.play(legal[rng.gen_range(0..legal.len())]).expect("legal");
    }
    game
}

fn kind() -> impl Strategy<Value = GameKind> {
    prop_oneof![Just(GameKind::Reversi), Just(GameKind::Doubutsu)]
}

/// Text a player might send: anything, or a legal-looking move in odd case with stray spaces.
fn move_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ ]{0,2}[a-hA-H][1-9][ ]{0,2}",
        "[ ]{0,2}[a-dA-D][0-5] ?[a-dA-D][0-5][ ]{0,2}",
        "[lgecLGECxX] ?\\* ?[a-cA-C][1-4]",
        "(pass|PASS|Pass| pass )",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_move_text_is_refused_or_played_as_the_legal_move_it_names(
        kind in kind(), seed in any::<u64>(), plies in 0usize..60, text in move_text(),
    ) {
        let game = playout(kind, seed, plies);
        if let Ok((mv, next)) = game.parse_move(&text).and_then(|mv| Ok((mv, game.play(mv)?))) {
            prop_assert!(game.legal_moves().contains(&mv), "{text:?} -> {mv}");
            let canonical = game.parse_move(&mv.to_string()).expect("the canonical form parses");
            prop_assert_eq!(canonical, mv);
            prop_assert_eq!(game.play(canonical).expect("the canonical form plays"), next);
        }
    }

    #[test]
    fn parsed_moves_print_as_text_that_parses_back(text in move_text()) {
        if let Ok(m) = text.parse::<reversi::Move>() {
            prop_assert_eq!(m.to_string().parse::<reversi::Move>().ok(), Some(m));
        }
        if let Ok(m) = text.parse::<doubutsu::Move>() {
            prop_assert_eq!(m.to_string().parse::<doubutsu::Move>().ok(), Some(m));
        }
    }

    #[test]
    fn stored_games_read_back_or_are_refused_never_misread(
        kind in kind(), seed in any::<u64>(), plies in 0usize..60, at in any::<usize>(), with in any::<char>(),
        garbage in any::<String>(),
    ) {
        let game = playout(kind, seed, plies);
        let stored = game.encode();
        prop_assert_eq!(Game::decode(kind, &stored).ok(), Some(game.stored_position()));
        // One character changed anywhere, or text from nowhere: refused, or positions whose own
        // stored form reads back to themselves (which the store then holds against the moves
        // replayed from the start they name).
        let mut chars: Vec<char> = stored.chars().collect();
        let i = at % chars.len();
        chars[i] = with;
        for text in [chars.into_iter().collect::<String>(), garbage] {
            if let Ok(read) = Game::decode(kind, &text) {
                prop_assert_eq!(Game::decode(kind, &read.to_string()).ok(), Some(read));
            }
        }
    }
}
