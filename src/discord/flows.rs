//! The flows of a game on: play a move, post the board it brings, show the board, resign;
//! and the player's own choices (stats, reminders, hints). Plain functions over the
//! [`Shell`] and the request.

use serenity::all::{EditInteractionResponse, MessageId};

use super::board_message::{board, narrate};
use super::board_posts::board_posted;
use super::calls::Failed;
use super::custom_id::ResignButton;
use super::failure::Failure;
use super::message::{allowed_mentions, confirm_row, Reply};
use super::reply::Responder;
use super::request::Request;
use super::shell::Shell;
use super::touch_board::{frozen_board, touch_board};
use crate::domain::GameRecord;
use crate::i18n::Msg;
use crate::service::{PlayError, Service};

/// Plays the player's `input`. `tapped` names the game, the ply and the board message a
/// component was on; `on_board` says it was the board of buttons itself, which then shows
/// the move at once, frozen, while the bot answers (docs/design/touch.md#every-tap-answers-at-once).
pub(super) async fn play(
    shell: &Shell,
    request: &Request<'_>,
    input: &str,
    tapped: Option<(i64, u32, MessageId)>,
    on_board: bool,
) -> Result<(), Failure> {
    let (responder, caller, settings, lang) = request.parts();
    let expected = tapped.map(|(game_id, ply, _)| (game_id, ply));
    let turn = shell.service.human_move(caller, &request.snapshot, input, expected).await.map_err(Failure::Refused)?;
    let frozen = on_board && responder.is_component();
    let board_before = turn.game.clone();
    // The move is played only once its first answer is out (within Discord's window, so
    // the claim on the game is not held past it): a tap whose answer failed changed nothing.
    let answered = if frozen {
        responder.update_components(frozen_board(&turn.game, turn.played.mv, &shell.emojis)).await
    } else {
        responder.defer().await
    };
    if let Err(e) = answered {
        drop(turn);
        if frozen && Failed::of(&e) == Failed::Unknown {
            // Discord may have frozen the board without saying so: it comes back as it was
            // (an edit, refused harmlessly where nothing was frozen).
            let back = touch_board(&board_before, None, settings.coach(), lang, &shell.emojis);
            let back = EditInteractionResponse::new().components(back).allowed_mentions(allowed_mentions(&[]));
            if let Err(e) = responder.edit(back).await {
                tracing::debug!(error = %e, "no board to bring back after a failed first answer");
            }
        }
        return Err(e.into());
    }
    // The bot's turn and the commentary on the player's move are thought out together.
    let played = turn.played.clone();
    let (stored, comment) = tokio::join!(shell.service.finish_turn(turn), async {
        if settings.commentary {
            shell.service.comment(&caller.place(), &played).await
        } else {
            None
        }
    });
    let stored = match stored {
        Ok(stored) => stored,
        Err(e) => {
            if frozen {
                // The frozen board comes back as it was; where another process stored a
                // move first (its board is the one now), it loses its buttons instead.
                let rows = match e {
                    PlayError::AlreadyPlayed => Vec::new(),
                    _ => touch_board(&board_before, None, settings.coach(), lang, &shell.emojis),
                };
                let back = EditInteractionResponse::new().components(rows).allowed_mentions(allowed_mentions(&[]));
                if let Err(e) = responder.edit(back).await {
                    tracing::warn!(error = %e, "could not unfreeze a board");
                }
            }
            // A tap on the same board from another process was stored first: nothing changed.
            return Err(match e {
                PlayError::AlreadyPlayed => Failure::Refused(e),
                e => Failure::Late(e),
            });
        }
    };
    let mut lines = narrate(&stored.moves, lang);
    if let Some(c) = &comment {
        // Right under the player's own move.
        lines.insert(1.min(lines.len()), Msg::Comment(c).text(lang));
    }
    // The coach: the player's own move was risky and the game goes on, where take-backs are
    // allowed: offer the ↩ (docs/design/kind-coach.md).
    if stored.offers_takeback(settings.coach()) {
        lines.push(Msg::OfferTakeback.text(lang));
    }
    let board = board(shell, &stored.game, stored.last_move(), lines, settings, lang).await;
    post_new_board(shell, responder, board, &stored.game.record, tapped.map(|(_, _, m)| m)).await
}

