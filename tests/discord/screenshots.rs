//! The README's screenshots, drawn from real replies of the bot (the README gives the command:
//! `cargo test --test discord readme_screenshots`): a desktop client's for the commands, and
//! for play by touch a phone's, 360 and 414 px wide, in English and Japanese.

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
fn card(bot: &Bot, x: &Exchange, names: &[(u64, &str)], open_menus: bool) -> image::RgbImage {
    card_with(bot, x, x.components(), names, open_menus, screenshot::WIDTH)
}

/// A screenshot of the message an exchange posted, with `components` (as the message shows
/// them now), on a client `width` wide; custom emojis drawn from the application's own.
fn card_with(
    bot: &Bot,
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
        custom_emojis: bot.standin.application_emojis().into_iter().map(|(id, _, image)| (id, image)).collect(),
    };
    screenshot::render(&card)
}

/// Play by touch on a phone, in `ctx`'s language (its own channel, the weakest doubutsu level
/// there): a doubutsu board of buttons, the chick chosen and its square lit, a reversi board
/// whose squares carry the numbers of the buttons under it; each at every phone width, named
/// `touch-...-LANG-WIDTH`.
async fn touch_shots(bot: &Bot, ctx: &Ctx, names: &[(u64, &str)], lang: &str) -> Vec<(String, image::RgbImage, usize)> {
    let mut options = level_options("doubutsu", "weakest");
    options.as_array_mut().unwrap().push(here());
    bot.standin.interact(settings(ctx, "level", options, true)).await;
    let board = bot.standin.interact(fixtures::slash(ctx, "play", "doubutsu", json!([]))).await;
    let message = shown_board(bot, &board);
    let rest = message["components"].as_array().cloned().unwrap_or_default();
    let chick = touch_id(&message, "c.B3").expect("the chick");
    let chosen = bot.standin.interact(fixtures::button_on(ctx, &chick, &message)).await;
    let lit = shown_board(bot, &chosen)["components"].as_array().cloned().unwrap_or_default();
    bot.standin.interact(fixtures::slash(ctx, "play", "resign", json!([]))).await;
    let numbered = bot.standin.interact(play_reversi(ctx)).await;
    let shown = shown_board(bot, &numbered)["components"].as_array().cloned().unwrap_or_default();
    let mut shots = Vec::new();
    for width in screenshot::PHONE_WIDTHS {
        for (what, x, components) in
            [("doubutsu", &board, &rest), ("doubutsu-chosen", &board, &lit), ("reversi", &numbered, &shown)]
        {
            let img = card_with(bot, x, components.clone(), names, false, width);
            shots.push((format!("touch-{what}-{lang}-{width}"), img, 1));
        }
    }
    shots
}

