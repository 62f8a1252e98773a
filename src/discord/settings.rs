//! `/settings`: parsing a server manager's change, storing it and answering in the language in effect.

use serenity::all::CommandInteraction;

use super::handler::{lang_of, refusal_text, Bot};
use crate::domain::{Change, Place, Scope, Settings, MAX_REMINDER_HOURS};
use crate::i18n::{Lang, Msg};
use crate::service::Seat;
use settai_core::{GameKind, Level};

impl Bot {
    /// `/settings`: the reply text (always ephemeral: only the admin sees levels). `options` are
    /// the subcommand's: its one value (a level, "true"/"false", days or a language code), the
    /// game for a level, and `here` for this channel only.
    pub(super) async fn settings(
        &self,
        cmd: &CommandInteraction,
        seat: &Seat,
        settings: &Settings,
        sub: &str,
        options: &[(&str, String)],
        lang: Lang,
    ) -> String {
        let option = |key: &str| options.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
        let value = ["level", "on", "days", "language", "hours"].into_iter().find_map(option);
        let game = option("game");
        let scope = if option("here") == Some("true") { Scope::Channel } else { Scope::Server };
        let Some(guild) = cmd.guild_id.map(|g| g.get()) else { return Msg::ServerOnly.text(lang) };
        // Discord hides the command from others, but the permission is checked here too.
        let permitted =
            cmd.member.as_ref().and_then(|m| m.permissions).is_some_and(|p| p.manage_guild() || p.administrator());
        if !permitted {
            return Msg::ManagersOnly.text(lang);
        }
        let place = seat.place();
        // Discord only sends the offered choices and ranges; anything else is a forged request.
        let on = || value.and_then(|v| v.parse::<bool>().ok());
        let change = match sub {
            "show" => return Msg::Settings { settings }.text(lang),
            "reset" => {
                return match self.service().clear_channel_settings(guild, &place).await {
                    // The channel may have imposed the language of this very reply.
                    Ok(had) => Msg::ChannelReset { had }.text(self.lang(&place, &cmd.locale).await),
                    Err(e) => refusal_text(&e, lang),
                };
            }
            "idle" => value.and_then(|d| d.parse::<u32>().ok()).filter(|d| (1..=365).contains(d)).map(Change::IdleDays),
            "reminders" => value
                .and_then(|h| h.parse::<u32>().ok())
                .filter(|h| *h <= MAX_REMINDER_HOURS)
                .map(Change::ReminderHours),
            "commentary" => on().map(Change::Commentary),
            "team" => on().map(Change::TeamPlay),
            "choice" => on().map(Change::LevelChoice),
            "takeback" => on().map(Change::Takeback),
            "language" => match value {
                Some("auto") => Some(Change::Language(None)),
                Some("en") => Some(Change::Language(Some(Lang::En))),
                Some("ja") => Some(Change::Language(Some(Lang::Ja))),
                _ => None,
            },
            "level" => {
                let Some(kind) = game.and_then(|g| g.parse::<GameKind>().ok()) else {
                    return Msg::TryAgain.text(lang);
                };
                match Level::parse(kind, value.unwrap_or("")) {
                    Err(_) => return Msg::LevelNotForGame { kind }.text(lang),
                    Ok(level) => Some(Change::Level(level)),
                }
            }
            _ => None,
        };
        let Some(change) = change else { return Msg::TryAgain.text(lang) };
        if let Err(e) = self.service().change_setting(guild, &place, scope, change).await {
            return refusal_text(&e, lang);
        }
        // The confirmation is in the language now in effect (a new one, when that was set).
        let lang = self.lang(&place, &cmd.locale).await;
        let mut text = match change {
            Change::Level(level) => Msg::LevelSet { kind: level.kind(), level }.text(lang),
            Change::Commentary(on) => Msg::CommentarySet { on }.text(lang),
            Change::IdleDays(days) => Msg::IdleSet { days }.text(lang),
            Change::TeamPlay(on) => Msg::TeamSet { on }.text(lang),
            Change::Language(language) => Msg::LanguageSet { language }.text(lang),
            Change::LevelChoice(on) => Msg::ChoiceSet { on }.text(lang),
            Change::ReminderHours(hours) => Msg::RemindersSet { hours }.text(lang),
            Change::Takeback(on) => Msg::TakebackSet { on }.text(lang),
        };
        if scope == Scope::Channel {
            text = format!("{text} {}", Msg::ForThisChannel.text(lang));
        }
        text
    }

    /// The language to answer in at `place` when no settings were read for the request.
    async fn lang(&self, place: &Place, locale: &str) -> Lang {
        match self.service().settings(place).await {
            Ok(settings) => lang_of(Some(&settings), locale),
            Err(e) => {
                tracing::warn!(error = %e, "could not read the server's language");
                Lang::from_locale(locale)
            }
        }
    }
}
