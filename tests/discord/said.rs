//! What the bot says, as its message catalogue (`settai::i18n`) words it: the tests compare
//! replies with these, so a change of wording is one edit in `src/i18n`, not one per test.

use settai::domain::Settings;
use settai::i18n::{Lang, Msg};
use settai_core::{GameKind, GameMove};

/// `msg` in English.
pub fn en(msg: Msg<'_>) -> String {
    msg.text(Lang::En)
}

/// `msg` in Japanese.
pub fn ja(msg: Msg<'_>) -> String {
    msg.text(Lang::Ja)
}

/// A move of `kind`, from its notation.
pub fn mv(kind: GameKind, text: &str) -> GameMove {
    GameMove::parse(kind, text).expect("a move in the notation")
}

/// The words of a message before the move it names ("I play **" of "I play **d3**."): for a
/// move the test cannot know (the bot's).
pub fn before_move(msg: fn(GameMove) -> Msg<'static>, lang: Lang) -> String {
    let text = msg(mv(GameKind::Reversi, "d3")).text(lang);
    text[..text.find("d3").expect("the message names the move")].to_string()
}

/// The line of `/settings show` about the setting whose line starts with `label`, as it reads
/// under `settings` (e.g. `show_line(&on, "• Move commentary", Lang::En)`).
pub fn show_line(settings: &Settings, label: &str, lang: Lang) -> String {
    let shown = Msg::Settings { settings }.text(lang);
    shown.lines().find(|l| l.starts_with(label)).unwrap_or_else(|| panic!("no line {label:?} in {shown}")).to_string()
}
