//! A position of either game behind one vocabulary: legal moves as typed [`GameMove`]s, play,
//! outcome, the bot's move and a stable text serialization of its position for the database.

use rand::Rng;

use crate::game_move::{GameMove, MoveError};
use crate::kind::GameKind;
use crate::level::Level;
use crate::outcome::{EndReason, Outcome};
use crate::side::Side;
use crate::thinker::Thinker;
use crate::{doubutsu, reversi};

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
pub struct DoubutsuGame(doubutsu::History);

impl DoubutsuGame {
    /// The game whose history is `history`.
    pub fn new(history: doubutsu::History) -> DoubutsuGame {
        DoubutsuGame(history)
    }

    /// Its history: the start, every move and position since, and the repetition counts.
    pub fn history(&self) -> &doubutsu::History {
        &self.0
    }
}

impl PartialEq for DoubutsuGame {
    fn eq(&self, other: &Self) -> bool {
        self.history().start() == other.history().start() && self.history().moves() == other.history().moves()
    }
}

impl Eq for DoubutsuGame {}

/// A game as its stored text names it ([`Game::encode`], [`Game::decode`]): the position it is
/// at and the one it began from. The moves between are stored apart; replayed from
/// [`StoredPosition::start`] they must lead here (docs/design/storage.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredPosition {
    /// A reversi position (every reversi game begins at the official start).
    Reversi(reversi::Position),
    /// A doubutsu shogi position, with the position its game began from.
    Doubutsu {
        /// Where the game is, as its position prints: a game over may be at a position whose
        /// lion was taken, which does not parse back, so the moves replayed from `start` are
        /// held to it by its spelling.
        at: String,
        /// Where it began: the official start, or a set-up position.
        start: doubutsu::Position,
    },
}

impl StoredPosition {
    /// The game before its first move, where its stored moves are replayed from.
    pub fn start(&self) -> Game {
        match self {
            StoredPosition::Reversi(_) => Game::new(GameKind::Reversi),
            StoredPosition::Doubutsu { start, .. } => {
                Game::Doubutsu(DoubutsuGame::new(doubutsu::History::from_position(*start)))
            }
        }
    }
}

impl std::fmt::Display for StoredPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoredPosition::Reversi(p) => f.write_str(&p.to_text()),
            StoredPosition::Doubutsu { at, start } if *start == doubutsu::Position::start() => write!(f, "{at}"),
            StoredPosition::Doubutsu { at, start } => write!(f, "{at};{start}"),
        }
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

impl From<doubutsu::ChooseError> for AiError {
    fn from(e: doubutsu::ChooseError) -> AiError {
        match e {
            doubutsu::ChooseError::NoTable => AiError::NoTable,
            doubutsu::ChooseError::Player(e) => AiError::Doubutsu(e),
        }
    }
}

impl Game {
    /// The starting position of `kind`.
    pub fn new(kind: GameKind) -> Game {
        match kind {
            GameKind::Reversi => Game::Reversi(reversi::Position::start()),
            GameKind::Doubutsu => Game::Doubutsu(DoubutsuGame::new(doubutsu::History::new())),
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
            Game::Doubutsu(g) if g.history().outcome().is_some() => None,
            Game::Doubutsu(g) => Some(doubutsu_side(g.history().position().turn())),
        }
    }

    /// Legal moves (a forced reversi pass is the single move [`GameMove::is_pass`]).
    pub fn legal_moves(&self) -> Vec<GameMove> {
        match self {
            Game::Reversi(p) => p.legal_moves().iter().map(|&m| GameMove::Reversi(m)).collect(),
            Game::Doubutsu(g) if g.history().outcome().is_some() => Vec::new(),
            Game::Doubutsu(g) => g.history().legal_moves().iter().map(|&m| GameMove::Doubutsu(m)).collect(),
        }
    }

    /// Reads a move of this game in any spelling its notation accepts (see [`GameMove::parse`]).
    pub fn parse_move(&self, text: &str) -> Result<GameMove, MoveError> {
        GameMove::parse(self.kind(), text)
    }

