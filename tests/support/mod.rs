//! Test support shared by the integration tests in `tests/*.rs` (each does `mod support;`; the
//! folder test `tests/discord/` does `#[path = "../support/mod.rs"] mod support;`).
//!
//! * [`discord`]: a local stand-in for Discord's gateway WebSocket and REST API, against which
//!   the real serenity client runs (see [`discord::StandIn`]).
//! * [`fixtures`]: builders for interaction payloads that serenity 0.12 accepts.
#![allow(dead_code, unused_imports)]

pub mod discord;
pub mod fixtures;
pub mod outage;
pub mod screenshot;

pub use discord::{Exchange, Incomplete, Reply, ReplyKind, StandIn};
pub use fixtures::Ctx;
