//! Discord failing the bot's calls (docs/design/bot-reliability.md#when-discord-fails): a 5xx
//! with and without `Retry-After`, a connection cut, an answer that never comes, and a call
//! applied but never answered, injected on one call of a route, on the paths a family meets: a
//! move's board, a tap's first answer, a reminder, the final board, registration at start,
//! an old board's menu taken off.
//! Nothing is lost, nothing is shown twice, no game is held, and a later tap goes on.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use settai::i18n::{Lang, Msg};
use settai::metrics::Metrics;
use settai_core::reversi::ReversiLevel;
use settai_core::{Game, GameKind, Level, Side};
use sqlx::PgPool;

use crate::family::waited;
use crate::said::whatever_the_link;
use crate::support::discord::{Calls, FaultKind};
use crate::support::fixtures::{self, touch_id, touch_taps, Ctx};
use crate::support::{Reply, ReplyKind, StandIn};
use crate::{play_reversi, shown_board, Bot, T};

/// Discord's window for a tap's first answer, as the bot keeps it, and the slack a busy test
/// machine is given on top.
const WINDOW: Duration = Duration::from_secs(3);
const SLACK: Duration = Duration::from_secs(2);

/// The payload of a tap on the first numbered square of `board`, and its token.
pub(crate) fn tap_first(ctx: &Ctx, board: &Value) -> (Value, String) {
    let mv = touch_taps(board, "p").first().cloned().unwrap_or_else(|| panic!("no move:\n{board}"));
    let tap = fixtures::button_on(ctx, &touch_id(board, &format!("p.{mv}")).unwrap(), board);
    let token = tap["token"].as_str().unwrap().to_string();
    (tap, token)
}

/// An edit of the tap's original message carrying a picture: the tapped board made the new one.
fn board_edit(c: &Reply) -> bool {
    c.ok() && c.kind == ReplyKind::EditOriginal && !c.files.is_empty()
}

/// Whether every button of `message` can be tapped.
fn live(message: &Value) -> bool {
    let buttons = fixtures::buttons_of(message);
    !buttons.is_empty() && buttons.iter().all(|b| b["disabled"].as_bool() != Some(true))
}

/// A move's board whose post fails in a way that leaves its fate unknown (a 5xx, with and
/// without `Retry-After`, a cut connection, an answer that never comes after the post was
/// made): the post is not sent again (it could show the board twice); the board tapped becomes
/// the new board instead, live, and the game goes on from it. Where Discord did post it, that
/// board shows the same position: never two moves, never an old board left live.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_board_whose_post_fails_becomes_the_board_tapped(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let kinds = [
        FaultKind::Status { status: 503, retry_after: None },
        FaultKind::Status { status: 502, retry_after: Some(1) },
        FaultKind::Reset,
        FaultKind::AppliedHang,
    ];
    for (n, kind) in kinds.into_iter().enumerate() {
        let ctx = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + n as u64);
        let started = bot.standin.interact(play_reversi(&ctx)).await;
        let board = shown_board(&bot, &started);
        let board_id = started.message_id().unwrap();
        let (tap, token) = tap_first(&ctx, &board);
        let faults = bot.standin.injected_faults().len();
        bot.standin.inject_fault("POST", &format!("/{token}"), kind, Calls::Nth(1));
        let tapped = bot.standin.interact_until(tap, |x| x.calls.iter().any(board_edit)).await;

        let met = bot.standin.injected_faults();
        assert_eq!(met.len(), faults + 1, "{kind:?}: the post was not sent again:\n{met:?}");
        assert_eq!(bot.snapshot(&ctx).await.3, 2, "{kind:?}: the tap and the bot's answer, once");
        let now = bot.standin.message(board_id).unwrap();
        assert!(live(&now), "{kind:?}: the board tapped is the new one, live:\n{now}");
        assert_eq!(bot.game(&ctx).await.unwrap().board_message_id, Some(board_id), "{kind:?}: remembered");
        let posted = tapped.followups();
        match kind {
            FaultKind::AppliedHang => {
                assert_eq!(posted.len(), 1, "Discord made the post:\n{tapped}");
                let twin = bot.standin.message(posted[0].message_id.unwrap()).unwrap();
                assert_eq!(twin["components"], now["components"], "the same position, the same buttons");
            }
            _ => assert!(posted.is_empty(), "{kind:?}:\n{tapped}"),
        }
        // The game goes on from the board tapped.
        let (again, _) = tap_first(&ctx, &now);
        let next = bot.standin.interact_until(again, |x| x.followups().iter().any(|c| !c.files.is_empty())).await;
        assert_eq!(bot.snapshot(&ctx).await.3, 4, "{kind:?}:\n{next}");
    }
    bot.stop().await;
}

