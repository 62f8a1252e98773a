//! Playing reversi through Discord: starting, moving by menu and by command, whom messages ping,
//! deleted boards, passes, the end of a game with its replay, resigning, stats, threads, and the
//! player's name on the board.

use serde_json::{json, Value};
use settai::discord::LIVELY_FROM;
use settai::domain::{GameStatus, NewGame, NewMove, PlayerResults};
use settai::i18n::{move_label, Lang, MoveMenu, Msg};
use settai_core::{reversi, Game, GameKind, GameMove, MoveDetail, Side, StoredPosition};
use sqlx::PgPool;

use crate::board_pictures::{assert_board_is_stored, assert_post_is_stored};
use crate::said::{before_move, en, game_over, illegal, mv, results, stats};
use crate::support::discord::all_disabled;
use crate::support::fixtures::{self, Ctx, OTHER_USER_ID, USER_ID};
use crate::support::{self, ReplyKind};
use crate::{
    assert_no_hidden_word, assert_refused, board_image, buttons_of, gif_frames, move_menu, move_menus, open_list,
    play_move, play_reversi, shown_board, tap_move_on, tap_to_the_end, touch_id, touch_taps, Bot,
};

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_game_starts_and_is_played_by_menu_and_by_command(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();

    let start = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(!start.is_ephemeral());
    assert_board_is_stored(&bot.store, &ctx, &start, Lang::En).await;
    let img = board_image(&start);
    assert!(img.width() >= 400 && img.height() >= 400);
    let started = en(Msg::Started { kind: GameKind::Reversi, human: USER_ID, human_side: Side::First });
    assert!(start.content().contains(&started) && started.contains(&format!("<@{USER_ID}>")), "{}", start.content());
    // The board's numbers, in reading order.
    let board = shown_board(&bot, &start);
    assert_eq!(touch_taps(&board, "p"), ["d3", "c4", "f5", "e6"]);
    // The list holds the same moves as a menu.
    let list = open_list(&bot, &ctx, &start).await;
    let (_, values) = move_menu(&list);
    let mut sorted = values.clone();
    sorted.sort();
    assert_eq!(sorted, ["c4", "d3", "e6", "f5"]);
    let menus = move_menus(&list);
    assert_eq!(menus.len(), 1, "{list}");
    assert_eq!(menus[0].1, en(Msg::MenuOf { menu: MoveMenu::Discs, more: false }));
    let flips_one = |v: &str| move_label(mv(GameKind::Reversi, v), Some(MoveDetail::Place { flips: 1 }), Lang::En);
    // Each move beside the number its square carries on the picture and its button.
    let numbered = touch_taps(&board, "p");
    let number = |v: &str| numbered.iter().position(|n| n == v).unwrap() + 1;
    assert!(
        menus[0].2.iter().all(|(label, value)| label == &format!("{} · {}", number(value), flips_one(value))),
        "{menus:?}"
    );
    assert_eq!(bot.snapshot(&ctx).await.1, 0);

    // Tap f5's number: the board shows it at once (frozen: f5 green, every button disabled),
    // then the bot answers with a new board message and retires the old buttons.
    let board_id = start.message_id().unwrap();
    let f5 = touch_id(&board, "p.f5").unwrap();
    let tap = bot
        .standin
        .interact_until(fixtures::button_on(&ctx, &f5, &board), |x| {
            x.answered() && x.calls.iter().any(|c| c.kind == ReplyKind::EditOriginal)
        })
        .await;
    assert_eq!(tap.callback_type(), Some(7), "{tap}");
    let frozen = tap.calls[0].components().unwrap_or_default();
    assert!(all_disabled(&frozen), "{tap}");
    let shown: Vec<&Value> = frozen.iter().flat_map(|r| r["components"].as_array().unwrap()).collect();
    let green: Vec<&str> = shown.iter().filter(|b| b["style"] == 3).filter_map(|b| b["label"].as_str()).collect();
    let number = buttons_of(&board).into_iter().find(|b| b["custom_id"] == f5.as_str()).unwrap()["label"].clone();
    assert_eq!(green, [number.as_str().unwrap()], "f5's number, shown green:\n{tap}");
    assert!(shown.iter().any(|b| b["emoji"]["name"] == "⏳"), "{tap}");
    assert!(tap.content().contains(&en(Msg::YouPlayed { mv: mv(GameKind::Reversi, "f5") })), "{}", tap.content());
    assert!(tap.content().contains(&before_move(|mv| Msg::BotPlayed { mv }, Lang::En)), "{}", tap.content());
    assert_board_is_stored(&bot.store, &ctx, &tap, Lang::En).await;
    let old = bot.standin.message(board_id).unwrap();
    assert!(old["components"].as_array().is_none_or(|c| c.is_empty()), "old board keeps its buttons: {old}");
    let record = bot.game(&ctx).await.unwrap();
    assert_eq!(record.ply, 2);
    let moves = bot.store.moves(record.id).await.unwrap();
    assert_eq!((moves[0].notation.as_str(), moves[0].by_bot, moves[0].user_id), ("f5", false, Some(USER_ID)));
    assert!(moves[1].by_bot);

    // The same thing by command.
    let values = touch_taps(&shown_board(&bot, &tap), "p");
    let typed = values[0].to_uppercase();
    let by_command = bot.standin.interact(play_move(&ctx, &format!(" {typed} "))).await;
    assert!(by_command.deferred() && !by_command.is_ephemeral(), "{by_command}");
    let played = en(Msg::YouPlayed { mv: mv(GameKind::Reversi, &values[0]) });
    assert!(by_command.content().contains(&played), "{}", by_command.content());
    assert_board_is_stored(&bot.store, &ctx, &by_command, Lang::En).await;
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 4);

    // /play board re-posts the current board with fresh buttons, and its list a fresh menu.
    let again = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    assert_board_is_stored(&bot.store, &ctx, &again, Lang::En).await;
    assert!(touch_taps(&shown_board(&bot, &again), "p").iter().all(|id| !id.is_empty()));
    let (menu, _) = move_menu(&open_list(&bot, &ctx, &again).await);
    assert_eq!(menu, format!("mv:{}:4:0", record.id));
    bot.stop().await;
}

