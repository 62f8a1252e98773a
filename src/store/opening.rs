//! Opening the database at start, and why it could not be opened, each reason with its fix:
//! nothing listening, a login refused (no such role, a wrong password, not allowed), no such
//! database (and no right to create it), no answer in time. `serve`, `play` and `data` all say
//! these the same way (README: "When the database does not open").

use std::str::FromStr;
use std::time::Duration;

use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPoolOptions};
use sqlx::{Connection as _, Postgres};

use super::{Store, StoreError};

/// How long opening the database may take before it is called timed out.
pub const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a login was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The server has no such role.
    NoSuchRole,
    /// The password was wrong (or missing).
    WrongPassword,
    /// The server does not let this role in from here (pg_hba.conf); its own words.
    NotAllowed(String),
}

/// Why the database could not be opened. Each message says what happened and what to do; `at`
/// is the address without its password.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// Nothing accepts connections at the address.
    #[error(
        "nothing is listening at {at}: PostgreSQL is not running there. Start it (e.g. `sudo systemctl start \
         postgresql`), or set DATABASE_URL in .env to the server you use (README: The database)"
    )]
    NotListening {
        /// The address.
        at: String,
    },
    /// Something accepted the connection but did not answer in time.
    #[error(
        "the database at {at} did not answer within {secs} s: check that the host and port in DATABASE_URL are \
         PostgreSQL's and that no firewall holds the connection"
    )]
    TimedOut {
        /// The address.
        at: String,
        /// How long it was given.
        secs: u64,
    },
    /// The server answered and refused the login.
    #[error("{}", login_refused(at, role, reason))]
    LoginRefused {
        /// The address.
        at: String,
        /// The role that tried.
        role: String,
        /// Why.
        reason: Refusal,
    },
    /// The database does not exist, and the role may not create it.
    #[error(
        "PostgreSQL at {at} has no database \"{database}\", and role \"{role}\" may not create it: create it with \
         `sudo -u postgres createdb -O {role} {database}`, or let the role create databases with \
         `sudo -u postgres psql -c 'ALTER ROLE \"{role}\" CREATEDB'`"
    )]
    NoSuchDatabase {
        /// The address.
        at: String,
        /// The database's name.
        database: String,
        /// The role that tried.
        role: String,
    },
    /// Anything else (a migration, TLS, a malformed address).
    #[error("could not open the database at {at}: {source}")]
    Other {
        /// The address.
        at: String,
        /// What went wrong.
        source: StoreError,
    },
}

fn login_refused(at: &str, role: &str, reason: &Refusal) -> String {
    match reason {
        Refusal::NoSuchRole => format!(
            "PostgreSQL at {at} has no role \"{role}\": create it with `sudo -u postgres createuser --createdb \
             {role}`, or put a role that exists in DATABASE_URL (postgres://ROLE:PASSWORD@HOST:PORT/settai)"
        ),
        Refusal::WrongPassword => format!(
            "PostgreSQL at {at} refused the password of role \"{role}\": put the right one in DATABASE_URL \
             (postgres://{role}:PASSWORD@HOST:PORT/settai), or set a new one with `sudo -u postgres psql -c \
             \"ALTER ROLE \\\"{role}\\\" PASSWORD 'NEW'\"`"
        ),
        Refusal::NotAllowed(said) => format!(
            "PostgreSQL at {at} does not let role \"{role}\" in ({said}): allow it in the server's pg_hba.conf, or \
             set DATABASE_URL to a role and address it allows"
        ),
    }
}

/// What went wrong, by kind, from the driver's error.
fn classify(error: sqlx::Error, at: &str, role: &str, database: &str, secs: u64) -> OpenError {
    let at = at.to_string();
    if let sqlx::Error::Io(io) = &error {
        use std::io::ErrorKind;
        // A TCP port nobody listens on refuses; a Unix socket nobody listens on is missing.
        if matches!(io.kind(), ErrorKind::ConnectionRefused | ErrorKind::NotFound) {
            return OpenError::NotListening { at };
        }
        if io.kind() == ErrorKind::TimedOut {
            return OpenError::TimedOut { at, secs };
        }
    }
    if matches!(error, sqlx::Error::PoolTimedOut) {
        return OpenError::TimedOut { at, secs };
    }
    if let sqlx::Error::Database(db) = &error {
        // PostgreSQL's error codes (its manual's appendix A): 28P01 invalid_password, 28000
        // invalid_authorization_specification, 3D000 invalid_catalog_name, 42501
        // insufficient_privilege.
        let reason = match db.code().as_deref() {
            Some("28P01") => Some(Refusal::WrongPassword),
            Some("28000") if db.message().contains("does not exist") => Some(Refusal::NoSuchRole),
            Some("28000") => Some(Refusal::NotAllowed(db.message().to_string())),
            Some("3D000" | "42501") => {
                return OpenError::NoSuchDatabase { at, database: database.to_string(), role: role.to_string() }
            }
            _ => None,
        };
        if let Some(reason) = reason {
            return OpenError::LoginRefused { at, role: role.to_string(), reason };
        }
    }
    OpenError::Other { at, source: StoreError::Database(error) }
}

impl Store {
    /// Opens the database at `url` for serving: connects (within `within`), creates the
    /// database when it is missing and the role may, and applies the migrations. A failure
    /// says what happened and what to do ([`OpenError`]).
    pub async fn open(url: &str, within: Duration) -> Result<Store, OpenError> {
        let secs = within.as_secs();
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| OpenError::Other { at: "DATABASE_URL".to_string(), source: StoreError::Database(e) })?;
        let role = options.get_username().to_string();
        let database = options.get_database().unwrap_or(&role).to_string();
        // The address as said in messages: never the password.
        let host = match options.get_socket() {
            Some(folder) => folder.display().to_string(),
            None => format!("{}:{}", options.get_host(), options.get_port()),
        };
        let at = format!("postgres://{role}@{host}/{database}");
        let opening = async {
            // One connection first, to the database itself: its failure is the clearest.
            match PgConnection::connect_with(&options).await {
                Ok(connection) => drop(connection),
                Err(sqlx::Error::Database(db)) if db.code().as_deref() == Some("3D000") => {
                    tracing::info!("creating database {database}");
                    Postgres::create_database(url).await?;
                }
                Err(e) => return Err(e),
            }
            PgPoolOptions::new()
                .max_connections(16)
                // A dead database should fail a request within seconds, not hang it; a busy pool
                // (a burst of players) only delays it: the interaction is acknowledged meanwhile.
                .acquire_timeout(Duration::from_secs(5))
                .connect_with(options.clone())
                .await
        };
        let pool = match tokio::time::timeout(within, opening).await {
            Ok(Ok(pool)) => pool,
            Ok(Err(e)) => return Err(classify(e, &at, &role, &database, secs)),
            Err(_) => return Err(OpenError::TimedOut { at, secs }),
        };
        let store = Store { pool };
        store.migrate().await.map_err(|source| OpenError::Other { at, source })?;
        Ok(store)
    }
}
