//! Interaction handling: each slash command, autocomplete and select menu becomes one service
//! call and one reply. Validation happens before any response when it is quick, so refusals
//! are private and change nothing; the bot's own move comes after acknowledging, and a
//! [`Responder`] acknowledges by itself when anything takes too long (Discord's 3 s).
//!
//! This file is the dispatcher: the command flows are in `flows.rs`, `/settings` in
//! `settings.rs`, the components in `component.rs` (their ids in `custom_id.rs`), board messages in `board_message.rs` and the
//! sweeps in `sweeps.rs` and `reminders.rs`. It is past 500 lines because every interaction's
//! way in (who calls, from where, what it may do there) is read in one place.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serenity::all::{
    AuthorizingIntegrationOwner, AuthorizingIntegrationOwners, ChannelId, ChannelType, CommandInteraction,
    ComponentInteraction, Context, CreateAutocompleteResponse, CreateInteractionResponse,
    CreateInteractionResponseFollowup, EventHandler, Guild, GuildId, Interaction, InteractionContext, Member,
    PartialChannel, Ready, UnavailableGuild, User,
};
use serenity::async_trait;
use serenity::http::Http;
use tracing::Instrument as _;

use super::command::{Command, CommandError, SETTINGS};
use super::observed::{command_kind, note_game, span_of, Observation};
use super::readiness::Front;
use super::reply::{allowed_mentions, Deferral, Reply, Responder};
use super::request::Request;
use crate::domain::{Settings, Snapshot, Venue};
use crate::i18n::{Lang, Msg, Needed};
use crate::metrics::Handled;
use crate::service::{Caller, PlayError, Service};
use settai_core::moves_in_order;
use settai_core::{GameKind, MoveError, Side};

/// Discord's limit of options in one select menu.
pub(super) const SELECT_MAX: usize = 25;

/// The bot's event handler.
pub struct Bot {
    service: Service,
    guild_id: Option<u64>,
    pub(super) idle_sweep: Duration,
    /// Set once the idle sweeper runs (READY comes again after every reconnection).
    sweeping: AtomicBool,
    /// The gateway shards this process runs (`None`: all servers are its own).
    shards: Option<super::shards::ShardRange>,
    /// The front end the host watches, for as long as this handler serves.
    _front: Option<Arc<Front>>,
    /// Each interaction's own REST client, for its answer and follow-ups.
    interactions: super::InteractionClients,
    /// The board's tiles as the buttons' emojis, once uploaded (shared with the sweeps).
    pub(super) emojis: super::app_emojis::AppEmojis,
}

impl Bot {
    /// The game flow this handler answers with.
    pub(crate) fn service(&self) -> &Service {
        &self.service
    }

    /// A handler over `service`, registering commands to `guild_id` when given, closing idle
    /// games every `idle_sweep`, and answering each interaction through its own client of
    /// `interactions`.
    pub fn new(
        service: Service,
        guild_id: Option<u64>,
        idle_sweep: Duration,
        interactions: super::InteractionClients,
    ) -> Bot {
        Bot {
            service,
            guild_id,
            idle_sweep,
            sweeping: AtomicBool::new(false),
            shards: None,
            _front: None,
            interactions,
            emojis: Default::default(),
        }
    }

    /// The same handler for a process that runs only `shards` (its sweeps leave other
    /// processes' servers alone).
    pub fn with_shards(mut self, shards: Option<super::shards::ShardRange>) -> Bot {
        self.shards = shards;
        self
    }

    /// The same handler keeping `front` watched while it serves.
    pub(super) fn watched_as(mut self, front: Arc<Front>) -> Bot {
        self._front = Some(front);
        self
    }

    /// Whether the games of `guild_id` are this process's to answer.
    pub(super) fn owns(&self, guild_id: Option<u64>) -> bool {
        self.shards.is_none_or(|r| (r.first..=r.last).contains(&super::shards::ShardRange::shard_of(guild_id, r.total)))
    }

