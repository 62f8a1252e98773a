//! What thinks the bot's moves, kept by the caller between them: the reversi engine and its
//! 32 MiB table, made on first use (a doubutsu reply needs none). Nothing of it is global: a
//! server keeps one per worker thread, a command line one per run.

use crate::reversi::engine::search::Engine;
use crate::reversi::levels::level::TT_BITS;

/// The search state the bot's moves and the commentary reuse (see the module docs).
#[derive(Default)]
pub struct Thinker {
    reversi: Option<Engine>,
}

impl Thinker {
    /// A thinker that has not thought yet (it allocates nothing until a reversi search).
    pub fn new() -> Thinker {
        Thinker::default()
    }

    /// The reversi engine, made on first use. A used engine answers as a fresh one would.
    pub fn reversi(&mut self) -> &mut Engine {
        self.reversi.get_or_insert_with(|| Engine::new(TT_BITS))
    }
}

impl std::fmt::Debug for Thinker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinker").field("reversi", &self.reversi.is_some()).finish()
    }
}
