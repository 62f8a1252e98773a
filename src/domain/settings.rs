//! What server managers choose: the settings in effect at a place, one new value for one of
//! them, and where a change applies. Plain data; the store reads and writes it.

use super::{Lang, Venue};
use settai_core::{doubutsu, reversi, Coach, GameKind, Level};

/// Days a game may wait for a move where the server set nothing (the column's default).
pub const DEFAULT_IDLE_DAYS: u32 = 14;

/// Hours a game waits for a move before its player is reminded, where nobody set otherwise.
pub const DEFAULT_REMINDER_HOURS: u32 = 24;

/// The longest wait before a reminder that can be set (a year, the longest idle limit).
pub const MAX_REMINDER_HOURS: u32 = 8760;

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
    /// Whether the coach hints at moves that lose at once and at a lion in danger.
    Hints,
}

impl Setting {
    /// Every setting, in the order `/settings show` lists them.
    pub const ALL: [Setting; 10] = [
        Setting::DoubutsuLevel,
        Setting::ReversiLevel,
        Setting::LevelChoice,
        Setting::Commentary,
        Setting::TeamPlay,
        Setting::Takeback,
        Setting::Hints,
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
    /// The coach's hints on, or not.
    Hints(bool),
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
            Change::Hints(_) => Setting::Hints,
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
    pub reversi_level: reversi::ReversiLevel,
    /// Doubutsu shogi's level.
    pub doubutsu_level: doubutsu::DoubutsuLevel,
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
    /// The coach's hints for the player (docs/design/kind-coach.md); on by default.
    pub hints: bool,
    /// The settings that come from this channel (or its parent) rather than the server.
    pub from_channel: Vec<Setting>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            reversi_level: reversi::ReversiLevel::DEFAULT,
            doubutsu_level: doubutsu::DoubutsuLevel::DEFAULT,
            commentary: false,
            idle_days: DEFAULT_IDLE_DAYS,
            team_play: false,
            language: None,
            level_choice: false,
            reminder_hours: DEFAULT_REMINDER_HOURS,
            takeback: false,
            hints: true,
            from_channel: Vec::new(),
        }
    }
}

/// The settings in effect for one request, worked out in one place from what the store read
/// (`service::settings_in_effect`): the server's with the channel's overrides, as the venue has
/// them, under the game's own rules, and the reader's own choice of hints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InEffect {
    /// The place's settings as they apply to its game: what the rules check and `/settings
    /// show` shows.
    pub place: Settings,
    /// The settings the reader plays under: the place's, with their own choice of hints where
    /// they made one (docs/design/kind-coach.md#your-own-choice).
    pub reader: Settings,
    /// The reader's own choice of the coach's hints (`/play hints`), if they made one.
    pub hints_choice: Option<bool>,
    /// The settings as the store read them (the server's with the channel's overrides), before
    /// the venue and a game's own rules: a game the request starts is worked out from them again.
    pub as_read: Settings,
    /// The venue of the request (`None`: a sweep, which answers nobody there).
    pub venue: Option<Venue>,
}

impl Settings {
    /// The settings as they apply in `venue`: where nobody manages them (a DM, a group DM),
    /// the player who starts a game chooses its opponent and anyone there may move, as a
    /// family around one board expects (docs/design/private-channels.md#settings). One step of
    /// the settings in effect, which `service::settings_in_effect` takes with the others.
    pub fn in_venue(mut self, venue: Venue) -> Settings {
        if !venue.has_managers() {
            self.level_choice = true;
            self.team_play = true;
        }
        self
    }

    /// The kind coach with these settings' switches (docs/design/kind-coach.md).
    pub fn coach(&self) -> Coach {
        Coach { hints: self.hints, takeback: self.takeback }
    }

    /// The level `kind` is played at.
    pub fn level(&self, kind: GameKind) -> Level {
        match kind {
            GameKind::Reversi => Level::Reversi(self.reversi_level),
            GameKind::Doubutsu => Level::Doubutsu(self.doubutsu_level),
        }
    }
}
