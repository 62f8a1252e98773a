//! Games waiting for a player, swept every [`super::IDLE_SWEEP`]: games idle past their limit
//! are closed with a notice; a player whose move a game has waited for gets one reminder, and a
//! final notice a day before the game would be closed. What was sent is stored before sending,
//! so a restart or a second process never sends it again; each move starts a new wait.
//!
//! A reminder links to the game's board; when that message is gone (deleted in the channel, or
//! never known), a fresh board goes with the reminder and becomes the game's board.
//!
//! In a private channel the bot may not post (docs/design/private-channels.md): a closed game
//! is closed silently and the reason told to the next player there, and a reminder goes to
//! the player's DM with the bot, where Discord allows it.
//!
//! Every post goes through `channel_posts`: an archived thread is unarchived where the bot may,
//! and a post Discord refuses for the channel's state or the player's choice is given up
//! quietly, counted as sent, the game kept.

use std::time::Duration;

use serenity::all::{ChannelId, CreateMessage, MessageId, UserId};
use serenity::http::Http;

use super::board_message;
use super::board_posts::{board_posted, take_menu_off};
use super::callers::lang_of;
use super::calls::{self, Repeat};
use super::channel_posts::{expected_refusal, post};
use super::failure::counted;
use super::message::allowed_mentions;
use super::shards::ShardRange;
use super::shell::Shell;
use crate::domain::{GameRecord, Nudge, StoredGame};
use crate::i18n::Msg;
use crate::metrics::Handled;
use crate::service::Service;

/// Closes idle games, sends the reminders owed and deletes departed servers' data, every
/// `every`, forever.
/// `shards`: the process's own, whose servers' players it reminds.
pub(super) async fn sweep_waiting_games(shell: &Shell, http: &Http, every: Duration, shards: Option<ShardRange>) {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        // Closing first: a game past its limit gets the closing notice, not a reminder.
        close_idle_games(&shell.service, http).await;
        send_reminders(shell, http, shards).await;
        purge_departed_guilds(&shell.service).await;
    }
}

/// Deletes the data of servers that removed the bot longer ago than the grace period
/// (docs/design/players-data.md#servers-that-leave).
async fn purge_departed_guilds(service: &Service) {
    if let Err(e) = service.purge_departed_guilds().await {
        counted(service, &e, Handled::Error);
        tracing::warn!(error = %e, "could not delete the data of departed servers; will try again");
    }
}

/// Closes games that waited too long for a move and tells their channels.
async fn close_idle_games(service: &Service, http: &Http) {
    let expired = match service.expire_idle().await {
        Ok(e) => e,
        Err(e) => {
            counted(service, &e, Handled::Error);
            return tracing::warn!(error = %e, "could not close idle games; will try again");
        }
    };
    for (record, days) in expired {
        tracing::info!(game = record.id, days, "closed an idle game");
        if record.private_channel {
            continue;
        }
        let lang = lang_of(service.settings(&record.place()).await.ok().as_ref(), "");
        let text = Msg::Expired { human: record.human_id, days }.text(lang);
        // The player hears that their game was closed; nobody else is pinged.
        let message = CreateMessage::new().content(text).allowed_mentions(allowed_mentions(&[record.human_id]));
        match post(http, ChannelId::new(record.channel_id), message).await {
            Ok(_) => {}
            Err(e) if expected_refusal(&e) => {
                tracing::info!(error = %e, channel = record.channel_id, "Discord would not take a closed game's notice")
            }
            Err(e) => tracing::warn!(error = %e, channel = record.channel_id, "could not announce a closed game"),
        }
        if let Some(board) = record.board_message_id {
            take_menu_off(http, &record, MessageId::new(board)).await;
        }
    }
}

/// Sends each reminder and final notice owed now, once.
async fn send_reminders(shell: &Shell, http: &Http, shards: Option<ShardRange>) {
    let owed = match shell.service.owed_nudges().await {
        Ok(o) => o,
        Err(e) => {
            counted(&shell.service, &e, Handled::Error);
            return tracing::warn!(error = %e, "could not look for games to remind of; will try again");
        }
    };
    for (record, nudge) in owed.into_iter().filter(|(r, _)| ShardRange::runs(shards, r.guild_id)) {
        match shell.service.claim_nudge(&record, nudge).await {
            Ok(true) => {}
            // Sent already, or the game moved on since it was read.
            Ok(false) => continue,
            Err(e) => {
                counted(&shell.service, &e, Handled::Error);
                tracing::warn!(error = %e, game = record.id, "could not record a reminder; will try again");
                continue;
            }
        }
        match remind(shell, http, &record, nudge).await {
            Ok(()) => shell.service.figures().reminder_sent(match nudge {
                Nudge::Reminder => "reminder",
                Nudge::FinalNotice { .. } => "final_notice",
            }),
            // Recorded as sent: a channel the bot can no longer post in is not retried forever.
            Err(e) if expected_refusal(&e) => tracing::info!(
                error = %e, game = record.id, channel = record.channel_id, "Discord would not take a reminder; given up"
            ),
            Err(e) => tracing::warn!(
                error = %e, game = record.id, channel = record.channel_id, "could not send a reminder"
            ),
        }
    }
}

