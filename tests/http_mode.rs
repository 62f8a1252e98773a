//! Robustness (docs/design/bot-reliability.md#robustness): HTTP interactions mode. The real bot
//! answers Discord's signed POSTs (here the stand-in's) and talks back through the stand-in's REST
//! API, over a real database; two processes behind one address share the games, since nothing is
//! kept between requests.

mod support;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ed25519_dalek::{Signer as _, SigningKey};
use serde_json::{json, Value};
use settai::discord::endpoint::{self, Signatures, MAX_AGE};
use settai::discord::Connection;
use settai::service::Service;
use settai::store::Store;
use sqlx::PgPool;
use support::discord::Signed;
use support::fixtures::{self, Ctx};
use support::{Exchange, ReplyKind, StandIn};

const T: Duration = Duration::from_secs(30);

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Starts an endpoint process over `pool` checking signatures of `key`; returns its URL.
async fn endpoint_process(standin: &StandIn, pool: &PgPool, key: &SigningKey) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/interactions", listener.local_addr().unwrap());
    let connection = Connection {
        token: StandIn::TOKEN.into(),
        guild_id: None,
        api_base: Some(standin.api_base()),
        api_certificate: Some(StandIn::certificate()),
        idle_sweep: Duration::from_secs(3600),
        shards: None,
    };
    let signatures = Signatures::new(&hex(key.verifying_key().as_bytes())).unwrap();
    let service = Service::new(Store::from_pool(pool.clone()));
    tokio::spawn(endpoint::serve(listener, connection, signatures, service));
    url
}

/// POSTs `body` to `url` with the given signature headers; (status, body).
async fn post(url: &str, body: &[u8], headers: &[(&str, String)]) -> (u16, String) {
    let mut request = reqwest::Client::new().post(url).header("content-type", "application/json").body(body.to_vec());
    for (name, value) in headers {
        request = request.header(*name, value.clone());
    }
    let answer = request.send().await.expect("the endpoint is reachable");
    (answer.status().as_u16(), answer.text().await.unwrap_or_default())
}