    /// The one registration step at start: the board's tiles as application emojis, then the
    /// slash commands (to the test server when one is configured), then the commands cleared
    /// from a server they no longer belong to (`command_guilds.rs`). The emojis come first, so
    /// that once `/play` exists its boards show them.
    pub async fn register(&self, http: &Http) {
        self.emojis.register(http).await;
        self.register_commands(http).await;
    }

    /// The server the commands are registered to (`None`: globally).
    pub(super) fn guild_id(&self) -> Option<u64> {
        self.guild_id
    }

    /// Work that starts once the bot can talk to Discord: owed turns of `shard` (of `total`)
    /// are paid, and (once per process) the idle sweeper starts.
    pub async fn on_connected(&self, http: &Arc<Http>, (shard, total): (u32, u32)) {
        let this_shard = |guild_id| super::shards::ShardRange::shard_of(guild_id, total) == shard;
        self.finish_interrupted_turns(http, &this_shard, Duration::ZERO).await;
        if !self.sweeping.swap(true, Ordering::SeqCst) {
            // The sweeps run beside the handler on handles of their own (same service).
            let (sweeper, rest, every) = (self.sibling(), http.clone(), self.idle_sweep);
            tokio::spawn(async move { sweeper.sweep_waiting_games(&rest, every).await });
            let (sweeper, rest) = (self.sibling(), http.clone());
            tokio::spawn(async move { sweeper.sweep_owed_turns(&rest).await });
        }
    }

    /// Another handler over the same service, for work beside this one.
    fn sibling(&self) -> Bot {
        let mut sibling = Bot::new(self.service.clone(), self.guild_id, self.idle_sweep, self.interactions.clone())
            .with_shards(self.shards);
        sibling.emojis = self.emojis.clone();
        sibling
    }

    /// Handles one interaction, answering through `responder` (which acknowledges it by itself
    /// when the answer is slow), inside a span of its own, and counts it
    /// (docs/design/operations.md).
    pub async fn handle(&self, responder: &Responder, interaction: &Interaction) {
        let handled = async {
            let seen = match interaction {
                Interaction::Command(cmd) => responder.within_deadline(self.on_command(responder, cmd)).await,
                Interaction::Autocomplete(cmd) => self.on_autocomplete(responder, cmd).await,
                Interaction::Component(c) => responder.within_deadline(self.on_component(responder, c)).await,
                _ => return,
            };
            let acknowledged = responder.acknowledged_after();
            self.service.figures().interaction(seen.kind, seen.game_and_level(), seen.handled, acknowledged);
            tracing::debug!(kind = seen.kind, outcome = seen.handled.as_str(), ?acknowledged, "interaction handled");
        };
        handled.instrument(span_of(interaction)).await
    }
}

impl Bot {
    /// The responder for an interaction the bot answers (commands, autocomplete, components;
    /// `None` for others): through the interaction's own client, and `http` for the channels.
    /// While the answer is worked on, a component is acknowledged without a visible change, a
    /// command with "thinking…", private for `/settings` (its answers are).
    pub fn responder_for(&self, http: Arc<Http>, interaction: &Interaction) -> Option<Responder> {
        let (id, application_id, token, deferral) = match interaction {
            Interaction::Command(cmd) | Interaction::Autocomplete(cmd) => {
                (cmd.id, cmd.application_id, &cmd.token, Deferral::Thinking { ephemeral: cmd.data.name == SETTINGS })
            }
            Interaction::Component(c) => (c.id, c.application_id, &c.token, Deferral::Update),
            _ => return None,
        };
        let own = self.interactions.for_interaction(application_id);
        Some(Responder::new(http, own, id, token.clone(), deferral))
    }
}

/// Where a request failed, which decides how the player hears of it.
pub(super) enum Failure {
    /// Refused before the request changed anything: a private message.
    Refused(PlayError),
    /// Failed after the move was accepted: a private follow-up.
    Late(PlayError),
    /// Discord itself refused our reply; nothing more to tell the player.
    Discord(serenity::Error),
}

impl From<serenity::Error> for Failure {
    fn from(e: serenity::Error) -> Self {
        Failure::Discord(e)
    }
}

