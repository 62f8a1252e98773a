//! settai's game cores: pure game logic (no I/O, no async), and the small game-agnostic
//! vocabulary the bot uses.
//!
//! Each game lives in its own folder ([`reversi`], by stage: rules, engine, levels;
//! [`doubutsu`]: rules, notation, the exact table and the players). [`Game`] wraps either of
//! them behind one vocabulary: legal moves as typed [`GameMove`]s, play, outcome, the bot's
//! reply and a stable text serialization for the database; [`Level`] is a level of either game.
//! The kind coach's rules ([`moves_in_order`], [`offers_takeback`]) are here too, so that the bot
//! and the benchmark's coached child follow the same ones, and the bot's coach with its switches
//! ([`Coach`]).

// The crate's face is chosen: its modules are private but for the two games' namespaces, and
// what callers use is re-exported below (and in `reversi`, `doubutsu`, `doubutsu::table`), so a
// `pub` that no caller can reach is a mistake the compiler points out.
#![cfg_attr(not(test), warn(unreachable_pub))]

pub mod doubutsu;
pub mod reversi;

mod coach;
mod commentary;
mod game;
mod game_move;
mod huge_pages;
mod kind;
mod level;
mod level_name;
mod outcome;
mod replay;
mod side;
mod story;
mod thinker;
mod touch;

#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod tests;

pub use coach::{
    doubutsu_moves_in_order, doubutsu_offers_takeback, marks_risky, moves_in_order, offers_takeback, Coach,
};
pub use commentary::{commentary, Commentary, COMMENTARY_BUDGET};
pub use game::{human_moves, AiError, DecodeError, DoubutsuGame, Game, MoveDetail, StoredPosition, REVERSI_DEPTH};
pub use game_move::{GameMove, MoveError};
pub use kind::{GameKind, UnknownGame};
pub use level::Level;
pub use level_name::UnknownLevel;
pub use outcome::{EndReason, Outcome};
pub use replay::{replay, replay_moves, Line, LinePosition, ReplayError};
pub use side::Side;
pub use story::{story, Moment, Story, ValueUnit};
pub use thinker::Thinker;
pub use touch::{moves_from, numbered_moves, origins, Origin, ParseOriginError};
