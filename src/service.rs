//! The game flow shared by every front end: start a game, take a human move, let the bot answer,
//! resign. It loads every game from the store (never from process memory), validates before it
//! writes, and runs CPU-heavy AI work on a bounded blocking pool off the async runtime.
//!
//! Past 500 lines on purpose: one job, the game flow every front end shares, one method of
//! `Service` per step; its tests are in `tests/service.rs`.

mod ai_pool;
mod priority;
pub mod table_keeper;

use std::sync::Arc;

use rand::SeedableRng;

use crate::domain::{
    Change, Finish, GameRecord, GameResult, GameStatus, NewGame, NewMove, Nudge, Place, PlayerRecord, Scope, Settings,
};
use crate::store::{Store, StoreError};
use crate::table_file::TableFile;
use ai_pool::AiPool;
pub use ai_pool::{AiPanicked, BACKLOG_PER_CORE};
use settai_core::story::{story, Story};
use settai_core::{self, AiError, Commentary, Game, GameKind, GameMove, Level, MoveError, Side, Thinker};
use table_keeper::{TableKeeper, TableState};

/// Why a request was refused. Nothing was changed when one of these is returned.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The channel has no active game.
    #[error("no game in this channel")]
    NoGame,
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
    /// The AI failed to choose a move.
    #[error(transparent)]
    Ai(AiError),
    /// The store failed or holds something it cannot trust.
    #[error(transparent)]
    Store(StoreError),
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

/// A move just played, with the position it was played from (for highlighting on the board).
#[derive(Debug, Clone)]
pub struct PlayedMove {
    /// The position before the move.
    pub before: Game,
    /// The move.
    pub mv: GameMove,
    /// True for the bot's moves.
    pub by_bot: bool,
}

/// The state after a request, and the moves it made.
#[derive(Debug, Clone)]
pub struct Turn {
    /// The game as now stored.
    pub record: GameRecord,
    /// The moves made by this request, in order (human move, bot replies, forced passes).
    pub moves: Vec<PlayedMove>,
}

impl Turn {
    /// The last move on the board, if any was made by this request.
    pub fn last_move(&self) -> Option<&PlayedMove> {
        self.moves.last()
    }
}

/// Runs the game flow against a store.
#[derive(Clone)]
pub struct Service {
    store: Store,
    ai: AiPool,
    doubutsu_table: Arc<TableKeeper>,
    seed: Option<u64>,
}

/// Longest display name kept with a game (Discord's own limit is 32).
pub const MAX_NAME_CHARS: usize = 64;

/// A request to identify where it comes from.
#[derive(Debug, Clone)]
pub struct Seat {
    /// The server, if any.
    pub guild_id: Option<u64>,
    /// The channel or thread.
    pub channel_id: u64,
    /// For a thread: the channel it hangs from.
    pub parent_id: Option<u64>,
    /// The user acting.
    pub user_id: u64,
    /// Their display name on the server (kept with a game they start, for the images).
    pub name: String,
}

impl Seat {
    /// Where the request comes from (whose settings apply).
    pub fn place(&self) -> Place {
        Place { guild_id: self.guild_id, channel_id: self.channel_id, parent_id: self.parent_id }
    }
}

impl Service {
    /// A service over `store`; AI work runs on at most as many threads as there are cores.
    pub fn new(store: Store) -> Service {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Service {
            store,
            ai: AiPool::new(cores, cores * BACKLOG_PER_CORE),
            doubutsu_table: TableKeeper::with(None),
            seed: None,
        }
    }

    /// The same service choosing the bot's moves from `seed` (and the ply) instead of fresh
    /// randomness, so that a terminal game can be replayed (`settai play --seed`).
    pub fn with_seed(mut self, seed: Option<u64>) -> Service {
        self.seed = seed;
        self
    }

    /// The same service with `slots` AI searches at once and at most `backlog` waiting or
    /// running (past that, moves are refused as busy before anything is stored).
    pub fn with_ai_capacity(mut self, slots: usize, backlog: usize) -> Service {
        self.ai = AiPool::new(slots, backlog);
        self
    }

