//! `/play help`: the rules of both games, how to tap, and (with the commentary on) what the
//! levels mean, with the picture of how the animals move. Only the player who asked sees it,
//! so it may be asked for in the middle of anyone's game.

use super::reply::Reply;
use crate::i18n::{Lang, Msg};
use crate::render;

/// The help message in `lang`; the levels are named only when `commentary` is on.
pub(super) fn help_reply(commentary: bool, lang: Lang) -> Reply {
    let mut reply = Reply::private(Msg::Help { commentary }.text(lang));
    reply.files = vec![("animals.png", render::help::animals_png(lang))];
    reply
}
