//! The board's tiles as the bot's application emojis (docs/design/touch.md#tiles-on-the-buttons):
//! uploaded at start by name, once whatever the number of processes, never deleted or
//! re-created, named on the buttons by id; plain emoji when the upload fails.

use serde_json::json;
use settai::discord;
use settai::domain::{Change, Scope};
use settai::render::doubutsu::{Animal, Owner, TileEmoji};
use settai::service::Service;
use settai_core::doubutsu::{DoubutsuLevel, Square};
use settai_core::Level;
use sqlx::PgPool;

use crate::support::discord::RateLimits;
use crate::support::fixtures::{self, Ctx};
use crate::support::{ReplyKind, StandIn};
use crate::{buttons_of, connection_to, place, shown_board, tile_of, Bot, T};

/// How many pictures the board's tiles are (both sides' animals, the computer's on its last
/// move's square, the two empty squares).
fn tiles() -> usize {
    TileEmoji::all().len()
}

/// A doubutsu board in `ctx`'s channel (at the weakest level, which needs no table), as the
/// channel shows it.
async fn a_board(bot: &Bot, ctx: &Ctx) -> serde_json::Value {
    let weakest = Change::Level(Level::Doubutsu(DoubutsuLevel::Weakest));
    bot.store.change_setting(ctx.guild_id, &place(ctx), Scope::Server, weakest).await.unwrap();
    let started = bot.standin.interact(fixtures::slash(ctx, "play", "doubutsu", json!([]))).await;
    shown_board(bot, &started)
}

/// Two processes start at once against one Discord: each tile is created once, by name, and
/// a third process (a restart) finds them and creates nothing; nothing is ever deleted.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_tiles_are_uploaded_once_whatever_the_number_of_processes(pool: PgPool) {
    let standin = StandIn::start_with(RateLimits::roomy()).await;
    let store = settai::store::Store::from_pool(pool);
    let mut shards = Vec::new();
    for _ in 0..2 {
        let mut client = discord::client(connection_to(&standin, None), Service::new(store.clone())).await.unwrap();
        shards.push(client.shard_manager.clone());
        tokio::spawn(async move { client.start().await });
    }
    standin.wait_sessions(2, T).await;
    // Both processes register their commands once their tiles are known.
    standin.wait_command_registrations(2, T).await;
    let uploaded = standin.application_emojis();
    let names: std::collections::BTreeSet<&str> = uploaded.iter().map(|(_, name, _)| name.as_str()).collect();
    assert_eq!(names.len(), tiles(), "one emoji per tile, by name: {names:?}");
    for want in ["your_lion", "computers_giraffe", "computers_chick_just_moved", "empty_square", "square_just_left"] {
        assert!(names.contains(want), "{want} in {names:?}");
    }
    // The winner of each race created it; the loser was refused the name and read it back.
    assert!(standin.application_emoji_creates() >= tiles(), "{}", standin.application_emoji_creates());
    let before = standin.application_emojis();
    let creates = standin.application_emoji_creates();
    for s in &shards {
        s.shutdown_all().await;
    }
    let third = Bot::on(standin, store).await;
    let standin = &third.standin;
    third.shards.shutdown_all().await;
    assert_eq!(standin.application_emoji_creates(), creates, "a restart creates nothing");
    assert_eq!(standin.application_emojis(), before, "the same emojis, the same ids");
    assert_eq!(standin.application_emoji_deletes(), 0, "an emoji is never deleted");
    // Only the races' losers were refused (a name already taken), as Discord would.
    let refused: Vec<String> = standin
        .all_calls()
        .iter()
        .filter(|c| !c.ok() && c.kind != ReplyKind::CreateApplicationEmoji)
        .map(|c| c.to_string())
        .collect();
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

/// A board's buttons name the tiles by the ids Discord gave them, each the picture the board
/// draws on its square; an emoji already there under a tile's name is used, not uploaded again.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_board_names_its_tiles_by_id(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let board = a_board(&bot, &ctx).await;
    let ids: std::collections::HashMap<String, u64> =
        bot.standin.application_emojis().into_iter().map(|(id, name, _)| (name, id)).collect();
    let buttons = buttons_of(&board);
    // The start: the computer's animals on rows 1 and 2, the player's on rows 3 and 4.
    let start: settai_core::doubutsu::Position = settai_core::doubutsu::Position::start();
    for (i, b) in buttons[..12].iter().enumerate() {
        let sq = Square::new(i as u8).unwrap();
        let want = match start.piece_at(sq) {
            Some(p) => TileEmoji::Piece { owner: Owner::from(p.color), animal: Animal::from(p.role), moved: false },
            None => TileEmoji::Empty { left: false },
        };
        assert_eq!(tile_of(&bot, b), Some(want), "{sq}:\n{b}");
        let name = b["emoji"]["name"].as_str().unwrap();
        assert_eq!(b["emoji"]["id"].as_str().map(|id| id.parse::<u64>().unwrap()), ids.get(name).copied(), "{sq}");
    }
    let store = bot.store.clone();
    bot.stop().await;

    // Where the application already has an emoji of a tile's name, the bot takes it as it is.
    let standin = StandIn::start_with(RateLimits::roomy()).await;
    let lion = TileEmoji::Piece { owner: Owner::Sente, animal: Animal::Lion, moved: false };
    let kept = standin.add_application_emoji("your_lion", &lion.png().unwrap());
    let bot = Bot::on(standin, store).await;
    assert_eq!(bot.standin.application_emoji_creates(), tiles() - 1, "all but the one already there");
    let elsewhere = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID);
    let board = a_board(&bot, &elsewhere).await;
    let lion_button = &buttons_of(&board)[10];
    assert_eq!(lion_button["emoji"]["id"].as_str(), Some(kept.to_string().as_str()), "{lion_button}");
    bot.stop().await;
}

/// When Discord refuses the upload, the buttons show plain emoji (the sides by colour, ▫️ for
/// an empty square), nothing else fails, and the next start uploads them.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn without_its_tiles_a_board_shows_plain_emoji(pool: PgPool) {
    let bot = Bot::builder(pool).failing("POST", "/emojis", 500).start().await;
    let ctx = Ctx::en();
    let board = a_board(&bot, &ctx).await;
    assert!(!bot.standin.injected_faults().is_empty(), "the upload was tried");
    assert!(bot.standin.application_emojis().is_empty());
    for (i, b) in buttons_of(&board)[..12].iter().enumerate() {
        assert!(b["emoji"]["id"].is_null(), "square {i}: a plain emoji\n{b}");
        let name = b["emoji"]["name"].as_str().unwrap_or_default();
        let sq = Square::new(i as u8).unwrap();
        match settai_core::doubutsu::Position::start().piece_at(sq) {
            Some(p) => assert_eq!(name, settai::i18n::animal_emoji(p.role), "{sq}"),
            None => assert_eq!(name, "▫\u{fe0f}", "{sq}"),
        }
    }
    bot.standin.heal_calls();
    let bot = bot.restart().await;
    assert_eq!(bot.standin.application_emojis().len(), tiles());
    bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    let board = a_board(&bot, &ctx).await;
    assert!(buttons_of(&board)[..12].iter().all(|b| tile_of(&bot, b).is_some()), "{board}");
    bot.stop().await;
}
