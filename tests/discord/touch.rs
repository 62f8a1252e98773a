//! Play by touch (docs/design/touch.md): doubutsu shogi as a board of buttons (the animal, then
//! where it goes), reversi as one tap on a number drawn on the board; whole games by taps alone,
//! in a channel, a thread and a group DM, in English and Japanese, and every refusal a menu
//! move meets.
//!
//! Reversi by taps is in `touch_reversi.rs`; the readers of a board of buttons themselves are in
//! `crates/discord-stand-in/src/touch.rs`.
//!
//! (Past 500 lines by a few: the doubutsu games by taps and the refusals share the board
//! readers here.)

use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use settai::domain::{Change, Scope};
use settai::i18n::{Lang, Msg};
use settai::render::doubutsu::TileEmoji;
use settai_core::doubutsu::{self, DoubutsuLevel, Square};
use settai_core::{moves_from, numbered_moves, origins, Origin};
use settai_core::{Game, GameKind, GameMove, Level};
use sqlx::PgPool;

use crate::board_pictures::assert_board_is_stored;
use crate::private_channels::start_with;
use crate::said::{en, ja};
use crate::support::fixtures::{self, Ctx, OTHER_USER_ID, THREAD_ID, USER_ID};
use crate::support::{Exchange, ReplyKind};
use crate::{
    assert_no_hidden_word, buttons_of, on, open_list, place, play_reversi, settings, shown_board, tap_move,
    tap_move_on, tile_of, touch_id, touch_taps, Bot,
};

const WEAKEST: Level = Level::Doubutsu(DoubutsuLevel::Weakest);

/// Discord's button styles as the bot uses them.
const BLUE: u64 = 1;
const GREY: u64 = 2;
const GREEN: u64 = 3;
const RED: u64 = 4;

/// The game of `ctx`'s channel, on or just over, as stored.
pub(crate) async fn stored_game(bot: &Bot, ctx: &Ctx) -> Game {
    let id = bot.game_or_last(ctx).await;
    bot.store.game(id).await.unwrap().expect("a game").game
}

/// One square's button of a board: its label, style, whether disabled, the tile it shows (read
/// back from the application emoji it names) and what a tap does.
struct SquareButton {
    label: String,
    style: u64,
    disabled: bool,
    tile: Option<TileEmoji>,
    tap: String,
}

/// The buttons of the board's four square rows.
fn squares(bot: &Bot, board: &Value) -> Vec<SquareButton> {
    let rows = board["components"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 5, "four rows of squares and the hand:\n{board}");
    rows[..4]
        .iter()
        .flat_map(|r| {
            let row = r["components"].as_array().cloned().unwrap_or_default();
            assert_eq!(row.len(), 3, "three squares a row:\n{board}");
            row
        })
        .map(|b| SquareButton {
            label: b["label"].as_str().unwrap_or_default().to_string(),
            style: b["style"].as_u64().unwrap(),
            disabled: b["disabled"].as_bool().unwrap_or(false),
            tile: tile_of(bot, &b),
            tap: b["custom_id"].as_str().unwrap().rsplit(':').next().unwrap().to_string(),
        })
        .collect()
}

