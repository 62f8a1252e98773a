//! Pure game logic (no I/O, no async) and the small game-agnostic interface the bot uses.
//!
//! Past 500 lines on purpose: one job, the vocabulary that puts both games behind one interface
//! (kinds, levels, sides, outcomes, `Game`); about 120 lines are tests.
//!
//! Each game lives in its own folder (rules, notation, AI players). [`Game`] wraps any of them
//! behind one vocabulary: legal moves as typed [`GameMove`]s, play, outcome and a stable text
//! serialization for the database.

pub mod doubutsu;
mod game_move;
pub(crate) mod huge_pages;
pub mod reversi;
pub mod story;

#[cfg(test)]
mod fuzz_tests;

pub use game_move::GameMove;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use rand::Rng;

/// The games settai can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Reversi (Othello rules) on an 8x8 board.
    Reversi,
    /// Doubutsu shogi (どうぶつしょうぎ) on a 3x4 board.
    Doubutsu,
}

impl GameKind {
    /// Every kind, in the order menus list them.
    pub const ALL: [GameKind; 2] = [GameKind::Reversi, GameKind::Doubutsu];

    /// Stable identifier used in the database, the CLI and custom ids.
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Reversi => "reversi",
            GameKind::Doubutsu => "doubutsu",
        }
    }

    /// The level used when a server has not chosen one.
    pub fn default_level(self) -> Level {
        match self {
            GameKind::Reversi => Level::Reversi(reversi::Level::DEFAULT),
            GameKind::Doubutsu => Level::Doubutsu(doubutsu::Level::DEFAULT),
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
#[error("unknown game {0:?} (expected: reversi, doubutsu)")]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "reversi" | "othello" => Ok(GameKind::Reversi),
            "doubutsu" | "dobutsu" => Ok(GameKind::Doubutsu),
            _ => Err(UnknownGame(s.to_string())),
        }
    }
}

/// How the bot plays: a level of one game, so a level of the other game cannot be asked of
/// it. Each game has its own three levels ([`reversi::Level`], [`doubutsu::Level`]); server
/// admins choose them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// A reversi level.
    Reversi(reversi::Level),
    /// A doubutsu shogi level.
    Doubutsu(doubutsu::Level),
}

impl From<reversi::Level> for Level {
    fn from(level: reversi::Level) -> Level {
        Level::Reversi(level)
    }
}

impl From<doubutsu::Level> for Level {
    fn from(level: doubutsu::Level) -> Level {
        Level::Doubutsu(level)
    }
}

const REVERSI_LEVELS: [Level; 3] = [
    Level::Reversi(reversi::Level::ALL[0]),
    Level::Reversi(reversi::Level::ALL[1]),
    Level::Reversi(reversi::Level::ALL[2]),
];
const DOUBUTSU_LEVELS: [Level; 3] = [
    Level::Doubutsu(doubutsu::Level::ALL[0]),
    Level::Doubutsu(doubutsu::Level::ALL[1]),
    Level::Doubutsu(doubutsu::Level::ALL[2]),
];

impl Level {
    /// The levels a game offers.
    pub fn for_kind(kind: GameKind) -> &'static [Level] {
        match kind {
            GameKind::Reversi => &REVERSI_LEVELS,
            GameKind::Doubutsu => &DOUBUTSU_LEVELS,
        }
    }

    /// The game this level belongs to.
    pub fn kind(self) -> GameKind {
        match self {
            Level::Reversi(_) => GameKind::Reversi,
            Level::Doubutsu(_) => GameKind::Doubutsu,
        }
    }

    /// Stable identifier used in the database and the CLI.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Reversi(l) => l.as_str(),
            Level::Doubutsu(l) => l.as_str(),
        }
    }

    /// Other names accepted for the level (see [`reversi::Level::aliases`],
    /// [`doubutsu::Level::aliases`]).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Level::Reversi(l) => l.aliases(),
            Level::Doubutsu(l) => l.aliases(),
        }
    }

    /// Parses a level name or alias (any case, any spacing) of the game `kind`.
    pub fn parse(kind: GameKind, s: &str) -> Result<Level, UnknownLevel> {
        match kind {
            GameKind::Reversi => s.parse::<reversi::Level>().map(Level::Reversi),
            GameKind::Doubutsu => s.parse::<doubutsu::Level>().map(Level::Doubutsu),
        }
    }
}

