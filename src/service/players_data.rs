//! A player's data on request, and the servers that removed the bot
//! (docs/design/players-data.md): the same calls for `/play forget-me`, the operator's
//! `settai data` and the gateway's events.

use super::{PlayError, Service};
use crate::domain::{DataCounts, Forgotten, PlayerData, DEPARTED_GUILD_GRACE_DAYS};

impl Service {
    /// What is kept about `user_id`, counted.
    pub async fn data_counts(&self, user_id: u64) -> Result<DataCounts, PlayError> {
        Ok(self.store.data_counts(user_id).await?)
    }

    /// Everything kept about `user_id`.
    pub async fn player_data(&self, user_id: u64) -> Result<PlayerData, PlayError> {
        Ok(self.store.player_data(user_id).await?)
    }

    /// Erases `user_id`: their games in progress end, their id and name leave every game,
    /// their choices are deleted.
    pub async fn forget_player(&self, user_id: u64) -> Result<Forgotten, PlayError> {
        let done = self.store.forget_player(user_id).await?;
        tracing::info!(games = done.games, ended = done.ended.len(), moves = done.moves, "a player's data was erased");
        Ok(done)
    }

    /// The bot was removed from `guild_id`: its data is deleted after the grace period.
    pub async fn guild_left(&self, guild_id: u64) -> Result<(), PlayError> {
        tracing::info!(guild = guild_id, "removed from a server; its data goes in {DEPARTED_GUILD_GRACE_DAYS} days");
        Ok(self.store.guild_left(guild_id).await?)
    }

    /// The bot is in `guild_id`: nothing of it is to be deleted.
    pub async fn guild_present(&self, guild_id: u64) -> Result<(), PlayError> {
        Ok(self.store.guild_present(guild_id).await?)
    }

    /// Deletes the data of servers that removed the bot more than the grace period ago; the
    /// servers deleted and their games.
    pub async fn purge_departed_guilds(&self) -> Result<Vec<(u64, u64)>, PlayError> {
        let purged = self.store.purge_departed_guilds(DEPARTED_GUILD_GRACE_DAYS).await?;
        for (guild, games) in &purged {
            tracing::info!(guild, games, "deleted the data of a server that removed the bot");
        }
        Ok(purged)
    }

    /// What is kept about `guild_id`: its games, and whether it has settings of its own.
    pub async fn guild_data_counts(&self, guild_id: u64) -> Result<(u64, bool), PlayError> {
        Ok(self.store.guild_data_counts(guild_id).await?)
    }

    /// Deletes everything kept about `guild_id` now; how many games it had.
    pub async fn forget_guild(&self, guild_id: u64) -> Result<u64, PlayError> {
        Ok(self.store.forget_guild(guild_id).await?)
    }
}
