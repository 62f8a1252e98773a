//! Interaction handling: each slash command, autocomplete and select menu becomes one service
//! call and one reply. Validation happens before any response when it is quick, so refusals
//! are private and change nothing; the bot's own move comes after acknowledging, and a
//! [`Responder`] acknowledges by itself when anything takes too long (Discord's 3 s).
//!
//! Past 1,000 lines and more than one job (command flows, `/settings` parsing, custom ids,
//! board messages): to be split by job under issue 18 item 3.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serenity::all::{
    ButtonStyle, ChannelId, ChannelType, CommandDataOptionValue, CommandInteraction, ComponentInteraction,
    ComponentInteractionDataKind, Context, CreateActionRow, CreateAutocompleteResponse, CreateButton,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption, EditInteractionResponse, EventHandler, GuildId, Interaction, Member, MessageId,
    PartialChannel, Ready, User,
};
use serenity::async_trait;
use serenity::http::Http;

use super::commands::{play_command, settings_command};
use super::menus::move_menus;
use super::reply::{allowed_mentions, Deferral, Reply, Responder};
use crate::games::story::Story;
use crate::games::{GameKind, Level, MoveError, Side};
use crate::i18n::{Lang, Msg, Needed};
use crate::render;
use crate::service::{PlayError, PlayedMove, Seat, Service, Turn};
use crate::store::{Change, GameRecord, GameResult, GameStatus, Place, Scope, Settings, MAX_REMINDER_HOURS};

/// Discord's limit of options in one select menu.
pub(super) const SELECT_MAX: usize = 25;

/// How often games waiting for the bot's reply are looked for while the process runs.
const OWED_REPLY_SWEEP: Duration = Duration::from_secs(60);

/// How long the bot must have been to move before a sweep pays the reply itself: longer than
/// any reply takes in its own request (a search waiting behind a full AI backlog included), so
/// the sweep never races a request that is still working.
pub const OWED_REPLY_AGE: Duration = Duration::from_secs(120);

/// The bot's event handler.
pub struct Bot {
    service: Service,
    guild_id: Option<u64>,
    idle_sweep: Duration,
    /// Set once the idle sweeper runs (READY comes again after every reconnection).
    sweeping: AtomicBool,
    /// The gateway shards this process runs (`None`: all servers are its own).
    shards: Option<super::ShardRange>,
}

impl Bot {
    /// The game flow this handler answers with.
    pub(crate) fn service(&self) -> &Service {
        &self.service
    }

    /// A handler over `service`, registering commands to `guild_id` when given and closing
    /// idle games every `idle_sweep`.
    pub fn new(service: Service, guild_id: Option<u64>, idle_sweep: Duration) -> Bot {
        Bot { service, guild_id, idle_sweep, sweeping: AtomicBool::new(false), shards: None }
    }

    /// The same handler for a process that runs only `shards` (its sweeps leave other
    /// processes' servers alone).
    pub fn with_shards(mut self, shards: Option<super::ShardRange>) -> Bot {
        self.shards = shards;
        self
    }

    /// Whether the games of `guild_id` are this process's to answer.
    pub(super) fn owns(&self, guild_id: Option<u64>) -> bool {
        self.shards.is_none_or(|r| (r.first..=r.last).contains(&super::ShardRange::shard_of(guild_id, r.total)))
    }

    /// Registers the slash commands (to the test server when one is configured).
    pub async fn register_commands(&self, http: &Http) {
        let registered = match self.guild_id {
            Some(guild) => GuildId::new(guild).set_commands(http, vec![play_command(), settings_command()]).await,
            None => serenity::all::Command::set_global_commands(http, vec![play_command(), settings_command()]).await,
        };
        if let Err(e) = registered {
            tracing::error!(error = %e, "could not register slash commands");
        }
    }

    /// Work that starts once the bot can talk to Discord: owed replies of `shard` (of `total`)
    /// are paid, and (once per process) the idle sweeper starts.
    pub async fn on_connected(&self, http: &Arc<Http>, (shard, total): (u32, u32)) {
        let this_shard = |guild_id| super::ShardRange::shard_of(guild_id, total) == shard;
        self.finish_interrupted_turns(http, &this_shard, Duration::ZERO).await;
        if !self.sweeping.swap(true, Ordering::SeqCst) {
            // The sweeps run beside the handler on handles of their own (same service).
            let (sweeper, rest, every) = (self.sibling(), http.clone(), self.idle_sweep);
            tokio::spawn(async move { sweeper.sweep_waiting_games(&rest, every).await });
            let (sweeper, rest) = (self.sibling(), http.clone());
            tokio::spawn(async move { sweeper.sweep_owed_replies(&rest).await });
        }
    }

    /// Another handler over the same service, for work beside this one.
    fn sibling(&self) -> Bot {
        Bot::new(self.service.clone(), self.guild_id, self.idle_sweep).with_shards(self.shards)
    }

    /// Pays, forever, the replies of games left waiting for the bot for [`OWED_REPLY_AGE`]
    /// while this process ran: a reply that failed after the player's move was stored (the
    /// database blinked) would otherwise wait for a restart.
    async fn sweep_owed_replies(&self, http: &Http) {
        let mut ticks = tokio::time::interval(self.idle_sweep.min(OWED_REPLY_SWEEP));
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            self.finish_interrupted_turns(http, &|guild_id| self.owns(guild_id), OWED_REPLY_AGE).await;
        }
    }

    /// Handles one interaction, answering through `responder` (which acknowledges it by itself
    /// when the answer is slow).
    pub async fn handle(&self, responder: &Responder, interaction: &Interaction) {
        match interaction {
            Interaction::Command(cmd) => responder.within_deadline(self.on_command(responder, cmd)).await,
            Interaction::Autocomplete(cmd) => self.on_autocomplete(responder, cmd).await,
            Interaction::Component(c) => responder.within_deadline(self.on_component(responder, c)).await,
            _ => {}
        }
    }
}