/// A tap's first answer (its board frozen) that never comes back, sent or not: the game is not
/// held past Discord's window for a first answer. The tap plays nothing; where Discord froze
/// the board anyway it comes back live; and a second tap on it plays, once.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_first_answer_that_never_comes_holds_the_game_no_longer_than_discords_window(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    for (n, kind) in [FaultKind::Hang, FaultKind::AppliedHang].into_iter().enumerate() {
        let ctx = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + n as u64);
        let started = bot.standin.interact(play_reversi(&ctx)).await;
        let board_id = started.message_id().unwrap();
        let (tap, token) = tap_first(&ctx, &shown_board(&bot, &started));
        bot.standin.inject_fault("POST", &format!("/{token}/callback"), kind, Calls::Nth(1));
        let since = bot.standin.cursor();
        bot.standin.send_interaction(tap).await;
        // The bot gives the tap up and puts the board back as it was (a probe Discord refuses
        // where nothing was frozen).
        let back = bot
            .standin
            .wait_call(since, T, |c| c.token.as_deref() == Some(&token) && c.kind == ReplyKind::EditOriginal)
            .await;
        assert!(back.after <= WINDOW + SLACK, "{kind:?}: the game was held {:?}", back.after);
        match kind {
            FaultKind::AppliedHang => assert!(back.ok(), "{back}"),
            _ => assert!(back.error.as_deref().is_some_and(|e| e.starts_with("10015")), "{back}"),
        }
        assert_eq!(bot.snapshot(&ctx).await.3, 0, "{kind:?}: the tap played nothing");
        let now = bot.standin.message(board_id).unwrap();
        assert!(live(&now), "{kind:?}: the board is live:\n{now}");
        let (again, _) = tap_first(&ctx, &now);
        let played = bot.standin.interact_until(again, |x| x.followups().iter().any(|c| !c.files.is_empty())).await;
        assert_eq!(played.followups().iter().filter(|c| !c.files.is_empty()).count(), 1, "{played}");
        assert_eq!(bot.snapshot(&ctx).await.3, 2, "{kind:?}");
    }
    // The only refusal: the probe of the board never frozen.
    bot.stop_expecting(|c| {
        c.kind == ReplyKind::EditOriginal && c.error.as_deref().is_some_and(|e| e.starts_with("10015"))
    })
    .await;
}

/// What a reminder to `ctx`'s player of their reversi game says, whatever its board.
fn reminder(ctx: &Ctx) -> String {
    whatever_the_link(|link| Msg::Reminder { human: ctx.user_id, kind: GameKind::Reversi, link }, Lang::En)
}

