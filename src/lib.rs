//! settai: a Discord bot that plays board games with families and lets children win gracefully.
//!
//! This library is the bot; the game cores are the `settai-core` crate (pure: rules, notation,
//! levels, the reversi engine, the doubutsu table's format), and the lab that measures them is
//! `settai-lab`, which this library never names (ARCHITECTURE.md).
//!
//! Layout: [`domain`] holds the plain data every layer shares (game records, settings);
//! [`store`] keeps games in Postgres; [`table_file`] keeps the doubutsu table on disk;
//! [`service`] is the game flow shared by every front end, reading the doubutsu table through
//! its keeper (which builds it when missing); [`render`] turns positions into PNG images and
//! [`i18n`] into sentences; [`discord`] and [`cli`] are thin shells over the service; [`metrics`]
//! keeps the figures and health checks a host watches.

pub mod cli;
pub mod config;
pub mod discord;
pub mod domain;
pub mod i18n;
pub mod metrics;
pub mod render;
pub mod report;
pub mod service;
pub mod store;
pub mod table_file;
