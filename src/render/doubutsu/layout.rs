//! The picture's layout and palette: sizes and places in pixels, the colours of the field and
//! of each side's tiles, and where a square or a hand tray sits.

use image::Rgb;

use super::view::Owner;
use crate::render::rgb;

// Layout, in pixels. The 3 × 4 board sits in a wooden frame carrying the
// coordinates; gote's hand tray is top-left and sente's bottom-right, as on a
// real shogi table; the header strip above holds the names and the turn.
pub(super) const CELL: i32 = 100;
pub(super) const COLS: i32 = 3;
pub(super) const ROWS: i32 = 4;
pub(super) const BOARD_W: i32 = CELL * COLS;
pub(super) const BOARD_H: i32 = CELL * ROWS;
pub(super) const PAD: i32 = 14;
pub(super) const HEADER: i32 = 64;
pub(super) const FRAME: i32 = 34;
/// Em size of the coordinates, which the move menus name ("🐥 B3 → B2"): a child finds them
/// on a phone, where the image is shown at about two thirds of its size.
pub(super) const LABEL_PX: f32 = 21.0;
pub(super) const HAND_W: i32 = 104;
pub(super) const HAND_H: i32 = 270;
pub(super) const GAP: i32 = 12;
pub(super) const BX: i32 = PAD + HAND_W + GAP + FRAME;
pub(super) const BY: i32 = HEADER + FRAME;
/// Width of the rendered image in pixels.
pub const WIDTH: u32 = (BX + BOARD_W + FRAME + GAP + HAND_W + PAD) as u32;
/// Height of the rendered image in pixels.
pub const HEIGHT: u32 = (BY + BOARD_H + FRAME + PAD) as u32;

// Tiles: side length, the animal's share of it, and where the movement dots sit.
pub(super) const TILE: f32 = 84.0;
pub(super) const HAND_TILE: f32 = 54.0;
pub(super) const ICON_TILE: f32 = 30.0;
pub(super) const ART_SHARE: f32 = 0.60;
/// Distance of a movement dot's centre inside the tile edge, as a share of the tile side.
pub(super) const DOT_INSET: f32 = 0.10;
pub(super) const DOT_R: f32 = 0.054;
/// Vertical pitch of the rows in a hand tray.
pub(super) const HAND_PITCH: i32 = 74;
pub(super) const HAND_TOP: i32 = 40;

// Palette (the header and frame colours are shared, in render/mod.rs).
pub(super) const TRAY: Rgb<u8> = rgb(76, 48, 28);
pub(in crate::render) const FIELD: Rgb<u8> = rgb(232, 204, 150);
pub(in crate::render) const GRID: Rgb<u8> = rgb(120, 82, 46);
pub(in crate::render) const HIGHLIGHT: Rgb<u8> = rgb(250, 214, 40);
pub(super) const FROM_ALPHA: f32 = 0.38;
pub(super) const TO_ALPHA: f32 = 0.72;
pub(super) const CHECK: Rgb<u8> = rgb(226, 38, 38);

/// Colours of one side's tiles: body, rim and movement dots.
pub(super) struct Tint {
    pub(super) body: Rgb<u8>,
    pub(super) rim: Rgb<u8>,
    pub(super) dot: Rgb<u8>,
}

/// Sente warm, gote cool, so ownership reads at a glance as well as from the orientation.
pub(super) const fn tint(owner: Owner) -> Tint {
    match owner {
        Owner::Sente => Tint { body: rgb(255, 232, 196), rim: rgb(206, 128, 70), dot: rgb(176, 64, 30) },
        Owner::Gote => Tint { body: rgb(212, 232, 252), rim: rgb(92, 136, 196), dot: rgb(34, 76, 150) },
    }
}

/// Pixel coordinates of the centre of square `idx` (a corner shared by four pixels).
pub(super) fn cell_centre(idx: usize) -> (i32, i32) {
    let (row, col) = ((idx / 3) as i32, (idx % 3) as i32);
    (BX + col * CELL + CELL / 2, BY + row * CELL + CELL / 2)
}

/// Top-left corner of a side's hand tray.
pub(super) fn tray_origin(owner: Owner) -> (i32, i32) {
    match owner {
        Owner::Gote => (PAD, HEADER),
        Owner::Sente => (WIDTH as i32 - PAD - HAND_W, HEIGHT as i32 - PAD - HAND_H),
    }
}

pub(super) fn square(idx: u8) -> Option<usize> {
    (usize::from(idx) < 12).then_some(usize::from(idx))
}
