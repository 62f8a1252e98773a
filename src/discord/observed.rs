//! What the host sees of one interaction (docs/design/operations.md): a span carrying its ids,
//! inside which everything the service, the store and the AI pool log for it appears, and the
//! figures it adds: what it asked for, in which game at which level, and how it ended.

use serenity::all::Interaction;

use super::command::Command;
use crate::metrics::{Handled, NONE};
use settai_core::Level;

/// The span of one interaction: the interaction, server, channel and user by id (never a name
/// or a token), and the game once it is known ([`note_game`]).
pub fn interaction_span(id: u64, guild: Option<u64>, channel: u64, user: u64) -> tracing::Span {
    tracing::info_span!("interaction", id, guild, channel, user, game = tracing::field::Empty)
}

/// The span of `interaction`.
pub(super) fn span_of(interaction: &Interaction) -> tracing::Span {
    match interaction {
        Interaction::Command(c) | Interaction::Autocomplete(c) => {
            interaction_span(c.id.get(), c.guild_id.map(|g| g.get()), c.channel_id.get(), c.user.id.get())
        }
        Interaction::Component(c) => {
            interaction_span(c.id.get(), c.guild_id.map(|g| g.get()), c.channel_id.get(), c.user.id.get())
        }
        _ => tracing::Span::none(),
    }
}

/// Names the game the current interaction is about in its span (called where the flows, not
/// a deeper span, are running).
pub(super) fn note_game(game_id: i64) {
    tracing::Span::current().record("game", game_id);
}

/// What one interaction comes to, for the figures.
#[derive(Debug, Clone, Copy)]
pub(super) struct Observation {
    /// What it asked for: `games`, `start`, `move`, `board`, `resign`, `takeback`, `stats`, `remind`,
    /// `help`, `forget_me`, `settings`, `autocomplete`, or `unknown`.
    pub kind: &'static str,
    /// The game and the bot's level it was about, when known.
    pub level: Option<Level>,
    /// How it ended.
    pub handled: Handled,
}

impl Observation {
    /// An interaction asking for `kind` about a game at `level`, ended as `handled`.
    pub fn new(kind: &'static str, level: Option<Level>, handled: Handled) -> Observation {
        Observation { kind, level, handled }
    }

    /// The game and level labels.
    pub fn game_and_level(&self) -> (&'static str, &'static str) {
        self.level.map_or((NONE, NONE), |l| (l.kind().as_str(), l.as_str()))
    }
}

/// What a command asks for, as the figures name it.
pub(super) fn command_kind(command: &Command) -> &'static str {
    match command {
        Command::Games => "games",
        Command::StartReversi { .. } | Command::StartDoubutsu => "start",
        Command::Move { .. } => "move",
        Command::Board => "board",
        Command::Resign => "resign",
        Command::Stats => "stats",
        Command::Remind { .. } => "remind",
        Command::Hints { .. } => "hints",
        Command::Takeback => "takeback",
        Command::Help => "help",
        Command::ForgetMe => "forget_me",
        Command::Settings(_) => "settings",
    }
}
