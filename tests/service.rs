//! The game flow against a real Postgres: refusals change nothing, the bot answers, games end.

use settai::domain::{Change, GameResult, GameStatus, Scope, Snapshot, StoredGame, Venue};
use settai::service::{Caller, PlayError, Played, Service, Turn};
use settai::store::Store;
use settai_core::{GameKind, Side};
use sqlx::PgPool;

#[path = "service/ai_pool.rs"]
mod ai_pool;
#[path = "service/owed_turns.rs"]
mod owed_turns;

const ALICE: u64 = 11;
const BOB: u64 = 12;

fn caller(user_id: u64) -> Caller {
    Caller {
        guild_id: Some(1),
        channel_id: 500,
        parent_id: None,
        user_id,
        name: format!("player {user_id}"),
        venue: Venue::Server,
    }
}

/// What a request in `caller`'s channel reads.
async fn read(service: &Service, caller: &Caller) -> Result<Snapshot, PlayError> {
    service.snapshot(&caller.place(), Some(caller.user_id)).await
}

/// The channel's active game, read as a request reads it.
async fn current(service: &Service, caller: &Caller) -> Result<StoredGame, PlayError> {
    read(service, caller).await?.game.ok_or(PlayError::NoGame)
}

async fn start(service: &Service, caller: &Caller, kind: GameKind, side: Side) -> Result<StoredGame, PlayError> {
    service.start(caller, &read(service, caller).await?, kind, side, None).await
}

/// The player's move checked and held, not stored yet ([`Service::finish_turn`] stores it).
async fn human_move(
    service: &Service,
    caller: &Caller,
    input: &str,
    expected: Option<(i64, u32)>,
) -> Result<Turn, PlayError> {
    service.human_move(caller, &read(service, caller).await?, input, expected).await
}

/// The player's move and the bot's reply, stored together.
async fn play(
    service: &Service,
    caller: &Caller,
    input: &str,
    expected: Option<(i64, u32)>,
) -> Result<Played, PlayError> {
    service.finish_turn(human_move(service, caller, input, expected).await?).await
}

async fn resign(service: &Service, caller: &Caller) -> Result<StoredGame, PlayError> {
    service.resign(caller, &read(service, caller).await?, None).await
}

/// The stored row of the channel's active game and its move count, straight from the database.
async fn stored(pool: &PgPool, channel: u64) -> (String, i32, i32, i64) {
    sqlx::query_as(
        "SELECT position_and_start, ply, version, (SELECT count(*) FROM moves WHERE game_id = games.id)
         FROM games WHERE channel_id = $1 AND status = 'active'",
    )
    .bind(channel as i64)
    .fetch_one(pool)
    .await
    .unwrap()
}

