//! Which message is a game's board: remembered in place of the board the offer read, so that of
//! two boards posted at once for one position exactly one is the game's, and the other knows.

use settai::domain::{BoardRemembered, GameResult, GameStatus};
use settai::store::Store;
use sqlx::PgPool;

use super::new_game;

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_board_is_remembered_only_in_place_of_the_board_its_offer_read(pool: PgPool) {
    let store = Store::from_pool(pool);
    let game = store.create_game(&new_game(5)).await.unwrap();
    let offer = |message: u64, replaces: Option<u64>, ply: u32| {
        let store = store.clone();
        async move { store.set_board_message(game.id, ply, message, replaces).await.unwrap() }
    };
    assert_eq!(offer(11, None, 0).await, BoardRemembered::Yes);
    // Posted for the same position by a request that read the game before 11 was remembered.
    assert_eq!(offer(12, None, 0).await, BoardRemembered::Lost { now: Some(11), over: false });
    assert_eq!(offer(11, None, 0).await, BoardRemembered::Yes, "the same offer again changes nothing twice");
    assert_eq!(offer(13, Some(11), 0).await, BoardRemembered::Yes);
    assert_eq!(
        offer(14, Some(13), 2).await,
        BoardRemembered::Lost { now: Some(13), over: false },
        "a board of another ply"
    );
    assert_eq!(store.game(game.id).await.unwrap().unwrap().board_message_id, Some(13));

    // Two at once: exactly one is the game's board.
    let (a, b) = tokio::join!(offer(21, Some(13), 0), offer(22, Some(13), 0));
    let won: Vec<u64> =
        [(21, a), (22, b)].into_iter().filter(|(_, r)| *r == BoardRemembered::Yes).map(|(m, _)| m).collect();
    assert_eq!(won.len(), 1, "{a:?} {b:?}");
    // (Which board it names may be the one both replaced: the statement reads the game as it
    // began, before the winner's write was committed.)
    let lost = if won[0] == 21 { b } else { a };
    assert!(matches!(lost, BoardRemembered::Lost { now: Some(13 | 21 | 22), over: false }), "{lost:?}");
    assert_eq!(store.game(game.id).await.unwrap().unwrap().board_message_id, Some(won[0]));

    let now = store.game(game.id).await.unwrap().unwrap();
    store.end_game(&now, GameStatus::Resigned, GameResult::Bot).await.unwrap();
    assert_eq!(
        offer(31, Some(won[0]), 0).await,
        BoardRemembered::Lost { now: Some(won[0]), over: true },
        "a game over"
    );
    // The board remembered last, offered again once the game is over: it lost too, and says so.
    assert_eq!(offer(won[0], Some(13), 0).await, BoardRemembered::Lost { now: Some(won[0]), over: true });
}
