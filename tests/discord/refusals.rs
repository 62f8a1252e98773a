//! Refusals: what the bot will not do (missing permissions, no game, an illegal or stale move,
//! someone else's game) is said privately and changes nothing.

use serde_json::{json, Value};
use settai::domain::GameStatus;
use settai::i18n::{Lang, Msg, Needed};
use settai_core::GameKind;
use sqlx::PgPool;

use crate::board_pictures::assert_board_is_stored;
use crate::said::{self, en, illegal, not_a_move};
use crate::support::fixtures::{self, Ctx, OTHER_USER_ID, USER_ID};
use crate::{assert_refused, move_menu, open_list, play_move, play_reversi, touch_id, Bot};

/// `payload` as if the bot lacked the permissions `bits` where it was sent.
fn without_permissions(mut payload: Value, bits: u64) -> Value {
    let granted: u64 = payload["app_permissions"].as_str().unwrap().parse().unwrap();
    payload["app_permissions"] = json!((granted & !bits).to_string());
    payload
}

/// Where the bot cannot post a board, /play refuses privately naming the missing permission (in
/// the player's language) and stores nothing; a tap there changes nothing either.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn without_the_permissions_to_show_a_game_nothing_is_stored(pool: PgPool) {
    const SEND_MESSAGES: u64 = 1 << 11;
    const ATTACH_FILES: u64 = 1 << 15;
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let x = bot.standin.interact(without_permissions(play_reversi(&ctx), ATTACH_FILES)).await;
    assert_refused(&x, &en(Msg::MissingPermissions { needed: &[Needed::AttachFiles] }));
    assert!(!x.content().contains(Needed::SendMessages.name(Lang::En)), "{x}");
    assert!(bot.game(&ctx).await.is_none());
    let x = bot.standin.interact(without_permissions(play_reversi(&Ctx::ja()), SEND_MESSAGES | ATTACH_FILES)).await;
    assert_refused(&x, &said::ja(Msg::MissingPermissions { needed: &[Needed::SendMessages, Needed::AttachFiles] }));
    assert!(bot.game(&ctx).await.is_none());
    // With the permissions the game starts; a tap where they were lost since is refused.
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();
    let f5 = touch_id(&board, "p.f5").unwrap();
    let tap = without_permissions(fixtures::button_on(&ctx, &f5, &board), SEND_MESSAGES);
    assert_refused(&bot.standin.interact(tap).await, &en(Msg::MissingPermissions { needed: &[Needed::SendMessages] }));
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 0);
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn refusals_are_ephemeral_and_change_nothing(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();

    let no_game = bot.standin.interact(play_move(&ctx, "f5")).await;
    assert_refused(&no_game, &en(Msg::NoGame));
    let no_board = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    assert_refused(&no_board, &en(Msg::NoGame));

    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (menu, _) = move_menu(&open_list(&bot, &ctx, &start).await);
    let before = bot.snapshot(&ctx).await;
    let game = bot.game(&ctx).await.unwrap().game;

    let busy = bot.standin.interact(play_reversi(&ctx.with_user(OTHER_USER_ID))).await;
    assert_refused(&busy, &en(Msg::ChannelBusy));
    let not_legal = bot.standin.interact(play_move(&ctx, "a1")).await;
    assert_refused(&not_legal, &illegal("a1", &game, Lang::En));
    assert!(not_legal.content().contains("d3"), "the legal moves are listed: {}", not_legal.content());
    let garbage = bot.standin.interact(play_move(&ctx, "z9")).await;
    assert_refused(&garbage, &not_a_move(GameKind::Reversi, "z9", Lang::En));
    let intruder = bot.standin.interact(play_move(&ctx.with_user(OTHER_USER_ID), "f5")).await;
    assert_refused(&intruder, &en(Msg::NotYourGame { owner: USER_ID }));
    let not_in_menu = bot.standin.interact(fixtures::select(&ctx, &menu, &["a1"], start.message_id().unwrap())).await;
    assert_refused(&not_in_menu, &illegal("a1", &game, Lang::En));
    let unknown = bot.standin.interact(fixtures::select(&ctx, "nonsense", &["f5"], start.message_id().unwrap())).await;
    assert_refused(&unknown, &en(Msg::StaleBoard));
    let ja = bot.standin.interact(play_move(&Ctx::ja(), "a1")).await;
    assert!(ja.is_ephemeral() && ja.content() == illegal("a1", &game, Lang::Ja), "{}", ja.content());
    assert_eq!(bot.snapshot(&ctx).await, before, "a refusal changed the game");

    // A move, then the old board's menu is stale.
    bot.standin.interact(play_move(&ctx, "f5")).await;
    let after = bot.snapshot(&ctx).await;
    let stale = bot.standin.interact(fixtures::select(&ctx, &menu, &["d3"], start.message_id().unwrap())).await;
    assert_refused(&stale, &en(Msg::StaleBoard));
    assert_eq!(bot.snapshot(&ctx).await, after);

    // Resign by someone else is refused; by the owner it ends the game.
    let bad_resign =
        bot.standin.interact(fixtures::slash(&ctx.with_user(OTHER_USER_ID), "play", "resign", json!([]))).await;
    assert_refused(&bad_resign, &en(Msg::NotYourGame { owner: USER_ID }));
    let resign = bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    assert!(!resign.is_ephemeral() && resign.content().contains(&en(Msg::Resigned)), "{resign}");
    assert_board_is_stored(&bot.store, &ctx, &resign, Lang::En).await;
    assert_eq!(bot.snapshot(&ctx).await.2, GameStatus::Resigned);
    bot.stop().await;
}
