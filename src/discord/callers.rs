//! Who asks, from where, and what the bot may do there, as Discord tells it: the [`Caller`] of an
//! interaction, its venue, the language to answer in, the permissions the bot lacks.

use serenity::all::{
    AuthorizingIntegrationOwner, AuthorizingIntegrationOwners, ChannelId, ChannelType, CommandInteraction,
    ComponentInteraction, GuildId, InteractionContext, Member, PartialChannel, User,
};

use crate::domain::{Settings, Venue};
use crate::i18n::{Lang, Needed};
use crate::service::Caller;

/// Who sent the command `i`, and from where.
pub(super) fn caller_of_command(i: &CommandInteraction) -> Caller {
    let venue = venue_of(i.context, i.guild_id);
    caller_of(i.guild_id, i.channel_id, i.channel.as_ref(), &i.user, i.member.as_deref(), venue)
}

/// Who pressed the component `i`, and from where.
pub(super) fn caller_of_component(i: &ComponentInteraction) -> Caller {
    let venue = venue_of(i.context, i.guild_id);
    caller_of(i.guild_id, i.channel_id, i.channel.as_ref(), &i.user, i.member.as_ref(), venue)
}

/// Whether the interaction comes from a server the app was not added to, through a player's
/// own install: the bot is not there, may not post there and knows nothing of the server's
/// settings (docs/design/private-channels.md#a-server-without-the-app). Without owners (older
/// payloads) the app is taken to be installed where it is used.
pub(super) fn app_not_in_server(context: Option<InteractionContext>, owners: &AuthorizingIntegrationOwners) -> bool {
    context == Some(InteractionContext::Guild)
        && !owners.0.is_empty()
        && !owners.0.iter().any(|owner| matches!(owner, AuthorizingIntegrationOwner::GuildInstall(_)))
}

/// The venue Discord names (`context`); without one, a server when there is a server, else
/// the bot's DM (all an app installed to servers could be used in before user installs).
fn venue_of(context: Option<InteractionContext>, guild: Option<GuildId>) -> Venue {
    match context {
        Some(InteractionContext::Guild) => Venue::Server,
        Some(InteractionContext::BotDm) => Venue::BotDm,
        Some(InteractionContext::PrivateChannel) => Venue::PrivateChannel,
        _ if guild.is_some() => Venue::Server,
        _ => Venue::BotDm,
    }
}

/// Who acts where; the name is the one the server shows (nickname, else global name, else
/// user name). In a thread the parent channel is kept: its settings apply there.
fn caller_of(
    guild: Option<GuildId>,
    channel_id: ChannelId,
    channel: Option<&PartialChannel>,
    user: &User,
    member: Option<&Member>,
    venue: Venue,
) -> Caller {
    let name = member.map_or_else(|| user.display_name(), |m| m.display_name()).to_string();
    let is_thread = channel.is_some_and(|c| {
        matches!(c.kind, ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread)
    });
    let parent_id = channel.filter(|_| is_thread).and_then(|c| c.parent_id).map(|p| p.get());
    Caller {
        guild_id: guild.map(|g| g.get()),
        channel_id: channel_id.get(),
        parent_id,
        user_id: user.id.get(),
        name,
        venue,
    }
}

/// The language of replies under `settings`: the one they impose, else the player's locale.
pub(super) fn lang_of(settings: Option<&Settings>, locale: &str) -> Lang {
    settings.and_then(|s| s.language).unwrap_or_else(|| Lang::from_locale(locale))
}

/// The permissions the bot lacks to show a game where it was asked (`app_permissions` of the
/// interaction; unknown when Discord sent none): boards are messages with an image, and in a
/// thread messages need a permission of their own.
pub(super) fn missing_permissions(app: Option<serenity::all::Permissions>, in_thread: bool) -> Vec<Needed> {
    let Some(p) = app else { return Vec::new() };
    let mut needed = Vec::new();
    if in_thread {
        if !p.send_messages_in_threads() {
            needed.push(Needed::SendInThreads);
        }
    } else if !p.send_messages() {
        needed.push(Needed::SendMessages);
    }
    if !p.attach_files() {
        needed.push(Needed::AttachFiles);
    }
    needed
}
