//! The kind coach (docs/design/kind-coach.md): with hints on (the default), a player's moves that
//! lose at once are marked and listed last in the menus and the autocomplete, and the board
//! says when their lion is in danger; with hints off, neither. Its words never give the
//! hospitality away.

use serde_json::json;
use settai::domain::{Change, Scope, Settings};
use settai::i18n::{move_label, Lang, Msg};
use settai_core::doubutsu::{self, DoubutsuLevel};
use settai_core::{Game, GameKind, GameMove, Level};
use sqlx::PgPool;

use crate::said::{en, ja};
use crate::support::fixtures::{self, Ctx};
use crate::{assert_no_hidden_word, move_menus, on, open_list, place, play_move, settings, small_table, Bot};

/// Sente to move, its lion on C3 attacked by gote's giraffe on B3: some moves save the lion,
/// the others let it be taken.
const LION_IN_DANGER: &str = "1l1/3/1gL/E2 b -";

/// Sente to move (lion A4, hen B4, chick C4) against gote's lone lion on B2: A4A3 puts the lion
/// next to gote's, and early in the game `settai` answers it without taking the lion or leaving
/// a win at once (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going),
/// so the game goes on and the coach offers the take-back.
const RISKY_BUT_SPARED: &str = "3/1l1/3/LHC b -";

/// The options in order of the menus in the list of the board `x` showed, as `ctx`'s player
/// opens it.
async fn shown_moves(bot: &Bot, ctx: &Ctx, x: &crate::support::Exchange) -> Vec<(String, String)> {
    move_menus(&open_list(bot, ctx, x).await).into_iter().flat_map(|(_, _, options)| options).collect()
}

/// Whether the list of the board `x` showed marks a move as risky, checking that the board's
/// caption goes with the marks.
async fn marked(bot: &Bot, ctx: &Ctx, x: &crate::support::Exchange, lang: Lang) -> bool {
    let mark = Msg::RiskyMark.text(lang);
    let shown = shown_moves(bot, ctx, x).await;
    assert!(!shown.is_empty(), "a board with its menus:\n{x}");
    let any = shown.iter().any(|(label, _)| label.ends_with(&mark));
    // The caption goes with the marks.
    assert_eq!(any, x.content().contains(&Msg::LionInDanger.text(lang)), "{x}");
    any
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn risky_moves_are_marked_and_last_and_a_lion_in_danger_is_told(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let start: doubutsu::Position = LION_IN_DANGER.parse().unwrap();
    let game = Game::Doubutsu(settai_core::DoubutsuGame::new(doubutsu::History::from_position(start)));
    assert!(game.lion_in_danger());
    let risky: Vec<GameMove> = game.legal_moves().into_iter().filter(|&m| game.loses_at_once(m)).collect();
    assert!(!risky.is_empty() && risky.len() < game.legal_moves().len(), "safe and risky moves: {risky:?}");
    let mut seen = Vec::new();

    for (ctx, lang) in [(Ctx::en(), Lang::En), (Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID), Lang::Ja)] {
        bot.doubutsu_game_at(&ctx, start, Level::Doubutsu(DoubutsuLevel::Weakest)).await;
        let board = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
        assert!(board.content().contains(&Msg::LionInDanger.text(lang)), "{board}");
        let list = open_list(&bot, &ctx, &board).await;
        let shown: Vec<(String, String)> = move_menus(&list).into_iter().flat_map(|(_, _, o)| o).collect();
        assert_eq!(shown.len(), game.legal_moves().len(), "every move is offered: {board}");
        let mark = Msg::RiskyMark.text(lang);
        for (label, value) in &shown {
            let mv = game.parse_move(value).unwrap();
            let plain = move_label(mv, game.move_detail(mv), lang);
            let expected = if risky.contains(&mv) { format!("{plain} {mark}") } else { plain };
            assert_eq!(label, &expected, "{value}");
        }
        // Within each menu, the risky moves come after the others.
        for (_, _, options) in move_menus(&list) {
            let flags: Vec<bool> = options.iter().map(|(label, _)| label.ends_with(&mark)).collect();
            assert!(flags.windows(2).all(|w| w[0] <= w[1]), "risky last: {options:?}");
        }
        // The autocomplete marks them too; its values are the moves themselves.
        let ac = bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "")).await;
        let choices = ac.autocomplete_choices();
        assert_eq!(choices.len(), game.legal_moves().len());
        for (name, value) in &choices {
            let mv = game.parse_move(value).unwrap();
            assert_eq!(name.ends_with(&mark), risky.contains(&mv), "{name}");
        }
        let flags: Vec<bool> = choices.iter().map(|(n, _)| n.ends_with(&mark)).collect();
        assert!(flags.windows(2).all(|w| w[0] <= w[1]), "risky last: {choices:?}");
        seen.extend([board, ac]);
        bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    }

    // Off for the server: no marks, no word, every move in the game's own order.
    let ctx = Ctx::en();
    let off = bot.standin.interact(settings(&ctx, "hints", on(false), true)).await;
    assert_eq!(off.content(), en(Msg::HintsSet { on: false }));
    let show = bot.standin.interact(settings(&ctx, "show", json!([]), true)).await;
    assert_eq!(
        show.content(),
        en(Msg::Settings { settings: &Settings { hints: false, ..Settings::default() }, hints_choice: None })
    );
    bot.doubutsu_game_at(&ctx, start, Level::Doubutsu(DoubutsuLevel::Weakest)).await;
    let board = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    assert!(!board.content().contains(&en(Msg::LionInDanger)), "{board}");
    assert!(shown_moves(&bot, &ctx, &board).await.iter().all(|(label, _)| !label.contains(&en(Msg::RiskyMark))));
    seen.push(board);

    // On again, in Japanese.
    let ja_ctx = Ctx::ja();
    let again = bot.standin.interact(settings(&ja_ctx, "hints", on(true), true)).await;
    assert_eq!(again.content(), ja(Msg::HintsSet { on: true }));
    assert!(bot.store.settings(&place(&ja_ctx)).await.unwrap().hints);

    // What players saw (the managers' /settings answers name the levels, as they should).
    for x in &seen {
        for call in &x.calls {
            assert_no_hidden_word(&format!("{:?}", call.kind), &call.json.to_string());
        }
    }
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_opening_has_no_risky_move_and_reversi_none(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let weakest = Change::Level(Level::Doubutsu(DoubutsuLevel::Weakest));
    bot.store.change_setting(ctx.guild_id, &place(&ctx), Scope::Server, weakest).await.unwrap();
    let start = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    let opening = Game::new(GameKind::Doubutsu);
    assert!(opening.legal_moves().iter().all(|&m| !opening.loses_at_once(m)));
    assert!(shown_moves(&bot, &ctx, &start).await.iter().all(|(label, _)| !label.contains(&en(Msg::RiskyMark))));
    assert!(!start.content().contains(&en(Msg::LionInDanger)), "{start}");
    bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    let reversi = bot.standin.interact(crate::play_reversi(&ctx)).await;
    assert!(shown_moves(&bot, &ctx, &reversi).await.iter().all(|(label, _)| !label.contains(&en(Msg::RiskyMark))));
    bot.stop().await;
}

