//! Taps on the board of buttons (docs/design/touch.md): choosing an animal lights its squares
//! in place, a lit square or a number plays the move as the menus do, and the list button shows
//! the menus privately. Every tap passes the checks a menu move passes (whose game, whose turn,
//! an old board) before anything is shown or stored.

use serenity::all::MessageId;

use super::custom_id::{ListButton, Tap, TouchButton};
use super::failure::Failure;
use super::flows::play;
use super::menus::move_menus;
use super::message::Reply;
use super::request::Request;
use super::shell::Shell;
use super::touch_board::{touch_board, Chosen};
use crate::i18n::Msg;
use crate::service::{PlayError, Service};

/// A tap on the board of buttons drawn on message `on`.
pub(super) async fn tap(
    shell: &Shell,
    request: &Request<'_>,
    button: TouchButton,
    on: MessageId,
) -> Result<(), Failure> {
    match button.tap {
        Tap::Play(mv) => play(shell, request, &mv, Some((button.game_id, button.ply, on)), true).await,
        Tap::Choose(origin) => choose(shell, request, (button.game_id, button.ply), Some(origin)).await,
        Tap::Cancel => choose(shell, request, (button.game_id, button.ply), None).await,
        // Discord shows these disabled: only a forged or very old client sends one.
        Tap::Idle(_) => Err(Failure::Refused(PlayError::Stale)),
    }
}

/// The same board with `chosen` lit (or nothing chosen): only its buttons change, in
/// place; nothing is stored and the picture is not sent again.
async fn choose(shell: &Shell, request: &Request<'_>, made_for: (i64, u32), chosen: Chosen) -> Result<(), Failure> {
    let (responder, caller, settings, lang) = request.parts();
    let game = Service::game_to_move(caller, &request.snapshot, Some(made_for)).map_err(Failure::Refused)?;
    let rows = touch_board(game, chosen, settings.coach(), lang, &shell.emojis);
    responder.update_components(rows).await?;
    Ok(())
}

/// The list button: the player's moves as menus, with Resign (and Take back where allowed),
/// for their eyes only (docs/design/touch.md#the-list).
pub(super) async fn show_list(request: &Request<'_>, button: ListButton) -> Result<(), Failure> {
    let (responder, caller, settings, lang) = request.parts();
    let made_for = Some((button.game_id, button.ply));
    let game = Service::game_to_move(caller, &request.snapshot, made_for).map_err(Failure::Refused)?;
    let rows = move_menus(game, settings.coach(), lang);
    responder.answer(Reply::private(Msg::MovesAsList.text(lang)).with_components(rows)).await?;
    Ok(())
}