/// Whether a call is made on an interaction's webhook (the calls Discord's shared limit counts).
fn on_a_webhook(c: &support::Reply) -> bool {
    matches!(
        c.kind,
        ReplyKind::EditOriginal
            | ReplyKind::DeleteOriginal
            | ReplyKind::Followup
            | ReplyKind::EditFollowup
            | ReplyKind::DeleteFollowup
    )
}

/// Whether a call creates a message (which notifies whom it mentions) rather than edits one.
fn creates_a_message(c: &support::Reply) -> bool {
    matches!(c.kind, ReplyKind::Callback { type_: 4 } | ReplyKind::Followup | ReplyKind::ChannelMessage { .. })
}

/// Every message of a whole game says explicitly whom it may ping: nobody for refusals and
/// private answers, only the player whose turn it is on a board; never @everyone, @here or a role.
/// And "your move" comes in a new message, not only in an edit (Discord notifies nobody of a
/// mention added by an edit), until the channel is lively: a whole game tapped at a machine's
/// pace is, and from its [`LIVELY_FROM`]th webhook call the board tapped shows each move
/// (docs/design/touch.md).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn every_message_pings_only_the_player_whose_turn_it_is_and_in_a_new_message(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let player = json!([USER_ID.to_string()]);
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (last, _) = tap_to_the_end(&bot, &ctx, start.clone()).await;
    assert!(last.content().contains(&game_over(Lang::En)), "{}", last.content());
    // A new game, a move by command, /play board, a refusal, a resignation.
    bot.standin.interact(play_reversi(&ctx)).await;
    let by_command = bot.standin.interact(play_move(&ctx, "f5")).await;
    let board = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    let game = bot.game(&ctx).await.unwrap().game;
    assert_refused(&bot.standin.interact(play_move(&ctx, "a1")).await, &illegal("a1", &game, Lang::En));
    let other = Ctx::en().with_user(OTHER_USER_ID);
    assert_refused(&bot.standin.interact(play_move(&other, "d3")).await, &en(Msg::NotYourGame { owner: USER_ID }));
    bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;

    // The turn notices of the slash commands (and of a tap) are new messages pinging the player.
    for x in [&start, &by_command, &board] {
        let call = x.text_call().unwrap();
        assert!(call.content().unwrap().contains(&format!("<@{USER_ID}>")), "{x}");
        assert!(creates_a_message(call), "the turn notice is only an edit:\n{x}");
        assert_eq!(call.message_json().pointer("/allowed_mentions/users"), Some(&player), "{x}");
    }
    let calls = bot.standin.all_calls();
    let messages: Vec<_> = calls.iter().filter(|c| c.ok() && c.is_message()).collect();
    assert!(messages.len() >= 20, "{} messages", messages.len());
    let (mut pings, mut in_edits) = (0, 0);
    for c in messages {
        let allowed = c.message_json().get("allowed_mentions").unwrap_or_else(|| panic!("no allowed_mentions:\n{c}"));
        assert_eq!(allowed["parse"], json!([]), "{c}");
        assert_eq!(allowed["roles"], json!([]), "{c}");
        let users = &allowed["users"];
        let private = c.flags() & 64 != 0;
        if users != &json!([]) {
            assert_eq!(users, &player, "{c}");
            assert!(!private, "a private message pings nobody:\n{c}");
            assert!(c.content().is_some_and(|t| t.contains(&format!("<@{USER_ID}>"))), "{c}");
            pings += 1;
        }
        // A turn notice is only in an edit once the channel is lively.
        if users != &json!([]) && !creates_a_message(c) {
            let before = calls.iter().filter(|b| b.seq < c.seq && on_a_webhook(b)).count();
            assert!(before >= LIVELY_FROM, "a turn notice in an edit after {before} webhook calls:\n{c}");
            in_edits += 1;
        }
    }
    assert!(pings >= 10, "{pings} pings");
    assert!(pings - in_edits >= LIVELY_FROM / 2, "{pings} pings, {in_edits} of them in edits");
    bot.stop().await;
}

