//! Interaction handling: each slash command, autocomplete and select menu becomes one service
//! call and one reply. Validation happens before any response when it is quick, so refusals
//! are private and change nothing; the bot's own move comes after acknowledging, and a
//! [`Responder`] acknowledges by itself when anything takes too long (Discord's 3 s).
//!
//! This file is the dispatcher: it reads the caller and the place once and hands them, with
//! the [`Shell`], to the flows, plain functions in their own files (starting a game in
//! `starts.rs`, a game on in `flows.rs`, `/settings` in `settings.rs`, the components in
//! `component.rs`); board messages are in `board_message.rs` and the sweeps in `sweeps.rs` and
//! `reminders.rs`. None of them imports this file back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serenity::all::{
    CommandInteraction, Context, CreateAutocompleteResponse, CreateInteractionResponse, EventHandler, Guild,
    Interaction, Ready, UnavailableGuild,
};
use serenity::async_trait;
use serenity::http::Http;
use tracing::Instrument as _;

use super::callers::{app_not_in_server, caller_of_command, missing_permissions};
use super::command::{Command, CommandError, SETTINGS};
use super::command_guilds::register_commands;
use super::component::on_component;
use super::failure::{answer_privately, counted, refuse_missing, report, Failure};
use super::flows::{hints_for_me, play, remind_me, resign, show_board, stats};
use super::forget_me::forget_me;
use super::help::help;
use super::menus::SELECT_MAX;
use super::observed::{command_kind, note_game, span_of, Observation};
use super::readiness::Front;
use super::reminders::sweep_waiting_games;
use super::reply::{Deferral, Responder};
use super::request::{read_place, Request};
use super::settings::settings;
use super::shards::ShardRange;
use super::shell::Shell;
use super::starts::{show_game_box, start_or_offer};
use super::sweeps::{finish_interrupted_turns, sweep_owed_turns};
use super::takeback::take_back;
use crate::domain::Venue;
use crate::i18n::{Lang, Msg};
use crate::metrics::Handled;
use crate::service::Service;
use settai_core::{GameKind, Side};

/// The bot's event handler.
pub struct Bot {
    /// The service and the board's emojis, handed to every flow.
    shell: Shell,
    guild_id: Option<u64>,
    idle_sweep: Duration,
    /// Set once the idle sweeper runs (READY comes again after every reconnection).
    sweeping: AtomicBool,
    /// The gateway shards this process runs (`None`: all servers are its own).
    shards: Option<ShardRange>,
    /// The front end the host watches, for as long as this handler serves.
    _front: Option<Arc<Front>>,
    /// Each interaction's own REST client, for its answer and follow-ups.
    interactions: super::InteractionClients,
}