/// In a private channel old boards keep their buttons and menus, and some players have no
/// commands: a tap on an old board there brings the game as it is now
/// (docs/design/private-channels.md#old-boards-and-late-answers). Elsewhere `tapped` stands.
pub(super) async fn or_the_board_now(
    shell: &Shell,
    request: &Request<'_>,
    tapped: Result<(), Failure>,
) -> Result<(), Failure> {
    match tapped {
        Err(Failure::Refused(PlayError::Stale))
            if !request.caller.venue.bot_may_post() && request.snapshot.game.is_some() =>
        {
            show_board(shell, request, Some(Msg::BoardWasOld)).await
        }
        tapped => tapped,
    }
}

/// Posts the board of a changed game. From a component, a new message (it keeps a readable
/// history and notifies the player) goes first: the old board losing its menu (so it cannot
/// be tapped again) is best effort, and a failed edit (the message was deleted) must not
/// hide the stored change. In a lively channel the board tapped shows it instead: one call
/// rather than two of the webhook limit the channel's interactions share
/// (docs/design/bot-reliability.md#rate-limits).
pub(super) async fn post_new_board(
    shell: &Shell,
    responder: &Responder,
    board: Reply,
    record: &GameRecord,
    tapped: Option<MessageId>,
) -> Result<(), Failure> {
    if let Some(tapped) = tapped.filter(|_| responder.is_component() && responder.channel_lively()) {
        tracing::debug!(game = record.id, "a lively channel: the board tapped shows the move");
        match show_on_the_board_tapped(shell, responder, &board, record, tapped).await {
            Ok(()) => return Ok(()),
            // The edit may have shown or not (it is not sent again: it offers moves): the new
            // board is posted as in a quiet channel, which takes the tapped one's buttons off
            // either way.
            Err(e) => tracing::warn!(error = %e, game = record.id, "the board tapped could not show the move; posted"),
        }
    }
    if responder.is_component() {
        let posted = match responder.follow_up_posted(board.follow_up()).await {
            Ok(posted) => posted,
            // Discord may or may not have posted it; a second post could show the board
            // twice. The board tapped becomes the new one instead (an edit, safe to try
            // again), so the game goes on from a board either way
            // (docs/design/bot-reliability.md#when-discord-fails).
            Err(e) => match tapped {
                Some(tapped) if Failed::of(&e) == Failed::Unknown => {
                    tracing::warn!(error = %e, game = record.id, "a board's post failed; the board tapped shows it");
                    show_on_the_board_tapped(shell, responder, &board, record, tapped).await?;
                    return Ok(());
                }
                _ => return Err(e.into()),
            },
        };
        let strip = EditInteractionResponse::new().components(Vec::new()).allowed_mentions(allowed_mentions(&[]));
        if let Err(e) = responder.edit(strip).await {
            tracing::warn!(error = %e, game = record.id, "could not take the menu off the old board");
        }
        board_posted(&shell.service, responder.http(), record, posted, tapped).await;
    } else if let Some(posted) = responder.post(board).await? {
        board_posted(&shell.service, responder.http(), record, posted, None).await;
    }
    Ok(())
}

/// Makes `tapped`, the board a component was on, show `board` (the game's new board), and
/// remembers it as the game's board.
async fn show_on_the_board_tapped(
    shell: &Shell,
    responder: &Responder,
    board: &Reply,
    record: &GameRecord,
    tapped: MessageId,
) -> serenity::Result<()> {
    responder.edit(board.edit()).await?;
    board_posted(&shell.service, responder.http(), record, tapped, Some(tapped)).await;
    Ok(())
}

/// `/play board`, or `first` and then the board: a fresh copy of the game's board.
pub(super) async fn show_board(shell: &Shell, request: &Request<'_>, first: Option<Msg<'_>>) -> Result<(), Failure> {
    let (responder, _, settings, lang) = request.parts();
    let game = Service::game_here(&request.snapshot).map_err(Failure::Refused)?;
    let record = &game.record;
    let mut lines: Vec<String> = first.map(|m| m.text(lang)).into_iter().collect();
    if record.human_to_move() {
        lines.push(Msg::YourMove { human: record.human_id }.text(lang));
    }
    let board = board(shell, game, game.last_move(), lines, settings, lang).await;
    // A fresh board every time: it also brings back a board someone deleted.
    if let Some(posted) = responder.post(board).await? {
        board_posted(&shell.service, responder.http(), record, posted, None).await;
    }
    Ok(())
}