/// The responder for an interaction the bot answers (commands, autocomplete, components;
/// `None` for others). While the answer is worked on, a component is acknowledged without a
/// visible change, a command with "thinking…", private for `/settings` (its answers are).
pub fn responder_for(http: Arc<Http>, interaction: &Interaction) -> Option<Responder> {
    let (id, token, deferral) = match interaction {
        Interaction::Command(cmd) | Interaction::Autocomplete(cmd) => {
            (cmd.id, &cmd.token, Deferral::Thinking { ephemeral: cmd.data.name == "settings" })
        }
        Interaction::Component(c) => (c.id, &c.token, Deferral::Update),
        _ => return None,
    };
    Some(Responder::new(http, id, token.clone(), deferral))
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
        self.register_commands(&ctx.http).await;
        // Each shard answers the games of its own servers (another process may run the others).
        let shard = ready.shard.map_or((0, 1), |s| (s.id.0, s.total));
        self.on_connected(&ctx.http, shard).await;
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        if let Some(responder) = responder_for(ctx.http.clone(), &interaction) {
            self.handle(&responder, &interaction).await;
        }
    }
}

fn seat_of_command(i: &CommandInteraction) -> Seat {
    seat_of(i.guild_id, i.channel_id, i.channel.as_ref(), &i.user, i.member.as_deref())
}

fn seat_of_component(i: &ComponentInteraction) -> Seat {
    seat_of(i.guild_id, i.channel_id, i.channel.as_ref(), &i.user, i.member.as_ref())
}

/// Who acts where; the name is the one the server shows (nickname, else global name, else
/// user name). In a thread the parent channel is kept: its settings apply there.
fn seat_of(
    guild: Option<GuildId>,
    channel_id: ChannelId,
    channel: Option<&PartialChannel>,
    user: &User,
    member: Option<&Member>,
) -> Seat {
    let name = member.map_or_else(|| user.display_name(), |m| m.display_name()).to_string();
    let is_thread = channel.is_some_and(|c| {
        matches!(c.kind, ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread)
    });
    let parent_id = channel.filter(|_| is_thread).and_then(|c| c.parent_id).map(|p| p.get());
    Seat { guild_id: guild.map(|g| g.get()), channel_id: channel_id.get(), parent_id, user_id: user.id.get(), name }
}

/// The subcommand's name and its string options.
fn subcommand(cmd: &CommandInteraction) -> Option<(&str, Vec<(&str, String)>)> {
    let sub = cmd.data.options.first()?;
    let CommandDataOptionValue::SubCommand(opts) = &sub.value else { return None };
    // Option values as text: strings as given, booleans as "true"/"false", integers in decimal.
    let strings = opts
        .iter()
        .filter_map(|o| match &o.value {
            CommandDataOptionValue::String(s) => Some((o.name.as_str(), s.clone())),
            CommandDataOptionValue::Boolean(b) => Some((o.name.as_str(), b.to_string())),
            CommandDataOptionValue::Integer(n) => Some((o.name.as_str(), n.to_string())),
            _ => None,
        })
        .collect();
    Some((sub.name.as_str(), strings))
}

/// The language of replies under `settings`: the one they impose, else the player's locale.
pub(super) fn lang_of(settings: Option<&Settings>, locale: &str) -> Lang {
    settings.and_then(|s| s.language).unwrap_or_else(|| Lang::from_locale(locale))
}

impl Bot {
    /// The settings in effect at `place` and the language to answer in (the player's locale
    /// when the settings cannot be read; the error is then for the caller to report).
    async fn settings_and_lang(&self, place: &Place, locale: &str) -> (Result<Settings, PlayError>, Lang) {
        let settings = self.service.settings(place).await;
        let lang = lang_of(settings.as_ref().ok(), locale);
        (settings, lang)
    }

    async fn on_command(&self, responder: &Responder, cmd: &CommandInteraction) {
        let seat = seat_of_command(cmd);
        // One read of the settings serves the whole request.
        let (settings, lang) = self.settings_and_lang(&seat.place(), &cmd.locale).await;
        let Some((name, options)) = subcommand(cmd) else { return };
        let settings = match settings {
            Ok(s) => s,
            Err(e) => return self.report(responder, Err(Failure::Refused(e)), lang).await,
        };
        let option = |key: &str| options.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
        // Nothing is stored where the game could not be shown.
        // Private answers need no permission of the channel's.
        if cmd.data.name == "play" && !matches!(name, "stats" | "remind" | "help") {
            let needed = missing_permissions(cmd.app_permissions, seat.parent_id.is_some());
            if !needed.is_empty() {
                return self.refuse_missing(responder, &needed, lang).await;
            }
        }
        if cmd.data.name == "settings" {
            let text = self.settings(cmd, &seat, &settings, name, &options, lang).await;
            if let Err(e) = responder.answer(Reply::private(text)).await {
                tracing::warn!(error = %e, "could not answer /settings");
            }
            return;
        }
        let outcome = match name {
            "reversi" => {
                let side = if option("color") == Some("white") { Side::Second } else { Side::First };
                self.start_or_offer(responder, seat, &settings, GameKind::Reversi, side, lang).await
            }
            "doubutsu" => self.start_or_offer(responder, seat, &settings, GameKind::Doubutsu, Side::First, lang).await,
            "move" => self.play(responder, seat, &settings, option("move").unwrap_or(""), None, lang).await,
            "board" => self.show_board(responder, seat, &settings, lang).await,
            "resign" => self.resign(responder, seat, &settings, lang).await,
            "stats" => self.stats(responder, seat, lang).await,
            "remind" => self.remind_me(responder, &seat, option("on").and_then(|v| v.parse().ok()), lang).await,
            "takeback" => self.take_back(responder, seat, &settings, None, lang).await,
            "help" => {
                let commentary = settings.commentary;
                let reply = tokio::task::spawn_blocking(move || super::help::help_reply(commentary, lang))
                    .await
                    .expect("the help picture is drawn without panicking");
                responder.answer(reply).await.map_err(Failure::from)
            }
            other => {
                tracing::warn!(subcommand = other, "unknown subcommand");
                Ok(())
            }
        };
        self.report(responder, outcome, lang).await;
    }

