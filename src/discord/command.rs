//! The slash commands as the bot understands them: one typed [`Command`], parsed once from an
//! interaction's options, so the flows never see option names or values as text. The same
//! subcommand lists ([`PlaySub`], [`SettingsSub`]) define what is registered with Discord
//! (`registration.rs`), so a subcommand cannot be offered without being understood.

use serenity::all::{CommandData, CommandDataOption, CommandDataOptionValue};

use crate::domain::{Change, Lang, Scope, MAX_REMINDER_HOURS};
use settai_core::{GameKind, Level, Side};

/// The name of the players' command.
pub const PLAY: &str = "play";
/// The name of the server managers' command.
pub const SETTINGS: &str = "settings";

/// The subcommands of `/play`, in the order Discord lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaySub {
    /// The game box: a big button per game.
    Games,
    /// Start reversi.
    Reversi,
    /// Start doubutsu shogi.
    Doubutsu,
    /// Play a move typed out.
    Move,
    /// Show the board again.
    Board,
    /// Resign.
    Resign,
    /// The player's results.
    Stats,
    /// Take back the last move.
    Takeback,
    /// How to play.
    Help,
    /// The player's reminders on or off.
    Remind,
    /// The player's own hints on or off.
    Hints,
    /// Erase what the bot keeps about the player.
    ForgetMe,
}

impl PlaySub {
    /// Every subcommand, in the order Discord lists them.
    pub const ALL: [PlaySub; 12] = [
        PlaySub::Games,
        PlaySub::Reversi,
        PlaySub::Doubutsu,
        PlaySub::Move,
        PlaySub::Board,
        PlaySub::Resign,
        PlaySub::Stats,
        PlaySub::Takeback,
        PlaySub::Help,
        PlaySub::Remind,
        PlaySub::Hints,
        PlaySub::ForgetMe,
    ];

    /// Its name in interactions (Discord sends the English name whatever the client's language).
    pub fn name(self) -> &'static str {
        match self {
            PlaySub::Games => "games",
            PlaySub::Reversi => "reversi",
            PlaySub::Doubutsu => "doubutsu",
            PlaySub::Move => "move",
            PlaySub::Board => "board",
            PlaySub::Resign => "resign",
            PlaySub::Stats => "stats",
            PlaySub::Takeback => "takeback",
            PlaySub::Help => "help",
            PlaySub::Remind => "remind",
            PlaySub::Hints => "hints",
            PlaySub::ForgetMe => "forget-me",
        }
    }
}

/// The subcommands of `/settings`, in the order Discord lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsSub {
    /// Show the settings in effect.
    Show,
    /// A game's level.
    Level,
    /// Players choose their opponent.
    Choice,
    /// Days before an idle game closes.
    Idle,
    /// Hours before a reminder.
    Reminders,
    /// Commentary on or off.
    Commentary,
    /// Take-backs on or off.
    Takeback,
    /// Team play on or off.
    Team,
    /// The coach's hints on or off.
    Hints,
    /// The language imposed on replies.
    Language,
    /// The channel follows the server again.
    Reset,
}

impl SettingsSub {
    /// Every subcommand, in the order Discord lists them.
    pub const ALL: [SettingsSub; 11] = [
        SettingsSub::Show,
        SettingsSub::Level,
        SettingsSub::Choice,
        SettingsSub::Idle,
        SettingsSub::Reminders,
        SettingsSub::Commentary,
        SettingsSub::Takeback,
        SettingsSub::Team,
        SettingsSub::Hints,
        SettingsSub::Language,
        SettingsSub::Reset,
    ];

    /// Its name in interactions.
    pub fn name(self) -> &'static str {
        match self {
            SettingsSub::Show => "show",
            SettingsSub::Level => "level",
            SettingsSub::Choice => "choice",
            SettingsSub::Idle => "idle",
            SettingsSub::Reminders => "reminders",
            SettingsSub::Commentary => "commentary",
            SettingsSub::Takeback => "takeback",
            SettingsSub::Team => "team",
            SettingsSub::Hints => "hints",
            SettingsSub::Language => "language",
            SettingsSub::Reset => "reset",
        }
    }
}

