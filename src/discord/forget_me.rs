//! `/play forget-me`: a player erases what settai keeps about them, after a private question
//! that names it (docs/design/players-data.md#forget-me). Private from start to end: nothing is
//! posted in the channel, so it works wherever the player can use the command.

use super::custom_id::ForgetButton;
use super::failure::Failure;
use super::message::{confirm_row, Reply};
use super::request::Request;
use crate::i18n::Msg;
use crate::service::{PlayError, Service};

/// Asks the player, privately, whether to erase what is kept about them, naming it.
pub(super) async fn forget_me(service: &Service, request: &Request<'_>) -> Result<(), Failure> {
    let (responder, caller, _, lang) = request.parts();
    let counts = service.data_counts(caller.user_id).await.map_err(Failure::Refused)?;
    if counts.is_empty() {
        responder.answer(Reply::private(Msg::NothingKept.text(lang))).await?;
        return Ok(());
    }
    let user_id = caller.user_id;
    let buttons = confirm_row(
        (ForgetButton::Erase { user_id }.custom_id(), Msg::EraseButton.text(lang)),
        (ForgetButton::Keep { user_id }.custom_id(), Msg::KeepButton.text(lang)),
    );
    let question = Msg::ForgetQuestion { counts: &counts }.text(lang);
    responder.answer(Reply::private(question).with_components(vec![buttons])).await?;
    Ok(())
}

/// The answer to the question: erase, or keep. Only the player asked may answer (the
/// question is private, but a button's id can be sent by anyone).
pub(super) async fn forget_button(
    service: &Service,
    request: &Request<'_>,
    button: ForgetButton,
) -> Result<(), Failure> {
    let (responder, caller, _, lang) = request.parts();
    if button.user_id() != caller.user_id {
        return Err(Failure::Refused(PlayError::Stale));
    }
    let text = match button {
        ForgetButton::Keep { .. } => Msg::Kept.text(lang),
        ForgetButton::Erase { user_id } => {
            let done = service.forget_player(user_id).await.map_err(Failure::Refused)?;
            Msg::Forgotten { done: &done }.text(lang)
        }
    };
    // The question's message becomes the answer, its buttons gone: it cannot be pressed twice.
    responder.update(Reply::public(text)).await?;
    Ok(())
}
