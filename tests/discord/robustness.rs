//! Robustness (docs/design/bot-reliability.md#robustness): taps at the same moment, a dead or
//! vanishing database, tampered games, two processes on two shards, slow requests and owed turns.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use settai::discord::{self, Connection};
use settai::domain::{Change, GameStatus, PlayerResults, Scope};
use settai::i18n::{Lang, Msg};
use settai::metrics::Metrics;
use settai::service::Service;
use settai::store::Store;
use settai_core::{reversi, Game, GameKind, Level, Side, StoredPosition};
use sqlx::PgPool;

use crate::board_pictures::assert_board_is_stored;
use crate::said::{self, before_move, en, mv, whatever_the_link};
use crate::support::fixtures::{self, Ctx, OTHER_USER_ID, USER_ID};
use crate::support::{self, Exchange, ReplyKind, StandIn};
use crate::{assert_refused, game_in, place, play_move, play_reversi, touch_id, touch_taps, Bot, T};

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn two_taps_at_once_apply_one_move(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();
    let (f5, d3) = (touch_id(&board, "p.f5").unwrap(), touch_id(&board, "p.d3").unwrap());
    // One tap applies; the other changes nothing and tells nobody off (`two_taps_at_once`).
    let (a, b) = (fixtures::button_on(&ctx, &f5, &board), fixtures::button_on(&ctx, &d3, &board));
    let (applied, _) = crate::two_taps_at_once(&bot, a, b).await;
    assert!(!applied.is_ephemeral(), "one tap applies:\n{applied}");
    let snapshot = bot.snapshot(&ctx).await;
    assert_eq!((snapshot.1, snapshot.3), (2, 2), "exactly one human move and one bot move");
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_dead_database_gets_a_friendly_try_again(pool: PgPool) {
    let bot = Bot::builder(pool.clone()).start().await;
    let ctx = Ctx::en();
    bot.standin.interact(play_reversi(&ctx)).await;
    pool.close().await;
    for payload in [play_move(&ctx, "f5"), play_reversi(&ctx.with_channel(fixtures::OTHER_CHANNEL_ID))] {
        let x = bot.standin.interact(payload).await;
        assert_refused(&x, &en(Msg::TryAgain));
    }
    let ja = bot.standin.interact(play_move(&Ctx::ja(), "f5")).await;
    assert!(ja.is_ephemeral() && ja.content() == said::ja(Msg::TryAgain), "{}", ja.content());
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): a hundred boards tapped twice at the
/// same moment, by the same player or by two members of a family team: every game takes exactly one
/// move, the other tap changes nothing and nobody is told off, and nothing is lost.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_hundred_double_taps_apply_one_move_each(pool: PgPool) {
    const PAIRS: u64 = 100;
    let bot = Bot::builder(pool).start().await;
    let mika = Ctx::en();
    // The quick level keeps the test about the race, not the thinking; half the channels play
    // as a family team.
    let weakest = Change::Level(Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest));
    bot.store.change_setting(mika.guild_id, &place(&mika), Scope::Server, weakest).await.unwrap();
    let channels: Vec<Ctx> = (0..PAIRS).map(|i| mika.with_channel(fixtures::THREAD_ID + 1_000 + i)).collect();
    for ctx in channels.iter().step_by(2) {
        bot.store.change_setting(ctx.guild_id, &place(ctx), Scope::Channel, Change::TeamPlay(true)).await.unwrap();
    }
    let starts = futures::future::join_all(
        channels.iter().map(|ctx| bot.standin.interact(fixtures::slash(ctx, "play", "doubutsu", json!([])))),
    )
    .await;
    // The lion chosen on each board lights its two squares (a client shows the lit board to
    // everyone there); two different squares tapped at once, by the player twice or by the
    // player and Dad.
    let chosen = futures::future::join_all(channels.iter().zip(&starts).map(|(ctx, start)| {
        let board = bot.standin.message(start.message_id().unwrap()).unwrap();
        let lion = touch_id(&board, "c.B4").expect("the lion moves at the start");
        bot.standin.interact(fixtures::button_on(ctx, &lion, &board))
    }))
    .await;
    let taps: Vec<(Value, Value)> = channels
        .iter()
        .zip(&chosen)
        .enumerate()
        .map(|(i, (ctx, chosen))| {
            let lit = bot.standin.message(chosen.message_id().unwrap()).unwrap();
            let second = if i % 2 == 0 { ctx.with_user(OTHER_USER_ID) } else { ctx.clone() };
            let (a, b) = (touch_id(&lit, "p.B4A3").unwrap(), touch_id(&lit, "p.B4C3").unwrap());
            (fixtures::button_on(ctx, &a, &lit), fixtures::button_on(&second, &b, &lit))
        })
        .collect();
    // Each pair: one tap freezes its board with the move at once and plays it (the new board
    // follows); the other changes nothing and tells nobody off (`two_taps_at_once` checks it).
    let answers = futures::future::join_all(taps.into_iter().map(|(a, b)| crate::two_taps_at_once(&bot, a, b))).await;
    let mut applied = 0;
    for (ctx, (won, _)) in channels.iter().zip(&answers) {
        assert!(!won.is_ephemeral(), "{won}");
        // The stored game has exactly the move that was acknowledged, and the bot's one move.
        let record = bot.game(ctx).await.unwrap();
        let moves = bot.store.moves(record.id).await.unwrap();
        assert_eq!((record.ply, moves.len()), (2, 2), "channel {}", ctx.channel_id);
        let acknowledged = won.content();
        assert!(acknowledged.contains(&moves[0].notation), "the answer names {}:\n{won}", moves[0].notation);
        applied += 1;
    }
    assert_eq!(applied, PAIRS);
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): a stored game that was tampered with (a
/// position its moves do not lead to) or that does not even read back is detected, reported in a
/// friendly way and closed, never played on; the channel is free for a new game.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_tampered_or_corrupt_stored_game_is_closed_not_trusted(pool: PgPool) {
    let bot = Bot::builder(pool.clone()).start().await;
    let ctx = Ctx::en();
    bot.standin.interact(play_reversi(&ctx)).await;
    bot.standin.interact(play_move(&ctx, "f5")).await;
    let record = bot.game(&ctx).await.unwrap();
    // A legal-looking position that the stored moves do not lead to (one more black disc).
    let mut forged = record.game.encode().into_bytes();
    let at = forged.iter().position(|&b| b == b'-').expect("an empty square");
    forged[at] = b'X';
    let forged = String::from_utf8(forged).unwrap();
    assert!(Game::decode(GameKind::Reversi, &forged).is_ok(), "the forgery reads as a position");
    sqlx::query("UPDATE games SET position_and_start = $1 WHERE id = $2")
        .bind(&forged)
        .bind(record.id)
        .execute(&pool)
        .await
        .unwrap();
    let Ok(StoredPosition::Reversi(at)) = Game::decode(GameKind::Reversi, &forged) else { panic!("{forged}") };
    let legal = Game::Reversi(at).legal_moves();
    let refused = bot.standin.interact(play_move(&ctx, &legal[0].to_string())).await;
    assert_refused(&refused, &en(Msg::CorruptGame));
    let (position, ply, status, moves) = bot.snapshot(&ctx).await;
    assert_eq!((position, ply, status, moves), (forged, 2, GameStatus::Void, 2), "nothing was played on it");
    // The channel is free again.
    let fresh = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(!fresh.is_ephemeral(), "{fresh}");
    // A row that does not even read back is closed as well, at whatever the player does.
    let fresh = bot.game(&ctx).await.unwrap();
    sqlx::query("UPDATE games SET position_and_start = 'garbage' WHERE id = $1")
        .bind(fresh.id)
        .execute(&pool)
        .await
        .unwrap();
    let ja = bot.standin.interact(fixtures::slash(&Ctx::ja(), "play", "board", json!([]))).await;
    assert_refused(&ja, &said::ja(Msg::CorruptGame));
    assert!(bot.game(&ctx).await.is_none());
    // Void games count in nobody's record.
    let stats = bot.standin.interact(fixtures::slash(&ctx, "play", "stats", json!([]))).await;
    assert_eq!(
        stats.content(),
        said::stats(USER_ID, PlayerResults::default(), Lang::En),
        "void games count for nobody"
    );
    bot.stop().await;
}

