//! What a bench run through the Discord stand-in must show to pass, shared by `soak.rs` and
//! `load.rs` (docs/design/operations.md#the-soak, docs/design/bot-reliability.md#load): each
//! bench gathers its [`verdict::Findings`] and ends with [`verdict::conclude`], which fails the
//! run (a non-zero exit) on anything that must not happen. The judging is pure (the database
//! read of the stored moves and the printing of the verdict aside) and unit-tested by
//! `tests/bench_checks.rs`, which includes these files.
#![allow(dead_code)]

pub mod boards;
pub mod creep;
pub mod moves;
pub mod slope;
pub mod student;
pub mod verdict;
