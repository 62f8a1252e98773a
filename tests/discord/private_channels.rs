//! DMs and group DMs (docs/design/private-channels.md): the app installed to a player's account
//! plays where the family already talks. There the bot is not in the channel: every answer goes
//! through the interaction, nothing is posted or edited on the bot's own, and nobody manages
//! the settings. The stand-in refuses what Discord refuses there (`Bot::stop` fails the test on
//! any refused call).

use std::time::Duration;

use serde_json::{json, Value};
use settai::domain::{GameStatus, HouseRule, HouseRules, NewGame, Venue, DEFAULT_IDLE_DAYS};
use settai::i18n::{Lang, Msg};
use settai_core::{Game, GameKind, Level, Side};
use sqlx::PgPool;

use crate::board_pictures::assert_board_is_stored;
use crate::family::waited;
use crate::said::{self, whatever_the_link};
use crate::support::fixtures::{self, Ctx, GROUP_DM_ID, OTHER_USER_ID, USER_ID};
use crate::support::{Exchange, ReplyKind, StandIn};
use crate::{assert_no_hidden_word, assert_refused, open_list, tap_to_the_end, touch_id, touch_taps, Bot, T};

/// `/play <game>` in `ctx`, then the opponent `level` picked from the private menu; returns the
/// exchange of the pick, whose follow-up is the game's first board.
pub(crate) async fn start_with(bot: &Bot, ctx: &Ctx, game: &str, level: Level) -> Exchange {
    let offer = bot.standin.interact(fixtures::slash(ctx, "play", game, json!([]))).await;
    assert!(offer.is_ephemeral() && offer.files().is_empty(), "the starter chooses the opponent first:\n{offer}");
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let menu = bot.standin.message(offer.message_id().unwrap()).unwrap();
    pick(bot, ctx, &picker, &menu, level).await
}

/// `level` picked by `ctx`'s player in the opponent menu `picker` of the offer `menu`; the
/// exchange of the pick, whose follow-up is the game's first board.
async fn pick(bot: &Bot, ctx: &Ctx, picker: &str, menu: &Value, level: Level) -> Exchange {
    let index = Level::for_kind(level.kind()).iter().position(|&l| l == level).unwrap().to_string();
    let pick = fixtures::select_on(ctx, picker, &[index.as_str()], menu);
    bot.standin.interact_until(pick, |x| !x.followups().is_empty()).await
}

/// The opponent every game here is played against: it never needs the table.
const WEAKEST: Level = Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest);

/// The board a pick or a tap showed last, as an exchange whose message is that board.
fn board_of(bot: &Bot, x: &Exchange) -> Value {
    let id = x.followups().last().and_then(|f| f.message_id).or_else(|| x.message_id()).expect("a board");
    bot.standin.message(id).unwrap()
}

/// The first tap a child makes on the board of buttons `board`: the first animal that can move
/// (an update in place lights its squares), or on a reversi board the first number; the
/// exchange of the tap.
async fn choose_first(bot: &Bot, ctx: &Ctx, board: &Value) -> Exchange {
    let first = touch_taps(board, "c").into_iter().map(|o| format!("c.{o}"));
    let tap = first.chain(touch_taps(board, "p").into_iter().map(|m| format!("p.{m}"))).next();
    let tap = tap.unwrap_or_else(|| panic!("nothing to tap:\n{board}"));
    let id = touch_id(board, &tap).unwrap();
    bot.standin.interact(fixtures::button_on(ctx, &id, board)).await
}

/// The first lit square of the board `chosen` left, tapped as `ctx`'s player (a move).
fn first_lit(bot: &Bot, ctx: &Ctx, chosen: &Exchange) -> Value {
    let lit = board_of(bot, chosen);
    let mv = touch_taps(&lit, "p").into_iter().next().unwrap_or_else(|| panic!("nothing lit:\n{lit}"));
    fixtures::button_on(ctx, &touch_id(&lit, &format!("p.{mv}")).unwrap(), &lit)
}