/// A bot reaching the test's database through a relay the test can cut
/// (`support::outage::Relay`), and the relay.
async fn bot_through_relay(pool: &PgPool) -> (Bot, support::outage::Relay) {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL is set for sqlx::test");
    let name = pool.connect_options().get_database().expect("the test database").to_string();
    let (server, _) = base.rsplit_once('/').unwrap();
    let authority = server.split_once("://").unwrap().1.rsplit('@').next().unwrap();
    let relay = support::outage::Relay::start(authority).await;
    let store = Store::connect(&relay.url_through(&format!("{server}/{name}"))).await.unwrap();
    (Bot::builder(pool.clone()).store(store).start().await, relay)
}

/// Robustness (docs/design/bot-reliability.md#robustness): the database goes away mid-game (every
/// connection cut, new ones refused): players get a friendly "try again" within Discord's three
/// seconds and nothing changes; when it is back the same bot process carries on, its pool
/// reconnecting by itself.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_database_outage_gets_a_try_again_and_the_bot_recovers_without_a_restart(pool: PgPool) {
    let (bot, relay) = bot_through_relay(&pool).await;
    let ctx = Ctx::en();
    bot.standin.interact(play_reversi(&ctx)).await;
    let moved = bot.standin.interact(play_move(&ctx, "f5")).await;
    assert!(!moved.is_ephemeral(), "{moved}");
    let direct = Store::from_pool(pool);
    let before = direct.active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!(before.ply, 2);

    relay.cut();
    let next = before.game.legal_moves()[0].to_string();
    for payload in [
        play_move(&ctx, &next),
        fixtures::slash(&ctx, "play", "board", json!([])),
        play_reversi(&ctx.with_channel(fixtures::OTHER_CHANNEL_ID)),
    ] {
        let x = bot.standin.interact(payload).await;
        assert_refused(&x, &en(Msg::TryAgain));
        let answered = x.calls.iter().find(|c| c.ok()).unwrap().after;
        assert!(answered < Duration::from_secs(3), "answered after {answered:?}");
    }
    let during = direct.active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!((during.ply, during.version), (before.ply, before.version), "nothing changed");
    assert!(direct.active_game(fixtures::OTHER_CHANNEL_ID).await.unwrap().is_none());

    relay.restore();
    let connections = relay.connections();
    let moved = bot.standin.interact(play_move(&ctx, &next)).await;
    assert!(!moved.is_ephemeral(), "the same process plays on: {moved}");
    assert!(relay.connections() > connections, "the pool reconnected");
    assert_eq!(direct.active_game(ctx.channel_id).await.unwrap().unwrap().ply, 4);
    bot.stop().await;
}