#[async_trait]
impl EventHandler for Bot {
    async fn ready(&self, ctx: Context, ready: Ready) {
        tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected to Discord");
        self.register(&ctx.http).await;
        // Each shard answers the games of its own servers (another process may run the others).
        let shard = ready.shard.map_or((0, 1), |s| (s.id.0, s.total));
        self.on_connected(&ctx.http, shard).await;
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        if let Some(responder) = self.responder_for(ctx.http.clone(), &interaction) {
            self.handle(&responder, &interaction).await;
        }
    }

    /// A server the bot is in (at connection, or added again): none of its data is to go.
    async fn guild_create(&self, _ctx: Context, guild: Guild, _is_new: Option<bool>) {
        if let Err(e) = self.service.guild_present(guild.id.get()).await {
            tracing::warn!(error = %e, guild = guild.id.get(), "could not note a server as present");
        }
    }

    /// A server removed the bot (not an outage: Discord then marks the guild unavailable): its
    /// data is deleted after the grace period (docs/design/players-data.md#servers-that-leave).
    async fn guild_delete(&self, _ctx: Context, incomplete: UnavailableGuild, _full: Option<Guild>) {
        if removed(&incomplete) {
            if let Err(e) = self.service.guild_left(incomplete.id.get()).await {
                tracing::warn!(error = %e, guild = incomplete.id.get(), "could not note a server's departure");
            }
        }
    }
}

/// Whether a GUILD_DELETE says the bot was removed (kicked, or the server deleted) rather than
/// that the server is in an outage.
fn removed(event: &UnavailableGuild) -> bool {
    !event.unavailable
}

fn caller_of_command(i: &CommandInteraction) -> Caller {
    let venue = venue_of(i.context, i.guild_id);
    caller_of(i.guild_id, i.channel_id, i.channel.as_ref(), &i.user, i.member.as_deref(), venue)
}

pub(super) fn caller_of_component(i: &ComponentInteraction) -> Caller {
    let venue = venue_of(i.context, i.guild_id);
    caller_of(i.guild_id, i.channel_id, i.channel.as_ref(), &i.user, i.member.as_ref(), venue)
}

/// Whether the interaction comes from a server the app was not added to, through a player's
/// own install: the bot is not there, may not post there and knows nothing of the server's
/// settings (docs/design/private-channels.md#a-server-without-the-app). Without owners (older
/// payloads) the app is taken to be installed where it is used.
pub(super) fn app_not_in_server(context: Option<InteractionContext>, owners: &AuthorizingIntegrationOwners) -> bool {
    context == Some(InteractionContext::Guild)
        && !owners.0.is_empty()
        && !owners.0.iter().any(|owner| matches!(owner, AuthorizingIntegrationOwner::GuildInstall(_)))
}

/// The venue Discord names (`context`); without one, a server when there is a server, else
/// the bot's DM (all an app installed to servers could be used in before user installs).
fn venue_of(context: Option<InteractionContext>, guild: Option<GuildId>) -> Venue {
    match context {
        Some(InteractionContext::Guild) => Venue::Server,
        Some(InteractionContext::BotDm) => Venue::BotDm,
        Some(InteractionContext::PrivateChannel) => Venue::PrivateChannel,
        _ if guild.is_some() => Venue::Server,
        _ => Venue::BotDm,
    }
}

/// Who acts where; the name is the one the server shows (nickname, else global name, else
/// user name). In a thread the parent channel is kept: its settings apply there.
fn caller_of(
    guild: Option<GuildId>,
    channel_id: ChannelId,
    channel: Option<&PartialChannel>,
    user: &User,
    member: Option<&Member>,
    venue: Venue,
) -> Caller {
    let name = member.map_or_else(|| user.display_name(), |m| m.display_name()).to_string();
    let is_thread = channel.is_some_and(|c| {
        matches!(c.kind, ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread)
    });
    let parent_id = channel.filter(|_| is_thread).and_then(|c| c.parent_id).map(|p| p.get());
    Caller {
        guild_id: guild.map(|g| g.get()),
        channel_id: channel_id.get(),
        parent_id,
        user_id: user.id.get(),
        name,
        venue,
    }
}

