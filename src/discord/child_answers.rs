//! How a tap of a child's is answered when it cannot do what it asked: never with a sentence
//! (docs/design/touch.md#no-sentence-to-read). An answer to a child's tap is one of three
//! things: the tapped board, updated; a board message; or a private message with no letters
//! but names and numerals.

use serenity::all::CreateInteractionResponseFollowup;

use super::failure::{counted, Failure};
use super::flows::show_board_privately;
use super::game_box::box_rows;
use super::message::{allowed_mentions, Reply};
use super::reply::Responder;
use super::request::Request;
use super::shell::Shell;
use crate::metrics::Handled;
use crate::service::PlayError;

/// What a child sees of a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ChildAnswer {
    /// Nothing changes and nobody is told off: a move of this game is on its way (the board
    /// shows it), or a sibling's tap was first.
    Quiet,
    /// The game as it is now, privately: its board, with its buttons.
    BoardNow,
    /// The game box, privately: no game is on here any more.
    GameBox,
    /// A private sign with no letters but a name.
    Sign(String),
}

/// The sign of a wait: the bot cannot think about this now, or its table is being built.
pub(super) const WAIT: &str = "⏳";
/// The sign of something broken on the bot's side; the 🔁 says "try again".
pub(super) const BROKEN: &str = "😵 🔁";

/// What a child hears of `e`, where a game is on (`game_on`) or not.
pub(super) fn child_answer(e: &PlayError, game_on: bool) -> ChildAnswer {
    let the_game_now = if game_on { ChildAnswer::BoardNow } else { ChildAnswer::GameBox };
    match e {
        PlayError::AlreadyPlayed | PlayError::NotYourTurn => ChildAnswer::Quiet,
        // Whose game it is, by name: the hand says "not for you".
        PlayError::NotYourGame { owner } => ChildAnswer::Sign(format!("✋ <@{owner}>")),
        PlayError::Busy | PlayError::Unavailable { .. } => ChildAnswer::Sign(WAIT.to_string()),
        PlayError::Corrupt | PlayError::Store(_) | PlayError::Ai(_) => ChildAnswer::Sign(BROKEN.to_string()),
        PlayError::Stale
        | PlayError::BadMove { .. }
        | PlayError::ChannelBusy
        | PlayError::NoGame
        | PlayError::ClosedIdle
        | PlayError::NoLevelChoice
        | PlayError::TakebackOff
        | PlayError::NothingToTakeBack => the_game_now,
    }
}

/// Tells a child how their tap ended (see the module docs) and how it counts, as
/// [`super::failure::report`] does for words. `request` is `None` when the place could not be read.
pub(super) async fn report_to_child(
    shell: &Shell,
    responder: &Responder,
    request: Option<&Request<'_>>,
    ended: Result<(), Failure>,
) -> Handled {
    let (counted, sent) = match ended {
        Ok(()) => (Handled::Ok, Ok(())),
        Err(Failure::Discord(e)) => (Handled::Error, Err(e)),
        Err(Failure::Refused(e)) => {
            let counted = counted(&shell.service, &e, Handled::Refused);
            let game_on = request.is_some_and(|r| r.snapshot.game.is_some());
            (counted, show_child(shell, responder, request, child_answer(&e, game_on)).await)
        }
        Err(Failure::Late(e)) => {
            tracing::error!(error = %e, "a child's tap failed after it was acknowledged");
            let sign = CreateInteractionResponseFollowup::new()
                .content(BROKEN)
                .allowed_mentions(allowed_mentions(&[]))
                .ephemeral(true);
            (counted(&shell.service, &e, Handled::Error), responder.follow_up(sign).await)
        }
    };
    if let Err(e) = sent {
        tracing::warn!(error = %e, "could not answer a child's tap");
        return Handled::Error;
    }
    counted
}

/// Shows `answer` for the tap `responder` answers.
async fn show_child(
    shell: &Shell,
    responder: &Responder,
    request: Option<&Request<'_>>,
    answer: ChildAnswer,
) -> serenity::Result<()> {
    match (answer, request) {
        (ChildAnswer::BoardNow, Some(request)) => match show_board_privately(shell, request).await {
            Ok(()) => Ok(()),
            Err(Failure::Discord(e)) => Err(e),
            // The game went between the read and now: the box, then.
            Err(_) => show_box_privately(request).await,
        },
        (ChildAnswer::GameBox, Some(request)) => show_box_privately(request).await,
        (ChildAnswer::Sign(sign), _) => responder.answer(Reply::private(sign)).await,
        (ChildAnswer::Quiet | ChildAnswer::BoardNow | ChildAnswer::GameBox, _) => responder.defer().await,
    }
}

/// The game box, for the tapper's eyes only: a picture to tap, no sentence.
async fn show_box_privately(request: &Request<'_>) -> serenity::Result<()> {
    let (responder, _, settings, lang) = request.parts();
    responder.answer(Reply::private("🎲").with_components(box_rows(settings, lang))).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use settai_core::GameKind;

    /// No sign a child is shown has a letter in it, in any script: only pictures, numerals
    /// and a mention (a name).
    #[test]
    fn signs_have_no_letters() {
        let errors = [
            PlayError::AlreadyPlayed,
            PlayError::NotYourGame { owner: 42 },
            PlayError::Busy,
            PlayError::Unavailable { kind: GameKind::Doubutsu, ready_in: None },
            PlayError::Corrupt,
            PlayError::Stale,
        ];
        for e in errors {
            if let ChildAnswer::Sign(sign) = child_answer(&e, true) {
                let bare = sign.replace("<@42>", "");
                assert!(!bare.chars().any(char::is_alphabetic), "{e:?}: {sign:?}");
            }
        }
        assert_eq!(child_answer(&PlayError::Stale, true), ChildAnswer::BoardNow);
        assert_eq!(child_answer(&PlayError::Stale, false), ChildAnswer::GameBox);
        assert_eq!(child_answer(&PlayError::AlreadyPlayed, true), ChildAnswer::Quiet);
    }
}
