//! Take-backs (待った): `/play takeback` or the button under a board undoes the player's last
//! move and the bot's move after it, where a server allows it, and posts the board as it was then.

use serenity::all::MessageId;

use super::board_message::board;
use super::failure::Failure;
use super::flows::post_new_board;
use super::request::Request;
use super::shell::Shell;
use crate::i18n::Msg;

/// Takes the player's last move back; `tapped` names the board whose button was pressed
/// (its game, its ply and its message).
pub(super) async fn take_back(
    shell: &Shell,
    request: &Request<'_>,
    tapped: Option<(i64, u32, MessageId)>,
) -> Result<(), Failure> {
    let (responder, caller, settings, lang) = request.parts();
    let expected = tapped.map(|(game_id, ply, _)| (game_id, ply));
    let game = shell.service.take_back(caller, &request.snapshot, expected).await.map_err(Failure::Refused)?;
    responder.defer().await?;
    let board = board(shell, &game, game.last_move(), vec![Msg::TookBack.text(lang)], settings, lang).await;
    post_new_board(shell, responder, board, &game.record, tapped.map(|(_, _, m)| m)).await
}