impl Bot {
    /// The game flow this handler answers with.
    pub(crate) fn service(&self) -> &Service {
        &self.shell.service
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
            shell: Shell { service, emojis: Default::default() },
            guild_id,
            idle_sweep,
            sweeping: AtomicBool::new(false),
            shards: None,
            _front: None,
            interactions,
        }
    }

    /// The same handler for a process that runs only `shards` (its sweeps leave other
    /// processes' servers alone).
    pub fn with_shards(mut self, shards: Option<ShardRange>) -> Bot {
        self.shards = shards;
        self
    }

    /// The same handler keeping `front` watched while it serves.
    pub(super) fn watched_as(mut self, front: Arc<Front>) -> Bot {
        self._front = Some(front);
        self
    }

    /// The one registration step at start: the board's tiles as application emojis, then the
    /// slash commands (to the test server when one is configured), then the commands cleared
    /// from a server they no longer belong to (`command_guilds.rs`). The emojis come first, so
    /// that once `/play` exists its boards show them.
    pub async fn register(&self, http: &Http) {
        self.shell.emojis.register(http).await;
        register_commands(&self.shell.service, self.guild_id, http).await;
    }

    /// Work that starts once the bot can talk to Discord: owed turns of `shard` (of `total`)
    /// are paid, and (once per process) the idle sweeper starts.
    pub async fn on_connected(&self, http: &Arc<Http>, (shard, total): (u32, u32)) {
        let this_shard = |guild_id| ShardRange::shard_of(guild_id, total) == shard;
        finish_interrupted_turns(&self.shell, http, &this_shard, Duration::ZERO).await;
        if !self.sweeping.swap(true, Ordering::SeqCst) {
            // The sweeps run beside the handler on handles of their own (same service).
            let (shell, rest, every, shards) = (self.shell.clone(), http.clone(), self.idle_sweep, self.shards);
            tokio::spawn(async move { sweep_waiting_games(&shell, &rest, every, shards).await });
            let (shell, rest) = (self.shell.clone(), http.clone());
            tokio::spawn(async move { sweep_owed_turns(&shell, &rest, every, shards).await });
        }
    }

    /// Handles one interaction, answering through `responder` (which acknowledges it by itself
    /// when the answer is slow), inside a span of its own, and counts it
    /// (docs/design/operations.md).
    pub async fn handle(&self, responder: &Responder, interaction: &Interaction) {
        let handled = async {
            let seen = match interaction {
                Interaction::Command(cmd) => responder.within_deadline(self.on_command(responder, cmd)).await,
                Interaction::Autocomplete(cmd) => self.on_autocomplete(responder, cmd).await,
                Interaction::Component(c) => responder.within_deadline(on_component(&self.shell, responder, c)).await,
                _ => return,
            };
            let acknowledged = responder.acknowledged_after();
            self.shell.service.figures().interaction(seen.kind, seen.game_and_level(), seen.handled, acknowledged);
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
        let (id, application_id, token, channel, deferral) = match interaction {
            Interaction::Command(cmd) | Interaction::Autocomplete(cmd) => (
                cmd.id,
                cmd.application_id,
                &cmd.token,
                cmd.channel_id,
                Deferral::Thinking { ephemeral: cmd.data.name == SETTINGS },
            ),
            Interaction::Component(c) => (c.id, c.application_id, &c.token, c.channel_id, Deferral::Update),
            _ => return None,
        };
        let own = self.interactions.for_interaction(application_id);
        Some(Responder::new(http, own, id, token.clone(), deferral).paced(self.interactions.pace().clone(), channel))
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
        if let Err(e) = self.shell.service.guild_present(guild.id.get()).await {
            tracing::warn!(error = %e, guild = guild.id.get(), "could not note a server as present");
        }
    }

    /// A server removed the bot (not an outage: Discord then marks the guild unavailable): its
    /// data is deleted after the grace period (docs/design/players-data.md#servers-that-leave).
    async fn guild_delete(&self, _ctx: Context, incomplete: UnavailableGuild, _full: Option<Guild>) {
        if removed(&incomplete) {
            if let Err(e) = self.shell.service.guild_left(incomplete.id.get()).await {
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

impl Bot {
    async fn on_command(&self, responder: &Responder, cmd: &CommandInteraction) -> Observation {
        let caller = caller_of_command(cmd);
        let parsed = Command::parse(&cmd.data);
        let kind = parsed.as_ref().map_or("unknown", command_kind);
        if app_not_in_server(cmd.context, &cmd.authorizing_integration_owners) {
            let text = Msg::NotAddedHere.text(Lang::from_locale(&cmd.locale));
            return Observation::new(kind, None, answer_privately(responder, text).await);
        }
        // One read of the place serves the whole request.
        let (snapshot, lang) = read_place(&self.shell.service, &caller, &cmd.locale).await;
        let snapshot = match snapshot {
            Ok(s) => s,
            Err(e) => {
                return Observation::new(
                    kind,
                    None,
                    report(&self.shell.service, responder, Err(Failure::Refused(e)), lang).await,
                )
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
        let level = snapshot.game.as_ref().map(|g| g.record.level).or_else(|| {
            started.filter(|_| !snapshot.settings.place.level_choice).map(|kind| snapshot.settings.place.level(kind))
        });
        let seen = |handled| Observation::new(kind, level, handled);
        let command = match parsed {
            Ok(command) => command,
            Err(CommandError::LevelNotForGame { kind }) => {
                return seen(answer_privately(responder, Msg::LevelNotForGame { kind }.text(lang)).await);
            }
            Err(e) => {
                tracing::warn!(error = %e, "a command the bot does not know");
                return seen(answer_privately(responder, Msg::TryAgain.text(lang)).await);
            }
        };
        // Nothing is stored where the game could not be shown; private answers need no
        // permission of the channel's, nor does anything outside a server, where every
        // answer goes through the interaction (docs/design/private-channels.md).
        if command.posts_in_channel() && caller.venue == Venue::Server {
            let needed = missing_permissions(cmd.app_permissions, caller.parent_id.is_some());
            if !needed.is_empty() {
                return seen(refuse_missing(responder, &needed, lang).await);
            }
        }
        let request = Request::new(responder, caller, snapshot, lang);
        let shell = &self.shell;
        let ended = match command {
            Command::Games => show_game_box(&request).await,
            Command::StartReversi { side } => start_or_offer(shell, &request, GameKind::Reversi, side).await,
            Command::StartDoubutsu => start_or_offer(shell, &request, GameKind::Doubutsu, Side::First).await,
            Command::Move { typed } => play(shell, &request, &typed, None, false).await,
            Command::Board => show_board(shell, &request, None).await,
            Command::Resign => resign(shell, &request).await,
            Command::Stats => stats(&shell.service, &request).await,
            Command::Remind { on } => remind_me(&shell.service, &request, on).await,
            Command::Hints { on } => hints_for_me(&shell.service, &request, on).await,
            Command::Takeback => take_back(shell, &request, None).await,
            Command::Help => help(&request).await,
            Command::ForgetMe => forget_me(&shell.service, &request).await,
            Command::Settings(wanted) => settings(&shell.service, &request, cmd, wanted).await,
        };
        seen(report(&self.shell.service, responder, ended, lang).await)
    }

    async fn on_autocomplete(&self, responder: &Responder, cmd: &CommandInteraction) -> Observation {
        let typed = cmd.data.autocomplete().map(|o| o.value).unwrap_or("");
        let typed: String = typed.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        let matches = |(_, mv): &&(String, String)| mv.to_ascii_lowercase().starts_with(&typed);
        let caller = caller_of_command(cmd);
        let (mut level, mut handled) = (None, Handled::Ok);
        // The coach's order and marks, as in the menus: the value is always the move itself.
        let (read, _) = read_place(&self.shell.service, &caller, &cmd.locale).await;
        let moves: Vec<(String, String)> = match read {
            Ok(snapshot) => match Service::game_to_move(&caller, &snapshot, None) {
                Ok(game) => {
                    note_game(game.record.id);
                    level = Some(game.record.level);
                    snapshot
                        .settings
                        .reader
                        .coach()
                        .moves_in_order(&game.record.game)
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
                handled = counted(&self.shell.service, &e, Handled::Refused);
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
}
