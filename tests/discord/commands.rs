//! Commands: the interaction fixtures serenity accepts, the commands the bot registers (with
//! their Japanese names) globally or to a development server, a server's copy cleared once
//! `DISCORD_GUILD_ID` changes or is cleared, and autocomplete of moves.

use serde_json::json;
use serenity::all::Permissions;
use settai::store::Store;
use sqlx::PgPool;
use tracing::Level;

use crate::support::fixtures::{self, Ctx, OTHER_USER_ID};
use crate::support::logs::Logs;
use crate::support::{Reply, ReplyKind};
use crate::{play_reversi, Bot, T};

/// Another server of the family's, for `DISCORD_GUILD_ID` to move to.
const OTHER_GUILD_ID: u64 = fixtures::GUILD_ID + 1;

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

/// Whether the bot's commands are registered in `commands` (a server's or the global list).
fn has_play(commands: &[serde_json::Value]) -> bool {
    commands.iter().any(|c| c["name"] == "play")
}

/// The servers the store says hold a copy of the commands.
async fn recorded(store: &Store) -> Vec<u64> {
    store.command_guilds().await.unwrap()
}

/// docs/design/bot-reliability.md#where-the-commands-live: with the id cleared, the next start
/// registers globally and clears the server's copy, so `/play` does not show twice there.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn clearing_the_guild_id_removes_the_servers_copy_at_start(pool: PgPool) {
    let (logs, _caught) = Logs::catch();
    let bot = Bot::builder(pool).guild(fixtures::GUILD_ID).start().await;
    assert!(has_play(&bot.standin.registered_guild_commands(fixtures::GUILD_ID).await));
    assert_eq!(recorded(&bot.store).await, [fixtures::GUILD_ID]);

    let bot = bot.restart_to(None).await;
    bot.standin.wait_guild_commands_gone(fixtures::GUILD_ID, T).await;
    let line = logs.wait_for("removed the commands from a server", T).await;
    assert!(line.contains(&fixtures::GUILD_ID.to_string()), "{line}");
    assert!(has_play(&bot.standin.registered_commands().await), "registered globally");
    assert_eq!(recorded(&bot.store).await, Vec::<u64>::new(), "the server is forgotten once cleared");
    assert_eq!(logs.at(Level::WARN), Vec::<String>::new());
    bot.stop().await;
}

/// docs/design/bot-reliability.md#where-the-commands-live: moved to another server, the
/// commands leave the first one.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn moving_the_guild_id_to_another_server_clears_the_first(pool: PgPool) {
    let (logs, _caught) = Logs::catch();
    let bot = Bot::builder(pool).guild(fixtures::GUILD_ID).start().await;
    let bot = bot.restart_to(Some(OTHER_GUILD_ID)).await;
    bot.standin.wait_guild_commands_gone(fixtures::GUILD_ID, T).await;
    logs.wait_for("removed the commands from a server", T).await;
    assert!(has_play(&bot.standin.registered_guild_commands(OTHER_GUILD_ID).await));
    assert!(bot.standin.registered_commands().await.is_empty(), "nothing registered globally");
    assert_eq!(recorded(&bot.store).await, [OTHER_GUILD_ID]);
    assert_eq!(logs.at(Level::WARN), Vec::<String>::new());
    bot.stop().await;
}

/// docs/design/bot-reliability.md#where-the-commands-live: a server that removed the bot
/// answers 50001 Missing Access; there is nothing to clear there, so it is forgotten without a
/// warning.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_server_the_bot_left_is_forgotten_without_a_warning(pool: PgPool) {
    let (logs, _caught) = Logs::catch();
    let bot = Bot::builder(pool).guild(fixtures::GUILD_ID).start().await;
    bot.standin.remove_from_guild(fixtures::GUILD_ID);
    let bot = bot.restart_to(None).await;
    logs.wait_for("no longer in a server", T).await;
    assert!(has_play(&bot.standin.registered_commands().await), "registered globally");
    assert_eq!(recorded(&bot.store).await, Vec::<u64>::new(), "forgotten");
    assert_eq!(logs.at(Level::WARN), Vec::<String>::new());
    let route = format!("/applications/{}/guilds/{}/commands", crate::StandIn::APP_ID, fixtures::GUILD_ID);
    let left = move |c: &Reply| {
        matches!(&c.kind, ReplyKind::Other { method, path } if method == "PUT" && path.ends_with(&route))
            && c.status == 403
            && c.error.as_deref().is_some_and(|e| e.starts_with("50001 "))
    };
    let refused = bot.standin.refused();
    assert_eq!(refused.iter().filter(|c| left(c)).count(), 1, "asked once, refused as Discord does: {refused:?}");
    bot.stop_expecting(left).await;
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