    async fn on_component(&self, responder: &Responder, c: &ComponentInteraction) {
        let seat = seat_of_component(c);
        let (settings, lang) = self.settings_and_lang(&seat.place(), &c.locale).await;
        let settings = match settings {
            Ok(s) => s,
            Err(e) => return self.report(responder, Err(Failure::Refused(e)), lang).await,
        };
        let needed = missing_permissions(c.app_permissions, seat.parent_id.is_some());
        if !needed.is_empty() {
            return self.refuse_missing(responder, &needed, lang).await;
        }
        let outcome = match (MoveSelect::parse(&c.data.custom_id), &c.data.kind) {
            (Some(target), ComponentInteractionDataKind::StringSelect { values }) => {
                let choice = values.first().map(String::as_str).unwrap_or("");
                let tapped = Some((target.game_id, target.ply, c.message.id));
                self.play(responder, seat, &settings, choice, tapped, lang).await
            }
            (None, ComponentInteractionDataKind::StringSelect { values }) => {
                match (OpponentSelect::parse(&c.data.custom_id), values.first()) {
                    (Some(picker), Some(choice)) => match picker.level(choice) {
                        Some(level) => self.start_chosen(responder, seat, &settings, picker, level, lang).await,
                        None => Err(Failure::Refused(PlayError::Stale)),
                    },
                    _ => Err(Failure::Refused(PlayError::Stale)),
                }
            }
            (None, ComponentInteractionDataKind::Button) => match ResignButton::parse(&c.data.custom_id) {
                Some(button) => self.resign_button(responder, seat, &settings, button, lang).await,
                None => match TakebackButton::parse(&c.data.custom_id) {
                    Some(b) => {
                        self.take_back(responder, seat, &settings, Some((b.game_id, b.ply, c.message.id)), lang).await
                    }
                    None => Err(Failure::Refused(PlayError::Stale)),
                },
            },
            _ => Err(Failure::Refused(PlayError::Stale)),
        };
        self.report(responder, outcome, lang).await;
    }

    async fn on_autocomplete(&self, responder: &Responder, cmd: &CommandInteraction) {
        let typed = cmd.data.autocomplete().map(|o| o.value).unwrap_or("");
        let typed: String = typed.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        let matches = |mv: &&String| mv.to_ascii_lowercase().starts_with(&typed);
        let moves = match self.service.legal_moves_for(&seat_of_command(cmd)).await {
            Ok(moves) => moves,
            Err(e) => {
                tracing::warn!(error = %e, "autocomplete without moves");
                Vec::new()
            }
        };
        let mut response = CreateAutocompleteResponse::new();
        for mv in moves.iter().filter(matches).take(SELECT_MAX) {
            response = response.add_string_choice(mv.clone(), mv.clone());
        }
        if let Err(e) = responder.initial(CreateInteractionResponse::Autocomplete(response)).await {
            tracing::warn!(error = %e, "autocomplete reply failed");
        }
    }

