//! From the game interface to the per-game renderers.

use image::RgbImage;

use super::doubutsu::{doubutsu_image, Animal, DoubutsuView, LastMove, Owner};
use super::reversi::reversi_image;
use super::{Disc, Names, ReversiView};
use crate::i18n::{Lang, Msg};
use settai_core::doubutsu::{self, Color, Move, Role, Square};
use settai_core::{reversi, Game, GameMove, Line, LinePosition};

/// The board image of `game` as PNG bytes. `last` is the position before the last move and the
/// move (to mark it and what it changed); `banner` is drawn when the game is over;
/// `names` label the seats.
pub fn game_png(
    game: &Game,
    last: Option<(&Game, GameMove)>,
    lang: Lang,
    banner: Option<&str>,
    names: &Names,
) -> Vec<u8> {
    encoded(&game_image(game, last, lang, banner, names))
}

/// An in-memory board image as PNG bytes (encoding one of valid dimensions cannot fail).
fn encoded(image: &RgbImage) -> Vec<u8> {
    super::encode_png(image).expect("PNG encoding of an in-memory RGB image")
}

/// The banner of a finished game seen from outside it (no "you"): who won, the score, why —
/// in `lang`, through the catalogue. `None` while the game goes on.
pub fn result_banner(game: &Game, lang: Lang) -> Option<String> {
    game.outcome().map(|outcome| Msg::Result { kind: game.kind(), outcome }.text(lang))
}

/// How many of a reversi position's moves carry a number: as many as the board of buttons
/// under the picture has room for (five rows of five, less the list and ↩). A move past them is
/// a plain dot on the picture and is played from the list (docs/design/touch.md#reversi-one-tap-on-a-number).
pub const MOST_NUMBERED: usize = 23;

/// The board a player moves from by touch, as PNG bytes: [`game_png`], with the reversi squares
/// the human may play numbered as the buttons under it are
/// (docs/design/touch.md#reversi-one-tap-on-a-number). Doubutsu boards are the same picture.
pub fn game_png_to_tap(
    game: &Game,
    last: Option<(&Game, GameMove)>,
    lang: Lang,
    banner: Option<&str>,
    names: &Names,
) -> Vec<u8> {
    encoded(&drawn(game, last, lang, banner, names, true))
}

/// The board image of `game` (see [`game_png`]).
pub fn game_image(
    game: &Game,
    last: Option<(&Game, GameMove)>,
    lang: Lang,
    banner: Option<&str>,
    names: &Names,
) -> RgbImage {
    drawn(game, last, lang, banner, names, false)
}

/// The board image; with `to_tap`, the human's reversi moves numbered (on the human's turn).
fn drawn(
    game: &Game,
    last: Option<(&Game, GameMove)>,
    lang: Lang,
    banner: Option<&str>,
    names: &Names,
    to_tap: bool,
) -> RgbImage {
    match game {
        Game::Reversi(pos) => {
            let (last_move, flipped) = match last {
                Some((Game::Reversi(before), GameMove::Reversi(reversi::Move::Place(sq)))) => {
                    (Some(sq.index()), before.flips(sq))
                }
                _ => (None, 0),
            };
            let mut cells = [Disc::Empty; 64];
            for (i, cell) in cells.iter_mut().enumerate() {
                let bit = 1u64 << i;
                if pos.black() & bit != 0 {
                    *cell = Disc::Black;
                } else if pos.white() & bit != 0 {
                    *cell = Disc::White;
                }
            }
            let to_move = (!pos.is_game_over()).then(|| match pos.turn() {
                reversi::Color::Black => Disc::Black,
                reversi::Color::White => Disc::White,
            });
            let view = ReversiView {
                cells,
                last_move,
                flipped,
                legal: if to_move.is_some() { pos.legal_mask() } else { 0 },
                numbered: if to_tap && names.human.is_some() && names.human == game.to_move() {
                    settai_core::numbered_moves(game)
                        .into_iter()
                        .take(MOST_NUMBERED)
                        .filter_map(|mv| match mv {
                            GameMove::Reversi(reversi::Move::Place(sq)) => Some(sq.index()),
                            _ => None,
                        })
                        .collect()
                } else {
                    Vec::new()
                },
                to_move,
                banner: banner.map(str::to_string),
                names: [names.first.clone(), names.second.clone()],
                human: names.human,
            };
            reversi_image(&view, lang)
        }
        Game::Doubutsu(g) => {
            let (history, banner) = (g.history(), banner.map(str::to_string));
            let last_move = history.last_move().map(|(_, mv)| mv);
            doubutsu_image(
                &doubutsu_view(history.position(), last_move, history.outcome().is_some(), banner, names),
                lang,
            )
        }
    }
}

