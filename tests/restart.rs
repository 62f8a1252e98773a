//! The real `settai serve` process against the Discord stand-in: killed mid-game and restarted,
//! the game goes on; a turn the bot owed when it died is played and posted after the restart.

mod support;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;
use settai::domain::NewMove;
use settai::store::Store;
use sqlx::PgPool;
use support::fixtures::{self, Ctx};
use support::{database_url, Exchange, ReplyKind, StandIn};

const T: Duration = Duration::from_secs(30);

/// Starts the bot binary as a separate process.
fn serve(standin: &StandIn, database_url: &str) -> Child {
    serve_logging(standin, database_url, "settai=debug", Stdio::null(), Stdio::inherit())
}

fn serve_logging(standin: &StandIn, database_url: &str, filter: &str, stdout: Stdio, stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_settai"))
        // The developer's .env never reaches a test (src/config.rs env_file).
        .env("SETTAI_ENV_FILE", "/dev/null")
        .arg("serve")
        .env("DISCORD_TOKEN", StandIn::TOKEN)
        .env("DISCORD_API_BASE", standin.api_base())
        .env("DISCORD_API_CA", StandIn::certificate())
        .env("DISCORD_GUILD_ID", "")
        .env("DATABASE_URL", database_url)
        .env("RUST_LOG", filter)
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("the settai binary starts")
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_game_survives_a_killed_bot_process(pool: PgPool) {
    let standin = StandIn::start().await;
    let url = database_url(&pool);
    let store = Store::from_pool(pool);
    let ctx = Ctx::en();

    let mut bot = Killed(serve(&standin, &url));
    standin.wait_sessions(1, T).await;
    let start = standin.interact(fixtures::slash(&ctx, "play", "reversi", json!([]))).await;
    assert!(start.file(".png").is_some(), "{start}");
    let moved = standin
        .interact(fixtures::slash(&ctx, "play", "move", json!([{ "name": "move", "type": 3, "value": "f5" }])))
        .await;
    assert!(moved.content().contains("You played **f5**"), "{moved}");
    let before = store.active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!(before.ply, 2);

    // SIGKILL: no chance to clean up.
    bot.0.kill().unwrap();
    bot.0.wait().unwrap();
    standin.wait_disconnected(T).await;

    // While the bot is down, the game is left owing the bot a turn: the player's move stored
    // alone, as a version that stored it before the bot thought did, or as a start cut off
    // before the bot's opening leaves it.
    let mv = before.game.legal_moves()[0];
    let after_move = before.game.play(mv).unwrap();
    let human = NewMove { mv, by_bot: false, user_id: Some(ctx.user_id) };
    store.record_moves(&before, &[human], &after_move, None).await.unwrap();
    let cursor = standin.cursor();

    let _bot = Killed(serve(&standin, &url));
    standin.wait_sessions(2, T).await;
    // The owed turn is played and posted to the channel.
    let posted = standin.wait_new_message(cursor, T).await;
    assert!(
        matches!(posted.kind, ReplyKind::ChannelMessage { channel_id } if channel_id == ctx.channel_id),
        "{posted:?}"
    );
    assert!(posted.content().unwrap_or("").contains("I play **"), "{posted:?}");
    let after = store.active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!(after.ply, 4);
    assert!(after.human_to_move());

    // And the game goes on through the new process.
    let board = standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    assert!(board.file(".png").is_some(), "{board}");
    let next = after.game.legal_moves()[0].to_string();
    let moved = standin
        .interact(fixtures::slash(&ctx, "play", "move", json!([{ "name": "move", "type": 3, "value": next }])))
        .await;
    assert!(moved.content().contains(&format!("You played **{next}**")), "{moved}");
    assert_eq!(store.active_game(ctx.channel_id).await.unwrap().unwrap().ply, 6);
    standin.assert_none_refused();
}

/// Robustness (docs/design/bot-reliability.md#robustness): the token is never logged (every crate
/// at debug level, errors included) nor echoed to Discord, and what players are told of a failure
/// carries no internals.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_token_is_never_logged_nor_echoed(pool: PgPool) {
    let standin = StandIn::start().await;
    let url = database_url(&pool);
    let dir = std::env::temp_dir().join(format!("settai-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, err) = (dir.join("stdout.log"), dir.join("stderr.log"));
    let files = (std::fs::File::create(&out).unwrap(), std::fs::File::create(&err).unwrap());
    let mut bot = Killed(serve_logging(&standin, &url, "debug", files.0.into(), files.1.into()));
    standin.wait_sessions(1, T).await;
    let ctx = Ctx::en();
    standin.interact(fixtures::slash(&ctx, "play", "reversi", json!([]))).await;
    let bad = json!([{ "name": "move", "type": 3, "value": "z9" }]);
    standin.interact(fixtures::slash(&ctx, "play", "move", bad)).await;
    // A database failure as players see it: the pool of the bot's database goes away.
    sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        .execute(&pool)
        .await
        .unwrap();
    let failed = standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    bot.0.kill().unwrap();
    bot.0.wait().unwrap();

    let logs = std::fs::read_to_string(&out).unwrap() + &std::fs::read_to_string(&err).unwrap();
    assert!(logs.lines().count() > 10, "the bot logged at debug level:\n{logs}");
    let secret = StandIn::TOKEN.split('.').nth(2).unwrap();
    assert!(!logs.contains(secret), "the token is in the logs");
    for call in standin.all_calls() {
        let sent = format!("{} {:?}", call.json, call.error);
        assert!(!sent.contains(secret), "the token was sent to Discord: {sent}");
    }
    // Whatever the board request met (a fresh connection or the failure), no internals show.
    for word in ["sqlx", "postgres", "terminat", "panick", "error:"] {
        assert!(!failed.content().to_lowercase().contains(word), "{}", failed.content());
    }
    let _ = std::fs::remove_dir_all(&dir);
    standin.assert_none_refused();
}

/// Robustness (docs/design/bot-reliability.md#robustness): fifty SIGKILLs at random moments of play
/// (while replying, thinking, posting) and as many restarts: every move a player was told was taken
/// is in Postgres, the bot never plays a ply twice, and every game replays from its move list to
/// its stored position.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn fifty_kills_at_random_moments_lose_nothing(pool: PgPool) {
    use rand::{Rng, SeedableRng};
    use settai::domain::{Change, Place, Scope};
    use settai_core::{replay, GameKind};

    const RUNS: usize = 50;
    let standin = StandIn::start().await;
    let url = database_url(&pool);
    let store = Store::from_pool(pool);
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    // Doubutsu at the quick level in two channels, reversi (thinking 0.8 s a move) in a third.
    let players: Vec<(Ctx, &str)> = vec![
        (Ctx::en().with_channel(fixtures::THREAD_ID + 500), "doubutsu"),
        (Ctx::en().with_channel(fixtures::THREAD_ID + 501), "doubutsu"),
        (Ctx::en().with_channel(fixtures::THREAD_ID + 502), "reversi"),
    ];
    let place = Place { guild_id: Some(players[0].0.guild_id), channel_id: 0, parent_id: None };
    let weakest = Change::Level(settai_core::Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest));
    store.change_setting(players[0].0.guild_id, &place, Scope::Server, weakest).await.unwrap();

    let mut sent = Vec::new(); // (channel, game id, ply, move, token)
    for run in 0..RUNS {
        let mut bot = Killed(serve(&standin, &url));
        standin.wait_sessions(run + 1, T).await;
        let mut moves = Vec::new(); // this run's moves
        for (ctx, game) in &players {
            match store.active_game(ctx.channel_id).await.unwrap() {
                None => standin.send_interaction(fixtures::slash(ctx, "play", game, json!([]))).await,
                Some(record) if record.human_to_move() => {
                    let legal = record.game.legal_moves();
                    let mv = legal[rng.gen_range(0..legal.len())].to_string();
                    let payload =
                        fixtures::slash(ctx, "play", "move", json!([{ "name": "move", "type": 3, "value": mv }]));
                    let token = payload["token"].as_str().unwrap().to_string();
                    standin.send_interaction(payload).await;
                    sent.push((ctx.channel_id, record.id, record.ply + 1, mv, token.clone()));
                    moves.push(token);
                }
                Some(_) => continue, // the bot owes this reply; the restart pays it
            }
        }
        // The moment of the kill is reckoned in the bot's answers, not in time, so that a busy
        // machine is killed at the same stages of play: once a random number (at least one) of
        // this run's moves is answered, after a random pause (the others die while the bot
        // thinks, stores or posts).
        if !moves.is_empty() {
            for token in &moves[..rng.gen_range(1..=moves.len())] {
                standin.wait_exchange(token, Exchange::answered).await.unwrap_or_else(|e| panic!("{e}"));
            }
        }
        tokio::time::sleep(Duration::from_millis(rng.gen_range(0..600))).await;
        bot.0.kill().unwrap();
        bot.0.wait().unwrap();
        standin.wait_disconnected(T).await;
    }
    // A last start plays every turn still owed, posting each game's board in its channel.
    let owed: Vec<u64> =
        store.active_games().await.unwrap().iter().filter(|g| g.bot_to_move()).map(|g| g.channel_id).collect();
    let cursor = standin.cursor();
    let _bot = Killed(serve(&standin, &url));
    standin.wait_sessions(RUNS + 1, T).await;
    for channel in owed {
        standin.wait_call(cursor, T, |c| c.kind == ReplyKind::ChannelMessage { channel_id: channel }).await;
    }
    assert!(!store.active_games().await.unwrap().iter().any(|g| g.bot_to_move()), "owed turns were not played");

    // Every move the player was told was taken (the bot's answer names it) is stored, at its ply.
    // A bare "thinking…" tells nothing: the bot says it by itself when a request is slow, before
    // the move is stored.
    let mut acknowledged = 0;
    for (channel, game_id, ply, mv, token) in &sent {
        let x = standin.exchange(token);
        if !x.answered() {
            continue; // killed before it answered: the player saw no answer and nothing may be assumed
        }
        let moves = store.moves(*game_id).await.unwrap();
        if x.is_ephemeral() {
            continue; // refused (say, the game had just ended): nothing was taken
        }
        assert!(x.content().contains(&format!("You played **{mv}**")), "channel {channel}: {x}");
        acknowledged += 1;
        let stored = moves.iter().find(|m| m.ply == *ply).unwrap_or_else(|| panic!("channel {channel}: {mv} lost"));
        assert_eq!((&stored.notation, stored.by_bot), (mv, false), "channel {channel} ply {ply}");
    }
    assert!(acknowledged >= RUNS, "the kills left too few acknowledged moves to judge ({acknowledged})");
    // Every game, finished or not, replays from its moves to what is stored; the moves alternate
    // as the rules say (so no ply was played twice, by the bot or anyone).
    let games: Vec<i64> = sqlx::query_scalar("SELECT id FROM games ORDER BY id").fetch_all(store.pool()).await.unwrap();
    assert!(games.len() >= players.len());
    for id in games {
        let record = store.game(id).await.unwrap().unwrap();
        let moves = store.moves(id).await.unwrap();
        let plies: Vec<u32> = moves.iter().map(|m| m.ply).collect();
        assert_eq!(plies, (1..=moves.len() as u32).collect::<Vec<_>>(), "game {id}");
        let kind = record.game.kind();
        let notations: Vec<String> = moves.iter().map(|m| m.notation.clone()).collect();
        let replayed = replay(kind, &notations).unwrap_or_else(|e| panic!("game {id}: {e}"));
        assert_eq!(replayed, record.game, "game {id} replays to its stored position");
        assert_eq!(record.ply as usize, moves.len());
        for m in &moves {
            let mover_is_human = (m.ply % 2 == 1) == (kind == GameKind::Doubutsu || record.human_side.index() == 0);
            // Reversi passes make the bot move twice in a row; only doubutsu alternates strictly.
            if kind == GameKind::Doubutsu {
                assert_eq!(m.by_bot, !mover_is_human, "game {id} ply {}", m.ply);
            }
        }
    }
    // A call a process made before its kill, or after its restart, was one Discord takes.
    standin.assert_none_refused();
}