/// Plays the first move of `board` by touch as `ctx`'s player; the exchange of the last tap.
async fn tap_first(bot: &Bot, ctx: &Ctx, board: &Value) -> Exchange {
    // A reversi board: one tap on the first number.
    if let Some(mv) = touch_taps(board, "p").into_iter().next() {
        let id = touch_id(board, &format!("p.{mv}")).unwrap();
        return bot.standin.interact(fixtures::button_on(ctx, &id, board)).await;
    }
    let chosen = choose_first(bot, ctx, board).await;
    bot.standin.interact(first_lit(bot, ctx, &chosen)).await
}

/// No call of the bot's used `channel_id`'s own endpoints (only interactions answered there).
fn never_posted_in(bot: &Bot, channel_id: u64) {
    let posted: Vec<String> = bot
        .standin
        .all_calls()
        .iter()
        .filter(|c| match c.kind {
            ReplyKind::ChannelMessage { channel_id: c } | ReplyKind::EditChannelMessage { channel_id: c, .. } => {
                c == channel_id
            }
            _ => false,
        })
        .map(ToString::to_string)
        .collect();
    assert!(posted.is_empty(), "the bot used the channel's endpoints:\n{}", posted.join("\n"));
}

/// A family in its group DM: grandma installed the app and starts a doubutsu game, choosing the
/// opponent herself; her grandchild (who did not install it, and reads Japanese) plays by
/// tapping the boards, before and after the bot restarts, to the end. Every board is an answer
/// to a tap; nothing is posted to the group on the bot's own.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_family_plays_a_whole_game_in_its_group_dm_by_tapping_across_a_restart(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let grandma = Ctx::en().group_dm(USER_ID);
    let child = Ctx::ja().with_user(OTHER_USER_ID).group_dm(USER_ID);
    let started = start_with(&bot, &grandma, "doubutsu", WEAKEST).await;
    let first = started.followups()[0];
    assert!(first.flags() & 64 == 0 && !first.files.is_empty(), "the board is for the whole group:\n{started}");
    assert_board_is_stored(&bot.store, &grandma, &started, Lang::En).await;
    let game = bot.game(&grandma).await.expect("a game in the group DM");
    assert!(game.private_channel && game.guild_id.is_none() && game.human_id == USER_ID, "{game:?}");
    assert_eq!(game.level, WEAKEST);

    // Anyone in the group moves (team play, with nobody to turn it on).
    let board = board_of(&bot, &started);
    let first_tap = tap_first(&bot, &child, &board).await;
    assert!(!first_tap.is_ephemeral(), "the grandchild's tap is played:\n{first_tap}");
    assert_board_is_stored(&bot.store, &child, &first_tap, Lang::Ja).await;
    assert_eq!(bot.game(&grandma).await.unwrap().ply, 2, "the tap and the bot's answer");

    // Only the one who started may resign (the grandchild has no commands here, only the
    // boards' buttons and the list beside them).
    let list = open_list(&bot, &child, &first_tap).await;
    let resign = format!("rs:ask:{}", game.id);
    assert!(list.custom_ids().contains(&resign), "{list}");
    let panel = bot.standin.message(list.message_id().unwrap()).unwrap();
    let refused = bot.standin.interact(fixtures::button_on(&child, &resign, &panel)).await;
    assert_refused(&refused, &said::ja(Msg::NotYourGame { owner: USER_ID }));

    // The bot restarts between two taps; the game goes on from the same board.
    let bot = bot.restart().await;
    let (last, taps) = tap_to_the_end(&bot, &child, first_tap).await;
    assert!(taps >= 1, "the game went on after the restart");
    assert_board_is_stored(&bot.store, &child, &last, Lang::Ja).await;
    let (_, _, status, _) = bot.snapshot(&grandma).await;
    assert_ne!(status, GameStatus::Active, "the game ended");
    never_posted_in(&bot, GROUP_DM_ID);
    bot.stop().await;
}