    /// `/settings`: the reply text (always ephemeral: only the admin sees levels). `options` are
    /// the subcommand's: its one value (a level, "true"/"false", days or a language code), the
    /// game for a level, and `here` for this channel only.
    async fn settings(
        &self,
        cmd: &CommandInteraction,
        seat: &Seat,
        settings: &Settings,
        sub: &str,
        options: &[(&str, String)],
        lang: Lang,
    ) -> String {
        let option = |key: &str| options.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
        let value = ["level", "on", "days", "language", "hours"].into_iter().find_map(option);
        let game = option("game");
        let scope = if option("here") == Some("true") { Scope::Channel } else { Scope::Server };
        let Some(guild) = cmd.guild_id.map(|g| g.get()) else { return Msg::ServerOnly.text(lang) };
        // Discord hides the command from others, but the permission is checked here too.
        let permitted =
            cmd.member.as_ref().and_then(|m| m.permissions).is_some_and(|p| p.manage_guild() || p.administrator());
        if !permitted {
            return Msg::ManagersOnly.text(lang);
        }
        let place = seat.place();
        // Discord only sends the offered choices and ranges; anything else is a forged request.
        let on = || value.and_then(|v| v.parse::<bool>().ok());
        let change = match sub {
            "show" => return Msg::Settings { settings }.text(lang),
            "reset" => {
                return match self.service.clear_channel_settings(guild, &place).await {
                    // The channel may have imposed the language of this very reply.
                    Ok(had) => Msg::ChannelReset { had }.text(self.lang(&place, &cmd.locale).await),
                    Err(e) => refusal_text(&e, lang),
                };
            }
            "idle" => value.and_then(|d| d.parse::<u32>().ok()).filter(|d| (1..=365).contains(d)).map(Change::IdleDays),
            "reminders" => value
                .and_then(|h| h.parse::<u32>().ok())
                .filter(|h| *h <= MAX_REMINDER_HOURS)
                .map(Change::ReminderHours),
            "commentary" => on().map(Change::Commentary),
            "team" => on().map(Change::TeamPlay),
            "choice" => on().map(Change::LevelChoice),
            "takeback" => on().map(Change::Takeback),
            "language" => match value {
                Some("auto") => Some(Change::Language(None)),
                Some("en") => Some(Change::Language(Some(Lang::En))),
                Some("ja") => Some(Change::Language(Some(Lang::Ja))),
                _ => None,
            },
            "level" => {
                let Some(kind) = game.and_then(|g| g.parse::<GameKind>().ok()) else {
                    return Msg::TryAgain.text(lang);
                };
                match Level::parse(kind, value.unwrap_or("")) {
                    Err(_) => return Msg::LevelNotForGame { kind }.text(lang),
                    Ok(level) => Some(Change::Level(level)),
                }
            }
            _ => None,
        };
        let Some(change) = change else { return Msg::TryAgain.text(lang) };
        if let Err(e) = self.service.change_setting(guild, &place, scope, change).await {
            return refusal_text(&e, lang);
        }
        // The confirmation is in the language now in effect (a new one, when that was set).
        let lang = self.lang(&place, &cmd.locale).await;
        let mut text = match change {
            Change::Level(level) => Msg::LevelSet { kind: level.kind(), level }.text(lang),
            Change::Commentary(on) => Msg::CommentarySet { on }.text(lang),
            Change::IdleDays(days) => Msg::IdleSet { days }.text(lang),
            Change::TeamPlay(on) => Msg::TeamSet { on }.text(lang),
            Change::Language(language) => Msg::LanguageSet { language }.text(lang),
            Change::LevelChoice(on) => Msg::ChoiceSet { on }.text(lang),
            Change::ReminderHours(hours) => Msg::RemindersSet { hours }.text(lang),
            Change::Takeback(on) => Msg::TakebackSet { on }.text(lang),
        };
        if scope == Scope::Channel {
            text = format!("{text} {}", Msg::ForThisChannel.text(lang));
        }
        text
    }

    /// The language to answer in at `place` when no settings were read for the request.
    async fn lang(&self, place: &Place, locale: &str) -> Lang {
        match self.service.settings(place).await {
            Ok(settings) => lang_of(Some(&settings), locale),
            Err(e) => {
                tracing::warn!(error = %e, "could not read the server's language");
                Lang::from_locale(locale)
            }
        }
    }

    /// Refuses privately, naming the permissions the bot lacks here.
    async fn refuse_missing(&self, responder: &Responder, needed: &[Needed], lang: Lang) {
        if let Err(e) = responder.answer(Reply::private(Msg::MissingPermissions { needed }.text(lang))).await {
            tracing::warn!(error = %e, "could not answer an interaction");
        }
    }

    /// Tells the player about a failure in the way its stage allows.
    async fn report(&self, responder: &Responder, outcome: Result<(), Failure>, lang: Lang) {
        let sent = match outcome {
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
        }
    }

    /// Answers games left waiting for the bot for at least `waiting_for` (the process stopped,
    /// or the reply failed, between a human move and the reply) and posts their boards.
    async fn finish_interrupted_turns(
        &self,
        http: &Http,
        ours: &(dyn Fn(Option<u64>) -> bool + Sync),
        waiting_for: Duration,
    ) {
        let waiting = match self.service.games_awaiting_bot_for(waiting_for).await {
            Ok(w) => w,
            Err(e) => return tracing::error!(error = %e, "could not look for interrupted games"),
        };
        for record in waiting.into_iter().filter(|r| ours(r.guild_id)) {
            let channel = ChannelId::new(record.channel_id);
            let settings = self.service.settings(&record.place()).await.ok();
            let lang = lang_of(settings.as_ref(), "");
            let settings = settings.unwrap_or_default();
            let posted = match self.service.bot_reply(record).await {
                Ok(turn) => {
                    let lines = narrate(&turn.moves, lang);
                    let board = self.board(&turn.record, turn.last_move(), lines, &settings, lang).await;
                    match channel.send_message(http, board.channel_message()).await {
                        Ok(posted) => {
                            self.board_posted(http, &turn.record, posted.id, None).await;
                            Ok(())
                        }
                        Err(e) => Err(e),
                    }
                }
                Err(PlayError::AlreadyPlayed) => Ok(()),
                Err(e) => return tracing::error!(error = %e, "could not finish an interrupted game"),
            };
            if let Err(e) = posted {
                tracing::warn!(error = %e, channel = %channel, "could not post a recovered board");
            }
        }
    }

