//! `/settings`: only server managers change them; levels, idle limits, the server's language,
//! settings of a channel that its threads follow, and players choosing their opponent.

use serde_json::json;
use settai::domain::GameStatus;
use settai_core::GameKind;
use sqlx::PgPool;

use crate::support::fixtures::{self, Ctx};
use crate::support::{self, ReplyKind};
use crate::{
    assert_no_hidden_word, assert_refused, here, level_options, move_menus, on, place, play_move, play_reversi,
    settings, Bot, T,
};

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn server_managers_choose_the_levels_and_others_cannot(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let commands = bot.standin.registered_commands().await;
    let settings_cmd = commands.iter().find(|c| c["name"] == "settings").expect("/settings is registered");
    assert_eq!(settings_cmd["default_member_permissions"], "32");

    // A player who is not a manager changes nothing.
    let denied = bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "weakest"), false)).await;
    assert_refused(&denied, "manage this server");
    assert_eq!(
        bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Doubutsu),
        settai_core::Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Settai)
    );

    // A level of the other game is refused.
    let wrong = bot.standin.interact(settings(&ctx, "level", level_options("reversi", "weakest"), true)).await;
    assert!(wrong.is_ephemeral() && wrong.content().contains("no mercy"), "{}", wrong.content());
    assert_eq!(
        bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Reversi),
        settai_core::Level::Reversi(settai_core::reversi::ReversiLevel::Standard)
    );

    // A manager sets doubutsu to weakest: the table is not needed, so doubutsu can start.
    let set = bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "weakest"), true)).await;
    assert!(set.is_ephemeral() && set.content().contains("weakest"), "{}", set.content());
    assert_eq!(
        bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Doubutsu),
        settai_core::Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest)
    );
    let shown = bot.standin.interact(settings(&Ctx::ja(), "show", json!([]), true)).await;
    assert!(
        shown.is_ephemeral() && shown.content().contains("雑魚") && shown.content().contains("標準"),
        "{}",
        shown.content()
    );
    let started = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert!(!started.is_ephemeral(), "{started}");
    assert_eq!(
        bot.game(&ctx).await.unwrap().level,
        settai_core::Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest)
    );

    // Changing the level later does not touch the running game.
    bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "strongest"), true)).await;
    assert_eq!(
        bot.game(&ctx).await.unwrap().level,
        settai_core::Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest)
    );
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn games_idle_past_the_servers_limit_are_closed_with_a_notice(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    // A manager allows 30 days on this server; the default elsewhere is 14.
    let days = json!([{ "name": "days", "type": 4, "value": 30 }]);
    let set = bot.standin.interact(settings(&ctx, "idle", days, true)).await;
    assert!(set.content().contains("**30 days**"), "{}", set.content());
    let show = bot.standin.interact(settings(&ctx, "show", json!([]), true)).await;
    assert!(show.content().contains("**30 days**"), "{}", show.content());

    let here = ctx.clone();
    let elsewhere = Ctx { guild_id: fixtures::GUILD_ID + 1, ..ctx.with_channel(fixtures::OTHER_CHANNEL_ID) };
    for c in [&here, &elsewhere] {
        bot.standin.interact(play_reversi(c)).await;
    }
    // Both games last moved 20 days ago: past the default 14, within this server's 30.
    let since = bot.standin.cursor();
    sqlx::query("UPDATE games SET updated_at = now() - interval '20 days' WHERE status = 'active'")
        .execute(bot.store.pool())
        .await
        .unwrap();
    let notice = bot.standin.wait_call(since, T, |c| c.content().is_some_and(|t| t.contains("waited 14 days"))).await;
    assert!(
        matches!(notice.kind, support::discord::ReplyKind::ChannelMessage { channel_id } if channel_id == elsewhere.channel_id)
    );
    assert!(bot.game(&elsewhere).await.is_none(), "the idle game is closed");
    let (_, _, status, _) = bot.snapshot(&elsewhere).await;
    assert_eq!(status, GameStatus::Expired);
    assert!(bot.game(&here).await.is_some(), "within this server's limit the game goes on");
    // A stale tap on the closed game's board is refused; a new game can start there.
    let refused = bot.standin.interact(play_move(&elsewhere, "d3")).await;
    assert_refused(&refused, "no game in this channel");
    let again = bot.standin.interact(play_reversi(&elsewhere)).await;
    assert!(!again.is_ephemeral(), "{again}");
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_server_language_overrides_each_players_locale(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let en = Ctx::en();
    let ja_language = json!([{ "name": "language", "type": 3, "value": "ja" }]);
    let set = bot.standin.interact(settings(&en, "language", ja_language, true)).await;
    assert!(set.content().contains("言語：全員**日本語**"), "confirmed in the new language: {}", set.content());
    // An English-locale player now gets Japanese, on the board image too.
    let started = bot.standin.interact(play_reversi(&en)).await;
    assert!(started.content().contains("リバーシを始めます"), "{}", started.content());
    let menus = move_menus(&started);
    assert_eq!(menus[0].1, "石を置く", "the menu speaks Japanese too");
    assert!(menus[0].2.iter().any(|(label, _)| label == "d3（1枚返す）"), "{menus:?}");
    let ja_board = started.file(".png").unwrap().to_vec();
    let board = bot.standin.interact(fixtures::slash(&en, "play", "board", json!([]))).await;
    assert_eq!(board.file(".png").unwrap(), ja_board.as_slice());
    // Back to each player's own language.
    let auto = json!([{ "name": "language", "type": 3, "value": "auto" }]);
    let back = bot.standin.interact(settings(&en, "language", auto, true)).await;
    assert!(back.content().contains("each player's Discord language"), "{}", back.content());
    let board = bot.standin.interact(fixtures::slash(&en, "play", "board", json!([]))).await;
    assert!(board.content().contains("your move"), "{}", board.content());
    assert_ne!(board.file(".png").unwrap(), ja_board.as_slice(), "the image is in English again");
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_channel_can_have_settings_of_its_own_that_its_threads_follow(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let family = Ctx::en();
    let thread = family.in_thread(fixtures::THREAD_ID);
    let other = family.with_channel(fixtures::OTHER_CHANNEL_ID);
    // This channel plays reversi at `highest`; the server stays at `standard`.
    let mut options = level_options("reversi", "highest");
    options.as_array_mut().unwrap().push(here());
    let set = bot.standin.interact(settings(&family, "level", options, true)).await;
    assert!(set.content().contains("highest") && set.content().contains("This channel"), "{}", set.content());
    let shown = bot.standin.interact(settings(&family, "show", json!([]), true)).await;
    assert!(shown.content().contains("reversi: **highest** *(this channel)*"), "{}", shown.content());
    let shown = bot.standin.interact(settings(&other, "show", json!([]), true)).await;
    assert!(shown.content().contains("reversi: **standard**\n"), "{}", shown.content());
    assert!(!shown.content().contains("this channel)"), "{}", shown.content());
    // A thread of the channel follows it; another channel follows the server.
    bot.standin.interact(play_reversi(&thread)).await;
    bot.standin.interact(play_reversi(&other)).await;
    assert_eq!(
        bot.game(&thread).await.unwrap().level,
        settai_core::Level::Reversi(settai_core::reversi::ReversiLevel::Highest)
    );
    assert_eq!(bot.game(&thread).await.unwrap().parent_id, Some(family.channel_id));
    assert_eq!(
        bot.game(&other).await.unwrap().level,
        settai_core::Level::Reversi(settai_core::reversi::ReversiLevel::Standard)
    );
    // A language set for the channel only answers there, on the board too.
    let ja = json!([{ "name": "language", "type": 3, "value": "ja" }, here()]);
    let set = bot.standin.interact(settings(&family, "language", ja, true)).await;
    assert!(set.content().contains("このチャンネル"), "{}", set.content());
    let board = bot.standin.interact(fixtures::slash(&thread, "play", "board", json!([]))).await;
    assert!(board.content().contains("さんの番です"), "{}", board.content());
    let board = bot.standin.interact(fixtures::slash(&other, "play", "board", json!([]))).await;
    assert!(board.content().contains("your move"), "{}", board.content());
    // Only managers change a channel, and a reset brings back the server's settings.
    let mut options = level_options("reversi", "none");
    options.as_array_mut().unwrap().push(here());
    assert_refused(&bot.standin.interact(settings(&family, "level", options, false)).await, "管理者");
    let reset = bot.standin.interact(settings(&family, "reset", json!([]), true)).await;
    assert!(reset.content().contains("follows the server's settings again"), "{}", reset.content());
    let s = bot.store.settings(&place(&thread)).await.unwrap();
    assert_eq!(
        (s.level(GameKind::Reversi), s.language, s.from_channel.len()),
        (settai_core::Level::Reversi(settai_core::reversi::ReversiLevel::Standard), None, 0)
    );
    // The running game keeps the level it started with.
    assert_eq!(
        bot.game(&thread).await.unwrap().level,
        settai_core::Level::Reversi(settai_core::reversi::ReversiLevel::Highest)
    );
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn where_players_choose_they_pick_an_opponent_never_a_level(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let set = bot.standin.interact(settings(&ctx, "choice", on(true), true)).await;
    assert!(set.content().contains("choose their opponent"), "{}", set.content());
    // /play offers the opponents privately; nothing starts yet.
    let offer = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(offer.is_ephemeral() && offer.files().is_empty(), "{offer}");
    assert!(bot.game(&ctx).await.is_none());
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let choices = offer.select_options(&picker);
    let labels: Vec<&str> = choices.iter().map(|(label, _)| label.as_str()).collect();
    assert_eq!(labels, ["🦉 Owl", "🐰 Rabbit", "🐺 Wolf"]);
    // With the commentary off, nothing in the offer (not even the menu's values) names a level.
    for call in offer.calls.iter() {
        assert_no_hidden_word("the opponent menu", &call.json.to_string());
    }
    // Choosing the wolf starts a public game at `none`; the private menu says what was chosen.
    let menu_message = bot.standin.message(offer.message_id().unwrap()).unwrap();
    let wolf = &choices[2].1;
    // The board is posted first, then the menu is edited to say what was chosen.
    let pick = fixtures::select_on(&ctx, &picker, &[wolf.as_str()], &menu_message);
    let chosen = bot
        .standin
        .interact_until(pick, |x| {
            x.calls.iter().skip_while(|c| c.kind != ReplyKind::Followup).any(|c| c.kind == ReplyKind::EditOriginal)
        })
        .await;
    let posted = chosen.followups();
    assert_eq!(posted.len(), 1, "{chosen}");
    assert!(posted[0].flags() & 64 == 0 && !posted[0].files.is_empty(), "the board is public: {chosen}");
    assert!(chosen.content().contains("Wolf"), "{}", chosen.content());
    assert_eq!(
        bot.game(&ctx).await.unwrap().level,
        settai_core::Level::Reversi(settai_core::reversi::ReversiLevel::None)
    );
    // The same menu again, or /play again, finds the channel busy.
    let again = bot.standin.interact(fixtures::select_on(&ctx, &picker, &[wolf.as_str()], &menu_message)).await;
    assert_refused(&again, "already");
    assert_refused(&bot.standin.interact(play_reversi(&ctx)).await, "already");
    // With the commentary on, the menu also tells the level (in the player's language).
    bot.standin.interact(settings(&ctx, "commentary", on(true), true)).await;
    let ja = Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID);
    let offer = bot.standin.interact(fixtures::slash(&ja, "play", "doubutsu", json!([]))).await;
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let menu = offer.component(&picker).unwrap().to_string();
    assert!(menu.contains("ゾウさん") && menu.contains("接待"), "{menu}");
    // If the managers turn the choice off meanwhile, the old menu is refused and starts nothing.
    bot.standin.interact(settings(&ctx, "choice", on(false), true)).await;
    let menu_message = bot.standin.message(offer.message_id().unwrap()).unwrap();
    let late = bot.standin.interact(fixtures::select_on(&ja, &picker, &["2"], &menu_message)).await;
    assert_refused(&late, "選べなくなりました");
    assert!(bot.game(&ja).await.is_none());
    // A forged value is refused too.
    bot.standin.interact(settings(&ctx, "choice", on(true), true)).await;
    let forged = bot.standin.interact(fixtures::select_on(&ja, &picker, &["7"], &menu_message)).await;
    assert_refused(&forged, "");
    assert!(bot.game(&ja).await.is_none());
    bot.stop().await;
}
