//! One interaction as the command flows see it, and the one read of its place it starts with.

use super::callers::lang_of;
use super::reply::Responder;
use crate::domain::{Settings, Snapshot};
use crate::i18n::Lang;
use crate::service::{Caller, PlayError, Service};

/// What the interaction of `caller` reads of its place (once: the settings in effect for the
/// caller, the game and the caller's own choices) and the language to answer in (the player's
/// `locale` when nothing could be read; the error is then for the caller to report).
pub(super) async fn read_place(
    service: &Service,
    caller: &Caller,
    locale: &str,
) -> (Result<Snapshot, PlayError>, Lang) {
    let snapshot = service.snapshot_for(caller).await;
    let lang = lang_of(snapshot.as_ref().ok().map(|s| &s.settings.place), locale);
    (snapshot, lang)
}

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
    /// The interaction of `caller`, who reads `snapshot`, answered by `responder` in `lang`.
    pub fn new(responder: &'a Responder, caller: Caller, snapshot: Snapshot, lang: Lang) -> Request<'a> {
        Request { responder, caller, snapshot, lang }
    }

    /// Its parts, as the flows use them: the settings are those the caller plays under
    /// ([`crate::domain::InEffect::reader`]).
    pub fn parts(&self) -> (&'a Responder, &Caller, &Settings, Lang) {
        (self.responder, &self.caller, &self.snapshot.settings.reader, self.lang)
    }
}