/// The bot's own DM with a player who installed the app to their account: a reversi game, the
/// opponent chosen by the player, played by tapping.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_player_plays_in_the_bots_dm_after_installing_it_to_their_account(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let me = Ctx::en().user_dm();
    let standard = Level::Reversi(settai_core::reversi::ReversiLevel::Standard);
    let started = start_with(&bot, &me, "reversi", standard).await;
    let game = bot.game(&me).await.expect("a game in the DM");
    assert!(!game.private_channel && game.guild_id.is_none(), "the bot is in its own DM: {game:?}");
    let board = board_of(&bot, &started);
    let tapped = tap_first(&bot, &me, &board).await;
    assert!(!tapped.is_ephemeral(), "{tapped}");
    assert_board_is_stored(&bot.store, &me, &tapped, Lang::En).await;
    assert_eq!(bot.game(&me).await.unwrap().ply, 2);
    bot.stop().await;
}

/// Where nobody manages the settings, the starter sets the game's own rules in the offer: each
/// toggle answers with the same offer, that rule switched; the game keeps the rules picked, and
/// its boards and take-backs follow them. Take-backs are offered on, and the bot's DM offers
/// the same choice.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_starter_sets_the_games_own_rules_in_the_offer(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let grandma = Ctx::en().group_dm(USER_ID);
    let offer = bot.standin.interact(fixtures::slash(&grandma, "play", "doubutsu", json!([]))).await;
    assert!(offer.is_ephemeral() && offer.content().contains(&Msg::HouseRulesNote.text(Lang::En)), "{offer}");
    let label = |x: &Exchange, id: &str| x.component(id).and_then(|c| c["label"].as_str().map(str::to_string));
    let toggle = |rule, on| Some(Msg::HouseRuleToggle { rule, on }.text(Lang::En));
    assert!(offer.custom_ids().contains(&"op:doubutsu:0:10".to_string()), "{offer}");
    assert_eq!(label(&offer, "hr:t:doubutsu:0:10"), toggle(HouseRule::Takeback, true));
    assert_eq!(label(&offer, "hr:c:doubutsu:0:10"), toggle(HouseRule::Commentary, false));
    // With the commentary off, nothing in the offer gives a level away.
    let labels: Vec<String> = offer.component_list().iter().map(|c| c.to_string()).collect();
    assert_no_hidden_word("the offer with its rules", &format!("{}\n{}", offer.content(), labels.join("\n")));

    // Take-backs off: the same private message, updated.
    let message = offer.message_id().unwrap();
    let before = bot.standin.message(message).unwrap();
    let toggled = bot.standin.interact(fixtures::button_on(&grandma, "hr:t:doubutsu:0:10", &before)).await;
    assert_eq!(toggled.callback_type(), Some(7), "{toggled}");
    assert!(toggled.custom_ids().contains(&"op:doubutsu:0:00".to_string()), "{toggled}");
    assert_eq!(label(&toggled, "hr:t:doubutsu:0:00"), toggle(HouseRule::Takeback, false));
    let after = bot.standin.message(message).unwrap();
    assert!(after["flags"].as_u64().unwrap_or(0) & 64 != 0, "the offer stays private: {after}");

    let started = pick(&bot, &grandma, "op:doubutsu:0:00", &after, WEAKEST).await;
    let game = bot.game(&grandma).await.expect("a game");
    assert_eq!(game.house_rules, Some(HouseRules { takeback: false, commentary: false }));
    let board = board_of(&bot, &started);
    let tapped = tap_first(&bot, &grandma, &board).await;
    assert!(!tapped.custom_ids().iter().any(|id| id.starts_with("tb:")), "no ↩ on the boards:\n{tapped}");
    let refused = bot.standin.interact(fixtures::slash(&grandma, "play", "takeback", json!([]))).await;
    assert_refused(&refused, &Msg::TakebackOff.text(Lang::En));
    for text in [Msg::BoardWasOld, Msg::ClosedIdle, Msg::NotAddedHere, Msg::HouseRulesNote, Msg::NoManagers] {
        for lang in [Lang::En, Lang::Ja] {
            assert_no_hidden_word("a private channel's words", &text.text(lang));
        }
    }

    // In the bot's DM the rules as offered: take-backs on, and the ↩ under the board.
    let me = Ctx::en().user_dm();
    let started = start_with(&bot, &me, "doubutsu", WEAKEST).await;
    assert_eq!(bot.game(&me).await.unwrap().house_rules, Some(HouseRules::OFFERED));
    let tapped = tap_first(&bot, &me, &board_of(&bot, &started)).await;
    // Two plies from the start nobody can have won.
    assert!(tapped.custom_ids().iter().any(|id| id.starts_with("tb:")), "the ↩ under the board:\n{tapped}");
    bot.stop().await;
}

