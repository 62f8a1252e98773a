//! Every player-facing sentence, in English and Japanese, in one place.
//!
//! [`Msg`] ([`msg`]) is what the bot says; [`sentences`] holds every message's sentence in both
//! languages, side by side; the longer texts and the names of things have files of their own:
//! [`names`], [`results`], [`help`], [`settings`], [`menus`], [`permissions`], [`players_data`],
//! and English counts ([`counts`]: "1 day", "2 days").
//! A test, `both_languages`, says every message in both languages and checks that none is empty,
//! keeps a placeholder unfilled or falls back to English in Japanese.

#[cfg(test)]
mod both_languages;
mod counts;
mod help;
mod menus;
mod msg;
mod names;
mod permissions;
mod players_data;
mod results;
mod sentences;
mod settings;

pub use crate::domain::Lang;
pub use counts::en_count;
pub use menus::{animal_emoji, move_label, MoveMenu};
pub use msg::Msg;
pub use names::{animal_name, kind_name, level_name, opponent_name, side_kana, side_name, value_words};
pub use permissions::Needed;
