//! Families and children (docs/design/bot-reliability.md#families-and-children): family team mode,
//! reminders and final notices of waiting games, deleted boards recovered, `/play help`, boards that
//! speak to the child, and take-backs.
//!
//! (Past 500 lines by a few: the reminders and the recovered boards share the readers of a
//! channel's messages here.)

use std::time::Duration;

use serde_json::json;
use settai::domain::{Nudge, Setting, Settings, Venue, DEFAULT_IDLE_DAYS};
use settai::i18n::{animal_name, kind_name, level_name, Lang, Msg};
use settai::store::Store;
use settai_core::doubutsu::Role;
use settai_core::{reversi, Game, GameKind, Level, Side};
use sqlx::PgPool;

use crate::board_pictures::{assert_board_is_stored, assert_post_is_stored};
use crate::said::{self, en, for_this_channel, mv, results, whatever_the_link};
use crate::support::fixtures::{self, Ctx, OTHER_USER_ID, USER_ID};
use crate::support::{self, Exchange, ReplyKind};
use crate::{
    assert_no_hidden_word, assert_refused, board_image, game_in, level_options, numbers, on, play_move, play_reversi,
    settings, tap_move, tap_move_on, touch_taps, Bot, T,
};

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn in_family_team_mode_anyone_in_the_channel_moves_but_only_the_starter_resigns(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let (parent, child) = (Ctx::en(), Ctx::en().with_user(OTHER_USER_ID));
    bot.standin.interact(play_reversi(&parent)).await;
    // Off by default: the child may not move in the parent's game, and sees no moves offered.
    let parents_game = en(Msg::NotYourGame { owner: USER_ID });
    assert_refused(&bot.standin.interact(play_move(&child, "f5")).await, &parents_game);
    let offered = bot.standin.interact(fixtures::autocomplete(&child, "play", "move", "move", "")).await;
    assert!(offered.autocomplete_choices().is_empty(), "{offered}");

    // Only managers switch it on.
    let on = json!([{ "name": "on", "type": 5, "value": true }]);
    assert_refused(&bot.standin.interact(settings(&child, "team", on.clone(), false)).await, &en(Msg::ManagersOnly));
    let set = bot.standin.interact(settings(&parent, "team", on, true)).await;
    assert!(set.is_ephemeral() && set.content() == en(Msg::TeamSet { on: true }), "{}", set.content());
    let show = bot.standin.interact(settings(&parent, "show", json!([]), true)).await;
    let team = Settings { team_play: true, ..Settings::default() };
    assert_eq!(show.content(), en(Msg::Settings { settings: &team, hints_choice: None }));

    // Now the child moves (by command, then by tapping the menu of the board the child got)...
    let offered = bot.standin.interact(fixtures::autocomplete(&child, "play", "move", "move", "")).await;
    assert!(offered.autocomplete_choices().iter().any(|(_, v)| v == "f5"), "{offered}");
    let by_child = bot.standin.interact(play_move(&child, "f5")).await;
    let played = en(Msg::YouPlayed { mv: mv(GameKind::Reversi, "f5") });
    assert!(!by_child.is_ephemeral() && by_child.content().contains(&played), "{by_child}");
    let values = numbers(&bot, &by_child);
    let tap = tap_move(&bot, &child, &by_child, &values[0]).await;
    assert!(!tap.is_ephemeral(), "{tap}");
    // ...the moves are recorded as the child's, and the game stays the parent's.
    let game = bot.store.active_game(child.channel_id).await.unwrap().expect("the game goes on");
    assert_eq!(game.human_id, USER_ID);
    let moves = bot.store.moves(game.id).await.unwrap();
    let human: Vec<_> = moves.iter().filter(|m| !m.by_bot).map(|m| m.user_id).collect();
    assert_eq!(human, vec![Some(OTHER_USER_ID), Some(OTHER_USER_ID)]);
    // Resigning stays with the player who started.
    let resign = bot.standin.interact(fixtures::slash(&child, "play", "resign", json!([]))).await;
    assert_refused(&resign, &parents_game);
    let off = json!([{ "name": "on", "type": 5, "value": false }]);
    bot.standin.interact(settings(&parent, "team", off, true)).await;
    assert_refused(&bot.standin.interact(play_move(&child, "d3")).await, &parents_game);
    bot.stop().await;
}