/// `/play help` where nobody manages the settings also tells how games go there: who chooses,
/// who is reminded and where, and the close of an idle game, in the player's language.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn help_in_a_private_conversation_tells_how_games_go_there(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    for (ctx, venue, lang) in [
        (Ctx::en().group_dm(USER_ID), Venue::PrivateChannel, Lang::En),
        (Ctx::ja().group_dm(USER_ID), Venue::PrivateChannel, Lang::Ja),
        (Ctx::en().user_dm(), Venue::BotDm, Lang::En),
    ] {
        let told = bot.standin.interact(fixtures::slash(&ctx, "play", "help", json!([]))).await;
        let help = Msg::Help { commentary: false, venue, idle_days: DEFAULT_IDLE_DAYS };
        assert_eq!(told.content(), help.text(lang), "{ctx:?}");
        let server = Msg::Help { commentary: false, venue: Venue::Server, idle_days: DEFAULT_IDLE_DAYS }.text(lang);
        assert!(told.content().starts_with(&server) && told.content().len() > server.len(), "{ctx:?}");
        assert!(told.content().contains("/play remind off") && told.content().chars().count() < 2000);
        assert!(told.content().contains(&DEFAULT_IDLE_DAYS.to_string()));
        assert_no_hidden_word("/play help in a private conversation", &told.content());
    }
    bot.stop().await;
}

/// The bot's answer to a tap comes after the token's 15 minutes (its work outlasted them):
/// Discord refuses it (50027), but the move and the bot's reply are stored, and the next tap on
/// a board, even the old one, shows the game as it is now. An answer within the window is an
/// ordinary one.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_late_answer_is_lost_but_the_next_tap_shows_the_game(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let grandma = Ctx::en().group_dm(USER_ID);
    let child = Ctx::ja().with_user(OTHER_USER_ID).group_dm(USER_ID);
    let started = start_with(&bot, &grandma, "doubutsu", WEAKEST).await;
    let board = board_of(&bot, &started);

    // 14 minutes after the tap the answer still arrives.
    let chosen = choose_first(&bot, &child, &board).await;
    bot.standin.age_after_next_answer(Duration::from_secs(14 * 60));
    let in_time = bot.standin.interact(first_lit(&bot, &child, &chosen)).await;
    assert_eq!(in_time.callback_type(), Some(7), "the board froze with the move:\n{in_time}");
    assert_board_is_stored(&bot.store, &child, &in_time, Lang::Ja).await;
    assert_eq!(bot.game(&grandma).await.unwrap().ply, 2);

    // 15 minutes: refused, with nothing lost.
    let board = board_of(&bot, &in_time);
    let chosen = choose_first(&bot, &child, &board).await;
    bot.standin.age_after_next_answer(Duration::from_secs(15 * 60));
    let late = bot.standin.try_interact(first_lit(&bot, &child, &chosen)).await.unwrap();
    let refused: Vec<String> = late.refused().iter().map(|c| c.to_string()).collect();
    assert!(!refused.is_empty() && refused.iter().all(|c| c.contains("50027")), "{late}");
    let deadline = tokio::time::Instant::now() + T;
    while bot.game(&grandma).await.unwrap().ply < 4 {
        assert!(tokio::time::Instant::now() < deadline, "the tap and the bot's reply are stored");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // The same board tapped again (as the screen still shows it): the game as it is now, for
    // the tapper, without a word.
    let again = choose_first(&bot, &child, &board).await;
    crate::assert_the_game_now(&again);
    assert_board_is_stored(&bot.store, &child, &again, Lang::Ja).await;
    assert_eq!(bot.game(&grandma).await.unwrap().ply, 4, "nothing played twice");
    let shown = board_of(&bot, &again);
    let next = tap_first(&bot, &child, &shown).await;
    assert_board_is_stored(&bot.store, &child, &next, Lang::Ja).await;

    // Only the late answer was refused.
    bot.shards.shutdown_all().await;
    let refused: Vec<String> = bot.standin.all_calls().iter().filter(|c| !c.ok()).map(|c| c.to_string()).collect();
    assert!(refused.iter().all(|c| c.contains("50027")), "{}", refused.join("\n"));
}

