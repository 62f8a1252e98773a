//! What server managers choose: per server, with optional per-channel overrides; and the one
//! setting a player may choose for themself, the coach's hints.
//!
//! Every setting is read in one query as the effective value for a place: the channel's own
//! override, else (in a thread) its parent channel's, else the server's, else the default.

use super::rows::{settings_columns, SettingsRow};
use super::{Store, StoreError};
use crate::domain::{Change, Lang, Place, Scope, Setting, Settings, MAX_REMINDER_HOURS};

/// The settings of a place (`$1` its server, `$2` its channel, `$3` the channel a thread hangs
/// from): `t` the channel's overrides, `p` its parent's, `g` the server's (SQL `FROM` clause
/// for [`settings_columns`]).
pub(super) const SETTINGS_OF_PLACE: &str = "FROM (SELECT $1::BIGINT AS guild_id) s
     LEFT JOIN guild_settings g ON g.guild_id = s.guild_id
     LEFT JOIN channel_settings t ON t.channel_id = $2 AND t.guild_id = s.guild_id
     LEFT JOIN channel_settings p ON p.channel_id = $3 AND p.guild_id = s.guild_id";

fn language_code(lang: Option<Lang>) -> &'static str {
    match lang {
        None => "auto",
        Some(Lang::En) => "en",
        Some(Lang::Ja) => "ja",
    }
}

impl Store {
    /// The settings in effect at `place` (defaults in direct messages).
    pub async fn settings(&self, place: &Place) -> Result<Settings, StoreError> {
        let Some(guild_id) = place.guild_id else { return Ok(Settings::default()) };
        let row: SettingsRow = sqlx::query_as(&format!("SELECT {} {SETTINGS_OF_PLACE}", settings_columns()))
            .bind(guild_id as i64)
            .bind(place.channel_id as i64)
            .bind(place.parent_id.map(|p| p as i64))
            .fetch_one(&self.pool)
            .await?;
        Ok(row.into_settings())
    }

    /// Records `user_id`'s own choice of the coach's hints, on every server (`None`: as the
    /// place says).
    pub async fn set_hints_choice(&self, user_id: u64, on: Option<bool>) -> Result<(), StoreError> {
        sqlx::query!(
            "INSERT INTO player_settings (user_id, hints) VALUES ($1, $2)
             ON CONFLICT (user_id) DO UPDATE SET hints = EXCLUDED.hints, updated_at = now()",
            user_id as i64,
            on,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Applies `change` to the server of `place`, or only to its channel. Games in progress
    /// keep their level; the other settings apply from their next move.
    pub async fn change_setting(
        &self,
        guild_id: u64,
        place: &Place,
        scope: Scope,
        change: Change,
    ) -> Result<(), StoreError> {
        match change {
            Change::Level(level) => self.upsert(guild_id, place, scope, change.setting(), level.as_str()).await,
            Change::Commentary(on)
            | Change::TeamPlay(on)
            | Change::LevelChoice(on)
            | Change::Takeback(on)
            | Change::Hints(on) => self.upsert(guild_id, place, scope, change.setting(), on).await,
            Change::IdleDays(days) => {
                self.upsert(guild_id, place, scope, change.setting(), days.clamp(1, 365) as i32).await
            }
            Change::Language(lang) => self.upsert(guild_id, place, scope, change.setting(), language_code(lang)).await,
            Change::ReminderHours(hours) => {
                let hours = hours.min(MAX_REMINDER_HOURS) as i32;
                self.upsert(guild_id, place, scope, change.setting(), hours).await
            }
        }
    }

    /// Removes every override of `place`'s own channel; returns whether there were any.
    pub async fn clear_channel_settings(&self, guild_id: u64, place: &Place) -> Result<bool, StoreError> {
        let done = sqlx::query!(
            "DELETE FROM channel_settings WHERE channel_id = $1 AND guild_id = $2",
            place.channel_id as i64,
            guild_id as i64,
        )
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn upsert<T>(
        &self,
        guild_id: u64,
        place: &Place,
        scope: Scope,
        setting: Setting,
        value: T,
    ) -> Result<(), StoreError>
    where
        T: for<'q> sqlx::Encode<'q, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send,
    {
        let c = setting.column();
        let query = match scope {
            Scope::Server => format!(
                "INSERT INTO guild_settings (guild_id, {c}) VALUES ($1, $2)
                 ON CONFLICT (guild_id) DO UPDATE SET {c} = EXCLUDED.{c}, updated_at = now()"
            ),
            Scope::Channel => format!(
                "INSERT INTO channel_settings (guild_id, {c}, channel_id) VALUES ($1, $2, $3)
                 ON CONFLICT (channel_id) DO UPDATE SET {c} = EXCLUDED.{c}, updated_at = now()"
            ),
        };
        let mut q = sqlx::query(&query).bind(guild_id as i64).bind(value);
        if scope == Scope::Channel {
            q = q.bind(place.channel_id as i64);
        }
        q.execute(&self.pool).await?;
        Ok(())
    }
}