/// A level name as the parsers compare it: lower case, single spaces.
fn normalize_level_name(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
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
    /// Why the game ended.
    pub reason: EndReason,
}

/// Why a game ended by its rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// Neither side can move (reversi): the discs are counted.
    Count,
    /// A lion was captured (doubutsu).
    LionCaptured,
    /// A lion reached the far row and survived (doubutsu "try").
    Try,
    /// The same position occurred for the third time (doubutsu).
    Repetition,
    /// The side to move had no legal move (doubutsu, practically unreachable).
    NoMoves,
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
    /// A doubutsu shogi game with its history (the repetition draw depends on it).
    Doubutsu(DoubutsuGame),
}

/// A doubutsu shogi game with its history; equal when the same moves were played from the
/// same start (the official one, or a set-up position such as a handicap or a test's).
#[derive(Debug, Clone)]
pub struct DoubutsuGame(pub doubutsu::Game);

impl PartialEq for DoubutsuGame {
    fn eq(&self, other: &Self) -> bool {
        self.0.start() == other.0.start() && self.0.moves() == other.0.moves()
    }
}

impl Eq for DoubutsuGame {}

/// How good a player's move was: the commentary of seed 000's analysis log.
#[derive(Debug, Clone, PartialEq)]
pub enum Commentary {
    /// Doubutsu, from the exact table.
    Doubutsu {
        /// The move as played.
        mv: doubutsu::Move,
        /// Its divergence: 1 for a best move, down to 0.5 for the worst.
        divergence: f64,
        /// The best moves.
        best: Vec<doubutsu::Move>,
        /// The move's value for the player.
        value: doubutsu::Value,
        /// The best moves' value for the player.
        best_value: doubutsu::Value,
    },
    /// Reversi, from a search of every move.
    Reversi {
        /// The move as played.
        mv: reversi::Move,
        /// The move's value in discs for the player (the final margin under good play).
        value: f64,
        /// The best move and its value.
        best: reversi::Move,
        /// See [`Commentary::Reversi::best`].
        best_value: f64,
    },
}

/// Thinking time of the reversi commentary (a full-width search of every move).
pub const COMMENTARY_BUDGET: Duration = Duration::from_millis(300);

/// Analyses `mv` played by the side to move in `before`; `None` when there is nothing to say
/// (a pass, a move of the other game, or doubutsu without the table). CPU-bound: callers on an
/// async runtime run it on a blocking thread.
pub fn commentary(before: &Game, mv: GameMove, table: Option<&doubutsu::TableFile>) -> Option<Commentary> {
    match (before, mv) {
        (Game::Reversi(pos), GameMove::Reversi(played)) => {
            let (moves, _) = reversi::level::analyze_moves(pos, COMMENTARY_BUDGET);
            let value = moves.iter().find(|(m, _)| *m == played)?.1;
            let (best, best_value) = *moves.first()?;
            Some(Commentary::Reversi { mv: played, value, best, best_value })
        }
        (Game::Doubutsu(g), GameMove::Doubutsu(played)) => {
            let a = doubutsu::analyze(table?, g.0.position(), played).ok()?;
            Some(Commentary::Doubutsu {
                mv: played,
                divergence: a.divergence,
                best: a.best,
                value: a.value,
                best_value: a.best_value,
            })
        }
        _ => None,
    }
}