    /// Whether the AI pool is full, so that a new move would be refused as busy.
    pub fn ai_is_full(&self) -> bool {
        self.ai.is_full()
    }

    /// The same service with the doubutsu table (memory-mapped, shared read-only) for the
    /// `settai` and `strongest` levels.
    pub fn with_doubutsu_table(self, table: Option<Arc<TableFile>>) -> Service {
        self.with_table_keeper(TableKeeper::with(table))
    }

    /// The same service reading the doubutsu table from `keeper` (which may still be
    /// building it: table levels are refused with an estimate until it is ready).
    pub fn with_table_keeper(mut self, keeper: Arc<TableKeeper>) -> Service {
        self.doubutsu_table = keeper;
        self
    }

    /// Why table levels cannot be played now, if they cannot.
    fn table_unavailable(&self, kind: GameKind) -> Option<PlayError> {
        match self.doubutsu_table.state() {
            TableState::Ready(_) => None,
            TableState::Building { ready_in } => Some(PlayError::Unavailable { kind, ready_in: Some(ready_in) }),
            TableState::Unavailable => Some(PlayError::Unavailable { kind, ready_in: None }),
        }
    }

    /// The store underneath.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Starts a game of `kind` in the seat's channel at the level its settings give, or at
    /// `chosen` where players may choose (a choice where they may not is refused).
    pub async fn start(
        &self,
        seat: &Seat,
        kind: GameKind,
        human_side: Side,
        chosen: Option<Level>,
    ) -> Result<GameRecord, PlayError> {
        let settings = self.settings(&seat.place()).await?;
        let level = match chosen {
            None => settings.level(kind),
            Some(level) if settings.level_choice && level.kind() == kind => level,
            Some(_) => return Err(PlayError::NoLevelChoice),
        };
        self.start_at_level(seat, human_side, level).await
    }

    /// Starts a game at `level` whatever the settings say: for a front end whose player owns
    /// the place and chooses the level (the terminal).
    pub async fn start_at_level(&self, seat: &Seat, human_side: Side, level: Level) -> Result<GameRecord, PlayError> {
        let kind = level.kind();
        if level.needs_table() {
            if let Some(refusal) = self.table_unavailable(kind) {
                return Err(refusal);
            }
        }
        if level.thinks_long() && self.ai.is_full() {
            return Err(PlayError::Busy);
        }
        let record = self
            .store
            .create_game(&NewGame {
                guild_id: seat.guild_id,
                channel_id: seat.channel_id,
                parent_id: seat.parent_id,
                human_id: seat.user_id,
                // Discord caps display names at 32 characters; a forged longer one is cut.
                human_name: seat.name.chars().take(MAX_NAME_CHARS).collect(),
                human_side,
                level,
                game: Game::new(kind),
            })
            .await?;
        Ok(record)
    }

    /// The settings in effect at `place`.
    pub async fn settings(&self, place: &Place) -> Result<Settings, PlayError> {
        Ok(self.store.settings(place).await?)
    }

    /// Applies a manager's change to the server of `place`, or only to its channel.
    pub async fn change_setting(
        &self,
        guild_id: u64,
        place: &Place,
        scope: Scope,
        change: Change,
    ) -> Result<(), PlayError> {
        Ok(self.store.change_setting(guild_id, place, scope, change).await?)
    }

    /// Drops the overrides of `place`'s channel; whether it had any.
    pub async fn clear_channel_settings(&self, guild_id: u64, place: &Place) -> Result<bool, PlayError> {
        Ok(self.store.clear_channel_settings(guild_id, place).await?)
    }

    /// The seat's player's results on this server (or in direct messages), per game.
    pub async fn record_of(&self, seat: &Seat) -> Result<Vec<(GameKind, PlayerRecord)>, PlayError> {
        Ok(self.store.player_record(seat.guild_id, seat.user_id).await?)
    }

    /// Closes games idle past their server's limit; returns them with the limit in days.
    pub async fn expire_idle(&self) -> Result<Vec<(GameRecord, u32)>, PlayError> {
        Ok(self.store.expire_idle_games().await?)
    }