/// Names of the options the subcommands take.
pub mod option {
    /// `/play reversi`: the player's colour (`black` or `white`).
    pub const COLOR: &str = "color";
    /// `/play move`: the move typed (autocompleted).
    pub const MOVE: &str = "move";
    /// An on/off switch.
    pub const ON: &str = "on";
    /// `/settings level`: which game.
    pub const GAME: &str = "game";
    /// `/settings level`: the level.
    pub const LEVEL: &str = "level";
    /// `/settings idle`: days.
    pub const DAYS: &str = "days";
    /// `/settings reminders`: hours.
    pub const HOURS: &str = "hours";
    /// `/settings language`: `auto`, `en` or `ja`.
    pub const LANGUAGE: &str = "language";
    /// A setting's subcommand: for this channel only.
    pub const HERE: &str = "here";
}

/// A slash command, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `/play games`: the game box (docs/design/touch.md#the-game-box).
    Games,
    /// `/play reversi`, as `side` (black moves first).
    StartReversi {
        /// The player's side.
        side: Side,
    },
    /// `/play doubutsu` (the player moves first).
    StartDoubutsu,
    /// `/play move`: a move as typed (the service reads it: a bad one is the player's mistake,
    /// not a forged request).
    Move {
        /// The text typed.
        typed: String,
    },
    /// `/play board`.
    Board,
    /// `/play resign`.
    Resign,
    /// `/play stats`.
    Stats,
    /// `/play takeback`.
    Takeback,
    /// `/play help`.
    Help,
    /// `/play remind`.
    Remind {
        /// Reminders wanted.
        on: bool,
    },
    /// `/play hints`.
    Hints {
        /// The coach's hints wanted.
        on: bool,
    },
    /// `/play forget-me`: asks, then erases what the bot keeps about the player.
    ForgetMe,
    /// `/settings`, for server managers.
    Settings(SettingsRequest),
}

/// What a `/settings` command asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsRequest {
    /// `/settings show`.
    Show,
    /// `/settings reset`: the channel follows the server again.
    Reset,
    /// A change.
    Change {
        /// The new value.
        change: Change,
        /// For the server, or this channel only.
        scope: Scope,
    },
}

/// Why an interaction is not a command the bot knows. Discord only sends the registered
/// subcommands with the offered choices and ranges, so apart from a level that belongs to the
/// other game (Discord cannot tie one option's choices to another's), these are forged or
/// outdated requests.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// No such command or subcommand.
    #[error("unknown command {0:?}")]
    Unknown(String),
    /// An option is missing or out of range.
    #[error("option {0:?} is missing or not allowed")]
    BadOption(&'static str),
    /// `/settings level` with a level of the other game.
    #[error("that level is not one of {kind}'s")]
    LevelNotForGame {
        /// The game chosen.
        kind: GameKind,
    },
}

impl Command {
    /// The command an interaction's data asks for.
    pub fn parse(data: &CommandData) -> Result<Command, CommandError> {
        let unknown = || CommandError::Unknown(data.name.clone());
        let sub = data.options.first().ok_or_else(unknown)?;
        let CommandDataOptionValue::SubCommand(options) = &sub.value else { return Err(unknown()) };
        let options = Options(options);
        match data.name.as_str() {
            PLAY => {
                let sub = PlaySub::ALL.into_iter().find(|s| s.name() == sub.name).ok_or_else(unknown)?;
                Command::play(sub, &options)
            }
            SETTINGS => {
                let sub = SettingsSub::ALL.into_iter().find(|s| s.name() == sub.name).ok_or_else(unknown)?;
                Command::settings(sub, &options)
            }
            _ => Err(unknown()),
        }
    }

