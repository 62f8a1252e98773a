//! Discord's limits beyond a route's buckets, each answered with Discord's code, and what the
//! bot does under each (docs/design/bot-reliability.md#channels-that-refuse-a-post): the
//! webhook limit a channel's interactions share, archived and locked threads (50083), slowmode
//! (20016) and a player who closed their DMs to the bot (50007). Where Discord's documentation
//! leaves a rule open, each reading is tried. In every case the game is kept.

use std::time::Duration;

use serde_json::{json, Value};
use settai::domain::NewGame;
use settai::i18n::{Lang, Msg};
use settai_core::{Game, GameKind, Level, Side};
use sqlx::PgPool;

use crate::family::waited;
use crate::outages::tap_first;
use crate::rate_limits::tap_first_move;
use crate::said::whatever_the_link;
use crate::support::discord::{
    permission, ArchivedPost, Calls, FaultKind, Limit, RateLimits, Readings, SlowmodeSpares,
};
use crate::support::fixtures::{self, touch_taps, Ctx, OTHER_USER_ID, THREAD_ID, USER_ID};
use crate::support::{Reply, ReplyKind, StandIn};
use crate::{play_reversi, Bot, T};

/// What a reminder to `ctx`'s player of their reversi game says, whatever its link.
fn reminder(ctx: &Ctx) -> String {
    whatever_the_link(|link| Msg::Reminder { human: ctx.user_id, kind: GameKind::Reversi, link }, Lang::En)
}

/// A post in `channel_id`, whatever its answer.
fn posted_in(channel_id: u64) -> impl Fn(&Reply) -> bool {
    move |c: &Reply| c.kind == ReplyKind::ChannelMessage { channel_id }
}

/// `/play reversi` from `ctx`, the bot holding `extra` permissions there as well.
fn play_with(ctx: &Ctx, extra: u64) -> Value {
    let mut payload = play_reversi(ctx);
    let granted: u64 = payload["app_permissions"].as_str().unwrap().parse().unwrap();
    payload["app_permissions"] = json!((granted | extra).to_string());
    payload
}

/// The refused calls of the bot's, as text, but those `expected` says Discord refuses on its own.
fn unexpected_refusals(bot: &Bot, expected: impl Fn(&Reply) -> bool) -> Vec<String> {
    bot.standin.all_calls().iter().filter(|c| !c.ok() && !expected(c)).map(ToString::to_string).collect()
}

/// Whether Discord refused `c` with `code`.
fn refused_with(c: &Reply, code: &str) -> bool {
    c.error.as_deref().is_some_and(|e| e.starts_with(code))
}