    /// Games owed a reminder or a final notice now (see [`Store::games_owed_nudges`]); only
    /// those waiting for their player, not for the bot.
    pub async fn owed_nudges(&self) -> Result<Vec<(GameRecord, Nudge)>, PlayError> {
        let owed = self.store.games_owed_nudges().await?;
        Ok(owed.into_iter().filter(|(record, _)| record.human_to_move()).collect())
    }

    /// Records that `nudge` goes out for `record` now; false when it already went (or the game
    /// moved on), and then it must not be sent.
    pub async fn claim_nudge(&self, record: &GameRecord, nudge: Nudge) -> Result<bool, PlayError> {
        Ok(self.store.claim_nudge(record, nudge).await?)
    }

    /// Remembers `message_id` as the board of `record` (as it was when the board was drawn).
    pub async fn set_board_message(&self, record: &GameRecord, message_id: u64) -> Result<bool, PlayError> {
        Ok(self.store.set_board_message(record.id, record.ply, message_id).await?)
    }

    /// The seat's player wants reminders of their waiting games, or not (on every server).
    pub async fn set_reminders_wanted(&self, seat: &Seat, on: bool) -> Result<(), PlayError> {
        Ok(self.store.set_reminders_wanted(seat.user_id, on).await?)
    }

    /// The commentary on a player's move (for servers that have it on); `None` when there is
    /// nothing to say. Runs on the bounded AI pool; a failure only costs the line (it is
    /// logged), never the move.
    pub async fn comment(&self, played: &PlayedMove) -> Option<Commentary> {
        if played.by_bot || played.mv.is_pass() {
            return None;
        }
        let (before, mv, table) = (played.before.clone(), played.mv, self.doubutsu_table.get());
        self.ai
            .think(move |thinker| settai_core::commentary(&before, mv, table.as_deref(), thinker))
            .await
            .unwrap_or_else(|e| {
                tracing::error!(error = %e, "commentary task failed");
                None
            })
    }

    /// The active game in the channel.
    pub async fn current(&self, channel_id: u64) -> Result<GameRecord, PlayError> {
        match self.store.active_game(channel_id).await {
            Ok(record) => record.ok_or(PlayError::NoGame),
            Err(e) => Err(self.untrusted(e, None).await),
        }
    }

    /// A store failure as the player hears it; a corrupt game is closed first (as `void`), so
    /// the channel is free again and nothing is ever played on a record that does not add up.
    /// `version`: the version found corrupt (the game is then only closed if still at it).
    async fn untrusted(&self, e: StoreError, version: Option<i32>) -> PlayError {
        let StoreError::Corrupt { game_id, reason } = &e else { return e.into() };
        tracing::error!(game_id, reason, "a stored game is corrupt: closed, not trusted");
        match self.store.void_game(*game_id, version).await {
            Ok(()) => PlayError::Corrupt,
            Err(e) => e.into(),
        }
    }

    /// The channel's game, which must still be the (game id, ply) a board component was made
    /// for, when the request came from one: otherwise (or when the game is gone) the board is
    /// [`PlayError::Stale`].
    async fn current_as_expected(&self, seat: &Seat, expected: Option<(i64, u32)>) -> Result<GameRecord, PlayError> {
        let record = self.current(seat.channel_id).await.map_err(|e| match (e, expected) {
            (PlayError::NoGame, Some(_)) => PlayError::Stale,
            (e, _) => e,
        })?;
        match expected {
            Some((id, ply)) if record.id != id || record.ply != ply => Err(PlayError::Stale),
            _ => Ok(record),
        }
    }

