//! settai: a Discord bot that plays board games with families and lets children win gracefully.
//!
//! Layout: pure game logic lives in [`games`] (no I/O, no async); [`render`] turns positions into
//! PNG images; [`hospitality`] measures how the levels treat guests of every strength;
//! [`domain`] holds the plain data every layer shares (game records, settings);
//! [`store`] keeps games in Postgres; [`service`] is the game flow shared by every
//! front end, reading the doubutsu table through its keeper (which builds it when missing); [`discord`] and [`cli`] are thin shells over it; [`journal`] keeps long benchmark runs across sessions.

pub mod cli;
pub mod config;
pub mod cpu_clock;
pub mod discord;
pub mod domain;
pub mod games;
pub mod hospitality;
pub mod i18n;
pub mod journal;
pub mod render;
pub mod report;
pub mod service;
pub mod store;