/// The bot could not choose a move.
#[derive(Debug, thiserror::Error)]
pub enum AiError {
    /// The level plays from the doubutsu table, which is not available.
    #[error("the doubutsu table is not available")]
    NoTable,
    /// The table could not answer for this position.
    #[error(transparent)]
    Doubutsu(#[from] doubutsu::PlayerError),
    /// The level is one of the other game's.
    #[error("{0} is not a level of this game")]
    WrongGame(Level),
}

impl From<doubutsu::ReplyError> for AiError {
    fn from(e: doubutsu::ReplyError) -> AiError {
        match e {
            doubutsu::ReplyError::NoTable => AiError::NoTable,
            doubutsu::ReplyError::Player(e) => AiError::Doubutsu(e),
        }
    }
}

impl Game {
    /// The starting position of `kind`.
    pub fn new(kind: GameKind) -> Game {
        match kind {
            GameKind::Reversi => Game::Reversi(reversi::Position::start()),
            GameKind::Doubutsu => Game::Doubutsu(DoubutsuGame(doubutsu::Game::new())),
        }
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            Game::Reversi(_) => GameKind::Reversi,
            Game::Doubutsu(_) => GameKind::Doubutsu,
        }
    }

    /// The side to move, or `None` when the game is over.
    pub fn to_move(&self) -> Option<Side> {
        match self {
            Game::Reversi(p) if p.is_game_over() => None,
            Game::Reversi(p) => Some(reversi_side(p.turn())),
            Game::Doubutsu(g) if g.0.outcome().is_some() => None,
            Game::Doubutsu(g) => Some(doubutsu_side(g.0.position().turn())),
        }
    }

    /// Legal moves (a forced reversi pass is the single move [`GameMove::is_pass`]).
    pub fn legal_moves(&self) -> Vec<GameMove> {
        match self {
            Game::Reversi(p) => p.legal_moves().iter().map(|&m| GameMove::Reversi(m)).collect(),
            Game::Doubutsu(g) if g.0.outcome().is_some() => Vec::new(),
            Game::Doubutsu(g) => g.0.legal_moves().iter().map(|&m| GameMove::Doubutsu(m)).collect(),
        }
    }

    /// Reads a move of this game in any spelling its notation accepts (see [`GameMove::parse`]).
    pub fn parse_move(&self, text: &str) -> Result<GameMove, MoveError> {
        GameMove::parse(self.kind(), text)
    }

    /// Plays `mv`; returns the new position.
    pub fn play(&self, mv: GameMove) -> Result<Game, MoveError> {
        match (self, mv) {
            (Game::Reversi(p), GameMove::Reversi(mv)) => {
                p.play(mv).map(Game::Reversi).map_err(|e| MoveError::Illegal(e.to_string()))
            }
            (Game::Doubutsu(g), GameMove::Doubutsu(mv)) => {
                if g.0.outcome().is_some() {
                    return Err(MoveError::Illegal("the game is over".into()));
                }
                let mut next = g.0.clone();
                next.play(mv).map_err(|e| MoveError::Illegal(e.to_string()))?;
                Ok(Game::Doubutsu(DoubutsuGame(next)))
            }
            (_, mv) => Err(MoveError::Illegal(format!("{mv} is a move of {}, not of {}", mv.kind(), self.kind()))),
        }
    }