/// Checks the squares of a doubutsu board of buttons against the game, computed here from the
/// rules: every square shows the tile the picture draws there (the computer's last move marked)
/// and no words; at rest, the player's animals that can move are blue and tappable, the
/// computer's grey, empty squares grey, all of those disabled; with an animal chosen, it is green
/// (a tap cancels), the squares it may go to are lit (red with ⚠ where the move loses at once,
/// with hints), the player's other animals that can move stay blue and switch the choice, and
/// nothing else can be tapped.
fn assert_board_mirrors(bot: &Bot, board: &Value, game: &Game, chosen: Option<Origin>, hints: bool) {
    let Game::Doubutsu(g) = game else { panic!("a doubutsu game") };
    let position = g.history().position();
    let movable = origins(game);
    let lit: Vec<doubutsu::Move> = chosen.map(|o| moves_from(game, o)).unwrap_or_default();
    // The computer's last move: the square its animal reached and the one it left.
    let (left, reached) = match g.history().last_move() {
        Some((_, mv)) if position.piece_at(mv.to()).is_some_and(|p| p.color != position.turn()) => match mv {
            doubutsu::Move::Normal { from, to } => (Some(from), Some(to)),
            doubutsu::Move::Drop { to, .. } => (None, Some(to)),
        },
        _ => (None, None),
    };
    for (i, b) in squares(bot, board).into_iter().enumerate() {
        let sq = Square::new(i as u8).unwrap();
        let piece = position.piece_at(sq);
        let want = match piece {
            Some(p) => TileEmoji::Piece { owner: p.color.into(), animal: p.role.into(), moved: reached == Some(sq) },
            None => TileEmoji::Empty { left: left == Some(sq) },
        };
        assert_eq!(b.tile, Some(want), "{sq}: the tile the picture draws there\n{board}");
        let mine = piece.is_some_and(|p| p.color == position.turn());
        let can = movable.contains(&Origin::Board(sq));
        match chosen {
            None => {
                assert_eq!(b.label, "", "{sq}: a tile and no words");
                assert_eq!(!b.disabled, can, "{sq}: tappable exactly when it can move");
                assert_eq!(b.style, if mine { BLUE } else { GREY }, "{sq}: the player's animals blue, else grey");
                if can {
                    assert_eq!(b.tap, format!("c.{sq}"));
                }
            }
            Some(origin) => match lit.iter().find(|mv| mv.to() == sq) {
                Some(mv) => {
                    let risky = hints && game.loses_at_once(GameMove::Doubutsu(*mv));
                    assert!(!b.disabled, "{sq} is lit");
                    assert_eq!(b.tap, format!("p.{mv}"));
                    assert_eq!(b.style, if risky { RED } else { BLUE }, "{sq}");
                    assert_eq!(b.label, if risky { "⚠" } else { "" }, "{sq}: marked exactly when it loses at once");
                }
                None if origin == Origin::Board(sq) => {
                    assert_eq!((b.style, b.disabled, b.tap.as_str()), (GREEN, false, "x"), "{sq}: the chosen animal");
                }
                None if can => {
                    assert_eq!((b.style, b.disabled), (BLUE, false), "{sq}: another animal, a tap switches to it");
                    assert_eq!(b.tap, format!("c.{sq}"));
                }
                None => assert!(b.disabled && b.style == if mine { BLUE } else { GREY }, "{sq}: not lit, not tappable"),
            },
        }
    }
    // The fifth row: one button per kind in hand, with its count, then the controls.
    let hand: Vec<Value> = buttons_of(board)[12..]
        .iter()
        .filter(|b| b["label"].as_str().is_some_and(|l| l.starts_with('×')))
        .cloned()
        .collect();
    let held: Vec<(doubutsu::Role, u8)> = doubutsu::Role::HAND
        .into_iter()
        .map(|r| (r, position.hand(position.turn(), r)))
        .filter(|&(_, n)| n > 0)
        .collect();
    assert_eq!(hand.len(), held.len(), "one button per kind held:\n{board}");
    for (b, (role, n)) in hand.iter().zip(held) {
        assert_eq!(b["label"].as_str(), Some(format!("×{n}").as_str()));
        let want = TileEmoji::Piece { owner: position.turn().into(), animal: role.into(), moved: false };
        assert_eq!(tile_of(bot, b), Some(want), "{role:?} in hand");
        let origin = Origin::Hand(role);
        let tappable = movable.contains(&origin);
        assert_eq!(b["disabled"].as_bool() != Some(true), tappable, "{role:?} in hand\n{board}");
        if chosen == Some(origin) {
            assert_eq!(b["style"].as_u64(), Some(GREEN), "{role:?} chosen");
        }
    }
    assert!(buttons_of(board).iter().any(|b| b["custom_id"].as_str().is_some_and(|id| id.starts_with("ls:"))));
}

