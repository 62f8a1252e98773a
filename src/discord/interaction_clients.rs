//! Each interaction's own REST client (docs/design/bot-reliability.md#rate-limits).
//!
//! Discord limits an interaction's webhook (its original message, its follow-ups) per
//! interaction: 5 calls per 2 s each. serenity 0.12 keys those routes by the application's id,
//! so through the bot's one client every interaction would share one bucket: the headers of one
//! interaction's calls would hold back the calls of every other, and a busy bot would answer
//! about five of them every two seconds. A client per interaction, over the bot's one pool of
//! connections, gives each interaction its own bucket, while serenity's limiter still follows
//! Discord's headers and waits out a 429. Everything else (channel messages, commands) goes
//! through the one shared client, whose buckets and global limit are the bot's.

use serenity::all::{ApplicationId, Http, HttpBuilder};

use super::channel_pace::ChannelPace;

/// Makes the REST client of each interaction, sharing the bot's connections.
#[derive(Clone)]
pub struct InteractionClients {
    client: reqwest::Client,
    /// The bot's token (serenity sends it with every call; an interaction's own calls do not
    /// need it, but nothing else differs).
    token: String,
    /// What the interactions of each channel spend of the webhook limit they share.
    pace: ChannelPace,
}

impl InteractionClients {
    /// The clients of the interactions of the bot with `token`, over `client`, the shared
    /// client's connections.
    pub(super) fn new(token: &str, client: reqwest::Client) -> InteractionClients {
        InteractionClients { client, token: token.to_string(), pace: ChannelPace::default() }
    }

    /// The REST client for one interaction of application `application_id`: its buckets are
    /// its own (serenity's rate limiter on, as everywhere).
    pub fn for_interaction(&self, application_id: ApplicationId) -> Http {
        HttpBuilder::new(&self.token).client(self.client.clone()).application_id(application_id).build()
    }

    /// The pace of the channels' interaction webhooks, shared by every interaction's responder.
    pub fn pace(&self) -> &ChannelPace {
        &self.pace
    }
}
