//! Board messages: the text, the board image (after a game, its replay and chart) and the board of
//! buttons under it.

use super::app_emojis::AppEmojis;
use super::game_box::final_rows;
use super::message::Reply;
use super::shell::Shell;
use super::touch_board::touch_board;
use crate::domain::{GameRecord, GameResult, GameStatus, PlayedMove, Settings, StoredGame};
use crate::i18n::{Lang, Msg};
use crate::render;
use settai_core::Story;
use settai_core::{Line, Side};
use std::sync::Arc;

/// The board message for `game` (`last`: the move to mark), rendered on the blocking pool; a finished game also gets
/// its replay and, with the commentary on, its chart and summary; where take-backs are
/// allowed, a game on gets the button.
pub(super) async fn board(
    shell: &Shell,
    game: &StoredGame,
    last: Option<&PlayedMove>,
    lines: Vec<String>,
    settings: &Settings,
    lang: Lang,
) -> Reply {
    let commentary = settings.commentary;
    let review = if game.record.status == GameStatus::Active {
        None
    } else {
        // The game's positions, computed once, for its story and every size of its replay
        // (docs/design/storage.md#the-end-of-a-game).
        match Line::new(&game.record.game.initial(), &game.history()) {
            Ok(line) => {
                let line = Arc::new(line);
                let story = if commentary { shell.service.story(game, line.clone()).await } else { None };
                Some(Review { line, story })
            }
            Err(e) => {
                tracing::warn!(game = game.record.id, error = %e, "could not replay a finished game");
                None
            }
        }
    };
    let (frame, banner) = board_frame(game, lines, settings, lang, &shell.emojis);
    let (game, last) = (game.clone(), last.cloned());
    with_pictures(frame, lang, move |reply| draw_pictures(&game, last.as_ref(), banner.as_deref(), review, lang, reply))
        .await
}

/// `frame` with the pictures `draw` adds, drawn on the blocking pool. Drawing that panics leaves
/// the text and the buttons, with a line saying the picture is missing, so the player can still
/// move (docs/design/bot-reliability.md#robustness).
async fn with_pictures(frame: Reply, lang: Lang, draw: impl FnOnce(&mut Reply) + Send + 'static) -> Reply {
    let mut drawn = frame.clone();
    match tokio::task::spawn_blocking(move || {
        draw(&mut drawn);
        drawn
    })
    .await
    {
        Ok(reply) => reply,
        Err(e) => {
            tracing::error!(error = %e, "drawing a board panicked; the board goes out without its picture");
            let mut reply = frame;
            reply.content = format!("{}\n{}", reply.content, Msg::PictureMissing.text(lang));
            reply
        }
    }
}

/// One line per move made by a request, then whose turn it is or how the game ended.
pub(super) fn narrate(moves: &[PlayedMove], lang: Lang) -> Vec<String> {
    moves
        .iter()
        .map(|m| match (m.by_bot, m.mv) {
            (true, mv) => Msg::BotPlayed { mv }.text(lang),
            (false, mv) if mv.is_pass() => Msg::YouPassed.text(lang),
            (false, mv) => Msg::YouPlayed { mv }.text(lang),
        })
        .collect()
}

/// What a finished game's message adds: its moves for the replay and, with commentary on,
/// its story for the chart.
struct Review {
    line: Arc<Line>,
    story: Option<Story>,
}

/// The seats as the images name them: the player who started the game, and the computer.
fn seat_names(record: &GameRecord, lang: Lang) -> render::Names {
    let (human, bot) = (record.human_name.clone(), Msg::Computer.text(lang));
    let names = match record.human_side {
        Side::First => render::Names::new(human, bot),
        Side::Second => render::Names::new(bot, human),
    };
    names.with_human(record.human_side)
}