/// The picture a board message carries, by attachment id (what a client downloads).
fn picture_ids(message: &Value) -> Vec<String> {
    message["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["id"].as_str().map(str::to_string))
        .collect()
}

/// Chooses `origin` on `board`: the message changes in place, its text and picture kept.
async fn choose(bot: &Bot, ctx: &Ctx, board: &Value, origin: Origin) -> (Exchange, Value) {
    let id = touch_id(board, &format!("c.{origin}")).unwrap_or_else(|| panic!("{origin} cannot be chosen:\n{board}"));
    let x = bot.standin.interact(fixtures::button_on(ctx, &id, board)).await;
    assert_eq!(x.calls.len(), 1, "one call:\n{x}");
    assert_eq!(x.calls[0].kind, ReplyKind::Callback { type_: 7 }, "an update in place:\n{x}");
    assert!(x.files().is_empty(), "the picture is not sent again:\n{x}");
    assert!(x.calls[0].json["data"].get("attachments").is_none(), "the picture is kept:\n{x}");
    let after = bot.standin.message(board["id"].as_str().unwrap().parse().unwrap()).unwrap();
    assert_eq!(after["content"], board["content"], "the text stays");
    assert_eq!(picture_ids(&after), picture_ids(board), "the same picture stays");
    assert!(!picture_ids(&after).is_empty());
    (x, after)
}

/// A whole doubutsu game by taps alone, `lang`'s player in `ctx`, at the weakest level: every
/// board mirrors the game (its picture the stored position, the last move marked), a chosen
/// animal lights its squares and can be put back, a lit square plays the move (stored as
/// tapped), and the last board has no buttons.
async fn a_doubutsu_game_by_taps(bot: &Bot, ctx: &Ctx, first: Exchange, lang: Lang, seed: u64) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut last = first;
    let mut moves = 0;
    loop {
        let board = shown_board(bot, &last);
        assert_board_is_stored(&bot.store, ctx, &last, lang).await;
        let game = stored_game(bot, ctx).await;
        if game.outcome().is_some() {
            assert!(touch_taps(&board, "c").is_empty() && touch_taps(&board, "p").is_empty(), "{board}");
            break;
        }
        assert_board_mirrors(bot, &board, &game, None, true);
        let legal = game.legal_moves();
        let GameMove::Doubutsu(mv) = legal[rng.gen_range(0..legal.len())] else { unreachable!() };
        let origin = Origin::of(mv);
        let (_, lit) = choose(bot, ctx, &board, origin).await;
        assert_board_mirrors(bot, &lit, &game, Some(origin), true);
        if moves == 0 {
            // The chosen animal tapped again: the board as it was.
            let cancel = touch_id(&lit, "x").unwrap();
            let x = bot.standin.interact(fixtures::button_on(ctx, &cancel, &lit)).await;
            assert_eq!(x.callback_type(), Some(7), "{x}");
            let back = shown_board(bot, &x);
            assert_eq!(back["components"], board["components"], "cancelled");
            choose(bot, ctx, &back, origin).await;
        }
        let lit = bot.standin.message(board["id"].as_str().unwrap().parse().unwrap()).unwrap();
        last = tap_move_on(bot, ctx, &lit, &mv.to_string()).await;
        assert!(!last.is_ephemeral(), "a lit square was refused:\n{last}");
        // The exchange ends once the board tapped on has lost its buttons (after the new one).
        let stripped = |x: &Exchange| x.calls.iter().any(|c| c.ok() && c.kind == ReplyKind::EditOriginal);
        bot.standin.wait_exchange(&last.token, stripped).await.unwrap();
        let played = bot.store.moves(bot.game_or_last(ctx).await).await.unwrap();
        let human: Vec<&str> = played.iter().filter(|m| !m.by_bot).map(|m| m.notation.as_str()).collect();
        assert_eq!(human.last(), Some(&mv.to_string().as_str()), "the tapped move is stored");
        // The board tapped on loses its buttons: it cannot be tapped twice.
        let old = bot.standin.message(board["id"].as_str().unwrap().parse().unwrap()).unwrap();
        assert!(buttons_of(&old).is_empty(), "the old board keeps buttons:\n{old}");
        moves += 1;
        assert!(moves < 150, "the game never ended");
    }
    // The computer's replies are its own chance: a careless first move may end the game.
    assert!(moves >= 1, "{moves} moves");
}

impl Bot {
    /// The id of the channel's game, on or just over.
    pub(crate) async fn game_or_last(&self, ctx: &Ctx) -> i64 {
        sqlx::query_scalar("SELECT id FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1")
            .bind(ctx.channel_id as i64)
            .fetch_one(self.store.pool())
            .await
            .unwrap()
    }
}

