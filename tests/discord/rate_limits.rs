//! The bot under Discord's rate limits (docs/design/bot-reliability.md#rate-limits): its calls
//! for a burst of taps fit Discord's buckets, and serenity's rate limiter, on as in production,
//! waits out the 429s it could not foresee (the global limit) without losing a board or playing
//! a move twice.

use std::time::Duration;

use futures::future::join_all;
use settai::i18n::{Lang, Msg};
use settai_core::{reversi, Game, GameKind, Level, Side};
use sqlx::PgPool;

use crate::said::before_move;
use crate::support::discord::{Limit, RateLimits};
use crate::support::fixtures::{self, touch_id, touch_taps, Ctx};
use crate::support::{Exchange, ReplyKind};
use crate::{play_reversi, shown_board, Bot};

/// Taps the first numbered square of the board `last` showed, waits until the tap's answer has
/// taken the old board's buttons off, and checks that it posted one new board; returns the tap's
/// exchange.
pub(crate) async fn tap_first_move(bot: &Bot, ctx: &Ctx, last: &Exchange) -> Exchange {
    let board = shown_board(bot, last);
    let mv = touch_taps(&board, "p").first().cloned().unwrap_or_else(|| panic!("no move:\n{board}"));
    let tap = fixtures::button_on(ctx, &touch_id(&board, &format!("p.{mv}")).unwrap(), &board);
    let tapped = bot
        .standin
        .interact_until(tap, |x| x.answered() && x.calls.iter().any(|c| c.kind == ReplyKind::EditOriginal))
        .await;
    let boards: Vec<_> = tapped.followups().into_iter().filter(|c| c.ok() && !c.files.is_empty()).collect();
    assert_eq!(boards.len(), 1, "one new board:\n{tapped}");
    tapped
}

/// Taps in quick succession, in one channel and in two others at the same time, with Discord's
/// numbers: no call of the bot's is answered 429, each tap gets its new board once and takes
/// the menu off the old one, and each move is stored once with the bot's answer to it.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_burst_of_taps_meets_no_429_and_loses_no_move(pool: PgPool) {
    let bot = Bot::builder(pool).rate_limits(RateLimits::discord()).start().await;
    let players = [
        Ctx::en(),
        Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID),
        Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 1),
    ];
    const TAPS: usize = 4;
    let play = |ctx: Ctx| {
        let bot = &bot;
        async move {
            let mut last = bot.standin.interact(play_reversi(&ctx)).await;
            for _ in 0..TAPS {
                let old = last.message_id().unwrap();
                let tapped = tap_first_move(bot, &ctx, &last).await;
                let old_board = bot.standin.message(old).unwrap();
                assert!(old_board["components"].as_array().is_none_or(Vec::is_empty), "{old_board}");
                last = tapped;
            }
        }
    };
    join_all(players.iter().cloned().map(play)).await;
    for ctx in &players {
        // Each tap and the bot's answer, once.
        assert_eq!(bot.snapshot(ctx).await.3, 2 * TAPS, "{ctx:?}");
    }
    assert!(bot.standin.rate_limited().is_empty(), "{:?}", bot.standin.rate_limited());
    bot.stop().await;
}

/// The global limit, which serenity cannot see coming (no header tells it before a 429): a bot
/// held to one request each 1.5 s connects owing its move in four channels, and its calls (its
/// start, then the four boards, a second or so apart) meet the limit. Each 429 is waited out and
/// the call tried again, so every channel gets its board once and every game the bot's one move.
/// (With the limiter off, a call answered 429 would fail, and its board be lost.)
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn boards_posted_past_the_global_limit_are_waited_for_not_lost(pool: PgPool) {
    let store = settai::store::Store::from_pool(pool.clone());
    let channels: Vec<Ctx> = (0..4).map(|n| Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 10 + n)).collect();
    let mut games = Vec::new();
    for ctx in &channels {
        // The player took white: the bot is to move, and pays it as it connects.
        let level = Level::Reversi(reversi::ReversiLevel::Standard);
        games.push(crate::game_in(&store, ctx, Side::Second, level, Game::new(GameKind::Reversi)).await.id);
    }
    let limits =
        RateLimits { global: Limit { requests: 1, per: Duration::from_millis(1_500) }, ..RateLimits::discord() };
    // The tiles are there from an earlier start: at one call in 1.5 s, their upload alone would
    // take half a minute.
    let bot = Bot::builder(pool).rate_limits(limits).tiles_uploaded();
    let bot = channels.iter().fold(bot, |bot, ctx| bot.channel(ctx)).start().await;
    for ctx in &channels {
        let posted =
            |c: &crate::support::Reply| c.ok() && c.kind == ReplyKind::ChannelMessage { channel_id: ctx.channel_id };
        bot.standin.wait_call(0, Duration::from_secs(60), posted).await;
    }
    let bot_played = before_move(|mv| Msg::BotPlayed { mv }, Lang::En);
    for (ctx, id) in channels.iter().zip(&games) {
        let boards: Vec<_> = bot
            .standin
            .all_calls()
            .into_iter()
            .filter(|c| c.kind == ReplyKind::ChannelMessage { channel_id: ctx.channel_id })
            .collect();
        assert_eq!(boards.len(), 1, "one board in {}: {boards:?}", ctx.channel_id);
        assert!(boards[0].ok() && !boards[0].files.is_empty(), "{:?}", boards[0]);
        assert!(boards[0].content().is_some_and(|c| c.contains(&bot_played)), "{:?}", boards[0]);
        assert_eq!(bot.store.game(*id).await.unwrap().unwrap().ply, 1, "the bot's move, once");
    }
    let met = bot.standin.rate_limited();
    // Its first calls follow each other closer than 1.5 s (the gateway's address, then the
    // commands as soon as READY comes).
    assert!(!met.is_empty(), "the test meets the global limit");
    assert!(met.iter().all(|r| r.global), "{met:?}");
    bot.stop().await;
}

/// Discord keys an interaction's webhook routes by the interaction, so a player whose tap used
/// up its interaction's room holds nobody else back. Here each interaction may call each of its
/// webhook routes once a minute: the first player's start and tap use their room, and the
/// second player's start and tap still get their boards at once, without a 429. (serenity keys
/// these routes by the application: through the bot's one shared client, the second player's
/// board would wait out the first one's minute, and this test time out.)
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn one_interactions_webhook_limit_holds_back_no_other(pool: PgPool) {
    let once_a_minute = Limit { requests: 1, per: Duration::from_secs(60) };
    let limits = RateLimits { interaction_webhooks: once_a_minute, ..RateLimits::discord() };
    let bot = Bot::builder(pool).rate_limits(limits).start().await;
    for ctx in [Ctx::en(), Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID)] {
        let started = bot.standin.interact(play_reversi(&ctx)).await;
        tap_first_move(&bot, &ctx, &started).await;
        assert_eq!(bot.snapshot(&ctx).await.3, 2, "the tap and the bot's answer, once");
    }
    assert!(bot.standin.rate_limited().is_empty(), "{:?}", bot.standin.rate_limited());
    bot.stop().await;
}