/// A tap's board freezes with the move at once (docs/design/touch.md#every-tap-answers-at-once);
/// if the turn then fails (the database goes while the bot thinks), the board comes back as it
/// was, the tapper gets a private 😵 🔁, nothing is stored, and the same board plays once the
/// database is back.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_turn_that_fails_after_the_board_froze_brings_the_board_back(pool: PgPool) {
    let (bot, relay) = bot_through_relay(&pool).await;
    let ctx = Ctx::en();
    // Reversi's default level thinks 0.8 s a reply: the database goes while it does.
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();
    let f5 = touch_id(&board, "p.f5").unwrap();
    let tap = fixtures::button_on(&ctx, &f5, &board);
    let token = fixtures::token(&tap);
    bot.standin.send_interaction(tap).await;
    bot.standin.wait_exchange(&token, |x| x.callback_type() == Some(7)).await.unwrap();
    relay.cut();
    let broken = |x: &Exchange| x.followups().iter().any(|f| f.content() == Some("😵 🔁"));
    let x = bot.standin.wait_exchange(&token, broken).await.unwrap();
    // The board as it was: the same buttons, the same ones enabled.
    let shown = |rows: &[Value]| -> Vec<(String, bool)> {
        rows.iter()
            .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
            .map(|b| (b["custom_id"].as_str().unwrap_or_default().to_string(), b["disabled"] == true))
            .collect()
    };
    let back = x.calls.iter().find(|c| c.ok() && c.kind == ReplyKind::EditOriginal).unwrap_or_else(|| panic!("{x}"));
    let rows = board["components"].as_array().unwrap();
    assert_eq!(shown(&back.components().unwrap()), shown(rows), "the board comes back:\n{x}");
    let now = bot.standin.message(start.message_id().unwrap()).unwrap();
    assert_eq!(shown(now["components"].as_array().unwrap()), shown(rows));
    assert!(x.followups().iter().all(|f| f.flags() & 64 != 0), "the sign is private:\n{x}");
    let direct = Store::from_pool(pool);
    assert_eq!(direct.active_game(ctx.channel_id).await.unwrap().unwrap().ply, 0, "nothing stored");
    relay.restore();
    let played = bot.standin.interact(fixtures::button_on(&ctx, &f5, &now)).await;
    assert!(!played.is_ephemeral(), "the same board plays once the database is back:\n{played}");
    assert_eq!(direct.active_game(ctx.channel_id).await.unwrap().unwrap().ply, 2);
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): two bot processes, each running one of
/// two gateway shards, over one database: each server's interactions reach the process of its
/// shard, and games on both servers are played.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn two_processes_on_two_shards_share_the_servers(pool: PgPool) {
    let standin = StandIn::start().await;
    let mut managers = Vec::new();
    for range in ["0/2", "1/2"] {
        let connection = Connection {
            token: StandIn::TOKEN.into(),
            guild_id: None,
            api_base: Some(standin.api_base()),
            api_certificate: Some(StandIn::certificate()),
            idle_sweep: Duration::from_secs(3600),
            shards: Some(range.parse().unwrap()),
        };
        // Each "process" has its own service and pool over the same database.
        let service = Service::new(Store::from_pool(pool.clone()));
        let client = discord::client(connection.clone(), service).await.unwrap();
        managers.push(client.shard_manager.clone());
        tokio::spawn(discord::start(client, connection.shards));
    }
    standin.wait_sessions(2, T).await;
    let identified: Vec<Value> = standin.identify_payloads().iter().map(|d| d["shard"].clone()).collect();
    assert!(identified.contains(&json!([0, 2])) && identified.contains(&json!([1, 2])), "{identified:?}");
    // One server on each shard (Discord's rule: (id >> 22) % 2).
    let on_shard_1 = Ctx::en();
    let on_shard_0 =
        Ctx { guild_id: fixtures::GUILD_ID + (1 << 22), ..Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID) };
    let store = Store::from_pool(pool);
    for (ctx, shard) in [(&on_shard_0, 0), (&on_shard_1, 1)] {
        let payload = play_reversi(ctx);
        let token = payload["token"].as_str().unwrap().to_string();
        let started = standin.interact(payload).await;
        assert!(!started.is_ephemeral(), "{started}");
        assert_board_is_stored(&store, ctx, &started, Lang::En).await;
        let (_, identified_as) = standin.dispatched_to(&token).unwrap();
        assert_eq!(identified_as, json!([shard, 2]), "the server's shard got it");
        let moved = standin.interact(play_move(ctx, "f5")).await;
        assert!(!moved.is_ephemeral(), "{moved}");
        let game = store.active_game(ctx.channel_id).await.unwrap().unwrap();
        assert_eq!((game.guild_id, game.ply), (Some(ctx.guild_id), 2));
    }
    for m in managers {
        m.shutdown_all().await;
    }
    // Only the losers of the two processes' races to upload a tile (a name already taken).
    standin.assert_refused_only(|c| c.kind == ReplyKind::CreateApplicationEmoji);
}