/// The board of position `i` of `line`, as [`game_image`] draws the game there: its last move
/// marked, `banner` drawn on it. Read from the line, whose positions are computed once
/// (docs/design/storage.md#the-end-of-a-game).
pub fn line_image(line: &Line, i: usize, lang: Lang, banner: Option<&str>, names: &Names) -> RgbImage {
    let last_move = i.checked_sub(1).map(|m| line.moves()[m]);
    match line.position(i) {
        LinePosition::Reversi(pos) => {
            let before = i.checked_sub(1).map(|m| match line.position(m) {
                LinePosition::Reversi(before) => Game::Reversi(*before),
                LinePosition::Doubutsu(_) => unreachable!("a line is of one game"),
            });
            let last = before.as_ref().zip(last_move);
            drawn(&Game::Reversi(*pos), last, lang, banner, names, false)
        }
        LinePosition::Doubutsu(pos) => {
            let last_move = last_move.and_then(|mv| match mv {
                GameMove::Doubutsu(mv) => Some(mv),
                GameMove::Reversi(_) => None,
            });
            let over = line.to_move(i).is_none();
            doubutsu_image(&doubutsu_view(pos, last_move, over, banner.map(str::to_string), names), lang)
        }
    }
}

/// The doubutsu board at `pos` as the renderer draws it: `last_move` marked, and whose turn it
/// is (and the lion in danger) unless the game is `over`.
fn doubutsu_view(
    pos: &doubutsu::Position,
    last_move: Option<Move>,
    over: bool,
    banner: Option<String>,
    names: &Names,
) -> DoubutsuView {
    let owner = Owner::from;
    let animal = Animal::from;
    let mut cells = [None; 12];
    for (i, cell) in cells.iter_mut().enumerate() {
        let sq = Square::new(i as u8).expect("12 squares");
        *cell = pos.piece_at(sq).map(|p| (owner(p.color), animal(p.role)));
    }
    let hand =
        |c: Color| Role::HAND.iter().filter(|&&r| pos.hand(c, r) > 0).map(|&r| (animal(r), pos.hand(c, r))).collect();
    let last_move = last_move.map(|mv| match mv {
        Move::Normal { from, to } => LastMove::Board { from: from.index(), to: to.index() },
        Move::Drop { to, .. } => LastMove::Drop { to: to.index() },
    });
    DoubutsuView {
        cells,
        sente_hand: hand(Color::Sente),
        gote_hand: hand(Color::Gote),
        last_move,
        to_move: (!over).then(|| owner(pos.turn())),
        in_check: (!over).then(|| pos.lion_in_check()).flatten().map(|sq| sq.index()),
        banner,
        // An empty name shows the side's label in the viewer's language.
        sente_name: names.first.clone(),
        gote_name: names.second.clone(),
        human: names.human,
    }
}