    /// Plays `mv`; returns the new position.
    pub fn play(&self, mv: GameMove) -> Result<Game, MoveError> {
        let mut next = self.clone();
        next.play_in_place(mv)?;
        Ok(next)
    }

    /// Plays `mv` on this game itself: a doubutsu history grows by one move rather than being
    /// copied, so a stored game replays in time linear in its length. Unchanged when refused.
    pub fn play_in_place(&mut self, mv: GameMove) -> Result<(), MoveError> {
        let kind = self.kind();
        match (self, mv) {
            (Game::Reversi(p), GameMove::Reversi(mv)) => {
                *p = p.play(mv).map_err(|e| MoveError::Illegal(e.to_string()))?;
                Ok(())
            }
            (Game::Doubutsu(g), GameMove::Doubutsu(mv)) => {
                if g.0.outcome().is_some() {
                    return Err(MoveError::Illegal("the game is over".into()));
                }
                g.0.play(mv).map_err(|e| MoveError::Illegal(e.to_string()))
            }
            (_, mv) => Err(MoveError::Illegal(format!("{mv} is a move of {}, not of {kind}", mv.kind()))),
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
            Game::Doubutsu(g) => g.history().outcome().map(|o| match o {
                doubutsu::Ending::Draw => Outcome { winner: None, score: None, reason: EndReason::Repetition },
                doubutsu::Ending::Win { winner, reason } => Outcome {
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
            Game::Doubutsu(g) => {
                Game::Doubutsu(DoubutsuGame::new(doubutsu::History::from_position(*g.history().start())))
            }
        }
    }

    /// Stable text form for the database: the position and, for a doubutsu game that did not
    /// begin at the official start, its first position (`position` or `position;start`). The
    /// moves are not in it: the store keeps them in their own table, the one record of a game's
    /// past, and replays them from the start the text names (docs/design/storage.md).
    pub fn encode(&self) -> String {
        self.stored_position().to_string()
    }

    /// What [`Game::encode`] writes of this game: where it is and where it began.
    pub fn stored_position(&self) -> StoredPosition {
        match self {
            Game::Reversi(p) => StoredPosition::Reversi(*p),
            Game::Doubutsu(g) => {
                StoredPosition::Doubutsu { at: g.history().position().to_string(), start: *g.history().start() }
            }
        }
    }

    /// Reads back what [`Game::encode`] wrote (in any spelling the positions' parsers accept).
    /// A text that also holds moves (a `position;moves[;start]` of the format before
    /// docs/design/storage.md#one-record-of-the-moves) is refused, never misread.
    pub fn decode(kind: GameKind, text: &str) -> Result<StoredPosition, DecodeError> {
        let fail = |reason: String| DecodeError { kind, text: text.to_string(), reason };
        match kind {
            GameKind::Reversi => {
                text.parse::<reversi::Position>().map(StoredPosition::Reversi).map_err(|e| fail(e.to_string()))
            }
            GameKind::Doubutsu => {
                let mut parts = text.split(';');
                let (Some(at), start, None) = (parts.next(), parts.next(), parts.next()) else {
                    return Err(fail("expected position[;start]".into()));
                };
                if at.trim().is_empty() {
                    return Err(fail("no position".into()));
                }
                let start = match start {
                    None => doubutsu::Position::start(),
                    Some(s) => s.parse::<doubutsu::Position>().map_err(|e| fail(format!("start position: {e}")))?,
                };
                Ok(StoredPosition::Doubutsu { at: at.to_string(), start })
            }
        }
    }

    /// The bot's move at `level`: a legal move, or `None` when the game is over. The doubutsu table levels need `table`. Pure and CPU-bound: callers on an async
    /// runtime run it on a blocking thread.
    pub fn ai_move<T: doubutsu::Table>(
        &self,
        level: Level,
        table: Option<&T>,
        thinker: &mut Thinker,
        rng: &mut impl Rng,
    ) -> Result<Option<GameMove>, AiError> {
        self.ai_move_after(level, table, &[], thinker, rng)
    }

    /// [`Game::ai_move`] knowing the moves that led here from the start (`moves`): reversi `standard` judges from them how well the human plays (see
    /// [`reversi::levels::strength`]). Moves that do not lead here are ignored (the seed's human).
    pub fn ai_move_after<T: doubutsu::Table>(
        &self,
        level: Level,
        table: Option<&T>,
        moves: &[GameMove],
        thinker: &mut Thinker,
        rng: &mut impl Rng,
    ) -> Result<Option<GameMove>, AiError> {
        if self.to_move().is_none() {
            return Ok(None);
        }
        Ok(Some(match (self, level) {
            (Game::Reversi(p), Level::Reversi(level)) => GameMove::Reversi({
                let (engine, eval) = thinker.reversi();
                reversi::choose_at_level(engine, eval, p, level, &human_moves(p, moves), rng).best
            }),
            (Game::Doubutsu(g), Level::Doubutsu(level)) => {
                GameMove::Doubutsu(level.choose_move(table, g.history(), rng)?)
            }
            (_, level) => return Err(AiError::WrongGame(level)),
        }))
    }
}

fn doubutsu_side(c: doubutsu::Color) -> Side {
    match c {
        doubutsu::Color::Sente => Side::First,
        doubutsu::Color::Gote => Side::Second,
    }
}

fn doubutsu_color(side: Side) -> doubutsu::Color {
    match side {
        Side::First => doubutsu::Color::Sente,
        Side::Second => doubutsu::Color::Gote,
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
    /// Whether `mv` lets the opponent win at once: in doubutsu shogi, after it the lion can be
    /// taken or a try is let through. A move that wins at once is never one. Reversi has no
    /// such move (a game is never lost in one), so none is. What the coach warns a child of
    /// (docs/design/kind-coach.md).
    pub fn loses_at_once(&self, mv: GameMove) -> bool {
        match (self, mv) {
            (Game::Doubutsu(g), GameMove::Doubutsu(mv)) => g.history().position().loses_at_once(mv),
            _ => false,
        }
    }

    /// Whether `mv` loses at once while another move does not (doubutsu shogi; never in
    /// reversi): the blunder after which the coach offers the take-back.
    pub fn loses_needlessly(&self, mv: GameMove) -> bool {
        match (self, mv) {
            (Game::Doubutsu(g), GameMove::Doubutsu(mv)) => g.history().position().loses_needlessly(mv),
            _ => false,
        }
    }

    /// Whether `side` took back, in this game, a move that lost at once while another did not
    /// (doubutsu shogi; never in reversi): `settai` then meets it as a player who does not yet
    /// see captures, though the record no longer shows the blunder
    /// (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going).
    pub fn withdrew_blunder(&self, side: Side) -> bool {
        match self {
            Game::Doubutsu(g) => g.history().withdrew_blunder(doubutsu_color(side)),
            Game::Reversi(_) => false,
        }
    }

    /// Records that `side` took back such a move ([`Game::withdrew_blunder`]), for a game
    /// rebuilt from a record that no longer holds it.
    pub fn note_withdrawn_blunder(&mut self, side: Side) {
        if let Game::Doubutsu(g) = self {
            g.0.note_withdrawn_blunder(doubutsu_color(side));
        }
    }

    /// Whether the side to move can win on this move (doubutsu shogi: take the lion or make a
    /// try that cannot be answered; reversi games are not won in one move).
    pub fn can_win_at_once(&self) -> bool {
        match self {
            Game::Doubutsu(g) => self.outcome().is_none() && !g.history().position().winning_moves().is_empty(),
            Game::Reversi(_) => false,
        }
    }

    /// Whether the side to move has its lion attacked (doubutsu shogi; never in reversi).
    pub fn lion_in_danger(&self) -> bool {
        match self {
            Game::Doubutsu(g) => self.outcome().is_none() && g.history().position().lion_in_check().is_some(),
            Game::Reversi(_) => false,
        }
    }

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
                let position = g.history().position();
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
