//! The service against a real database, where a test needs what only a test build has (a level
//! that panics on purpose), and the take-back's offer over a request's moves. The rest of the flow
//! is tested from outside, in `tests/service.rs`.

use sqlx::PgPool;

use super::{AiFailure, Caller, PlayError, Service};
use crate::domain::{Change, Place, Scope, Venue};
use crate::store::Store;
use settai_core::{doubutsu::DoubutsuLevel, reversi::ReversiLevel, GameKind, Level, Side};

/// An AI task that panics, on the pool of searches (reversi `standard`) or on the runtime's
/// blocking threads (a doubutsu lookup), gives the request the polite `PlayError::Ai` and
/// stores nothing, not even the player's move; the game is as it was, so the same tap on a
/// sound process plays (docs/design/bot-reliability.md#robustness).
#[sqlx::test(migrator = "crate::store::MIGRATOR")]
async fn a_search_that_panics_is_an_answer_and_stores_nothing(pool: PgPool) {
    let store = Store::from_pool(pool);
    let cases = [
        (GameKind::Reversi, Level::Reversi(ReversiLevel::Standard), "f5"),
        (GameKind::Doubutsu, Level::Doubutsu(DoubutsuLevel::Weakest), "B3B2"),
    ];
    for (i, (kind, level, first)) in cases.into_iter().enumerate() {
        let caller = Caller {
            guild_id: Some(1),
            channel_id: 10 + i as u64,
            parent_id: None,
            user_id: 7,
            name: "Mika".into(),
            venue: Venue::Server,
        };
        let place: Place = caller.place();
        store.change_setting(1, &place, Scope::Channel, Change::Level(level)).await.unwrap();
        let mut service = Service::new(store.clone());
        service.think_panics = true;
        assert!(level.thinks_long() == (kind == GameKind::Reversi), "both ways of thinking are covered");
        let snapshot = service.snapshot(&place, Some(caller.user_id)).await.unwrap();
        service.start(&caller, &snapshot, kind, Side::First, None).await.unwrap();
        let snapshot = service.snapshot(&place, Some(caller.user_id)).await.unwrap();
        let turn = service.human_move(&caller, &snapshot, first, None).await.unwrap();
        let id = turn.game.record.id;
        let failed = service.finish_turn(turn).await;
        assert!(matches!(failed, Err(PlayError::Ai(AiFailure::Panicked(_)))), "{kind}: {failed:?}");
        assert!(store.moves(id).await.unwrap().is_empty(), "{kind}: nothing is stored");
        assert_eq!(store.game(id).await.unwrap().unwrap().ply, 0);
        // The same process, its bug gone: the same move is played and answered.
        service.think_panics = false;
        let snapshot = service.snapshot(&place, Some(caller.user_id)).await.unwrap();
        let turn = service.human_move(&caller, &snapshot, first, None).await.expect("the failed turn left no claim");
        let paid = service.finish_turn(turn).await.unwrap();
        assert!(paid.moves.iter().any(|m| m.by_bot), "{kind}: the bot moved");
        assert_eq!(store.moves(id).await.unwrap().len(), paid.moves.len());
    }
}

/// The board after a request offers the take-back by the coach's switches, over the request's
/// first move only when it is the player's own (docs/design/kind-coach.md#what-the-coach-does):
/// a needless blunder, answered quietly, with the player to move.
#[test]
fn the_take_back_is_offered_after_the_players_own_blunder_by_the_switches() {
    use crate::domain::{GameRecord, PlayedMove, StoredGame};
    use crate::service::Played;
    use settai_core::doubutsu::History;
    use settai_core::{Coach, DoubutsuGame, Game};

    let before = Game::Doubutsu(DoubutsuGame::new(History::from_position("3/1l1/3/LHC b -".parse().unwrap())));
    let blunder = before.parse_move("A4A3").unwrap();
    let after_move = before.play(blunder).unwrap();
    let (answer, after) = after_move
        .legal_moves()
        .into_iter()
        .map(|r| (r, after_move.play(r).unwrap()))
        .find(|(_, g)| g.outcome().is_none() && !g.can_win_at_once())
        .expect("a quiet answer");
    let record = GameRecord { level: Level::Doubutsu(DoubutsuLevel::Weakest), ..GameRecord::sample(after, 2) };
    assert!(record.human_to_move());
    let played = |by_bot: bool| Played {
        game: StoredGame::new(record.clone()),
        moves: vec![
            PlayedMove { before: before.clone(), mv: blunder, by_bot, user_id: (!by_bot).then_some(3) },
            PlayedMove { before: after_move.clone(), mv: answer, by_bot: true, user_id: None },
        ],
    };
    let on = Coach { hints: true, takeback: true };
    assert!(played(false).offers_takeback(on));
    assert!(!played(true).offers_takeback(on), "the bot's own move is never offered back");
    assert!(!played(false).offers_takeback(Coach { hints: false, ..on }), "not without hints");
    assert!(!played(false).offers_takeback(Coach { takeback: false, ..on }), "not where take-backs are off");
    let nothing = Played { game: StoredGame::new(record), moves: Vec::new() };
    assert!(!nothing.offers_takeback(on), "a request that made no move offers nothing");
}
