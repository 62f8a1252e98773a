//! Operations (docs/design/operations.md): what a host sees on `SETTAI_METRICS_ADDR` while the
//! real bot plays through the stand-in: the figures scraped over HTTP with their labels,
//! `/healthz`, and `/readyz` ready only while the database and the gateway (or the interactions
//! endpoint) serve.

use std::sync::Arc;
use std::time::Duration;

use settai::discord::endpoint::{self, Signatures};
use settai::discord::Connection;
use settai::metrics::Metrics;
use settai::service::Service;
use settai::store::Store;
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

use super::support::fixtures::Ctx;
use super::support::{ReplyKind, StandIn};
use super::{play_move, play_reversi, Bot, T};

/// Serves `metrics` on a fresh local port, as `serve` does; its base URL.
async fn metrics_port(metrics: &Arc<Metrics>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(settai::metrics::serve(listener, metrics.clone(), std::future::pending()));
    url
}

/// `GET url`: (status, body).
async fn get(url: &str) -> (u16, String) {
    let answer = reqwest::get(url).await.unwrap_or_else(|e| panic!("{url}: {e}"));
    (answer.status().as_u16(), answer.text().await.unwrap())
}

/// Asks `url` until its answer satisfies `done` (something the bot does just after what the
/// test waited for, e.g. a shard's stage set once READY is handled); panics after [`T`].
async fn get_until(url: &str, done: impl Fn(u16, &str) -> bool) -> (u16, String) {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let (status, body) = get(url).await;
        if done(status, &body) {
            return (status, body);
        }
        assert!(tokio::time::Instant::now() < deadline, "{url} never answered as expected: {status}\n{body}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The value of the series `series` (name and labels, as written) in a scrape.
fn value(scrape: &str, series: &str) -> Option<f64> {
    scrape.lines().find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

fn assert_value(scrape: &str, series: &str, expected: f64) {
    assert_eq!(value(scrape, series), Some(expected), "{series} in\n{scrape}");
}

/// The counters and histograms move with the games played, labelled by what was asked, the game
/// and the level; the gauges read at the scrape tell the database, the AI pool, the table and
/// the gateway; `/readyz` says ready only once the bot serves.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_scrape_shows_the_games_played_and_the_bot_ready(pool: PgPool) {
    let metrics = Arc::new(Metrics::new());
    let url = metrics_port(&metrics).await;
    // Up before anything else, and not ready: nothing serves yet.
    assert_eq!(get(&format!("{url}/healthz")).await, (200, "ok\n".to_string()));
    let (status, body) = get(&format!("{url}/readyz")).await;
    assert!(status == 503 && body.contains("not serving yet"), "{status} {body}");

    let bot = Bot::builder(pool).metrics(metrics.clone()).heartbeat(Duration::from_millis(100)).start().await;
    get_until(&format!("{url}/readyz"), |status, _| status == 200).await;
    let ctx = Ctx::en();
    bot.standin.interact(play_reversi(&ctx)).await;
    let moved = bot.standin.interact(play_move(&ctx, "f5")).await;
    assert!(!moved.is_ephemeral(), "{moved}");
    let refused = bot.standin.interact(play_move(&ctx, "a1")).await;
    assert!(refused.is_ephemeral(), "{refused}");

    // The game waited 25 hours for its player: one reminder.
    let since = bot.standin.cursor();
    sqlx::query("UPDATE games SET updated_at = now() - interval '25 hours' WHERE channel_id = $1")
        .bind(ctx.channel_id as i64)
        .execute(bot.store.pool())
        .await
        .unwrap();
    let channel_id = ctx.channel_id;
    bot.standin.wait_call(since, T, |c| c.ok() && c.kind == ReplyKind::ChannelMessage { channel_id }).await;

    // Counted just after the post; the latency is known after the first heartbeat's answer.
    let reminded = r#"settai_reminders_sent_total{kind="reminder"}"#;
    let latency = r#"settai_gateway_latency_seconds{shard="0"}"#;
    let (status, scrape) =
        get_until(&format!("{url}/metrics"), |_, s| value(s, reminded) == Some(1.0) && value(s, latency).is_some())
            .await;
    assert_eq!(status, 200);
    let labels = r#"game="reversi",level="standard""#;
    assert_value(&scrape, &format!(r#"settai_interactions_total{{kind="start",{labels},outcome="ok"}}"#), 1.0);
    assert_value(&scrape, &format!(r#"settai_interactions_total{{kind="move",{labels},outcome="ok"}}"#), 1.0);
    assert_value(&scrape, &format!(r#"settai_interactions_total{{kind="move",{labels},outcome="refused"}}"#), 1.0);
    assert_value(&scrape, &format!(r#"settai_ack_seconds_count{{kind="move",{labels}}}"#), 2.0);
    let acked = value(&scrape, &format!(r#"settai_ack_seconds_sum{{kind="move",{labels}}}"#)).unwrap();
    assert!(acked > 0.0 && acked < 6.0, "two first responses within Discord's 3 s: {acked}");
    // The bot answered f5 with one move, on the AI pool.
    assert_value(&scrape, &format!("settai_think_seconds_count{{{labels}}}"), 1.0);
    assert!(value(&scrape, &format!("settai_think_seconds_sum{{{labels}}}")).unwrap() > 0.0);
    for (series, expected) in [
        (r#"settai_active_games{game="reversi"}"#, 1.0),
        (r#"settai_active_games{game="doubutsu"}"#, 0.0),
        ("settai_ai_queue_depth", 0.0),
        (r#"settai_ai_refusals_total{reason="pool_full"}"#, 0.0),
        (r#"settai_ai_refusals_total{reason="server_share"}"#, 0.0),
        ("settai_db_errors_total", 0.0),
        (r#"settai_doubutsu_table_state{state="unavailable"}"#, 1.0),
        (r#"settai_doubutsu_table_state{state="ready"}"#, 0.0),
        (r#"settai_gateway_shard_up{shard="0"}"#, 1.0),
        ("settai_ready", 1.0),
    ] {
        assert_value(&scrape, series, expected);
    }
    assert!(value(&scrape, "settai_db_max_connections").is_some_and(|n| n >= 1.0), "{scrape}");
    assert!(value(&scrape, latency).is_some_and(|s| (0.0..5.0).contains(&s)), "{scrape}");
    assert!(scrape.contains("# TYPE settai_think_seconds histogram"), "{scrape}");
    bot.stop().await;
}

/// With its database out of reach (a pool pointed at a port nobody listens on) the bot still
/// connects to Discord and answers, but is not ready, and says why; the failed request counts
/// as an error of the database's.
#[tokio::test]
async fn not_ready_while_the_database_is_out_of_reach() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let unreachable = PgPoolOptions::new()
        .acquire_timeout(Duration::from_millis(500))
        .connect_lazy(&format!("postgres://postgres@127.0.0.1:{closed}/settai"))
        .unwrap();
    let metrics = Arc::new(Metrics::new());
    let url = metrics_port(&metrics).await;
    let bot = Bot::builder(unreachable).metrics(metrics.clone()).start().await;
    let shard_up = r#"settai_gateway_shard_up{shard="0"} 1"#;
    get_until(&format!("{url}/metrics"), |_, s| s.lines().any(|l| l == shard_up)).await;
    let (status, body) = get(&format!("{url}/readyz")).await;
    assert!(status == 503 && body.contains("the database"), "{status} {body}");
    assert!(!body.contains("gateway"), "the gateway is fine: {body}");
    assert_eq!(get(&format!("{url}/healthz")).await.0, 200, "the process itself answers");

    let ctx = Ctx::en();
    let x = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(x.is_ephemeral(), "{x}");
    let (_, scrape) = get(&format!("{url}/metrics")).await;
    assert_value(&scrape, r#"settai_interactions_total{kind="start",game="none",level="none",outcome="error"}"#, 1.0);
    // The sweeps, which fail too while it is out of reach, count theirs besides.
    assert!(value(&scrape, "settai_db_errors_total").is_some_and(|n| n >= 1.0), "{scrape}");
    assert_value(&scrape, "settai_ready", 0.0);
    bot.stop().await;
}

/// In HTTP interactions mode the bot is ready once its endpoint listens (and the database
/// answers); no gateway is asked.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_http_endpoint_is_ready_once_it_listens(pool: PgPool) {
    let standin = StandIn::start().await;
    let metrics = Arc::new(Metrics::new());
    let url = metrics_port(&metrics).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let connection = Connection {
        token: StandIn::TOKEN.into(),
        guild_id: None,
        api_base: Some(standin.api_base()),
        api_certificate: Some(StandIn::certificate()),
        idle_sweep: Duration::from_secs(3600),
        shards: None,
    };
    let key = ed25519_dalek::SigningKey::from_bytes(&[42; 32]);
    let hex: String = key.verifying_key().as_bytes().iter().map(|b| format!("{b:02x}")).collect();
    let service = Service::new(Store::from_pool(pool)).with_figures(metrics.figures());
    tokio::spawn(endpoint::serve(listener, connection, Signatures::new(&hex).unwrap(), service));
    let (_, scrape) = get_until(&format!("{url}/metrics"), |_, s| value(s, "settai_ready") == Some(1.0)).await;
    assert!(!scrape.contains("settai_gateway_shard_up"), "no gateway in HTTP mode:\n{scrape}");
    assert_eq!(get(&format!("{url}/readyz")).await, (200, "ready\n".to_string()));
    // Registering its commands at start is the endpoint's only call to Discord here.
    standin.wait_commands(T).await;
    standin.assert_none_refused();
}
