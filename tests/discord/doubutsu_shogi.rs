//! Doubutsu shogi: played by menu and command, the table levels answering as the table says, and
//! the table missing (refused politely) or being built in the background.

use serde_json::json;
use settai::domain::{Change, GameStatus, Scope};
use settai::i18n::{move_label, Lang, MoveMenu, Msg};
use settai::service::table_keeper::TableKeeper;
use settai::table_file::TableFile;
use settai_core::doubutsu::{self, table::Material, Role, Table as _};
use settai_core::{Game, GameKind, Level, MoveDetail, Side};
use sqlx::PgPool;

use crate::board_pictures::assert_board_is_stored;
use crate::said::{self, before_move, en, illegal, mv};
use crate::support::fixtures::{self, Ctx, USER_ID};
use crate::{assert_refused, move_menus, open_list, place, play_move, play_reversi, small_table, tap_move, Bot, T};

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn doubutsu_is_played_by_touch_by_list_and_by_command_at_the_weakest_level(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let weakest = Change::Level(Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest));
    bot.store.change_setting(ctx.guild_id, &place(&ctx), Scope::Server, weakest).await.unwrap();

    let start = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert!(!start.is_ephemeral(), "{start}");
    let started = en(Msg::Started { kind: GameKind::Doubutsu, human: USER_ID, human_side: Side::First });
    assert!(start.content().contains(&started), "{}", start.content());
    assert_board_is_stored(&bot.store, &ctx, &start, Lang::En).await;
    // The list: one menu per kind of move, its placeholder saying which; options a child can read.
    let menus = move_menus(&open_list(&bot, &ctx, &start).await);
    let shown: Vec<(&str, Vec<(&str, &str)>)> =
        menus.iter().map(|(_, p, o)| (p.as_str(), o.iter().map(|(l, v)| (l.as_str(), v.as_str())).collect())).collect();
    let menu_of = |menu| en(Msg::MenuOf { menu, more: false });
    let step = |text, role, captures| {
        (move_label(mv(GameKind::Doubutsu, text), Some(MoveDetail::Step { role, captures }), Lang::En), text)
    };
    let (lion, others) = (menu_of(MoveMenu::Lion), menu_of(MoveMenu::Animals));
    let (lion_steps, other_steps) = (
        [step("B4A3", Role::Lion, None), step("B4C3", Role::Lion, None)],
        [step("B3B2", Role::Chick, Some(Role::Chick)), step("C4C3", Role::Giraffe, None)],
    );
    let expected: Vec<(&str, Vec<(&str, &str)>)> = vec![
        (&lion, lion_steps.iter().map(|(l, v)| (l.as_str(), *v)).collect()),
        (&others, other_steps.iter().map(|(l, v)| (l.as_str(), *v)).collect()),
    ];
    assert_eq!(shown, expected, "{start}");

    // Autocomplete is case-insensitive.
    let ac = bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "b4")).await;
    let mut choices: Vec<String> = ac.autocomplete_choices().into_iter().map(|(_, v)| v).collect();
    choices.sort();
    assert_eq!(choices, ["B4A3", "B4C3"]);

    // The chick takes the chick by two taps; the bot answers.
    let tap = tap_move(&bot, &ctx, &start, "B3B2").await;
    let played = en(Msg::YouPlayed { mv: mv(GameKind::Doubutsu, "B3B2") });
    assert!(tap.content().contains(&played), "{}", tap.content());
    assert!(tap.content().contains(&before_move(|mv| Msg::BotPlayed { mv }, Lang::En)), "{}", tap.content());
    assert_board_is_stored(&bot.store, &ctx, &tap, Lang::En).await;
    let record = bot.game(&ctx).await.unwrap();
    assert_eq!(record.ply, 2);
    assert_eq!(record.level, Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest));

    // A drop is offered in its own menu once the hand holds a piece, and typed moves work.
    let menus = move_menus(&open_list(&bot, &ctx, &tap).await);
    let all_values: Vec<String> = menus.iter().flat_map(|(_, _, o)| o.iter().map(|(_, v)| v.clone())).collect();
    let moves = record.game.legal_moves();
    let mut legal: Vec<String> = moves.iter().map(ToString::to_string).collect();
    legal.sort();
    let mut offered = all_values.clone();
    offered.sort();
    assert_eq!(offered, legal, "the menus offer exactly the legal moves");
    // Drops have a menu of their own, each option naming the animal.
    let hand_menu = en(Msg::MenuOf { menu: MoveMenu::Hand, more: false });
    let hand = menus.iter().find(|(_, p, _)| p == &hand_menu).expect("the chick is in hand");
    let drop = |v: &str| move_label(mv(GameKind::Doubutsu, v), Some(MoveDetail::Drop { role: Role::Chick }), Lang::En);
    assert!(hand.2.iter().all(|(l, v)| v.starts_with("C*") && l == &drop(v)), "{hand:?}");
    assert_eq!(hand.2.len(), moves.iter().filter(|m| m.is_drop()).count());
    let illegal_move = bot.standin.interact(play_move(&ctx, "A4A1")).await;
    assert_refused(&illegal_move, &illegal("A4A1", &record.game, Lang::En));
    let typed = legal[0].to_lowercase();
    let by_command = bot.standin.interact(play_move(&ctx, &typed)).await;
    assert!(!by_command.is_ephemeral(), "{by_command}");
    assert_board_is_stored(&bot.store, &ctx, &by_command, Lang::En).await;
    let stored = bot.snapshot(&ctx).await;
    assert!(stored.1 >= 3, "{stored:?}");
    // The stored game reads back with its history.
    assert!(Game::decode(GameKind::Doubutsu, &stored.0).is_ok());
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn doubutsu_table_levels_answer_through_the_bot_as_the_table_says(pool: PgPool) {
    use rand::SeedableRng;
    let (table, root) = small_table("levels");
    let bot = Bot::builder(pool).table(table.clone()).start().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let mut checked = 0;
    for (i, level) in
        [Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest), Level::Doubutsu(doubutsu::DoubutsuLevel::Settai)]
            .into_iter()
            .enumerate()
    {
        let ctx = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 1 + i as u64);
        let record = bot.doubutsu_game_at(&ctx, root, level).await;
        let mut local = doubutsu::History::from_position(root);
        for _ in 0..300 {
            if local.outcome().is_some() {
                break;
            }
            // The guest: random, but never missing a win in one nor walking into a loss in one.
            let human = doubutsu::weakest(&local, &mut rng).unwrap();
            let x = bot.standin.interact(play_move(&ctx, &human.to_string())).await;
            assert!(!x.is_ephemeral(), "{x}");
            assert_board_is_stored(&bot.store, &ctx, &x, Lang::En).await;
            local.play(human).unwrap();
            let stored = bot.store.game(record.id).await.unwrap().unwrap();
            let Game::Doubutsu(stored_game) = &stored.game else { unreachable!("a doubutsu game") };
            if local.outcome().is_some() {
                assert_eq!(stored_game.history().moves(), local.moves());
                break;
            }
            assert_eq!(stored_game.history().moves().len(), local.moves().len() + 1, "the bot answered once");
            let reply = *stored_game.history().moves().last().unwrap();
            // What the table says of every move here, and of the level's own choice.
            let pos = *local.position();
            let values = doubutsu::evaluate_moves(&*table, &pos).unwrap();
            let value_of = |m: doubutsu::Move| values.iter().find(|(v, _)| *v == m).unwrap().1;
            let expected = match level {
                Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest) => doubutsu::strongest(&*table, &local).unwrap(),
                _ => doubutsu::settai(&*table, &local, &mut rng).unwrap(),
            };
            assert_eq!(
                value_of(reply),
                value_of(expected),
                "{level:?} at {pos}: played {reply}, expected {expected}'s value"
            );
            checked += 1;
            local.play(reply).unwrap();
        }
        assert!(local.outcome().is_some(), "the game ended");
        let finished = bot.store.game(record.id).await.unwrap().unwrap();
        assert_eq!(finished.status, GameStatus::Finished);
        assert!(bot.game(&ctx).await.is_none());
        // The stored game reads back from its own start (not the official one).
        let (_, last) = (finished.game.encode(), bot.store.moves(record.id).await.unwrap().len());
        assert_eq!(last, local.moves().len());
    }
    assert!(checked >= 4, "{checked} replies checked");
    // The table is used as a probe would: a position of this sub-game is valued.
    assert!(table.probe(&root).is_ok());
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn without_the_table_doubutsu_is_refused_politely_and_reversi_still_works(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    // The default doubutsu level (settai) needs the table, which this bot does not have.
    let refused = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    let not_ready = Msg::Unavailable { kind: GameKind::Doubutsu, minutes: None };
    assert_refused(&refused, &en(not_ready.clone()));
    assert!(bot.game(&ctx).await.is_none(), "no game was created");
    let ja = bot.standin.interact(fixtures::slash(&Ctx::ja(), "play", "doubutsu", json!([]))).await;
    assert!(ja.is_ephemeral() && ja.content() == said::ja(not_ready), "{}", ja.content());
    let reversi = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(!reversi.is_ephemeral());
    assert_board_is_stored(&bot.store, &ctx, &reversi, Lang::En).await;
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_missing_table_is_built_in_the_background_and_table_levels_wait_for_it_politely(pool: PgPool) {
    // A fresh install: no table file. The bot builds it (here a sub-game's, in a moment) and
    // is held at the start of the build until the refusal has been seen.
    let dir = std::env::temp_dir().join(format!("settai-e2e-keeper-{}", std::process::id()));
    let path = dir.join("doubutsu.tb");
    let _ = std::fs::remove_dir_all(&dir);
    let (release, gate) = std::sync::mpsc::channel::<()>();
    let root: doubutsu::Position = "1l1/1c1/1C1/1L1 b -".parse().unwrap();
    let keeper = TableKeeper::open_or_build_after(&path, Material::of(&root), move || {
        let _ = gate.recv();
    });
    let bot = Bot::builder(pool).keeper(keeper.clone()).start().await;
    let ctx = Ctx::en();
    let refused = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    let in_a_minute = Msg::Unavailable { kind: GameKind::Doubutsu, minutes: Some(1) };
    assert_refused(&refused, &en(in_a_minute.clone()));
    assert!(bot.game(&ctx).await.is_none(), "no game was created");
    let ja = bot.standin.interact(fixtures::slash(&Ctx::ja(), "play", "doubutsu", json!([]))).await;
    assert!(ja.is_ephemeral() && ja.content() == said::ja(in_a_minute), "{}", ja.content());
    // Reversi plays meanwhile.
    let reversi = bot.standin.interact(play_reversi(&Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID))).await;
    assert!(!reversi.is_ephemeral(), "{reversi}");

    release.send(()).unwrap();
    assert!(tokio::time::timeout(T, keeper.wait_ready()).await.unwrap(), "the build finished and opened the table");
    assert!(TableFile::open(&path).is_ok(), "the table was written where serve looks for it");
    let started = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert!(!started.is_ephemeral(), "{started}");
    assert_board_is_stored(&bot.store, &ctx, &started, Lang::En).await;
    // Table levels now answer as the table says (a game at the sub-game's root).
    let ctx = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 7);
    let record = bot.doubutsu_game_at(&ctx, root, Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest)).await;
    let mut local = doubutsu::History::from_position(root);
    let human = doubutsu::weakest(&local, &mut <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1)).unwrap();
    let x = bot.standin.interact(play_move(&ctx, &human.to_string())).await;
    assert!(!x.is_ephemeral(), "{x}");
    local.play(human).unwrap();
    let stored = bot.store.game(record.id).await.unwrap().unwrap();
    let Game::Doubutsu(stored_game) = &stored.game else { unreachable!("a doubutsu game") };
    let reply = *stored_game.history().moves().last().unwrap();
    let table = keeper.get().unwrap();
    let best = doubutsu::strongest(&*table, &local).unwrap();
    let value = |m: doubutsu::Move| table.probe(&local.position().play(m).unwrap()).unwrap();
    assert_eq!(value(reply), value(best), "the bot played {reply}, the table's best is {best}");
    bot.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