/// The language of replies under `settings`: the one they impose, else the player's locale.
pub(super) fn lang_of(settings: Option<&Settings>, locale: &str) -> Lang {
    settings.and_then(|s| s.language).unwrap_or_else(|| Lang::from_locale(locale))
}

impl Bot {
    /// What the interaction reads of its place (once: the settings, the game and the
    /// caller's own choices) and the language to answer in (the player's locale when nothing
    /// could be read; the error is then for the caller to report).
    pub(super) async fn snapshot_and_lang(&self, caller: &Caller, locale: &str) -> (Result<Snapshot, PlayError>, Lang) {
        let snapshot = self.service.snapshot_for(caller).await;
        let lang = lang_of(snapshot.as_ref().ok().map(|s| &s.settings.place), locale);
        (snapshot, lang)
    }

    async fn on_command(&self, responder: &Responder, cmd: &CommandInteraction) -> Observation {
        let caller = caller_of_command(cmd);
        let parsed = Command::parse(&cmd.data);
        let kind = parsed.as_ref().map_or("unknown", command_kind);
        if app_not_in_server(cmd.context, &cmd.authorizing_integration_owners) {
            let text = Msg::NotAddedHere.text(Lang::from_locale(&cmd.locale));
            return Observation::new(kind, None, self.answer_privately(responder, text).await);
        }
        // One read of the place serves the whole request.
        let (snapshot, lang) = self.snapshot_and_lang(&caller, &cmd.locale).await;
        let snapshot = match snapshot {
            Ok(s) => s,
            Err(e) => {
                return Observation::new(kind, None, self.report(responder, Err(Failure::Refused(e)), lang).await)
            }
        };
        if let Some(game) = &snapshot.game {
            note_game(game.record.id);
        }
        // The game asked about: the channel's, else the one a start would begin.
        let started = match &parsed {
            Ok(Command::StartReversi { .. }) => Some(GameKind::Reversi),
            Ok(Command::StartDoubutsu) => Some(GameKind::Doubutsu),
            _ => None,
        };
        let level =
            snapshot.game.as_ref().map(|g| g.record.level).or_else(|| {
                started.filter(|_| !snapshot.settings.place.level_choice).map(|kind| snapshot.settings.place.level(kind))
            });
        let seen = |handled| Observation::new(kind, level, handled);
        let command = match parsed {
            Ok(command) => command,
            Err(CommandError::LevelNotForGame { kind }) => {
                return seen(self.answer_privately(responder, Msg::LevelNotForGame { kind }.text(lang)).await);
            }
            Err(e) => {
                tracing::warn!(error = %e, "a command the bot does not know");
                return seen(self.answer_privately(responder, Msg::TryAgain.text(lang)).await);
            }
        };
        // Nothing is stored where the game could not be shown; private answers need no
        // permission of the channel's, nor does anything outside a server, where every
        // answer goes through the interaction (docs/design/private-channels.md).
        if command.posts_in_channel() && caller.venue == Venue::Server {
            let needed = missing_permissions(cmd.app_permissions, caller.parent_id.is_some());
            if !needed.is_empty() {
                return seen(self.refuse_missing(responder, &needed, lang).await);
            }
        }
        let request = Request::new(responder, caller, snapshot, lang);
        let ended = match command {
            Command::Games => self.show_game_box(&request).await,
            Command::StartReversi { side } => self.start_or_offer(&request, GameKind::Reversi, side).await,
            Command::StartDoubutsu => self.start_or_offer(&request, GameKind::Doubutsu, Side::First).await,
            Command::Move { typed } => self.play(&request, &typed, None, false).await,
            Command::Board => self.show_board(&request, None).await,
            Command::Resign => self.resign(&request).await,
            Command::Stats => self.stats(&request).await,
            Command::Remind { on } => self.remind_me(&request, on).await,
            Command::Hints { on } => self.hints_for_me(&request, on).await,
            Command::Takeback => self.take_back(&request, None).await,
            Command::Help => self.help(&request).await,
            Command::ForgetMe => self.forget_me(&request).await,
            Command::Settings(wanted) => self.settings(&request, cmd, wanted).await,
        };
        seen(self.report(responder, ended, lang).await)
    }