    fn play(sub: PlaySub, options: &Options<'_>) -> Result<Command, CommandError> {
        Ok(match sub {
            PlaySub::Games => Command::Games,
            PlaySub::Reversi => match options.string(option::COLOR) {
                None | Some("black") => Command::StartReversi { side: Side::First },
                Some("white") => Command::StartReversi { side: Side::Second },
                Some(_) => return Err(CommandError::BadOption(option::COLOR)),
            },
            PlaySub::Doubutsu => Command::StartDoubutsu,
            PlaySub::Move => {
                let typed = options.string(option::MOVE).ok_or(CommandError::BadOption(option::MOVE))?;
                Command::Move { typed: typed.to_string() }
            }
            PlaySub::Board => Command::Board,
            PlaySub::Resign => Command::Resign,
            PlaySub::Stats => Command::Stats,
            PlaySub::Takeback => Command::Takeback,
            PlaySub::Help => Command::Help,
            PlaySub::Remind => Command::Remind { on: options.switch()? },
            PlaySub::Hints => Command::Hints { on: options.switch()? },
            PlaySub::ForgetMe => Command::ForgetMe,
        })
    }

    fn settings(sub: SettingsSub, options: &Options<'_>) -> Result<Command, CommandError> {
        let change = match sub {
            SettingsSub::Show => return Ok(Command::Settings(SettingsRequest::Show)),
            SettingsSub::Reset => return Ok(Command::Settings(SettingsRequest::Reset)),
            SettingsSub::Level => {
                let kind = options
                    .string(option::GAME)
                    .and_then(|g| g.parse::<GameKind>().ok())
                    .ok_or(CommandError::BadOption(option::GAME))?;
                let level = options.string(option::LEVEL).ok_or(CommandError::BadOption(option::LEVEL))?;
                Change::Level(Level::parse(kind, level).map_err(|_| CommandError::LevelNotForGame { kind })?)
            }
            SettingsSub::Choice => Change::LevelChoice(options.switch()?),
            SettingsSub::Idle => Change::IdleDays(options.integer(option::DAYS, 1, 365)?),
            SettingsSub::Reminders => Change::ReminderHours(options.integer(option::HOURS, 0, MAX_REMINDER_HOURS)?),
            SettingsSub::Commentary => Change::Commentary(options.switch()?),
            SettingsSub::Takeback => Change::Takeback(options.switch()?),
            SettingsSub::Team => Change::TeamPlay(options.switch()?),
            SettingsSub::Hints => Change::Hints(options.switch()?),
            SettingsSub::Language => Change::Language(match options.string(option::LANGUAGE) {
                Some("auto") => None,
                Some("en") => Some(Lang::En),
                Some("ja") => Some(Lang::Ja),
                _ => return Err(CommandError::BadOption(option::LANGUAGE)),
            }),
        };
        let scope = if options.boolean(option::HERE) == Some(true) { Scope::Channel } else { Scope::Server };
        Ok(Command::Settings(SettingsRequest::Change { change, scope }))
    }

    /// Whether the answer is a board or a message in the channel (which needs the channel's
    /// permissions), rather than a private answer to the player.
    pub fn posts_in_channel(&self) -> bool {
        matches!(
            self,
            Command::Games
                | Command::StartReversi { .. }
                | Command::StartDoubutsu
                | Command::Move { .. }
                | Command::Board
                | Command::Resign
                | Command::Takeback
        )
    }
}

/// A subcommand's options, looked up by name.
struct Options<'a>(&'a [CommandDataOption]);