    /// The board message for `record`, rendered on the blocking pool; a finished game also gets
    /// its replay and, with the commentary on, its chart and summary; where take-backs are
    /// allowed, a game on gets the button.
    pub(super) async fn board(
        &self,
        record: &GameRecord,
        last: Option<&PlayedMove>,
        lines: Vec<String>,
        settings: &Settings,
        lang: Lang,
    ) -> Reply {
        let (commentary, takeback) = (settings.commentary, settings.takeback);
        let review = if record.status == GameStatus::Active {
            None
        } else {
            match self.service.history(record).await {
                Ok(moves) => {
                    let story = if commentary { self.service.story(record, moves.clone()).await } else { None };
                    Some(Review { start: record.game.initial(), moves, story })
                }
                Err(e) => {
                    tracing::warn!(game = record.id, error = %e, "no replay: the move list could not be read");
                    None
                }
            }
        };
        let (record, last) = (record.clone(), last.cloned());
        tokio::task::spawn_blocking(move || board_reply(&record, last.as_ref(), lines, review, takeback, lang))
            .await
            .expect("board rendering panicked")
    }

    /// `/play <game>`: starts at once, or where players choose their opponent, offers the
    /// choice first (a menu only the player sees).
    async fn start_or_offer(
        &self,
        responder: &Responder,
        seat: Seat,
        settings: &Settings,
        kind: GameKind,
        side: Side,
        lang: Lang,
    ) -> Result<(), Failure> {
        if !settings.level_choice {
            return self.start(responder, seat, settings, kind, side, lang).await;
        }
        // A busy channel says so now rather than after the choice.
        match self.service.current(seat.channel_id).await {
            Ok(_) => return Err(Failure::Refused(PlayError::ChannelBusy)),
            Err(PlayError::NoGame) => {}
            Err(e) => return Err(Failure::Refused(e)),
        }
        // The values are positions in the game's list of levels: not even the payload names them.
        let options = Level::for_kind(kind)
            .iter()
            .enumerate()
            .map(|(i, &level)| {
                CreateSelectMenuOption::new(Msg::Opponent { level }.text(lang), i.to_string())
                    .description(Msg::OpponentHint { level, reveal: settings.commentary }.text(lang))
            })
            .collect();
        let menu =
            CreateSelectMenu::new(OpponentSelect { kind, side }.custom_id(), CreateSelectMenuKind::String { options })
                .placeholder(Msg::PickOpponent.text(lang));
        let offer = Reply::private(Msg::ChooseOpponent { kind }.text(lang))
            .with_components(vec![CreateActionRow::SelectMenu(menu)]);
        responder.answer(offer).await?;
        Ok(())
    }

    /// The player picked an opponent: the game starts in the channel for all to see, and the
    /// private menu says what was chosen.
    async fn start_chosen(
        &self,
        responder: &Responder,
        seat: Seat,
        settings: &Settings,
        picker: OpponentSelect,
        level: Level,
        lang: Lang,
    ) -> Result<(), Failure> {
        let record =
            self.service.start(&seat, picker.kind, picker.side, Some(level)).await.map_err(Failure::Refused)?;
        responder.defer().await?;
        let (board, shown) = self.first_board(record, &seat, settings, lang).await?;
        let posted = responder.follow_up_posted(board.follow_up()).await?;
        self.board_posted(responder.http(), &shown, posted, None).await;
        let chosen = EditInteractionResponse::new()
            .content(Msg::OpponentChosen { level }.text(lang))
            .allowed_mentions(allowed_mentions(&[]))
            .components(vec![]);
        responder.edit(chosen).await?;
        Ok(())
    }

    async fn start(
        &self,
        responder: &Responder,
        seat: Seat,
        settings: &Settings,
        kind: GameKind,
        side: Side,
        lang: Lang,
    ) -> Result<(), Failure> {
        let record = self.service.start(&seat, kind, side, None).await.map_err(Failure::Refused)?;
        responder.defer().await?;
        let (board, shown) = self.first_board(record, &seat, settings, lang).await?;
        if let Some(posted) = responder.post(board).await? {
            self.board_posted(responder.http(), &shown, posted, None).await;
        }
        Ok(())
    }

    /// The first board of a new game (the greeting, and the bot's opening if it moves first)
    /// and the game as it shows it.
    async fn first_board(
        &self,
        record: GameRecord,
        seat: &Seat,
        settings: &Settings,
        lang: Lang,
    ) -> Result<(Reply, GameRecord), Failure> {
        let (kind, human_side) = (record.kind(), record.human_side);
        let reply = self.service.bot_reply(record).await.map_err(Failure::Late)?;
        let mut lines = vec![Msg::Started { kind, human: seat.user_id, human_side }.text(lang)];
        lines.extend(narrate(&reply.moves, lang));
        let board = self.board(&reply.record, reply.last_move(), lines, settings, lang).await;
        Ok((board, reply.record))
    }

    async fn play(
        &self,
        responder: &Responder,
        seat: Seat,
        settings: &Settings,
        input: &str,
        tapped: Option<(i64, u32, MessageId)>,
        lang: Lang,
    ) -> Result<(), Failure> {
        // A tap names the game, the ply and the board message it was made on.
        let expected = tapped.map(|(game_id, ply, _)| (game_id, ply));
        let human = self.service.human_move(&seat, input, expected).await.map_err(Failure::Refused)?;
        responder.defer().await?;
        // The bot's reply and the commentary on the player's move are thought out together.
        let played = human.moves.first().cloned();
        let (reply, comment) = tokio::join!(self.service.bot_reply(human.record.clone()), async {
            match &played {
                Some(m) if settings.commentary => self.service.comment(m).await,
                _ => None,
            }
        });
        let reply = reply.map_err(Failure::Late)?;
        let moves: Vec<PlayedMove> = human.moves.into_iter().chain(reply.moves.iter().cloned()).collect();
        let turn = Turn { record: reply.record, moves };
        let mut lines = narrate(&turn.moves, lang);
        if let Some(c) = &comment {
            // Right under the player's own move.
            lines.insert(1.min(lines.len()), Msg::Comment(c).text(lang));
        }
        let board = self.board(&turn.record, turn.last_move(), lines, settings, lang).await;
        self.post_new_board(responder, board, &turn.record, tapped.map(|(_, _, m)| m)).await
    }

