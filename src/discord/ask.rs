//! One interaction as the command flows see it.

use super::reply::Responder;
use crate::domain::Settings;
use crate::i18n::Lang;
use crate::service::Seat;

/// One player's interaction as the flows see it: where to answer, who asks and where, the
/// settings in effect there (read once per interaction) and the language of the answer.
pub(super) struct Ask<'a> {
    /// Answers the interaction.
    pub responder: &'a Responder,
    /// The player and the channel.
    pub seat: Seat,
    /// The settings of the channel.
    pub settings: Settings,
    /// The language of the answer.
    pub lang: Lang,
}

impl<'a> Ask<'a> {
    /// Its parts, as the flows use them.
    pub fn parts(&self) -> (&'a Responder, &Seat, &Settings, Lang) {
        (self.responder, &self.seat, &self.settings, self.lang)
    }
}
