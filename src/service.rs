//! The game flow shared by every front end: start a game, take a human move, let the bot answer,
//! resign. A request reads its place once (a [`Snapshot`]: the settings and the game with its
//! moves, never from process memory), every rule is checked here before anything is written,
//! and it runs CPU-heavy AI work on a bounded blocking pool off the async runtime.
//! Who may do what is in `rules.rs`; the tests are in `tests/service.rs`.
//!
//! (Past 500 lines: each request's flow is read here from its first check to its last write;
//! the rules, the AI pool, health and players' data are the files beside it.)

mod ai_pool;
mod command_guilds;
mod health;
mod play_error;
mod players_data;
mod priority;
mod rules;
mod settings_in_effect;
pub mod table_keeper;
#[cfg(test)]
mod tests;
mod turn;
mod waiting;

use std::sync::Arc;

use rand::SeedableRng;

use crate::domain::{
    Change, Finish, GameRecord, GameResult, GameStatus, HouseRules, NewGame, NewMove, Pick, Place, PlayedMove,
    PlayerResults, Scope, Settings, Snapshot, StoredGame, Venue,
};
use crate::metrics::Figures;
use crate::store::{Store, StoreError};
use crate::table_file::TableFile;
pub use ai_pool::{AiPanicked, BACKLOG_PER_CORE};
use ai_pool::{AiPool, Tenant};
pub use play_error::{AiFailure, PlayError};
use settai_core::{self, AiError, Coach, Commentary, Game, GameKind, GameMove, Level, Side, Thinker};
use settai_core::{story, Line, Story};
pub use settings_in_effect::settings_in_effect;
use table_keeper::{TableKeeper, TableState};
use turn::Claims;
pub use turn::Turn;

/// What a request changed: the game as now stored and the moves the request made, in order
/// (the player's move, the bot's moves, forced passes).
#[derive(Debug, Clone)]
pub struct Played {
    /// The game as now stored, with all its moves.
    pub game: StoredGame,
    /// The moves made by this request.
    pub moves: Vec<PlayedMove>,
}

impl Played {
    /// The last move on the board, if this request made any.
    pub fn last_move(&self) -> Option<&PlayedMove> {
        self.moves.last()
    }

    /// Whether the board after this request offers the take-back, by `coach`'s switches and rule
    /// ([`Coach::offers_takeback`]) over the request's first move: the player's own, when the
    /// request made one (docs/design/kind-coach.md#what-the-coach-does).
    pub fn offers_takeback(&self, coach: Coach) -> bool {
        let (Some(first), record) = (self.moves.first(), &self.game.record) else { return false };
        coach.offers_takeback(&first.before, first.mv, !first.by_bot, &record.game, record.human_to_move())
    }
}

/// Runs the game flow against a store.
#[derive(Clone)]
pub struct Service {
    store: Store,
    ai: AiPool,
    doubutsu_table: Arc<TableKeeper>,
    seed: Option<u64>,
    figures: Figures,
    /// The games with a player's move held while the bot thinks ([`Turn`]).
    claims: Claims,
    /// Tests only: every search panics, as a level with a bug would
    /// (docs/design/bot-reliability.md#robustness).
    #[cfg(test)]
    think_panics: bool,
}

/// Longest display name kept with a game (Discord's own limit is 32).
pub const MAX_NAME_CHARS: usize = 64;

/// Who acts where: the server, channel (or thread) and user a request comes from.
#[derive(Debug, Clone)]
pub struct Caller {
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
    /// What kind of place it is (a server's channel, the bot's DM, a private channel).
    pub venue: Venue,
}