    /// Plays the human's move. `expected` is the (game id, ply) the request was made for, when it
    /// came from a board component; a mismatch is [`PlayError::Stale`]. Records only the human's
    /// move: call [`Service::bot_reply`] afterwards (after deferring the interaction).
    pub async fn human_move(&self, seat: &Seat, input: &str, expected: Option<(i64, u32)>) -> Result<Turn, PlayError> {
        let record = self.current_as_expected(seat, expected).await?;
        if !self.may_move(&record, seat).await? {
            return Err(PlayError::NotYourGame { owner: record.human_id });
        }
        if !record.human_to_move() {
            return Err(PlayError::NotYourTurn);
        }
        // The stored position must be where its move list leads before anything is added to it.
        self.replayed(&record).await?;
        // Refused before it is stored: an accepted move always gets its reply.
        if record.level.thinks_long() && self.ai.is_full() {
            return Err(PlayError::Busy);
        }
        let bad_move =
            |error| PlayError::BadMove { input: input.trim().to_string(), error, legal: record.game.legal_moves() };
        let mv = record.game.parse_move(input).map_err(bad_move)?;
        let next = record.game.play(mv).map_err(bad_move)?;
        let played = PlayedMove { before: record.game.clone(), mv, by_bot: false };
        let updated = self
            .store
            .record_moves(
                &record,
                &[NewMove { mv, by_bot: false, user_id: Some(seat.user_id) }],
                &next,
                finish_of(&next, record.human_side),
            )
            .await?;
        Ok(Turn { record: updated, moves: vec![played] })
    }

    /// Lets the bot move until the human has a real choice or the game ends. A human who has no
    /// move but to pass passes automatically. All these moves are stored in one transaction.
    pub async fn bot_reply(&self, record: GameRecord) -> Result<Turn, PlayError> {
        let mut game = record.game.clone();
        let mut played = Vec::new();
        let mut new_moves = Vec::new();
        // The whole game so far: reversi `standard` reads the human's strength from it.
        let mut history: Vec<GameMove> = if record.level.thinks_long() {
            // A stored move that does not read leaves no history: the human's strength is not judged.
            let stored = self.store.moves(record.id).await?;
            stored.iter().map(|m| game.parse_move(&m.notation)).collect::<Result<_, _>>().unwrap_or_default()
        } else {
            Vec::new()
        };
        while let Some(to_move) = game.to_move() {
            let by_bot = to_move != record.human_side;
            let mv = if by_bot {
                let ply = record.ply + played.len() as u32;
                self.think(game.clone(), record.level, history.clone(), ply).await?
            } else {
                match game.legal_moves().as_slice() {
                    [only] if only.is_pass() => *only,
                    _ => break,
                }
            };
            let next = game.play(mv).map_err(|error| PlayError::BadMove {
                input: mv.to_string(),
                error,
                legal: game.legal_moves(),
            })?;
            history.push(mv);
            played.push(PlayedMove { before: game, mv, by_bot });
            new_moves.push(NewMove { mv, by_bot, user_id: None });
            game = next;
        }
        if new_moves.is_empty() {
            return Ok(Turn { record, moves: played });
        }
        let updated = self.store.record_moves(&record, &new_moves, &game, finish_of(&game, record.human_side)).await?;
        Ok(Turn { record: updated, moves: played })
    }

    /// Resigns the human's game.
    pub async fn resign(&self, seat: &Seat, game_id: Option<i64>) -> Result<GameRecord, PlayError> {
        let record = self.current(seat.channel_id).await.map_err(|e| match (e, game_id) {
            (PlayError::NoGame, Some(_)) => PlayError::Stale,
            (e, _) => e,
        })?;
        if game_id.is_some_and(|id| id != record.id) {
            return Err(PlayError::Stale);
        }
        if record.human_id != seat.user_id {
            return Err(PlayError::NotYourGame { owner: record.human_id });
        }
        Ok(self.store.end_game(&record, GameStatus::Resigned, GameResult::Bot).await?)
    }

