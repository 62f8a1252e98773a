//! Where a request comes from, as Discord tells it, and what that allows the bot
//! (docs/design/private-channels.md).

/// Where a request comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Venue {
    /// A server's channel or thread: the bot is a member, managers choose the settings.
    #[default]
    Server,
    /// The bot's own DM with a player: the bot is in it, but there are no managers.
    BotDm,
    /// A DM or group DM the app was brought into by a player's own install: the bot is not
    /// in it, so it only answers interactions there, and there are no managers.
    PrivateChannel,
}

impl Venue {
    /// Whether the bot may post, edit and remind in the channel on its own, beyond answering
    /// an interaction through its token.
    pub fn bot_may_post(self) -> bool {
        self != Venue::PrivateChannel
    }

    /// Whether someone manages the place's settings (a server's managers); elsewhere the
    /// player who starts a game chooses its opponent, and anyone there may move.
    pub fn has_managers(self) -> bool {
        self == Venue::Server
    }
}
