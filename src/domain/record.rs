//! Games as every layer sees them: a stored game, the moves to add, how it stands and ends, and
//! a player's results. Plain data; the store reads and writes it.

use chrono::{DateTime, Utc};

use super::{HouseRules, Place};
use settai_core::{Game, GameKind, GameMove, Level, Side};

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStatus {
    /// Being played.
    Active,
    /// Ended by the rules.
    Finished,
    /// A player resigned.
    Resigned,
    /// Closed after being idle too long.
    Expired,
    /// Closed because its stored record could not be trusted.
    Void,
}

/// Who won a game that is over, from the human's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// The human won.
    Human,
    /// The bot won.
    Bot,
    /// Nobody won.
    Draw,
}

/// A player's results in one game kind: games they won, lost and drew (resignations count
/// as losses; games still on or closed for inactivity do not count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayerResults {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
    /// Moves the player took back (待った), in any of their games here, finished or not.
    pub takebacks: u32,
}

/// A game to create.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// The server, if not a direct message.
    pub guild_id: Option<u64>,
    /// The channel or thread.
    pub channel_id: u64,
    /// For a thread: the channel it hangs from.
    pub parent_id: Option<u64>,
    /// The human who started it.
    pub human_id: u64,
    /// Their display name (shown on the images; may be empty).
    pub human_name: String,
    /// The human's seat.
    pub human_side: Side,
    /// The bot's level, fixed for the game's life.
    pub level: Level,
    /// The starting position.
    pub game: Game,
    /// Played in a DM or group DM the bot is not in (see [`GameRecord::private_channel`]).
    pub private_channel: bool,
    /// The rules its starter chose (see [`GameRecord::house_rules`]).
    pub house_rules: Option<HouseRules>,
}

/// A game as stored, with its position decoded.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// Database id.
    pub id: i64,
    /// The server, if not a direct message.
    pub guild_id: Option<u64>,
    /// The channel or thread.
    pub channel_id: u64,
    /// For a thread: the channel it hangs from (its settings apply in the thread).
    pub parent_id: Option<u64>,
    /// The bot's level.
    pub level: Level,
    /// The human who started it.
    pub human_id: u64,
    /// Their display name when they started it (may be empty).
    pub human_name: String,
    /// The human's seat.
    pub human_side: Side,
    /// The current position.
    pub game: Game,
    /// Moves played so far.
    pub ply: u32,
    /// Where the game stands.
    pub status: GameStatus,
    /// Who won, once over.
    pub result: Option<GameResult>,
    /// Optimistic-concurrency token: every change must name the version it read.
    pub version: i32,
    /// When the game started.
    pub created_at: DateTime<Utc>,
    /// When the game last changed.
    pub updated_at: DateTime<Utc>,
    /// The newest board message posted for it (the one players tap), when known.
    pub board_message_id: Option<u64>,
    /// Played in a DM or group DM the bot is not in ([`crate::domain::Venue::PrivateChannel`]):
    /// the bot answers its players' interactions there and never posts on its own.
    pub private_channel: bool,
    /// The take-backs and commentary its starter chose where nobody manages settings; `None`
    /// in servers, where the place's settings apply.
    pub house_rules: Option<HouseRules>,
}

impl GameRecord {
    /// Where the game is played (whose settings apply).
    pub fn place(&self) -> Place {
        Place { guild_id: self.guild_id, channel_id: self.channel_id, parent_id: self.parent_id }
    }

    /// True for the game of `settai play`'s terminal, which `serve` never posts about.
    pub fn at_terminal(&self) -> bool {
        self.channel_id == super::TERMINAL_CHANNEL
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        self.game.kind()
    }

    /// True when the side to move is the bot.
    pub fn bot_to_move(&self) -> bool {
        self.status == GameStatus::Active && self.game.to_move() == Some(self.human_side.opposite())
    }

    /// True when the side to move is the human.
    pub fn human_to_move(&self) -> bool {
        self.status == GameStatus::Active && self.game.to_move() == Some(self.human_side)
    }
}

/// A move and who made it: one to record, or one of a stored game ([`super::StoredGame`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewMove {
    /// The move (stored in canonical notation).
    pub mv: GameMove,
    /// True for the bot's moves.
    pub by_bot: bool,
    /// The Discord user who made it (None for the bot and forced passes).
    pub user_id: Option<u64>,
}

impl NewMove {
    /// Whether the player chose it (not the bot's, not a forced pass).
    pub fn is_players_own(&self) -> bool {
        !self.by_bot && self.user_id.is_some()
    }
}

/// A recorded move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// 1-based ply.
    pub ply: u32,
    /// Canonical notation.
    pub notation: String,
    /// True for the bot's moves.
    pub by_bot: bool,
    /// The Discord user who made it.
    pub user_id: Option<u64>,
}

/// How a game ends along with a state change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finish {
    /// The new status (not `Active`).
    pub status: GameStatus,
    /// Who won.
    pub result: GameResult,
    /// Final score (first, second) where the game has one.
    pub score: Option<(u32, u32)>,
}

#[cfg(test)]
impl GameRecord {
    /// An active game of `game` at `ply` in a server's channel, the player first at the
    /// game's first level: what the crate's own tests start from.
    pub(crate) fn sample(game: Game, ply: u32) -> GameRecord {
        GameRecord {
            id: 1,
            guild_id: None,
            channel_id: 2,
            parent_id: None,
            level: Level::for_kind(game.kind())[0],
            human_id: 3,
            human_name: String::new(),
            human_side: Side::First,
            game,
            ply,
            status: GameStatus::Active,
            result: None,
            version: 0,
            created_at: Utc::now(),
            updated_at: Utc::now(),
            board_message_id: None,
            private_channel: false,
            house_rules: None,
        }
    }
}