/// A player's own install used in a server the app was not added to: the bot is not there, so
/// it says so and what to do instead, and keeps nothing.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_server_without_the_app_is_told_so_and_nothing_is_kept(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    for (ctx, lang) in [(Ctx::en().server_without_app(), Lang::En), (Ctx::ja().server_without_app(), Lang::Ja)] {
        for (command, sub) in [("play", "doubutsu"), ("play", "board"), ("settings", "show")] {
            let answer = bot.standin.interact(fixtures::slash(&ctx, command, sub, json!([]))).await;
            assert_refused(&answer, &Msg::NotAddedHere.text(lang));
        }
        assert!(bot.game(&ctx).await.is_none());
    }
    bot.stop().await;
}

/// `/settings` where nobody manages anything says so, and what happens there instead, in the
/// player's language; nothing is stored.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn settings_in_a_private_conversation_explain_that_it_has_no_managers(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    for (ctx, lang) in
        [(Ctx::en().group_dm(USER_ID), Lang::En), (Ctx::ja().user_dm(), Lang::Ja), (Ctx::en().dm(), Lang::En)]
    {
        for (sub, options) in [("show", json!([])), ("team", json!([{ "name": "on", "type": 5, "value": false }]))] {
            // No member, no permissions: a DM has neither.
            let answer = bot.standin.interact(fixtures::slash(&ctx, "settings", sub, options)).await;
            assert!(answer.is_ephemeral(), "{answer}");
            assert_eq!(answer.content(), Msg::NoManagers.text(lang), "{ctx:?} /settings {sub}");
        }
    }
    let stored: i64 =
        sqlx::query_scalar("SELECT count(*) FROM channel_settings").fetch_one(bot.store.pool()).await.unwrap();
    assert_eq!(stored, 0);
    bot.stop().await;
}

