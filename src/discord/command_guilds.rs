//! Where the slash commands live: globally, or on the one server `DISCORD_GUILD_ID` names; a
//! copy left on a server an earlier start registered to is cleared
//! (docs/design/bot-reliability.md#where-the-commands-live).

use serenity::all::{Command as AppCommand, GuildId};
use serenity::http::Http;

use super::calls::{discord_code, retried, Repeat};
use super::registration::{play_command, settings_command};
use crate::service::Service;

/// Discord's code for a server the application cannot reach there (it was removed from it).
pub(super) const MISSING_ACCESS: isize = 50001;

/// Registers the commands where they belong, then clears the copies of servers they no
/// longer belong to. Those copies stay while the commands could not be registered, so that
/// `/play` is somewhere meanwhile.
pub(super) async fn register_commands(service: &Service, guild_id: Option<u64>, http: &Http) {
    let target = guild_id;
    if let Some(guild) = target {
        // Recorded before the copy is made: a start cut short between the two leaves no
        // copy the next start does not know of.
        if let Err(e) = service.remember_command_guild(guild).await {
            tracing::warn!(error = %e, guild, "could not record the server the commands go to");
        }
    }
    // A bulk overwrite: safe to try again.
    let registered = retried("register the commands", Repeat::Safe, || async {
        match target {
            Some(guild) => GuildId::new(guild).set_commands(http, vec![play_command(), settings_command()]).await,
            None => AppCommand::set_global_commands(http, vec![play_command(), settings_command()]).await,
        }
    })
    .await;
    match registered {
        Ok(_) => clear_other_copies(service, http, target).await,
        Err(e) => tracing::error!(error = %e, "could not register slash commands"),
    }
}

/// Clears the commands from every recorded server but `kept`, and forgets each one cleared
/// or that the bot is no longer in (Discord's 50001 Missing Access there).
async fn clear_other_copies(service: &Service, http: &Http, kept: Option<u64>) {
    let guilds = match service.command_guilds().await {
        Ok(guilds) => guilds,
        Err(e) => {
            tracing::warn!(error = %e, "could not read the servers the commands were registered to");
            return;
        }
    };
    // 0 is no server's id (serenity's ids refuse it): a row edited by hand is left alone.
    for guild in guilds.into_iter().filter(|&g| Some(g) != kept && g != 0) {
        // A bulk overwrite with nothing: safe to try again.
        let cleared =
            retried("clear a server's commands", Repeat::Safe, || GuildId::new(guild).set_commands(http, vec![])).await;
        let outcome = match cleared {
            Ok(_) => "removed the commands from a server DISCORD_GUILD_ID no longer names",
            // Nothing is left to clear there, and nothing for the operator to do: no warning.
            Err(e) if discord_code(&e) == Some(MISSING_ACCESS) => {
                "the bot is no longer in a server it registered the commands to; forgot that server"
            }
            Err(e) => {
                tracing::warn!(error = %e, guild, "could not remove the commands from a server; will try at the next start");
                continue;
            }
        };
        match service.forget_command_guild(guild).await {
            Ok(()) => tracing::info!(guild, "{outcome}"),
            Err(e) => {
                tracing::warn!(error = %e, guild, "{outcome}, but could not record it; will try at the next start")
            }
        }
    }
}
