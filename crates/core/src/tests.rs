//! Tests of the vocabulary both games share.

#[test]
fn move_details_name_the_animal_the_capture_and_the_flips() {
    use super::{doubutsu::Role, Game, GameKind, MoveDetail};
    let detail = |game: &Game, text| game.move_detail(game.parse_move(text).unwrap());
    let reversi = Game::new(GameKind::Reversi);
    assert_eq!(detail(&reversi, "d3"), Some(MoveDetail::Place { flips: 1 }));
    assert_eq!(detail(&reversi, "a1"), None, "not a move here");
    let doubutsu = Game::new(GameKind::Doubutsu);
    let chick_takes_chick = Some(MoveDetail::Step { role: Role::Chick, captures: Some(Role::Chick) });
    assert_eq!(detail(&doubutsu, "B3B2"), chick_takes_chick);
    assert_eq!(detail(&doubutsu, "B4A3"), Some(MoveDetail::Step { role: Role::Lion, captures: None }));
    assert_eq!(doubutsu.move_detail(reversi.parse_move("d3").unwrap()), None, "a move of the other game");
    let after = doubutsu.play(doubutsu.parse_move("B3B2").unwrap()).unwrap();
    let after = after.play(after.parse_move("B1B2").unwrap()).unwrap();
    assert_eq!(detail(&after, "C*B3"), Some(MoveDetail::Drop { role: Role::Chick }));
    assert!(after.play(reversi.parse_move("d3").unwrap()).is_err(), "a move of the other game is refused");
}

use super::*;
use rand::SeedableRng;

/// A doubutsu game's stored text holds its position and nothing of its moves, which are stored
/// apart (docs/design/storage.md): every position of a game reads back as itself.
#[test]
fn doubutsu_games_round_trip_through_their_stored_form() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    let mut game = Game::new(GameKind::Doubutsu);
    for _ in 0..30 {
        if game.to_move().is_none() {
            break;
        }
        let mv = game
            .ai_move(
                Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest),
                None::<&doubutsu::BuiltTable>,
                &mut Thinker::new(std::time::Instant::now),
                &mut rng,
            )
            .unwrap()
            .unwrap();
        game = game.play(mv).unwrap();
        let stored = game.encode();
        let Game::Doubutsu(g) = &game else { unreachable!() };
        assert_eq!(stored, g.history().position().to_string(), "the position alone");
        assert_eq!(Game::decode(GameKind::Doubutsu, &stored).unwrap(), game.stored_position(), "{stored}");
    }
    // The format before it, a move list beside the position, is refused rather than misread.
    let Game::Doubutsu(g) = &game else { unreachable!() };
    let moves: Vec<String> = g.history().moves().iter().map(|m| m.to_string()).collect();
    assert!(Game::decode(GameKind::Doubutsu, &format!("{};{}", game.encode(), moves.join(" "))).is_err());
    assert!(Game::decode(GameKind::Doubutsu, &format!("{};", game.encode())).is_err());
    assert!(Game::decode(GameKind::Doubutsu, "").is_err());
}

#[test]
fn doubutsu_games_from_a_set_up_position_keep_their_start() {
    let start: doubutsu::Position = "1l1/1c1/1C1/1L1 b -".parse().unwrap();
    let mut inner = doubutsu::History::from_position(start);
    inner.play("B4A4".parse().unwrap()).unwrap();
    let game = Game::Doubutsu(DoubutsuGame::new(inner));
    let stored = game.encode();
    let Game::Doubutsu(g) = &game else { unreachable!() };
    assert_eq!(stored, format!("{};1l1/1c1/1C1/1L1 b -", g.history().position()), "{stored}");
    let read = Game::decode(GameKind::Doubutsu, &stored).unwrap();
    assert_eq!(read, game.stored_position());
    assert_eq!(read.start(), game.initial(), "the start the moves are replayed from");
    // The same position from the official start is another game.
    let (position, _) = stored.split_once(';').unwrap();
    assert_ne!(Game::decode(GameKind::Doubutsu, position).unwrap(), read);
    assert!(Game::decode(GameKind::Doubutsu, &format!("{stored};extra")).is_err());
    assert!(Game::decode(GameKind::Doubutsu, &format!("{position};not a position")).is_err());
    // The format before: a move list between the position and the start.
    assert!(Game::decode(GameKind::Doubutsu, &format!("{position};B4A4;1l1/1c1/1C1/1L1 b -")).is_err());
}

/// A stored game's start reads from its text, and its moves played in place from there lead
/// to the game itself, which the text names; a refused move leaves the game as it was.
#[test]
fn a_stored_game_replays_in_place_from_its_start() {
    let set_up: doubutsu::Position = "1l1/1c1/1C1/1L1 b -".parse().unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for start in [
        Game::new(GameKind::Reversi),
        Game::new(GameKind::Doubutsu),
        Game::Doubutsu(DoubutsuGame::new(doubutsu::History::from_position(set_up))),
    ] {
        let mut game = start.clone();
        let mut moves = Vec::new();
        while game.to_move().is_some() && moves.len() < 40 {
            let legal = game.legal_moves();
            let mv = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
            game = game.play(mv).unwrap();
            moves.push(mv);
        }
        let stored = Game::decode(start.kind(), &game.encode()).unwrap();
        let mut replayed = stored.start();
        assert_eq!(replayed, start);
        for &mv in &moves {
            replayed.play_in_place(mv).unwrap();
        }
        assert_eq!(replayed, game);
        assert_eq!(replayed.stored_position(), stored);
        if !moves.is_empty() {
            assert_ne!(start.stored_position(), stored, "the start is not where the game is");
        }
        let other_game = if game.kind() == GameKind::Reversi { "B3B2" } else { "d3" };
        let foreign = Game::new(if game.kind() == GameKind::Reversi { GameKind::Doubutsu } else { GameKind::Reversi })
            .parse_move(other_game)
            .unwrap();
        assert!(replayed.play_in_place(foreign).is_err());
        assert_eq!(replayed, game, "a refused move changes nothing");
    }
}

