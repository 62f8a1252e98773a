//! What a tap costs the database, counted where Discord triggers it: taps sent through the
//! stand-in on the boards the bot posted, each interaction's statements counted in its own span
//! (`support::statements`), answer and board bookkeeping included (ARCHITECTURE.md, "What
//! flows where").

use serde_json::{json, Value};
use settai::domain::{Change, Scope};
use settai_core::doubutsu::DoubutsuLevel;
use settai_core::Level;
use sqlx::PgPool;

use crate::support::fixtures::{self, touch_id, Ctx};
use crate::support::statements::{self, Cost};
use crate::{place, play_move, play_reversi, shown_board, Bot, T};

/// Sends `payload` and waits until everything the bot does for it is done: its cost.
async fn cost_of(bot: &Bot, payload: Value) -> Cost {
    let id: u64 = payload["id"].as_str().unwrap().parse().unwrap();
    let answer = bot.standin.interact(payload).await;
    assert!(!answer.is_ephemeral(), "the tap was played, not refused:\n{answer}");
    statements::cost_of(id, T).await
}

/// A tap that plays a move reads its place once (settings, game and moves in one statement) and
/// writes twice: the player's move with the bot's reply (one statement, after the bot has
/// thought) and the new board's message id, which Discord gives only once the board is posted.
fn assert_a_move(what: &str, cost: &Cost) {
    let (reads, writes) = (cost.reads(), cost.writes());
    assert_eq!(reads.len(), 1, "{what}: one read, not {reads:#?}");
    assert_eq!(writes.len(), 2, "{what}: two writes, not {writes:#?}");
    assert!(writes[0].contains("INSERT INTO moves"), "{what}: the moves first, together: {writes:#?}");
    assert!(writes[1].contains("board_message_id"), "{what}: then the board's message: {writes:#?}");
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_tap_reads_once_and_writes_its_moves_once(pool: PgPool) {
    statements::install();
    let bot = Bot::builder(pool).start().await;

    // Reversi: one tap on a number.
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let board = shown_board(&bot, &start);
    let f5 = touch_id(&board, "p.f5").expect("f5 is a number on the board");
    assert_a_move("a reversi tap", &cost_of(&bot, fixtures::button_on(&ctx, &f5, &board)).await);
    // The same move typed as a command costs the same.
    let game = bot.game(&ctx).await.unwrap();
    let typed = game.game.legal_moves()[0].to_string();
    assert_a_move("a typed move", &cost_of(&bot, play_move(&ctx, &typed)).await);

    // Doubutsu: the animal (a read, nothing written), then where it goes.
    let ctx = ctx.with_channel(ctx.channel_id + 1);
    let weakest = Change::Level(Level::Doubutsu(DoubutsuLevel::Weakest));
    bot.store.change_setting(ctx.guild_id, &place(&ctx), Scope::Channel, weakest).await.unwrap();
    let start = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    let board = shown_board(&bot, &start);
    let lion = touch_id(&board, "c.B4").expect("the lion moves at the start");
    let chosen = cost_of(&bot, fixtures::button_on(&ctx, &lion, &board)).await;
    assert_eq!((chosen.reads().len(), chosen.writes().len()), (1, 0), "choosing the animal: {chosen:#?}");
    let lit = bot.standin.message(board["id"].as_str().unwrap().parse().unwrap()).unwrap();
    let square = touch_id(&lit, "p.B4A3").expect("A3 is lit for the lion");
    assert_a_move("a doubutsu tap", &cost_of(&bot, fixtures::button_on(&ctx, &square, &lit)).await);
    bot.stop().await;
}