/// Reminders owed in three archived threads: one not locked, one locked, one locked where the
/// bot holds MANAGE_THREADS. The bot unarchives the first and the third and reminds there; the
/// locked one it may not unarchive, and gives up quietly: the reminder counts as sent, the
/// thread stays archived. Every game is kept as it was.
async fn reminders_in_archived_threads(pool: PgPool, reading: ArchivedPost) {
    let bot = Bot::builder(pool).start().await;
    bot.standin.set_readings(Readings { archived_post: reading, ..Readings::default() });
    let open = Ctx::en().in_thread(THREAD_ID + 1);
    let locked = Ctx::en().in_thread(THREAD_ID + 2);
    let moderated = Ctx::en().in_thread(THREAD_ID + 3);
    for (ctx, extra) in [(&open, 0), (&locked, 0), (&moderated, permission::MANAGE_THREADS)] {
        bot.standin.interact(play_with(ctx, extra)).await;
        bot.standin.archive_thread(ctx.channel_id, ctx.channel_id != open.channel_id);
    }
    let since = bot.standin.cursor();
    waited(&bot, &[(&open, 25.0), (&locked, 25.0), (&moderated, 25.0)]).await;
    for ctx in [&open, &moderated] {
        let sent = bot.standin.wait_call(since, T, |c| posted_in(ctx.channel_id)(c) && c.ok()).await;
        assert!(sent.content().is_some_and(|t| t.contains(&reminder(ctx))), "{sent}");
    }
    // The locked thread: the post refused, and the bot's asking to unarchive it too.
    let unarchive = |c: &Reply| c.kind == ReplyKind::ModifyChannel { channel_id: locked.channel_id };
    let asked = bot.standin.wait_call(since, T, unarchive).await;
    assert!(refused_with(&asked, "50013"), "{asked}");
    assert_eq!(asked.json, json!({ "archived": false }));
    assert_eq!(bot.standin.thread_state(open.channel_id), Some((false, false)));
    assert_eq!(bot.standin.thread_state(moderated.channel_id), Some((false, true)));
    assert_eq!(bot.standin.thread_state(locked.channel_id), Some((true, true)));
    // Where a post unarchives a thread the bot may unarchive, it never asks to.
    let asked_for = |ctx: &Ctx| {
        bot.standin.all_calls().iter().any(|c| c.kind == ReplyKind::ModifyChannel { channel_id: ctx.channel_id })
    };
    assert_eq!(asked_for(&open), reading == ArchivedPost::Refused);
    assert_eq!(asked_for(&moderated), reading == ArchivedPost::Refused);
    // Claimed before sending: owed no more; the games as they were.
    let owed = bot.store.games_owed_nudges().await.unwrap().sound;
    assert!(owed.is_empty(), "{owed:?}");
    for ctx in [&open, &locked, &moderated] {
        assert_eq!(bot.game(ctx).await.expect("the game is kept").ply, 0);
    }
    bot.shards.shutdown_all().await;
    // Discord's refusals of what the bot could not know: a post in an archived thread, and
    // unarchiving the locked one.
    let unexpected = unexpected_refusals(&bot, |c| {
        (matches!(c.kind, ReplyKind::ChannelMessage { .. }) && refused_with(c, "50083"))
            || (unarchive(c) && refused_with(c, "50013"))
    });
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}

/// Discord refuses every post in an archived thread (50083): the bot unarchives the thread
/// (`archived: false`) where it may, then posts.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reminder_unarchives_a_thread_it_may_where_posts_are_refused(pool: PgPool) {
    reminders_in_archived_threads(pool, ArchivedPost::Refused).await;
}

/// A post unarchives a thread the bot may unarchive (as a member's message does in Discord's
/// client): only the locked thread refuses it.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reminder_unarchives_a_thread_it_may_where_posts_unarchive(pool: PgPool) {
    reminders_in_archived_threads(pool, ArchivedPost::Unarchives).await;
}

/// Reminders owed in three channels, the bot having posted in each a moment ago: one under an
/// hour's slowmode, one under the same slowmode where the bot holds MANAGE_MESSAGES, one
/// without. The two others are reminded at once whatever slowmode does to the first: a post
/// held back is given up after the bot's patience (serenity would wait out the hour, and every
/// reminder after it with it). Where slowmode spares every bot, all three are reminded.
async fn reminders_under_slowmode(pool: PgPool, spares: SlowmodeSpares) {
    let bot = Bot::builder(pool).start().await;
    let readings = Readings { slowmode_spares: spares, slowmode_spares_interactions: true, ..Readings::default() };
    bot.standin.set_readings(readings);
    // Reminded in the order the games were stored: the slow channel first.
    let slow = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 20);
    let managed = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 21);
    let free = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 22);
    let hour = Duration::from_secs(3600);
    for (ctx, extra) in [(&slow, 0), (&managed, permission::MANAGE_MESSAGES), (&free, 0)] {
        bot.standin.interact(play_with(ctx, extra)).await;
    }
    bot.standin.set_slowmode(slow.channel_id, hour);
    bot.standin.set_slowmode(managed.channel_id, hour);
    let since = bot.standin.cursor();
    waited(&bot, &[(&slow, 25.0), (&managed, 25.0), (&free, 25.0)]).await;
    for ctx in [&managed, &free] {
        let sent = bot.standin.wait_call(since, T, |c| posted_in(ctx.channel_id)(c) && c.ok()).await;
        assert!(sent.content().is_some_and(|t| t.contains(&reminder(ctx))), "{sent}");
    }
    let slowed: Vec<_> = bot.standin.rate_limited().into_iter().filter(|r| r.bucket == "slowmode").collect();
    match spares {
        SlowmodeSpares::AllBots => {
            bot.standin.wait_call(since, T, |c| posted_in(slow.channel_id)(c) && c.ok()).await;
            assert!(slowed.is_empty(), "{slowed:?}");
        }
        SlowmodeSpares::Managers => {
            assert!(!bot.standin.all_calls().iter().any(|c| posted_in(slow.channel_id)(c) && c.ok()));
            assert!(!slowed.is_empty() && slowed.iter().all(|r| r.resource == Some(slow.channel_id.to_string())));
        }
    }
    let owed = bot.store.games_owed_nudges().await.unwrap().sound;
    assert!(owed.is_empty(), "{owed:?}");
    assert_eq!(bot.game(&slow).await.expect("the game is kept").ply, 0);
    bot.stop().await;
}

