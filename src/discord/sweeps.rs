//! The owed-turn sweep: games left waiting for the bot's move are answered and their boards
//! posted. A player's move is stored with the bot's answer, so the only turns owed are those of
//! games the bot opens whose first move was never stored (the process stopped, or the turn
//! failed), and of games an older version stored.

use std::time::Duration;

use serenity::all::ChannelId;
use serenity::http::Http;

use super::board_message::{board, narrate};
use super::board_posts::board_posted;
use super::callers::lang_of;
use super::channel_posts::{expected_refusal, post};
use super::shards::ShardRange;
use super::shell::Shell;
use crate::service::PlayError;

/// How often games waiting for the bot's move are looked for while the process runs.
const OWED_TURN_SWEEP: Duration = Duration::from_secs(60);

/// How long the bot must have been to move before a sweep plays the bot's turn itself: longer than
/// any reply takes in its own request (a search waiting behind a full AI backlog included), so
/// the sweep never races a request that is still working.
pub const OWED_TURN_AGE: Duration = Duration::from_secs(120);

/// Pays, forever, the turns of games left waiting for the bot for [`OWED_TURN_AGE`] while
/// this process ran: a bot's opening move that failed (the database blinked) would otherwise
/// wait for a restart. Each look reads only the games the bot is to move in.
///
/// `every`: the idle sweep's period, which a test shortens (the owed turns are looked for at
/// least as often); `shards`: the process's own, whose servers' games it answers.
pub(super) async fn sweep_owed_turns(shell: &Shell, http: &Http, every: Duration, shards: Option<ShardRange>) {
    let mut ticks = tokio::time::interval(every.min(OWED_TURN_SWEEP));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        finish_interrupted_turns(shell, http, &|guild_id| ShardRange::runs(shards, guild_id), OWED_TURN_AGE).await;
    }
}

/// Answers games left waiting for the bot for at least `waiting_for` (the process stopped,
/// or the bot's turn failed, before its opening move was stored) and posts their boards.
pub(super) async fn finish_interrupted_turns(
    shell: &Shell,
    http: &Http,
    ours: &(dyn Fn(Option<u64>) -> bool + Sync),
    waiting_for: Duration,
) {
    let waiting = match shell.service.games_awaiting_bot_for(waiting_for).await {
        Ok(w) => w,
        Err(e) => return tracing::error!(error = %e, "could not look for interrupted games"),
    };
    for record in waiting.into_iter().filter(|r| ours(r.guild_id)) {
        let channel = ChannelId::new(record.channel_id);
        let snapshot = match shell.service.snapshot(&record.place(), None).await {
            Ok(snapshot) => snapshot,
            Err(e) => {
                tracing::error!(error = %e, game = record.id, "could not finish an interrupted game");
                continue;
            }
        };
        let lang = lang_of(Some(&snapshot.settings.place), "");
        // Answered meanwhile (by the player's own request, or another sweep): nothing owed.
        let Some(game) = snapshot.game.filter(|g| g.record.id == record.id && g.record.bot_to_move()) else {
            continue;
        };
        let posted = match shell.service.bot_turn(game).await {
            // In a private channel the bot may not post: the board shows the move the next
            // time a player there asks (docs/design/private-channels.md).
            Ok(_) if record.private_channel => Ok(()),
            Ok(stored) => {
                let lines = narrate(&stored.moves, lang);
                let board = board(shell, &stored.game, stored.last_move(), lines, &snapshot.settings.place, lang).await;
                match post(http, channel, board.channel_message()).await {
                    Ok(posted) => {
                        board_posted(&shell.service, http, &stored.game.record, posted.id, None).await;
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            Err(PlayError::AlreadyPlayed) => Ok(()),
            Err(e) => return tracing::error!(error = %e, "could not finish an interrupted game"),
        };
        match posted {
            Ok(()) => {}
            // The game is stored: the next tap or `/play board` shows it.
            Err(e) if expected_refusal(&e) => {
                tracing::info!(error = %e, channel = %channel, "Discord would not take a recovered board")
            }
            Err(e) => tracing::warn!(error = %e, channel = %channel, "could not post a recovered board"),
        }
    }
}