/// Signature headers for `body` signed by `key` at Unix time `at`.
fn signed(key: &SigningKey, at: u64, body: &[u8]) -> Vec<(&'static str, String)> {
    let ts = at.to_string();
    let signature = key.sign(&[ts.as_bytes(), body].concat());
    vec![("x-signature-ed25519", hex(&signature.to_bytes())), ("x-signature-timestamp", ts)]
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

fn first_call(x: &Exchange) -> &support::Reply {
    x.calls.iter().find(|c| c.ok()).unwrap_or_else(|| panic!("no answer:\n{x}"))
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn only_requests_signed_by_discord_are_answered(pool: PgPool) {
    let standin = StandIn::start().await;
    let key = SigningKey::from_bytes(&[42; 32]);
    let url = endpoint_process(&standin, &pool, &key).await;
    let commands = standin.wait_commands(T).await;
    assert!(commands.iter().any(|c| c["name"] == "play"), "commands registered over REST: {commands:?}");

    // Discord's PING when the endpoint URL is saved.
    let ping =
        serde_json::to_vec(&json!({"id": "1", "application_id": "2", "type": 1, "token": "t", "version": 1})).unwrap();
    let (status, body) = post(&url, &ping, &signed(&key, now(), &ping)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), json!({"type": 1}));

    // Unsigned, forged, tampered or replayed requests are refused before anything happens.
    let ctx = Ctx::en();
    let start = serde_json::to_vec(&fixtures::slash(&ctx, "play", "reversi", json!([]))).unwrap();
    let forger = SigningKey::from_bytes(&[43; 32]);
    let mut tampered = signed(&key, now(), &start);
    tampered[1].1 = (now() + 1).to_string();
    let stale = now() - MAX_AGE.as_secs() - 5;
    for (what, headers) in [
        ("unsigned", vec![]),
        ("forged", signed(&forger, now(), &start)),
        ("signed for another body", signed(&key, now(), &ping)),
        ("tampered timestamp", tampered),
        ("replayed late", signed(&key, stale, &start)),
    ] {
        let (status, _) = post(&url, &start, &headers).await;
        assert_eq!(status, 401, "{what}");
    }
    // The 401 is the whole answer: the endpoint refuses before reading the interaction, so no
    // handling was started that could still answer later.
    assert!(standin.all_calls().iter().all(|c| c.token.is_none()), "no interaction was answered");
    assert!(Store::from_pool(pool).active_game(ctx.channel_id).await.unwrap().is_none(), "no game started");
    standin.assert_none_refused();
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn two_http_processes_share_the_games(pool: PgPool) {
    let standin = StandIn::start().await;
    let key = SigningKey::from_bytes(&[42; 32]);
    let (a, b) = (endpoint_process(&standin, &pool, &key).await, endpoint_process(&standin, &pool, &key).await);
    standin.wait_commands(T).await;
    let ctx = Ctx::en();

    // A board has files: acknowledged in the HTTP answer, then posted as a new message (its
    // "your move" must notify, which an edit would not).
    let start = standin.try_interact_http(&a, &key, fixtures::slash(&ctx, "play", "reversi", json!([]))).await.unwrap();
    assert_eq!(first_call(&start).kind, ReplyKind::Callback { type_: 5 }, "{start}");
    assert!(start.calls.iter().any(|c| c.kind == ReplyKind::Followup && !c.files.is_empty()), "{start}");
    let users = &start.text_call().unwrap().json["allowed_mentions"]["users"];
    assert_eq!(users, &json!([fixtures::USER_ID.to_string()]), "{start}");
    assert!(!start.is_ephemeral() && start.file(".png").is_some(), "{start}");

    // The next move reaches the other process, which knows the game from the database.
    let f5 = start.custom_ids().into_iter().find(|id| id.ends_with(":p.f5")).expect("f5's number");
    let message = standin.message(start.message_id().unwrap()).unwrap();
    let tap = fixtures::button_on(&ctx, &f5, &message);
    let moved = standin.try_interact_http(&b, &key, tap).await.unwrap();
    // The HTTP answer is the board frozen with the move (components only, no files).
    assert_eq!(first_call(&moved).kind, ReplyKind::Callback { type_: 7 }, "{moved}");
    assert!(moved.content().contains("You played **f5**") && moved.file(".png").is_some(), "{moved}");
    let record = Store::from_pool(pool.clone()).active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!(record.ply, 2);

    // A tap on the old board shows the game as it is now, privately, and changes nothing: the
    // HTTP answer itself, its buttons without the picture (which cannot ride on it).
    let again = fixtures::button_on(&ctx, &f5, &message);
    let refused = standin.try_interact_http(&a, &key, again).await.unwrap();
    assert_eq!(first_call(&refused).kind, ReplyKind::Callback { type_: 4 }, "{refused}");
    assert!(refused.is_ephemeral() && refused.files().is_empty(), "{refused}");
    assert!(refused.custom_ids().iter().any(|id| id.starts_with("t:1:2:p.")), "the game now:\n{refused}");
    let after = Store::from_pool(pool).active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!((after.ply, after.version), (record.ply, record.version));
    // Only the losers of the two processes' races to upload a tile (a name already taken).
    standin.assert_refused_only(|c| c.kind == ReplyKind::CreateApplicationEmoji);
}

/// Play by touch in HTTP mode (docs/design/touch.md): choosing an animal is answered in the HTTP
/// answer itself, an update in place that keeps the board's text and picture; the lit square
/// then plays the move.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn choosing_an_animal_in_http_mode_keeps_the_picture(pool: PgPool) {
    use settai::domain::{Change, Place, Scope};
    let standin = StandIn::start().await;
    let key = SigningKey::from_bytes(&[42; 32]);
    let url = endpoint_process(&standin, &pool, &key).await;
    standin.wait_commands(T).await;
    let store = Store::from_pool(pool.clone());
    let ctx = Ctx::en();
    let place = Place { guild_id: Some(ctx.guild_id), channel_id: ctx.channel_id, parent_id: None };
    let weakest = settai_core::Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest);
    store.change_setting(ctx.guild_id, &place, Scope::Server, Change::Level(weakest)).await.unwrap();
    let start = fixtures::slash(&ctx, "play", "doubutsu", json!([]));
    let started = standin.try_interact_http(&url, &key, start).await.unwrap();
    let board_id = started.message_id().unwrap();
    let board = standin.message(board_id).unwrap();
    assert!(board["attachments"].as_array().is_some_and(|a| !a.is_empty()), "{board}");
    let chick = started.custom_ids().into_iter().find(|id| id.ends_with(":c.B3")).expect("the chick");
    let chosen = standin.try_interact_http(&url, &key, fixtures::button_on(&ctx, &chick, &board)).await.unwrap();
    assert_eq!(chosen.calls.len(), 1, "one answer:\n{chosen}");
    assert_eq!(first_call(&chosen).kind, ReplyKind::Callback { type_: 7 }, "{chosen}");
    let lit = standin.message(board_id).unwrap();
    assert_eq!((&lit["attachments"], &lit["content"]), (&board["attachments"], &board["content"]), "kept");
    let rows = lit["components"].as_array().unwrap();
    let ids: Vec<&str> =
        rows.iter().flat_map(|r| r["components"].as_array().unwrap()).filter_map(|c| c["custom_id"].as_str()).collect();
    let play = ids.iter().find(|id| id.ends_with(":p.B3B2")).expect("B2 is lit");
    let moved = standin.try_interact_http(&url, &key, fixtures::button_on(&ctx, play, &lit)).await.unwrap();
    assert!(moved.content().contains("You played **B3B2**") && moved.file(".png").is_some(), "{moved}");
    assert_eq!(store.active_game(ctx.channel_id).await.unwrap().unwrap().ply, 2);
    standin.assert_none_refused();
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): a well-signed
/// request sent again within the signature's window (a replay) is answered without being handled
/// twice: a replayed `/play` after the game ended would otherwise start a new game, a replayed tap
/// would be answered as a stale board.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_replayed_request_is_answered_once_and_applied_once(pool: PgPool) {
    let standin = StandIn::start().await;
    let key = SigningKey::from_bytes(&[42; 32]);
    let url = endpoint_process(&standin, &pool, &key).await;
    standin.wait_commands(T).await;
    let store = Store::from_pool(pool.clone());
    let ctx = Ctx::en();
    let start = fixtures::slash(&ctx, "play", "reversi", json!([]));
    let signed_start = Signed::new(&key, &start);
    let started = standin.try_interact_http_signed(&url, &signed_start, start, Exchange::answered).await.unwrap();
    let f5 = started.custom_ids().into_iter().find(|id| id.ends_with(":p.f5")).expect("f5's number");
    let message = standin.message(started.message_id().unwrap()).unwrap();
    let tap = fixtures::button_on(&ctx, &f5, &message);
    let signed_tap = Signed::new(&key, &tap);
    let token = fixtures::token(&tap);
    // Done once the new board is posted and the old one's menu taken off.
    let stripped = |x: &Exchange| x.answered() && x.calls.iter().any(|c| c.kind == ReplyKind::EditOriginal);
    let moved = standin.try_interact_http_signed(&url, &signed_tap, tap, stripped).await.unwrap();
    assert!(moved.content().contains("You played **f5**"), "{moved}");
    let record = store.active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!(record.ply, 2);

    // The same bytes again: answered "already done", privately, and nothing else happens.
    let calls = standin.calls_for(&token).await.len();
    let replay = signed_tap.post(&url).await.unwrap();
    assert_eq!(replay.status().as_u16(), 200);
    let answer: Value = replay.json().await.unwrap();
    assert_eq!(answer["type"], 4, "{answer}");
    assert_eq!(answer["data"]["flags"], 64, "{answer}");
    assert_eq!(answer["data"]["content"], "This was already done.", "{answer}");
    let after = store.active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!((after.ply, after.version), (record.ply, record.version));

    // The game is resigned; the replayed /play does not start another one.
    let resign = fixtures::slash(&ctx, "play", "resign", json!([]));
    standin.try_interact_http(&url, &key, resign).await.unwrap();
    assert!(store.active_game(ctx.channel_id).await.unwrap().is_none());
    let replay = signed_start.post(&url).await.unwrap();
    assert_eq!(replay.status().as_u16(), 200);
    assert_eq!(replay.json::<Value>().await.unwrap()["data"]["content"], "This was already done.");
    assert!(store.active_game(ctx.channel_id).await.unwrap().is_none(), "the replay started no game");
    let games: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(&pool).await.unwrap();
    assert_eq!(games, 1);
    assert_eq!(standin.calls_for(&token).await.len(), calls, "the replayed tap made no call");
    standin.assert_none_refused();
}

/// Operations (docs/design/bot-reliability.md#operations): load balancers ask `/healthz` whether
/// this process can answer (no signature needed).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn healthz_says_ready_once_discord_and_the_database_answer(pool: PgPool) {
    let standin = StandIn::start().await;
    let key = SigningKey::from_bytes(&[42; 32]);
    let url = endpoint_process(&standin, &pool, &key).await;
    let health = url.replace("/interactions", "/healthz");
    let answer = reqwest::get(&health).await.expect("the endpoint is reachable");
    assert_eq!(answer.status().as_u16(), 200);
    assert_eq!(answer.text().await.unwrap().trim(), "ok");
    // Only GET: a POST there is not an interaction.
    let (status, _) = post(&health, b"{}", &[]).await;
    assert_eq!(status, 405);
    // Registering its commands at start is the endpoint's only call to Discord here.
    standin.wait_commands(T).await;
    standin.assert_none_refused();
}