/// After a risky move, where take-backs are allowed and the game goes on, the board offers the
/// ↩; the button under it takes the move back. Where take-backs are off, not a word of it.
/// (Early in a careless player's game `settai` does not win at once — docs/design/
/// doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going — so the game goes on.)
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn after_a_risky_move_the_take_back_is_offered_where_allowed(pool: PgPool) {
    let (table, _) = small_table("coach-offer");
    let bot = Bot::builder(pool).table(table).start().await;
    // Sente's lion on A4 may step to A3, next to gote's lion on B2: a risky move, which
    // `settai` leaves unpunished here without handing over a win.
    let start: doubutsu::Position = RISKY_BUT_SPARED.parse().unwrap();
    let game = Game::Doubutsu(settai_core::DoubutsuGame::new(doubutsu::History::from_position(start)));
    let risky = game.parse_move("A4A3").unwrap();
    assert!(game.loses_at_once(risky) && game.legal_moves().iter().any(|&m| !game.loses_at_once(m)));
    let settai = Level::Doubutsu(DoubutsuLevel::Settai);
    let button = |x: &crate::support::Exchange| x.custom_ids().into_iter().find(|id| id.starts_with("tb:"));
    let mut seen = Vec::new();

    // Take-backs off (the default): the move stands, nothing is offered.
    let ctx = Ctx::en();
    bot.doubutsu_game_at(&ctx, start, settai).await;
    let played = bot.standin.interact(play_move(&ctx, "A4A3")).await;
    assert_eq!(bot.game(&ctx).await.map(|g| g.ply), Some(2), "the game goes on: {played}");
    assert!(!played.content().contains(&en(Msg::OfferTakeback)), "{played}");
    assert_eq!(button(&played), None);
    seen.push(played);
    bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;

    // Allowed: offered in the player's language, on the ↩ under the board, which takes it back.
    bot.standin.interact(settings(&ctx, "takeback", on(true), true)).await;
    for (ctx, lang) in [(Ctx::en(), Lang::En), (Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID), Lang::Ja)] {
        bot.doubutsu_game_at(&ctx, start, settai).await;
        let played = bot.standin.interact(play_move(&ctx, "A4A3")).await;
        assert!(played.content().contains(&Msg::OfferTakeback.text(lang)), "{played}");
        let id = button(&played).unwrap_or_else(|| panic!("the ↩ under the board:\n{played}"));
        let board = bot.standin.message(played.message_id().unwrap()).unwrap();
        let undone = bot.standin.interact(fixtures::button_on(&ctx, &id, &board)).await;
        assert!(undone.contents().join("\n").contains(&Msg::TookBack.text(lang)), "{undone}");
        assert_eq!(bot.game(&ctx).await.map(|g| g.ply), Some(0), "back at the start");
        seen.extend([played, undone]);
    }
    // A risky move answered with a win at once for the player: no offer, the win is theirs to
    // find (there, gote's lone lion can only take the lion or step next to it).
    let ctx = Ctx::en();
    bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    bot.doubutsu_game_at(&ctx, "l2/1c1/LC1/3 b -".parse().unwrap(), settai).await;
    let gift = bot.standin.interact(play_move(&ctx, "A3B2")).await;
    let after = bot.game(&ctx).await.expect("the game goes on").game;
    assert!(after.can_win_at_once(), "{gift}");
    assert!(!gift.content().contains(&en(Msg::OfferTakeback)), "{gift}");
    seen.push(gift);
    for x in &seen {
        for call in &x.calls {
            assert_no_hidden_word(&format!("{:?}", call.kind), &call.json.to_string());
        }
    }
    bot.stop().await;
}