/// A tap whose old board was deleted still posts the new board and stores the move: the new
/// board comes first, taking the old menu off is best effort.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_deleted_old_board_never_hides_the_new_one(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let board_id = start.message_id().unwrap();
    let board = bot.standin.message(board_id).unwrap();
    let f5 = touch_id(&board, "p.f5").unwrap();
    // Someone deletes the board message; the player taps the number still on their screen.
    bot.standin.delete_message(board_id);
    let tap = bot
        .standin
        .try_interact_until(fixtures::button_on(&ctx, &f5, &board), |x| {
            x.calls.iter().any(|c| c.kind == ReplyKind::EditOriginal)
        })
        .await
        .unwrap();
    let posted = tap.followups();
    assert_eq!(posted.len(), 1, "{tap}");
    let played = en(Msg::YouPlayed { mv: mv(GameKind::Reversi, "f5") });
    assert!(posted[0].content().is_some_and(|t| t.contains(&played)), "{tap}");
    assert!(posted[0].flags() & 64 == 0, "{tap}");
    assert_post_is_stored(&bot.store, &ctx, posted[0], Lang::En).await;
    assert!(tap.calls.iter().all(|c| c.flags() & 64 == 0), "no error for the player:\n{tap}");
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 2);
    assert!(tap.refused().iter().all(|c| c.kind == ReplyKind::EditOriginal), "{tap}");
    // The new board plays on.
    let new_board = bot.standin.message(posted[0].message_id.unwrap()).unwrap();
    let values = touch_taps(&new_board, "p");
    let next = tap_move_on(&bot, &ctx, &new_board, &values[0]).await;
    assert!(!next.is_ephemeral(), "{next}");
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 4);
    // Discord refused only edits of the deleted message: through the tap, and (when the bot
    // takes the replaced board's menu off, best effort) by its id.
    bot.shards.shutdown_all().await;
    let refused: Vec<_> = bot.standin.all_calls().into_iter().filter(|c| !c.ok()).collect();
    let of_the_deleted_board = |kind: &ReplyKind| match kind {
        ReplyKind::EditOriginal => true,
        ReplyKind::EditChannelMessage { message_id, .. } => *message_id == board_id,
        _ => false,
    };
    assert!(refused.iter().all(|c| of_the_deleted_board(&c.kind)), "{refused:?}");
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_complete_game_by_tapping_ends_with_a_result(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (last, taps) = tap_to_the_end(&bot, &ctx, start).await;
    assert!(taps >= 10);
    assert!(last.content().contains(&game_over(Lang::En)), "{}", last.content());
    assert_board_is_stored(&bot.store, &ctx, &last, Lang::En).await;
    let (position, ply, status, moves) = bot.snapshot(&ctx).await;
    assert_eq!(status, GameStatus::Finished);
    assert_eq!(ply as usize, moves);
    let Ok(StoredPosition::Reversi(at)) = Game::decode(GameKind::Reversi, &position) else { panic!("{position}") };
    assert!(Game::Reversi(at).outcome().is_some());
    // The final board comes with the replay of the whole game: a frame per position.
    // A replay shows every position, not the stored one: its frames are counted, not drawn again.
    let gif = last.file("replay.gif").unwrap_or_else(|| panic!("no replay:\n{last}"));
    assert_eq!(gif_frames(gif), moves + 1);
    assert!(last.content().contains(&en(Msg::Replay)), "{}", last.content());
    assert!(last.file("chart.png").is_none(), "the chart comes with the commentary only");
    // The channel is free for a new game.
    let again = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(!again.is_ephemeral());
    bot.stop().await;
}

