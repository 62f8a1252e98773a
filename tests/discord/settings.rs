//! `/settings`: only server managers change them; levels, idle limits, the server's language,
//! settings of a channel that its threads follow, and players choosing their opponent.

use serde_json::json;
use settai::domain::{GameStatus, Setting, Settings};
use settai::i18n::{level_name, move_label, opponent_name, Lang, MoveMenu, Msg};
use settai_core::{doubutsu, reversi, GameKind, Level, MoveDetail, Side};
use sqlx::PgPool;

use crate::board_pictures::assert_board_is_stored;
use crate::said::{self, en, for_this_channel, mv};
use crate::support::fixtures::{self, Ctx, USER_ID};
use crate::support::ReplyKind;
use crate::{
    assert_no_hidden_word, assert_refused, here, level_options, move_menus, on, open_list, place, play_move,
    play_reversi, settings, Bot, T,
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
    assert_refused(&denied, &en(Msg::ManagersOnly));
    assert_eq!(
        bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Doubutsu),
        Level::Doubutsu(doubutsu::DoubutsuLevel::Settai)
    );

    // A level of the other game is refused.
    let wrong = bot.standin.interact(settings(&ctx, "level", level_options("reversi", "weakest"), true)).await;
    let reversi_levels = en(Msg::LevelNotForGame { kind: GameKind::Reversi });
    assert!(wrong.is_ephemeral() && wrong.content() == reversi_levels, "{}", wrong.content());
    assert_eq!(
        bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Reversi),
        Level::Reversi(reversi::ReversiLevel::Standard)
    );

    // A manager sets doubutsu to weakest: the table is not needed, so doubutsu can start.
    let set = bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "weakest"), true)).await;
    let weakest = Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest);
    let confirmed = en(Msg::LevelSet { kind: GameKind::Doubutsu, level: weakest });
    assert!(set.is_ephemeral() && set.content() == confirmed, "{}", set.content());
    assert_eq!(
        bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Doubutsu),
        Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest)
    );
    let shown = bot.standin.interact(settings(&Ctx::ja(), "show", json!([]), true)).await;
    let expected = Settings { doubutsu_level: doubutsu::DoubutsuLevel::Weakest, ..Settings::default() };
    assert!(shown.is_ephemeral(), "{shown}");
    assert_eq!(shown.content(), said::ja(Msg::Settings { settings: &expected, hints_choice: None }));
    let started = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert!(!started.is_ephemeral(), "{started}");
    assert_eq!(bot.game(&ctx).await.unwrap().level, Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest));

    // Changing the level later does not touch the running game.
    bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "strongest"), true)).await;
    assert_eq!(bot.game(&ctx).await.unwrap().level, Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest));
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn games_idle_past_the_servers_limit_are_closed_with_a_notice(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    // A manager allows 30 days on this server; the default elsewhere is 14.
    let days = json!([{ "name": "days", "type": 4, "value": 30 }]);
    let set = bot.standin.interact(settings(&ctx, "idle", days, true)).await;
    assert_eq!(set.content(), en(Msg::IdleSet { days: 30 }));
    let show = bot.standin.interact(settings(&ctx, "show", json!([]), true)).await;
    let month = Settings { idle_days: 30, ..Settings::default() };
    assert_eq!(show.content(), en(Msg::Settings { settings: &month, hints_choice: None }));

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
    let expired = en(Msg::Expired { human: USER_ID, days: 14 });
    let notice = bot.standin.wait_call(since, T, |c| c.content().is_some_and(|t| t.contains(&expired))).await;
    assert!(matches!(notice.kind, ReplyKind::ChannelMessage { channel_id } if channel_id == elsewhere.channel_id));
    assert!(bot.game(&elsewhere).await.is_none(), "the idle game is closed");
    let (_, _, status, _) = bot.snapshot(&elsewhere).await;
    assert_eq!(status, GameStatus::Expired);
    assert!(bot.game(&here).await.is_some(), "within this server's limit the game goes on");
    // A stale tap on the closed game's board is refused; a new game can start there.
    let refused = bot.standin.interact(play_move(&elsewhere, "d3")).await;
    assert_refused(&refused, &en(Msg::NoGame));
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
    let japanese = said::ja(Msg::LanguageSet { language: Some(Lang::Ja) });
    assert_eq!(set.content(), japanese, "confirmed in the new language");
    // An English-locale player now gets Japanese, on the board image too.
    let started = bot.standin.interact(play_reversi(&en)).await;
    let greeting = said::ja(Msg::Started { kind: GameKind::Reversi, human: USER_ID, human_side: Side::First });
    assert!(started.content().contains(&greeting), "{}", started.content());
    let list = open_list(&bot, &en, &started).await;
    assert!(list.content().contains(&said::ja(Msg::MovesAsList)), "{list}");
    let menus = move_menus(&list);
    let discs = said::ja(Msg::MenuOf { menu: MoveMenu::Discs, more: false });
    assert_eq!(menus[0].1, discs, "the menu speaks Japanese too");
    let d3 = move_label(mv(GameKind::Reversi, "d3"), Some(MoveDetail::Place { flips: 1 }), Lang::Ja);
    assert!(menus[0].2.iter().any(|(label, _)| label.ends_with(&format!(" · {d3}"))), "{menus:?}");
    assert_board_is_stored(&bot.store, &en, &started, Lang::Ja).await;
    let board = bot.standin.interact(fixtures::slash(&en, "play", "board", json!([]))).await;
    assert_board_is_stored(&bot.store, &en, &board, Lang::Ja).await;
    // Back to each player's own language.
    let auto = json!([{ "name": "language", "type": 3, "value": "auto" }]);
    let back = bot.standin.interact(settings(&en, "language", auto, true)).await;
    assert_eq!(back.content(), said::en(Msg::LanguageSet { language: None }));
    let board = bot.standin.interact(fixtures::slash(&en, "play", "board", json!([]))).await;
    assert!(board.content().contains(&said::en(Msg::YourMove { human: USER_ID })), "{}", board.content());
    // The image is in English again.
    assert_board_is_stored(&bot.store, &en, &board, Lang::En).await;
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
    let highest = Level::Reversi(reversi::ReversiLevel::Highest);
    assert_eq!(set.content(), for_this_channel(Msg::LevelSet { kind: GameKind::Reversi, level: highest }, Lang::En));
    let shown = bot.standin.interact(settings(&family, "show", json!([]), true)).await;
    let own = Settings {
        reversi_level: reversi::ReversiLevel::Highest,
        from_channel: vec![Setting::ReversiLevel],
        ..Settings::default()
    };
    assert_eq!(shown.content(), en(Msg::Settings { settings: &own, hints_choice: None }));
    let shown = bot.standin.interact(settings(&other, "show", json!([]), true)).await;
    assert_eq!(
        shown.content(),
        en(Msg::Settings { settings: &Settings::default(), hints_choice: None }),
        "the server's, unmarked"
    );
    // A thread of the channel follows it; another channel follows the server.
    bot.standin.interact(play_reversi(&thread)).await;
    bot.standin.interact(play_reversi(&other)).await;
    assert_eq!(bot.game(&thread).await.unwrap().level, Level::Reversi(reversi::ReversiLevel::Highest));
    assert_eq!(bot.game(&thread).await.unwrap().parent_id, Some(family.channel_id));
    assert_eq!(bot.game(&other).await.unwrap().level, Level::Reversi(reversi::ReversiLevel::Standard));
    // A language set for the channel only answers there, on the board too.
    let ja = json!([{ "name": "language", "type": 3, "value": "ja" }, here()]);
    let set = bot.standin.interact(settings(&family, "language", ja, true)).await;
    assert_eq!(set.content(), for_this_channel(Msg::LanguageSet { language: Some(Lang::Ja) }, Lang::Ja));
    let board = bot.standin.interact(fixtures::slash(&thread, "play", "board", json!([]))).await;
    assert!(board.content().contains(&said::ja(Msg::YourMove { human: USER_ID })), "{}", board.content());
    let board = bot.standin.interact(fixtures::slash(&other, "play", "board", json!([]))).await;
    assert!(board.content().contains(&en(Msg::YourMove { human: USER_ID })), "{}", board.content());
    // Only managers change a channel, and a reset brings back the server's settings.
    let mut options = level_options("reversi", "none");
    options.as_array_mut().unwrap().push(here());
    // The channel speaks Japanese now.
    assert_refused(
        &bot.standin.interact(settings(&family, "level", options, false)).await,
        &said::ja(Msg::ManagersOnly),
    );
    let reset = bot.standin.interact(settings(&family, "reset", json!([]), true)).await;
    assert_eq!(reset.content(), en(Msg::ChannelReset { had: true }));
    let s = bot.store.settings(&place(&thread)).await.unwrap();
    assert_eq!(
        (s.level(GameKind::Reversi), s.language, s.from_channel.len()),
        (Level::Reversi(reversi::ReversiLevel::Standard), None, 0)
    );
    // The running game keeps the level it started with.
    assert_eq!(bot.game(&thread).await.unwrap().level, Level::Reversi(reversi::ReversiLevel::Highest));
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn where_players_choose_they_pick_an_opponent_never_a_level(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let set = bot.standin.interact(settings(&ctx, "choice", on(true), true)).await;
    assert_eq!(set.content(), en(Msg::ChoiceSet { on: true }));
    // /play offers the opponents privately; nothing starts yet.
    let offer = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(offer.is_ephemeral() && offer.files().is_empty(), "{offer}");
    assert!(bot.game(&ctx).await.is_none());
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let choices = offer.select_options(&picker);
    let labels: Vec<&str> = choices.iter().map(|(label, _)| label.as_str()).collect();
    // The published rules as written are offered only with the commentary on (below).
    let opponents: Vec<&str> = Level::for_kind(GameKind::Reversi)
        .iter()
        .filter(|l| !l.is_classic())
        .map(|&l| opponent_name(l, Lang::En))
        .collect();
    assert_eq!(labels, opponents);
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
    let wolf_chosen = en(Msg::OpponentChosen { level: Level::Reversi(reversi::ReversiLevel::NoMercy) });
    assert!(chosen.content().contains(&wolf_chosen), "{}", chosen.content());
    assert_eq!(bot.game(&ctx).await.unwrap().level, Level::Reversi(reversi::ReversiLevel::NoMercy));
    // The same menu again, or /play again, finds the channel busy.
    let again = bot.standin.interact(fixtures::select_on(&ctx, &picker, &[wolf.as_str()], &menu_message)).await;
    assert_refused(&again, &en(Msg::ChannelBusy));
    assert_refused(&bot.standin.interact(play_reversi(&ctx)).await, &en(Msg::ChannelBusy));
    // With the commentary on, the menu also tells the level (in the player's language).
    bot.standin.interact(settings(&ctx, "commentary", on(true), true)).await;
    let ja = Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID);
    let offer = bot.standin.interact(fixtures::slash(&ja, "play", "doubutsu", json!([]))).await;
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let menu = offer.component(&picker).unwrap().to_string();
    let settai = Level::Doubutsu(doubutsu::DoubutsuLevel::Settai);
    assert!(menu.contains(opponent_name(settai, Lang::Ja)) && menu.contains(level_name(settai, Lang::Ja)), "{menu}");
    // If the managers turn the choice off meanwhile, the old menu is refused and starts nothing.
    bot.standin.interact(settings(&ctx, "choice", on(false), true)).await;
    let menu_message = bot.standin.message(offer.message_id().unwrap()).unwrap();
    let late = bot.standin.interact(fixtures::select_on(&ja, &picker, &["2"], &menu_message)).await;
    assert_refused(&late, &said::ja(Msg::NoLevelChoice));
    assert!(bot.game(&ja).await.is_none());
    // A forged value is refused too.
    bot.standin.interact(settings(&ctx, "choice", on(true), true)).await;
    // A value no client could send (forged): the menu holds three.
    let forged_on = menu_message["id"].as_str().unwrap().parse().unwrap();
    let forged = bot.standin.interact(fixtures::select(&ja, &picker, &["7"], forged_on)).await;
    assert_refused(&forged, &said::ja(Msg::StaleBoard));
    assert!(bot.game(&ja).await.is_none());
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_published_rules_are_chosen_by_managers_and_offered_to_players_only_with_the_commentary_on(pool: PgPool) {
    let (table, _) = crate::small_table("classic-offer");
    let bot = Bot::builder(pool).table(table).start().await;
    let ctx = Ctx::en();
    let classic = Level::Doubutsu(doubutsu::DoubutsuLevel::SettaiClassic);
    // Managers choose it like any level, and it is kept.
    let set = bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "settai-classic"), true)).await;
    assert!(set.content().contains(level_name(classic, Lang::En)), "{}", set.content());
    assert_eq!(bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Doubutsu), classic);
    bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "settai"), true)).await;
    bot.standin.interact(settings(&ctx, "choice", on(true), true)).await;
    let index = Level::for_kind(GameKind::Doubutsu).iter().position(|&l| l == classic).unwrap().to_string();
    // With the commentary off the players' menu leaves it out, and a forged choice of it starts
    // nothing.
    let offer = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let values: Vec<String> = offer.select_options(&picker).into_iter().map(|(_, value)| value).collect();
    let others = Level::for_kind(GameKind::Doubutsu).iter().filter(|l| !l.is_classic()).count();
    assert!(!values.contains(&index) && values.len() == others, "{values:?}");
    let menu_message = bot.standin.message(offer.message_id().unwrap()).unwrap();
    let forged_on = menu_message["id"].as_str().unwrap().parse().unwrap();
    let forged = bot.standin.interact(fixtures::select(&ctx, &picker, &[index.as_str()], forged_on)).await;
    assert_refused(&forged, &en(Msg::StaleBoard));
    assert!(bot.game(&ctx).await.is_none());
    // With the commentary on it is offered under its own name, and chosen it is the game's level.
    bot.standin.interact(settings(&ctx, "commentary", on(true), true)).await;
    let offer = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let options = offer.select_options(&picker);
    assert!(
        options.iter().any(|(label, value)| value == &index && label == opponent_name(classic, Lang::En)),
        "{options:?}"
    );
    assert!(offer.component(&picker).unwrap().to_string().contains(level_name(classic, Lang::En)));
    let menu_message = bot.standin.message(offer.message_id().unwrap()).unwrap();
    let pick = fixtures::select_on(&ctx, &picker, &[index.as_str()], &menu_message);
    let chosen = bot.standin.interact_until(pick, |x| !x.followups().is_empty()).await;
    assert!(!chosen.followups()[0].files.is_empty(), "the board is posted: {chosen}");
    assert_eq!(bot.game(&ctx).await.unwrap().level, classic);
    bot.stop().await;
}
