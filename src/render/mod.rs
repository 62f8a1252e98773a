//! Board-image rendering: pure functions from a view of a position to PNG bytes.
//!
//! The room's shared toolkit every picture draws with lies in the files below (font and text,
//! PNG encoding, pixel primitives, sprites, palette, player text); the pictures have files of
//! their own.
//!
//! Everything here is synchronous and deterministic; the only shared state is
//! immutable caches (the parsed font, pre-rendered backgrounds).

mod board;
pub mod doubutsu;
mod draw;
mod error;
mod font;
pub mod help;
mod names;
mod palette;
mod png;
mod printable;
pub mod replay;
pub mod reversi;
mod sprite;
pub mod story;
mod text;

pub use board::{game_image, game_png, game_png_to_tap, result_banner, MOST_NUMBERED};
pub use draw::{draw_line, fill_rect, rgb};
pub use error::RenderError;
pub use font::{draw_text, fit_size, font, load_font, measure_text, write_text, Align};
pub use names::Names;
pub use palette::{BG, TEXT};
pub use png::encode_png;
pub use reversi::{render_reversi, Disc, ReversiView};

pub(crate) use draw::{blend, fill_circle, fill_circle_with, fill_round_rect, mix, soft_shadow, stroke_circle};
pub(crate) use font::{draw_label, em_scale, text_width};
pub(crate) use palette::{inlay_groove, BANNER_TEXT, LABEL, PILL, PILL_ACTIVE, PILL_RING, WOOD, WOOD_EDGE, WOOD_LIGHT};
pub(crate) use printable::{fit_text, printable};
pub(crate) use sprite::Sprite;

/// Language of the text drawn into images (the players' language).
pub use crate::i18n::Lang;

// What a cut text ends with, for the pictures' tests.
#[cfg(test)]
pub(crate) use printable::ELLIPSIS;

#[cfg(test)]
mod tests;