/// A reminder whose post fails (a 5xx, a cut connection, or made and never answered) is posted
/// again with the same nonce: the channel gets it once.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reminder_whose_post_fails_is_posted_once(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let kinds = [FaultKind::Status { status: 500, retry_after: None }, FaultKind::Reset, FaultKind::AppliedHang];
    let channels: Vec<Ctx> =
        (0..kinds.len()).map(|n| Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + n as u64)).collect();
    for (ctx, kind) in channels.iter().zip(kinds) {
        bot.standin.interact(play_reversi(ctx)).await;
        bot.standin.inject_fault("POST", &format!("/channels/{}/messages", ctx.channel_id), kind, Calls::Nth(1));
    }
    let since = bot.standin.cursor();
    waited(&bot, &channels.iter().map(|c| (c, 25.0)).collect::<Vec<_>>()).await;
    for (ctx, kind) in channels.iter().zip(kinds) {
        let channel_id = ctx.channel_id;
        let posted = bot.standin.wait_call(since, T, |c| c.kind == ReplyKind::ChannelMessage { channel_id }).await;
        assert!(posted.ok(), "{kind:?}: {posted}");
        let met = bot.standin.wait_injected_faults(kinds.len(), T).await;
        assert!(met.iter().any(|f| f.path.ends_with(&format!("/channels/{channel_id}/messages"))), "{met:?}");
    }
    // The post made and never answered is posted again past its deadline, with the same nonce:
    // Discord answers with the message made the first time.
    let channel_id = channels[2].channel_id;
    let to_it = |c: &Reply| c.kind == ReplyKind::ChannelMessage { channel_id };
    let first = bot.standin.wait_call(since, T, to_it).await;
    let again = bot.standin.wait_call(first.seq + 1, T, to_it).await;
    assert!(again.ok() && again.message_id == first.message_id, "{first}\n{again}");
    for ctx in &channels {
        let reminders = |m: &Value| m["content"].as_str().is_some_and(|t| t.contains(&reminder(ctx)));
        let in_channel = bot.standin.messages_in(ctx.channel_id).iter().filter(|m| reminders(m)).count();
        assert_eq!(in_channel, 1, "one reminder in {}", ctx.channel_id);
    }
    bot.stop().await;
}

/// Registration at start meets an outage: the emoji list and the command overwrite each fail
/// once (a 503, a cut connection), an emoji's upload is made and never answered. Each is tried
/// again (the upload only after the list shows it is not there): every tile is uploaded once,
/// and the commands registered.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn registration_survives_an_outage_at_start(pool: PgPool) {
    let emojis = format!("/applications/{}/emojis", StandIn::APP_ID);
    let bot = Bot::builder(pool)
        .fault("GET", &emojis, FaultKind::Status { status: 503, retry_after: None }, Calls::Nth(1))
        .fault("POST", &emojis, FaultKind::AppliedHang, Calls::Nth(2))
        .fault("PUT", "/commands", FaultKind::Reset, Calls::Nth(1))
        .start()
        .await;
    let tiles = settai::render::doubutsu::TileEmoji::all().len();
    let uploaded = bot.standin.wait_application_emojis(tiles, T).await;
    // A second create of a name would be refused (the stop's check): each tile was made once.
    assert_eq!(uploaded.len(), tiles);
    assert_eq!(bot.standin.registered_commands().await.len(), 2);
    assert_eq!(bot.standin.injected_faults().len(), 3);
    bot.stop().await;
}