    /// Answers with a private text (a refusal).
    pub(super) async fn answer_privately(&self, responder: &Responder, text: String) -> Handled {
        if let Err(e) = responder.answer(Reply::private(text)).await {
            tracing::warn!(error = %e, "could not answer an interaction");
            return Handled::Error;
        }
        Handled::Refused
    }

    async fn on_autocomplete(&self, responder: &Responder, cmd: &CommandInteraction) -> Observation {
        let typed = cmd.data.autocomplete().map(|o| o.value).unwrap_or("");
        let typed: String = typed.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        let matches = |(_, mv): &&(String, String)| mv.to_ascii_lowercase().starts_with(&typed);
        let caller = caller_of_command(cmd);
        let (mut level, mut handled) = (None, Handled::Ok);
        // The coach's order and marks, as in the menus: the value is always the move itself.
        let (read, _) = self.snapshot_and_lang(&caller, &cmd.locale).await;
        let moves: Vec<(String, String)> = match read {
            Ok(snapshot) => match Service::game_to_move(&caller, &snapshot, None) {
                Ok(game) => {
                    note_game(game.record.id);
                    level = Some(game.record.level);
                    moves_in_order(&game.record.game, snapshot.settings.reader.hints)
                        .into_iter()
                        .map(|(mv, risky)| {
                            let name =
                                if risky { format!("{mv} {}", Msg::RiskyMark.text(Lang::En)) } else { mv.to_string() };
                            (name, mv.to_string())
                        })
                        .collect()
                }
                Err(_) => Vec::new(),
            },
            Err(e) => {
                tracing::warn!(error = %e, "autocomplete without moves");
                handled = self.counted(&e, Handled::Refused);
                Vec::new()
            }
        };
        let mut response = CreateAutocompleteResponse::new();
        for (name, mv) in moves.iter().filter(matches).take(SELECT_MAX) {
            response = response.add_string_choice(name.clone(), mv.clone());
        }
        if let Err(e) = responder.initial(CreateInteractionResponse::Autocomplete(response)).await {
            tracing::warn!(error = %e, "autocomplete reply failed");
            handled = Handled::Error;
        }
        Observation::new("autocomplete", level, handled)
    }

    /// In a private channel old boards keep their buttons and menus, and some players have no
    /// commands: a tap on an old board there brings the game as it is now
    /// (docs/design/private-channels.md#old-boards-and-late-answers). Elsewhere `tapped` stands.
    pub(super) async fn or_the_board_now(
        &self,
        request: &Request<'_>,
        tapped: Result<(), Failure>,
    ) -> Result<(), Failure> {
        match tapped {
            Err(Failure::Refused(PlayError::Stale))
                if !request.caller.venue.bot_may_post() && request.snapshot.game.is_some() =>
            {
                self.show_board(request, Some(Msg::BoardWasOld)).await
            }
            tapped => tapped,
        }
    }

    /// Refuses privately, naming the permissions the bot lacks here.
    pub(super) async fn refuse_missing(&self, responder: &Responder, needed: &[Needed], lang: Lang) -> Handled {
        self.answer_privately(responder, Msg::MissingPermissions { needed }.text(lang)).await
    }

    /// How a request that failed with `e` counts: an error when the database or the AI failed
    /// (the database's are counted apart too), else `otherwise`.
    pub(super) fn counted(&self, e: &PlayError, otherwise: Handled) -> Handled {
        match e {
            PlayError::Store(_) => {
                self.service.figures().database_error();
                Handled::Error
            }
            PlayError::Ai(_) => Handled::Error,
            _ => otherwise,
        }
    }