/// Every result a board of `kind` may carry in `lang`: the players' banners (won, lost, drawn;
/// finished by each reason the game has, or resigned and closed without one) and the outside
/// view's. The renderers' tests lay each of them out.
#[cfg(test)]
pub(crate) fn every_result_text(kind: settai_core::GameKind, lang: Lang) -> Vec<String> {
    use settai_core::{EndReason, GameKind, Outcome, Side};
    let reasons: &[EndReason] = match kind {
        GameKind::Reversi => &[EndReason::Count],
        GameKind::Doubutsu => &[EndReason::LionCaptured, EndReason::Try, EndReason::Repetition, EndReason::NoMoves],
    };
    let mut texts = Vec::new();
    for winner in [Some(Side::First), Some(Side::Second), None] {
        let score = (kind == GameKind::Reversi).then_some((40, 24));
        for &reason in reasons {
            texts.push(Msg::Result { kind, outcome: Outcome { winner, score, reason } }.text(lang));
            let human_won = winner.map(|w| w == Side::First);
            texts.push(Msg::GameOver { human_won, score, reason: Some(reason) }.text(lang));
            texts.push(Msg::GameOver { human_won, score: None, reason: None }.text(lang));
        }
    }
    texts
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::i18n::side_name;
    use settai_core::{EndReason, GameKind, Outcome, Side};

    /// Every end reason. The match stops compiling when a reason is added, until it is listed.
    fn every_reason() -> [EndReason; 5] {
        let all =
            [EndReason::Count, EndReason::LionCaptured, EndReason::Try, EndReason::Repetition, EndReason::NoMoves];
        for reason in all {
            match reason {
                EndReason::Count
                | EndReason::LionCaptured
                | EndReason::Try
                | EndReason::Repetition
                | EndReason::NoMoves => {}
            }
        }
        all
    }

    fn kind_of(reason: EndReason) -> GameKind {
        if reason == EndReason::Count {
            GameKind::Reversi
        } else {
            GameKind::Doubutsu
        }
    }

    /// What Rust's `Debug` would leave in a sentence.
    const DEBUG_TEXT: [&str; 14] = [
        "Some(",
        "None",
        "First",
        "Second",
        "LionCaptured",
        "Repetition",
        "NoMoves",
        "Count",
        "Win {",
        "winner",
        "reason",
        "Sente to",
        "Gote to",
        "{",
    ];

    /// The words a result must say: no debug text, the winner's seat (or a draw), the score
    /// where there is one and why the game ended, all in `lang`.
    fn assert_says(text: &str, kind: GameKind, outcome: Outcome, lang: Lang) {
        for debug in DEBUG_TEXT {
            assert!(!text.contains(debug), "{text:?} shows debug text {debug:?}");
        }
        let who = match (outcome.winner, lang) {
            (Some(side), _) => side_name(kind, side, lang),
            (None, Lang::En) => "Draw",
            (None, Lang::Ja) => "引き分け",
        };
        assert!(text.contains(who), "{text:?} should name {who:?}");
        let why = match (outcome.reason, lang) {
            (EndReason::Count, _) => "",
            (EndReason::LionCaptured, Lang::En) => "lion captured",
            (EndReason::LionCaptured, Lang::Ja) => "ライオン",
            (EndReason::Try, Lang::En) => "try",
            (EndReason::Try, Lang::Ja) => "トライ",
            (EndReason::Repetition, Lang::En) => "same position",
            (EndReason::Repetition, Lang::Ja) => "千日手",
            (EndReason::NoMoves, Lang::En) => "no moves",
            (EndReason::NoMoves, Lang::Ja) => "指せる手",
        };
        assert!(text.contains(why), "{text:?} should say why the game ended ({why:?})");
        if let Some((a, b)) = outcome.score {
            let score = if lang == Lang::En { format!("{a}-{b}") } else { format!("{a}対{b}") };
            assert!(text.contains(&score), "{text:?} should give the score {score}");
        }
        match lang {
            Lang::En => assert!(text.chars().all(|c| c.is_ascii() || c == '—'), "{text:?} is not English"),
            Lang::Ja => assert!(!text.chars().any(|c| c.is_ascii_alphabetic()), "{text:?} is not Japanese"),
        }
    }

    #[test]
    fn every_result_is_told_in_words_in_both_languages() {
        for reason in every_reason() {
            let kind = kind_of(reason);
            for winner in [Some(Side::First), Some(Side::Second), None] {
                let score = match (kind, winner) {
                    (GameKind::Doubutsu, _) => None,
                    (_, Some(Side::First)) => Some((40, 24)),
                    (_, Some(Side::Second)) => Some((20, 44)),
                    (_, None) => Some((32, 32)),
                };
                let outcome = Outcome { winner, score, reason };
                for lang in [Lang::En, Lang::Ja] {
                    assert_says(&Msg::Result { kind, outcome }.text(lang), kind, outcome, lang);
                    // The players' banner on Discord says the same from their side.
                    for human_won in [Some(true), Some(false), None] {
                        let said = Msg::GameOver { human_won, score, reason: Some(reason) }.text(lang);
                        for debug in DEBUG_TEXT {
                            assert!(!said.contains(debug), "{said:?} shows debug text {debug:?}");
                        }
                    }
                }
            }
        }
    }

    /// Finished games, one per end reason that play reaches: seeded random games, and a
    /// repetition made by walking both lions out and back.
    fn finished_games() -> Vec<Game> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(20);
        let mut found: Vec<Game> = Vec::new();
        let shuffle = ["B4A3", "B1C2", "A3B4", "C2B1"];
        let mut game = Game::new(GameKind::Doubutsu);
        for mv in shuffle.iter().cycle().take(40) {
            if game.outcome().is_some() {
                break;
            }
            game = game.play(game.parse_move(mv).unwrap()).expect("the lions walk out and back");
        }
        found.push(game);
        for i in 0..2000 {
            let kind = if i == 0 { GameKind::Reversi } else { GameKind::Doubutsu };
            let mut game = Game::new(kind);
            for _ in 0..200 {
                let legal = game.legal_moves();
                if legal.is_empty() {
                    break;
                }
                game = game.play(legal[rng.gen_range(0..legal.len())]).expect("a legal move");
            }
            if let Some(o) = game.outcome() {
                if !found.iter().any(|g| g.outcome().map(|f| f.reason) == Some(o.reason)) {
                    found.push(game);
                }
            }
        }
        found
    }

    #[test]
    fn finished_boards_carry_a_result_banner_in_words() {
        let games = finished_games();
        let reached: Vec<EndReason> = games.iter().filter_map(|g| g.outcome()).map(|o| o.reason).collect();
        // A doubutsu game without moves left is practically unreachable; every other reason is drawn.
        for reason in every_reason().into_iter().filter(|&r| r != EndReason::NoMoves) {
            assert!(reached.contains(&reason), "no finished game ended by {reason:?}");
        }
        for game in &games {
            let outcome = game.outcome().expect("finished");
            for lang in [Lang::En, Lang::Ja] {
                let banner = result_banner(game, lang).expect("a finished game has a banner");
                assert_says(&banner, game.kind(), outcome, lang);
                let plain = game_png(game, None, lang, None, &Names::default());
                assert_ne!(game_png(game, None, lang, Some(&banner), &Names::default()), plain, "{banner:?} is drawn");
            }
        }
        assert_eq!(result_banner(&Game::new(GameKind::Doubutsu), Lang::En), None);
    }

    #[test]
    fn boards_speak_to_the_child_in_kana_in_japanese() {
        use crate::i18n::side_kana;
        use crate::i18n::Msg::{BoardSeat, BoardTurn};
        let no_kanji = |text: &str| !text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        for kind in [GameKind::Reversi, GameKind::Doubutsu] {
            for human in [Side::First, Side::Second] {
                let bot = human.opposite();
                let turn = |to_move, human| BoardTurn { kind, to_move, human };
                let seat = |side, human| BoardSeat { kind, side, human };
                assert_eq!(turn(Some(human), Some(human)).text(Lang::En), "Your move");
                assert_eq!(turn(Some(bot), Some(human)).text(Lang::En), "Computer's move");
                assert_eq!(seat(human, Some(human)).text(Lang::En), "You");
                assert_eq!(seat(bot, Some(human)).text(Lang::En), "Computer");
                assert_eq!(turn(Some(human), Some(human)).text(Lang::Ja), "あなたのばん");
                assert_eq!(turn(Some(bot), Some(human)).text(Lang::Ja), "コンピューターのばん");
                assert_eq!(seat(human, Some(human)).text(Lang::Ja), "あなた");
                assert_eq!(seat(bot, Some(human)).text(Lang::Ja), Msg::Computer.text(Lang::Ja));
                for side in [Side::First, Side::Second] {
                    let outside = turn(Some(side), None).text(Lang::Ja);
                    assert_eq!(outside, format!("{}のばん", side_kana(kind, side)));
                    for text in [outside, seat(side, Some(human)).text(Lang::Ja), seat(side, None).text(Lang::Ja)] {
                        assert!(no_kanji(&text), "{text}");
                    }
                }
            }
            // Seen from outside a game (`settai render`), the seats keep their names.
            let outside = BoardTurn { kind, to_move: Some(Side::First), human: None }.text(Lang::En);
            assert_eq!(outside, format!("{} to move", side_name(kind, Side::First, Lang::En)));
        }
        assert_eq!(BoardSeat { kind: GameKind::Doubutsu, side: Side::Second, human: None }.text(Lang::En), "Gote");
        // What a finished board says to the player, and the buttons' words, in kana.
        for human_won in [Some(true), Some(false), None] {
            for reason in [None, Some(EndReason::LionCaptured), Some(EndReason::Try), Some(EndReason::Repetition)] {
                let said = Msg::GameOver { human_won, score: None, reason }.text(Lang::Ja);
                assert!(no_kanji(&said), "{said}");
            }
        }
        for button in [
            Msg::ListButton,
            Msg::TakebackButton,
            Msg::OfferTakeback,
            BoardTurn { kind: GameKind::Reversi, to_move: None, human: None },
        ] {
            assert!(no_kanji(&button.text(Lang::Ja)), "{}", button.text(Lang::Ja));
        }

        // On the images: a doubutsu board with the player's seat known says "you" and
        // "computer" in both languages (its header and trays change).
        let start = Game::new(GameKind::Doubutsu);
        let game = start.play(start.parse_move("B3B2").unwrap()).unwrap();
        for lang in [Lang::En, Lang::Ja] {
            let names = Names::new("Mika", Msg::Computer.text(lang));
            let child = names.clone().with_human(Side::First);
            let outside = game_image(&game, None, lang, None, &names);
            let spoken = game_image(&game, None, lang, None, &child);
            let rows: Vec<u32> = (0..outside.height())
                .filter(|&y| (0..outside.width()).any(|x| outside.get_pixel(x, y) != spoken.get_pixel(x, y)))
                .collect();
            assert!(rows.iter().any(|&y| y < 64), "{lang:?}: the turn line changes");
            assert!(rows.iter().any(|&y| y > 64), "{lang:?}: the trays' captions change");
        }
    }

    /// Past the buttons' room, a move is a plain dot: in a position where the player has more
    /// moves than buttons, exactly the first `MOST_NUMBERED` (in the buttons' order) carry a
    /// number's blurple square, and every other move only the legal dot.
    #[test]
    fn past_the_room_a_move_is_a_plain_dot() {
        // 15 black and 14 white discs found by a hill climb for black's mobility (35 moves);
        // the test checks the count itself.
        let pos =
            reversi::Position::from_bitboards(0x0804_9604_247c_2000, 0x00ea_0022_5002_5600, reversi::Color::Black)
                .expect("a position");
        let game = Game::Reversi(pos);
        let moves = settai_core::numbered_moves(&game);
        assert!(moves.len() > MOST_NUMBERED, "{} moves: not past the room", moves.len());
        let names = Names { human: Some(Side::First), ..Names::new("Mika", "Computer") };
        let image = drawn(&game, None, Lang::En, None, &names, true);
        for (n, mv) in moves.iter().enumerate() {
            let GameMove::Reversi(reversi::Move::Place(sq)) = mv else { panic!("{mv:?}") };
            let (cx, cy) = crate::render::reversi::cell_centre(sq.index() as usize);
            // Inside a number's square, clear of its numeral; outside the legal dot.
            let corner = *image.get_pixel((cx - 17) as u32, (cy - 17) as u32);
            let blurple = corner == image::Rgb([88, 101, 242]);
            assert_eq!(blurple, n < MOST_NUMBERED, "move {} ({sq:?}) at {corner:?}", n + 1);
        }
    }
}