    /// The result once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Game::Reversi(p) => p.outcome().map(|o| Outcome {
                winner: o.winner().map(reversi_side),
                score: Some((o.black, o.white)),
                reason: EndReason::Count,
            }),
            Game::Doubutsu(g) => g.0.outcome().map(|o| match o {
                doubutsu::Outcome::Draw => Outcome { winner: None, score: None, reason: EndReason::Repetition },
                doubutsu::Outcome::Win { winner, reason } => Outcome {
                    winner: Some(doubutsu_side(winner)),
                    score: None,
                    reason: match reason {
                        doubutsu::WinReason::LionCaptured => EndReason::LionCaptured,
                        doubutsu::WinReason::Try => EndReason::Try,
                        doubutsu::WinReason::NoMoves => EndReason::NoMoves,
                    },
                },
            }),
        }
    }

    /// The position this game began from, without its moves: the official start, or the
    /// set-up position of a doubutsu game that began elsewhere.
    pub fn initial(&self) -> Game {
        match self {
            Game::Reversi(_) => Game::new(GameKind::Reversi),
            Game::Doubutsu(g) => Game::Doubutsu(DoubutsuGame(doubutsu::Game::from_position(*g.0.start()))),
        }
    }

    /// Stable text form for the database. Doubutsu stores its moves (the repetition draw needs
    /// the history) after the current position, which [`Game::decode`] checks against them,
    /// and, for a game that did not begin at the official start, its first position:
    /// `position;moves` or `position;moves;start`.
    pub fn encode(&self) -> String {
        match self {
            Game::Reversi(p) => p.to_text(),
            Game::Doubutsu(g) => {
                let moves: Vec<String> = g.0.moves().iter().map(|m| m.to_string()).collect();
                let mut text = format!("{};{}", g.0.position(), moves.join(" "));
                if *g.0.start() != doubutsu::Position::start() {
                    text.push_str(&format!(";{}", g.0.start()));
                }
                text
            }
        }
    }

    /// Reads back what [`Game::encode`] wrote.
    pub fn decode(kind: GameKind, text: &str) -> Result<Game, DecodeError> {
        let fail = |reason: String| DecodeError { kind, text: text.to_string(), reason };
        match kind {
            GameKind::Reversi => text.parse::<reversi::Position>().map(Game::Reversi).map_err(|e| fail(e.to_string())),
            GameKind::Doubutsu => {
                let mut parts = text.split(';');
                let (Some(position), Some(moves), start, None) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(fail("expected position;moves[;start]".into()));
                };
                let start = match start {
                    None => doubutsu::Position::start(),
                    Some(s) => s.parse::<doubutsu::Position>().map_err(|e| fail(format!("start position: {e}")))?,
                };
                let mut game = doubutsu::Game::from_position(start);
                for m in moves.split_whitespace() {
                    let mv = m.parse::<doubutsu::Move>().map_err(|e| fail(e.to_string()))?;
                    game.play(mv).map_err(|e| fail(format!("{m}: {e}")))?;
                }
                if game.position().to_string() != position {
                    return Err(fail("the moves do not lead to the stored position".into()));
                }
                Ok(Game::Doubutsu(DoubutsuGame(game)))
            }
        }
    }

    /// The bot's reply at `level`: a legal move, or `None` when the game is over. The doubutsu table levels need `table`. Pure and CPU-bound: callers on an async
    /// runtime run it on a blocking thread.
    pub fn ai_move(
        &self,
        level: Level,
        table: Option<&doubutsu::TableFile>,
        rng: &mut impl Rng,
    ) -> Result<Option<GameMove>, AiError> {
        self.ai_move_after(level, table, &[], rng)
    }

    /// [`Game::ai_move`] knowing the moves that led here from the start (`moves`): reversi `standard` judges from them how well the human plays (see
    /// [`reversi::strength`]). Moves that do not lead here are ignored (the seed's human).
    pub fn ai_move_after(
        &self,
        level: Level,
        table: Option<&doubutsu::TableFile>,
        moves: &[GameMove],
        rng: &mut impl Rng,
    ) -> Result<Option<GameMove>, AiError> {
        if self.to_move().is_none() {
            return Ok(None);
        }
        Ok(Some(match (self, level) {
            (Game::Reversi(p), Level::Reversi(level)) => {
                GameMove::Reversi(reversi::reply(p, level, &human_moves(p, moves), rng).best)
            }
            (Game::Doubutsu(g), Level::Doubutsu(level)) => GameMove::Doubutsu(level.reply(table, &g.0, rng)?),
            (_, level) => return Err(AiError::WrongGame(level)),
        }))
    }

    /// Whether the bot's reply at `level` is a search that takes its thinking time (reversi:
    /// 0.8-2.4 s) rather than a lookup of a millisecond (every doubutsu level: the exact table,
    /// or the weakest level's one-ply check).
    pub fn thinks_long(level: Level) -> bool {
        matches!(level, Level::Reversi(_))
    }

    /// Whether [`Game::ai_move`] at `level` needs the doubutsu table.
    pub fn needs_table(kind: GameKind, level: Level) -> bool {
        match level {
            Level::Doubutsu(level) => kind == GameKind::Doubutsu && level.needs_table(),
            Level::Reversi(_) => false,
        }
    }
}

fn doubutsu_side(c: doubutsu::Color) -> Side {
    match c {
        doubutsu::Color::Sente => Side::First,
        doubutsu::Color::Gote => Side::Second,
    }
}

/// Search depth of the first reversi AI (the benchmark opponent of the stronger levels).
pub const REVERSI_DEPTH: u32 = 6;

