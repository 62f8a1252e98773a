//! Test support shared by the integration tests in `tests/*.rs` (each does `mod support;`; the
//! folder test `tests/discord/` does `#[path = "../support/mod.rs"] mod support;`).
//!
//! * [`discord`]: a local stand-in for Discord's gateway WebSocket and REST API, against which
//!   the real serenity client runs (see [`discord::StandIn`]), and [`fixtures`], builders for
//!   interaction payloads that serenity 0.12 accepts: the `discord-stand-in` crate.
//! * [`statements`]: the statements the database runs for each interaction.
//! * [`logs`]: what the bot logs, caught for a test.
#![allow(dead_code, unused_imports)]

// The Discord stand-in, its payloads and the board of buttons read back are a crate of their own
// (`crates/discord-stand-in`), compiled once for every test target; what is here needs the bot's
// crate or the database.
pub use discord_stand_in as discord;
pub use discord_stand_in::{fixtures, touch};
pub mod logs;
pub mod outage;
pub mod screenshot;
pub mod statements;

pub use discord::{Exchange, Incomplete, Reply, ReplyKind, StandIn};

/// The URL of a `#[sqlx::test]`'s own database (on the server of `DATABASE_URL`), for a
/// process the test starts.
pub fn database_url(pool: &sqlx::PgPool) -> String {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL is set for sqlx::test");
    let name = pool.connect_options().get_database().expect("test database name").to_string();
    let (server, _) = base.rsplit_once('/').expect("DATABASE_URL has a database path");
    format!("{server}/{name}")
}
pub use fixtures::Ctx;