    /// Tells the player about a failure in the way its stage allows; how the request ended.
    pub(super) async fn report(&self, responder: &Responder, ended: Result<(), Failure>, lang: Lang) -> Handled {
        let counted = match &ended {
            Ok(()) => Handled::Ok,
            Err(Failure::Refused(e)) => self.counted(e, Handled::Refused),
            Err(Failure::Late(e)) => self.counted(e, Handled::Error),
            Err(Failure::Discord(_)) => Handled::Error,
        };
        let sent = match ended {
            Ok(()) => Ok(()),
            Err(Failure::Refused(e)) => responder.answer(Reply::private(refusal_text(&e, lang))).await,
            Err(Failure::Late(e)) => {
                tracing::error!(error = %e, "request failed after it was acknowledged");
                responder
                    .follow_up(
                        CreateInteractionResponseFollowup::new()
                            .content(refusal_text(&e, lang))
                            .allowed_mentions(allowed_mentions(&[]))
                            .ephemeral(true),
                    )
                    .await
            }
            Err(Failure::Discord(e)) => Err(e),
        };
        if let Err(e) = sent {
            tracing::warn!(error = %e, "could not answer an interaction");
            return Handled::Error;
        }
        counted
    }
}

/// The permissions the bot lacks to show a game where it was asked (`app_permissions` of the
/// interaction; unknown when Discord sent none): boards are messages with an image, and in a
/// thread messages need a permission of their own.
pub(super) fn missing_permissions(app: Option<serenity::all::Permissions>, in_thread: bool) -> Vec<Needed> {
    let Some(p) = app else { return Vec::new() };
    let mut needed = Vec::new();
    if in_thread {
        if !p.send_messages_in_threads() {
            needed.push(Needed::SendInThreads);
        }
    } else if !p.send_messages() {
        needed.push(Needed::SendMessages);
    }
    if !p.attach_files() {
        needed.push(Needed::AttachFiles);
    }
    needed
}

/// What a refusal tells the player (private, short, friendly).
pub(super) fn refusal_text(e: &PlayError, lang: Lang) -> String {
    match e {
        PlayError::NoGame => Msg::NoGame.text(lang),
        PlayError::ClosedIdle => Msg::ClosedIdle.text(lang),
        PlayError::ChannelBusy => Msg::ChannelBusy.text(lang),
        PlayError::NotYourGame { owner } => Msg::NotYourGame { owner: *owner }.text(lang),
        PlayError::NotYourTurn => Msg::NotYourTurn.text(lang),
        PlayError::Stale => Msg::StaleBoard.text(lang),
        PlayError::AlreadyPlayed => Msg::AlreadyPlayed.text(lang),
        PlayError::BadMove { kind, input, error: MoveError::Syntax(reason), .. } => {
            Msg::BadMove { kind: *kind, input, reason }.text(lang)
        }
        PlayError::BadMove { kind, input, error: MoveError::Illegal(_), legal } => {
            let legal: Vec<String> = legal.iter().map(ToString::to_string).collect();
            Msg::IllegalMove { kind: *kind, input, legal: &legal.join(", ") }.text(lang)
        }
        PlayError::Unavailable { kind, ready_in } => {
            // Whole minutes, rounded up: "about 0 minutes" would promise too much.
            let minutes = ready_in.map(|d| d.as_secs().div_ceil(60).max(1));
            Msg::Unavailable { kind: *kind, minutes }.text(lang)
        }
        PlayError::NoLevelChoice => Msg::NoLevelChoice.text(lang),
        PlayError::TakebackOff => Msg::TakebackOff.text(lang),
        PlayError::NothingToTakeBack => Msg::NothingToTakeBack.text(lang),
        PlayError::Corrupt => Msg::CorruptGame.text(lang),
        PlayError::Busy => Msg::Busy.text(lang),
        PlayError::Ai(e) => {
            tracing::error!(error = %e, "the AI failed");
            Msg::TryAgain.text(lang)
        }
        PlayError::Store(e) => {
            tracing::error!(error = %e, "store failure");
            Msg::TryAgain.text(lang)
        }
    }
}
