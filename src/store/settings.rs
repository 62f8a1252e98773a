//! What server managers choose: per server, with optional per-channel overrides.
//!
//! Every setting is read in one query as the effective value for a place: the channel's own
//! override, else (in a thread) its parent channel's, else the server's, else the default.

use sqlx::Row;

use super::{Store, StoreError, DEFAULT_IDLE_DAYS};

/// Hours a game waits for a move before its player is reminded, where nobody set otherwise.
pub const DEFAULT_REMINDER_HOURS: u32 = 24;

/// The longest wait before a reminder that can be set (a year, the longest idle limit).
pub const MAX_REMINDER_HOURS: u32 = 8760;
use crate::games::{doubutsu, reversi, GameKind, Level};
use crate::i18n::Lang;

/// Where something happens: the server (none in direct messages), the channel or thread, and
/// for a thread the channel it hangs from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// The server, if not a direct message.
    pub guild_id: Option<u64>,
    /// The channel or thread.
    pub channel_id: u64,
    /// For a thread: its parent channel.
    pub parent_id: Option<u64>,
}

/// One of the settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setting {
    /// The level of reversi.
    ReversiLevel,
    /// The level of doubutsu shogi.
    DoubutsuLevel,
    /// Move commentary and after-game charts.
    Commentary,
    /// Days a game may wait for a move.
    IdleDays,
    /// Family team mode.
    TeamPlay,
    /// A language imposed on every reply.
    Language,
    /// Whether players choose the level when they start.
    LevelChoice,
    /// Hours without a move before a player is reminded (0: never).
    ReminderHours,
    /// Whether players may take back their last move (待った).
    Takeback,
}

impl Setting {
    /// Every setting, in the order `/settings show` lists them.
    pub const ALL: [Setting; 9] = [
        Setting::DoubutsuLevel,
        Setting::ReversiLevel,
        Setting::LevelChoice,
        Setting::Commentary,
        Setting::TeamPlay,
        Setting::Takeback,
        Setting::Language,
        Setting::ReminderHours,
        Setting::IdleDays,
    ];

    /// The level setting of `kind`.
    pub fn level(kind: GameKind) -> Setting {
        match kind {
            GameKind::Reversi => Setting::ReversiLevel,
            GameKind::Doubutsu => Setting::DoubutsuLevel,
        }
    }

    /// The column in `guild_settings` and `channel_settings` (never user input).
    fn column(self) -> &'static str {
        match self {
            Setting::ReversiLevel => "reversi_level",
            Setting::DoubutsuLevel => "doubutsu_level",
            Setting::Commentary => "commentary",
            Setting::IdleDays => "idle_days",
            Setting::TeamPlay => "team_play",
            Setting::Language => "language",
            Setting::LevelChoice => "level_choice",
            Setting::ReminderHours => "reminder_hours",
            Setting::Takeback => "takeback",
        }
    }
}

/// A new value for one setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The level of a game (applies to new games).
    Level(Level),
    /// Commentary on or off.
    Commentary(bool),
    /// Days (1..=365) a game may wait for a move.
    IdleDays(u32),
    /// Team mode on or off.
    TeamPlay(bool),
    /// A language for every reply, or `None` for each player's own.
    Language(Option<Lang>),
    /// Players choose the level, or not.
    LevelChoice(bool),
    /// Hours (1..=8760) without a move before the reminder, or 0 for none.
    ReminderHours(u32),
    /// Take-backs allowed, or not.
    Takeback(bool),
}

impl Change {
    /// The setting this changes.
    pub fn setting(self) -> Setting {
        match self {
            Change::Level(level) => Setting::level(level.kind()),
            Change::Commentary(_) => Setting::Commentary,
            Change::IdleDays(_) => Setting::IdleDays,
            Change::TeamPlay(_) => Setting::TeamPlay,
            Change::Language(_) => Setting::Language,
            Change::LevelChoice(_) => Setting::LevelChoice,
            Change::ReminderHours(_) => Setting::ReminderHours,
            Change::Takeback(_) => Setting::Takeback,
        }
    }
}

/// Where a change applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The whole server (channels without an override of their own).
    Server,
    /// Only this channel or thread (and a channel's threads without their own override).
    Channel,
}

/// The settings in effect somewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Reversi's level.
    pub reversi_level: reversi::Level,
    /// Doubutsu shogi's level.
    pub doubutsu_level: doubutsu::Level,
    /// Move commentary and after-game charts.
    pub commentary: bool,
    /// Days a game may wait for a move.
    pub idle_days: u32,
    /// Anyone in the channel may move.
    pub team_play: bool,
    /// The language imposed on replies (`None`: each player's own).
    pub language: Option<Lang>,
    /// Players choose the level when they start.
    pub level_choice: bool,
    /// Hours without a move before the player is reminded (0: no reminders).
    pub reminder_hours: u32,
    /// Players may take back their last move (待った); off by default.
    pub takeback: bool,
    /// The settings that come from this channel (or its parent) rather than the server.
    pub from_channel: Vec<Setting>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            reversi_level: reversi::Level::DEFAULT,
            doubutsu_level: doubutsu::Level::DEFAULT,
            commentary: false,
            idle_days: DEFAULT_IDLE_DAYS,
            team_play: false,
            language: None,
            level_choice: false,
            reminder_hours: DEFAULT_REMINDER_HOURS,
            takeback: false,
            from_channel: Vec::new(),
        }
    }
}

impl Settings {
    /// The level `kind` is played at.
    pub fn level(&self, kind: GameKind) -> Level {
        match kind {
            GameKind::Reversi => Level::Reversi(self.reversi_level),
            GameKind::Doubutsu => Level::Doubutsu(self.doubutsu_level),
        }
    }
}

