//! A game's board message: remembered once posted (reminders link to it), and the board it
//! replaces stripped of its menu, so that only the newest board offers moves.

use serenity::all::{ChannelId, EditMessage, MessageId};
use serenity::http::Http;

use super::calls::{self, Repeat};
use super::reply::allowed_mentions;
use crate::domain::GameRecord;
use crate::service::Service;

/// Remembers `posted` as the board of `record` (the state it shows) and takes the menu off
/// the board it replaces, best effort (that message may be gone). `tapped`: the board an
/// interaction came from, whose menu the interaction itself takes off.
pub(super) async fn board_posted(
    service: &Service,
    http: &Http,
    record: &GameRecord,
    posted: MessageId,
    tapped: Option<MessageId>,
) {
    match service.set_board_message(record, posted.get()).await {
        Ok(true) => {}
        // The game moved on or ended meanwhile: a newer board is the one.
        Ok(false) => return,
        Err(e) => return tracing::warn!(error = %e, game = record.id, "could not remember a board message"),
    }
    let Some(old) = record.board_message_id.map(MessageId::new) else { return };
    // In a private channel only an interaction's own messages can be edited, through its
    // token: the old board keeps its menu, and a tap on it is refused as an old board.
    if old == posted || Some(old) == tapped || record.private_channel {
        return;
    }
    take_menu_off(http, record, old).await;
}

/// Takes the menu off a board that no longer offers moves: a game's board once a newer one is
/// posted or once the game is closed idle (a child tapping it would be told nothing can be
/// played there). An edit, tried again as every safe call is; a failure is only logged (the
/// board was deleted, say).
pub(super) async fn take_menu_off(http: &Http, record: &GameRecord, board: MessageId) {
    let strip = EditMessage::new().components(Vec::new()).allowed_mentions(allowed_mentions(&[]));
    let channel = ChannelId::new(record.channel_id);
    let stripped = calls::retried("take the menu off an old board", Repeat::Safe, || {
        channel.edit_message(http, board, strip.clone())
    })
    .await;
    if let Err(e) = stripped {
        tracing::debug!(error = %e, game = record.id, "could not take the menu off an old board");
    }
}
