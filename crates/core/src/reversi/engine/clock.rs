//! Where an engine reads the time its deadlines are measured against: the caller's wall clock,
//! or a clock of nodes searched that makes a search reproducible on any machine.

use std::time::Instant;

/// What one exact endgame-solver node costs on the project's machine, in nanoseconds: the
/// `end_ns` of every calibrated node clock. 50 until 2026-12-02, when the solver's cheap
/// last-eight-empties nodes made its nodes 0.54 times as costly
/// (docs/design/reversi-engine.md#the-search-searchrs-rootrs-ttrs).
pub const END_NODE_NS: f64 = 27.0;

/// Where an engine reads the time that its deadlines are measured against: always the caller's
/// to give, since the core reads no clock of its own (ARCHITECTURE.md, "Pure cores").
#[derive(Debug, Clone, Copy)]
pub enum Clock {
    /// The wall clock, read by the function the caller hands in (the bot hands `Instant::now`):
    /// a reply takes its budget whatever the machine.
    Wall(fn() -> Instant),
    /// A clock that advances by a fixed time per node searched, at one rate for midgame and
    /// sontaku nodes and another for exact endgame nodes: searches become reproducible and
    /// independent of the machine and its load. The hospitality benchmark uses it, calibrated
    /// on the project's machine, so that its games can be replayed from their seed.
    Nodes {
        /// Nanoseconds per midgame (or sontaku) node.
        mid_ns: f64,
        /// Nanoseconds per endgame-solver node.
        end_ns: f64,
    },
}

impl PartialEq for Clock {
    fn eq(&self, other: &Clock) -> bool {
        match (self, other) {
            (Clock::Wall(a), Clock::Wall(b)) => std::ptr::fn_addr_eq(*a, *b),
            (Clock::Nodes { mid_ns: a, end_ns: b }, Clock::Nodes { mid_ns: c, end_ns: d }) => a == c && b == d,
            _ => false,
        }
    }
}

/// An engine's clock as it runs: none until the caller hands one in, the wall clock with the
/// time it was handed in, or the node clock.
#[derive(Clone, Copy)]
pub(super) enum Timer {
    None,
    Wall { read: fn() -> Instant, started: Instant },
    Nodes { mid_ns: f64, end_ns: f64 },
}
