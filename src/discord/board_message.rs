//! Board messages: the text, the board image (after a game, its replay and chart) and the board of
//! buttons under it.

use super::handler::Bot;
use super::reply::Reply;
use super::touch_board::touch_board;
use crate::domain::{GameRecord, GameResult, GameStatus, PlayedMove, Settings, StoredGame};
use crate::i18n::{Lang, Msg};
use crate::render;
use settai_core::story::Story;
use settai_core::{GameMove, Side};

impl Bot {
    /// The board message for `game` (`last`: the move to mark), rendered on the blocking pool; a finished game also gets
    /// its replay and, with the commentary on, its chart and summary; where take-backs are
    /// allowed, a game on gets the button.
    pub(super) async fn board(
        &self,
        game: &StoredGame,
        last: Option<&PlayedMove>,
        lines: Vec<String>,
        settings: &Settings,
        lang: Lang,
    ) -> Reply {
        let (commentary, takeback, hints) = (settings.commentary, settings.takeback, settings.hints);
        let review = if game.record.status == GameStatus::Active {
            None
        } else {
            let story = if commentary { self.service().story(game).await } else { None };
            Some(Review { start: game.record.game.initial(), moves: game.history(), story })
        };
        let (game, last) = (game.clone(), last.cloned());
        tokio::task::spawn_blocking(move || board_reply(&game, last.as_ref(), lines, review, (takeback, hints), lang))
            .await
            .expect("board rendering panicked")
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
    start: settai_core::Game,
    moves: Vec<GameMove>,
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

/// The board reply for `game`: text, the board PNG (plus, once the game is over, its replay
/// and chart) and (when the human is to move) the move menus.
fn board_reply(
    game: &StoredGame,
    last: Option<&PlayedMove>,
    mut lines: Vec<String>,
    review: Option<Review>,
    (takeback, hints): (bool, bool),
    lang: Lang,
) -> Reply {
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
    if hints && record.human_to_move() && record.game.lion_in_danger() {
        lines.push(Msg::LionInDanger.text(lang));
    }
    if record.human_to_move() && !lines.iter().any(|l| l.contains(&format!("<@{}>", record.human_id))) {
        lines.push(Msg::YourMove { human: record.human_id }.text(lang));
    }
    let names = seat_names(record, lang);
    let png = render::game_png_to_tap(&record.game, last.map(|m| (&m.before, m.mv)), lang, banner.as_deref(), &names);
    let mut files = vec![("board.png", png)];
    if let Some(review) = review {
        match render::replay::replay_gif(&review.start, &review.moves, lang, banner.as_deref(), &names) {
            Ok(gif) => {
                lines.push(Msg::Replay.text(lang));
                files.push(("replay.gif", gif));
            }
            Err(e) => tracing::warn!(game = record.id, error = %e, "could not make a replay"),
        }
        if let Some(story) = review.story {
            lines.push(Msg::Summary { finds: &story.finds, slips: &story.slips }.text(lang));
            files.push(("chart.png", render::story::story_png(&story, lang)));
        }
    }
    // Only the player whose turn it is may be pinged.
    let mentions = if record.human_to_move() { vec![record.human_id] } else { Vec::new() };
    Reply {
        content: lines.join("\n"),
        ephemeral: false,
        files,
        components: touch_board(game, None, takeback, hints, lang),
        mentions,
    }
}
