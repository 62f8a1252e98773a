//! Which database `serve`, `play` and `data` open (README: "The database"):
//!
//! * `DATABASE_URL`, when set, always;
//! * else the choice recorded in `<data folder>/database` on the first run: `system` (the
//!   PostgreSQL at the default address) or `private` (settai's own cluster in the data folder,
//!   [`super::private_cluster`]);
//! * on the first run, the system's server if it lets settai in at the default address, else
//!   (nothing answers, or it refuses the login) the private cluster; the choice is recorded
//!   only once its database opened.
//!
//! A recorded choice is never switched: a system server down for a minute must not leave the
//! bot on an empty database of its own, so its failure is said, with its fix.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use anyhow::Context as _;
use sqlx::postgres::PgConnectOptions;

use super::private_cluster;
use crate::config::Config;
use crate::store::{OpenError, Store, OPEN_TIMEOUT};

/// How long the first run waits for the default address to take a connection.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// The two databases settai may choose between without `DATABASE_URL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// The system's PostgreSQL, at the default address.
    System,
    /// settai's own cluster in the data folder.
    Private,
}

impl Choice {
    fn word(self) -> &'static str {
        match self {
            Choice::System => "system",
            Choice::Private => "private",
        }
    }
}

/// The file the choice is recorded in.
pub fn choice_file(data_dir: &Path) -> PathBuf {
    data_dir.join("database")
}

/// The recorded choice, if any: the file's first line that is not a comment.
pub fn recorded(data_dir: &Path) -> anyhow::Result<Option<Choice>> {
    let file = choice_file(data_dir);
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("could not read {}", file.display())),
    };
    let word = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    match word {
        "system" => Ok(Some(Choice::System)),
        "private" => Ok(Some(Choice::Private)),
        other => anyhow::bail!(
            "{} says {other:?}, which is neither `system` nor `private`: write one of them (README: The database)",
            file.display()
        ),
    }
}

fn record(data_dir: &Path, choice: Choice, default_url: &str) -> anyhow::Result<()> {
    let file = choice_file(data_dir);
    let why = match choice {
        Choice::System => format!(
            "# PostgreSQL answered at {} on settai's first run, so settai uses it.",
            crate::config::redact_url(default_url)
        ),
        Choice::Private => {
            "# Nothing answered at the default address on settai's first run, so settai keeps its own PostgreSQL in \
             the `postgres` folder beside this file."
                .to_string()
        }
    };
    let text = format!(
        "{}\n{why}\n# settai never switches by itself; DATABASE_URL, when set, wins over this file (README: The database).\n",
        choice.word()
    );
    std::fs::create_dir_all(data_dir).with_context(|| format!("could not create {}", data_dir.display()))?;
    std::fs::write(&file, text).with_context(|| format!("could not write {}", file.display()))
}

/// Whether anything takes a connection at `url`'s address now.
async fn answers(url: &str) -> bool {
    let Ok(options) = PgConnectOptions::from_str(url) else { return false };
    let connecting = async {
        match options.get_socket() {
            #[cfg(unix)]
            Some(dir) => {
                let socket = dir.join(format!(".s.PGSQL.{}", options.get_port()));
                tokio::net::UnixStream::connect(socket).await.is_ok()
            }
            _ => tokio::net::TcpStream::connect((options.get_host(), options.get_port())).await.is_ok(),
        }
    };
    tokio::time::timeout(PROBE_TIMEOUT, connecting).await.unwrap_or(false)
}

/// Opens the database this configuration chooses (module docs), applying the migrations.
pub async fn open(config: &Config) -> anyhow::Result<Store> {
    if let Some(url) = &config.database_url {
        return Ok(Store::open(url, OPEN_TIMEOUT).await?);
    }
    let default = &config.default_database_url;
    match recorded(&config.data_dir)? {
        Some(Choice::System) => Store::open(default, OPEN_TIMEOUT).await.with_context(|| {
            format!(
                "settai uses the system's PostgreSQL, as {} records (a later run never switches by itself)",
                choice_file(&config.data_dir).display()
            )
        }),
        Some(Choice::Private) => open_private(config).await,
        None => {
            // The first run: the system's server if it lets settai in, else a cluster of its
            // own. A server that answers but refuses (a stock Debian one does not trust local
            // logins) is passed over too; any other failure is said and nothing is recorded.
            if answers(default).await {
                match Store::open(default, OPEN_TIMEOUT).await {
                    Ok(store) => {
                        record(&config.data_dir, Choice::System, default)?;
                        let file = choice_file(&config.data_dir);
                        tracing::info!("using the system's PostgreSQL; recorded in {}", file.display());
                        return Ok(store);
                    }
                    Err(refused @ (OpenError::LoginRefused { .. } | OpenError::NoSuchDatabase { .. })) => {
                        eprintln!("settai does not use the PostgreSQL at the default address: {refused}");
                    }
                    Err(other) => return Err(other.into()),
                }
            }
            let store = open_private(config).await?;
            record(&config.data_dir, Choice::Private, default)?;
            eprintln!(
                "settai keeps its own PostgreSQL in {}; the choice is recorded in {}",
                config.data_dir.join("postgres").display(),
                choice_file(&config.data_dir).display()
            );
            Ok(store)
        }
    }
}

async fn open_private(config: &Config) -> anyhow::Result<Store> {
    let data_dir = config.data_dir.clone();
    let url = tokio::task::spawn_blocking(move || private_cluster::ensure_running(&data_dir)).await??;
    Ok(Store::open(&url, OPEN_TIMEOUT).await?)
}
