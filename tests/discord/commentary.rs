//! The move commentary: off, no player ever sees a word of the hospitality; on, each move is
//! explained in the player's language, and a finished game comes with its chart and summary.

use serde_json::json;
use settai::domain::Settings;
use settai::i18n::{Lang, Msg};
use settai_core::{doubutsu, reversi, Commentary, GameKind, Level};
use sqlx::PgPool;

use crate::board_pictures::assert_board_is_stored;
use crate::said::{self, en, mv, summary_starts};
use crate::support::fixtures::{self, Ctx};
use crate::{
    assert_no_hidden_word, assert_refused, gif_frames, numbers, open_list, place, play_move, play_reversi, settings,
    small_table, tap_move, Bot,
};

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn with_the_commentary_off_no_player_ever_sees_a_word_of_hospitality(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    for ctx in [Ctx::en(), Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID)] {
        let mut last = bot.standin.interact(play_reversi(&ctx)).await;
        for _ in 0..4 {
            let values = numbers(&bot, &last);
            open_list(&bot, &ctx, &last).await;
            last = tap_move(&bot, &ctx, &last, &values[values.len() / 2]).await;
        }
        bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "")).await;
        bot.standin.interact(play_move(&ctx, "z9")).await;
        bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
        bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    }
    let calls = bot.standin.all_calls();
    assert!(calls.len() > 20, "{} calls", calls.len());
    for call in &calls {
        assert_no_hidden_word(&format!("{:?}", call.kind), &call.json.to_string());
    }
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn with_the_commentary_on_each_move_is_explained_in_the_players_language(pool: PgPool) {
    let (table, root) = small_table("commentary");
    let bot = Bot::builder(pool).table(table.clone()).start().await;
    let ctx = Ctx::en();
    // Only managers turn it on.
    let on = json!([{ "name": "on", "type": 5, "value": true }]);
    let denied = bot.standin.interact(settings(&ctx, "commentary", on.clone(), false)).await;
    assert_refused(&denied, &en(Msg::ManagersOnly));
    assert!(!bot.store.settings(&place(&ctx)).await.unwrap().commentary);
    let set = bot.standin.interact(settings(&ctx, "commentary", on, true)).await;
    assert!(set.is_ephemeral() && set.content() == en(Msg::CommentarySet { on: true }), "{}", set.content());
    let show = bot.standin.interact(settings(&ctx, "show", json!([]), true)).await;
    let expected = Settings { commentary: true, ..Settings::default() };
    assert_eq!(show.content(), en(Msg::Settings { settings: &expected, hints_choice: None }));

    // Reversi: the engine's evaluation of the move.
    bot.standin.interact(play_reversi(&ctx)).await;
    let x = bot.standin.interact(play_move(&ctx, "d3")).await;
    let text = x.content();
    // The engine's evaluation, which the test cannot know: what any comment on d3 starts with,
    // and its unit.
    let square = |s: &str| s.parse::<reversi::Move>().unwrap();
    let comment = |value, best| {
        en(Msg::Comment(&Commentary::Reversi { mv: square("d3"), value, best: square(best), best_value: 10.0 }))
    };
    let on_d3 = said::shared_start([comment(10.0, "d3"), comment(-10.0, "c4")]);
    assert!(text.contains(&on_d3) && text.contains("discs"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let played = en(Msg::YouPlayed { mv: mv(GameKind::Reversi, "d3") });
    assert!(lines[0] == played && lines[1].starts_with("💡"), "under the player's move: {text}");
    // After the game: the replay, the chart of how it went and its summary.
    let over = bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    assert_board_is_stored(&bot.store, &ctx, &over, Lang::En).await;
    // The replay and the chart tell the whole game, not the stored position: counted and sized here.
    assert_eq!(gif_frames(over.file("replay.gif").expect("a replay")), 3, "start, d3 and the bot's move");
    let chart = image::load_from_memory(over.file("chart.png").expect("a chart")).unwrap();
    assert_eq!(chart.width(), settai::render::story::WIDTH);
    let summary = over.content();
    assert!(summary_starts(Lang::En).iter().any(|w| summary.contains(w.as_str())), "{summary}");

    // Doubutsu, in Japanese: the exact value and the divergence from the table.
    let ja = Ctx::ja();
    bot.doubutsu_game_at(&ja, root, Level::Doubutsu(doubutsu::DoubutsuLevel::Settai)).await;
    let game = doubutsu::History::from_position(root);
    let best = doubutsu::strongest(&*table, &game).unwrap();
    let worst = game
        .legal_moves()
        .into_iter()
        .find(|&m| doubutsu::analyze(&*table, &root, m).unwrap().divergence < 1.0)
        .expect("a move worse than the best");
    // What the commentary says of a move here, from the table.
    let comment = |m: doubutsu::Move| {
        let a = doubutsu::analyze(&*table, &root, m).unwrap();
        let c = Commentary::Doubutsu {
            mv: m,
            divergence: a.divergence,
            best: a.best,
            value: a.value,
            best_value: a.best_value,
        };
        said::ja(Msg::Comment(&c))
    };
    let good = bot.standin.interact(play_move(&ja, &best.to_string())).await;
    assert!(good.content().contains(&comment(best)), "{}", good.content());
    let over = bot.standin.interact(fixtures::slash(&ja, "play", "resign", json!([]))).await;
    assert_board_is_stored(&bot.store, &ja, &over, Lang::Ja).await;
    assert!(over.file("chart.png").is_some() && over.content().contains(&said::ja(Msg::Replay)), "{over}");
    bot.doubutsu_game_at(&ja, root, Level::Doubutsu(doubutsu::DoubutsuLevel::Settai)).await;
    let bad = bot.standin.interact(play_move(&ja, &worst.to_string())).await;
    assert!(bad.content().contains(&comment(worst)), "{}", bad.content());

    // Turned off again: the next move has no line.
    let off = json!([{ "name": "on", "type": 5, "value": false }]);
    bot.standin.interact(settings(&ctx, "commentary", off, true)).await;
    bot.standin.interact(fixtures::slash(&ja, "play", "resign", json!([]))).await;
    bot.standin.interact(play_reversi(&ctx)).await;
    let quiet = bot.standin.interact(play_move(&ctx, "d3")).await;
    assert!(!quiet.content().contains('💡'), "{}", quiet.content());
    bot.stop().await;
}
