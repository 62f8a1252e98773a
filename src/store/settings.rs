//! What server managers choose: per server, with optional per-channel overrides.
//!
//! Every setting is read in one query as the effective value for a place: the channel's own
//! override, else (in a thread) its parent channel's, else the server's, else the default.

use sqlx::Row;

use super::{Store, StoreError};
use crate::domain::{Change, Lang, Place, Scope, Setting, Settings, MAX_REMINDER_HOURS};

impl Setting {
    /// The column in `guild_settings` and `channel_settings` (never user input).
    fn column(self) -> &'static str {
        match self {
            Setting::ReversiLevel => "reversi_level",
            Setting::DoubutsuLevel => "doubutsu_level",
            Setting::Commentary => "commentary",
            Setting::IdleDays => "idle_days",
            Setting::TeamPlay => "team_play",
            Setting::Language => "language",
            Setting::LevelChoice => "level_choice",
            Setting::ReminderHours => "reminder_hours",
            Setting::Takeback => "takeback",
        }
    }
}

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
        let columns: Vec<String> = Setting::ALL
            .iter()
            .map(|s| {
                let c = s.column();
                format!("COALESCE(t.{c}, p.{c}, g.{c}) AS {c}, (t.{c} IS NOT NULL OR p.{c} IS NOT NULL) AS {c}_here")
            })
            .collect();
        let row = sqlx::query(&format!(
            "SELECT {} FROM (SELECT $1::BIGINT AS guild_id) s
             LEFT JOIN guild_settings g ON g.guild_id = s.guild_id
             LEFT JOIN channel_settings t ON t.channel_id = $2 AND t.guild_id = s.guild_id
             LEFT JOIN channel_settings p ON p.channel_id = $3 AND p.guild_id = s.guild_id",
            columns.join(", ")
        ))
        .bind(guild_id as i64)
        .bind(place.channel_id as i64)
        .bind(place.parent_id.map(|p| p as i64))
        .fetch_one(&self.pool)
        .await?;
        let mut settings = Settings::default();
        // A level the game does not know (edited by hand) leaves the default in effect.
        if let Some(l) = row.try_get::<Option<String>, _>("reversi_level")?.and_then(|t| t.parse().ok()) {
            settings.reversi_level = l;
        }
        if let Some(l) = row.try_get::<Option<String>, _>("doubutsu_level")?.and_then(|t| t.parse().ok()) {
            settings.doubutsu_level = l;
        }
        if let Some(on) = row.try_get::<Option<bool>, _>("commentary")? {
            settings.commentary = on;
        }
        if let Some(days) = row.try_get::<Option<i32>, _>("idle_days")? {
            settings.idle_days = days.clamp(1, 365) as u32;
        }
        if let Some(on) = row.try_get::<Option<bool>, _>("team_play")? {
            settings.team_play = on;
        }
        settings.language = match row.try_get::<Option<String>, _>("language")?.as_deref() {
            Some("en") => Some(Lang::En),
            Some("ja") => Some(Lang::Ja),
            _ => None,
        };
        if let Some(on) = row.try_get::<Option<bool>, _>("level_choice")? {
            settings.level_choice = on;
        }
        if let Some(hours) = row.try_get::<Option<i32>, _>("reminder_hours")? {
            settings.reminder_hours = hours.clamp(0, MAX_REMINDER_HOURS as i32) as u32;
        }
        if let Some(on) = row.try_get::<Option<bool>, _>("takeback")? {
            settings.takeback = on;
        }
        for setting in Setting::ALL {
            if row.try_get::<bool, _>(format!("{}_here", setting.column()).as_str())? {
                settings.from_channel.push(setting);
            }
        }
        Ok(settings)
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
            Change::Commentary(on) | Change::TeamPlay(on) | Change::LevelChoice(on) | Change::Takeback(on) => {
                self.upsert(guild_id, place, scope, change.setting(), on).await
            }
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
        let done = sqlx::query("DELETE FROM channel_settings WHERE channel_id = $1 AND guild_id = $2")
            .bind(place.channel_id as i64)
            .bind(guild_id as i64)
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
