//! What the flows need of the bot, handed to each of them: the game flow and the board's tiles
//! as emojis. The flows are plain functions over it and the request, so none of them calls back
//! into the handler that dispatches to it.

use super::app_emojis::AppEmojis;
use crate::service::Service;

/// The service and the board's emojis: two handles, cheap to clone (the sweeps keep their own).
#[derive(Clone)]
pub(super) struct Shell {
    /// The game flow every request goes through.
    pub service: Service,
    /// The board's tiles as the buttons' emojis, once uploaded (shared with the sweeps).
    pub emojis: AppEmojis,
}
