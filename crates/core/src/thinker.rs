//! What thinks the bot's moves, kept by the caller between them: the reversi engine and its
//! 32 MiB table, and the pattern evaluation it searches with, made on first use (a doubutsu reply
//! needs neither), timed by the wall clock the caller hands in. Nothing of it is global: a server
//! keeps one per worker thread, a command line one per run.

use std::time::Instant;

use crate::reversi::engine::eval::PatternEval;
use crate::reversi::engine::search::{Clock, Engine};
use crate::reversi::levels::level::TT_BITS;

/// The search state the bot's moves and the commentary reuse (see the module docs).
pub struct Thinker {
    wall: fn() -> Instant,
    reversi: Option<Engine>,
    eval: Option<PatternEval>,
}

impl Thinker {
    /// A thinker that has not thought yet (it allocates nothing until a reversi search), whose
    /// searches read the wall clock through `wall` (the bot hands `Instant::now`).
    pub fn new(wall: fn() -> Instant) -> Thinker {
        Thinker { wall, reversi: None, eval: None }
    }

    /// The reversi engine, on the wall clock, and the evaluation it searches with, made on
    /// first use. A used engine answers as a fresh one would.
    pub fn reversi(&mut self) -> (&mut Engine, &PatternEval) {
        let wall = self.wall;
        let engine = self.reversi.get_or_insert_with(|| Engine::new(TT_BITS).with_clock(Clock::Wall(wall)));
        (engine, self.eval.get_or_insert_with(PatternEval::builtin))
    }

    /// The reversi pattern evaluation, decoded on first use (without making the engine).
    pub fn evaluation(&mut self) -> &PatternEval {
        self.eval.get_or_insert_with(PatternEval::builtin)
    }
}

impl std::fmt::Debug for Thinker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinker").field("reversi", &self.reversi.is_some()).finish()
    }
}