fn language_code(lang: Option<Lang>) -> &'static str {
    match lang {
        None => "auto",
        Some(Lang::En) => "en",
        Some(Lang::Ja) => "ja",
    }
}

impl Store {
    /// The settings in effect at `place` (defaults in direct messages).
    pub async fn settings(&self, place: &Place) -> Result<Settings, StoreError> {
        let Some(guild_id) = place.guild_id else { return Ok(Settings::default()) };
        let columns: Vec<String> = Setting::ALL
            .iter()
            .map(|s| {
                let c = s.column();
                format!("COALESCE(t.{c}, p.{c}, g.{c}) AS {c}, (t.{c} IS NOT NULL OR p.{c} IS NOT NULL) AS {c}_here")
            })
            .collect();
        let row = sqlx::query(&format!(
            "SELECT {} FROM (SELECT $1::BIGINT AS guild_id) s
             LEFT JOIN guild_settings g ON g.guild_id = s.guild_id
             LEFT JOIN channel_settings t ON t.channel_id = $2 AND t.guild_id = s.guild_id
             LEFT JOIN channel_settings p ON p.channel_id = $3 AND p.guild_id = s.guild_id",
            columns.join(", ")
        ))
        .bind(guild_id as i64)
        .bind(place.channel_id as i64)
        .bind(place.parent_id.map(|p| p as i64))
        .fetch_one(&self.pool)
        .await?;
        let mut settings = Settings::default();
        // A level the game does not know (edited by hand) leaves the default in effect.
        if let Some(l) = row.try_get::<Option<String>, _>("reversi_level")?.and_then(|t| t.parse().ok()) {
            settings.reversi_level = l;
        }
        if let Some(l) = row.try_get::<Option<String>, _>("doubutsu_level")?.and_then(|t| t.parse().ok()) {
            settings.doubutsu_level = l;
        }
        if let Some(on) = row.try_get::<Option<bool>, _>("commentary")? {
            settings.commentary = on;
        }
        if let Some(days) = row.try_get::<Option<i32>, _>("idle_days")? {
            settings.idle_days = days.clamp(1, 365) as u32;
        }
        if let Some(on) = row.try_get::<Option<bool>, _>("team_play")? {
            settings.team_play = on;
        }
        settings.language = match row.try_get::<Option<String>, _>("language")?.as_deref() {
            Some("en") => Some(Lang::En),
            Some("ja") => Some(Lang::Ja),
            _ => None,
        };
        if let Some(on) = row.try_get::<Option<bool>, _>("level_choice")? {
            settings.level_choice = on;
        }
        if let Some(hours) = row.try_get::<Option<i32>, _>("reminder_hours")? {
            settings.reminder_hours = hours.clamp(0, MAX_REMINDER_HOURS as i32) as u32;
        }
        if let Some(on) = row.try_get::<Option<bool>, _>("takeback")? {
            settings.takeback = on;
        }
        for setting in Setting::ALL {
            if row.try_get::<bool, _>(format!("{}_here", setting.column()).as_str())? {
                settings.from_channel.push(setting);
            }
        }
        Ok(settings)
    }

    /// Applies `change` to the server of `place`, or only to its channel. Games in progress
    /// keep their level; the other settings apply from their next move.
    pub async fn change_setting(
        &self,
        guild_id: u64,
        place: &Place,
        scope: Scope,
        change: Change,
    ) -> Result<(), StoreError> {
        match change {
            Change::Level(level) => self.upsert(guild_id, place, scope, change.setting(), level.as_str()).await,
            Change::Commentary(on) | Change::TeamPlay(on) | Change::LevelChoice(on) | Change::Takeback(on) => {
                self.upsert(guild_id, place, scope, change.setting(), on).await
            }
            Change::IdleDays(days) => {
                self.upsert(guild_id, place, scope, change.setting(), days.clamp(1, 365) as i32).await
            }
            Change::Language(lang) => self.upsert(guild_id, place, scope, change.setting(), language_code(lang)).await,
            Change::ReminderHours(hours) => {
                let hours = hours.min(MAX_REMINDER_HOURS) as i32;
                self.upsert(guild_id, place, scope, change.setting(), hours).await
            }
        }
    }

    /// Removes every override of `place`'s own channel; returns whether there were any.
    pub async fn clear_channel_settings(&self, guild_id: u64, place: &Place) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM channel_settings WHERE channel_id = $1 AND guild_id = $2")
            .bind(place.channel_id as i64)
            .bind(guild_id as i64)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn upsert<T>(
        &self,
        guild_id: u64,
        place: &Place,
        scope: Scope,
        setting: Setting,
        value: T,
    ) -> Result<(), StoreError>
    where
        T: for<'q> sqlx::Encode<'q, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send,
    {
        let c = setting.column();
        let query = match scope {
            Scope::Server => format!(
                "INSERT INTO guild_settings (guild_id, {c}) VALUES ($1, $2)
                 ON CONFLICT (guild_id) DO UPDATE SET {c} = EXCLUDED.{c}, updated_at = now()"
            ),
            Scope::Channel => format!(
                "INSERT INTO channel_settings (guild_id, {c}, channel_id) VALUES ($1, $2, $3)
                 ON CONFLICT (channel_id) DO UPDATE SET {c} = EXCLUDED.{c}, updated_at = now()"
            ),
        };
        let mut q = sqlx::query(&query).bind(guild_id as i64).bind(value);
        if scope == Scope::Channel {
            q = q.bind(place.channel_id as i64);
        }
        q.execute(&self.pool).await?;
        Ok(())
    }
}
