//! Reversi by touch (docs/design/touch.md): one tap on a number drawn on the board, the same
//! number on its button; whole games by taps alone, in English and Japanese, in a channel, a
//! thread and a group DM.

use rand::{Rng, SeedableRng};
use settai::i18n::Lang;
use settai::render::{self, Names};
use settai_core::{numbered_moves, GameKind, GameMove, Level};
use sqlx::PgPool;

use crate::board_pictures::assert_board_is_stored;
use crate::private_channels::start_with;
use crate::support::fixtures::{self, Ctx, THREAD_ID, USER_ID};
use crate::support::Exchange;
use crate::touch::stored_game;
use crate::{buttons_of, open_list, play_reversi, shown_board, tap_move_on, touch_id, touch_taps, Bot};

/// A whole reversi game by one tap a move: every board numbers the player's squares in reading
/// order, in its picture and on its buttons alike (the picture is the numbered one of the
/// position now, its last move marked), and the number tapped is the move stored.
async fn a_reversi_game_by_taps(bot: &Bot, ctx: &Ctx, first: Exchange, lang: Lang, seed: u64) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut last = first;
    let mut moves = 0;
    loop {
        let board = shown_board(bot, &last);
        assert_board_is_stored(&bot.store, ctx, &last, lang).await;
        let record = bot.game(ctx).await;
        let Some(record) = record.filter(|r| r.human_to_move()) else { break };
        let game = record.game.clone();
        let numbered = numbered_moves(&game);
        let shown: Vec<(String, String)> = buttons_of(&board)
            .iter()
            .filter_map(|b| {
                let tap = b["custom_id"].as_str()?.rsplit(':').next()?.strip_prefix("p.")?.to_string();
                Some((b["label"].as_str()?.to_string(), tap))
            })
            .collect();
        if numbered.is_empty() {
            assert_eq!(shown.len(), 1, "a pass is one button:\n{board}");
            assert_eq!(shown[0].1, "pass");
        } else {
            // Five rows of five, less the list and ↩: the list holds any more.
            assert_eq!(shown.len(), numbered.len().min(render::MOST_NUMBERED), "{board}");
            let want: Vec<(String, String)> = numbered
                .iter()
                .enumerate()
                .take(shown.len())
                .map(|(i, mv)| ((i + 1).to_string(), mv.to_string()))
                .collect();
            assert_eq!(shown, want, "numbers in reading order");
            // The numbers drawn where the buttons say, by the picture's own pixels (the render
            // compared above is the bot's own).
            let png = last.file(".png").expect("the board picture");
            let drawn = image::load_from_memory(png).unwrap().to_rgb8();
            let plain = render::game_image(&game, None, lang, None, &Names::default());
            assert_eq!((drawn.width(), drawn.height()), (plain.width(), plain.height()));
            assert_numbers_drawn(&drawn, &numbered[..shown.len()]);
            if moves == 0 {
                // The list shows each move's number beside its square.
                let list = open_list(bot, ctx, &last).await;
                let options: Vec<(String, String)> =
                    crate::move_menus(&list).into_iter().flat_map(|(_, _, options)| options).collect();
                assert_eq!(options.len(), game.legal_moves().len(), "{list}");
                for (label, value) in options {
                    let n = numbered.iter().position(|mv| mv.to_string() == value).expect("a numbered move") + 1;
                    assert!(label.starts_with(&format!("{n} · {value}")), "{label:?} for {value}");
                }
            }
        }
        let (_, tap) = &shown[rng.gen_range(0..shown.len())];
        let id = touch_id(&board, &format!("p.{tap}")).unwrap();
        last = bot.standin.interact(fixtures::button_on(ctx, &id, &board)).await;
        assert!(!last.is_ephemeral(), "a number was refused:\n{last}");
        let played = bot.store.moves(record.id).await.unwrap();
        assert!(played.iter().any(|m| !m.by_bot && m.notation == *tap), "{tap} is stored");
        moves += 1;
        assert!(moves <= 40, "the game never ended");
    }
    assert!(moves >= 5, "{moves} moves");
    let end = shown_board(bot, &last);
    assert!(touch_taps(&end, "p").is_empty(), "no move to tap once the game ends:\n{end}");
    assert!(buttons_of(&end).iter().any(|b| b["emoji"]["name"] == "🔁"), "again:\n{end}");
}

/// Each numbered square of a reversi picture shows a pale disc (the numbers' ground) where an
/// unnumbered empty square shows the board's green.
fn assert_numbers_drawn(img: &image::RgbImage, numbered: &[GameMove]) {
    // The board's geometry as the renderer lays it out (render/reversi.rs): 64 px squares,
    // the board's top left at (48, 98).
    let centre = |index: u8| (48 + (index % 8) as u32 * 64 + 32, 98 + (index / 8) as u32 * 64 + 32);
    for mv in numbered {
        let GameMove::Reversi(settai_core::reversi::Move::Place(sq)) = mv else { unreachable!() };
        let (x, y) = centre(sq.index());
        // The marker is the buttons' blurple, nothing like a white or a black disc.
        let p = img.get_pixel(x - 19, y);
        let [r, g, b] = p.0;
        assert!(b > 200 && r < 120 && g < 130, "{mv}: a blurple marker, found {p:?}");
    }
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reversi_game_is_played_by_one_tap_a_move_in_english_and_in_japanese(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    a_reversi_game_by_taps(&bot, &ctx, start, Lang::En, 4).await;
    let ja_thread = Ctx::ja().in_thread(THREAD_ID + 1);
    let start = bot.standin.interact(play_reversi(&ja_thread)).await;
    a_reversi_game_by_taps(&bot, &ja_thread, start, Lang::Ja, 5).await;
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reversi_game_is_played_by_taps_in_a_group_dm(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let grandma = Ctx::en().group_dm(USER_ID);
    let level = Level::for_kind(GameKind::Reversi)[0];
    let picked = start_with(&bot, &grandma, "reversi", level).await;
    let board_id = picked.followups().last().and_then(|f| f.message_id).unwrap();
    let board = bot.standin.message(board_id).unwrap();
    let first = numbered_moves(&stored_game(&bot, &grandma).await)[0].to_string();
    let tapped = tap_move_on(&bot, &grandma, &board, &first).await;
    a_reversi_game_by_taps(&bot, &grandma, tapped, Lang::En, 6).await;
    bot.stop().await;
}