/// The reminder of a group DM's game goes to the player's DM with the bot: opening that DM
/// meets a 502 and the post a cut connection, each once. Both are tried again (opening a DM
/// returns the one already open; the post carries its nonce), and the player is reminded once.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reminder_to_a_dm_rides_out_an_outage(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let grandma = Ctx::en().group_dm(fixtures::USER_ID);
    let game = Game::new(GameKind::Reversi);
    let stored = crate::game_in(&bot.store, &grandma, Side::First, Level::Reversi(ReversiLevel::Standard), game).await;
    sqlx::query("UPDATE games SET private_channel = TRUE, guild_id = NULL WHERE id = $1")
        .bind(stored.id)
        .execute(bot.store.pool())
        .await
        .unwrap();
    // Grandma has used the app (Discord lets the bot reach her DM only then).
    let shown = bot.standin.interact(fixtures::slash(&grandma, "play", "board", serde_json::json!([]))).await;
    assert!(!shown.is_ephemeral(), "{shown}");
    let dm = StandIn::dm_channel_of(fixtures::USER_ID);
    bot.standin.inject_fault(
        "POST",
        "/users/@me/channels",
        FaultKind::Status { status: 502, retry_after: None },
        Calls::Nth(1),
    );
    bot.standin.inject_fault("POST", &format!("/channels/{dm}/messages"), FaultKind::Reset, Calls::Nth(1));
    let since = bot.standin.cursor();
    waited(&bot, &[(&grandma, 25.0)]).await;
    let to_dm = |c: &Reply| c.ok() && c.kind == ReplyKind::ChannelMessage { channel_id: dm };
    let reminded = bot.standin.wait_call(since, T, to_dm).await;
    assert!(reminded.content().is_some_and(|t| t.contains(&reminder(&grandma))), "{reminded}");
    let met = bot.standin.wait_injected_faults(2, T).await;
    assert_eq!(met.len(), 2, "{met:?}");
    let reminders = bot
        .standin
        .messages_in(dm)
        .iter()
        .filter(|m| m["content"].as_str().is_some_and(|t| t.contains(&reminder(&grandma))))
        .count();
    assert_eq!(reminders, 1);
    bot.stop().await;
}

/// A board shown afresh (`/play board`) takes the menu off the game's old board; where that edit
/// meets an outage it is tried again, so that no old board is left offering moves.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn an_old_boards_menu_comes_off_through_an_outage(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let started = bot.standin.interact(play_reversi(&ctx)).await;
    let old = started.message_id().unwrap();
    crate::family::board_remembered(&bot, &ctx, old).await;
    let old_board = format!("/channels/{}/messages/{old}", ctx.channel_id);
    bot.standin.inject_fault("PATCH", &old_board, FaultKind::Status { status: 502, retry_after: None }, Calls::Nth(1));
    let since = bot.standin.cursor();
    let shown = bot.standin.interact(fixtures::slash(&ctx, "play", "board", serde_json::json!([]))).await;
    assert!(!shown.is_ephemeral() && shown.message_id() != Some(old), "{shown}");
    let stripped = ReplyKind::EditChannelMessage { channel_id: ctx.channel_id, message_id: old };
    bot.standin.wait_call(since, T, |c| c.ok() && c.kind == stripped).await;
    assert_eq!(bot.standin.wait_injected_faults(1, T).await.len(), 1);
    assert_eq!(bot.standin.repeated_calls(), 1, "the edit, tried again once");
    assert!(fixtures::buttons_of(&bot.standin.message(old).unwrap()).is_empty(), "the old board offers nothing");
    assert!(live(&bot.standin.message(shown.message_id().unwrap()).unwrap()), "the new board offers the moves");
    bot.stop().await;
}