/// A player's own choice of hints (`/play hints`) rules their own boards and autocomplete, both
/// ways, over the server's; other players keep the server's (docs/design/kind-coach.md#your-own-choice).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_player_chooses_their_own_hints(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let start: doubutsu::Position = LION_IN_DANGER.parse().unwrap();
    let weakest = Level::Doubutsu(DoubutsuLevel::Weakest);
    let (me, other) =
        (Ctx::en(), Ctx::en().with_user(fixtures::OTHER_USER_ID).with_channel(fixtures::OTHER_CHANNEL_ID));
    let autocomplete_marked = |x: &crate::support::Exchange| {
        x.autocomplete_choices().iter().any(|(name, _)| name.ends_with(&en(Msg::RiskyMark)))
    };
    bot.doubutsu_game_at(&me, start, weakest).await;
    bot.doubutsu_game_at(&other, start, weakest).await;
    let mut seen = Vec::new();

    // Off for me, with the server's hints on: my boards and my autocomplete have no marks.
    let off = bot.standin.interact(fixtures::slash(&me, "play", "hints", on(false))).await;
    assert!(off.is_ephemeral() && off.content() == en(Msg::HintsChosen { on: false }), "{off}");
    let show = bot.standin.interact(settings(&me, "show", json!([]), true)).await;
    assert_eq!(show.content(), en(Msg::Settings { settings: &Settings::default(), hints_choice: Some(false) }));
    let board = bot.standin.interact(fixtures::slash(&me, "play", "board", json!([]))).await;
    assert!(!marked(&bot, &me, &board, Lang::En).await, "my hints are off:\n{board}");
    let ac = bot.standin.interact(fixtures::autocomplete(&me, "play", "move", "move", "")).await;
    assert!(!autocomplete_marked(&ac), "{ac:?}");
    // The other player keeps the server's.
    let theirs = bot.standin.interact(fixtures::slash(&other, "play", "board", json!([]))).await;
    assert!(marked(&bot, &other, &theirs, Lang::En).await, "the server's hints:\n{theirs}");
    let ac = bot.standin.interact(fixtures::autocomplete(&other, "play", "move", "move", "")).await;
    assert!(autocomplete_marked(&ac));
    seen.extend([off, board, theirs]);

    // Off for the server, on for me (said in Japanese): mine have them, theirs do not.
    bot.standin.interact(settings(&me, "hints", on(false), true)).await;
    let again = bot.standin.interact(fixtures::slash(&Ctx::ja(), "play", "hints", on(true))).await;
    assert!(again.is_ephemeral() && again.content() == ja(Msg::HintsChosen { on: true }), "{again}");
    let show = bot.standin.interact(settings(&Ctx::ja(), "show", json!([]), true)).await;
    let server_off = Settings { hints: false, ..Settings::default() };
    assert_eq!(show.content(), ja(Msg::Settings { settings: &server_off, hints_choice: Some(true) }));
    let board = bot.standin.interact(fixtures::slash(&Ctx::ja(), "play", "board", json!([]))).await;
    assert!(marked(&bot, &Ctx::ja(), &board, Lang::Ja).await, "my hints are on:\n{board}");
    let theirs = bot.standin.interact(fixtures::slash(&other, "play", "board", json!([]))).await;
    assert!(!marked(&bot, &other, &theirs, Lang::En).await, "the server's are off:\n{theirs}");
    seen.extend([again, board, theirs]);
    for x in &seen {
        for call in &x.calls {
            assert_no_hidden_word(&format!("{:?}", call.kind), &call.json.to_string());
        }
    }
    bot.stop().await;
}

