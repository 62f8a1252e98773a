//! The AI pool's bounds, seen through the service: a full pool refuses a move before anything
//! is stored, and one server's flood neither delays nor shuts out another.

use settai::domain::{Change, Scope};
use settai::service::{Caller, PlayError, Service};
use settai::store::Store;
use settai_core::{GameKind, Side};
use sqlx::PgPool;

use super::{caller, current, human_move, play, start, stored, ALICE, BOB};

/// Robustness (docs/design/bot-reliability.md#robustness): when the AI pool is full, a new move is
/// refused as busy before anything is stored (so every accepted move gets the bot's turn), and accepted
/// again once the pool drains.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_full_ai_pool_refuses_new_moves_before_storing_them(pool: PgPool) {
    // One search at a time and one request in the pool: a single bot turn fills it.
    let service = Service::new(Store::from_pool(pool.clone())).with_ai_capacity(1, 1);
    let place = caller(ALICE).place();
    let strong = Change::Level(settai_core::Level::Reversi(settai_core::reversi::ReversiLevel::NoMercy)); // thinks 2.4 s a move
    service.change_setting(1, &place, Scope::Server, strong).await.unwrap();
    let bob = Caller { channel_id: 501, ..caller(BOB) };
    start(&service, &caller(ALICE), GameKind::Reversi, Side::First).await.unwrap();
    start(&service, &bob, GameKind::Reversi, Side::First).await.unwrap();
    let alice = human_move(&service, &caller(ALICE), "f5", None).await.unwrap();
    // The bot's turn enters the pool at once (the game it answers was read with its moves): driven until that event
    // (never for a quiet period), then it runs on by itself.
    let mut thinking = Box::pin({
        let service = service.clone();
        async move { service.finish_turn(alice).await }
    });
    let entered = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        while !service.ai_is_full() {
            assert!(futures::poll!(&mut thinking).is_pending(), "a 2.4 s search is still thinking");
            tokio::task::yield_now().await;
        }
    });
    entered.await.expect("the bot's turn enters the AI pool");
    let thinking = tokio::spawn(thinking);
    let before = stored(&pool, 501).await;
    assert!(matches!(human_move(&service, &bob, "f5", None).await, Err(PlayError::Busy)));
    assert!(matches!(
        start(&service, &Caller { channel_id: 502, ..caller(BOB) }, GameKind::Reversi, Side::First).await,
        Err(PlayError::Busy)
    ));
    assert_eq!(stored(&pool, 501).await, before, "nothing was stored");
    assert!(current(&service, &Caller { channel_id: 502, ..caller(BOB) }).await.is_err(), "no game was created");
    assert_eq!(thinking.await.unwrap().unwrap().game.record.ply, 2, "the accepted move got the bot's turn");
    let turn = play(&service, &bob, "f5", None).await.unwrap();
    assert_eq!(turn.game.record.ply, 2);
}

/// Plays f5 for `who` and lets the bot's turn run on by itself, sending `who`'s channel on
/// `finished` once it is stored; returns when that turn has entered the AI pool (an event: the
/// pool's depth grows; the searches before it think 2.4 s, so none ends meanwhile).
async fn move_and_queue(
    service: &Service,
    who: &Caller,
    finished: &tokio::sync::mpsc::UnboundedSender<u64>,
) -> Result<(), PlayError> {
    let depth = service.ai_queue_depth();
    let moved = human_move(service, who, "f5", None).await?;
    let (turn_service, finished, channel) = (service.clone(), finished.clone(), who.channel_id);
    let turn = tokio::spawn(async move {
        let turn = turn_service.finish_turn(moved).await.unwrap();
        assert_eq!(turn.game.record.ply, 2, "the bot answered in channel {channel}");
        finished.send(channel).unwrap();
    });
    let entered = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        while service.ai_queue_depth() <= depth {
            assert!(!turn.is_finished(), "the searches before it are still thinking");
            tokio::task::yield_now().await;
        }
    });
    entered.await.expect("the bot's turn enters the AI pool");
    Ok(())
}

/// Fairness under load (docs/design/operations.md#fairness): one server floods the bot while
/// another plays. One AI thread and a backlog of 16, so a server may hold 4: the flooding
/// server's fifth move is refused as busy (nothing stored) while the other server's move is
/// admitted, and that one is answered right after the search that was running, ahead of the
/// flood's three waiting ones; once the flood is answered, the flooding server plays again.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_flood_from_one_server_neither_delays_nor_shuts_out_another(pool: PgPool) {
    let metrics = settai::metrics::Metrics::new();
    let service = Service::new(Store::from_pool(pool.clone())).with_ai_capacity(1, 16).with_figures(metrics.figures());
    let flooder = |channel_id| Caller { guild_id: Some(1), channel_id, ..caller(ALICE) };
    let other = Caller { guild_id: Some(2), channel_id: 600, ..caller(BOB) };
    let strong = Change::Level(settai_core::Level::Reversi(settai_core::reversi::ReversiLevel::NoMercy)); // thinks 2.4 s a move
    for (guild, place) in [(1, flooder(500).place()), (2, other.place())] {
        service.change_setting(guild, &place, Scope::Server, strong).await.unwrap();
    }
    let flood: Vec<Caller> = (500..505).map(flooder).collect();
    for who in flood.iter().chain([&other]) {
        start(&service, who, GameKind::Reversi, Side::First).await.unwrap();
    }

    let (finished, mut answered) = tokio::sync::mpsc::unbounded_channel();
    for who in &flood[..4] {
        move_and_queue(&service, who, &finished).await.unwrap();
    }
    let before = stored(&pool, 504).await;
    assert!(matches!(human_move(&service, &flood[4], "f5", None).await, Err(PlayError::Busy)), "past its share");
    assert_eq!(stored(&pool, 504).await, before, "nothing was stored");
    assert!(!service.ai_is_full(), "the pool itself has room");
    move_and_queue(&service, &other, &finished).await.expect("another server is admitted");
    drop(finished); // a turn that fails drops its sender: the wait below ends instead of hanging

    let mut order = Vec::new();
    while order.len() < 5 {
        order.push(answered.recv().await.expect("every admitted turn is answered"));
    }
    assert_eq!(order, [500, 600, 501, 502, 503], "the other server's move is served after the running search");
    let scrape = metrics.encode().unwrap();
    for line in
        [r#"settai_ai_refusals_total{reason="server_share"} 1"#, r#"settai_ai_refusals_total{reason="pool_full"} 0"#]
    {
        assert!(scrape.lines().any(|l| l == line), "no line {line:?} in\n{scrape}");
    }
    assert_eq!(human_move(&service, &flood[4], "f5", None).await.unwrap().game.record.ply, 0, "its turn again");
}