/// The stored notations of game `id`, in order.
async fn notations(pool: &PgPool, id: i64) -> Vec<String> {
    sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(id)
        .fetch_all(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn refusals_change_nothing(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    assert!(matches!(human_move(&service, &caller(ALICE), "f5", None).await, Err(PlayError::NoGame)));
    start(&service, &caller(ALICE), GameKind::Reversi, Side::First).await.unwrap();
    assert!(matches!(start(&service, &caller(BOB), GameKind::Reversi, Side::First).await, Err(PlayError::ChannelBusy)));
    let before = stored(&pool, 500).await;

    match human_move(&service, &caller(ALICE), "a1", None).await {
        Err(PlayError::BadMove { legal, .. }) => {
            assert_eq!(legal.iter().map(ToString::to_string).collect::<Vec<_>>(), ["d3", "c4", "f5", "e6"])
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
    assert!(matches!(human_move(&service, &caller(ALICE), "z9", None).await, Err(PlayError::BadMove { .. })));
    assert!(matches!(human_move(&service, &caller(ALICE), "", None).await, Err(PlayError::BadMove { .. })));
    assert!(matches!(
        human_move(&service, &caller(BOB), "f5", None).await,
        Err(PlayError::NotYourGame { owner: ALICE })
    ));
    let id = current(&service, &caller(ALICE)).await.unwrap().record.id;
    assert!(matches!(human_move(&service, &caller(ALICE), "f5", Some((id, 3))).await, Err(PlayError::Stale)));
    assert!(matches!(human_move(&service, &caller(ALICE), "f5", Some((id + 1, 0))).await, Err(PlayError::Stale)));
    assert_eq!(stored(&pool, 500).await, before);

    // The human's move is held, not stored, while the bot thinks; another move on the game
    // meanwhile is refused at once.
    let turn = human_move(&service, &caller(ALICE), " F5 ", Some((id, 0))).await.unwrap();
    assert_eq!(turn.played.mv.to_string(), "f5");
    assert_eq!(stored(&pool, 500).await, before, "a held move is not stored");
    assert!(matches!(human_move(&service, &caller(ALICE), "d3", None).await, Err(PlayError::AlreadyPlayed)));
    let bot = service.finish_turn(turn).await.unwrap();
    assert_eq!(bot.moves.len(), 2, "the human's move and the bot's");
    assert!(!bot.moves[0].by_bot && bot.moves[1].by_bot);
    assert!(matches!(human_move(&service, &caller(ALICE), "d6", Some((id, 0))).await, Err(PlayError::Stale)));
    assert!(bot.game.record.human_to_move());
    assert_eq!(bot.game.record.ply, 2);
    assert_eq!(bot.game.history().len(), 2, "the game carries its whole history");
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_bot_moves_first_when_the_human_takes_white(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    let game = start(&service, &caller(ALICE), GameKind::Reversi, Side::Second).await.unwrap();
    assert!(game.record.bot_to_move());
    assert_eq!(service.games_awaiting_bot().await.unwrap().len(), 1);
    let turn = service.bot_turn(game).await.unwrap();
    assert_eq!(turn.game.record.ply, 1);
    assert!(turn.game.record.human_to_move());
    assert!(service.games_awaiting_bot().await.unwrap().is_empty());
    // Read back as the next request reads it: the bot's move is the last one.
    let read_back = current(&service, &caller(ALICE)).await.unwrap();
    let last = read_back.last_move().unwrap();
    assert!(last.by_bot);
    assert_eq!(last.mv, turn.moves[0].mv);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_whole_game_ends_with_a_result(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    start(&service, &caller(ALICE), GameKind::Reversi, Side::First).await.unwrap();
    let mut plies = 0;
    loop {
        let Ok(game) = current(&service, &caller(ALICE)).await else { break };
        let record = &game.record;
        let mv = record.game.legal_moves().last().unwrap().to_string();
        play(&service, &caller(ALICE), &mv, Some((record.id, record.ply))).await.unwrap();
        plies += 1;
        assert!(plies < 64, "the game must end");
    }
    let store = Store::from_pool(pool.clone());
    let id: i64 = sqlx::query_scalar("SELECT id FROM games WHERE channel_id = 500").fetch_one(&pool).await.unwrap();
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
    let moves = notations(&pool, id).await;
    assert_eq!(settai_core::replay(GameKind::Reversi, &moves).unwrap(), game.game);
    assert_eq!(moves.len() as u32, game.ply);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn resigning_ends_the_game_for_the_owner_only(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    start(&service, &caller(ALICE), GameKind::Reversi, Side::First).await.unwrap();
    assert!(matches!(resign(&service, &caller(BOB)).await, Err(PlayError::NotYourGame { .. })));
    let done = resign(&service, &caller(ALICE)).await.unwrap().record;
    assert_eq!((done.status, done.result), (GameStatus::Resigned, Some(GameResult::Bot)));
    assert!(matches!(resign(&service, &caller(ALICE)).await, Err(PlayError::NoGame)));
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_tampered_move_list_is_detected(pool: PgPool) {
    let service = Service::new(Store::from_pool(pool.clone()));
    let record = start(&service, &caller(ALICE), GameKind::Reversi, Side::First).await.unwrap().record;
    play(&service, &caller(ALICE), "f5", Some((record.id, 0))).await.unwrap();
    sqlx::query("UPDATE moves SET notation = 'c4' WHERE game_id = $1 AND ply = 1")
        .bind(record.id)
        .execute(&pool)
        .await
        .unwrap();
    // Detected on the next read, whatever the request, reported as corrupt, and the game is
    // closed rather than trusted: the channel is free again.
    assert!(matches!(read(&service, &caller(BOB)).await, Err(PlayError::Corrupt)));
    assert!(matches!(current(&service, &caller(ALICE)).await, Err(PlayError::NoGame)));
    // Its row as it is (a game read by id is replayed from its moves, which no longer lead there).
    let stored: (String, i32) =
        sqlx::query_as("SELECT status, ply FROM games WHERE id = $1").bind(record.id).fetch_one(&pool).await.unwrap();
    assert_eq!(stored, ("void".to_string(), 2));
    start(&service, &caller(ALICE), GameKind::Reversi, Side::First).await.unwrap();
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
    let service = Service::new(Store::from_pool(pool.clone()));
    let prefix = prefix_forcing_a_human_pass();
    let record = start(&service, &caller(ALICE), GameKind::Reversi, Side::First).await.unwrap().record;
    let mut game = Game::new(GameKind::Reversi);
    let mut moves = Vec::new();
    for m in &prefix {
        let by_bot = game.to_move() == Some(Side::Second);
        let mv = game.parse_move(m).unwrap();
        game = game.play(mv).unwrap();
        moves.push(NewMove { mv, by_bot, user_id: (!by_bot).then_some(ALICE) });
    }
    Store::from_pool(pool.clone()).record_moves(&record, &moves, &game, None).await.unwrap();
    let stored_game = current(&service, &caller(ALICE)).await.unwrap();
    assert!(stored_game.record.bot_to_move());
    let turn = service.bot_turn(stored_game).await.unwrap();
    let summary: Vec<(bool, String)> = turn.moves.iter().map(|m| (m.by_bot, m.mv.to_string())).collect();
    assert!(summary.len() >= 2, "{summary:?}");
    assert!(summary[0].0, "the bot moves first: {summary:?}");
    assert_eq!(summary[1], (false, "pass".to_string()), "then the human passes: {summary:?}");
    assert!(turn.moves[1].mv.is_pass());
    let read_back = current(&service, &caller(ALICE)).await;
    let read_back = read_back.unwrap_or_else(|_| turn.game.clone());
    let pass = &read_back.moves[prefix.len() + 1];
    assert_eq!((pass.mv.to_string().as_str(), pass.by_bot, pass.user_id), ("pass", false, None));
    assert_eq!(notations(&pool, turn.game.record.id).await[prefix.len() + 1], "pass");
    assert!(turn.game.record.human_to_move() || turn.game.record.status != GameStatus::Active);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_whole_doubutsu_game_against_the_weakest_level_ends_by_the_rules(pool: PgPool) {
    use rand::{Rng, SeedableRng};
    let service = Service::new(Store::from_pool(pool.clone()));
    let place = caller(ALICE).place();
    let weakest = Change::Level(settai_core::Level::Doubutsu(settai_core::doubutsu::DoubutsuLevel::Weakest));
    service.change_setting(1, &place, Scope::Server, weakest).await.unwrap();
    let record = start(&service, &caller(ALICE), GameKind::Doubutsu, Side::First).await.unwrap().record;
    assert!(record.human_to_move());
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let id = record.id;
    for _ in 0..400 {
        let Ok(game) = current(&service, &caller(ALICE)).await else { break };
        let record = &game.record;
        let legal = record.game.legal_moves();
        let mv = legal[rng.gen_range(0..legal.len())].to_string();
        play(&service, &caller(ALICE), &mv, Some((record.id, record.ply))).await.unwrap();
    }
    let game = Store::from_pool(pool.clone()).game(id).await.unwrap().unwrap();
    assert_eq!(game.status, GameStatus::Finished, "the game ends (capture, try or repetition)");
    let outcome = game.game.outcome().unwrap();
    let expected = match outcome.winner {
        Some(Side::First) => GameResult::Human,
        Some(Side::Second) => GameResult::Bot,
        None => GameResult::Draw,
    };
    assert_eq!(game.result, Some(expected));
    let moves = notations(&pool, id).await;
    assert_eq!(settai_core::replay(GameKind::Doubutsu, &moves).unwrap(), game.game);
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn serve_leaves_the_terminals_game_alone(pool: PgPool) {
    use settai::domain::{TERMINAL_CHANNEL, TERMINAL_PLAYER};
    let service = Service::new(Store::from_pool(pool.clone()));
    let terminal = Caller {
        guild_id: None,
        channel_id: TERMINAL_CHANNEL,
        parent_id: None,
        user_id: TERMINAL_PLAYER,
        name: "me".into(),
        venue: Venue::BotDm,
    };
    let discord = caller(ALICE);
    let mut games = Vec::new();
    for caller in [&terminal, &discord] {
        games.push(start(&service, caller, GameKind::Reversi, Side::Second).await.unwrap());
    }
    // Both wait for the bot, a minute after a crash; only the Discord game is serve's to answer.
    sqlx::query("UPDATE games SET updated_at = now() - interval '1 minute'").execute(&pool).await.unwrap();
    let owed = service.games_awaiting_bot_for(std::time::Duration::from_secs(30)).await.unwrap();
    assert_eq!(owed.iter().map(|r| r.channel_id).collect::<Vec<_>>(), [discord.channel_id]);
    for game in games {
        assert!(service.bot_turn(game).await.unwrap().game.record.human_to_move());
    }

    // Both wait for their player for weeks: no reminder and no closing at the terminal.
    sqlx::query("UPDATE games SET updated_at = now() - interval '20 days'").execute(&pool).await.unwrap();
    let nudged = service.owed_nudges().await.unwrap();
    assert_eq!(nudged.iter().map(|(r, _)| r.channel_id).collect::<Vec<_>>(), [discord.channel_id]);
    let expired = service.expire_idle().await.unwrap();
    assert_eq!(expired.iter().map(|(r, _)| r.channel_id).collect::<Vec<_>>(), [discord.channel_id]);
    assert_eq!(current(&service, &terminal).await.unwrap().record.status, GameStatus::Active);
    assert!(matches!(current(&service, &discord).await, Err(PlayError::NoGame)));
}

/// Robustness (docs/design/bot-reliability.md#robustness): a game whose row does not read back,
/// among sound ones, never blinds a sweep. Each sweep (the turns the bot owes, the reminders, the
/// idle games) meets a bad row of its own: it still returns every sound game it found (the
/// idle sweep every game it closed, though it closed the bad one in the same statement), closes
/// the bad one as void, and counts it once.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn one_bad_row_never_blinds_the_sweeps(pool: PgPool) {
    let metrics = settai::metrics::Metrics::new();
    let service = Service::new(Store::from_pool(pool.clone())).with_figures(metrics.figures());
    let mut ids = std::collections::HashMap::new();
    // The bot is to move in 501 and 502; the player in the others.
    for (channel_id, side) in [(501, Side::Second), (502, Side::Second), (503, Side::First), (504, Side::First)]
        .into_iter()
        .chain([(505, Side::First), (506, Side::First), (507, Side::First)])
    {
        let here = Caller { channel_id, ..caller(ALICE) };
        ids.insert(channel_id, start(&service, &here, GameKind::Reversi, side).await.unwrap().record.id);
    }
    let waited = |channels: &[u64], interval: &str| {
        let games: Vec<i64> = channels.iter().map(|c| ids[c]).collect();
        let sql = format!("UPDATE games SET updated_at = now() - interval '{interval}' WHERE id = ANY($1)");
        let pool = pool.clone();
        async move { sqlx::query(&sql).bind(games).execute(&pool).await.unwrap() }
    };
    let spoil = |channel: u64| {
        let (id, pool) = (ids[&channel], pool.clone());
        async move {
            let sql = "UPDATE games SET position_and_start = 'garbage' WHERE id = $1";
            sqlx::query(sql).bind(id).execute(&pool).await.unwrap()
        }
    };
    let status = |channel: u64| {
        let (id, pool) = (ids[&channel], pool.clone());
        async move {
            let sql = "SELECT status FROM games WHERE id = $1";
            sqlx::query_scalar::<_, String>(sql).bind(id).fetch_one(&pool).await.unwrap()
        }
    };
    let counted = |sweep: &str, n: u32| {
        let scrape = metrics.encode().unwrap();
        let line = format!(r#"settai_corrupt_games_total{{sweep="{sweep}"}} {n}"#);
        assert!(scrape.lines().any(|l| l == line), "no line {line:?} in\n{scrape}");
    };
    let channels = |records: Vec<u64>| {
        let mut records = records;
        records.sort();
        records
    };
    waited(&[501, 502], "3 minutes").await;
    waited(&[503, 504], "25 hours").await;
    waited(&[505, 506, 507], "15 days").await;

    // The turns the bot owes: every active game is read.
    spoil(502).await;
    let owed = service.games_awaiting_bot_for(std::time::Duration::from_secs(120)).await.unwrap();
    assert_eq!(channels(owed.iter().map(|r| r.channel_id).collect()), [501]);
    assert_eq!(status(502).await, "void");
    counted("owed_turns", 1);

    // The reminders: the games waiting for their player a day and more.
    spoil(504).await;
    let nudged = service.owed_nudges().await.unwrap();
    // (505 to 507 are owed their final notice; the bot's games are not the player's to be told.)
    assert_eq!(channels(nudged.iter().map(|(r, _)| r.channel_id).collect()), [503, 505, 506, 507]);
    assert_eq!(status(504).await, "void");
    counted("reminders", 1);

    // The idle games: closed in one statement, the bad one too, then told apart.
    spoil(507).await;
    let expired = service.expire_idle().await.unwrap();
    assert_eq!(channels(expired.iter().map(|(r, _)| r.channel_id).collect()), [505, 506]);
    assert!(expired.iter().all(|(r, days)| r.status == GameStatus::Expired && *days == 14), "{expired:?}");
    assert_eq!(
        (status(505).await, status(506).await, status(507).await),
        ("expired".into(), "expired".into(), "void".into())
    );
    counted("idle", 1);

    // Closed, the bad games are read by no sweep again: each was counted (and logged) once.
    assert!(service.expire_idle().await.unwrap().is_empty());
    assert_eq!(channels(service.owed_nudges().await.unwrap().iter().map(|(r, _)| r.channel_id).collect()), [503]);
    assert_eq!(service.games_awaiting_bot().await.unwrap().len(), 1);
    for sweep in ["owed_turns", "reminders", "idle"] {
        counted(sweep, 1);
    }
}