/// Slowmode spares a bot only with MANAGE_MESSAGES or MANAGE_CHANNELS.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn slowmode_in_one_channel_holds_back_no_others_reminder(pool: PgPool) {
    reminders_under_slowmode(pool, SlowmodeSpares::Managers).await;
}

/// Slowmode spares every bot (Discord's documentation read word for word).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn slowmode_that_spares_bots_holds_back_no_reminder(pool: PgPool) {
    reminders_under_slowmode(pool, SlowmodeSpares::AllBots).await;
}

/// Taps in a channel under a two-second slowmode, where interactions' follow-ups are not
/// spared (and where they are): each tap's board is held back until slowmode lets it through,
/// never lost nor posted twice, and each move is stored once with the bot's answer.
async fn taps_under_slowmode(pool: PgPool, spared: bool) {
    let bot = Bot::builder(pool).start().await;
    let readings = Readings { slowmode_spares_interactions: spared, ..Readings::default() };
    bot.standin.set_readings(readings);
    let ctx = Ctx::en();
    let mut last = bot.standin.interact(play_reversi(&ctx)).await;
    bot.standin.set_slowmode(ctx.channel_id, Duration::from_secs(2));
    const TAPS: usize = 3;
    for _ in 0..TAPS {
        last = tap_first_move(&bot, &ctx, &last).await;
    }
    assert_eq!(bot.snapshot(&ctx).await.3, 2 * TAPS, "each tap and the bot's answer, once");
    let slowed = bot.standin.rate_limited().iter().filter(|r| r.bucket == "slowmode").count();
    assert_eq!(slowed == 0, spared, "{:?}", bot.standin.rate_limited());
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn taps_under_slowmode_keep_every_board(pool: PgPool) {
    taps_under_slowmode(pool, false).await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn taps_under_slowmode_that_spares_interactions(pool: PgPool) {
    taps_under_slowmode(pool, true).await;
}

/// The webhook limit a channel's interactions share (follow-ups and edits), here 3 per 3 s
/// (a tap uses two: its board and the old board's buttons taken off): quick taps meet its
/// 429s (`X-RateLimit-Scope: shared`), which are waited out; every board comes once and every
/// move is stored once. Another channel's taps share nothing with it.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn taps_past_the_shared_webhook_limit_lose_no_board(pool: PgPool) {
    let tight = Limit { requests: 3, per: Duration::from_secs(3) };
    let bot = Bot::builder(pool).rate_limits(RateLimits::discord().with_shared_webhook(tight)).start().await;
    let (busy, other) = (Ctx::en(), Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID));
    let mut last = bot.standin.interact(play_reversi(&busy)).await;
    const TAPS: usize = 3;
    for _ in 0..TAPS {
        last = tap_first_move(&bot, &busy, &last).await;
    }
    assert_eq!(bot.snapshot(&busy).await.3, 2 * TAPS, "each tap and the bot's answer, once");
    let shared: Vec<_> = bot.standin.rate_limited().into_iter().filter(|r| r.bucket == "shared-webhook").collect();
    assert!(!shared.is_empty(), "the taps met the shared limit: {:?}", bot.standin.rate_limited());
    assert!(shared.iter().all(|r| r.resource == Some(busy.channel_id.to_string())), "{shared:?}");
    let started = bot.standin.interact(play_reversi(&other)).await;
    tap_first_move(&bot, &other, &started).await;
    assert!(
        !bot.standin.rate_limited().iter().any(|r| r.resource == Some(other.channel_id.to_string())),
        "{:?}",
        bot.standin.rate_limited()
    );
    bot.stop().await;
}

