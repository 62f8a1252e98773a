//! DMs and group DMs (docs/design/private-channels.md): the app installed to a player's account
//! plays where the family already talks. There the bot is not in the channel: every answer goes
//! through the interaction, nothing is posted or edited on the bot's own, and nobody manages
//! the settings. The stand-in refuses what Discord refuses there (`Bot::stop` fails the test on
//! any refused call).

use std::time::Duration;

use serde_json::{json, Value};
use settai::domain::{GameStatus, NewGame};
use settai::i18n::{Lang, Msg};
use settai_core::{Game, GameKind, Level, Side};
use sqlx::PgPool;

use crate::family::waited;
use crate::said::{self, whatever_the_link};
use crate::support::fixtures::{self, Ctx, GROUP_DM_ID, OTHER_USER_ID, USER_ID};
use crate::support::{Exchange, ReplyKind, StandIn};
use crate::{assert_refused, move_menu, tap_to_the_end, Bot, T};

/// `/play <game>` in `ctx`, then the opponent `level` picked from the private menu; returns the
/// exchange of the pick, whose follow-up is the game's first board.
pub(crate) async fn start_with(bot: &Bot, ctx: &Ctx, game: &str, level: Level) -> Exchange {
    let offer = bot.standin.interact(fixtures::slash(ctx, "play", game, json!([]))).await;
    assert!(offer.is_ephemeral() && offer.files().is_empty(), "the starter chooses the opponent first:\n{offer}");
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let index = Level::for_kind(level.kind()).iter().position(|&l| l == level).unwrap().to_string();
    let menu = bot.standin.message(offer.message_id().unwrap()).unwrap();
    let pick = fixtures::select_on(ctx, &picker, &[index.as_str()], &menu);
    bot.standin.interact_until(pick, |x| !x.followups().is_empty()).await
}

/// The board a pick or a tap showed last, as an exchange whose message is that board.
fn board_of(bot: &Bot, x: &Exchange) -> Value {
    let id = x.followups().last().and_then(|f| f.message_id).or_else(|| x.message_id()).expect("a board");
    bot.standin.message(id).unwrap()
}

/// Taps the first move of `board` as `ctx`'s player; the exchange of the tap.
async fn tap_first(bot: &Bot, ctx: &Ctx, board: &Value, shown: &Exchange) -> Exchange {
    let (menu, values) = move_menu(shown);
    bot.standin.interact(fixtures::select_on(ctx, &menu, &[&values[0]], board)).await
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
    let weakest = Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest);
    let started = start_with(&bot, &grandma, "doubutsu", weakest).await;
    let first = started.followups()[0];
    assert!(first.flags() & 64 == 0 && !first.files.is_empty(), "the board is for the whole group:\n{started}");
    let game = bot.game(&grandma).await.expect("a game in the group DM");
    assert!(game.private_channel && game.guild_id.is_none() && game.human_id == USER_ID, "{game:?}");
    assert_eq!(game.level, weakest);

    // Anyone in the group moves (team play, with nobody to turn it on).
    let board = board_of(&bot, &started);
    let first_tap = tap_first(&bot, &child, &board, &started).await;
    assert!(!first_tap.is_ephemeral(), "the grandchild's tap is played:\n{first_tap}");
    assert_eq!(bot.game(&grandma).await.unwrap().ply, 2, "the tap and the bot's answer");

    // Only the one who started may resign (the grandchild has no commands here, only the
    // boards' buttons).
    let board = board_of(&bot, &first_tap);
    let resign = format!("rs:ask:{}", game.id);
    assert!(first_tap.custom_ids().contains(&resign), "{first_tap}");
    let refused = bot.standin.interact(fixtures::button_on(&child, &resign, &board)).await;
    assert_refused(&refused, &said::ja(Msg::NotYourGame { owner: USER_ID }));

    // The bot restarts between two taps; the game goes on from the same board.
    let bot = bot.restart().await;
    let (last, taps) = tap_to_the_end(&bot, &child, first_tap).await;
    assert!(taps >= 1, "the game went on after the restart");
    assert!(last.file(".png").is_some(), "the last board is shown:\n{last}");
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
    let tapped = tap_first(&bot, &me, &board, &started).await;
    assert!(!tapped.is_ephemeral() && tapped.file(".png").is_some(), "{tapped}");
    assert_eq!(bot.game(&me).await.unwrap().ply, 2);
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
/// is played when the bot connects, without posting; an idle game is closed silently; a
/// reminder goes to the player's DM with the bot, linking to the board in the group.
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
    assert!(!board.is_ephemeral() && board.file(".png").is_some(), "{board}");

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
    // These refusals were the test's own calls, not the bot's.
    bot.shards.shutdown_all().await;
}