    /// Takes back the player's last move and the bot's reply to it (待った) where the settings
    /// allow it: only the player who started the game, on their turn. `expected` is the (game
    /// id, ply) of the board whose button was pressed: a second press of that board finds the
    /// game moved on and is [`PlayError::Stale`], so two presses take back once. Returns the
    /// game as now stored and its last move (to mark on the board).
    pub async fn take_back(
        &self,
        seat: &Seat,
        expected: Option<(i64, u32)>,
    ) -> Result<(GameRecord, Option<PlayedMove>), PlayError> {
        let record = self.current_as_expected(seat, expected).await?;
        if record.human_id != seat.user_id {
            return Err(PlayError::NotYourGame { owner: record.human_id });
        }
        if !self.settings(&record.place()).await?.takeback {
            return Err(PlayError::TakebackOff);
        }
        if !record.human_to_move() {
            return Err(PlayError::NotYourTurn);
        }
        let (history, _) = self.replayed(&record).await?;
        let moves = self.store.moves(record.id).await?;
        // A take-back racing this one changed the game since it was read (the replay reads it
        // afresh then): this request is out of date, whatever the new state allows.
        if history.len() != record.ply as usize || moves.len() != record.ply as usize {
            return Err(PlayError::Stale);
        }
        // Back to just before the player's own last choice (forced passes have no player).
        let Some(back_to) = moves.iter().rposition(|m| !m.by_bot && m.user_id.is_some()) else {
            return Err(PlayError::NothingToTakeBack);
        };
        let mut game = record.game.initial();
        let mut last = None;
        for (&mv, stored) in history.iter().zip(&moves).take(back_to) {
            let next = game.play(mv).map_err(|e| {
                PlayError::Store(StoreError::Corrupt { game_id: record.id, reason: format!("ply {}: {e}", stored.ply) })
            })?;
            last = Some(PlayedMove { before: game, mv, by_bot: stored.by_bot });
            game = next;
        }
        // A press racing another finds the game taken back already: its board is out of date.
        let updated = self.store.take_back(&record, back_to as u32, &game).await.map_err(|e| match e {
            StoreError::Conflict => PlayError::Stale,
            e => e.into(),
        })?;
        Ok((updated, last))
    }

    /// Legal moves for the human in the channel's game (empty when there is none or it is not
    /// their turn).
    pub async fn legal_moves_for(&self, seat: &Seat) -> Result<Vec<GameMove>, PlayError> {
        match self.store.active_game(seat.channel_id).await? {
            Some(r) if r.human_to_move() && self.may_move(&r, seat).await? => Ok(r.game.legal_moves()),
            _ => Ok(Vec::new()),
        }
    }

    /// Whether `seat`'s user may move in `record`'s game: the player who started it, or in
    /// team mode anyone in the channel. (Resigning stays with the player who started.)
    async fn may_move(&self, record: &GameRecord, seat: &Seat) -> Result<bool, PlayError> {
        Ok(record.human_id == seat.user_id || self.settings(&record.place()).await?.team_play)
    }

    /// The last move of a stored game, found by replaying its move list from its start; a list
    /// that does not lead to the stored position is reported as corrupt rather than trusted.
    pub async fn last_move(&self, record: &GameRecord) -> Result<Option<PlayedMove>, PlayError> {
        Ok(self.replayed(record).await?.1)
    }

    /// The moves of a stored game from its start, checked like [`Service::last_move`].
    pub async fn history(&self, record: &GameRecord) -> Result<Vec<GameMove>, PlayError> {
        Ok(self.replayed(record).await?.0)
    }

    async fn replayed(&self, record: &GameRecord) -> Result<(Vec<GameMove>, Option<PlayedMove>), PlayError> {
        let mut record = std::borrow::Cow::Borrowed(record);
        // The game and its moves are read one after the other: a move landing in between makes
        // them disagree without anything being wrong, so a disagreement is only believed when
        // the game has not changed since it was read.
        for _ in 0..3 {
            let moves = self.store.moves(record.id).await?;
            let mut game = record.game.initial();
            let mut last = None;
            let mut history = Vec::with_capacity(moves.len());
            let mut broken = None;
            for m in &moves {
                // The store's text is read here, where a bad one is reported as corrupt.
                match game.parse_move(&m.notation).and_then(|mv| Ok((mv, game.play(mv)?))) {
                    Ok((mv, next)) => {
                        history.push(mv);
                        last = Some(PlayedMove { before: game, mv, by_bot: m.by_bot });
                        game = next;
                    }
                    Err(e) => {
                        broken = Some(format!("ply {}: {e}", m.ply));
                        break;
                    }
                }
            }
            if broken.is_none() && (game != record.game || moves.len() as u32 != record.ply) {
                broken = Some("the move list does not lead to the stored position".into());
            }
            let Some(reason) = broken else { return Ok((history, last)) };
            match self.store.game(record.id).await {
                Ok(Some(fresh)) if fresh.version != record.version => record = std::borrow::Cow::Owned(fresh),
                Ok(_) => {
                    let corrupt = StoreError::Corrupt { game_id: record.id, reason };
                    return Err(self.untrusted(corrupt, Some(record.version)).await);
                }
                Err(e) => return Err(self.untrusted(e, None).await),
            }
        }
        Err(PlayError::AlreadyPlayed)
    }