/// The game as it is now, for the tapper's eyes only: its board with its buttons (a child's
/// stale tap, or a tap on the game box while a game is on). Not remembered as the game's
/// board: reminders link to the channel's.
pub(super) async fn show_board_privately(shell: &Shell, request: &Request<'_>) -> Result<(), Failure> {
    let (responder, _, settings, lang) = request.parts();
    let game = Service::game_here(&request.snapshot).map_err(Failure::Refused)?;
    let mut board = board(shell, game, game.last_move(), Vec::new(), settings, lang).await;
    board.ephemeral = true;
    board.mentions.clear();
    // In HTTP mode the answer to Discord's request is the only call that cannot race the
    // answer itself: the buttons go there, without the picture (the channel's board shows it).
    if !responder.first_carries_files() {
        board.files.clear();
    }
    responder.answer(board).await?;
    Ok(())
}

/// `/play resign`: the game ends, its final board posted for everyone.
pub(super) async fn resign(shell: &Shell, request: &Request<'_>) -> Result<(), Failure> {
    let (responder, caller, settings, lang) = request.parts();
    let game = shell.service.resign(caller, &request.snapshot, None).await.map_err(Failure::Refused)?;
    let board = board(shell, &game, None, vec![Msg::Resigned.text(lang)], settings, lang).await;
    responder.answer(board).await?;
    Ok(())
}

/// `/play stats`: the caller's results here, per game, for the channel to see.
pub(super) async fn stats(service: &Service, request: &Request<'_>) -> Result<(), Failure> {
    let (responder, caller, _, lang) = request.parts();
    let results = service.results_of(caller).await.map_err(Failure::Refused)?;
    responder.answer(Reply::public(Msg::Stats { human: caller.user_id, results }.text(lang))).await?;
    Ok(())
}

/// `/play hints on|off`: the player's own choice of the coach's hints, on every server,
/// over the place's (a private answer; docs/design/kind-coach.md#your-own-choice).
pub(super) async fn hints_for_me(service: &Service, request: &Request<'_>, on: bool) -> Result<(), Failure> {
    let (responder, caller, _, lang) = request.parts();
    service.set_hints_choice(caller, Some(on)).await.map_err(Failure::Refused)?;
    responder.answer(Reply::private(Msg::HintsChosen { on }.text(lang))).await?;
    Ok(())
}

/// `/play remind on|off`: the player's own choice, on every server (a private answer).
pub(super) async fn remind_me(service: &Service, request: &Request<'_>, on: bool) -> Result<(), Failure> {
    let (responder, caller, _, lang) = request.parts();
    service.set_reminders_wanted(caller, on).await.map_err(Failure::Refused)?;
    responder.answer(Reply::private(Msg::RemindSet { on }.text(lang))).await?;
    Ok(())
}

/// The board's Resign button asks first (privately); "Yes" resigns that very game and
/// posts the final board for everyone, "Keep playing" just closes the question.
pub(super) async fn resign_button(shell: &Shell, request: &Request<'_>, button: ResignButton) -> Result<(), Failure> {
    let (responder, caller, settings, lang) = request.parts();
    match button {
        ResignButton::Ask { game_id } => {
            // Only the player of that game, while it is on, is asked.
            Service::game_to_resign(caller, &request.snapshot, Some(game_id)).map_err(Failure::Refused)?;
            let buttons = confirm_row(
                (ResignButton::Confirm { game_id }.custom_id(), Msg::ResignYes.text(lang)),
                (ResignButton::Cancel { game_id }.custom_id(), Msg::ResignNo.text(lang)),
            );
            responder.answer(Reply::private(Msg::ResignConfirm.text(lang)).with_components(vec![buttons])).await?;
        }
        ResignButton::Cancel { .. } => {
            responder.update(Reply::public(Msg::KeepPlaying.text(lang))).await?;
        }
        ResignButton::Confirm { game_id } => {
            let game =
                shell.service.resign(caller, &request.snapshot, Some(game_id)).await.map_err(Failure::Refused)?;
            responder.update(Reply::public(Msg::Resigned.text(lang))).await?;
            let board = board(shell, &game, None, vec![Msg::Resigned.text(lang)], settings, lang).await;
            responder.follow_up(board.follow_up()).await?;
        }
    }
    Ok(())
}
