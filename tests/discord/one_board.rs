//! Only the game's board offers its moves (docs/design/bot-reliability.md#robustness): a board
//! the database cannot remember, two boards shown at once for one position, and a board
//! brought back to life after its game ended.

use std::time::Duration;

use serde_json::{json, Value};
use sqlx::PgPool;

use crate::support::discord::{Calls, FaultKind};
use crate::support::fixtures::{self, Ctx};
use crate::support::ReplyKind;
use crate::{play_reversi, Bot, T};

/// Whether every button of `message` can be tapped.
fn offers_moves(message: &Value) -> bool {
    let buttons = fixtures::buttons_of(message);
    !buttons.is_empty() && buttons.iter().all(|b| b["disabled"].as_bool() != Some(true))
}

/// Whether message `id` offers moves.
fn live(bot: &Bot, id: u64) -> bool {
    offers_moves(&bot.standin.message(id).unwrap())
}

/// A board shown afresh that the database cannot remember as the game's board
/// (docs/design/bot-reliability.md#robustness, "Database outage"): remembering is tried again,
/// so a write refused once still remembers it; where every try is refused, the board it replaces
/// loses its menu all the same. Either way only the newest board offers moves. The database
/// refuses for real: a trigger on the test's own database, counting its refusals in a sequence
/// (which a refused statement does not roll back).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_board_the_database_cannot_remember_still_replaces_the_old(pool: PgPool) {
    let bot = Bot::builder(pool.clone()).start().await;
    let ctx = Ctx::en();
    let first = bot.standin.interact(play_reversi(&ctx)).await.message_id().unwrap();
    crate::family::board_remembered(&bot, &ctx, first).await;
    for statement in [
        "CREATE SEQUENCE board_writes",
        "CREATE TABLE board_write_refusals (up_to bigint NOT NULL)",
        "INSERT INTO board_write_refusals VALUES (1)",
        "CREATE FUNCTION refuse_board_write() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF nextval('board_writes') <= (SELECT up_to FROM board_write_refusals) THEN
             RAISE EXCEPTION 'refused by the test';
           END IF;
           RETURN NEW;
         END $$",
        "CREATE TRIGGER refuse_board_write BEFORE UPDATE ON games FOR EACH ROW
         WHEN (NEW.board_message_id IS DISTINCT FROM OLD.board_message_id AND NEW.board_message_id IS NOT NULL)
         EXECUTE FUNCTION refuse_board_write()",
    ] {
        sqlx::query(statement).execute(&pool).await.unwrap();
    }
    let live = |id: u64| live(&bot, id);
    // Refused once: the second try remembers it.
    let second = show_afresh(&bot, &ctx, first).await;
    crate::family::board_remembered(&bot, &ctx, second).await;
    let tries: i64 = sqlx::query_scalar("SELECT last_value FROM board_writes").fetch_one(&pool).await.unwrap();
    assert_eq!(tries, 2, "refused once, then remembered");
    assert!(!live(first) && live(second), "only the newest board offers moves");

    // Refused every time: not remembered, and the old board's menu comes off all the same.
    sqlx::query("UPDATE board_write_refusals SET up_to = 1000").execute(&pool).await.unwrap();
    let third = show_afresh(&bot, &ctx, second).await;
    let tries: i64 = sqlx::query_scalar("SELECT last_value FROM board_writes").fetch_one(&pool).await.unwrap();
    assert!(tries > 3, "tried again before giving up: {tries} writes in all");
    assert_eq!(bot.game(&ctx).await.unwrap().board_message_id, Some(second), "not remembered");
    assert!(!live(second) && live(third), "only the newest board offers moves");
    bot.stop().await;
}

/// `/play board` in `ctx`'s channel: the fresh board, once the board `old` has lost its menu.
async fn show_afresh(bot: &Bot, ctx: &Ctx, old: u64) -> u64 {
    let since = bot.standin.cursor();
    let shown = bot.standin.interact(fixtures::slash(ctx, "play", "board", json!([]))).await;
    let posted = shown.message_id().unwrap_or_else(|| panic!("a board:\n{shown}"));
    assert_ne!(posted, old);
    let stripped = ReplyKind::EditChannelMessage { channel_id: ctx.channel_id, message_id: old };
    bot.standin.wait_call(since, T, |c| c.ok() && c.kind == stripped).await;
    posted
}

