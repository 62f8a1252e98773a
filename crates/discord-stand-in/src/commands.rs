//! The application commands the bot registered, globally and per server, as a test reads and
//! waits for them.

use std::time::Duration;

use serde_json::Value;

use crate::state::Inner;
use crate::StandIn;

impl StandIn {
    /// Global commands as the bot registered them (the stand-in's stored objects, with ids).
    pub async fn registered_commands(&self) -> Vec<Value> {
        self.shared.lock().global_commands.clone()
    }

    /// Guild commands as the bot registered them for `guild_id`.
    pub async fn registered_guild_commands(&self, guild_id: u64) -> Vec<Value> {
        self.shared.lock().guild_commands.get(&guild_id).cloned().unwrap_or_default()
    }

    /// Waits until the bot has registered at least one command (global or for any guild) and
    /// returns all of them (global first). Panics after `timeout`.
    pub async fn wait_commands(&self, timeout: Duration) -> Vec<Value> {
        let got = self
            .shared
            .wait_for(timeout, |i| {
                let mut all = i.global_commands.clone();
                let mut guilds: Vec<_> = i.guild_commands.iter().collect();
                guilds.sort_by_key(|(g, _)| **g);
                for (_, cmds) in guilds {
                    all.extend(cmds.iter().cloned());
                }
                (!all.is_empty()).then_some(all)
            })
            .await;
        match got {
            Some(all) => all,
            None => panic!("stand-in: the bot registered no command within {timeout:?}\n{}", self.log_summary()),
        }
    }

    /// The application is removed from `guild_id` (a manager kicked the bot): Discord answers
    /// its commands' routes there with 403, 50001 Missing Access, from now on.
    pub fn remove_from_guild(&self, guild_id: u64) {
        self.shared.lock().left_guilds.insert(guild_id);
    }

    /// Waits until `guild_id` holds none of the bot's commands. Panics after `timeout`.
    pub async fn wait_guild_commands_gone(&self, guild_id: u64, timeout: Duration) {
        let gone = |i: &Inner| i.guild_commands.get(&guild_id).is_none_or(Vec::is_empty).then_some(());
        if self.shared.wait_for(timeout, gone).await.is_none() {
            panic!(
                "stand-in: server {guild_id} still has the bot's commands after {timeout:?}\n{}",
                self.log_summary()
            );
        }
    }

    /// How many times the bot registered its commands (bulk overwrites accepted).
    pub fn command_registrations(&self) -> usize {
        self.shared.lock().command_registrations
    }

    /// Waits until the bot has registered its commands `n` times in all (a process registers
    /// once it is ready, after its emojis). Panics after `timeout`.
    pub async fn wait_command_registrations(&self, n: usize, timeout: Duration) {
        let got = self.shared.wait_for(timeout, |i| (i.command_registrations >= n).then_some(())).await;
        if got.is_none() {
            panic!("stand-in: {} command registration(s), not {n}, after {timeout:?}", self.command_registrations());
        }
    }
}