impl Options<'_> {
    fn value(&self, name: &str) -> Option<&CommandDataOptionValue> {
        self.0.iter().find(|o| o.name == name).map(|o| &o.value)
    }

    fn string(&self, name: &str) -> Option<&str> {
        match self.value(name)? {
            CommandDataOptionValue::String(s) => Some(s),
            _ => None,
        }
    }

    fn boolean(&self, name: &str) -> Option<bool> {
        match self.value(name)? {
            CommandDataOptionValue::Boolean(b) => Some(*b),
            _ => None,
        }
    }

    /// The required on/off switch.
    fn switch(&self) -> Result<bool, CommandError> {
        self.boolean(option::ON).ok_or(CommandError::BadOption(option::ON))
    }

    /// A required whole number within `min..=max` (the range registered with Discord).
    fn integer(&self, name: &'static str, min: u32, max: u32) -> Result<u32, CommandError> {
        match self.value(name) {
            Some(CommandDataOptionValue::Integer(n)) => {
                u32::try_from(*n).ok().filter(|n| (min..=max).contains(n)).ok_or(CommandError::BadOption(name))
            }
            _ => Err(CommandError::BadOption(name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::discord::registration::{play_command, settings_command};

    /// The interaction data Discord would send for `sub` of `command` (as registered), each
    /// option given its first choice, its least value, or `true`.
    fn data_for(command: &Value, sub: &Value) -> CommandData {
        let options: Vec<Value> = sub["options"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|o| {
                let value = match o["type"].as_u64() {
                    Some(3) => o["choices"][0]["value"].clone(),
                    Some(4) => o.get("min_value").cloned().unwrap_or(json!(1)),
                    Some(5) => json!(true),
                    other => panic!("an option of type {other:?}"),
                };
                let value = if value.is_null() { json!("d3") } else { value };
                json!({ "name": o["name"], "type": o["type"], "value": value })
            })
            .collect();
        serde_json::from_value(json!({
            "id": "1",
            "name": command["name"],
            "type": 1,
            "options": [{ "name": sub["name"], "type": 1, "options": options }],
        }))
        .expect("interaction data as Discord sends it")
    }

    #[test]
    fn every_registered_subcommand_is_understood() {
        for command in [play_command(), settings_command()] {
            let command = serde_json::to_value(command).unwrap();
            let subs = command["options"].as_array().unwrap();
            assert_eq!(subs.len(), if command["name"] == PLAY { PlaySub::ALL.len() } else { SettingsSub::ALL.len() });
            for sub in subs {
                let parsed = Command::parse(&data_for(&command, sub));
                assert!(parsed.is_ok(), "/{} {}: {parsed:?}", command["name"], sub["name"]);
            }
        }
    }

    #[test]
    fn forged_options_are_refused() {
        let command = serde_json::to_value(settings_command()).unwrap();
        let idle = command["options"].as_array().unwrap().iter().find(|s| s["name"] == "idle").unwrap().clone();
        let mut data = serde_json::to_value(data_for(&command, &idle)).unwrap();
        data["options"][0]["options"][0]["value"] = json!(366);
        let data: CommandData = serde_json::from_value(data).unwrap();
        assert_eq!(Command::parse(&data), Err(CommandError::BadOption(option::DAYS)));
        let unknown: CommandData = serde_json::from_value(json!({
            "id": "1", "name": "play", "type": 1, "options": [{ "name": "cheat", "type": 1, "options": [] }],
        }))
        .unwrap();
        assert_eq!(Command::parse(&unknown), Err(CommandError::Unknown("play".into())));
    }

    #[test]
    fn a_level_of_the_other_game_is_named_as_such() {
        let command = serde_json::to_value(settings_command()).unwrap();
        let level = command["options"].as_array().unwrap().iter().find(|s| s["name"] == "level").unwrap().clone();
        let mut data = serde_json::to_value(data_for(&command, &level)).unwrap();
        // The first game offered with a level of the other game.
        data["options"][0]["options"][0]["value"] = json!("doubutsu");
        data["options"][0]["options"][1]["value"] = json!("highest");
        let data: CommandData = serde_json::from_value(data).unwrap();
        assert_eq!(Command::parse(&data), Err(CommandError::LevelNotForGame { kind: GameKind::Doubutsu }));
    }
}