/// The human's moves of a reversi game (the side not to move in `pos`), with the position each
/// was played in, if `moves` lead from the start to `pos`; otherwise none.
pub fn human_moves(pos: &reversi::Position, moves: &[GameMove]) -> Vec<(reversi::Position, reversi::Move)> {
    let human = pos.turn().opposite();
    let mut at = reversi::Position::start();
    let mut out = Vec::new();
    for &mv in moves {
        let GameMove::Reversi(mv) = mv else { return Vec::new() };
        if at.turn() == human {
            out.push((at, mv));
        }
        let Ok(next) = at.play(mv) else { return Vec::new() };
        at = next;
    }
    if at == *pos {
        out
    } else {
        Vec::new()
    }
}

fn reversi_side(c: reversi::Color) -> Side {
    match c {
        reversi::Color::Black => Side::First,
        reversi::Color::White => Side::Second,
    }
}

/// Reads and replays a move list given as text (any accepted spelling; the CLI's and the
/// tests' edge) from the start of `kind`, naming the first bad move.
pub fn replay(kind: GameKind, moves: &[String]) -> Result<Game, ReplayError> {
    replay_moves(kind, moves).map(|(game, _)| game)
}

/// [`replay`], with the moves as parsed (for [`Game::ai_move_after`] and its like).
pub fn replay_moves(kind: GameKind, moves: &[String]) -> Result<(Game, Vec<GameMove>), ReplayError> {
    let mut game = Game::new(kind);
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let bad = |error| ReplayError { ply: i + 1, text: text.clone(), error };
        let mv = game.parse_move(text).map_err(bad)?;
        game = game.play(mv).map_err(bad)?;
        played.push(mv);
    }
    Ok((game, played))
}

/// Every position of `moves` played from `start`, the start first; names the first bad move.
pub fn line(start: &Game, moves: &[GameMove]) -> Result<Vec<Game>, ReplayError> {
    let mut games = vec![start.clone()];
    for (i, &mv) in moves.iter().enumerate() {
        let next = games[i].play(mv).map_err(|error| ReplayError { ply: i + 1, text: mv.to_string(), error })?;
        games.push(next);
    }
    Ok(games)
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

/// What a legal move does, for labels a child can read (see [`Game::move_detail`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveDetail {
    /// A reversi disc placed, turning `flips` of the opponent's discs.
    Place {
        /// Discs turned over.
        flips: u32,
    },
    /// A reversi pass.
    Pass,
    /// A doubutsu animal stepping on the board, taking `captures` if it lands on one.
    Step {
        /// The animal that moves.
        role: doubutsu::Role,
        /// The animal it takes.
        captures: Option<doubutsu::Role>,
    },
    /// A doubutsu animal put down from the hand.
    Drop {
        /// The animal put down.
        role: doubutsu::Role,
    },
}