impl Caller {
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
            figures: Figures::default(),
            claims: Claims::default(),
            #[cfg(test)]
            think_panics: false,
        }
    }

    /// The same service counting what it does in `figures` (the bot's metrics).
    pub fn with_figures(mut self, figures: &Figures) -> Service {
        self.figures = figures.clone();
        self
    }

    /// The figures this service counts in (the front ends count theirs there too).
    pub fn figures(&self) -> &Figures {
        &self.figures
    }

    /// The same service choosing the bot's moves from `seed` (and the ply) instead of fresh
    /// randomness, so that a terminal game can be replayed (`settai play --seed`).
    pub fn with_seed(mut self, seed: Option<u64>) -> Service {
        self.seed = seed;
        self
    }

    /// The same service with `slots` AI searches at once and at most `backlog` waiting or
    /// running (past that, moves are refused as busy before anything is stored), of which one
    /// server (or channel outside servers) may hold a quarter, or `slots` if that is more
    /// (docs/design/operations.md#fairness).
    pub fn with_ai_capacity(mut self, slots: usize, backlog: usize) -> Service {
        self.ai = AiPool::new(slots, backlog);
        self
    }

    /// Whether the AI pool is full, so that a new move would be refused as busy.
    pub fn ai_is_full(&self) -> bool {
        self.ai.is_full()
    }

    /// The AI requests waiting for or running on the pool now (`settai_ai_queue_depth`).
    pub fn ai_queue_depth(&self) -> usize {
        self.ai.in_flight()
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

    /// What a request needs of `place`, read once: the settings in effect
    /// ([`settings_in_effect()`]) and the active game with its moves. A stored game that does not
    /// add up is closed (as `void`) and reported as [`PlayError::Corrupt`], the same on every
    /// path, so the channel is free again and nothing is ever played on a record that cannot be
    /// trusted. `reader`: the player the request answers, whose own choices it reads too. No
    /// venue is known: the settings are the place's as read (a sweep's, the terminal's).
    pub async fn snapshot(&self, place: &Place, reader: Option<u64>) -> Result<Snapshot, PlayError> {
        self.read_place(place, reader, None).await
    }

    /// What `caller`'s request needs of its place, read once, as [`Service::snapshot`]: the
    /// settings in effect for the caller, in their venue, so that the rules see them whatever
    /// front end asks.
    pub async fn snapshot_for(&self, caller: &Caller) -> Result<Snapshot, PlayError> {
        self.read_place(&caller.place(), Some(caller.user_id), Some(caller.venue)).await
    }

    /// [`Service::snapshot`] for a request from `venue`, when it is known.
    #[tracing::instrument(name = "snapshot", level = "debug", skip_all, fields(channel = place.channel_id))]
    async fn read_place(
        &self,
        place: &Place,
        reader: Option<u64>,
        venue: Option<Venue>,
    ) -> Result<Snapshot, PlayError> {
        match self.store.snapshot(place, reader).await {
            Ok(read) => {
                let house_rules = read.game.as_ref().and_then(|g| g.record.house_rules);
                let settings = settings_in_effect(&read.settings, venue, house_rules, read.hints_choice);
                Ok(Snapshot { settings, game: read.game, last_ended: read.last_ended })
            }
            Err(StoreError::Corrupt { game_id, reason }) => {
                tracing::error!(game_id, reason, "a stored game is corrupt: closed, not trusted");
                // One consistent read found it so: the game is closed as it was read.
                self.store.void_game(game_id, None).await?;
                Err(PlayError::Corrupt)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Whether the database answers now (a readiness check).
    pub async fn ping(&self) -> Result<(), PlayError> {
        Ok(self.store.ping().await?)
    }

    /// Starts a game of `kind` in the caller's channel at the level its settings give, or at
    /// `chosen` where players may choose (a choice where they may not is refused).
    pub async fn start(
        &self,
        caller: &Caller,
        snapshot: &Snapshot,
        kind: GameKind,
        human_side: Side,
        chosen: Option<Pick>,
    ) -> Result<StoredGame, PlayError> {
        let settings = &snapshot.settings.place;
        let level = match chosen {
            None => settings.level(kind),
            Some(pick) if settings.level_choice && pick.level.kind() == kind => pick.level,
            Some(_) => return Err(PlayError::NoLevelChoice),
        };
        // A game's own rules exist only where nobody manages the settings.
        let house_rules = chosen.and_then(|pick| pick.house_rules).filter(|_| !caller.venue.has_managers());
        Self::channel_free(snapshot)?;
        self.start_with(caller, human_side, level, house_rules).await
    }

    /// Starts a game at `level` whatever the settings say: for a front end whose player owns
    /// the place and chooses the level (the terminal).
    #[tracing::instrument(level = "debug", skip_all, fields(level = level.as_str()))]
    pub async fn start_at_level(
        &self,
        caller: &Caller,
        human_side: Side,
        level: Level,
    ) -> Result<StoredGame, PlayError> {
        self.start_with(caller, human_side, level, None).await
    }

    /// Starts a game at `level` with the rules its starter chose, if any.
    async fn start_with(
        &self,
        caller: &Caller,
        human_side: Side,
        level: Level,
        house_rules: Option<HouseRules>,
    ) -> Result<StoredGame, PlayError> {
        let kind = level.kind();
        if level.needs_table() {
            if let Some(refusal) = self.table_unavailable(kind) {
                return Err(refusal);
            }
        }
        if level.thinks_long() && self.ai_refuses(Tenant::of(caller.guild_id, caller.channel_id)) {
            return Err(PlayError::Busy);
        }
        let record = self
            .store
            .create_game(&NewGame {
                guild_id: caller.guild_id,
                channel_id: caller.channel_id,
                parent_id: caller.parent_id,
                human_id: caller.user_id,
                // Discord caps display names at 32 characters; a forged longer one is cut.
                human_name: caller.name.chars().take(MAX_NAME_CHARS).collect(),
                human_side,
                level,
                game: Game::new(kind),
                private_channel: caller.venue == Venue::PrivateChannel,
                house_rules,
            })
            .await?;
        Ok(StoredGame::new(record))
    }

    /// The settings in effect at `place` for nobody in particular ([`settings_in_effect()`]
    /// without a venue, a game or a reader).
    pub async fn settings(&self, place: &Place) -> Result<Settings, PlayError> {
        Ok(settings_in_effect(&self.store.settings(place).await?, None, None, None).place)
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

    /// The caller's results on this server (or in direct messages), per game.
    pub async fn results_of(&self, caller: &Caller) -> Result<Vec<(GameKind, PlayerResults)>, PlayError> {
        Ok(self.store.player_results(caller.guild_id, caller.user_id).await?)
    }

    /// The caller's own choice of the coach's hints, on every server (`None`: as the place
    /// says).
    pub async fn set_hints_choice(&self, caller: &Caller, on: Option<bool>) -> Result<(), PlayError> {
        Ok(self.store.set_hints_choice(caller.user_id, on).await?)
    }

    /// The caller wants reminders of their waiting games, or not (on every server).
    pub async fn set_reminders_wanted(&self, caller: &Caller, on: bool) -> Result<(), PlayError> {
        Ok(self.store.set_reminders_wanted(caller.user_id, on).await?)
    }

    /// The commentary on a player's move at `place` (for servers that have it on); `None` when
    /// there is nothing to say. Runs on the bounded AI pool, in the place's turn; a failure only
    /// costs the line (it is logged), never the move.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn comment(&self, place: &Place, played: &PlayedMove) -> Option<Commentary> {
        if played.by_bot || played.mv.is_pass() {
            return None;
        }
        let (before, mv, table) = (played.before.clone(), played.mv, self.doubutsu_table.get());
        self.ai
            .think(Tenant::of(place.guild_id, place.channel_id), move |thinker| {
                settai_core::commentary(&before, mv, table.as_deref(), thinker)
            })
            .await
            .unwrap_or_else(|e| {
                tracing::error!(error = %e, "commentary task failed");
                None
            })
    }

    /// Checks the player's move on the snapshot's game and holds it, stored by
    /// [`Service::finish_turn`] with the bot's answer in one statement. `expected` is the (game id,
    /// ply) the request was made for, when it came from a board component; a mismatch is
    /// [`PlayError::Stale`]. While the turn is held, another move on the game in this process is
    /// [`PlayError::AlreadyPlayed`] at once.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn human_move(
        &self,
        caller: &Caller,
        snapshot: &Snapshot,
        input: &str,
        expected: Option<(i64, u32)>,
    ) -> Result<Turn, PlayError> {
        let game = Self::game_to_move(caller, snapshot, expected)?;
        let record = &game.record;
        // Refused before the bot thinks: an accepted move always gets the bot's turn.
        if record.level.thinks_long() && self.ai_refuses(Tenant::of(record.guild_id, record.channel_id)) {
            return Err(PlayError::Busy);
        }
        let bad_move = |error| PlayError::BadMove {
            kind: record.kind(),
            input: input.trim().to_string(),
            error,
            legal: record.game.legal_moves(),
        };
        let mv = record.game.parse_move(input).map_err(bad_move)?;
        let after = record.game.play(mv).map_err(bad_move)?;
        let claim = self.claims.claim(record.id).ok_or(PlayError::AlreadyPlayed)?;
        let played = PlayedMove { before: record.game.clone(), mv, by_bot: false, user_id: Some(caller.user_id) };
        Ok(Turn { game: game.clone(), played, after, claim })
    }

    /// Lets the bot answer the player's `turn` and stores both in one statement guarded by the
    /// game's version: nothing is stored when the bot cannot move or the game moved on
    /// ([`PlayError::AlreadyPlayed`]).
    #[tracing::instrument(level = "debug", skip_all, fields(game = turn.game.record.id))]
    pub async fn finish_turn(&self, turn: Turn) -> Result<Played, PlayError> {
        // The claim is held until the moves are stored.
        let Turn { game, played, after, claim } = turn;
        let played = self.play_out(game, vec![played], after).await;
        drop(claim);
        played
    }

    /// Lets the bot move until the human has a real choice or the game ends. A human who has no
    /// move but to pass passes automatically. All these moves are stored in one statement.
    #[tracing::instrument(level = "debug", skip_all, fields(game = stored.record.id))]
    pub async fn bot_turn(&self, stored: StoredGame) -> Result<Played, PlayError> {
        let position = stored.record.game.clone();
        self.play_out(stored, Vec::new(), position).await
    }

    /// The bot's moves from `game`, reached from `stored` by `played` (not stored yet), until
    /// the human has a real choice or the game ends; then all of them are stored in one statement.
    async fn play_out(
        &self,
        stored: StoredGame,
        mut played: Vec<PlayedMove>,
        mut game: Game,
    ) -> Result<Played, PlayError> {
        let record = &stored.record;
        // The whole game so far: reversi `standard` reads the human's strength from it.
        let mut history: Vec<GameMove> = if record.level.thinks_long() {
            stored.history().into_iter().chain(played.iter().map(|m| m.mv)).collect()
        } else {
            Vec::new()
        };
        while let Some(to_move) = game.to_move() {
            let by_bot = to_move != record.human_side;
            let mv = if by_bot {
                let ply = record.ply + played.len() as u32;
                self.think(record, game.clone(), history.clone(), ply).await?
            } else {
                match game.legal_moves().as_slice() {
                    [only] if only.is_pass() => *only,
                    _ => break,
                }
            };
            let next = game.play(mv).map_err(|error| PlayError::BadMove {
                kind: game.kind(),
                input: mv.to_string(),
                error,
                legal: game.legal_moves(),
            })?;
            history.push(mv);
            played.push(PlayedMove { before: game, mv, by_bot, user_id: None });
            game = next;
        }
        if played.is_empty() {
            return Ok(Played { game: stored, moves: played });
        }
        let new_moves: Vec<NewMove> = played.iter().map(PlayedMove::stored).collect();
        let updated = self.store.record_moves(record, &new_moves, &game, finish_of(&game, record.human_side)).await?;
        Ok(Played { game: stored.advanced(updated, &played), moves: played })
    }

    /// Resigns the human's game (see [`Service::game_to_resign`]).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn resign(
        &self,
        caller: &Caller,
        snapshot: &Snapshot,
        game_id: Option<i64>,
    ) -> Result<StoredGame, PlayError> {
        let game = Self::game_to_resign(caller, snapshot, game_id)?;
        let record = self.store.end_game(&game.record, GameStatus::Resigned, GameResult::Bot).await?;
        Ok(game.clone().advanced(record, &[]))
    }

    /// Takes back the player's last move and the bot's move after it (待った) where the settings
    /// allow it: only the player who started the game, on their turn. `expected` is the (game
    /// id, ply) of the board whose button was pressed: a second press of that board finds the
    /// game moved on and is [`PlayError::Stale`], so two presses take back once. Returns the
    /// game as now stored (its last move is the one to mark on the board).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn take_back(
        &self,
        caller: &Caller,
        snapshot: &Snapshot,
        expected: Option<(i64, u32)>,
    ) -> Result<StoredGame, PlayError> {
        let game = Self::game_as_expected(snapshot, expected)?;
        let record = &game.record;
        if record.human_id != caller.user_id {
            return Err(PlayError::NotYourGame { owner: record.human_id });
        }
        if !snapshot.settings.place.takeback {
            return Err(PlayError::TakebackOff);
        }
        if !record.human_to_move() {
            return Err(PlayError::NotYourTurn);
        }
        // Back to just before the player's own last choice.
        let back_to = game.takeback_ply().ok_or(PlayError::NothingToTakeBack)?;
        // The player's own move comes first (its position is kept: it is in the last two
        // turns): whether it lost at once needlessly.
        let first_undone = game.played(back_to as usize).ok_or(PlayError::NothingToTakeBack)?;
        let withdraws_blunder = first_undone.before.loses_needlessly(first_undone.mv);
        let position = first_undone.before.clone();
        // A press racing another finds the game taken back already: its board is out of date.
        let updated =
            self.store.take_back(record, back_to, &position, withdraws_blunder).await.map_err(|e| match e {
                StoreError::Conflict => PlayError::Stale,
                e => e.into(),
            })?;
        Ok(game.clone().truncated(updated, back_to))
    }

    /// How the game went for its human (values, slips, finds), from `line`, its positions
    /// (computed once, shared with its replay: docs/design/storage.md#the-end-of-a-game);
    /// computed on the bounded AI pool. `None` if it cannot be told (logged).
    #[tracing::instrument(level = "debug", skip_all, fields(game = game.record.id))]
    pub async fn story(&self, game: &StoredGame, line: Arc<Line>) -> Option<Story> {
        let record = &game.record;
        let (human, table) = (record.human_side, self.doubutsu_table.get());
        let told = self
            .ai
            .think(Tenant::of(record.guild_id, record.channel_id), move |thinker| {
                story(&line, human, table.as_deref(), thinker)
            })
            .await;
        match told {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::error!(game = record.id, error = %e, "story task failed");
                None
            }
        }
    }

    /// Computes the bot's move in the game of `of` (its moves so far: `past`) on the blocking
    /// pool, bounded so AI work never starves the runtime (and the gateway heartbeat with it),
    /// in its tenant's turn (docs/design/operations.md#fairness).
    #[tracing::instrument(level = "debug", skip_all, fields(level = of.level.as_str(), ply))]
    async fn think(&self, of: &GameRecord, game: Game, past: Vec<GameMove>, ply: u32) -> Result<GameMove, PlayError> {
        let (level, tenant) = (of.level, Tenant::of(of.guild_id, of.channel_id));
        let table = self.doubutsu_table.get();
        let seed = self.seed;
        #[cfg(test)]
        let panics = self.think_panics;
        let work = move |thinker: &mut Thinker| {
            #[cfg(test)]
            if panics {
                panic!("a level that panics on purpose (a test's)");
            }
            let mut rng = match seed {
                // Each ply its own stream: the same seed replays the same game.
                Some(seed) => rand::rngs::StdRng::seed_from_u64(seed.wrapping_add(u64::from(ply))),
                None => rand::rngs::StdRng::from_entropy(),
            };
            game.ai_move_after(level, table.as_deref(), &past, thinker, &mut rng)
        };
        let asked = std::time::Instant::now();
        // A lookup of a millisecond does not wait behind the searches of other games.
        let mv = if level.thinks_long() {
            self.ai.think(tenant, work).await.map_err(|e| PlayError::Ai(e.into()))?
        } else {
            // Its thinker allocates nothing: a doubutsu reply reads the table. The request's
            // span goes with it, so what the work logs is the request's.
            let span = tracing::Span::current();
            tokio::task::spawn_blocking(move || span.in_scope(|| work(&mut Thinker::new(std::time::Instant::now))))
                .await
                .map_err(|e| {
                    tracing::error!(game = of.id, error = %e, "an AI task failed");
                    PlayError::Ai(AiPanicked.into())
                })?
        };
        self.figures.thought(level.kind().as_str(), level.as_str(), asked.elapsed());
        let mv = mv.map_err(|e| match e {
            AiError::NoTable => self
                .table_unavailable(GameKind::Doubutsu)
                .unwrap_or(PlayError::Unavailable { kind: GameKind::Doubutsu, ready_in: None }),
            other => PlayError::Ai(other.into()),
        })?;
        mv.ok_or(PlayError::Ai(AiFailure::GameOver))
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
