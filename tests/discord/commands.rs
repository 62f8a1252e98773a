//! Commands: the interaction fixtures serenity accepts, the commands the bot registers (with
//! their Japanese names) globally or to a development server, and autocomplete of moves.

use serde_json::json;
use serenity::all::Permissions;
use sqlx::PgPool;

use crate::support::fixtures::{self, Ctx, OTHER_USER_ID};
use crate::{play_reversi, Bot, T};

#[test]
fn every_fixture_deserializes_as_a_serenity_interaction() {
    fixtures::assert_fixtures_deserialize();
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_play_command_is_registered_with_japanese_names(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let commands = bot.standin.registered_commands().await;
    let play = commands.iter().find(|c| c["name"] == "play").expect("/play is registered");
    let subs: Vec<&str> = play["options"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    for wanted in ["reversi", "doubutsu", "move", "board", "resign", "stats", "help"] {
        assert!(subs.contains(&wanted), "missing /play {wanted}: {subs:?}");
    }
    assert!(play["description_localizations"]["ja"].is_string());
    // Japanese clients see Japanese names for the command, every subcommand and option.
    assert_eq!(play["name_localizations"]["ja"], "あそぶ");
    for sub in play["options"].as_array().unwrap() {
        assert!(sub["name_localizations"]["ja"].is_string(), "{sub}");
        for opt in sub["options"].as_array().into_iter().flatten() {
            assert!(opt["name_localizations"]["ja"].is_string(), "{opt}");
        }
    }
    let settings = commands.iter().find(|c| c["name"] == "settings").expect("/settings is registered");
    assert_eq!(settings["name_localizations"]["ja"], "設定");
    // Both installable to servers and to players' accounts, and usable in servers, the bot's
    // DM and players' DMs and group DMs; /settings only for server managers in servers.
    for command in [play, settings] {
        assert_eq!(command["integration_types"], json!([0, 1]), "{command}");
        assert_eq!(command["contexts"], json!([0, 1, 2]), "{command}");
    }
    assert_eq!(settings["default_member_permissions"], Permissions::MANAGE_GUILD.bits().to_string());
    let mv = play["options"].as_array().unwrap().iter().find(|o| o["name"] == "move").unwrap();
    assert_eq!(mv["options"][0]["autocomplete"], true);
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn with_a_development_guild_commands_are_registered_there_only(pool: PgPool) {
    let bot = Bot::builder(pool).guild(fixtures::GUILD_ID).start().await;
    // The bot registers its commands in one call, once connected.
    bot.standin.wait_commands(T).await;
    let registered = bot.standin.registered_guild_commands(fixtures::GUILD_ID).await;
    assert!(registered.iter().any(|c| c["name"] == "play"), "{registered:?}");
    assert!(bot.standin.registered_commands().await.is_empty(), "nothing registered globally");
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn autocomplete_offers_the_legal_moves(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    let none = bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "")).await;
    assert!(none.autocomplete_choices().is_empty());
    bot.standin.interact(play_reversi(&ctx)).await;
    let all = bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "")).await;
    let mut values: Vec<String> = all.autocomplete_choices().into_iter().map(|(_, v)| v).collect();
    values.sort();
    assert_eq!(values, ["c4", "d3", "e6", "f5"]);
    let some = bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "D")).await;
    assert_eq!(some.autocomplete_choices(), [("d3".to_string(), "d3".to_string())]);
    // Someone else's game offers them nothing.
    let other =
        bot.standin.interact(fixtures::autocomplete(&ctx.with_user(OTHER_USER_ID), "play", "move", "move", "")).await;
    assert!(other.autocomplete_choices().is_empty());
    bot.stop().await;
}