async fn weakest_here(bot: &Bot, ctx: &Ctx) {
    let weakest = Change::Level(WEAKEST);
    bot.store.change_setting(ctx.guild_id, &place(ctx), Scope::Server, weakest).await.unwrap();
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_child_plays_doubutsu_to_the_end_by_taps_in_a_channel_in_english(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    weakest_here(&bot, &ctx).await;
    let start = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    a_doubutsu_game_by_taps(&bot, &ctx, start, Lang::En, 1).await;
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_child_plays_doubutsu_to_the_end_by_taps_in_a_thread_in_japanese(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::ja().in_thread(THREAD_ID);
    weakest_here(&bot, &Ctx::ja()).await;
    let start = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    let started = ja(Msg::Started { kind: GameKind::Doubutsu, human: USER_ID, human_side: settai_core::Side::First });
    assert!(start.content().contains(&started), "{}", start.content());
    a_doubutsu_game_by_taps(&bot, &ctx, start, Lang::Ja, 2).await;
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_family_plays_doubutsu_to_the_end_by_taps_in_its_group_dm(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let grandma = Ctx::en().group_dm(USER_ID);
    let child = Ctx::ja().with_user(OTHER_USER_ID).group_dm(USER_ID);
    let picked = start_with(&bot, &grandma, "doubutsu", WEAKEST).await;
    // The pick's follow-up is the first board; the child taps it (anyone there may move).
    let board_id = picked.followups().last().and_then(|f| f.message_id).unwrap();
    let board = bot.standin.message(board_id).unwrap();
    let game = stored_game(&bot, &child).await;
    let first = match game.legal_moves()[0] {
        GameMove::Doubutsu(mv) => mv.to_string(),
        _ => unreachable!(),
    };
    let tapped = tap_move_on(&bot, &child, &board, &first).await;
    a_doubutsu_game_by_taps(&bot, &child, tapped, Lang::Ja, 3).await;
    bot.stop().await;
}

/// Taps that may not play change nothing, the message included, and say no word: someone
/// else's game shows whose it is; a forged tap on a square Discord shows disabled, and taps on
/// an old board, show the game as it is now, privately.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn taps_that_may_not_play_change_nothing_and_say_no_word(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    weakest_here(&bot, &ctx).await;
    let start = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    let board = shown_board(&bot, &start);
    // Someone else taps the player's chick.
    let other = Ctx::en().with_user(OTHER_USER_ID);
    let chick = touch_id(&board, "c.B3").expect("the chick moves at the start");
    let refused = bot.standin.interact(fixtures::button_on(&other, &chick, &board)).await;
    crate::assert_sign(&refused, USER_ID);
    assert_eq!(shown_board(&bot, &start)["components"], board["components"], "the board unchanged");
    // A forged tap on a disabled square.
    let forged = touch_id(&board, "i.B2").unwrap();
    let refused =
        bot.standin.interact(fixtures::button(&ctx, &forged, board["id"].as_str().unwrap().parse().unwrap())).await;
    crate::assert_the_game_now(&refused);
    // The player moves by command; a choice on the board still on screen is old.
    let moved = bot.standin.interact(crate::play_move(&ctx, "B3B2")).await;
    assert!(!moved.is_ephemeral(), "{moved}");
    let (position, ply, ..) = bot.snapshot(&ctx).await;
    let lion = touch_id(&board, "c.B4").expect("the lion moves at the start");
    let refused = bot.standin.interact(fixtures::button_on(&ctx, &lion, &board)).await;
    crate::assert_the_game_now(&refused);
    let played = touch_id(&board, "c.B3").unwrap();
    let refused = bot.standin.interact(fixtures::button_on(&ctx, &played, &board)).await;
    crate::assert_the_game_now(&refused);
    // The game shown is the one stored, and its buttons play it.
    assert_board_is_stored(&bot.store, &ctx, &refused, Lang::En).await;
    assert_eq!(bot.snapshot(&ctx).await.0, position);
    assert_eq!(bot.snapshot(&ctx).await.1, ply, "nothing played");
    let private = bot.standin.message(refused.message_id().unwrap()).unwrap();
    let next = first_move(&stored_game(&bot, &ctx).await);
    let tapped = tap_move_on(&bot, &ctx, &private, &next).await;
    assert!(!tapped.is_ephemeral(), "the private board's buttons play:\n{tapped}");
    assert_eq!(bot.snapshot(&ctx).await.1, ply + 2, "the tap and the bot's answer");
    bot.stop().await;
}

/// The first legal move of a doubutsu game, in notation.
fn first_move(game: &Game) -> String {
    game.legal_moves()[0].to_string()
}

/// In family team mode anyone in the channel taps the moves; two people tapping the same
/// number at once play it once.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn in_team_mode_anyone_taps_and_two_taps_at_once_play_once(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let parent = Ctx::en();
    let child = Ctx::ja().with_user(OTHER_USER_ID);
    bot.standin.interact(settings(&parent, "team", on(true), true)).await;
    let start = bot.standin.interact(play_reversi(&parent)).await;
    let board = shown_board(&bot, &start);
    let f5 = touch_id(&board, "p.f5").unwrap();
    let (a, b) = (fixtures::button_on(&parent, &f5, &board), fixtures::button_on(&child, &f5, &board));
    // One tap plays; the other changes nothing and tells nobody off.
    let (next, _) = crate::two_taps_at_once(&bot, a, b).await;
    assert!(!next.is_ephemeral(), "{next}");
    let moves = bot.store.moves(bot.game(&parent).await.unwrap().id).await.unwrap();
    assert_eq!(moves.iter().filter(|m| !m.by_bot).count(), 1, "played once");
    // The child plays the next move by touch.
    let game = stored_game(&bot, &parent).await;
    let mv = numbered_moves(&game)[0].to_string();
    let tapped = tap_move(&bot, &child, &next, &mv).await;
    assert!(!tapped.is_ephemeral(), "{tapped}");
    bot.stop().await;
}

/// The list button shows the menus privately (for grown-ups and screen readers); a move chosen
/// there is played like a tap, Resign is there; with the commentary off, no button or list
/// gives the hospitality away; hints mark a risky square red and never hide it.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_list_holds_the_menus_and_nothing_gives_the_secret_away(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    weakest_here(&bot, &ctx).await;
    let start = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    let list = open_list(&bot, &ctx, &start).await;
    assert!(list.content().contains(&en(Msg::MovesAsList)), "{list}");
    let ids = list.custom_ids();
    assert!(ids.iter().any(|id| id.starts_with("mv:")) && ids.iter().any(|id| id.starts_with("rs:ask:")), "{list}");
    for c in list.component_list().iter().chain(buttons_of(&shown_board(&bot, &start)).iter()) {
        assert_no_hidden_word("a component", &c.to_string());
    }
    assert_no_hidden_word("the list", &list.content());
    // A move from the list plays like a tap, and the board it was on loses its buttons.
    let menu = ids.iter().find(|id| id.starts_with("mv:")).unwrap().clone();
    let value = list.select_options(&menu)[0].1.clone();
    let panel = bot.standin.message(list.message_id().unwrap()).unwrap();
    let since = bot.standin.cursor();
    let played = bot.standin.interact(fixtures::select_on(&ctx, &menu, &[value.as_str()], &panel)).await;
    assert!(!played.is_ephemeral(), "{played}");
    // The board the list came from is no longer the game's: the bot takes its buttons off
    // through the channel (the tap's own message is the list).
    let board_id = start.message_id().unwrap();
    let stripped = |c: &crate::support::Reply| matches!(c.kind, ReplyKind::EditChannelMessage { message_id, .. } if message_id == board_id);
    bot.standin.wait_call(since, crate::T, stripped).await;
    assert!(buttons_of(&shown_board(&bot, &start)).is_empty(), "the old board keeps its buttons");
    let list_after = bot.standin.message(list.message_id().unwrap()).unwrap();
    assert!(list_after["components"].as_array().is_none_or(|c| c.is_empty()), "the list is spent: {list_after}");
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 2);
    bot.stop().await;
}