#[test]
fn table_levels_need_the_table_and_say_so() {
    let game = Game::new(GameKind::Doubutsu);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    assert!(matches!(
        game.ai_move(
            Level::Doubutsu(doubutsu::DoubutsuLevel::Settai),
            None::<&doubutsu::BuiltTable>,
            &mut Thinker::new(std::time::Instant::now),
            &mut rng
        ),
        Err(AiError::NoTable)
    ));
    assert!(matches!(
        game.ai_move(
            Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest),
            None::<&doubutsu::BuiltTable>,
            &mut Thinker::new(std::time::Instant::now),
            &mut rng
        ),
        Err(AiError::NoTable)
    ));
    assert!(Level::Doubutsu(doubutsu::DoubutsuLevel::Settai).needs_table());
    assert!(!Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest).needs_table());
    assert!(!Level::Reversi(reversi::ReversiLevel::NoMercy).needs_table());
}

#[test]
fn the_human_moves_of_a_reversi_game_come_with_their_positions_or_not_at_all() {
    let text = ["f5", "d6", "c3", "d3"];
    let moves: Vec<GameMove> = text.iter().map(|s| GameMove::parse(GameKind::Reversi, s).unwrap()).collect();
    let mut positions = vec![reversi::Position::start()];
    for m in text {
        let next = positions.last().unwrap().play(m.parse().unwrap()).unwrap();
        positions.push(next);
    }
    let pos = positions[4];
    // Black is to move (the bot), so the human is white: d6 and d3, played after 1 and 3 plies.
    assert_eq!(pos.turn(), reversi::Color::Black);
    let got = human_moves(&pos, &moves);
    let expected: Vec<(reversi::Position, reversi::Move)> =
        vec![(positions[1], "d6".parse().unwrap()), (positions[3], "d3".parse().unwrap())];
    assert_eq!(got, expected);
    // Moves that do not lead to the position, are illegal or of the other game tell nothing.
    assert!(human_moves(&pos, &moves[..3]).is_empty());
    assert!(human_moves(&pos, &[moves[0], moves[0]]).is_empty());
    let doubutsu = GameMove::parse(GameKind::Doubutsu, "B3B2").unwrap();
    assert!(human_moves(&pos, &[doubutsu]).is_empty());
}

#[test]
fn each_game_names_and_parses_its_own_levels() {
    for l in reversi::ReversiLevel::ALL {
        assert_eq!(l.as_str().parse::<reversi::ReversiLevel>(), Ok(l));
        assert_eq!(Level::from(l).as_str(), l.as_str());
    }
    for l in doubutsu::DoubutsuLevel::ALL {
        assert_eq!(l.as_str().parse::<doubutsu::DoubutsuLevel>(), Ok(l));
        assert_eq!(Level::from(l).to_string(), l.to_string());
    }
    assert!("settai".parse::<reversi::ReversiLevel>().is_err());
    assert!("no mercy".parse::<doubutsu::DoubutsuLevel>().is_err());
    assert_eq!(reversi::ReversiLevel::NoMercy.budget(), reversi::levels::level::DEFAULT_BUDGET);
    assert_eq!(reversi::ReversiLevel::Standard.budget(), reversi::levels::level::SONTAKU_BUDGET);
    assert!(!doubutsu::DoubutsuLevel::Weakest.needs_table());
    // A level of the other game is refused, never played.
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let wrong = Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest);
    assert!(matches!(
        Game::new(GameKind::Reversi).ai_move(
            wrong,
            None::<&doubutsu::BuiltTable>,
            &mut Thinker::new(std::time::Instant::now),
            &mut rng
        ),
        Err(AiError::WrongGame(_))
    ));
}

#[test]
fn levels_belong_to_their_game() {
    assert_eq!(Level::parse(GameKind::Doubutsu, " Settai "), Ok(Level::Doubutsu(doubutsu::DoubutsuLevel::Settai)));
    assert!(Level::parse(GameKind::Reversi, "settai").is_err());
    assert!(Level::parse(GameKind::Doubutsu, "none").is_err());
    // The name admins see for `none`, as typed, and the Japanese names.
    for alias in ["no mercy", "No-Mercy", "  no   mercy ", "nomercy", "忖度無し"] {
        assert_eq!(
            Level::parse(GameKind::Reversi, alias),
            Ok(Level::Reversi(reversi::ReversiLevel::NoMercy)),
            "{alias:?}"
        );
    }
    assert!(Level::parse(GameKind::Doubutsu, "no mercy").is_err());
    assert_eq!(Level::parse(GameKind::Doubutsu, "雑魚"), Ok(Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest)));
    for kind in GameKind::ALL {
        for &level in Level::for_kind(kind) {
            for &alias in level.aliases() {
                assert_eq!(Level::parse(kind, alias), Ok(level), "{alias:?}");
                let other = if kind == GameKind::Reversi { GameKind::Doubutsu } else { GameKind::Reversi };
                assert!(Level::parse(other, alias).is_err(), "{alias:?} is not a {other} level");
            }
        }
    }
    for kind in GameKind::ALL {
        assert!(Level::for_kind(kind).contains(&kind.default_level()));
        assert_eq!(kind.as_str().parse::<GameKind>(), Ok(kind));
    }
}
