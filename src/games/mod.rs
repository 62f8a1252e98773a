//! Pure game logic (no I/O, no async) and the small game-agnostic interface the bot uses.
//!
//! Each game lives in its own folder (rules, notation, AI players). [`Game`] wraps any of them
//! behind one vocabulary: legal moves and moves as canonical notation strings, play, outcome and
//! a stable text serialization for the database.

pub mod doubutsu;
pub mod reversi;

use std::fmt;
use std::str::FromStr;

use rand::Rng;

/// The games settai can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Reversi (Othello rules) on an 8x8 board.
    Reversi,
}

impl GameKind {
    /// Every kind, in the order menus list them.
    pub const ALL: [GameKind; 1] = [GameKind::Reversi];

    /// Stable identifier used in the database, the CLI and custom ids.
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Reversi => "reversi",
        }
    }

    /// The level used when a server has not chosen one.
    pub fn default_level(self) -> Level {
        match self {
            GameKind::Reversi => Level::Standard,
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game name that settai does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?} (expected: reversi)")]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "reversi" | "othello" => Ok(GameKind::Reversi),
            _ => Err(UnknownGame(s.to_string())),
        }
    }
}

/// How the bot plays. Each game has its own three levels; server admins choose them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// Reversi 標準: a close game the human wins by a few discs.
    Standard,
    /// Reversi 最高: the human wins big.
    Highest,
    /// Reversi 忖度無し: the bot plays to win.
    None,
}

impl Level {
    /// The levels a game offers.
    pub fn for_kind(kind: GameKind) -> &'static [Level] {
        match kind {
            GameKind::Reversi => &[Level::Standard, Level::Highest, Level::None],
        }
    }

    /// Stable identifier used in the database and the CLI.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Standard => "standard",
            Level::Highest => "highest",
            Level::None => "none",
        }
    }

    /// Parses a level name and checks that `kind` offers it.
    pub fn parse(kind: GameKind, s: &str) -> Result<Level, UnknownLevel> {
        let wanted = s.trim().to_ascii_lowercase();
        Level::for_kind(kind)
            .iter()
            .copied()
            .find(|l| l.as_str() == wanted)
            .ok_or_else(|| UnknownLevel { kind, name: s.to_string() })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A level name the game does not offer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} level {name:?} (expected one of: {})", Level::for_kind(*kind).iter().map(|l| l.as_str()).collect::<Vec<_>>().join(", "))]
pub struct UnknownLevel {
    /// The game that was asked about.
    pub kind: GameKind,
    /// The name that did not match.
    pub name: String,
}

/// A seat at the board: the player who moves first (black, sente) or second (white, gote).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Moves first: black in reversi.
    First,
    /// Moves second: white in reversi.
    Second,
}

impl Side {
    /// The other seat.
    pub fn opposite(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second (database encoding).
    pub fn index(self) -> i16 {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// Inverse of [`Side::index`].
    pub fn from_index(i: i16) -> Option<Side> {
        match i {
            0 => Some(Side::First),
            1 => Some(Side::Second),
            _ => None,
        }
    }
}

/// How a finished game ended, as far as the rules are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Final disc counts (first, second) where the game scores them (reversi).
    pub score: Option<(u32, u32)>,
}

/// Why a move could not be played; the message is shown to players and CLI users.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    #[error("{0}")]
    Syntax(String),
    /// The move is well formed but not legal here.
    #[error("{0}")]
    Illegal(String),
}

/// A stored position that could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("corrupt {kind} position {text:?}: {reason}")]
pub struct DecodeError {
    /// The game the text claimed to be.
    pub kind: GameKind,
    /// The text that failed.
    pub text: String,
    /// Why it failed.
    pub reason: String,
}

/// A position of any game, with the vocabulary the bot and the store need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Game {
    /// A reversi position.
    Reversi(reversi::Position),
}

