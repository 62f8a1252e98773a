//! The plain data every layer shares: a game as stored and the moves to add to it, which message is its board, how it
//! stands and ends, a player's results, the settings of a place and the changes managers make,
//! the reminders a game is owed, a player's data as they may ask for it, the language a player reads, the terminal as a caller, the venue a request comes from, the house rules a game's starter chooses outside servers. No I/O: `store` reads and writes
//! these, `service` passes them on, `discord` and `i18n` show them.

mod board;
mod house_rules;
mod lang;
mod nudge;
mod players_data;
mod record;
mod settings;
mod stored_game;
mod terminal;
mod venue;

pub use board::BoardRemembered;
pub use house_rules::{HouseRule, HouseRules, Pick};
pub use lang::Lang;
pub use nudge::Nudge;
pub use players_data::{
    DataCounts, Forgotten, GameData, MoveData, PlayerChoices, PlayerData, DEPARTED_GUILD_GRACE_DAYS, FORGOTTEN_PLAYER,
};
pub use record::{Finish, GameRecord, GameResult, GameStatus, MoveRecord, NewGame, NewMove, PlayerResults};
pub use settings::{
    Change, InEffect, Place, Scope, Setting, Settings, DEFAULT_IDLE_DAYS, DEFAULT_REMINDER_HOURS, MAX_REMINDER_HOURS,
};
pub use stored_game::{PlaceRead, PlayedMove, Replayed, Snapshot, StoredGame, Untrusted};
pub use terminal::{TERMINAL_CHANNEL, TERMINAL_PLAYER};
pub use venue::Venue;