/// How many moves the bot has counted as handled, whatever their outcome.
fn moves_handled(metrics: &Metrics) -> f64 {
    let scrape = metrics.encode().expect("the figures");
    scrape
        .lines()
        .filter(|l| l.starts_with(r#"settai_interactions_total{kind="move""#))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// An edit that makes the tapped board the new one (its post failed), which Discord applies and
/// never answers: the child taps the board it shows at once and plays on, and the next board
/// takes its menu off. That edit is not sent again when its deadline passes: a copy landing then
/// would bring the first moves back on a board nobody can play from.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn an_edit_that_offers_moves_is_not_sent_again_once_it_may_have_shown(pool: PgPool) {
    let metrics = Arc::new(Metrics::new());
    let bot = Bot::builder(pool).metrics(metrics.clone()).start().await;
    let ctx = Ctx::en();
    let started = bot.standin.interact(play_reversi(&ctx)).await;
    let board_id = started.message_id().unwrap();
    let (tap, token) = tap_first(&ctx, &shown_board(&bot, &started));
    bot.standin.inject_fault(
        "POST",
        &format!("/{token}"),
        FaultKind::Status { status: 503, retry_after: None },
        Calls::Nth(1),
    );
    bot.standin.inject_fault("PATCH", &format!("/{token}/messages/@original"), FaultKind::AppliedHang, Calls::Nth(1));
    bot.standin.interact_until(tap, |x| x.calls.iter().any(board_edit)).await;
    let shown = bot.standin.message(board_id).unwrap();
    assert!(live(&shown), "the board tapped shows the new position:\n{shown}");

    // The child taps it at once; the next board is posted and this one loses its menu.
    let (again, _) = tap_first(&ctx, &shown);
    bot.standin
        .interact_until(again, |x| {
            x.followups().iter().any(|c| !c.files.is_empty())
                && x.calls.iter().any(|c| c.ok() && c.kind == ReplyKind::EditOriginal && c.components() == Some(vec![]))
        })
        .await;
    assert_eq!(bot.snapshot(&ctx).await.3, 4);
    // The first tap ends once its edit's deadline has passed.
    let deadline = tokio::time::Instant::now() + T;
    while moves_handled(&metrics) < 2.0 {
        assert!(tokio::time::Instant::now() < deadline, "the first tap never ended");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(bot.standin.injected_faults().len(), 2);
    let old = bot.standin.message(board_id).unwrap();
    assert!(fixtures::buttons_of(&old).is_empty(), "the first board offers nothing:\n{old}");
    assert_eq!(bot.standin.repeated_calls(), 0, "the edit of unknown fate, not sent again");
    bot.stop().await;
}

/// A command answered privately after a public "thinking…" (the request waited past the
/// acknowledgement deadline): the "thinking…" is deleted first, and that deletion is applied
/// but never answered. Tried again, Discord says the message is unknown (10008): the first try
/// deleted it, and the private answer still comes.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_thinking_message_deleted_without_an_answer_is_gone_and_the_answer_comes(pool: PgPool) {
    let bot = Bot::builder(pool.clone()).start().await;
    let ctx = Ctx::en();
    let command = crate::play_move(&ctx, "f5");
    let token = fixtures::token(&command);
    bot.standin.inject_fault("DELETE", &format!("/{token}/messages/@original"), FaultKind::AppliedHang, Calls::Nth(1));
    // Another client holds the settings tables until the command is acknowledged: only the
    // deadline can have acknowledged it, with a public "thinking…".
    let mut blocker = pool.begin().await.unwrap();
    sqlx::query("LOCK TABLE guild_settings, channel_settings IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *blocker)
        .await
        .unwrap();
    let since = bot.standin.cursor();
    let release = async {
        let acknowledged =
            |c: &Reply| c.token.as_deref() == Some(token.as_str()) && matches!(c.kind, ReplyKind::Callback { .. });
        bot.standin.wait_call(since, T, acknowledged).await;
        blocker.rollback().await.unwrap();
    };
    let ((), ()) = tokio::join!(bot.standin.send_interaction(command), release);
    // The refused second try ends the exchange as a test reads it; the answer comes after it.
    let answered = |c: &Reply| c.ok() && c.token.as_deref() == Some(token.as_str()) && c.kind == ReplyKind::Followup;
    bot.standin.wait_call(since, T, answered).await;
    let refused = bot.standin.exchange(&token);
    assert_eq!(refused.calls.iter().find(|c| c.ok()).map(|c| c.kind.clone()), Some(ReplyKind::Callback { type_: 5 }));
    assert!(refused.is_ephemeral() && refused.content().contains(&crate::said::en(Msg::NoGame)), "{refused}");
    assert!(bot.standin.original_message(&token).is_none(), "the thinking message is gone");
    bot.stop_expecting(|c| {
        c.kind == ReplyKind::DeleteOriginal && c.error.as_deref().is_some_and(|e| e.starts_with("10008"))
    })
    .await;
}
