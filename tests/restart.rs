//! The real `settai serve` process against the Discord stand-in: killed mid-game and restarted,
//! the game goes on; a turn the bot owed when it died is played and posted after the restart.

mod support;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;
use settai::service::{Seat, Service};
use settai::store::Store;
use sqlx::PgPool;
use support::fixtures::{self, Ctx};
use support::{ReplyKind, StandIn};

const T: Duration = Duration::from_secs(30);

/// The URL of the test's own database (same server as DATABASE_URL, the pool's database name).
fn database_url(pool: &PgPool) -> String {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL is set for sqlx::test");
    let name = pool.connect_options().get_database().expect("test database name").to_string();
    let (server, _) = base.rsplit_once('/').expect("DATABASE_URL has a database path");
    format!("{server}/{name}")
}

/// Starts the bot binary as a separate process.
fn serve(standin: &StandIn, database_url: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_settai"))
        .arg("serve")
        .env("DISCORD_TOKEN", StandIn::TOKEN)
        .env("DISCORD_API_BASE", standin.base_url())
        .env("DISCORD_GUILD_ID", "")
        .env("DATABASE_URL", database_url)
        .env("RUST_LOG", "settai=debug")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
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

    // While the bot is down, the human's move lands but the reply is owed (as if the process died
    // between the two).
    let service = Service::new(store.clone());
    let legal = before.game.legal_moves();
    let seat = Seat {
        guild_id: Some(ctx.guild_id),
        channel_id: ctx.channel_id,
        parent_id: None,
        user_id: ctx.user_id,
        name: "Mika".into(),
    };
    service.human_move(&seat, &legal[0], None).await.unwrap();
    let cursor = standin.cursor();

    let _bot = Killed(serve(&standin, &url));
    standin.wait_sessions(2, T).await;
    // The owed reply is played and posted to the channel.
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
    let next = after.game.legal_moves()[0].clone();
    let moved = standin
        .interact(fixtures::slash(&ctx, "play", "move", json!([{ "name": "move", "type": 3, "value": next }])))
        .await;
    assert!(moved.content().contains(&format!("You played **{next}**")), "{moved}");
    assert_eq!(store.active_game(ctx.channel_id).await.unwrap().unwrap().ply, 6);
}
