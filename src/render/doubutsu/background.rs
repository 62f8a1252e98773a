//! The static background, drawn once: the wooden frame with its coordinates, the field, and the
//! two hand trays.

use std::sync::OnceLock;

use image::{Rgb, RgbImage};

use super::layout::{
    cell_centre, tray_origin, BOARD_H, BOARD_W, BX, BY, CELL, COLS, FIELD, FRAME, GRID, HAND_H, HAND_W, HEADER, HEIGHT,
    LABEL_PX, PAD, ROWS, TRAY, WIDTH,
};
use super::rounded::Rect;
use super::view::Owner;
use crate::render::{
    draw_label, fill_rect, fill_round_rect, font, inlay_groove, rgb, BG, LABEL, WOOD, WOOD_EDGE, WOOD_LIGHT,
};

pub(super) fn background() -> &'static RgbImage {
    static BG_IMG: OnceLock<RgbImage> = OnceLock::new();
    BG_IMG.get_or_init(build_background)
}

/// A bevelled wooden slab like the reversi frame.
pub(in crate::render) fn wood_slab(img: &mut RgbImage, r: Rect, radius: f32) {
    fill_round_rect(img, r, radius, WOOD_EDGE, 1.0);
    fill_round_rect(img, (r.0 + 1.0, r.1 + 1.0, r.2 - 2.0, r.3 - 2.0), radius - 1.0, WOOD_LIGHT, 1.0);
    fill_round_rect(img, (r.0 + 2.0, r.1 + 2.0, r.2 - 2.0, r.3 - 2.0), radius - 2.0, WOOD, 1.0);
}

pub(super) fn build_background() -> RgbImage {
    let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, BG);
    let frame = ((BX - FRAME) as f32, HEADER as f32, (BX + BOARD_W + FRAME) as f32, (HEIGHT as i32 - PAD) as f32);
    wood_slab(&mut img, frame, 10.0);
    inlay_groove(&mut img, BX, BY, BOARD_W, BOARD_H);
    fill_rect(&mut img, BX - 1, BY - 1, BOARD_W + 2, BOARD_H + 2, GRID);
    for idx in 0..12 {
        let (cx, cy) = cell_centre(idx);
        let h = CELL / 2 - 1;
        fill_rect(&mut img, cx - h, cy - h, 2 * h, 2 * h, field_colour(idx));
    }

    for owner in [Owner::Gote, Owner::Sente] {
        let (x, y) = tray_origin(owner);
        let r = (x as f32, y as f32, (x + HAND_W) as f32, (y + HAND_H) as f32);
        wood_slab(&mut img, r, 10.0);
        // A recessed tray below the caption holds the captured pieces.
        fill_round_rect(&mut img, (r.0 + 7.0, r.1 + 32.0, r.2 - 7.0, r.3 - 7.0), 6.0, TRAY, 1.0);
    }

    let f = font();
    for k in 0..COLS {
        let c = (BX + k * CELL + CELL / 2) as f32;
        let col = char::from(b'A' + k as u8).to_string();
        // The groove takes the frame's inner 4 px: the labels are centred on what is left.
        draw_label(&mut img, f, LABEL_PX, (c, (BY - FRAME / 2 - 2) as f32), LABEL, &col, "ABC");
    }
    for k in 0..ROWS {
        let c = (BY + k * CELL + CELL / 2) as f32;
        let row = (k + 1).to_string();
        draw_label(&mut img, f, LABEL_PX, ((BX - FRAME / 2 - 2) as f32, c), LABEL, &row, "1234");
    }
    img
}

/// The plain colour of a square: gote's home rank (top) is tinted cool and
/// sente's (bottom) warm, the ranks a lion must reach to win by "try".
pub(super) fn field_colour(idx: usize) -> Rgb<u8> {
    match idx / 3 {
        0 => rgb(208, 226, 236),
        3 => rgb(250, 214, 186),
        _ => FIELD,
    }
}