impl Game {
    /// What the move `mv` (legal here) does; `None` if it is not a move of this position.
    pub fn move_detail(&self, mv: GameMove) -> Option<MoveDetail> {
        match (self, mv) {
            (Game::Reversi(p), GameMove::Reversi(mv)) => match mv {
                reversi::Move::Pass => Some(MoveDetail::Pass),
                reversi::Move::Place(sq) => {
                    let flips = p.flips(sq).count_ones();
                    (flips > 0).then_some(MoveDetail::Place { flips })
                }
            },
            (Game::Doubutsu(g), GameMove::Doubutsu(mv)) => {
                let position = g.0.position();
                match mv {
                    doubutsu::Move::Normal { from, to } => {
                        let mover = position.piece_at(from)?;
                        let captures = position.piece_at(to).filter(|p| p.color != mover.color).map(|p| p.role);
                        Some(MoveDetail::Step { role: mover.role, captures })
                    }
                    doubutsu::Move::Drop { role, .. } => Some(MoveDetail::Drop { role }),
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn move_details_name_the_animal_the_capture_and_the_flips() {
        use super::{doubutsu::Role, Game, GameKind, MoveDetail};
        let detail = |game: &Game, text| game.move_detail(game.parse_move(text).unwrap());
        let reversi = Game::new(GameKind::Reversi);
        assert_eq!(detail(&reversi, "d3"), Some(MoveDetail::Place { flips: 1 }));
        assert_eq!(detail(&reversi, "a1"), None, "not a move here");
        let doubutsu = Game::new(GameKind::Doubutsu);
        let chick_takes_chick = Some(MoveDetail::Step { role: Role::Chick, captures: Some(Role::Chick) });
        assert_eq!(detail(&doubutsu, "B3B2"), chick_takes_chick);
        assert_eq!(detail(&doubutsu, "B4A3"), Some(MoveDetail::Step { role: Role::Lion, captures: None }));
        assert_eq!(doubutsu.move_detail(reversi.parse_move("d3").unwrap()), None, "a move of the other game");
        let after = doubutsu.play(doubutsu.parse_move("B3B2").unwrap()).unwrap();
        let after = after.play(after.parse_move("B1B2").unwrap()).unwrap();
        assert_eq!(detail(&after, "C*B3"), Some(MoveDetail::Drop { role: Role::Chick }));
        assert!(after.play(reversi.parse_move("d3").unwrap()).is_err(), "a move of the other game is refused");
    }

    use super::*;
    use rand::SeedableRng;

    #[test]
    fn doubutsu_games_round_trip_through_their_stored_form() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        let mut game = Game::new(GameKind::Doubutsu);
        for _ in 0..30 {
            if game.to_move().is_none() {
                break;
            }
            let mv = game.ai_move(Level::Doubutsu(doubutsu::Level::Weakest), None, &mut rng).unwrap().unwrap();
            game = game.play(mv).unwrap();
            let stored = game.encode();
            assert_eq!(Game::decode(GameKind::Doubutsu, &stored).unwrap(), game, "{stored}");
        }
        // A tampered position or move list is refused.
        let stored = game.encode();
        let (position, moves) = stored.split_once(';').unwrap();
        assert!(Game::decode(
            GameKind::Doubutsu,
            &format!("{position};{}", moves.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        )
        .is_err());
        assert!(Game::decode(GameKind::Doubutsu, moves).is_err());
        assert!(Game::decode(GameKind::Doubutsu, "garbage;B3B2").is_err());
    }

    #[test]
    fn doubutsu_games_from_a_set_up_position_keep_their_start() {
        let start: doubutsu::Position = "1l1/1c1/1C1/1L1 b -".parse().unwrap();
        let mut inner = doubutsu::Game::from_position(start);
        inner.play("B4A4".parse().unwrap()).unwrap();
        let game = Game::Doubutsu(DoubutsuGame(inner));
        let stored = game.encode();
        assert!(stored.ends_with(";1l1/1c1/1C1/1L1 b -"), "{stored}");
        assert_eq!(Game::decode(GameKind::Doubutsu, &stored).unwrap(), game);
        // The same moves from the official start are not this game.
        let (position, moves) = stored.split_once(';').unwrap();
        let moves = moves.split(';').next().unwrap();
        assert!(Game::decode(GameKind::Doubutsu, &format!("{position};{moves}")).is_err());
        assert!(Game::decode(GameKind::Doubutsu, &format!("{stored};extra")).is_err());
        assert!(Game::decode(GameKind::Doubutsu, &format!("{position};{moves};not a position")).is_err());
    }

    #[test]
    fn table_levels_need_the_table_and_say_so() {
        let game = Game::new(GameKind::Doubutsu);
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        assert!(matches!(
            game.ai_move(Level::Doubutsu(doubutsu::Level::Settai), None, &mut rng),
            Err(AiError::NoTable)
        ));
        assert!(matches!(
            game.ai_move(Level::Doubutsu(doubutsu::Level::Strongest), None, &mut rng),
            Err(AiError::NoTable)
        ));
        assert!(Game::needs_table(GameKind::Doubutsu, Level::Doubutsu(doubutsu::Level::Settai)));
        assert!(!Game::needs_table(GameKind::Doubutsu, Level::Doubutsu(doubutsu::Level::Weakest)));
        assert!(!Game::needs_table(GameKind::Reversi, Level::Reversi(reversi::Level::None)));
    }

    #[test]
    fn the_human_moves_of_a_reversi_game_come_with_their_positions_or_not_at_all() {
        let text = ["f5", "d6", "c3", "d3"];
        let moves: Vec<GameMove> = text.iter().map(|s| GameMove::parse(GameKind::Reversi, s).unwrap()).collect();
        let mut positions = vec![reversi::Position::start()];
        for m in text {
            let next = positions.last().unwrap().play(m.parse().unwrap()).unwrap();
            positions.push(next);
        }
        let pos = positions[4];
        // Black is to move (the bot), so the human is white: d6 and d3, played after 1 and 3 plies.
        assert_eq!(pos.turn(), reversi::Color::Black);
        let got = human_moves(&pos, &moves);
        let expected: Vec<(reversi::Position, reversi::Move)> =
            vec![(positions[1], "d6".parse().unwrap()), (positions[3], "d3".parse().unwrap())];
        assert_eq!(got, expected);
        // Moves that do not lead to the position, are illegal or of the other game tell nothing.
        assert!(human_moves(&pos, &moves[..3]).is_empty());
        assert!(human_moves(&pos, &[moves[0], moves[0]]).is_empty());
        let doubutsu = GameMove::parse(GameKind::Doubutsu, "B3B2").unwrap();
        assert!(human_moves(&pos, &[doubutsu]).is_empty());
    }

    #[test]
    fn each_game_names_and_parses_its_own_levels() {
        for l in reversi::Level::ALL {
            assert_eq!(l.as_str().parse::<reversi::Level>(), Ok(l));
            assert_eq!(Level::from(l).as_str(), l.as_str());
        }
        for l in doubutsu::Level::ALL {
            assert_eq!(l.as_str().parse::<doubutsu::Level>(), Ok(l));
            assert_eq!(Level::from(l).to_string(), l.to_string());
        }
        assert!("settai".parse::<reversi::Level>().is_err());
        assert!("no mercy".parse::<doubutsu::Level>().is_err());
        assert_eq!(reversi::Level::None.budget(), reversi::level::DEFAULT_BUDGET);
        assert_eq!(reversi::Level::Standard.budget(), reversi::level::SONTAKU_BUDGET);
        assert!(!doubutsu::Level::Weakest.needs_table());
        // A level of the other game is refused, never played.
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let wrong = Level::Doubutsu(doubutsu::Level::Weakest);
        assert!(matches!(Game::new(GameKind::Reversi).ai_move(wrong, None, &mut rng), Err(AiError::WrongGame(_))));
    }

    #[test]
    fn levels_belong_to_their_game() {
        assert_eq!(Level::parse(GameKind::Doubutsu, " Settai "), Ok(Level::Doubutsu(doubutsu::Level::Settai)));
        assert!(Level::parse(GameKind::Reversi, "settai").is_err());
        assert!(Level::parse(GameKind::Doubutsu, "none").is_err());
        // The name admins see for `none`, as typed, and the Japanese names.
        for alias in ["no mercy", "No-Mercy", "  no   mercy ", "nomercy", "忖度無し"] {
            assert_eq!(Level::parse(GameKind::Reversi, alias), Ok(Level::Reversi(reversi::Level::None)), "{alias:?}");
        }
        assert!(Level::parse(GameKind::Doubutsu, "no mercy").is_err());
        assert_eq!(Level::parse(GameKind::Doubutsu, "雑魚"), Ok(Level::Doubutsu(doubutsu::Level::Weakest)));
        for kind in GameKind::ALL {
            for &level in Level::for_kind(kind) {
                for &alias in level.aliases() {
                    assert_eq!(Level::parse(kind, alias), Ok(level), "{alias:?}");
                    let other = if kind == GameKind::Reversi { GameKind::Doubutsu } else { GameKind::Reversi };
                    assert!(Level::parse(other, alias).is_err(), "{alias:?} is not a {other} level");
                }
            }
        }
        for kind in GameKind::ALL {
            assert!(Level::for_kind(kind).contains(&kind.default_level()));
            assert_eq!(kind.as_str().parse::<GameKind>(), Ok(kind));
        }
    }
}