/// Robustness, Discord's 3-second rule (docs/design/bot-reliability.md#robustness): whatever a
/// request waits for, the interaction is acknowledged in time, and the answer comes when the wait
/// is over: a tapped move as a new board, a refused command as a private message (its public
/// "thinking…" withdrawn).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_slow_request_is_acknowledged_in_time_and_answered_after(pool: PgPool) {
    let bot = Bot::builder(pool.clone()).start().await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();
    let values = touch_taps(&board, "p");

    // Another client holds the settings tables until both requests are acknowledged: every
    // request waits on them, so only the deadline can have acknowledged them.
    let mut blocker = pool.begin().await.unwrap();
    sqlx::query("LOCK TABLE guild_settings, channel_settings IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *blocker)
        .await
        .unwrap();
    let tap = fixtures::button_on(&ctx, &touch_id(&board, &format!("p.{}", values[0])).unwrap(), &board);
    let command = play_move(&ctx.with_channel(fixtures::OTHER_CHANNEL_ID), "f5");
    let tokens = [fixtures::token(&tap), fixtures::token(&command)];
    let since = bot.standin.cursor();
    let release = async {
        for token in &tokens {
            let acknowledged = |c: &support::Reply| {
                c.token.as_deref() == Some(token.as_str()) && matches!(c.kind, ReplyKind::Callback { .. })
            };
            bot.standin.wait_call(since, T, acknowledged).await;
        }
        // Every call from here on was made after the lock was given up.
        let released = bot.standin.cursor();
        blocker.rollback().await.unwrap();
        released
    };
    let (tap, refused, released) = tokio::join!(bot.standin.interact(tap), bot.standin.interact(command), release);
    for (x, deferral) in [(&tap, 6), (&refused, 5)] {
        let first = x.calls.iter().find(|c| c.ok()).unwrap_or_else(|| panic!("no answer:\n{x}"));
        assert_eq!(first.kind, ReplyKind::Callback { type_: deferral }, "acknowledged first:\n{x}");
        assert!(first.after < Duration::from_millis(2500), "acknowledged after {:?}:\n{x}", first.after);
        assert!(x.calls[1..].iter().all(|c| c.seq >= released), "the answer waited for the lock:\n{x}");
    }
    assert!(tap.content().contains(&en(Msg::YouPlayed { mv: mv(GameKind::Reversi, &values[0]) })), "{tap}");
    assert_board_is_stored(&bot.store, &ctx, &tap, Lang::En).await;
    assert!(refused.calls.iter().any(|c| c.kind == ReplyKind::DeleteOriginal), "{refused}");
    assert_refused(&refused, &en(Msg::NoGame));
    let record = bot.game(&ctx).await.unwrap();
    assert_eq!(record.ply, 2, "one move and the bot's, nothing else");
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): a game the bot opens whose first move
/// failed (the database blinked) is paid by the running process, not left until a restart;
/// games where the bot's turn is still being worked on are left alone.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_turn_left_owed_while_running_is_paid_without_a_restart(pool: PgPool) {
    // A connecting bot plays every turn owed at that moment, however young; a game owed from
    // before it started marks the end of that first pass, after which this test's games are made.
    let earlier = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 2);
    let reversi = || Game::new(GameKind::Reversi);
    game_in(
        &Store::from_pool(pool.clone()),
        &earlier,
        Side::Second,
        Level::Reversi(reversi::ReversiLevel::Standard),
        reversi(),
    )
    .await;
    let bot = Bot::builder(pool.clone()).channel(&earlier).start().await;
    let paid_earlier = |c: &support::Reply| c.kind == ReplyKind::ChannelMessage { channel_id: earlier.channel_id };
    bot.standin.wait_call(0, T, paid_earlier).await;
    let (owed, fresh, later) = (
        Ctx::en(),
        Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID),
        Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 1),
    );
    let mut ids = Vec::new();
    for ctx in [&owed, &fresh, &later] {
        // The player took white: the bot is to move.
        let record = bot.game_of(ctx, Side::Second, Level::Reversi(reversi::ReversiLevel::Standard), reversi()).await;
        ids.push(record.id);
    }
    let backdate = |id: i64| {
        sqlx::query("UPDATE games SET updated_at = now() - interval '3 minutes' WHERE id = $1").bind(id).execute(&pool)
    };
    let since = bot.standin.cursor();
    backdate(ids[0]).await.unwrap();
    let posted = bot.standin.wait_new_message(since, T).await;
    assert_eq!(posted.kind, ReplyKind::ChannelMessage { channel_id: owed.channel_id }, "{posted:?}");
    let bot_played = before_move(|mv| Msg::BotPlayed { mv }, Lang::En);
    assert!(posted.content().is_some_and(|c| c.contains(&bot_played)), "{posted:?}");
    assert!(!posted.files.is_empty(), "the board is posted");
    assert_eq!(bot.store.game(ids[0]).await.unwrap().unwrap().ply, 1);
    // A game where the bot's turn may still be on its way is not the sweep's to answer: a later sweep
    // (the one that pays a game owed only from now on) goes through the games in order and
    // passes the fresh one by.
    let since = bot.standin.cursor();
    backdate(ids[2]).await.unwrap();
    let paid_later = |c: &support::Reply| c.kind == ReplyKind::ChannelMessage { channel_id: later.channel_id };
    bot.standin.wait_call(since, T, paid_later).await;
    assert_eq!(bot.store.game(ids[1]).await.unwrap().unwrap().ply, 0);
    assert!(bot
        .standin
        .all_calls()
        .iter()
        .all(|c| c.kind != ReplyKind::ChannelMessage { channel_id: fresh.channel_id }));
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): a game whose row does not read back
/// never blinds the running bot's sweeps. Beside it, the idle game is closed and told, the
/// waiting player is reminded and the turn the bot owes is played and posted; the bad game is
/// closed as void and counted once.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn one_bad_row_never_blinds_the_sweeps(pool: PgPool) {
    let store = Store::from_pool(pool.clone());
    let channel = |n: u64| Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 20 + n);
    let (idle, waiting, owed, bad) = (channel(1), channel(2), channel(3), channel(4));
    let standard = Level::Reversi(reversi::ReversiLevel::Standard);
    let mut ids = Vec::new();
    for (ctx, side, waited) in [
        (&idle, Side::First, "15 days"),
        (&waiting, Side::First, "25 hours"),
        (&owed, Side::Second, "3 minutes"),
        (&bad, Side::First, "15 days"),
    ] {
        let id = game_in(&store, ctx, side, standard, Game::new(GameKind::Reversi)).await.id;
        let sql = format!("UPDATE games SET updated_at = now() - interval '{waited}' WHERE id = $1");
        sqlx::query(&sql).bind(id).execute(&pool).await.unwrap();
        ids.push(id);
    }
    let bad_id = ids[3];
    sqlx::query("UPDATE games SET position_and_start = 'garbage' WHERE id = $1")
        .bind(bad_id)
        .execute(&pool)
        .await
        .unwrap();
    // Every sweep's first look, as the bot connects, finds the bad row among the others.
    let metrics = Arc::new(Metrics::new());
    let bot = Bot::builder(pool.clone()).metrics(metrics.clone()).channel(&idle).channel(&waiting).channel(&owed);
    let bot = bot.start().await;

    let posted = |ctx: &Ctx, needle: String| {
        let channel_id = ctx.channel_id;
        move |c: &support::Reply| {
            c.ok()
                && c.kind == ReplyKind::ChannelMessage { channel_id }
                && c.content().is_some_and(|t| t.contains(&needle))
        }
    };
    bot.standin.wait_call(0, T, posted(&idle, en(Msg::Expired { human: USER_ID, days: 14 }))).await;
    let reminder = whatever_the_link(|link| Msg::Reminder { human: USER_ID, kind: GameKind::Reversi, link }, Lang::En);
    bot.standin.wait_call(0, T, posted(&waiting, reminder)).await;
    let bot_played = before_move(|mv| Msg::BotPlayed { mv }, Lang::En);
    let board = bot.standin.wait_call(0, T, posted(&owed, bot_played)).await;
    assert!(!board.files.is_empty(), "the board is posted");

    // The bad game is closed as void, by whichever sweep read it first, and counted once.
    let corrupt_counted = || {
        let scrape = metrics.encode().unwrap();
        let counts = scrape.lines().filter_map(|l| l.strip_prefix("settai_corrupt_games_total{sweep="));
        counts.map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum::<u64>()
    };
    let deadline = tokio::time::Instant::now() + T;
    let status =
        || sqlx::query_scalar::<_, String>("SELECT status FROM games WHERE id = $1").bind(bad_id).fetch_one(&pool);
    while status().await.unwrap() != "void" || corrupt_counted() == 0 {
        assert!(tokio::time::Instant::now() < deadline, "the bad game was not closed and counted");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Closed, it is read by no sweep again.
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(corrupt_counted(), 1);
    assert_eq!(
        bot.standin
            .all_calls()
            .iter()
            .filter(|c| c.kind == ReplyKind::ChannelMessage { channel_id: bad.channel_id })
            .count(),
        0
    );
    bot.stop().await;
}
