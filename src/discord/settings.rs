//! `/settings`: who may use it, and a server manager's change stored and confirmed in the
//! language in effect (always privately: only the managers see levels).

use serenity::all::CommandInteraction;

use super::callers::lang_of;
use super::command::SettingsRequest;
use super::failure::Failure;
use super::message::Reply;
use super::request::Request;
use crate::domain::{Change, Place, Scope};
use crate::i18n::{Lang, Msg};
use crate::service::Service;

/// The server whose settings `cmd` may change, or why it may not: outside a server there are
/// no managers (docs/design/private-channels.md#settings), and only managers may change them (Discord hides the command from others, but
/// the permission is checked here too).
fn managed_server(cmd: &CommandInteraction) -> Result<u64, Msg<'static>> {
    let guild = cmd.guild_id.ok_or(Msg::NoManagers)?;
    let permitted =
        cmd.member.as_ref().and_then(|m| m.permissions).is_some_and(|p| p.manage_guild() || p.administrator());
    if permitted {
        Ok(guild.get())
    } else {
        Err(Msg::ManagersOnly)
    }
}

/// `/settings`: one answer, always private.
pub(super) async fn settings(
    service: &Service,
    request: &Request<'_>,
    cmd: &CommandInteraction,
    wanted: SettingsRequest,
) -> Result<(), Failure> {
    let guild = match managed_server(cmd) {
        Ok(guild) => guild,
        Err(refusal) => {
            request.responder.answer(Reply::private(refusal.text(request.lang))).await?;
            return Ok(());
        }
    };
    match wanted {
        SettingsRequest::Show => show_settings(request).await,
        SettingsRequest::Reset => reset_channel(service, request, guild, &cmd.locale).await,
        SettingsRequest::Change { change, scope } => {
            change_setting(service, request, guild, change, scope, &cmd.locale).await
        }
    }
}

/// `/settings show`.
async fn show_settings(request: &Request<'_>) -> Result<(), Failure> {
    let (responder, _, _, lang) = request.parts();
    // The place's settings, and the caller's own choice of hints beside them.
    let (settings, hints_choice) = (&request.snapshot.settings.place, request.snapshot.settings.hints_choice);
    responder.answer(Reply::private(Msg::Settings { settings, hints_choice }.text(lang))).await?;
    Ok(())
}

/// `/settings reset`: the channel follows the server again.
async fn reset_channel(service: &Service, request: &Request<'_>, guild: u64, locale: &str) -> Result<(), Failure> {
    let (responder, caller, _, _) = request.parts();
    let place = caller.place();
    let had = service.clear_channel_settings(guild, &place).await.map_err(Failure::Refused)?;
    // The channel may have imposed the language of this very reply.
    let lang = lang(service, &place, locale).await;
    responder.answer(Reply::private(Msg::ChannelReset { had }.text(lang))).await?;
    Ok(())
}

/// A manager's change, for the server or for this channel only.
async fn change_setting(
    service: &Service,
    request: &Request<'_>,
    guild: u64,
    change: Change,
    scope: Scope,
    locale: &str,
) -> Result<(), Failure> {
    let (responder, caller, _, _) = request.parts();
    let place = caller.place();
    service.change_setting(guild, &place, scope, change).await.map_err(Failure::Refused)?;
    // The confirmation is in the language now in effect (a new one, when that was set).
    let lang = lang(service, &place, locale).await;
    let mut text = match change {
        Change::Level(level) => Msg::LevelSet { kind: level.kind(), level }.text(lang),
        Change::Commentary(on) => Msg::CommentarySet { on }.text(lang),
        Change::IdleDays(days) => Msg::IdleSet { days }.text(lang),
        Change::TeamPlay(on) => Msg::TeamSet { on }.text(lang),
        Change::Language(language) => Msg::LanguageSet { language }.text(lang),
        Change::LevelChoice(on) => Msg::ChoiceSet { on }.text(lang),
        Change::ReminderHours(hours) => Msg::RemindersSet { hours }.text(lang),
        Change::Takeback(on) => Msg::TakebackSet { on }.text(lang),
        Change::Hints(on) => Msg::HintsSet { on }.text(lang),
    };
    if scope == Scope::Channel {
        text = format!("{text} {}", Msg::ForThisChannel.text(lang));
    }
    responder.answer(Reply::private(text)).await?;
    Ok(())
}

/// The language to answer in at `place` after a change (the one the request read may be
/// the one just replaced).
async fn lang(service: &Service, place: &Place, locale: &str) -> Lang {
    match service.settings(place).await {
        Ok(settings) => lang_of(Some(&settings), locale),
        Err(e) => {
            tracing::warn!(error = %e, "could not read the server's language");
            Lang::from_locale(locale)
        }
    }
}