/// A lively channel: a player tapping as fast as the boards come, against the shared limit as
/// reported (30 calls a minute). While the channel's calls are few, each move gets a new board
/// (a follow-up, and an edit that takes the old one's buttons off); from its twentieth call
/// within the minute the board tapped shows each move instead (one edit), so the limit is never
/// met and no board waits out a 429. Every move is stored once, and one board offers the moves.
/// Where Discord fails such an edit, the move's board is posted after all.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_lively_channel_sees_its_moves_on_the_board_tapped_and_meets_no_shared_limit(pool: PgPool) {
    let bot = Bot::builder(pool)
        .rate_limits(RateLimits::discord().with_shared_webhook(RateLimits::SHARED_WEBHOOK))
        .start()
        .await;
    let ctx = Ctx::en();
    let mut board = bot.standin.interact(play_reversi(&ctx)).await.message_id().unwrap();
    const TAPS: usize = 14;
    let mut in_place = Vec::new();
    for n in 0..TAPS {
        let (tap, _) = tap_first(&ctx, &bot.standin.message(board).unwrap());
        let with_board = |c: &Reply| c.ok() && !c.files.is_empty();
        let x = bot.standin.interact_until(tap, |x| x.answered() && x.calls.iter().any(with_board)).await;
        let posted: Vec<_> = x.followups().into_iter().filter(|c| with_board(c)).collect();
        match posted.as_slice() {
            [] => in_place.push(n),
            [new] => board = new.message_id.unwrap(),
            _ => panic!("tap {n}: two boards:\n{x}"),
        }
    }
    // Ten taps of two calls make twenty: the eleventh is shown in place, and every one after it.
    let first = *in_place.first().unwrap_or_else(|| panic!("no move shown in place"));
    assert!((7..=10).contains(&first), "the first move shown in place: tap {first}");
    assert_eq!(in_place, (first..TAPS).collect::<Vec<_>>(), "once lively, every move in place");
    assert_eq!(bot.snapshot(&ctx).await.3, 2 * TAPS, "each tap and the bot's answer, once");
    let shared: Vec<_> = bot.standin.rate_limited().into_iter().filter(|r| r.bucket == "shared-webhook").collect();
    assert!(shared.is_empty(), "the shared limit was met: {shared:?}");
    assert_eq!(offering_moves(&bot, &ctx), vec![board], "one board offers the moves");

    // Discord fails the next move's edit (a 503: it may have shown or not): the move's board is
    // posted as a new message after all, and the tapped board loses its buttons.
    let (tap, token) = tap_first(&ctx, &bot.standin.message(board).unwrap());
    let unavailable = FaultKind::Status { status: 503, retry_after: None };
    bot.standin.inject_fault("PATCH", &format!("/{token}/messages/@original"), unavailable, Calls::Nth(1));
    let x = bot
        .standin
        .interact_until(tap, |x| x.answered() && x.followups().iter().any(|c| c.ok() && !c.files.is_empty()))
        .await;
    let posted = x.followups().iter().find(|c| c.ok() && !c.files.is_empty()).and_then(|c| c.message_id).unwrap();
    let stripped = ReplyKind::EditChannelMessage { channel_id: ctx.channel_id, message_id: board };
    let taken_off = |c: &Reply| {
        c.ok() && (c.kind == stripped || c.kind == ReplyKind::EditOriginal) && c.components() == Some(vec![])
    };
    bot.standin.wait_call(0, T, |c| c.seq > x.calls[0].seq && taken_off(c)).await;
    assert_eq!(bot.snapshot(&ctx).await.3, 2 * TAPS + 2, "the move and the bot's answer, once");
    assert_eq!(offering_moves(&bot, &ctx), vec![posted], "the posted board alone offers the moves");
    bot.stop().await;
}

