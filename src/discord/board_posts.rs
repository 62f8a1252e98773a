//! A game's board message: remembered once posted (reminders link to it), and the board it
//! replaces stripped of its menu, so that only the newest board offers moves.

use std::time::Duration;

use serenity::all::{ChannelId, EditMessage, MessageId};
use serenity::http::Http;

use super::calls::{self, Repeat};
use super::message::allowed_mentions;
use crate::domain::{BoardRemembered, GameRecord};
use crate::service::Service;

/// Remembers `posted` as the board of `record` (the state it shows) and takes the menu off
/// the board it replaces, best effort (that message may be gone). `tapped`: the board an
/// interaction came from, whose menu the interaction itself takes off.
///
/// Remembering is tried again while the database fails (a busy pool, a blink: the update is
/// guarded by the ply and the board it replaces, so a second try changes nothing twice).
/// Where it still fails, the board it replaces loses its menu all the same: the board just
/// posted is the one a player sees last and taps next, and an old board left offering moves
/// would outlive the game (docs/design/bot-reliability.md#robustness, "Database outage").
/// Where `posted` lost (another board of the game was remembered first, or the game moved on),
/// it is `posted` that loses its menu: only the game's board offers moves.
pub(super) async fn board_posted(
    service: &Service,
    http: &Http,
    record: &GameRecord,
    posted: MessageId,
    tapped: Option<MessageId>,
) {
    let mut pauses = REMEMBER_PAUSES.into_iter();
    loop {
        match service.set_board_message(record, posted.get()).await {
            Ok(BoardRemembered::Yes) => break,
            Ok(BoardRemembered::Lost { now, over }) => {
                // A board of moves is taken off unless it is the game's board still (a later
                // request may have made it the board again); once the game is over, always. A
                // final board offers no moves (only "again"), and keeps it.
                let still_the_board = now == Some(posted.get()) && !over;
                if record.human_to_move() && !still_the_board && !record.private_channel {
                    tracing::debug!(game = record.id, "another board is the game's; this one offers nothing");
                    take_menu_off(http, record, posted).await;
                }
                return;
            }
            Err(e) => match pauses.next() {
                Some(pause) => {
                    tracing::info!(error = %e, game = record.id, "could not remember a board message; trying again");
                    tokio::time::sleep(pause).await;
                }
                None => {
                    tracing::warn!(error = %e, game = record.id, "could not remember a board message");
                    break;
                }
            },
        }
    }
    let Some(old) = record.board_message_id.map(MessageId::new) else { return };
    // In a private channel only an interaction's own messages can be edited, through its
    // token: the old board keeps its menu, and a tap on it is refused as an old board.
    if old == posted || Some(old) == tapped || record.private_channel {
        return;
    }
    take_menu_off(http, record, old).await;
}

/// The pauses before remembering a board is tried again: about 6 s in all, past the pool's
/// 5 s wait for a connection, so a burst of players that fills the pool is ridden out.
const REMEMBER_PAUSES: [Duration; 3] = [Duration::from_millis(250), Duration::from_secs(1), Duration::from_secs(5)];

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