/// With hints, a square that loses at once is lit red with ⚠ and can still be played; without
/// hints, the same square is lit like the others.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_square_that_loses_at_once_is_marked_not_hidden(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    // Sente's lion on C3 is attacked by gote's giraffe on B3: some squares lose at once.
    let start: doubutsu::Position = "1l1/3/1gL/E2 b -".parse().unwrap();
    let record = bot.doubutsu_game_at(&ctx, start, WEAKEST).await;
    let shown = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    let board = shown_board(&bot, &shown);
    let (_, lit) = choose(&bot, &ctx, &board, Origin::Board("C3".parse().unwrap())).await;
    assert_board_mirrors(&bot, &lit, &record.game, Some(Origin::Board("C3".parse().unwrap())), true);
    let reds = buttons_of(&lit).iter().filter(|b| b["style"].as_u64() == Some(RED)).count();
    assert!(reds > 0, "some of the lion's squares lose at once:\n{lit}");
    bot.standin.interact(settings(&ctx, "hints", on(false), true)).await;
    let shown = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    let board = shown_board(&bot, &shown);
    let (_, lit) = choose(&bot, &ctx, &board, Origin::Board("C3".parse().unwrap())).await;
    assert_board_mirrors(&bot, &lit, &record.game, Some(Origin::Board("C3".parse().unwrap())), false);
    bot.stop().await;
}