/// Moves the last change of each channel's active game the given hours into the past, in one
/// statement (a sweep sees all of them or none); the sweeps read the database's clock.
pub(crate) async fn waited(bot: &Bot, waits: &[(&Ctx, f64)]) {
    let channels: Vec<i64> = waits.iter().map(|(c, _)| c.channel_id as i64).collect();
    let secs: Vec<f64> = waits.iter().map(|(_, h)| h * 3600.0).collect();
    sqlx::query(
        "UPDATE games g SET updated_at = now() - make_interval(secs => w.secs)
         FROM unnest($1::BIGINT[], $2::FLOAT8[]) AS w(channel_id, secs)
         WHERE g.channel_id = w.channel_id AND g.status = 'active'",
    )
    .bind(channels)
    .bind(secs)
    .execute(bot.store.pool())
    .await
    .unwrap();
}

/// Waits until the channel's game remembers `message_id` as its board: the bot records it as
/// soon as Discord has told it the id, which is just after the board was shown.
pub(crate) async fn board_remembered(bot: &Bot, ctx: &Ctx, message_id: u64) {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let stored = bot.game(ctx).await.and_then(|g| g.board_message_id);
        if stored == Some(message_id) {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "the board {message_id} was not remembered: {stored:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A message the bot posted in `ctx`'s channel containing `needle`.
fn posted_in(ctx: &Ctx, needle: String) -> impl Fn(&support::Reply) -> bool {
    let channel = ctx.channel_id;
    move |c| {
        c.ok()
            && c.kind == ReplyKind::ChannelMessage { channel_id: channel }
            && c.content().is_some_and(|t| t.contains(&needle))
    }
}

/// What a reminder to `ctx`'s player of their reversi game says, whatever its board.
fn reminder(ctx: &Ctx) -> String {
    whatever_the_link(|link| Msg::Reminder { human: ctx.user_id, kind: GameKind::Reversi, link }, Lang::En)
}

/// What a final notice to `ctx`'s player of their reversi game says, whatever its board.
fn final_notice(ctx: &Ctx) -> String {
    whatever_the_link(|link| Msg::FinalNotice { human: ctx.user_id, kind: GameKind::Reversi, link }, Lang::En)
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): a player whose
/// move a game has waited for gets one reminder after the server's time (24 hours unless set),
/// linking to the board and pinging only them; none where the server or the player said no; a final
/// notice the day before the game is closed, whose board then loses its menu; a move starts a new
/// wait.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_waiting_player_is_reminded_once_and_warned_before_the_close(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let channel = |n: u64| Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 10 + n);
    let (mine, quiet_here, witness) = (Ctx::en(), channel(1), channel(2));
    let other = Ctx::en().with_user(OTHER_USER_ID).with_channel(fixtures::OTHER_CHANNEL_ID);
    // A manager turns reminders off in one channel; the other player turns their own off.
    let off = json!([{ "name": "hours", "type": 4, "value": 0 }, { "name": "here", "type": 5, "value": true }]);
    let set = bot.standin.interact(settings(&quiet_here, "reminders", off, true)).await;
    let none = for_this_channel(Msg::RemindersSet { hours: 0 }, Lang::En);
    assert!(set.is_ephemeral() && set.content() == none, "{set}");
    let show = bot.standin.interact(settings(&quiet_here, "show", json!([]), true)).await;
    let quiet = Settings { reminder_hours: 0, from_channel: vec![Setting::ReminderHours], ..Settings::default() };
    assert_eq!(show.content(), en(Msg::Settings { settings: &quiet, hints_choice: None }));
    let remind_off = fixtures::slash(&other, "play", "remind", json!([{ "name": "on", "type": 5, "value": false }]));
    let said = bot.standin.interact(remind_off).await;
    assert!(said.is_ephemeral() && said.content() == en(Msg::RemindSet { on: false }), "{said}");
    let mut boards = std::collections::HashMap::new();
    for ctx in [&mine, &quiet_here, &witness, &other] {
        let start = bot.standin.interact(play_reversi(ctx)).await;
        let id = start.message_id().unwrap();
        board_remembered(&bot, ctx, id).await;
        boards.insert(ctx.channel_id, id);
    }

    // 23 hours is not yet 24; the witness's reminder shows that a sweep looked at every game.
    let since = bot.standin.cursor();
    waited(&bot, &[(&mine, 23.0), (&quiet_here, 25.0), (&other, 25.0), (&witness, 25.0)]).await;
    let reminded = bot.standin.wait_call(since, T, posted_in(&witness, reminder(&witness))).await;
    let link = format!(
        "https://discord.com/channels/{}/{}/{}",
        witness.guild_id, witness.channel_id, boards[&witness.channel_id]
    );
    let expected = en(Msg::Reminder { human: USER_ID, kind: GameKind::Reversi, link: Some(&link) });
    assert_eq!(reminded.content(), Some(expected.as_str()), "{reminded}");
    assert_eq!(reminded.json.pointer("/allowed_mentions/users"), Some(&json!([USER_ID.to_string()])), "{reminded}");
    assert!(reminded.files.is_empty(), "the board is there: a link is enough");
    let reminders = |ctx: &Ctx, needle: fn(&Ctx) -> String| {
        bot.standin.all_calls().iter().filter(|c| posted_in(ctx, needle(ctx))(c)).count()
    };
    for ctx in [&mine, &quiet_here, &other] {
        assert_eq!(reminders(ctx, reminder), 0, "channel {}", ctx.channel_id);
    }

    // Past 24 hours the player is reminded, once: the witness's final notice (a day before its
    // 14 days are up) comes from a later sweep.
    let since = bot.standin.cursor();
    waited(&bot, &[(&mine, 25.0)]).await;
    bot.standin.wait_call(since, T, posted_in(&mine, reminder(&mine))).await;
    let since = bot.standin.cursor();
    waited(&bot, &[(&witness, 13.5 * 24.0)]).await;
    let noticed = bot.standin.wait_call(since, T, posted_in(&witness, final_notice(&witness))).await;
    let expected = en(Msg::FinalNotice { human: USER_ID, kind: GameKind::Reversi, link: Some(&link) });
    assert_eq!(noticed.content(), Some(expected.as_str()), "{noticed}");
    assert_eq!(reminders(&mine, reminder), 1);
    assert_eq!(reminders(&witness, reminder), 1, "the final notice comes once, without a second reminder");
    for ctx in [&quiet_here, &other] {
        assert_eq!(reminders(ctx, reminder) + reminders(ctx, final_notice), 0, "channel {}", ctx.channel_id);
    }
    // Then the close, after the final notice.
    let since = bot.standin.cursor();
    waited(&bot, &[(&witness, 14.5 * 24.0)]).await;
    let expired = en(Msg::Expired { human: USER_ID, days: 14 });
    let closed = bot.standin.wait_call(since, T, posted_in(&witness, expired)).await;
    assert!(noticed.seq < closed.seq);
    assert_eq!(reminders(&witness, final_notice), 1);
    // Its board offers no move any more: a child's tap there could play nothing.
    let board = boards[&witness.channel_id];
    let edit = ReplyKind::EditChannelMessage { channel_id: witness.channel_id, message_id: board };
    bot.standin.wait_call(since, T, |c| c.ok() && c.kind == edit).await;
    assert!(fixtures::buttons_of(&bot.standin.message(board).expect("the board")).is_empty());

    // A move starts a new wait, with a reminder of its own.
    let record = bot.game(&mine).await.unwrap();
    let mv = record.game.legal_moves()[0].to_string();
    bot.standin.interact(play_move(&mine, &mv)).await;
    let since = bot.standin.cursor();
    waited(&bot, &[(&mine, 25.0)]).await;
    let again = bot.standin.wait_call(since, T, posted_in(&mine, reminder(&mine))).await;
    assert_eq!(reminders(&mine, reminder), 2, "{again}");
    // The player who said no changes their mind.
    let remind_on = fixtures::slash(&other, "play", "remind", json!([{ "name": "on", "type": 5, "value": true }]));
    assert_eq!(bot.standin.interact(remind_on).await.content(), en(Msg::RemindSet { on: true }));
    bot.standin.wait_call(since, T, posted_in(&other, reminder(&other))).await;
    assert_eq!(reminders(&quiet_here, reminder), 0);
    bot.stop().await;
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): the idle sweep
/// never sends a reminder twice for one wait, whatever process looks: what was sent is in the
/// database.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reminder_is_recorded_before_it_is_sent(pool: PgPool) {
    let store = Store::from_pool(pool);
    let ctx = Ctx::en();
    let record = game_in(
        &store,
        &ctx,
        Side::First,
        Level::Reversi(reversi::ReversiLevel::Standard),
        Game::new(GameKind::Reversi),
    )
    .await;
    sqlx::query("UPDATE games SET updated_at = now() - interval '25 hours'").execute(store.pool()).await.unwrap();
    let owed = store.games_owed_nudges().await.unwrap().sound;
    assert_eq!(owed.iter().map(|(r, n)| (r.id, *n)).collect::<Vec<_>>(), [(record.id, Nudge::Reminder)]);
    let read = &owed[0].0;
    assert!(store.claim_nudge(read, Nudge::Reminder).await.unwrap());
    // A second sweep (this process after a restart, or another one) finds nothing owed, and
    // could not claim it anyway.
    assert!(store.games_owed_nudges().await.unwrap().sound.is_empty());
    assert!(!store.claim_nudge(read, Nudge::Reminder).await.unwrap());
    // The final notice is owed once too, and says nothing more is owed.
    sqlx::query("UPDATE games SET updated_at = now() - interval '13 days 1 hour'").execute(store.pool()).await.unwrap();
    let owed = store.games_owed_nudges().await.unwrap().sound;
    assert_eq!(
        owed.iter().map(|(r, n)| (r.id, *n)).collect::<Vec<_>>(),
        [(record.id, Nudge::FinalNotice { days: 14 })]
    );
    assert!(store.claim_nudge(&owed[0].0, Nudge::FinalNotice { days: 14 }).await.unwrap());
    assert!(store.games_owed_nudges().await.unwrap().sound.is_empty());
    // A player who does not want reminders is owed none.
    store.set_reminders_wanted(USER_ID, false).await.unwrap();
    assert!(!store.reminders_wanted(USER_ID).await.unwrap());
    let fresh = game_in(
        &store,
        &ctx.with_channel(fixtures::OTHER_CHANNEL_ID),
        Side::First,
        Level::Reversi(reversi::ReversiLevel::Standard),
        Game::new(GameKind::Reversi),
    )
    .await;
    sqlx::query("UPDATE games SET updated_at = now() - interval '25 hours' WHERE id = $1")
        .bind(fresh.id)
        .execute(store.pool())
        .await
        .unwrap();
    assert!(store.games_owed_nudges().await.unwrap().sound.is_empty());
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): a board someone
/// deleted comes back with nothing of the game lost: `/play board` posts a fresh one, which becomes
/// the game's board (the board it replaces loses its menu), and a reminder whose board is gone
/// brings a fresh board along.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_deleted_board_is_recovered_by_play_board_and_by_a_reminder(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let board = || fixtures::slash(&ctx, "play", "board", json!([]));
    let stripped = |id: u64| {
        move |c: &support::Reply| c.kind == ReplyKind::EditChannelMessage { channel_id: ctx.channel_id, message_id: id }
    };
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let first = start.message_id().unwrap();
    board_remembered(&bot, &ctx, first).await;
    bot.standin.delete_message(first);

    let since = bot.standin.cursor();
    let again = bot.standin.interact(board()).await;
    assert_board_is_stored(&bot.store, &ctx, &again, Lang::En).await;
    let second = again.message_id().unwrap();
    assert_ne!(second, first);
    // Letting go of the deleted board's menu fails, and changes nothing.
    let gone = bot.standin.wait_call(since, T, stripped(first)).await;
    assert_eq!(gone.status, 404, "{gone}");
    assert_eq!(bot.game(&ctx).await.unwrap().board_message_id, Some(second));
    assert_eq!(bot.snapshot(&ctx).await.1, 0);

    // Another /play board: the live board is the newest, the one before loses its menu.
    let since = bot.standin.cursor();
    let third = bot.standin.interact(board()).await.message_id().unwrap();
    assert!(bot.standin.wait_call(since, T, stripped(second)).await.ok());
    let old = bot.standin.message(second).unwrap();
    assert!(old["components"].as_array().is_none_or(|c| c.is_empty()), "{old}");
    assert_eq!(bot.game(&ctx).await.unwrap().board_message_id, Some(third));

    // The newest board is deleted too; a day later the reminder brings a fresh board.
    bot.standin.delete_message(third);
    let since = bot.standin.cursor();
    waited(&bot, &[(&ctx, 25.0)]).await;
    let reminded = bot.standin.wait_call(since, T, posted_in(&ctx, reminder(&ctx))).await;
    assert_post_is_stored(&bot.store, &ctx, &reminded, Lang::En).await;
    assert!(!reminded.content().unwrap().contains("https://discord.com/channels"), "no link to a deleted board");
    let with_board = en(Msg::Reminder { human: USER_ID, kind: GameKind::Reversi, link: None });
    assert_eq!(reminded.content(), Some(with_board.as_str()), "{reminded}");
    assert_eq!(reminded.json.pointer("/allowed_mentions/users"), Some(&json!([USER_ID.to_string()])), "{reminded}");
    let fresh = reminded.message_id.unwrap();
    board_remembered(&bot, &ctx, fresh).await;
    // It plays on: nothing of the game was lost.
    let message = bot.standin.message(fresh).unwrap();
    let values = touch_taps(&message, "p");
    let tap = tap_move_on(&bot, &ctx, &message, &values[0]).await;
    let played = en(Msg::YouPlayed { mv: mv(GameKind::Reversi, &values[0]) });
    assert!(!tap.is_ephemeral() && tap.content().contains(&played), "{tap}");
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 2);
    // Discord refused only the edits of the deleted boards, and the reminder's look for the
    // deleted board (it links to the board if it is still there).
    bot.shards.shutdown_all().await;
    let fetched = format!("/channels/{}/messages/{third}", ctx.channel_id);
    bot.standin.assert_refused_only(|c| {
        [stripped(first), stripped(third)].iter().any(|s| s(c))
            || matches!(&c.kind, ReplyKind::Other { method, path } if method == "GET" && path.ends_with(&fetched))
    });
    // Each once: the two boards' edits and the one look.
    let refused = bot.standin.refused();
    assert_eq!(refused.len(), 3, "{refused:?}");
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): `/play help` tells
/// privately, in the player's language, the rules of both games and how to tap, with the picture of
/// how the animals move; what the levels mean only when the commentary is on; and it leaves a game
/// in the channel as it was.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn play_help_tells_the_rules_privately_and_the_levels_only_with_the_commentary_on(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let help = |ctx: &Ctx| fixtures::slash(ctx, "play", "help", json!([]));
    let (en, ja) = (Ctx::en(), Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID));
    // In the middle of a game: the help changes nothing of it.
    let started = bot.standin.interact(play_reversi(&en)).await;
    let before = bot.snapshot(&en).await;

    // The help names the buttons as they are labelled (the list, the coach's mark), the
    // animals as they are called elsewhere.
    let tapped = |lang: Lang| [format!("📋 **{}**", Msg::ListButton.text(lang)), Msg::RiskyMark.text(lang)];
    let told = bot.standin.interact(help(&en)).await;
    assert!(told.is_ephemeral() && told.answered(), "{told}");
    assert_eq!(
        told.content(),
        said::en(Msg::Help { commentary: false, venue: Venue::Server, idle_days: DEFAULT_IDLE_DAYS })
    );
    let named = [animal_name(Role::Hen, Lang::En).to_lowercase(), format!("**{}**", said::en(Msg::ResignButton))];
    for words in tapped(Lang::En).into_iter().chain(named) {
        assert!(told.content().contains(&words), "no {words:?} in {}", told.content());
    }
    assert!(told.content().chars().count() < 2000, "Discord's limit");
    assert_no_hidden_word("/play help", &told.content());
    let picture = image::load_from_memory(told.file("animals.png").unwrap_or_else(|| panic!("no picture:\n{told}")))
        .expect("a valid PNG")
        .to_rgb8();
    assert_eq!(picture, settai::render::help::animals_image(Lang::En));
    assert_eq!(bot.snapshot(&en).await, before, "the game is as it was");
    assert_eq!(numbers(&bot, &started).len(), 4);

    let japanese = bot.standin.interact(help(&ja)).await;
    assert!(japanese.is_ephemeral(), "{japanese}");
    assert_eq!(
        japanese.content(),
        said::ja(Msg::Help { commentary: false, venue: Venue::Server, idle_days: DEFAULT_IDLE_DAYS })
    );
    let named = [
        format!("**{}**", kind_name(GameKind::Reversi, Lang::Ja)),
        format!("**{}**", kind_name(GameKind::Doubutsu, Lang::Ja)),
        animal_name(Role::Hen, Lang::Ja).to_string(),
        format!("**{}**", said::ja(Msg::ResignButton)),
    ];
    for words in tapped(Lang::Ja).into_iter().chain(named) {
        assert!(japanese.content().contains(&words), "no {words:?} in {}", japanese.content());
    }
    assert_no_hidden_word("/play help (ja)", &japanese.content());
    let picture_ja = image::load_from_memory(japanese.file("animals.png").expect("a picture")).unwrap().to_rgb8();
    assert_ne!(picture_ja, picture, "the picture's words follow the language");

    // With the commentary on, the levels are named and explained, in each language.
    bot.standin.interact(settings(&en, "commentary", on(true), true)).await;
    let levels = bot.standin.interact(help(&en)).await.content();
    assert_eq!(levels, said::en(Msg::Help { commentary: true, venue: Venue::Server, idle_days: DEFAULT_IDLE_DAYS }));
    let levels_ja = bot.standin.interact(help(&ja)).await.content();
    assert_eq!(levels_ja, said::ja(Msg::Help { commentary: true, venue: Venue::Server, idle_days: DEFAULT_IDLE_DAYS }));
    for (text, lang) in [(&levels, Lang::En), (&levels_ja, Lang::Ja)] {
        for level in GameKind::ALL.into_iter().flat_map(|kind| Level::for_kind(kind).iter().copied()) {
            let words = format!("**{}**", level_name(level, lang));
            assert!(text.contains(&words), "no {words:?} in {text}");
        }
    }
    assert!(levels.chars().count() < 2000 && levels_ja.chars().count() < 2000, "Discord's limit");
    bot.stop().await;
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): boards speak
/// to the child ("Your move", "You" and "Computer" over the hands; あなた and コンピューター in
/// Japanese) where they said the seats' names.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn boards_say_you_and_computer_in_both_languages(pool: PgPool) {
    use settai::render::{game_image, Names};
    let bot = Bot::builder(pool).start().await;
    bot.standin.interact(settings(&Ctx::en(), "level", level_options("doubutsu", "weakest"), true)).await;
    let ja = Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID).with_nick("Mika");
    for (ctx, lang) in [(Ctx::en().with_nick("Mika"), Lang::En), (ja, Lang::Ja)] {
        let started = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
        assert_board_is_stored(&bot.store, &ctx, &started, lang).await;
        let shown = board_image(&started).to_rgb8();
        let game = bot.game(&ctx).await.expect("a game").game;
        let names = Names::new("Mika", Msg::Computer.text(lang));
        let spoken = game_image(&game, None, lang, None, &names.clone().with_human(Side::First));
        assert_eq!(shown, spoken, "{lang:?}: the board is drawn for the player's seat");
        let outside = game_image(&game, None, lang, None, &names);
        assert_ne!(shown, outside, "{lang:?}: the board says you and the computer, not the seats");
    }
    bot.stop().await;
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): take-backs
/// (待った). Off by default (refused, nothing changes, no button); where a manager allows them, the
/// button under the board undoes the player's last move and the bot's move after it, two presses at once
/// undo once, only the player whose game it is may, and there must be a move to take back;
/// `/play takeback` does the same, and `/play stats` counts every take-back.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_take_back_undoes_the_players_move_and_the_bots_once_and_only_where_allowed(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let takeback = |ctx: &Ctx| fixtures::slash(ctx, "play", "takeback", json!([]));
    let button = |x: &Exchange| x.custom_ids().into_iter().find(|id| id.starts_with("tb:"));
    bot.standin.interact(play_reversi(&ctx)).await;
    let moved = bot.standin.interact(play_move(&ctx, "f5")).await;
    assert_eq!(button(&moved), None, "no button while take-backs are off:\n{moved}");
    let after_move = bot.snapshot(&ctx).await;
    assert_eq!((after_move.1, after_move.3), (2, 2));
    let off = bot.standin.interact(takeback(&ctx)).await;
    assert_refused(&off, &en(Msg::TakebackOff));
    assert_eq!(bot.snapshot(&ctx).await, after_move, "nothing changed");

    // Allowed for the server: a fresh board has the button.
    let allowed = bot.standin.interact(settings(&ctx, "takeback", on(true), true)).await;
    assert_eq!(allowed.content(), en(Msg::TakebackSet { on: true }));
    let shown = bot.standin.interact(settings(&ctx, "show", json!([]), true)).await;
    let with_takebacks = Settings { takeback: true, ..Settings::default() };
    assert_eq!(shown.content(), en(Msg::Settings { settings: &with_takebacks, hints_choice: None }));
    let board_x = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    let id = button(&board_x).unwrap_or_else(|| panic!("a Take back button:\n{board_x}"));
    let board = bot.standin.message(board_x.message_id().unwrap()).unwrap();

    // Not the player's game: whose it is, without a word; nothing changes.
    let other = bot.standin.interact(fixtures::button_on(&ctx.with_user(OTHER_USER_ID), &id, &board)).await;
    crate::assert_sign(&other, USER_ID);
    assert_eq!(bot.snapshot(&ctx).await, after_move);

    // Two presses at once: one takes back (the player's f5 and the bot's move), the other is
    // stale and shows the game as it is now. Done: shown privately, or the new board posted and
    // the old one's buttons taken off.
    let done =
        |x: &Exchange| x.answered() && (x.is_ephemeral() || x.calls.iter().any(|c| c.kind == ReplyKind::EditOriginal));
    let (a, b) = tokio::join!(
        bot.standin.interact_until(fixtures::button_on(&ctx, &id, &board), done),
        bot.standin.interact_until(fixtures::button_on(&ctx, &id, &board), done),
    );
    let (applied, refused) = if a.is_ephemeral() { (b, a) } else { (a, b) };
    assert!(applied.contents().join("\n").contains(&en(Msg::TookBack)), "{applied}");
    crate::assert_the_game_now(&refused);
    assert_board_is_stored(&bot.store, &ctx, &applied, Lang::En).await;
    let start = Game::new(GameKind::Reversi).encode();
    let back = bot.snapshot(&ctx).await;
    assert_eq!((back.0.as_str(), back.1, back.3), (start.as_str(), 0, 0), "back at the start, once");
    let values = numbers(&bot, &applied);
    assert_eq!(values.len(), 4, "the start's moves are offered again");
    assert_eq!(button(&applied), None, "nothing left to take back, so no button");

    // Nothing to take back: refused, nothing changes.
    let nothing = bot.standin.interact(takeback(&ctx)).await;
    assert_refused(&nothing, &en(Msg::NothingToTakeBack));
    assert_eq!(bot.snapshot(&ctx).await.1, 0);

    // By command, in Japanese: two moves, one taken back.
    let ja = Ctx::ja();
    bot.standin.interact(play_move(&ja, "d3")).await;
    let values = numbers(&bot, &bot.standin.interact(fixtures::slash(&ja, "play", "board", json!([]))).await);
    bot.standin.interact(play_move(&ja, &values[0])).await;
    let four = bot.snapshot(&ctx).await;
    assert_eq!(four.1, 4);
    let undone = bot.standin.interact(takeback(&ja)).await;
    assert!(!undone.is_ephemeral() && undone.content().contains(&said::ja(Msg::TookBack)), "{undone}");
    assert_board_is_stored(&bot.store, &ja, &undone, Lang::Ja).await;
    let two = bot.snapshot(&ctx).await;
    assert_eq!((two.1, two.3), (2, 2));
    let moves = bot.store.moves(bot.game(&ctx).await.unwrap().id).await.unwrap();
    assert_eq!(moves[0].notation, "d3", "the first move stays");

    // The stats count both take-backs.
    let stats = bot.standin.interact(fixtures::slash(&ctx, "play", "stats", json!([]))).await;
    assert_eq!(stats.content(), said::stats(USER_ID, results(0, 0, 0, 2), Lang::En));
    let stats_ja = bot.standin.interact(fixtures::slash(&ja, "play", "stats", json!([]))).await;
    assert_eq!(stats_ja.content(), said::stats(USER_ID, results(0, 0, 0, 2), Lang::Ja));
    // Turned off again, the button's board is refused too.
    bot.standin.interact(settings(&ctx, "takeback", on(false), true)).await;
    let late = bot.standin.interact(takeback(&ctx)).await;
    assert_refused(&late, &en(Msg::TakebackOff));
    assert_eq!(bot.snapshot(&ctx).await.1, 2);
    bot.stop().await;
}