/// What the bot does on its own for a game of a group DM: a turn left owed by a stopped process
/// is played when the bot connects, without posting; an idle game is closed silently, and
/// whoever plays there next is told why; a reminder goes to the player's DM with the bot,
/// linking to the board in the group.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_bot_never_posts_in_a_group_dm_on_its_own(pool: PgPool) {
    let store = settai::store::Store::from_pool(pool.clone());
    let grandma = Ctx::en().group_dm(USER_ID);
    // A game where the bot moves first, left owed (as if the process stopped at once).
    let owed = store
        .create_game(&NewGame {
            guild_id: None,
            channel_id: grandma.channel_id,
            parent_id: None,
            human_id: USER_ID,
            human_name: "Grandma".into(),
            human_side: Side::Second,
            level: Level::Reversi(settai_core::reversi::ReversiLevel::Standard),
            game: Game::new(GameKind::Reversi),
            private_channel: true,
            house_rules: None,
        })
        .await
        .unwrap();
    let bot = Bot::builder(pool).start().await;
    let deadline = tokio::time::Instant::now() + T;
    while bot.store.game(owed.id).await.unwrap().unwrap().ply == 0 {
        assert!(tokio::time::Instant::now() < deadline, "the owed turn was never played");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The next board asked for shows the bot's move.
    let board = bot.standin.interact(fixtures::slash(&grandma, "play", "board", json!([]))).await;
    assert!(!board.is_ephemeral(), "{board}");
    assert_board_is_stored(&bot.store, &grandma, &board, Lang::En).await;

    // A day later grandma is reminded in her DM with the bot.
    let since = bot.standin.cursor();
    waited(&bot, &[(&grandma, 25.0)]).await;
    let dm = StandIn::dm_channel_of(USER_ID);
    let reminder = whatever_the_link(|link| Msg::Reminder { human: USER_ID, kind: GameKind::Reversi, link }, Lang::En);
    let reminded = bot
        .standin
        .wait_call(since, T, |c| {
            c.ok()
                && c.kind == ReplyKind::ChannelMessage { channel_id: dm }
                && c.content().is_some_and(|t| t.contains(&reminder))
        })
        .await;
    // To the board, or to the group when its board is not yet remembered.
    let link = format!("https://discord.com/channels/@me/{GROUP_DM_ID}");
    assert!(reminded.content().unwrap().contains(&link), "the reminder links to the group: {reminded}");

    // Two weeks later the game is closed, and nothing is posted to the group.
    waited(&bot, &[(&grandma, 24.0 * 15.0)]).await;
    let deadline = tokio::time::Instant::now() + T;
    while bot.game(&grandma).await.is_some() {
        assert!(tokio::time::Instant::now() < deadline, "the idle game was never closed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Whoever plays there next is told why the game is gone: a tap on the old board, a command.
    let child = Ctx::ja().with_user(OTHER_USER_ID).group_dm(USER_ID);
    // A child's tap gets the game box, privately: pictures to start again, no sentence.
    let tapped = choose_first(&bot, &child, &board_of(&bot, &board)).await;
    assert!(tapped.is_ephemeral() && tapped.content() == "🎲", "{tapped}");
    assert!(tapped.custom_ids().iter().any(|id| id.starts_with("gb:")), "{tapped}");
    let asked = bot.standin.interact(fixtures::slash(&grandma, "play", "board", json!([]))).await;
    assert_refused(&asked, &Msg::ClosedIdle.text(Lang::En));
    never_posted_in(&bot, GROUP_DM_ID);
    bot.stop().await;
}

/// The stand-in refuses what Discord refuses an app installed to a user: posting in a group DM
/// it is not in (50001), a follow-up after the token's 15 minutes (50027), a sixth follow-up
/// (40094), and a DM to someone who never installed the app nor shares a server with it (50007).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_stand_in_refuses_what_discord_refuses_in_private_channels(pool: PgPool) {
    use serenity::all::{ChannelId, CreateInteractionResponseFollowup, CreateMessage, UserId};
    let bot = Bot::builder(pool).start().await;
    let http = bot.standin.http();
    http.set_application_id(serenity::all::ApplicationId::new(StandIn::APP_ID));
    let grandma = Ctx::en().group_dm(USER_ID);
    // An interaction from the group makes the group known; its answer is an ordinary one.
    let help = bot.standin.interact(fixtures::slash(&grandma, "play", "help", json!([]))).await;
    let code = |e: serenity::Error| match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => r.error.code,
        other => panic!("not a refusal: {other}"),
    };
    let post = ChannelId::new(GROUP_DM_ID).send_message(&http, CreateMessage::new().content("hi")).await;
    assert_eq!(code(post.unwrap_err()), 50001);
    let follow_up = || CreateInteractionResponseFollowup::new().content("more").ephemeral(true);
    for _ in 0..5 {
        http.create_followup_message(&help.token, &follow_up(), vec![]).await.unwrap();
    }
    let sixth = http.create_followup_message(&help.token, &follow_up(), vec![]).await;
    assert_eq!(code(sixth.unwrap_err()), 40094);
    let late = bot.standin.interact(fixtures::slash(&grandma, "play", "help", json!([]))).await;
    bot.standin.advance_clock(Duration::from_secs(15 * 60));
    let expired = http.create_followup_message(&late.token, &follow_up(), vec![]).await;
    assert_eq!(code(expired.unwrap_err()), 50027);
    let stranger = UserId::new(OTHER_USER_ID).create_dm_channel(&http).await.unwrap();
    let to_stranger = stranger.id.send_message(&http, CreateMessage::new().content("hi")).await;
    assert_eq!(code(to_stranger.unwrap_err()), 50007);
    // Grandma installed the app: she may be written to.
    let to_grandma = UserId::new(USER_ID).create_dm_channel(&http).await.unwrap();
    to_grandma.id.send_message(&http, CreateMessage::new().content("hi")).await.unwrap();
    // These refusals were the test's own calls, not the bot's: the bot's made none.
    bot.shards.shutdown_all().await;
    let codes: Vec<String> = bot.standin.refused().iter().filter_map(|c| c.error.clone()).collect();
    let codes: Vec<&str> = codes.iter().map(|e| e.split(' ').next().unwrap_or_default()).collect();
    assert_eq!(codes, ["50001", "40094", "50027", "50007"], "{:?}", bot.standin.refused());
}
