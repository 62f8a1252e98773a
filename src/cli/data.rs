//! `settai data`: the operator's side of the players' data on request
//! (docs/design/players-data.md#for-the-operator): export a player's data as JSON, erase a
//! player, delete a server's data now. Erasing shows what it would do and needs `--yes`.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context as _};
use clap::Subcommand;

use crate::config::Config;
use crate::i18n::en_count;
use crate::service::Service;

/// What `settai data` does.
#[derive(Debug, Subcommand)]
pub enum DataAction {
    /// Write everything kept about a player as JSON (their choices, the games they started
    /// with every move, their moves in others' games; never another player's id).
    Export {
        /// The player's Discord user id.
        #[arg(long, value_name = "ID")]
        user: u64,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Erase a player (their games in progress end; their id and name leave every game; their
    /// choices are deleted), or delete a server's settings and games now. Without `--yes`,
    /// only says what would go.
    Forget {
        /// The player's Discord user id.
        #[arg(long, value_name = "ID", required_unless_present = "guild", conflicts_with = "guild")]
        user: Option<u64>,
        /// The server's Discord id.
        #[arg(long, value_name = "ID")]
        guild: Option<u64>,
        /// Really erase.
        #[arg(long)]
        yes: bool,
    },
}

/// Runs `settai data`.
pub fn run(action: DataAction) -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let store = super::database::open(&config).await?;
        let service = Service::new(store);
        match action {
            DataAction::Export { user, out } => export(&service, user, out).await,
            DataAction::Forget { user: Some(user), yes, .. } => forget_player(&service, user, yes).await,
            DataAction::Forget { guild: Some(guild), yes, .. } => forget_guild(&service, guild, yes).await,
            DataAction::Forget { .. } => bail!("say whom to forget: --user ID or --guild ID"),
        }
    })
}

async fn export(service: &Service, user: u64, out: Option<PathBuf>) -> anyhow::Result<()> {
    let data = service.player_data(user).await?;
    let json = serde_json::to_string_pretty(&data)?;
    match out {
        Some(path) => {
            std::fs::write(&path, json + "\n").with_context(|| format!("could not write {}", path.display()))?;
            eprintln!("wrote the data of user {user} to {} ({} games)", path.display(), data.games.len());
        }
        None => writeln!(std::io::stdout().lock(), "{json}")?,
    }
    Ok(())
}

async fn forget_player(service: &Service, user: u64, yes: bool) -> anyhow::Result<()> {
    let counts = service.data_counts(user).await?;
    if counts.is_empty() {
        println!("nothing is kept about user {user}");
        return Ok(());
    }
    if !yes {
        println!(
            "user {user}: {}, {} in progress (would end as resigned), {} in others' games, {}; add --yes to erase",
            en_count(counts.finished_games, "finished game", "finished games"),
            en_count(counts.games_in_progress, "game", "games"),
            en_count(counts.moves_in_others_games, "move", "moves"),
            if counts.choices { "their own choices" } else { "no choices of their own" }
        );
        return Ok(());
    }
    let done = service.forget_player(user).await?;
    println!(
        "erased user {user}: {} no longer name them ({} ended), {} lost their id, choices {}",
        en_count(done.games, "game", "games"),
        done.ended.len(),
        en_count(done.moves, "move", "moves"),
        if done.choices { "deleted" } else { "none" }
    );
    Ok(())
}

async fn forget_guild(service: &Service, guild: u64, yes: bool) -> anyhow::Result<()> {
    let (games, settings) = service.guild_data_counts(guild).await?;
    if games == 0 && !settings {
        println!("nothing is kept about server {guild}");
        return Ok(());
    }
    if !yes {
        println!(
            "server {guild}: {}, {}; add --yes to delete",
            en_count(games, "game", "games"),
            if settings { "settings of its own" } else { "no settings of its own" }
        );
        return Ok(());
    }
    let games = service.forget_guild(guild).await?;
    println!("deleted server {guild}: {} and its settings", en_count(games, "game", "games"));
    Ok(())
}
