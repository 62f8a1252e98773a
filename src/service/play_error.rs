//! Why a request was refused, as every front end tells it.

use super::AiPanicked;
use crate::store::StoreError;
use settai_core::{AiError, GameKind, GameMove, MoveError};

/// Why a request was refused. Nothing was changed when one of these is returned.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The channel has no active game.
    #[error("no game in this channel")]
    NoGame,
    /// The private channel has no active game: its last one was closed, silently, after
    /// waiting too long for a move (in servers a notice said so when it happened).
    #[error("the last game here was closed for waiting too long")]
    ClosedIdle,
    /// The channel already has an active game.
    #[error("this channel already has a game")]
    ChannelBusy,
    /// The game belongs to someone else.
    #[error("this is another player's game")]
    NotYourGame {
        /// The game's owner.
        owner: u64,
    },
    /// It is the bot's turn (or the game is over).
    #[error("not your turn")]
    NotYourTurn,
    /// The request was made for an older position (a stale board component).
    #[error("this board is out of date")]
    Stale,
    /// Someone else's move landed first.
    #[error("that move was already played")]
    AlreadyPlayed,
    /// The move text is not a move, or not legal here.
    #[error("{error}")]
    BadMove {
        /// The game the move was meant for (the refusal is worded for it).
        kind: GameKind,
        /// What the player typed or chose.
        input: String,
        /// Why it cannot be played.
        error: MoveError,
        /// Legal moves in the position, for the error message.
        legal: Vec<GameMove>,
    },
    /// The game cannot be played at the server's level right now (the doubutsu table is
    /// missing or still being built); nothing was created.
    #[error("{kind} is not available at this level yet")]
    Unavailable {
        /// The game asked for.
        kind: GameKind,
        /// While the table is being built: about how long until it is ready.
        ready_in: Option<std::time::Duration>,
    },
    /// The bot has too many searches waiting; nothing was stored, the player may try again.
    #[error("too busy right now")]
    Busy,
    /// The channel's game could not be trusted (its stored record does not add up); it was
    /// closed and a new one can be started.
    #[error("the stored game was corrupt and has been closed")]
    Corrupt,
    /// Take-backs are not allowed where the game is played.
    #[error("take-backs are off here")]
    TakebackOff,
    /// The player has made no move that could be taken back.
    #[error("nothing to take back")]
    NothingToTakeBack,
    /// An opponent was chosen where players may not choose (a stale picker, or a forged one).
    #[error("players cannot choose the opponent here")]
    NoLevelChoice,
    /// The AI failed to choose a move: nothing of the bot's turn was stored, and the turn is
    /// paid later (docs/design/bot-reliability.md#robustness).
    #[error(transparent)]
    Ai(AiFailure),
    /// The store failed or holds something it cannot trust.
    #[error(transparent)]
    Store(StoreError),
}

/// Why the bot could not choose its move.
#[derive(Debug, thiserror::Error)]
pub enum AiFailure {
    /// The level could not answer (its table is of other pieces, or it is the other game's).
    #[error(transparent)]
    Level(#[from] AiError),
    /// The search panicked: a bug, logged where it happened; the request still gets its answer.
    #[error(transparent)]
    Panicked(#[from] AiPanicked),
    /// The game was over when the bot was asked to move.
    #[error("the bot was asked to move in a game that is over")]
    GameOver,
}

impl From<StoreError> for PlayError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::ChannelBusy => PlayError::ChannelBusy,
            StoreError::Conflict => PlayError::AlreadyPlayed,
            other => PlayError::Store(other),
        }
    }
}