    /// Posts the board of a changed game. From a component, a new message (it keeps a readable
    /// history and notifies the player) goes first: the old board losing its menu (so it cannot
    /// be tapped again) is best effort, and a failed edit (the message was deleted) must not
    /// hide the stored change.
    pub(super) async fn post_new_board(
        &self,
        responder: &Responder,
        board: Reply,
        record: &GameRecord,
        tapped: Option<MessageId>,
    ) -> Result<(), Failure> {
        if responder.is_component() {
            let posted = responder.follow_up_posted(board.follow_up()).await?;
            let strip = EditInteractionResponse::new().components(Vec::new()).allowed_mentions(allowed_mentions(&[]));
            if let Err(e) = responder.edit(strip).await {
                tracing::warn!(error = %e, game = record.id, "could not take the menu off the old board");
            }
            self.board_posted(responder.http(), record, posted, tapped).await;
        } else if let Some(posted) = responder.post(board).await? {
            self.board_posted(responder.http(), record, posted, None).await;
        }
        Ok(())
    }

    async fn show_board(
        &self,
        responder: &Responder,
        seat: Seat,
        settings: &Settings,
        lang: Lang,
    ) -> Result<(), Failure> {
        let record = self.service.current(seat.channel_id).await.map_err(Failure::Refused)?;
        let last = self.service.last_move(&record).await.map_err(Failure::Refused)?;
        let lines =
            if record.human_to_move() { vec![Msg::YourMove { human: record.human_id }.text(lang)] } else { vec![] };
        let board = self.board(&record, last.as_ref(), lines, settings, lang).await;
        // A fresh board every time: it also brings back a board someone deleted.
        if let Some(posted) = responder.post(board).await? {
            self.board_posted(responder.http(), &record, posted, None).await;
        }
        Ok(())
    }

    async fn resign(&self, responder: &Responder, seat: Seat, settings: &Settings, lang: Lang) -> Result<(), Failure> {
        let record = self.service.resign(&seat, None).await.map_err(Failure::Refused)?;
        let board = self.board(&record, None, vec![Msg::Resigned.text(lang)], settings, lang).await;
        responder.answer(board).await?;
        Ok(())
    }

    async fn stats(&self, responder: &Responder, seat: Seat, lang: Lang) -> Result<(), Failure> {
        let records = self.service.record_of(&seat).await.map_err(Failure::Refused)?;
        responder.answer(Reply::public(Msg::Stats { human: seat.user_id, records }.text(lang))).await?;
        Ok(())
    }

    /// `/play remind on|off`: the player's own choice, on every server (a private answer).
    async fn remind_me(&self, responder: &Responder, seat: &Seat, on: Option<bool>, lang: Lang) -> Result<(), Failure> {
        // Discord always sends the required option; without it the request was forged.
        let text = match on {
            Some(on) => {
                self.service.set_reminders_wanted(seat, on).await.map_err(Failure::Refused)?;
                Msg::RemindSet { on }.text(lang)
            }
            None => Msg::TryAgain.text(lang),
        };
        responder.answer(Reply::private(text)).await?;
        Ok(())
    }

    /// The board's Resign button asks first (privately); "Yes" resigns that very game and
    /// posts the final board for everyone, "Keep playing" just closes the question.
    async fn resign_button(
        &self,
        responder: &Responder,
        seat: Seat,
        settings: &Settings,
        button: ResignButton,
        lang: Lang,
    ) -> Result<(), Failure> {
        match button {
            ResignButton::Ask { game_id } => {
                // Only the player of that game, while it is on, is asked.
                let record = self.service.current(seat.channel_id).await.map_err(|e| match e {
                    PlayError::NoGame => Failure::Refused(PlayError::Stale),
                    e => Failure::Refused(e),
                })?;
                if record.id != game_id {
                    return Err(Failure::Refused(PlayError::Stale));
                }
                if record.human_id != seat.user_id {
                    return Err(Failure::Refused(PlayError::NotYourGame { owner: record.human_id }));
                }
                let buttons = CreateActionRow::Buttons(vec![
                    CreateButton::new(ResignButton::Confirm { game_id }.custom_id())
                        .label(Msg::ResignYes.text(lang))
                        .style(ButtonStyle::Danger),
                    CreateButton::new(ResignButton::Cancel { game_id }.custom_id())
                        .label(Msg::ResignNo.text(lang))
                        .style(ButtonStyle::Secondary),
                ]);
                responder.answer(Reply::private(Msg::ResignConfirm.text(lang)).with_components(vec![buttons])).await?;
            }
            ResignButton::Cancel { .. } => {
                responder.update(Reply::public(Msg::KeepPlaying.text(lang))).await?;
            }
            ResignButton::Confirm { game_id } => {
                let record = self.service.resign(&seat, Some(game_id)).await.map_err(Failure::Refused)?;
                responder.update(Reply::public(Msg::Resigned.text(lang))).await?;
                let board = self.board(&record, None, vec![Msg::Resigned.text(lang)], settings, lang).await;
                responder.follow_up(board.follow_up()).await?;
            }
        }
        Ok(())
    }
}

