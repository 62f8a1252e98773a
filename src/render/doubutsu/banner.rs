//! The result stamped across the board: a dark band with a gold rule, the text fitted inside.

use image::RgbImage;

use super::layout::{BOARD_H, BY, PAD, WIDTH};
use super::rounded::{round_glow, stroke_round_rect};
use crate::render::text::{draw_block, fit_block, Across, Block, Rect as TextBox};
use crate::render::{fill_round_rect, font, printable, rgb, BANNER_TEXT};

/// The band across the board that holds the result: full width, over the middle two ranks.
pub(super) fn banner_band() -> TextBox {
    let mid = (BY + BOARD_H / 2) as f32;
    (PAD as f32, mid - 44.0, (WIDTH as i32 - PAD) as f32, mid + 44.0)
}

/// Where the result's text may ink: inside the band's gold rule, with a margin.
pub(super) fn banner_box() -> TextBox {
    let band = banner_band();
    (band.0 + 18.0, band.1 + 10.0, band.2 - 18.0, band.3 - 10.0)
}

/// The result laid out in the band: one line at 30 px when it fits, else wrapped and shrunk
/// (a Japanese result with its reason runs to two lines).
pub(super) fn banner_block(text: &str) -> Block {
    fit_block(font(), text, banner_box(), Across::Centre, 30.0)
}

/// The result stamped across the whole width of the board.
pub(super) fn draw_banner(img: &mut RgbImage, text: &str) {
    let f = font();
    // The result may quote a player's name, so it gets the same fallbacks.
    let text = printable(f, text);
    if text.is_empty() {
        return;
    }
    draw_band(img);
    draw_block(img, f, &banner_block(&text), BANNER_TEXT);
}

/// The dark band with its gold rule that the result is written on.
pub(super) fn draw_band(img: &mut RgbImage) {
    let band = banner_band();
    round_glow(img, band, 12.0, 8.0, rgb(0, 0, 0), 0.35);
    fill_round_rect(img, band, 12.0, rgb(24, 26, 30), 0.88);
    stroke_round_rect(img, (band.0 + 4.0, band.1 + 4.0, band.2 - 4.0, band.3 - 4.0), 9.0, 2.0, BANNER_TEXT, 0.9);
}
