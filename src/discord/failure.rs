//! How a request that failed is told to the player, in the way its stage allows, and how it
//! counts: refusals are private and short, a failure after the move was accepted is a private
//! follow-up.

use serenity::all::CreateInteractionResponseFollowup;

use super::message::{allowed_mentions, Reply};
use super::reply::Responder;
use crate::i18n::{Lang, Msg, Needed};
use crate::metrics::Handled;
use crate::service::{PlayError, Service};
use settai_core::MoveError;

/// Where a request failed, which decides how the player hears of it.
pub(super) enum Failure {
    /// Refused before the request changed anything: a private message.
    Refused(PlayError),
    /// Failed after the move was accepted: a private follow-up.
    Late(PlayError),
    /// Discord itself refused our reply; nothing more to tell the player.
    Discord(serenity::Error),
}

impl From<serenity::Error> for Failure {
    fn from(e: serenity::Error) -> Self {
        Failure::Discord(e)
    }
}

/// Answers with a private text (a refusal).
pub(super) async fn answer_privately(responder: &Responder, text: String) -> Handled {
    if let Err(e) = responder.answer(Reply::private(text)).await {
        tracing::warn!(error = %e, "could not answer an interaction");
        return Handled::Error;
    }
    Handled::Refused
}

/// Refuses privately, naming the permissions the bot lacks here.
pub(super) async fn refuse_missing(responder: &Responder, needed: &[Needed], lang: Lang) -> Handled {
    answer_privately(responder, Msg::MissingPermissions { needed }.text(lang)).await
}

/// How a request that failed with `e` counts: an error when the database or the AI failed
/// (the database's are counted apart too, in `service`'s figures), else `otherwise`.
pub(super) fn counted(service: &Service, e: &PlayError, otherwise: Handled) -> Handled {
    match e {
        PlayError::Store(_) => {
            service.figures().database_error();
            Handled::Error
        }
        PlayError::Ai(_) => Handled::Error,
        _ => otherwise,
    }
}

/// Tells the player about a failure in the way its stage allows; how the request ended.
pub(super) async fn report(
    service: &Service,
    responder: &Responder,
    ended: Result<(), Failure>,
    lang: Lang,
) -> Handled {
    let counted = match &ended {
        Ok(()) => Handled::Ok,
        Err(Failure::Refused(e)) => counted(service, e, Handled::Refused),
        Err(Failure::Late(e)) => counted(service, e, Handled::Error),
        Err(Failure::Discord(_)) => Handled::Error,
    };
    let sent = match ended {
        Ok(()) => Ok(()),
        Err(Failure::Refused(e)) => responder.answer(Reply::private(refusal_text(&e, lang))).await,
        Err(Failure::Late(e)) => {
            tracing::error!(error = %e, "request failed after it was acknowledged");
            responder
                .follow_up(
                    CreateInteractionResponseFollowup::new()
                        .content(refusal_text(&e, lang))
                        .allowed_mentions(allowed_mentions(&[]))
                        .ephemeral(true),
                )
                .await
        }
        Err(Failure::Discord(e)) => Err(e),
    };
    if let Err(e) = sent {
        tracing::warn!(error = %e, "could not answer an interaction");
        return Handled::Error;
    }
    counted
}

/// What a refusal tells the player (private, short, friendly).
pub(super) fn refusal_text(e: &PlayError, lang: Lang) -> String {
    match e {
        PlayError::NoGame => Msg::NoGame.text(lang),
        PlayError::ClosedIdle => Msg::ClosedIdle.text(lang),
        PlayError::ChannelBusy => Msg::ChannelBusy.text(lang),
        PlayError::NotYourGame { owner } => Msg::NotYourGame { owner: *owner }.text(lang),
        PlayError::NotYourTurn => Msg::NotYourTurn.text(lang),
        PlayError::Stale => Msg::StaleBoard.text(lang),
        PlayError::AlreadyPlayed => Msg::AlreadyPlayed.text(lang),
        PlayError::BadMove { kind, input, error: MoveError::Syntax(reason), .. } => {
            Msg::BadMove { kind: *kind, input, reason }.text(lang)
        }
        PlayError::BadMove { kind, input, error: MoveError::Illegal(_), legal } => {
            let legal: Vec<String> = legal.iter().map(ToString::to_string).collect();
            Msg::IllegalMove { kind: *kind, input, legal: &legal.join(", ") }.text(lang)
        }
        PlayError::Unavailable { kind, ready_in } => {
            // Whole minutes, rounded up: "about 0 minutes" would promise too much.
            let minutes = ready_in.map(|d| d.as_secs().div_ceil(60).max(1));
            Msg::Unavailable { kind: *kind, minutes }.text(lang)
        }
        PlayError::NoLevelChoice => Msg::NoLevelChoice.text(lang),
        PlayError::TakebackOff => Msg::TakebackOff.text(lang),
        PlayError::NothingToTakeBack => Msg::NothingToTakeBack.text(lang),
        PlayError::Corrupt => Msg::CorruptGame.text(lang),
        PlayError::Busy => Msg::Busy.text(lang),
        PlayError::Ai(e) => {
            tracing::error!(error = %e, "the AI failed");
            Msg::TryAgain.text(lang)
        }
        PlayError::Store(e) => {
            tracing::error!(error = %e, "store failure");
            Msg::TryAgain.text(lang)
        }
    }
}
