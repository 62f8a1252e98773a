//! The servers the slash commands were registered to, for the Discord shell's registration at
//! start (docs/design/bot-reliability.md#where-the-commands-live).

use super::{PlayError, Service};

impl Service {
    /// Records that the commands go to `guild_id`, before they are sent there.
    pub async fn remember_command_guild(&self, guild_id: u64) -> Result<(), PlayError> {
        Ok(self.store.remember_command_guild(guild_id).await?)
    }

    /// The servers that may still hold a copy of the commands.
    pub async fn command_guilds(&self) -> Result<Vec<u64>, PlayError> {
        Ok(self.store.command_guilds().await?)
    }

    /// Forgets `guild_id`: it holds no copy of the commands any more.
    pub async fn forget_command_guild(&self, guild_id: u64) -> Result<(), PlayError> {
        Ok(self.store.forget_command_guild(guild_id).await?)
    }
}
