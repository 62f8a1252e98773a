//! A game as one request finds it: its stored record with the moves that led there, read
//! together with the settings of its place, so that a request reads the database once.

use super::{GameRecord, GameStatus, MoveRecord, Settings};
use settai_core::{Game, GameMove};

/// A move played, with the position it was played from (for highlighting on the board).
#[derive(Debug, Clone)]
pub struct PlayedMove {
    /// The position before the move.
    pub before: Game,
    /// The move.
    pub mv: GameMove,
    /// True for the bot's moves.
    pub by_bot: bool,
    /// The player who chose it (`None` for the bot and for forced passes).
    pub user_id: Option<u64>,
}

/// A stored game with the moves that lead from its start to its stored position, checked to
/// lead there when it was read.
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// The game as stored.
    pub record: GameRecord,
    /// Its moves from the start, in order.
    pub moves: Vec<PlayedMove>,
}

/// Why a stored move list cannot be trusted (the store reports the game as corrupt).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Untrusted(pub String);

impl StoredGame {
    /// A game just created: no moves yet.
    pub fn new(record: GameRecord) -> StoredGame {
        StoredGame { record, moves: Vec::new() }
    }

    /// Replays `moves` (as stored, in ply order) from the start of `record`'s game; they must
    /// read, be legal and lead to the stored position.
    pub fn replay(record: GameRecord, moves: &[MoveRecord]) -> Result<StoredGame, Untrusted> {
        let mut game = record.game.initial();
        let mut played = Vec::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            if m.ply as usize != i + 1 {
                return Err(Untrusted(format!("ply {} stored as ply {}", i + 1, m.ply)));
            }
            let mv = game.parse_move(&m.notation).map_err(|e| Untrusted(format!("ply {}: {e}", m.ply)))?;
            let next = game.play(mv).map_err(|e| Untrusted(format!("ply {}: {e}", m.ply)))?;
            played.push(PlayedMove { before: game, mv, by_bot: m.by_bot, user_id: m.user_id });
            game = next;
        }
        if game != record.game || played.len() as u32 != record.ply {
            return Err(Untrusted("the move list does not lead to the stored position".into()));
        }
        Ok(StoredGame { record, moves: played })
    }

    /// The last move on the board, if any.
    pub fn last_move(&self) -> Option<&PlayedMove> {
        self.moves.last()
    }

    /// The moves from the start, without their positions.
    pub fn history(&self) -> Vec<GameMove> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// How many moves stay when the player's last own move is taken back (待った): the ply
    /// just before it. Forced passes and the bot's moves are nobody's choice; `None` when the
    /// player has made no move yet (a game the bot opened starts with the bot's move).
    pub fn takeback_ply(&self) -> Option<u32> {
        self.moves.iter().rposition(|m| !m.by_bot && m.user_id.is_some()).map(|i| i as u32)
    }

    /// The game after `played` (stored as `record`): these moves follow the ones it had.
    pub fn advanced(mut self, record: GameRecord, played: &[PlayedMove]) -> StoredGame {
        self.record = record;
        self.moves.extend_from_slice(played);
        self
    }

    /// The game as it was after its first `ply` moves (stored now as `record`).
    pub fn truncated(mut self, record: GameRecord, ply: u32) -> StoredGame {
        self.record = record;
        self.moves.truncate(ply as usize);
        self
    }
}

/// What a request reads of its place, once and consistently: the settings in effect there and
/// the active game, if any.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The settings in effect at the place.
    pub settings: Settings,
    /// The place's active game.
    pub game: Option<StoredGame>,
    /// The reader's own choice of the coach's hints, if they made one (`/play hints`); the
    /// reader is the player the request answers, if any.
    pub hints_choice: Option<bool>,
    /// When no game is active and the place's last game was in a private channel (where its end
    /// was silent): how it ended.
    pub last_ended: Option<GameStatus>,
}

impl Snapshot {
    /// The settings as the reader plays under them: the place's, with the reader's own
    /// choice of hints where they made one (docs/design/kind-coach.md#your-own-choice).
    pub fn settings_for_reader(&self) -> Settings {
        Settings { hints: self.hints_choice.unwrap_or(self.settings.hints), ..self.settings.clone() }
    }
}
