//! The game flow against a real Postgres: refusals change nothing, the bot answers, games end.

use settai::domain::{Change, GameResult, GameStatus, Scope};
use settai::service::{PlayError, Seat, Service};
use settai::store::Store;
use settai_core::{GameKind, Side};
use sqlx::PgPool;

const ALICE: u64 = 11;
const BOB: u64 = 12;

fn seat(user_id: u64) -> Seat {
    Seat { guild_id: Some(1), channel_id: 500, parent_id: None, user_id, name: format!("player {user_id}") }
}

async fn snapshot(service: &Service, channel: u64) -> (String, u32, i32, usize) {
    let r = service.store().active_game(channel).await.unwrap().unwrap();
    let moves = service.store().moves(r.id).await.unwrap().len();
    (r.game.encode(), r.ply, r.version, moves)
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn refusals_change_nothing(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool));
    assert!(matches!(service.human_move(&seat(ALICE), "f5", None).await, Err(PlayError::NoGame)));
    service.start(&seat(ALICE), GameKind::Reversi, Side::First, None).await.unwrap();
    assert!(matches!(
        service.start(&seat(BOB), GameKind::Reversi, Side::First, None).await,
        Err(PlayError::ChannelBusy)
    ));
    let before = snapshot(&service, 500).await;

    match service.human_move(&seat(ALICE), "a1", None).await {
        Err(PlayError::BadMove { legal, .. }) => {
            assert_eq!(legal.iter().map(ToString::to_string).collect::<Vec<_>>(), ["d3", "c4", "f5", "e6"])
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
    assert!(matches!(service.human_move(&seat(ALICE), "z9", None).await, Err(PlayError::BadMove { .. })));
    assert!(matches!(service.human_move(&seat(ALICE), "", None).await, Err(PlayError::BadMove { .. })));
    assert!(matches!(service.human_move(&seat(BOB), "f5", None).await, Err(PlayError::NotYourGame { owner: ALICE })));
    let id = service.current(500).await.unwrap().id;
    assert!(matches!(service.human_move(&seat(ALICE), "f5", Some((id, 3))).await, Err(PlayError::Stale)));
    assert!(matches!(service.human_move(&seat(ALICE), "f5", Some((id + 1, 0))).await, Err(PlayError::Stale)));
    assert_eq!(snapshot(&service, 500).await, before);

    // After the human's move and before the bot's reply, it is not the human's turn.
    let turn = service.human_move(&seat(ALICE), " F5 ", Some((id, 0))).await.unwrap();
    assert_eq!(turn.moves[0].mv.to_string(), "f5");
    assert!(matches!(service.human_move(&seat(ALICE), "d6", None).await, Err(PlayError::NotYourTurn)));
    let reply = service.bot_reply(turn.record).await.unwrap();
    assert_eq!(reply.moves.len(), 1);
    assert!(reply.moves[0].by_bot);
    assert!(reply.record.human_to_move());
    assert_eq!(reply.record.ply, 2);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_bot_moves_first_when_the_human_takes_white(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool));
    let record = service.start(&seat(ALICE), GameKind::Reversi, Side::Second, None).await.unwrap();
    assert!(record.bot_to_move());
    assert_eq!(service.games_awaiting_bot().await.unwrap().len(), 1);
    let turn = service.bot_reply(record).await.unwrap();
    assert_eq!(turn.record.ply, 1);
    assert!(turn.record.human_to_move());
    assert!(service.games_awaiting_bot().await.unwrap().is_empty());
    let last = service.last_move(&turn.record).await.unwrap().unwrap();
    assert!(last.by_bot);
    assert_eq!(last.mv, turn.moves[0].mv);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_whole_game_ends_with_a_result(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool));
    service.start(&seat(ALICE), GameKind::Reversi, Side::First, None).await.unwrap();
    let mut plies = 0;
    loop {
        let record = service.current(500).await;
        let Ok(record) = record else { break };
        let mv = record.game.legal_moves().last().unwrap().to_string();
        let turn = service.human_move(&seat(ALICE), &mv, Some((record.id, record.ply))).await.unwrap();
        service.bot_reply(turn.record).await.unwrap();
        plies += 1;
        assert!(plies < 64, "the game must end");
    }
    let store = service.store();
    let id: i64 =
        sqlx::query_scalar("SELECT id FROM games WHERE channel_id = 500").fetch_one(store.pool()).await.unwrap();
    let game = store.game(id).await.unwrap().unwrap();
    assert_eq!(game.status, GameStatus::Finished);
    let outcome = game.game.outcome().unwrap();
    let expected = match outcome.winner {
        Some(Side::First) => GameResult::Human,
        Some(Side::Second) => GameResult::Bot,
        None => GameResult::Draw,
    };
    assert_eq!(game.result, Some(expected));
    // The stored move list replays to the stored position.
    let moves: Vec<String> = store.moves(id).await.unwrap().into_iter().map(|m| m.notation).collect();
    assert_eq!(settai_core::replay(GameKind::Reversi, &moves).unwrap(), game.game);
    assert_eq!(moves.len() as u32, game.ply);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn resigning_ends_the_game_for_the_owner_only(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool));
    service.start(&seat(ALICE), GameKind::Reversi, Side::First, None).await.unwrap();
    assert!(matches!(service.resign(&seat(BOB), None).await, Err(PlayError::NotYourGame { .. })));
    let done = service.resign(&seat(ALICE), None).await.unwrap();
    assert_eq!((done.status, done.result), (GameStatus::Resigned, Some(GameResult::Bot)));
    assert!(matches!(service.resign(&seat(ALICE), None).await, Err(PlayError::NoGame)));
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_tampered_move_list_is_detected(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    let record = service.start(&seat(ALICE), GameKind::Reversi, Side::First, None).await.unwrap();
    let turn = service.human_move(&seat(ALICE), "f5", Some((record.id, 0))).await.unwrap();
    sqlx::query("UPDATE moves SET notation = 'c4' WHERE game_id = $1 AND ply = 1")
        .bind(record.id)
        .execute(&pool)
        .await
        .unwrap();
    // Detected, reported as corrupt, and the game is closed rather than trusted.
    assert!(matches!(service.last_move(&turn.record).await, Err(PlayError::Corrupt)));
    assert!(matches!(service.current(500).await, Err(PlayError::NoGame)));
    let stored = service.store().game(record.id).await.unwrap().unwrap();
    assert_eq!((stored.status, stored.ply), (GameStatus::Void, 1));
}

