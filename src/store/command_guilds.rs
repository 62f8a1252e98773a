//! The servers the slash commands were registered to, so that a copy left on one is cleared
//! once `DISCORD_GUILD_ID` changes or is cleared (docs/design/bot-reliability.md#where-the-commands-live).

use super::{Store, StoreError};

impl Store {
    /// Records that the commands are registered (or about to be) to `guild_id`.
    pub async fn remember_command_guild(&self, guild_id: u64) -> Result<(), StoreError> {
        sqlx::query!(
            "INSERT INTO command_guilds (guild_id) VALUES ($1)
             ON CONFLICT (guild_id) DO UPDATE SET registered_at = now()",
            guild_id as i64
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The servers that may hold a copy of the commands, in order.
    pub async fn command_guilds(&self) -> Result<Vec<u64>, StoreError> {
        let guilds =
            sqlx::query_scalar!("SELECT guild_id FROM command_guilds ORDER BY guild_id").fetch_all(&self.pool).await?;
        Ok(guilds.into_iter().map(|g| g as u64).collect())
    }

    /// Forgets `guild_id`: its copy of the commands is cleared, or the bot is no longer there.
    pub async fn forget_command_guild(&self, guild_id: u64) -> Result<(), StoreError> {
        sqlx::query!("DELETE FROM command_guilds WHERE guild_id = $1", guild_id as i64).execute(&self.pool).await?;
        Ok(())
    }
}
