//! The README's screenshots, drawn from real replies of the bot (the README gives the command:
//! `cargo test --test discord readme_screenshots`).

use serde_json::{json, Value};
use settai::i18n::Msg;
use sqlx::PgPool;

use crate::said::en;
use crate::support::fixtures::{self, Ctx, USER_ID};
use crate::support::{screenshot, Exchange};
use crate::{
    here, level_options, numbers, on, play_move, play_reversi, settings, shown_board, tap_move, tap_to_the_end,
    touch_id, Bot,
};

/// A screenshot of the message an exchange left, as Discord would show it.
fn card(x: &Exchange, names: &[(u64, &str)], open_menus: bool) -> image::RgbImage {
    card_with(x, x.components(), names, open_menus, screenshot::WIDTH)
}

/// A screenshot of the message an exchange posted, with `components` (as the message shows
/// them now), on a client `width` wide.
fn card_with(
    x: &Exchange,
    components: Vec<Value>,
    names: &[(u64, &str)],
    open_menus: bool,
    width: u32,
) -> image::RgbImage {
    let content = x.content();
    // The pictures are drawn as they came: what boards show is checked where they are played.
    let files = x.files().into_iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    let card = screenshot::Card {
        content: &content,
        files,
        components,
        ephemeral: x.is_ephemeral(),
        names: names.to_vec(),
        open_menus,
        width,
    };
    screenshot::render(&card)
}

/// The README's screenshots are real replies of the bot, drawn the way Discord shows them; they
/// are written to the folder `SETTAI_SCREENSHOTS` names (the README gives the command).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn readme_screenshots_are_drawn_from_real_replies(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let mut shots: Vec<(&str, image::RgbImage, usize)> = Vec::new();
    let mika = Ctx::en().with_nick("Mika");
    let names = [(USER_ID, "Mika")];

    // A game starts, with the commentary on for the whole server.
    bot.standin.interact(settings(&mika, "commentary", on(true), true)).await;
    let start = bot.standin.interact(play_reversi(&mika)).await;
    shots.push(("play-reversi-en", card(&start, &names, false), 1));

    // A move in Japanese, with its one line of commentary.
    let haruto = Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID).with_nick("はると");
    let started = bot.standin.interact(play_reversi(&haruto)).await;
    let values = numbers(&bot, &started);
    let moved = tap_move(&bot, &haruto, &started, &values[0]).await;
    assert!(moved.contents().len() > 1 || moved.content().lines().count() > 2, "{moved}");
    shots.push(("move-ja", card(&moved, &[(USER_ID, "はると")], false), 1));

    // A family channel where the children choose their opponent (and no commentary).
    let family = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 7).with_nick("Mika");
    for (sub, value) in [("choice", true), ("commentary", false)] {
        let mut options = on(value);
        options.as_array_mut().unwrap().push(here());
        bot.standin.interact(settings(&family, sub, options, true)).await;
    }
    let offer = bot.standin.interact(fixtures::slash(&family, "play", "doubutsu", json!([]))).await;
    assert!(offer.is_ephemeral(), "{offer}");
    shots.push(("opponent-picker-en", card(&offer, &names, true), 0));
    let shown = bot.standin.interact(settings(&family, "show", json!([]), true)).await;
    shots.push(("settings-show-en", card(&shown, &names, false), 0));
    let help = bot.standin.interact(fixtures::slash(&family, "play", "help", json!([]))).await;
    assert!(help.is_ephemeral() && help.file("animals.png").is_some(), "{help}");
    shots.push(("help-en", card(&help, &names, false), 1));

    // A take-back (待った) where a manager allows them: the board goes back to before the move.
    let undo = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 9).with_nick("Mika");
    let mut options = on(true);
    options.as_array_mut().unwrap().push(here());
    bot.standin.interact(settings(&undo, "takeback", options, true)).await;
    bot.standin.interact(play_reversi(&undo)).await;
    bot.standin.interact(play_move(&undo, "f5")).await;
    let undone = bot.standin.interact(fixtures::slash(&undo, "play", "takeback", json!([]))).await;
    assert!(undone.contents().join("\n").contains(&en(Msg::TookBack)), "{undone}");
    shots.push(("takeback-en", card(&undone, &names, false), 1));

    // Play by touch, on a phone: a doubutsu board of buttons, the chick chosen and its square
    // lit; a reversi board whose squares carry the numbers of the buttons under it.
    let touch = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 11).with_nick("Mika");
    let mut options = level_options("doubutsu", "weakest");
    options.as_array_mut().unwrap().push(here());
    bot.standin.interact(settings(&touch, "level", options, true)).await;
    let board = bot.standin.interact(fixtures::slash(&touch, "play", "doubutsu", json!([]))).await;
    let message = shown_board(&bot, &board);
    let rest = message["components"].as_array().cloned().unwrap_or_default();
    shots.push(("touch-doubutsu-en", card_with(&board, rest, &names, false, screenshot::PHONE_WIDTH), 1));
    let chick = touch_id(&message, "c.B3").expect("the chick");
    let chosen = bot.standin.interact(fixtures::button_on(&touch, &chick, &message)).await;
    let lit = shown_board(&bot, &chosen)["components"].as_array().cloned().unwrap_or_default();
    shots.push(("touch-doubutsu-chosen-en", card_with(&board, lit, &names, false, screenshot::PHONE_WIDTH), 1));
    bot.standin.interact(fixtures::slash(&touch, "play", "resign", json!([]))).await;
    let numbered = bot.standin.interact(play_reversi(&touch)).await;
    let shown = shown_board(&bot, &numbered)["components"].as_array().cloned().unwrap_or_default();
    shots.push(("touch-reversi-en", card_with(&numbered, shown, &names, false, screenshot::PHONE_WIDTH), 1));

    // The end of the first game: result, replay and the chart of how it went.
    let (over, _) = tap_to_the_end(&bot, &mika, start).await;
    assert!(over.file("replay.gif").is_some() && over.file("chart.png").is_some(), "{over}");
    shots.push(("game-over-en", card(&over, &names, false), 3));

    let out = std::env::var_os("SETTAI_SCREENSHOTS").map(std::path::PathBuf::from);
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir).unwrap();
    }
    for (name, img, pictures) in &shots {
        let width = if name.starts_with("touch-") { screenshot::PHONE_WIDTH } else { screenshot::WIDTH };
        assert_eq!(img.width(), width, "{name}");
        // Each attached picture is drawn at its aspect ratio, at most 420 px wide.
        assert!(img.height() as usize > 100 + 180 * pictures, "{name} is only {} px tall", img.height());
        if let Some(dir) = &out {
            img.save(dir.join(format!("{name}.png"))).unwrap();
        }
    }
    bot.stop().await;
}