/// Posts `nudge` for `record` in its channel, pinging only its player: with a link to the
/// board, or with a fresh board when the old one is gone.
async fn remind(shell: &Shell, http: &Http, record: &GameRecord, nudge: Nudge) -> serenity::Result<()> {
    if record.private_channel {
        return remind_privately(&shell.service, http, record, nudge).await;
    }
    let snapshot = shell.service.snapshot(&record.place(), None).await;
    if let Err(e) = &snapshot {
        tracing::warn!(error = %e, game = record.id, "a reminder without the game's settings and moves");
    }
    let (settings, game) = match snapshot {
        Ok(s) => (Some(s.settings.place), s.game.filter(|g| g.record.id == record.id)),
        Err(_) => (None, None),
    };
    let lang = lang_of(settings.as_ref(), "");
    let channel = ChannelId::new(record.channel_id);
    let board = match record.board_message_id {
        Some(id) if board_is_there(http, channel, MessageId::new(id)).await => Some(id),
        _ => None,
    };
    let link = board.map(|id| message_link(record, id));
    let (human, kind, link) = (record.human_id, record.kind(), link.as_deref());
    let text = match nudge {
        Nudge::Reminder => Msg::Reminder { human, kind, link },
        Nudge::FinalNotice { .. } => Msg::FinalNotice { human, kind, link },
    }
    .text(lang);
    if board.is_some() {
        let message = CreateMessage::new().content(text).allowed_mentions(allowed_mentions(&[human]));
        return post(http, channel, message).await.map(drop);
    }
    // Without its moves (they could not be read) the board shows no last move.
    let game = game.unwrap_or_else(|| StoredGame::new(record.clone()));
    let fresh =
        board_message::board(shell, &game, game.last_move(), vec![text], &settings.unwrap_or_default(), lang).await;
    let posted = post(http, channel, fresh.channel_message()).await?;
    board_posted(&shell.service, http, record, posted.id, None).await;
    Ok(())
}

/// Sends `nudge` for a game of a private channel to its player's DM with the bot, linking
/// to the board (or the conversation) there. Discord refuses a DM to a player who neither
/// installed the app nor shares a server with it; that is the error returned.
async fn remind_privately(service: &Service, http: &Http, record: &GameRecord, nudge: Nudge) -> serenity::Result<()> {
    let lang = lang_of(service.settings(&record.place()).await.ok().as_ref(), "");
    let link = match record.board_message_id {
        Some(id) => message_link(record, id),
        None => format!("https://discord.com/channels/@me/{}", record.channel_id),
    };
    let (human, kind, link) = (record.human_id, record.kind(), Some(link.as_str()));
    let text = match nudge {
        Nudge::Reminder => Msg::Reminder { human, kind, link },
        Nudge::FinalNotice { .. } => Msg::FinalNotice { human, kind, link },
    }
    .text(lang);
    // Opening a DM returns the one already open: safe to try again.
    let dm = calls::retried("open a DM", Repeat::Safe, || UserId::new(human).create_dm_channel(http)).await?;
    let message = CreateMessage::new().content(text).allowed_mentions(allowed_mentions(&[]));
    post(http, dm.id, message).await.map(drop)
}

/// Whether the board message is still in the channel. Only Discord's "Unknown Message" says it
/// is gone; when the bot cannot tell (it may not read the history), the link is given anyway.
async fn board_is_there(http: &Http, channel: ChannelId, message: MessageId) -> bool {
    match http.get_message(channel, message).await {
        Ok(_) => true,
        Err(e) => !is_unknown_message(&e),
    }
}

/// Whether Discord answered "Unknown Message" (the message was deleted).
pub(super) fn is_unknown_message(e: &serenity::Error) -> bool {
    const UNKNOWN_MESSAGE: isize = 10008;
    calls::discord_code(e) == Some(UNKNOWN_MESSAGE)
}

/// The link that opens a message of `record`'s channel in Discord.
fn message_link(record: &GameRecord, message_id: u64) -> String {
    let guild = record.guild_id.map_or_else(|| "@me".to_string(), |g| g.to_string());
    format!("https://discord.com/channels/{guild}/{}/{message_id}", record.channel_id)
}
