//! What settai keeps about a player, as they may ask to see it or have it erased, and what an
//! erasure did (docs/design/players-data.md).

use chrono::{DateTime, Utc};
use serde::Serialize;

/// The id a game keeps in place of its player's once they asked to be forgotten: Discord never
/// gives out 0, so it names nobody.
pub const FORGOTTEN_PLAYER: u64 = 0;

/// Days a server's settings and games are kept after it removed the bot, in case it comes back.
pub const DEPARTED_GUILD_GRACE_DAYS: u32 = 30;

/// Everything kept about one player: their own choices, the games they started (with every
/// move, theirs or not), and their moves in other players' games. Other players' ids are
/// never part of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerData {
    /// The player, as a Discord id (a string, as Discord writes ids in JSON).
    #[serde(with = "id_as_string")]
    pub user_id: u64,
    /// Their own choices, if they made any.
    pub choices: Option<PlayerChoices>,
    /// The games they started, oldest first.
    pub games: Vec<GameData>,
    /// Their moves in games others started (team play), oldest first.
    pub moves_in_others_games: Vec<MoveData>,
}

/// A player's own choices, kept whatever the server.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerChoices {
    /// Whether they want reminders.
    pub reminders: bool,
    /// The coach's hints: on, off, or as the place says (`None`).
    pub hints: Option<bool>,
    /// When they last changed a choice.
    pub updated_at: DateTime<Utc>,
}

/// A game as its player may see it in their data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameData {
    /// The game's id.
    pub id: i64,
    /// The server, none in a direct message.
    #[serde(with = "option_id_as_string")]
    pub guild_id: Option<u64>,
    /// The channel or thread.
    #[serde(with = "id_as_string")]
    pub channel_id: u64,
    /// `reversi` or `doubutsu`.
    pub game: String,
    /// The bot's level.
    pub level: String,
    /// The player moved first.
    pub moved_first: bool,
    /// The name the server showed for them when they started it.
    pub name: String,
    /// `active`, `finished`, `resigned`, `expired` or `void`.
    pub status: String,
    /// `human` (they won), `bot` or `draw`; none while it is played.
    pub result: Option<String>,
    /// The final score, where the game keeps one.
    pub final_score: Option<String>,
    /// Moves taken back.
    pub takebacks: i32,
    /// When it started.
    pub created_at: DateTime<Utc>,
    /// When it ended.
    pub finished_at: Option<DateTime<Utc>>,
    /// Its moves in order.
    pub moves: Vec<MoveData>,
}

/// One move of a player's data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveData {
    /// The game it belongs to.
    pub game_id: i64,
    /// Its ply (1 is the first move).
    pub ply: i32,
    /// The move, in the game's notation.
    pub notation: String,
    /// Who played it: `you`, `bot`, or `another player` (team play; no id given).
    pub by: &'static str,
    /// When.
    pub played_at: DateTime<Utc>,
}

/// What a player's data holds, counted: what their confirmation names before anything is erased.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DataCounts {
    /// Games they started that are over.
    pub finished_games: u64,
    /// Games they started that are still on (erasing ends them).
    pub games_in_progress: u64,
    /// Their moves in other players' games.
    pub moves_in_others_games: u64,
    /// Whether they made choices of their own.
    pub choices: bool,
}

impl DataCounts {
    /// Whether nothing is kept about them.
    pub fn is_empty(&self) -> bool {
        *self == DataCounts::default()
    }
}

/// What erasing a player's data did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Forgotten {
    /// The games they had started, now under [`FORGOTTEN_PLAYER`].
    pub games: u64,
    /// Those that were still on and were ended (resigned) first, by id.
    pub ended: Vec<i64>,
    /// Their moves, in any game, now without their id.
    pub moves: u64,
    /// Whether their own choices were deleted.
    pub choices: bool,
}

/// Snowflakes as JSON strings (they overflow JavaScript's numbers).
mod id_as_string {
    pub fn serialize<S: serde::Serializer>(id: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(id)
    }
}

mod option_id_as_string {
    pub fn serialize<S: serde::Serializer>(id: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match id {
            Some(id) => s.collect_str(id),
            None => s.serialize_none(),
        }
    }
}