/// The messages in `ctx`'s channel that offer a move to tap.
fn offering_moves(bot: &Bot, ctx: &Ctx) -> Vec<u64> {
    bot.standin
        .messages_in(ctx.channel_id)
        .iter()
        .filter(|m| !touch_taps(m, "p").is_empty())
        .filter_map(|m| m["id"].as_str()?.parse().ok())
        .collect()
}

/// A reminder to a player who closed their DMs to the bot (50007), on each path that posts in a
/// DM: a game of a group DM, reminded in the player's DM with the bot (which opens it), and a
/// game of the bot's own DM. Given up quietly: counted as sent, the games kept, and a third
/// player's reminder goes out.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_player_who_closed_their_dms_is_not_reminded_and_keeps_the_game(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let grandma = Ctx::en().group_dm(USER_ID);
    let cousin = Ctx::en().with_user(OTHER_USER_ID).dm();
    let open = Ctx::en().with_user(OTHER_USER_ID + 1);
    // An interaction from each place makes it known, as Discord knows it.
    for ctx in [&grandma, &cousin] {
        bot.standin.interact(fixtures::slash(ctx, "play", "help", json!([]))).await;
    }
    let later = Ctx::en().with_user(OTHER_USER_ID + 2).with_channel(fixtures::OTHER_CHANNEL_ID + 30);
    for ctx in [&open, &later] {
        bot.standin.interact(play_reversi(ctx)).await;
    }
    for (ctx, private_channel) in [(&grandma, true), (&cousin, false)] {
        let game = NewGame {
            guild_id: None,
            channel_id: ctx.channel_id,
            parent_id: None,
            human_id: ctx.user_id,
            human_name: "Mika".into(),
            human_side: Side::First,
            level: Level::Reversi(settai_core::reversi::ReversiLevel::Standard),
            game: Game::new(GameKind::Reversi),
            private_channel,
            house_rules: None,
        };
        bot.store.create_game(&game).await.unwrap();
    }
    bot.standin.close_dms(USER_ID);
    bot.standin.close_dms(OTHER_USER_ID);
    let since = bot.standin.cursor();
    waited(&bot, &[(&grandma, 25.0), (&cousin, 25.0), (&open, 25.0)]).await;
    let to_grandma = StandIn::dm_channel_of(USER_ID);
    for channel_id in [to_grandma, cousin.channel_id] {
        let refused = bot.standin.wait_call(since, T, posted_in(channel_id)).await;
        assert!(refused_with(&refused, "50007"), "{refused}");
    }
    let sent = bot.standin.wait_call(since, T, |c| posted_in(open.channel_id)(c) && c.ok()).await;
    assert!(sent.content().is_some_and(|t| t.contains(&reminder(&open))), "{sent}");
    let owed = bot.store.games_owed_nudges().await.unwrap().sound;
    assert!(owed.is_empty(), "{owed:?}");
    // Given up for good: by the time a later sweep reminds another player, neither DM was
    // tried again.
    waited(&bot, &[(&later, 25.0)]).await;
    bot.standin.wait_call(since, T, |c| posted_in(later.channel_id)(c) && c.ok()).await;
    for channel_id in [to_grandma, cousin.channel_id] {
        let tries = bot.standin.all_calls().iter().filter(|c| posted_in(channel_id)(c)).count();
        assert_eq!(tries, 1, "one try in {channel_id}");
    }
    // The games go on where they are played.
    for ctx in [&grandma, &cousin] {
        assert_eq!(bot.game(ctx).await.expect("the game is kept").ply, 0);
        let board = bot.standin.interact(fixtures::slash(ctx, "play", "board", json!([]))).await;
        assert!(!board.is_ephemeral() && board.file("board.png").is_some(), "{board}");
    }
    bot.shards.shutdown_all().await;
    let unexpected = unexpected_refusals(&bot, |c| {
        refused_with(c, "50007") && (posted_in(to_grandma)(c) || posted_in(cousin.channel_id)(c))
    });
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}
