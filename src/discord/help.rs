//! `/play help`: the rules of both games, how to tap, and (with the commentary on) what the
//! levels mean, with the picture of how the animals move. Only the player who asked sees it,
//! so it may be asked for in the middle of anyone's game.

use super::handler::{Bot, Failure};
use super::reply::Reply;
use super::request::Request;
use crate::i18n::{Lang, Msg};
use crate::render;

impl Bot {
    /// `/play help`, its picture drawn off the async runtime.
    pub(super) async fn help(&self, request: &Request<'_>) -> Result<(), Failure> {
        let (responder, _, settings, lang) = request.parts();
        let commentary = settings.commentary;
        let reply = tokio::task::spawn_blocking(move || help_reply(commentary, lang))
            .await
            .expect("the help picture is drawn without panicking");
        responder.answer(reply).await?;
        Ok(())
    }
}

/// The help message in `lang`; the levels are named only when `commentary` is on.
fn help_reply(commentary: bool, lang: Lang) -> Reply {
    let mut reply = Reply::private(Msg::Help { commentary }.text(lang));
    reply.files = vec![("animals.png", render::help::animals_png(lang))];
    reply
}