/// The README's screenshots are real replies of the bot, drawn the way Discord shows them; they
/// are written to the folder `SETTAI_SCREENSHOTS` names (the README gives the command).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn readme_screenshots_are_drawn_from_real_replies(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let mut shots: Vec<(String, image::RgbImage, usize)> = Vec::new();
    let mika = Ctx::en().with_nick("Mika");
    let names = [(USER_ID, "Mika")];

    // A game starts, with the commentary on for the whole server.
    bot.standin.interact(settings(&mika, "commentary", on(true), true)).await;
    let start = bot.standin.interact(play_reversi(&mika)).await;
    shots.push(("play-reversi-en".into(), card(&bot, &start, &names, false), 1));

    // A move in Japanese, with its one line of commentary.
    let haruto = Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID).with_nick("はると");
    let started = bot.standin.interact(play_reversi(&haruto)).await;
    let values = numbers(&bot, &started);
    let moved = tap_move(&bot, &haruto, &started, &values[0]).await;
    assert!(moved.contents().len() > 1 || moved.content().lines().count() > 2, "{moved}");
    shots.push(("move-ja".into(), card(&bot, &moved, &[(USER_ID, "はると")], false), 1));

    // A family channel where the children choose their opponent (and no commentary).
    let family = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 7).with_nick("Mika");
    for (sub, value) in [("choice", true), ("commentary", false)] {
        let mut options = on(value);
        options.as_array_mut().unwrap().push(here());
        bot.standin.interact(settings(&family, sub, options, true)).await;
    }
    let offer = bot.standin.interact(fixtures::slash(&family, "play", "doubutsu", json!([]))).await;
    assert!(offer.is_ephemeral(), "{offer}");
    shots.push(("opponent-picker-en".into(), card(&bot, &offer, &names, true), 0));
    let shown = bot.standin.interact(settings(&family, "show", json!([]), true)).await;
    shots.push(("settings-show-en".into(), card(&bot, &shown, &names, false), 0));
    let help = bot.standin.interact(fixtures::slash(&family, "play", "help", json!([]))).await;
    assert!(help.is_ephemeral() && help.file("animals.png").is_some(), "{help}");
    shots.push(("help-en".into(), card(&bot, &help, &names, false), 1));

    // A take-back (待った) where a manager allows them: the board goes back to before the move.
    let undo = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 9).with_nick("Mika");
    let mut options = on(true);
    options.as_array_mut().unwrap().push(here());
    bot.standin.interact(settings(&undo, "takeback", options, true)).await;
    bot.standin.interact(play_reversi(&undo)).await;
    bot.standin.interact(play_move(&undo, "f5")).await;
    let undone = bot.standin.interact(fixtures::slash(&undo, "play", "takeback", json!([]))).await;
    assert!(undone.contents().join("\n").contains(&en(Msg::TookBack)), "{undone}");
    shots.push(("takeback-en".into(), card(&bot, &undone, &names, false), 1));

    // Play by touch, on phones, in both languages.
    let touch = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 11).with_nick("Mika");
    shots.extend(touch_shots(&bot, &touch, &names, "en").await);
    let touch_ja = Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID + 13).with_nick("はると");
    shots.extend(touch_shots(&bot, &touch_ja, &[(USER_ID, "はると")], "ja").await);

    // The end of the first game: result, replay and the chart of how it went.
    let (over, _) = tap_to_the_end(&bot, &mika, start).await;
    assert!(over.file("replay.gif").is_some() && over.file("chart.png").is_some(), "{over}");
    shots.push(("game-over-en".into(), card(&bot, &over, &names, false), 3));

    let out = std::env::var_os("SETTAI_SCREENSHOTS").map(std::path::PathBuf::from);
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir).unwrap();
    }
    for (name, img, pictures) in &shots {
        // A touch screenshot says its width in its name.
        let width = name.rsplit('-').next().and_then(|w| w.parse().ok()).unwrap_or(screenshot::WIDTH);
        assert_eq!(img.width(), width, "{name}");
        // Each attached picture is drawn at its aspect ratio, at most 420 px wide.
        assert!(img.height() as usize > 100 + 180 * pictures, "{name} is only {} px tall", img.height());
        if let Some(dir) = &out {
            img.save(dir.join(format!("{name}.png"))).unwrap();
        }
    }
    bot.stop().await;
}

/// A card of `content` and one button showing `emoji`, on a 360 px phone.
fn drawn(content: &str, emoji: Value, custom_emojis: Vec<(u64, Vec<u8>)>) -> image::RgbImage {
    let components = vec![json!({"type": 1, "components": [
        {"type": 2, "style": 2, "custom_id": "x", "label": "B3", "emoji": emoji}
    ]})];
    let card = screenshot::Card {
        content,
        files: Vec::new(),
        components,
        ephemeral: false,
        names: Vec::new(),
        open_menus: false,
        width: screenshot::PHONE_WIDTHS[0],
        custom_emojis,
    };
    screenshot::render(&card)
}

/// An emoji the renderer has no picture for fails the screenshot, naming it, in the text as on
/// a button: a screenshot never drops one silently. A custom emoji is drawn from the image the
/// application holds (here a pure green square), and one it does not hold fails too.
#[test]
fn a_screenshot_draws_every_emoji_or_names_the_one_it_cannot() {
    let failure = |f: fn()| {
        let caught = std::panic::catch_unwind(f).expect_err("the renderer must refuse");
        caught.downcast_ref::<String>().cloned().unwrap_or_default()
    };
    assert!(failure(|| drop(drawn("a frog 🐸", json!({"name": "🦁"}), Vec::new()))).contains("🐸"));
    assert!(failure(|| drop(drawn("your move", json!({"name": "🐸"}), Vec::new()))).contains("🐸"));
    assert!(failure(|| drop(drawn("", json!({"id": "42", "name": "lion_up"}), Vec::new()))).contains("42"));

    let mut green = std::io::Cursor::new(Vec::new());
    image::RgbaImage::from_pixel(64, 64, image::Rgba([0, 255, 0, 255]))
        .write_to(&mut green, image::ImageFormat::Png)
        .unwrap();
    let img = drawn("your move ⏳", json!({"id": "42", "name": "lion_up"}), vec![(42, green.into_inner())]);
    assert!(img.pixels().any(|p| p.0 == [0, 255, 0]), "the custom emoji's own picture is on the button");
    assert_eq!(img.width(), 360);
}