/// A seeded random game prefix reaching a position where black (the human) has a move after which
/// white (the bot) must pass, and one where after black's move every white reply leaves black
/// without a move (so the human passes automatically).
fn prefix_with_passes() -> Vec<reversi::Move> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..20_000 {
        let mut pos = reversi::Position::start();
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            if pos.turn() == reversi::Color::Black && pos.legal_mask() != 0 && moves.len() > 20 {
                let forces_bot_pass = pos.legal_moves().iter().any(|&m| {
                    let next = pos.play(m).unwrap();
                    !next.is_game_over() && next.legal_moves() == [reversi::Move::Pass]
                });
                if forces_bot_pass {
                    return moves;
                }
            }
            let legal = pos.legal_moves();
            let m = legal[rng.gen_range(0..legal.len())];
            pos = pos.play(m).unwrap();
            moves.push(m);
        }
    }
    panic!("no position with a forced pass found");
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn passes_are_played_and_announced(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    // Set the game up at a position where black can force white to pass.
    let prefix = prefix_with_passes();
    let mut game = Game::new(GameKind::Reversi);
    let mut moves = Vec::new();
    for &m in &prefix {
        let by_bot = game.to_move() == Some(Side::Second);
        game = game.play(m.into()).unwrap();
        moves.push(NewMove { mv: m.into(), by_bot, user_id: (!by_bot).then_some(USER_ID) });
    }
    let record = bot
        .store
        .create_game(&NewGame {
            guild_id: Some(ctx.guild_id),
            channel_id: ctx.channel_id,
            human_id: USER_ID,
            human_name: "Mika".into(),
            parent_id: None,
            human_side: Side::First,
            level: settai_core::Level::Reversi(reversi::ReversiLevel::Standard),
            game: Game::new(GameKind::Reversi),
            private_channel: false,
            house_rules: None,
        })
        .await
        .unwrap();
    bot.store.record_moves(&record, &moves, &game, None).await.unwrap();

    let Game::Reversi(pos) = &game else { unreachable!("a reversi game") };
    let forcing =
        pos.legal_moves().into_iter().find(|&m| pos.play(m).unwrap().legal_moves() == [reversi::Move::Pass]).unwrap();
    let x = bot.standin.interact(play_move(&ctx, &forcing.to_string())).await;
    let bot_passes = en(Msg::BotPlayed { mv: GameMove::Reversi(reversi::Move::Pass) });
    assert!(x.content().contains(&bot_passes), "{}", x.content());
    let record = bot.game(&ctx).await;
    if let Some(r) = &record {
        // After the bot's pass, the human moves again (or passes too if the game went on).
        assert!(r.human_to_move());
    }
    let (last, _) = tap_to_the_end(&bot, &ctx, x).await;
    assert!(last.content().contains(&game_over(Lang::En)), "{}", last.content());
    let (_, ply, status, count) = bot.snapshot(&ctx).await;
    assert_eq!(status, GameStatus::Finished);
    assert_eq!(ply as usize, count);
    let stored: Vec<String> = {
        let id: i64 = sqlx::query_scalar("SELECT id FROM games WHERE channel_id = $1")
            .bind(ctx.channel_id as i64)
            .fetch_one(bot.store.pool())
            .await
            .unwrap();
        bot.store.moves(id).await.unwrap().into_iter().map(|m| m.notation).collect()
    };
    assert!(stored.iter().any(|m| m == "pass"));
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_resign_button_asks_first_and_only_the_player_can_use_it(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    // Resign is in the list, which only the player whose move it is opens.
    let board = shown_board(&bot, &start);
    let list_button = start.custom_ids().into_iter().find(|id| id.starts_with("ls:")).expect("the list button");
    let other = bot.standin.interact(fixtures::button_on(&ctx.with_user(OTHER_USER_ID), &list_button, &board)).await;
    crate::assert_sign(&other, USER_ID);
    let list = open_list(&bot, &ctx, &start).await;
    let ask_id = list.custom_ids().into_iter().find(|id| id.starts_with("rs:ask:")).expect("a Resign button");
    let board = bot.standin.message(list.message_id().unwrap()).unwrap();

    // Someone else cannot resign for the player (a forged press).
    let other = bot.standin.interact(fixtures::button_on(&ctx.with_user(OTHER_USER_ID), &ask_id, &board)).await;
    assert_refused(&other, &en(Msg::NotYourGame { owner: USER_ID }));

    // The player is asked privately; "Keep playing" changes nothing.
    let ask = bot.standin.interact(fixtures::button_on(&ctx, &ask_id, &board)).await;
    assert!(ask.is_ephemeral() && ask.content() == en(Msg::ResignConfirm), "{ask}");
    let ids = ask.custom_ids();
    let (yes, no) =
        (ids.iter().find(|i| i.starts_with("rs:yes:")).unwrap(), ids.iter().find(|i| i.starts_with("rs:no:")).unwrap());
    // The ephemeral question as Discord would send it back with a click on its buttons.
    let mut question = fixtures::bot_message(&ctx, ask.message_id().unwrap_or(1_100_000_000_000_009_999));
    question["flags"] = json!(64);
    let kept = bot.standin.interact(fixtures::button_on(&ctx, no, &question)).await;
    assert!(kept.content() == en(Msg::KeepPlaying), "{kept}");
    assert_eq!(bot.game(&ctx).await.unwrap().status, GameStatus::Active);

    // "Yes" resigns that game and posts the final board for everyone.
    // The flow's answer says so on the question; the final board follows it.
    let done =
        bot.standin.interact_until(fixtures::button_on(&ctx, yes, &question), |x| !x.followups().is_empty()).await;
    let contents = done.contents().join("\n");
    assert!(contents.contains(&en(Msg::Resigned)), "{contents}");
    assert_board_is_stored(&bot.store, &ctx, &done, Lang::En).await;
    assert!(done.followups().iter().any(|f| f.flags() & 64 == 0), "the final board is public:\n{done}");
    assert!(bot.game(&ctx).await.is_none());
    let (_, _, status, _) = bot.snapshot(&ctx).await;
    assert_eq!(status, GameStatus::Resigned);

    // The same confirmation, or the old board's button, cannot touch a newer game.
    bot.standin.interact(play_reversi(&ctx)).await;
    let again = bot.standin.interact(fixtures::button_on(&ctx, yes, &question)).await;
    assert_refused(&again, &en(Msg::StaleBoard));
    let old = bot.standin.interact(fixtures::button_on(&ctx, &ask_id, &board)).await;
    assert_refused(&old, &en(Msg::StaleBoard));
    assert_eq!(bot.game(&ctx).await.unwrap().status, GameStatus::Active);
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn stats_count_each_players_games_on_this_server(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let fresh = bot.standin.interact(fixtures::slash(&ctx, "play", "stats", json!([]))).await;
    assert_eq!(fresh.content(), stats(USER_ID, PlayerResults::default(), Lang::En));
    // Two resigned reversi games count as losses; a game still on does not count.
    for _ in 0..2 {
        bot.standin.interact(play_reversi(&ctx)).await;
        bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    }
    bot.standin.interact(play_reversi(&ctx)).await;
    let mine = bot.standin.interact(fixtures::slash(&ctx, "play", "stats", json!([]))).await;
    assert_eq!(mine.content(), stats(USER_ID, results(0, 2, 0, 0), Lang::En));
    assert_no_hidden_word("/play stats", &mine.content());
    // Another player, and the same player on another server, start from nothing.
    let other = bot.standin.interact(fixtures::slash(&ctx.with_user(OTHER_USER_ID), "play", "stats", json!([]))).await;
    assert_eq!(other.content(), stats(OTHER_USER_ID, PlayerResults::default(), Lang::En));
    let elsewhere = Ctx { guild_id: fixtures::GUILD_ID + 1, ..Ctx::ja() };
    let ja = bot.standin.interact(fixtures::slash(&elsewhere, "play", "stats", json!([]))).await;
    assert_eq!(ja.content(), stats(USER_ID, PlayerResults::default(), Lang::Ja));
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn threads_hold_games_of_their_own_beside_their_channel(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let channel = Ctx::en();
    let (thread_a, thread_b) = (channel.in_thread(fixtures::THREAD_ID), channel.in_thread(fixtures::THREAD_ID + 1));
    // One game in the channel and one in each thread, all at once, each its own.
    let started = bot.standin.interact(play_reversi(&channel)).await;
    assert!(!started.is_ephemeral(), "{started}");
    for thread in [&thread_a, &thread_b] {
        let x = bot.standin.interact(play_reversi(&thread.with_user(OTHER_USER_ID))).await;
        let started = en(Msg::Started { kind: GameKind::Reversi, human: OTHER_USER_ID, human_side: Side::First });
        assert!(!x.is_ephemeral() && x.content().contains(&started), "{x}");
    }
    // A second game in a thread is refused like in a channel.
    assert_refused(&bot.standin.interact(play_reversi(&thread_a)).await, &en(Msg::ChannelBusy));
    // Moves go to their own game: the thread's owner plays there, the channel's game is untouched.
    let moved = bot.standin.interact(play_move(&thread_a.with_user(OTHER_USER_ID), "f5")).await;
    assert!(!moved.is_ephemeral(), "{moved}");
    let in_thread = bot.store.active_game(fixtures::THREAD_ID).await.unwrap().unwrap();
    let in_channel = bot.store.active_game(channel.channel_id).await.unwrap().unwrap();
    let in_other = bot.store.active_game(fixtures::THREAD_ID + 1).await.unwrap().unwrap();
    assert_eq!((in_thread.ply, in_channel.ply, in_other.ply), (2, 0, 0));
    assert_eq!((in_thread.human_id, in_channel.human_id), (OTHER_USER_ID, USER_ID));
    // The board of a thread's game is posted in the thread.
    let board = bot.standin.interact(fixtures::slash(&thread_a, "play", "board", json!([]))).await;
    assert_board_is_stored(&bot.store, &thread_a, &board, Lang::En).await;
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn boards_name_the_player_as_the_server_shows_them(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    // A nickname with an emoji the font lacks: kept as given, drawn with a box for the emoji.
    let mama = Ctx::en().with_nick("Mama 🌸");
    let named = bot.standin.interact(play_reversi(&mama)).await;
    assert_board_is_stored(&bot.store, &mama, &named, Lang::En).await;
    assert_eq!(bot.game(&mama).await.unwrap().human_name, "Mama 🌸");
    // Without a nickname the global name is used (in a direct message too, where the player
    // chooses the opponent: the same one here).
    let dm = Ctx::en().dm();
    let standard = settai_core::Level::Reversi(reversi::ReversiLevel::Standard);
    let plain = crate::private_channels::start_with(&bot, &dm, "reversi", standard).await;
    assert_eq!(bot.game(&dm).await.unwrap().human_name, dm.username());
    assert_board_is_stored(&bot.store, &dm, &plain, Lang::En).await;
    // Same position, same language: the images differ only where the names are written.
    let (a, b) = (board_image(&named).to_rgb8(), board_image(&plain).to_rgb8());
    assert_eq!(a.dimensions(), b.dimensions());
    let differing_rows: Vec<u32> =
        (0..a.height()).filter(|&y| (0..a.width()).any(|x| a.get_pixel(x, y) != b.get_pixel(x, y))).collect();
    assert!(!differing_rows.is_empty(), "the name is drawn");
    assert!(*differing_rows.last().unwrap() < 64, "only the header differs: rows {differing_rows:?}");
    // The name is kept with the game: a later board (any member asking) still shows it.
    let again =
        bot.standin.interact(fixtures::slash(&mama.with_nick("Someone else"), "play", "board", json!([]))).await;
    assert_board_is_stored(&bot.store, &mama, &again, Lang::En).await;
    assert_eq!(board_image(&again).to_rgb8(), a);
    bot.stop().await;
}