/// The board message for `game` without its pictures: the text (how it ended, the coach's word,
/// whose move it is), the board of buttons (once the game is over, its wordless sign, "again"
/// and the game box) and who may be pinged; and the result banner the pictures carry.
fn board_frame(
    game: &StoredGame,
    mut lines: Vec<String>,
    settings: &Settings,
    lang: Lang,
    emojis: &AppEmojis,
) -> (Reply, Option<String>) {
    let record = &game.record;
    let banner = match (record.status, record.result) {
        (GameStatus::Active, _) => None,
        (_, result) => {
            let human_won = match result {
                Some(GameResult::Human) => Some(true),
                Some(GameResult::Bot) => Some(false),
                _ => None,
            };
            let outcome = (record.status == GameStatus::Finished).then(|| record.game.outcome()).flatten();
            let text =
                Msg::GameOver { human_won, score: outcome.and_then(|o| o.score), reason: outcome.map(|o| o.reason) }
                    .text(lang);
            if record.status == GameStatus::Finished {
                lines.push(text.clone());
            }
            Some(text)
        }
    };
    // The coach speaks of the player's own lion, on their turn only.
    if settings.coach().warns_lion_in_danger(&record.game, record.human_to_move()) {
        lines.push(Msg::LionInDanger.text(lang));
    }
    if record.human_to_move() && !lines.iter().any(|l| l.contains(&format!("<@{}>", record.human_id))) {
        lines.push(Msg::YourMove { human: record.human_id }.text(lang));
    }
    // Only the player whose turn it is may be pinged.
    let mentions = if record.human_to_move() { vec![record.human_id] } else { Vec::new() };
    let reply = Reply {
        content: lines.join("\n"),
        ephemeral: false,
        files: Vec::new(),
        components: match record.status {
            GameStatus::Active => touch_board(game, None, settings.coach(), lang, emojis),
            _ => final_rows(record, settings, lang),
        },
        mentions,
    };
    (reply, banner)
}

/// Adds `game`'s pictures to `reply`: the board PNG and, once the game is over, its replay and
/// (with its story) the chart, each with its line.
fn draw_pictures(
    game: &StoredGame,
    last: Option<&PlayedMove>,
    banner: Option<&str>,
    review: Option<Review>,
    lang: Lang,
    reply: &mut Reply,
) {
    let record = &game.record;
    let names = seat_names(record, lang);
    let png = render::game_png_to_tap(&record.game, last.map(|m| (&m.before, m.mv)), lang, banner, &names);
    reply.files.push(("board.png", png));
    let mut lines = Vec::new();
    if let Some(review) = review {
        match render::replay::replay_gif(&review.line, lang, banner, &names) {
            Ok(gif) => {
                lines.push(Msg::Replay.text(lang));
                reply.files.push(("replay.gif", gif));
            }
            Err(e) => tracing::warn!(game = record.id, error = %e, "could not make a replay"),
        }
        if let Some(story) = review.story {
            lines.push(Msg::Summary { finds: &story.finds, slips: &story.slips }.text(lang));
            reply.files.push(("chart.png", render::story::story_png(&story, lang)));
        }
    }
    for line in lines {
        reply.content = if reply.content.is_empty() { line } else { format!("{}\n{line}", reply.content) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn drawing_that_panics_leaves_the_text_and_the_buttons() {
        let button = serenity::all::CreateButton::new("t:1:0:c.B3").label("🐤");
        let frame = Reply {
            components: vec![serenity::all::CreateActionRow::Buttons(vec![button])],
            ..Reply::public("Your move")
        };
        let drawn = with_pictures(frame.clone(), Lang::En, |reply| reply.files.push(("board.png", vec![1]))).await;
        assert_eq!(drawn.files.len(), 1);
        assert_eq!(drawn.content, "Your move");
        let missing = with_pictures(frame.clone(), Lang::Ja, |_| panic!("a picture that cannot be drawn")).await;
        assert!(missing.files.is_empty());
        assert_eq!(missing.content, format!("Your move\n{}", Msg::PictureMissing.text(Lang::Ja)));
        assert_eq!(format!("{:?}", missing.components), format!("{:?}", frame.components));
    }
}
