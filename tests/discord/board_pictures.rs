//! The board picture a test receives, checked where it is received: it must be the bot's own
//! render of the game as stored after the exchange (its position, its last move marked from the
//! position before it, the language, the result banner, the seats' names), so that a stale board
//! fails. Not a test module: the helpers the feature modules share for this.

use settai::domain::{GameRecord, GameResult, GameStatus};
use settai::i18n::{Lang, Msg};
use settai::render::{self, Names};
use settai::store::Store;
use settai_core::{Game, GameMove, Side};

use crate::support::fixtures::Ctx;
use crate::support::{Exchange, Reply};

/// Asserts that the one board picture `x` received is, byte for byte, the bot's render in `lang`
/// of the newest game in `ctx`'s channel as `store` holds it now (call it right after the
/// exchange, before anything else moves).
pub(crate) async fn assert_board_is_stored(store: &Store, ctx: &Ctx, x: &Exchange, lang: Lang) {
    assert_one_board_is_stored(store, ctx, x.files(), &x.to_string(), lang).await;
}

/// [`assert_board_is_stored`] for a message the bot posted on its own (a reminder's fresh
/// board), as one call the stand-in received.
pub(crate) async fn assert_post_is_stored(store: &Store, ctx: &Ctx, post: &Reply, lang: Lang) {
    assert_one_board_is_stored(store, ctx, post.files.iter().collect(), &post.to_string(), lang).await;
}

/// Asserts that `files` hold one board picture, the render of the stored game; `shown` is what
/// carried them, for the failure's message.
async fn assert_one_board_is_stored(store: &Store, ctx: &Ctx, files: Vec<&(String, Vec<u8>)>, shown: &str, lang: Lang) {
    let boards: Vec<&[u8]> = files.into_iter().filter(|(n, _)| n == "board.png").map(|(_, b)| b.as_slice()).collect();
    let [received] = boards[..] else { panic!("{} board pictures, not one:\n{shown}", boards.len()) };
    let record = newest_game(store, ctx).await;
    let expected = expected_board(store, &record, lang).await;
    assert_same_picture(
        received,
        &expected,
        &format!("game {} at ply {} ({:?})\n{shown}", record.id, record.ply, lang),
    );
}

/// The board PNG the bot draws for `record` in `lang`: the inputs of its board message, each
/// found again from the store.
async fn expected_board(store: &Store, record: &GameRecord, lang: Lang) -> Vec<u8> {
    // A resignation is no move: the bot passes none to mark (a doubutsu picture marks its
    // history's last move whatever it is passed).
    let last = match record.status {
        GameStatus::Resigned => None,
        _ => last_move(store, record).await,
    };
    let last = last.as_ref().map(|(before, mv)| (before, *mv));
    render::game_png_to_tap(&record.game, last, lang, banner(record, lang).as_deref(), &seat_names(record, lang))
}

/// The newest game stored in `ctx`'s channel, whatever its status.
async fn newest_game(store: &Store, ctx: &Ctx) -> GameRecord {
    let id: i64 = sqlx::query_scalar("SELECT id FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1")
        .bind(ctx.channel_id as i64)
        .fetch_one(store.pool())
        .await
        .unwrap_or_else(|e| panic!("no game in channel {}: {e}", ctx.channel_id));
    store.game(id).await.unwrap().expect("the game just read")
}

/// The stored game's last move and the position it was played from, found by replaying its
/// stored moves from the start (not from the bot's own copy, which a board must agree with).
async fn last_move(store: &Store, record: &GameRecord) -> Option<(Game, GameMove)> {
    let moves = store.moves(record.id).await.unwrap();
    let mut game = record.game.initial();
    let mut last = None;
    for m in &moves {
        let mv = game.parse_move(&m.notation).unwrap_or_else(|e| panic!("stored move {}: {e}", m.notation));
        let next = game.play(mv).unwrap_or_else(|e| panic!("stored move {}: {e}", m.notation));
        last = Some((std::mem::replace(&mut game, next), mv));
    }
    assert!(game == record.game, "the stored moves of game {} do not lead to its position", record.id);
    last
}

/// The result banner of a game that is over: its verdict for the player and, where the rules
/// ended it, the score and why (none while it is on).
fn banner(record: &GameRecord, lang: Lang) -> Option<String> {
    if record.status == GameStatus::Active {
        return None;
    }
    let human_won = match record.result {
        Some(GameResult::Human) => Some(true),
        Some(GameResult::Bot) => Some(false),
        _ => None,
    };
    let outcome = (record.status == GameStatus::Finished).then(|| record.game.outcome()).flatten();
    Some(
        Msg::GameOver { human_won, score: outcome.and_then(|o| o.score), reason: outcome.map(|o| o.reason) }.text(lang),
    )
}

/// The seats as a game's board names them: its player (by the name stored with it) and the
/// computer, seen from the player's seat.
fn seat_names(record: &GameRecord, lang: Lang) -> Names {
    let (human, computer) = (record.human_name.clone(), Msg::Computer.text(lang));
    let names = match record.human_side {
        Side::First => Names::new(human, computer),
        Side::Second => Names::new(computer, human),
    };
    names.with_human(record.human_side)
}

/// Asserts two PNGs show the same pixels. The renderer and its encoder are deterministic, so
/// equal bytes are the quick answer; the pixels decide otherwise (what a player sees, not how
/// it is encoded), and a failure says how many differ.
fn assert_same_picture(received: &[u8], expected: &[u8], what: &str) {
    if received == expected {
        return;
    }
    let (got, want) = (decoded(received), decoded(expected));
    assert_eq!(got.dimensions(), want.dimensions(), "the board's size is not its render's: {what}");
    let differing = got.pixels().zip(want.pixels()).filter(|(a, b)| a != b).count();
    assert_eq!(differing, 0, "the board is not the stored game's: pixels differ from its render: {what}");
}

/// A PNG's pixels.
fn decoded(png: &[u8]) -> image::RgbImage {
    image::load_from_memory(png).expect("a valid PNG").to_rgb8()
}