/// Two `/play board` at once (a parent and a child, or one impatient tap twice): both read the
/// game with its first board and post a fresh one. The first remembered is the game's board;
/// the other, which lost, takes its own menu off, so that exactly one board offers the moves
/// and it is the one reminders link to.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn two_boards_shown_at_once_leave_one_offering_moves(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let first = bot.standin.interact(play_reversi(&ctx)).await.message_id().unwrap();
    crate::family::board_remembered(&bot, &ctx, first).await;
    for round in 0..5 {
        let (a, b) =
            (fixtures::slash(&ctx, "play", "board", json!([])), fixtures::slash(&ctx, "play", "board", json!([])));
        let (ta, tb) = (fixtures::token(&a), fixtures::token(&b));
        bot.standin.send_interaction(a).await;
        bot.standin.send_interaction(b).await;
        let mut shown = Vec::new();
        for token in [ta, tb] {
            let x = bot.standin.wait_exchange(&token, |x| x.answered()).await.unwrap();
            shown.push(x.message_id().unwrap_or_else(|| panic!("a board:\n{x}")));
        }
        // Once the game's board is settled, it alone offers the moves.
        let deadline = tokio::time::Instant::now() + T;
        loop {
            let remembered = bot.game(&ctx).await.and_then(|g| g.board_message_id).unwrap();
            let offering: Vec<u64> = bot
                .standin
                .messages_in(ctx.channel_id)
                .iter()
                .filter(|m| offers_moves(m))
                .filter_map(|m| m["id"].as_str()?.parse().ok())
                .collect();
            if shown.contains(&remembered) && offering == vec![remembered] {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "round {round}: boards {shown:?}, remembered {remembered}, offering moves {offering:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    bot.stop().await;
}

/// A board brought back to life after its game ended, as a month in Discord's bad weather
/// met it: a tap's board post is made and never answered, and the player, who sees the new
/// board, ends the game meanwhile (here by resigning). At its deadline the bot, not knowing of
/// the post, makes the board tapped the new one: the moves of a game that is over, on the board
/// the game still remembers. It loses the race to be remembered, and its menu comes off.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_board_brought_back_after_its_game_ended_offers_nothing(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let board = bot.standin.interact(play_reversi(&ctx)).await.message_id().unwrap();
    crate::family::board_remembered(&bot, &ctx, board).await;
    let (tap, token) = crate::outages::tap_first(&ctx, &bot.standin.message(board).unwrap());
    bot.standin.inject_fault("POST", &format!("/{token}"), FaultKind::AppliedHang, Calls::Nth(1));
    bot.standin.send_interaction(tap).await;
    // The post is made (the player sees it) and its answer never comes; the player resigns.
    let deadline = tokio::time::Instant::now() + T;
    while !bot.standin.injected_faults().iter().any(|f| f.made.is_some()) {
        assert!(tokio::time::Instant::now() < deadline, "the move's board was never posted");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    assert!(bot.game(&ctx).await.is_none(), "the game is over");
    // At the post's deadline (10 s, within the test's T) the board tapped shows the move and
    // its moves: then its menu comes off.
    let brought_back = bot
        .standin
        .wait_call(0, T, |c| {
            c.ok()
                && c.kind == ReplyKind::EditOriginal
                && c.token.as_deref() == Some(token.as_str())
                && !c.files.is_empty()
        })
        .await;
    let stripped = ReplyKind::EditChannelMessage { channel_id: ctx.channel_id, message_id: board };
    bot.standin.wait_call(brought_back.seq + 1, T, |c| c.ok() && c.kind == stripped).await;
    let now = bot.standin.message(board).unwrap();
    assert!(fixtures::buttons_of(&now).is_empty(), "the board of a game that is over offers nothing:\n{now}");
    bot.stop().await;
}
