//! The palette shared by the boards: dark header strip, pills, wooden frame, and the groove of
//! an inlaid playing field.

use image::{Rgb, RgbImage};

use super::draw::{fill_round_rect, rgb};

/// The background of boards and charts.
pub const BG: Rgb<u8> = rgb(38, 41, 46);
pub(crate) const PILL: Rgb<u8> = rgb(52, 56, 63);
pub(crate) const PILL_ACTIVE: Rgb<u8> = rgb(70, 76, 86);
pub(crate) const PILL_RING: Rgb<u8> = rgb(150, 162, 180);
/// The colour of text on [`BG`].
pub const TEXT: Rgb<u8> = rgb(236, 234, 228);
pub(crate) const BANNER_TEXT: Rgb<u8> = rgb(246, 200, 80);
pub(crate) const WOOD: Rgb<u8> = rgb(92, 60, 36);
pub(crate) const WOOD_LIGHT: Rgb<u8> = rgb(128, 90, 58);
pub(crate) const LABEL: Rgb<u8> = rgb(236, 214, 170);

/// Dark edge of the wooden frames.
pub(crate) const WOOD_EDGE: Rgb<u8> = rgb(58, 36, 20);

/// A dark groove around a playing field at (x, y) of size w x h, as if the board were inlaid.
pub(crate) fn inlay_groove(img: &mut RgbImage, x: i32, y: i32, w: i32, h: i32) {
    fill_round_rect(img, ((x - 4) as f32, (y - 4) as f32, (x + w + 4) as f32, (y + h + 4) as f32), 3.0, WOOD_EDGE, 1.0);
}