/// The permissions the bot lacks to show a game where it was asked (`app_permissions` of the
/// interaction; unknown when Discord sent none): boards are messages with an image, and in a
/// thread messages need a permission of their own.
fn missing_permissions(app: Option<serenity::all::Permissions>, in_thread: bool) -> Vec<Needed> {
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

/// One line per move made by a request, then whose turn it is or how the game ended.
fn narrate(moves: &[PlayedMove], lang: Lang) -> Vec<String> {
    moves
        .iter()
        .map(|m| match (m.by_bot, m.notation.as_str()) {
            (true, mv) => Msg::BotPlayed { mv }.text(lang),
            (false, "pass") => Msg::YouPassed.text(lang),
            (false, mv) => Msg::YouPlayed { mv }.text(lang),
        })
        .collect()
}

fn refusal_text(e: &PlayError, lang: Lang) -> String {
    match e {
        PlayError::NoGame => Msg::NoGame.text(lang),
        PlayError::ChannelBusy => Msg::ChannelBusy.text(lang),
        PlayError::NotYourGame { owner } => Msg::NotYourGame { owner: *owner }.text(lang),
        PlayError::NotYourTurn => Msg::NotYourTurn.text(lang),
        PlayError::Stale => Msg::StaleBoard.text(lang),
        PlayError::AlreadyPlayed => Msg::AlreadyPlayed.text(lang),
        PlayError::BadMove { input, error: MoveError::Syntax(reason), .. } => Msg::BadMove { input, reason }.text(lang),
        PlayError::BadMove { input, error: MoveError::Illegal(_), legal } => {
            Msg::IllegalMove { input, legal: &legal.join(", ") }.text(lang)
        }
        PlayError::Unavailable { kind } => Msg::Unavailable { kind: *kind }.text(lang),
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

/// The custom id of a board's move menu: the game and the ply it was made for, so a tap on an
/// old board is recognised and refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct MoveSelect {
    pub(super) game_id: i64,
    pub(super) ply: u32,
    pub(super) part: u8,
}

impl MoveSelect {
    pub(super) fn custom_id(&self) -> String {
        format!("mv:{}:{}:{}", self.game_id, self.ply, self.part)
    }

    fn parse(id: &str) -> Option<MoveSelect> {
        let mut parts = id.split(':');
        if parts.next()? != "mv" {
            return None;
        }
        let parsed = MoveSelect {
            game_id: parts.next()?.parse().ok()?,
            ply: parts.next()?.parse().ok()?,
            part: parts.next()?.parse().ok()?,
        };
        parts.next().is_none().then_some(parsed)
    }
}

/// The custom id of the opponent picker: the game and the colour asked for in `/play`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OpponentSelect {
    kind: GameKind,
    side: Side,
}

impl OpponentSelect {
    fn custom_id(&self) -> String {
        format!("op:{}:{}", self.kind.as_str(), self.side.index())
    }

    fn parse(id: &str) -> Option<OpponentSelect> {
        let mut parts = id.split(':');
        if parts.next()? != "op" {
            return None;
        }
        let kind = parts.next()?.parse().ok()?;
        let side = Side::from_index(parts.next()?.parse().ok()?)?;
        parts.next().is_none().then_some(OpponentSelect { kind, side })
    }

    /// The level behind a menu value (its position in the game's list).
    fn level(&self, value: &str) -> Option<Level> {
        Level::for_kind(self.kind).get(value.parse::<usize>().ok()?).copied()
    }
}

/// The Resign button under a board and the two buttons of its confirmation, each naming the
/// game it belongs to (so an old board cannot resign a newer game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ResignButton {
    /// "Resign" under the board.
    Ask { game_id: i64 },
    /// "Yes, resign".
    Confirm { game_id: i64 },
    /// "Keep playing".
    Cancel { game_id: i64 },
}

impl ResignButton {
    pub(super) fn custom_id(&self) -> String {
        match self {
            ResignButton::Ask { game_id } => format!("rs:ask:{game_id}"),
            ResignButton::Confirm { game_id } => format!("rs:yes:{game_id}"),
            ResignButton::Cancel { game_id } => format!("rs:no:{game_id}"),
        }
    }

    fn parse(id: &str) -> Option<ResignButton> {
        let mut parts = id.split(':');
        if parts.next()? != "rs" {
            return None;
        }
        let what = parts.next()?;
        let game_id = parts.next()?.parse().ok()?;
        if parts.next().is_some() {
            return None;
        }
        match what {
            "ask" => Some(ResignButton::Ask { game_id }),
            "yes" => Some(ResignButton::Confirm { game_id }),
            "no" => Some(ResignButton::Cancel { game_id }),
            _ => None,
        }
    }
}

/// The Take back button under a board: the game and the ply it was drawn at, so a second
/// press (or a press on an older board) is refused as stale and a move is taken back once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TakebackButton {
    pub(super) game_id: i64,
    pub(super) ply: u32,
}

impl TakebackButton {
    pub(super) fn custom_id(&self) -> String {
        format!("tb:{}:{}", self.game_id, self.ply)
    }

    fn parse(id: &str) -> Option<TakebackButton> {
        let mut parts = id.split(':');
        if parts.next()? != "tb" {
            return None;
        }
        let parsed = TakebackButton { game_id: parts.next()?.parse().ok()?, ply: parts.next()?.parse().ok()? };
        parts.next().is_none().then_some(parsed)
    }
}