/// A seeded random game reaching a position where white (the bot) is to move and every white move
/// leaves black without a move, so the human's pass is forced whatever the bot plays.
fn prefix_forcing_a_human_pass() -> Vec<String> {
    use rand::{Rng, SeedableRng};
    use settai_core::reversi::{Color, Move, Position};
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for _ in 0..50_000 {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            if pos.turn() == Color::White && pos.legal_mask() != 0 {
                let forced = pos.legal_moves().iter().all(|&m| {
                    let next = pos.play(m).unwrap();
                    !next.is_game_over() && next.legal_moves() == [Move::Pass]
                });
                if forced {
                    return moves;
                }
            }
            let legal = pos.legal_moves();
            let m = legal[rng.gen_range(0..legal.len())];
            pos = pos.play(m).unwrap();
            moves.push(m.to_string());
        }
    }
    panic!("no position forcing a human pass found");
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_human_without_moves_passes_automatically(pool: PgPool) {
    use settai::domain::NewMove;
    use settai_core::Game;
    let service = Service::new(Store::from_pool(pool));
    let prefix = prefix_forcing_a_human_pass();
    let record = service.start(&seat(ALICE), GameKind::Reversi, Side::First, None).await.unwrap();
    let mut game = Game::new(GameKind::Reversi);
    let mut moves = Vec::new();
    for m in &prefix {
        let by_bot = game.to_move() == Some(Side::Second);
        let mv = game.parse_move(m).unwrap();
        game = game.play(mv).unwrap();
        moves.push(NewMove { mv, by_bot, user_id: (!by_bot).then_some(ALICE) });
    }
    let record = service.store().record_moves(&record, &moves, &game, None).await.unwrap();
    assert!(record.bot_to_move());
    let turn = service.bot_reply(record).await.unwrap();
    let summary: Vec<(bool, String)> = turn.moves.iter().map(|m| (m.by_bot, m.mv.to_string())).collect();
    assert!(summary.len() >= 2, "{summary:?}");
    assert!(summary[0].0, "the bot moves first: {summary:?}");
    assert_eq!(summary[1], (false, "pass".to_string()), "then the human passes: {summary:?}");
    assert!(turn.moves[1].mv.is_pass());
    let stored = service.store().moves(turn.record.id).await.unwrap();
    let pass = &stored[prefix.len() + 1];
    assert_eq!((pass.notation.as_str(), pass.by_bot, pass.user_id), ("pass", false, None));
    assert!(turn.record.human_to_move() || turn.record.status != settai::domain::GameStatus::Active);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_whole_doubutsu_game_against_the_weakest_level_ends_by_the_rules(pool: PgPool) {
    use rand::{Rng, SeedableRng};
    let service = Service::new(Store::from_pool(pool));
    let place = seat(ALICE).place();
    let weakest = Change::Level(settai_core::Level::Doubutsu(settai_core::doubutsu::Level::Weakest));
    service.store().change_setting(1, &place, Scope::Server, weakest).await.unwrap();
    let record = service.start(&seat(ALICE), GameKind::Doubutsu, Side::First, None).await.unwrap();
    assert!(record.human_to_move());
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let id = record.id;
    for _ in 0..400 {
        let Ok(record) = service.current(500).await else { break };
        let legal = record.game.legal_moves();
        let mv = legal[rng.gen_range(0..legal.len())].to_string();
        let turn = service.human_move(&seat(ALICE), &mv, Some((record.id, record.ply))).await.unwrap();
        service.bot_reply(turn.record).await.unwrap();
    }
    let game = service.store().game(id).await.unwrap().unwrap();
    assert_eq!(game.status, GameStatus::Finished, "the game ends (capture, try or repetition)");
    let outcome = game.game.outcome().unwrap();
    let expected = match outcome.winner {
        Some(Side::First) => GameResult::Human,
        Some(Side::Second) => GameResult::Bot,
        None => GameResult::Draw,
    };
    assert_eq!(game.result, Some(expected));
    let moves: Vec<String> = service.store().moves(id).await.unwrap().into_iter().map(|m| m.notation).collect();
    assert_eq!(settai_core::replay(GameKind::Doubutsu, &moves).unwrap(), game.game);
}

/// Robustness (docs/design/bot-reliability.md#robustness): when the AI pool is full, a new move is
/// refused as busy before anything is stored (so every accepted move gets its reply), and accepted
/// again once the pool drains.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_full_ai_pool_refuses_new_moves_before_storing_them(pool: PgPool) {
    // One search at a time and one request in the pool: a single reply fills it.
    let service = Service::new(Store::from_pool(pool)).with_ai_capacity(1, 1);
    let place = seat(ALICE).place();
    let strong = Change::Level(settai_core::Level::Reversi(settai_core::reversi::Level::None)); // thinks 2.4 s a move
    service.store().change_setting(1, &place, Scope::Server, strong).await.unwrap();
    let bob = Seat { channel_id: 501, ..seat(BOB) };
    service.start(&seat(ALICE), GameKind::Reversi, Side::First, None).await.unwrap();
    service.start(&bob, GameKind::Reversi, Side::First, None).await.unwrap();
    let alice = service.human_move(&seat(ALICE), "f5", None).await.unwrap();
    // The reply enters the pool once it has read the game's moves: driven until that event
    // (never for a quiet period), then it runs on by itself.
    let mut thinking = Box::pin({
        let service = service.clone();
        async move { service.bot_reply(alice.record).await }
    });
    let entered = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        while !service.ai_is_full() {
            assert!(futures::poll!(&mut thinking).is_pending(), "a 2.4 s search is still thinking");
            tokio::task::yield_now().await;
        }
    });
    entered.await.expect("the reply enters the AI pool");
    let thinking = tokio::spawn(thinking);
    let before = snapshot(&service, 501).await;
    assert!(matches!(service.human_move(&bob, "f5", None).await, Err(PlayError::Busy)));
    assert!(matches!(
        service.start(&Seat { channel_id: 502, ..seat(BOB) }, GameKind::Reversi, Side::First, None).await,
        Err(PlayError::Busy)
    ));
    assert_eq!(snapshot(&service, 501).await, before, "nothing was stored");
    assert!(service.current(502).await.is_err(), "no game was created");
    assert_eq!(thinking.await.unwrap().unwrap().record.ply, 2, "the accepted move got its reply");
    let turn = service.human_move(&bob, "f5", None).await.unwrap();
    assert_eq!(turn.record.ply, 1);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn serve_leaves_the_terminals_game_alone(pool: PgPool) {
    use settai::domain::{TERMINAL_CHANNEL, TERMINAL_PLAYER};
    let service = Service::new(Store::from_pool(pool.clone()));
    let terminal = Seat {
        guild_id: None,
        channel_id: TERMINAL_CHANNEL,
        parent_id: None,
        user_id: TERMINAL_PLAYER,
        name: "me".into(),
    };
    let discord = seat(ALICE);
    let mut games = Vec::new();
    for seat in [&terminal, &discord] {
        games.push(service.start(seat, GameKind::Reversi, Side::Second, None).await.unwrap());
    }
    // Both wait for the bot, a minute after a crash; only the Discord game is serve's to answer.
    sqlx::query("UPDATE games SET updated_at = now() - interval '1 minute'").execute(&pool).await.unwrap();
    let owed = service.games_awaiting_bot_for(std::time::Duration::from_secs(30)).await.unwrap();
    assert_eq!(owed.iter().map(|r| r.channel_id).collect::<Vec<_>>(), [discord.channel_id]);
    for record in games {
        assert!(service.bot_reply(record).await.unwrap().record.human_to_move());
    }

    // Both wait for their player for weeks: no reminder and no closing at the terminal.
    sqlx::query("UPDATE games SET updated_at = now() - interval '20 days'").execute(&pool).await.unwrap();
    let nudged = service.owed_nudges().await.unwrap();
    assert_eq!(nudged.iter().map(|(r, _)| r.channel_id).collect::<Vec<_>>(), [discord.channel_id]);
    let expired = service.expire_idle().await.unwrap();
    assert_eq!(expired.iter().map(|(r, _)| r.channel_id).collect::<Vec<_>>(), [discord.channel_id]);
    assert_eq!(service.current(TERMINAL_CHANNEL).await.unwrap().status, GameStatus::Active);
    assert!(matches!(service.current(discord.channel_id).await, Err(PlayError::NoGame)));
}