    /// How the game of `record` went for its human (values, slips, finds) after `moves` from
    /// its start; computed on the bounded AI pool. `None` if it cannot be told (logged).
    pub async fn story(&self, record: &GameRecord, moves: Vec<GameMove>) -> Option<Story> {
        let (start, human, table) = (record.game.initial(), record.human_side, self.doubutsu_table.get());
        let told = self.ai.run(move || story(&start, &moves, human, table.as_deref())).await;
        match told {
            Ok(Ok(s)) => Some(s),
            Ok(Err(e)) => {
                tracing::warn!(game = record.id, error = %e, "could not tell a game's story");
                None
            }
            Err(e) => {
                tracing::error!(game = record.id, error = %e, "story task failed");
                None
            }
        }
    }

    /// Active games in which the bot is to move: a crash between a human move and the bot's
    /// reply leaves them so. Not the terminal's: `settai play` replies when it is opened again.
    pub async fn games_awaiting_bot(&self) -> Result<Vec<GameRecord>, PlayError> {
        self.games_awaiting_bot_for(std::time::Duration::ZERO).await
    }

    /// Active games in which the bot has been to move for at least `waiting` (a reply that
    /// failed after the human's move was stored, e.g. when the database blinked, leaves them so
    /// while the process runs on).
    pub async fn games_awaiting_bot_for(&self, waiting: std::time::Duration) -> Result<Vec<GameRecord>, PlayError> {
        let since = chrono::Utc::now() - chrono::Duration::from_std(waiting).unwrap_or(chrono::Duration::MAX);
        let games = self.store.active_games().await?.into_iter();
        Ok(games.filter(|r| r.bot_to_move() && r.updated_at <= since && !r.at_terminal()).collect())
    }

    /// Computes the bot's move on the blocking pool, bounded so AI work never starves the
    /// runtime (and the gateway heartbeat with it).
    async fn think(&self, game: Game, level: Level, history: Vec<GameMove>, ply: u32) -> Result<GameMove, PlayError> {
        let table = self.doubutsu_table.get();
        let seed = self.seed;
        let work = move |thinker: &mut Thinker| {
            let mut rng = match seed {
                // Each ply its own stream: the same seed replays the same game.
                Some(seed) => rand::rngs::StdRng::seed_from_u64(seed.wrapping_add(u64::from(ply))),
                None => rand::rngs::StdRng::from_entropy(),
            };
            game.ai_move_after(level, table.as_deref(), &history, thinker, &mut rng)
        };
        // A lookup of a millisecond does not wait behind the searches of other games.
        let mv = if level.thinks_long() {
            self.ai.think(work).await.expect("AI task panicked")
        } else {
            // Its thinker allocates nothing: a doubutsu reply reads the table.
            tokio::task::spawn_blocking(move || work(&mut Thinker::new())).await.expect("AI task panicked")
        };
        let mv = mv.map_err(|e| match e {
            AiError::NoTable => self
                .table_unavailable(GameKind::Doubutsu)
                .unwrap_or(PlayError::Unavailable { kind: GameKind::Doubutsu, ready_in: None }),
            other => PlayError::Ai(other),
        })?;
        Ok(mv.expect("the bot is only asked to move in a live game"))
    }
}

/// The finish to record when `game` is over.
fn finish_of(game: &Game, human_side: Side) -> Option<Finish> {
    let outcome = game.outcome()?;
    let result = match outcome.winner {
        None => GameResult::Draw,
        Some(side) if side == human_side => GameResult::Human,
        Some(_) => GameResult::Bot,
    };
    Some(Finish { status: GameStatus::Finished, result, score: outcome.score })
}
