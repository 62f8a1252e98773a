//! The picture put together: the background, the last move and check marks, the tiles, the hands,
//! the header and the banner.

use image::{Rgb, RgbImage};

use super::background::background;
use super::banner::draw_banner;
use super::captions::{draw_hand, draw_header};
use super::layout::{cell_centre, square, CELL, CHECK, FROM_ALPHA, HIGHLIGHT, TILE, TO_ALPHA};
use super::rounded::{round_glow, stroke_round_rect};
use super::tiles::{tile_index, tiles};
use super::view::{DoubutsuView, LastMove, Owner};
use crate::render::{blend, encode_png, Lang};

/// Tints a whole square (inside the grid lines) towards `c`.
fn tint_square(img: &mut RgbImage, idx: usize, c: Rgb<u8>, alpha: f32) {
    let (cx, cy) = cell_centre(idx);
    let h = CELL / 2 - 1;
    for y in cy - h..cy + h {
        for x in cx - h..cx + h {
            blend(img, x, y, c, alpha);
        }
    }
}

/// Renders a doubutsu shogi position as a PNG image (`WIDTH` × `HEIGHT`).
pub fn render_doubutsu(view: &DoubutsuView, lang: Lang) -> Vec<u8> {
    encode_png(&doubutsu_image(view, lang)).expect("PNG encoding of an in-memory RGB image")
}

/// Draws a doubutsu shogi position (`WIDTH` × `HEIGHT`).
pub fn doubutsu_image(view: &DoubutsuView, lang: Lang) -> RgbImage {
    let mut img = background().clone();

    // Square highlights go under the tiles so the piece itself stays clean.
    match view.last_move {
        Some(LastMove::Board { from, to }) => {
            if let Some(i) = square(from) {
                tint_square(&mut img, i, HIGHLIGHT, FROM_ALPHA);
            }
            if let Some(i) = square(to) {
                tint_square(&mut img, i, HIGHLIGHT, TO_ALPHA);
            }
        }
        Some(LastMove::Drop { to }) => {
            if let Some(i) = square(to) {
                tint_square(&mut img, i, HIGHLIGHT, TO_ALPHA);
            }
        }
        None => {}
    }
    let check = view.in_check.and_then(square);
    let tile_rect = |idx: usize, grow: f32| {
        let (cx, cy) = cell_centre(idx);
        let h = TILE / 2.0 + grow;
        (cx as f32 - h, cy as f32 - h, cx as f32 + h, cy as f32 + h)
    };
    if let Some(i) = check {
        tint_square(&mut img, i, CHECK, 0.22);
        // Grown 1 px and spread 7 px: the glow ends at the square's grid lines.
        round_glow(&mut img, tile_rect(i, 1.0), 16.0, 7.0, CHECK, 0.85);
    }

    for (idx, cell) in view.cells.iter().enumerate() {
        if let Some((owner, animal)) = *cell {
            tiles().board[tile_index(owner, animal)].stamp(&mut img, cell_centre(idx));
        }
    }
    if let Some(i) = check {
        stroke_round_rect(&mut img, tile_rect(i, 1.5), 16.0, 3.0, CHECK, 1.0);
    }

    draw_hand(&mut img, Owner::Gote, &view.gote_hand, view.human, lang);
    draw_hand(&mut img, Owner::Sente, &view.sente_hand, view.human, lang);
    draw_header(&mut img, view, lang);
    if let Some(b) = view.banner.as_deref() {
        draw_banner(&mut img, b);
    }
    // Encoding an in-memory RGB8 buffer of valid dimensions cannot fail.
    img
}