impl Game {
    /// The starting position of `kind`.
    pub fn new(kind: GameKind) -> Game {
        match kind {
            GameKind::Reversi => Game::Reversi(reversi::Position::start()),
        }
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            Game::Reversi(_) => GameKind::Reversi,
        }
    }

    /// The side to move, or `None` when the game is over.
    pub fn to_move(&self) -> Option<Side> {
        match self {
            Game::Reversi(p) if p.is_game_over() => None,
            Game::Reversi(p) => Some(reversi_side(p.turn())),
        }
    }

    /// Legal moves in canonical notation (a forced pass is the single move `pass`).
    pub fn legal_moves(&self) -> Vec<String> {
        match self {
            Game::Reversi(p) => p.legal_moves().iter().map(|m| m.to_string()).collect(),
        }
    }

    /// Plays a move given in any accepted spelling; returns the new position and the move's
    /// canonical notation.
    pub fn play(&self, text: &str) -> Result<(Game, String), MoveError> {
        match self {
            Game::Reversi(p) => {
                let mv: reversi::Move =
                    text.parse().map_err(|e: reversi::ParseMoveError| MoveError::Syntax(e.to_string()))?;
                let next = p.play(mv).map_err(|e| MoveError::Illegal(e.to_string()))?;
                Ok((Game::Reversi(next), mv.to_string()))
            }
        }
    }

    /// The result once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Game::Reversi(p) => p.outcome().map(|o| Outcome {
                winner: o.winner().map(reversi_side),
                score: Some((o.black, o.white)),
            }),
        }
    }

    /// Stable text form for the database.
    pub fn encode(&self) -> String {
        match self {
            Game::Reversi(p) => p.to_text(),
        }
    }

    /// Reads back what [`Game::encode`] wrote.
    pub fn decode(kind: GameKind, text: &str) -> Result<Game, DecodeError> {
        let fail = |reason: String| DecodeError { kind, text: text.to_string(), reason };
        match kind {
            GameKind::Reversi => text
                .parse::<reversi::Position>()
                .map(Game::Reversi)
                .map_err(|e| fail(e.to_string())),
        }
    }

    /// The bot's reply at `level`: a legal move in canonical notation, or `None` when the game
    /// is over. Pure and CPU-bound: callers on an async runtime run it on a blocking thread.
    pub fn ai_move(&self, level: Level, rng: &mut impl Rng) -> Option<String> {
        self.to_move()?;
        match self {
            Game::Reversi(p) => Some(reversi_reply(p, level, rng).best.to_string()),
        }
    }
}

/// Search depth of the first reversi AI (the benchmark opponent of the stronger levels).
pub const REVERSI_DEPTH: u32 = 6;

/// The reversi level's reply for the side to move (the bot); the human is the other colour.
/// `none` thinks for the seed's 2.4 s budget, the sontaku levels for at most 0.8 s.
pub fn reversi_reply(pos: &reversi::Position, level: Level, rng: &mut impl Rng) -> reversi::Reply {
    let (level, budget) = match level {
        Level::Standard => (reversi::Level::Standard, reversi::level::SONTAKU_BUDGET),
        Level::Highest => (reversi::Level::Highest, reversi::level::SONTAKU_BUDGET),
        Level::None => (reversi::Level::None, reversi::level::DEFAULT_BUDGET),
    };
    reversi::reply(pos, pos.turn().opposite(), level, budget, rng)
}

fn reversi_side(c: reversi::Color) -> Side {
    match c {
        reversi::Color::Black => Side::First,
        reversi::Color::White => Side::Second,
    }
}

/// Replays `moves` (canonical or not) from the start of `kind`, naming the first bad move.
pub fn replay(kind: GameKind, moves: &[String]) -> Result<Game, ReplayError> {
    let mut game = Game::new(kind);
    for (i, text) in moves.iter().enumerate() {
        game = game
            .play(text)
            .map_err(|error| ReplayError { ply: i + 1, text: text.clone(), error })?
            .0;
    }
    Ok(game)
}

/// A move list that does not replay from the start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {ply} {text:?}: {error}")]
pub struct ReplayError {
    /// 1-based index of the bad move.
    pub ply: usize,
    /// The move as given.
    pub text: String,
    /// Why it failed.
    pub error: MoveError,
}