/// What a finished game's message adds: its moves for the replay and, with commentary on,
/// its story for the chart.
struct Review {
    start: crate::games::Game,
    moves: Vec<String>,
    story: Option<Story>,
}

/// The seats as the images name them: the player who started the game, and the computer.
fn seat_names(record: &GameRecord, lang: Lang) -> render::Names {
    let (human, bot) = (record.human_name.clone(), Msg::Computer.text(lang));
    let names = match record.human_side {
        Side::First => render::Names::new(human, bot),
        Side::Second => render::Names::new(bot, human),
    };
    names.with_human(record.human_side)
}

/// The board reply for `record`: text, the board PNG (plus, once the game is over, its replay
/// and chart) and (when the human is to move) the move menus.
fn board_reply(
    record: &GameRecord,
    last: Option<&PlayedMove>,
    mut lines: Vec<String>,
    review: Option<Review>,
    takeback: bool,
    lang: Lang,
) -> Reply {
    let banner = match (record.status, record.result) {
        (GameStatus::Active, _) => None,
        (_, result) => {
            let human_won = match result {
                Some(GameResult::Human) => Some(true),
                Some(GameResult::Bot) => Some(false),
                _ => None,
            };
            let outcome = (record.status == GameStatus::Finished).then(|| record.game.outcome()).flatten();
            let text =
                Msg::GameOver { human_won, score: outcome.and_then(|o| o.score), reason: outcome.map(|o| o.reason) }
                    .text(lang);
            if record.status == GameStatus::Finished {
                lines.push(text.clone());
            }
            Some(text)
        }
    };
    if record.human_to_move() && !lines.iter().any(|l| l.contains(&format!("<@{}>", record.human_id))) {
        lines.push(Msg::YourMove { human: record.human_id }.text(lang));
    }
    let names = seat_names(record, lang);
    let png =
        render::game_png(&record.game, last.map(|m| (&m.before, m.notation.as_str())), lang, banner.as_deref(), &names);
    let mut files = vec![("board.png", png)];
    if let Some(review) = review {
        match render::replay::replay_gif(&review.start, &review.moves, lang, banner.as_deref(), &names) {
            Ok(gif) => {
                lines.push(Msg::Replay.text(lang));
                files.push(("replay.gif", gif));
            }
            Err(e) => tracing::warn!(game = record.id, error = %e, "could not make a replay"),
        }
        if let Some(story) = review.story {
            lines.push(Msg::Summary { finds: &story.finds, slips: &story.slips }.text(lang));
            files.push(("chart.png", render::story::story_png(&story, lang)));
        }
    }
    // Only the player whose turn it is may be pinged.
    let mentions = if record.human_to_move() { vec![record.human_id] } else { Vec::new() };
    Reply {
        content: lines.join("\n"),
        ephemeral: false,
        files,
        components: move_menus(record, takeback, lang),
        mentions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

        /// Component ids come back from Discord as any client sends them: whatever parses names
        /// the component it would print.
        #[test]
        fn component_ids_from_anywhere_parse_to_what_they_print(
            id in prop_oneof![
                any::<String>(),
                "(mv|rs|op|tb|xx):(ask|yes|no|[-0-9a-z]{0,20})(:[-0-9a-z]{0,20}){0,3}",
                "op:(reversi|doubutsu|chess):[0-9]{1,3}",
            ],
            value in prop_oneof![any::<String>(), "[0-9]{1,3}", "-1"],
        ) {
            if let Some(m) = MoveSelect::parse(&id) {
                prop_assert_eq!(MoveSelect::parse(&m.custom_id()), Some(m));
            }
            if let Some(b) = ResignButton::parse(&id) {
                prop_assert_eq!(ResignButton::parse(&b.custom_id()), Some(b));
            }
            if let Some(t) = TakebackButton::parse(&id) {
                prop_assert_eq!(TakebackButton::parse(&t.custom_id()), Some(t));
                prop_assert!(ResignButton::parse(&id).is_none() && MoveSelect::parse(&id).is_none());
            }
            if let Some(o) = OpponentSelect::parse(&id) {
                prop_assert_eq!(OpponentSelect::parse(&o.custom_id()), Some(o));
                if let Some(level) = o.level(&value) {
                    prop_assert_eq!(level.kind(), o.kind);
                }
            }
        }
    }

    #[test]
    fn resign_button_ids_round_trip_and_reject_garbage() {
        for b in [
            ResignButton::Ask { game_id: 7 },
            ResignButton::Confirm { game_id: 7 },
            ResignButton::Cancel { game_id: 9 },
        ] {
            assert_eq!(ResignButton::parse(&b.custom_id()), Some(b));
        }
        for bad in ["", "rs", "rs:ask", "rs:ask:x", "rs:maybe:1", "rs:yes:1:2", "mv:1:2:3"] {
            assert_eq!(ResignButton::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn move_select_ids_round_trip_and_reject_garbage() {
        let id = MoveSelect { game_id: 42, ply: 17, part: 1 };
        assert_eq!(MoveSelect::parse(&id.custom_id()), Some(id));
        for bad in ["", "mv", "mv:1:2", "mv:1:2:3:4", "xx:1:2:3", "mv:a:2:3", "mv:1:-2:3", "mv:1:2:999"] {
            assert_eq!(MoveSelect::parse(bad), None, "{bad:?}");
        }
    }
}
