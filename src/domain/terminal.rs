//! The terminal as a caller: `settai play` keeps its game in the same Postgres as `serve`, under a
//! channel and a player id no Discord snowflake (a timestamp shifted left by 22 bits) can be.
//! `serve`'s sweeps leave that channel alone: nobody there reads Discord messages, and the
//! terminal answers for its own game when it is opened again.

/// The place id of terminal games.
pub const TERMINAL_CHANNEL: u64 = 1;

/// The player id of the person at the terminal.
pub const TERMINAL_PLAYER: u64 = 1;
