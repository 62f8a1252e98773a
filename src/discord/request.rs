//! One interaction as the command flows see it.

use super::reply::Responder;
use crate::domain::{Settings, Snapshot};
use crate::i18n::Lang;
use crate::service::Caller;

/// One player's interaction as the flows see it: where to answer, who asks and where, what the
/// interaction read of its place (once: the settings and the game) and the language of the
/// answer.
pub(super) struct Request<'a> {
    /// Answers the interaction.
    pub responder: &'a Responder,
    /// The player and the channel.
    pub caller: Caller,
    /// The channel's settings and game, as read once for this interaction.
    pub snapshot: Snapshot,
    /// The language of the answer.
    pub lang: Lang,
}

impl<'a> Request<'a> {
    /// Its parts, as the flows use them.
    pub fn parts(&self) -> (&'a Responder, &Caller, &Settings, Lang) {
        (self.responder, &self.caller, &self.snapshot.settings, self.lang)
    }
}