/// The coached board with the commentary on, in both languages: the marks and the take-back
/// offer are there beside the commentary; a second tap on the board the move came from, and a
/// second press of the ↩, are refused as stale and change nothing.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_coached_board_with_commentary_a_second_tap_and_a_stale_board(pool: PgPool) {
    let (table, _) = small_table("coach-commentary");
    let bot = Bot::builder(pool).table(table).start().await;
    let start: doubutsu::Position = RISKY_BUT_SPARED.parse().unwrap();
    let settai = Level::Doubutsu(DoubutsuLevel::Settai);
    let manager = Ctx::en();
    bot.standin.interact(settings(&manager, "takeback", on(true), true)).await;
    bot.standin.interact(settings(&manager, "commentary", on(true), true)).await;
    let takeback_button = |x: &crate::support::Exchange| x.custom_ids().into_iter().find(|id| id.starts_with("tb:"));

    for (ctx, lang) in [(Ctx::en(), Lang::En), (Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID), Lang::Ja)] {
        let mark = Msg::RiskyMark.text(lang);
        bot.doubutsu_game_at(&ctx, start, settai).await;
        let shown = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
        let risky_label =
            shown_moves(&bot, &ctx, &shown).await.into_iter().find(|(_, value)| value == "A4A3").expect("A4A3").0;
        assert!(risky_label.ends_with(&mark), "{risky_label}");
        let board = bot.standin.message(shown.message_id().unwrap()).unwrap();

        // The risky move, tapped: the offer, with the commentary on the move.
        let played = crate::tap_move_on(&bot, &ctx, &board, "A4A3").await;
        assert!(!played.is_ephemeral(), "{played}");
        let text = played.contents().join("\n");
        assert!(text.contains(&Msg::OfferTakeback.text(lang)), "{played}");
        let you_played = Msg::YouPlayed { mv: crate::said::mv(GameKind::Doubutsu, "A4A3") }.text(lang);
        let lines: Vec<&str> = text.lines().collect();
        let at = lines.iter().position(|l| *l == you_played).unwrap_or_else(|| panic!("{played}"));
        assert!(lines.get(at + 1).is_some_and(|l| l.starts_with("💡")), "the commentary under the move:\n{text}");
        let after = bot.snapshot(&ctx).await;
        assert_eq!(after.1, 2, "the move and the bot's answer");

        // A second tap on the board the move came from (as a client still showed it): stale,
        // nothing changes, and the tapper sees the game as it is now.
        let lion = crate::touch_id(&board, "c.A4").expect("the lion");
        let second = bot.standin.interact(fixtures::button_on(&ctx, &lion, &board)).await;
        crate::assert_the_game_now(&second);
        assert_eq!(bot.snapshot(&ctx).await, after);

        // The ↩ takes both moves back; pressed again on the same board, stale.
        let id = takeback_button(&played).unwrap_or_else(|| panic!("the ↩ under the board:\n{played}"));
        let offered_board = bot.standin.message(played.message_id().unwrap()).unwrap();
        let undone = bot.standin.interact(fixtures::button_on(&ctx, &id, &offered_board)).await;
        assert!(undone.contents().join("\n").contains(&Msg::TookBack.text(lang)), "{undone}");
        let back = bot.snapshot(&ctx).await;
        assert_eq!(back.1, 0);
        let again = bot.standin.interact(fixtures::button_on(&ctx, &id, &offered_board)).await;
        crate::assert_the_game_now(&again);
        assert_eq!(bot.snapshot(&ctx).await, back);
        // The board after the take-back is coached again: the risky move marked, no offer.
        let risky_again =
            shown_moves(&bot, &ctx, &undone).await.into_iter().find(|(_, value)| value == "A4A3").expect("again").0;
        assert!(risky_again.ends_with(&mark), "{risky_again}");
        assert!(!undone.contents().join("\n").contains(&Msg::OfferTakeback.text(lang)), "{undone}");
    }
    bot.stop().await;
}