/// Take-backs by touch: the ↩ under the board of buttons takes the move back.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_take_back_button_sits_beside_the_hand(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    weakest_here(&bot, &ctx).await;
    bot.standin.interact(settings(&ctx, "takeback", on(true), true)).await;
    let start = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert!(!buttons_of(&shown_board(&bot, &start))
        .iter()
        .any(|b| b["custom_id"].as_str().unwrap().starts_with("tb:")));
    let moved = tap_move(&bot, &ctx, &start, "B3B2").await;
    let board = shown_board(&bot, &moved);
    let undo = buttons_of(&board)
        .into_iter()
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .find(|id| id.starts_with("tb:"))
        .expect("↩ once the player has moved");
    let undone = bot.standin.interact(fixtures::button_on(&ctx, &undo, &board)).await;
    assert!(undone.contents().join("\n").contains(&en(Msg::TookBack)), "{undone}");
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 0);
    assert_board_mirrors(&bot, &shown_board(&bot, &undone), &stored_game(&bot, &ctx).await, None, true);
    bot.stop().await;
}

/// The stand-in refuses the component layouts Discord refuses, with Discord's code (50035):
/// more than five rows or five buttons a row, a button with neither label nor emoji, text
/// for an emoji, a custom id past 100 characters or twice in a message, a menu of more than
/// 25 options, a select menu beside a button; what the bot sends passes.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_stand_in_refuses_the_component_layouts_discord_refuses(pool: PgPool) {
    use serenity::all::ChannelId;
    let bot = Bot::builder(pool).start().await;
    let http = bot.standin.http();
    let button = |id: &str| json!({ "type": 2, "style": 1, "custom_id": id, "label": "B3" });
    let row = |n: usize, tag: &str| json!({ "type": 1, "components": (0..n).map(|i| button(&format!("{tag}{i}"))).collect::<Vec<_>>() });
    let options =
        |n: usize| (0..n).map(|i| json!({ "label": format!("o{i}"), "value": format!("v{i}") })).collect::<Vec<_>>();
    let menu = |n: usize| json!({ "type": 1, "components": [{ "type": 3, "custom_id": "m", "options": options(n) }] });
    let refused = [
        ("six rows", json!([row(1, "a"), row(1, "b"), row(1, "c"), row(1, "d"), row(1, "e"), row(1, "f")])),
        ("six buttons in a row", json!([row(6, "a")])),
        (
            "neither label nor emoji",
            json!([{ "type": 1, "components": [{ "type": 2, "style": 1, "custom_id": "x" }] }]),
        ),
        (
            "text as an emoji",
            json!([{ "type": 1, "components": [{ "type": 2, "style": 1, "custom_id": "x", "emoji": { "name": "B3" } }] }]),
        ),
        ("a custom id of 101 characters", json!([{ "type": 1, "components": [button(&"x".repeat(101))] }])),
        ("one custom id twice", json!([{ "type": 1, "components": [button("same"), button("same")] }])),
        ("26 options", json!([menu(26)])),
        (
            "a menu beside a button",
            json!([{ "type": 1, "components": [button("b"), menu(2)["components"][0].clone()] }]),
        ),
    ];
    bot.standin.add_channel(&Ctx::en());
    let channel = ChannelId::new(fixtures::CHANNEL_ID);
    let refused_layouts = refused.len();
    for (what, components) in refused {
        let sent = http.send_message(channel, Vec::new(), &json!({ "content": "x", "components": components })).await;
        let code = match sent {
            Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r))) => r.error.code,
            other => panic!("{what}: accepted ({other:?})"),
        };
        assert_eq!(code, 50035, "{what}");
    }
    // The largest boards the bot draws pass: five rows of five, 25 options, emoji on buttons.
    let full = json!([row(5, "a"), row(5, "b"), row(5, "c"), row(5, "d"), row(5, "e")]);
    http.send_message(channel, Vec::new(), &json!({ "content": "x", "components": full })).await.unwrap();
    let with_emoji =
        json!([{ "type": 1, "components": [{ "type": 2, "style": 2, "custom_id": "e", "emoji": { "name": "🐥" } }] }]);
    http.send_message(channel, Vec::new(), &json!({ "content": "x", "components": with_emoji })).await.unwrap();
    http.send_message(channel, Vec::new(), &json!({ "content": "x", "components": [menu(25)] })).await.unwrap();
    // These refusals were the test's own calls, not the bot's: the bot's made none.
    bot.shards.shutdown_all().await;
    assert_eq!(bot.standin.refused().len(), refused_layouts, "{:?}", bot.standin.refused());
}
