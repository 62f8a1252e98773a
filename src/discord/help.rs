//! `/play help`: the rules of both games, how to tap, and (with the commentary on) what the
//! levels mean, with the picture of how the animals move. Only the player who asked sees it,
//! so it may be asked for in the middle of anyone's game.

use super::failure::Failure;
use super::message::Reply;
use super::request::Request;
use crate::i18n::{Lang, Msg};
use crate::render;

/// `/play help`, its picture drawn off the async runtime.
pub(super) async fn help(request: &Request<'_>) -> Result<(), Failure> {
    let (responder, caller, settings, lang) = request.parts();
    let help = Msg::Help { commentary: settings.commentary, venue: caller.venue, idle_days: settings.idle_days };
    let text = help.text(lang);
    let drawn = tokio::task::spawn_blocking({
        let text = text.clone();
        move || help_reply(text, lang)
    })
    .await;
    // A picture that panics leaves the words (docs/design/bot-reliability.md#robustness).
    let reply = drawn.unwrap_or_else(|e| {
        tracing::error!(error = %e, "drawing the help picture panicked; the help goes out without it");
        Reply::private(text)
    });
    responder.answer(reply).await?;
    Ok(())
}

/// The help message: `text`, and the picture in `lang`.
fn help_reply(text: String, lang: Lang) -> Reply {
    let mut reply = Reply::private(text);
    reply.files = vec![("animals.png", render::help::animals_png(lang))];
    reply
}
