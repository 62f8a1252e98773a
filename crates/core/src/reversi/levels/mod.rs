//! The reversi levels the bot plays at. Imports the rules and the engine.
//!
//! - [`level`]: the levels behind [`choose_at_level`](level::choose_at_level) (`standard`, `highest`,
//!   `none`, and `standard-classic`, `standard` as the original article publishes it (docs/design/reversi-sontaku.md)), the strong level's own
//!   move choice, and the bot's engine per thread.
//! - [`sontaku`]: the objectives and move choice of the sontaku (接待) levels
//!   (docs/design/reversi-sontaku.md); [`strength`]: how well the human plays, judged from
//!   their moves (docs/design/reversi-strength.md); [`handover`]: how `standard` hands a
//!   trusted human the lead in the endgame (docs/design/reversi-handover.md).

pub(crate) mod handover;
pub(crate) mod level;
pub(crate) mod sontaku;
pub mod strength;
