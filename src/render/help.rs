//! The picture of `/play help`: how each doubutsu animal moves, drawn with the board's own
//! tiles so a child recognises them, each on a small 3 × 3 board with the squares it can
//! reach lit; a last panel shows the chick becoming a hen on the far row.

use std::sync::OnceLock;

use image::RgbImage;

use super::doubutsu::{stamp_hand_tile, wood_slab, Animal, ANIMALS, FIELD, GRID, HIGHLIGHT};
use super::text::{draw_block, fit_block, Across};
use super::{encode_png, fill_rect, font, mix, rgb, Lang, BG, TEXT};
use crate::i18n::{animal_name, Msg};
use settai_core::doubutsu::Role;

// Layout, in pixels: a title, then two rows of three panels (a small board and its caption).
const MARGIN: i32 = 16;
const CELL: i32 = 58;
const GRID_W: i32 = CELL * 3;
const GAP: i32 = 18;
const TITLE: i32 = 50;
const CAPTION: i32 = 44;
const ROW_GAP: i32 = 10;
/// Width of the picture.
pub const WIDTH: u32 = (2 * MARGIN + 3 * GRID_W + 2 * GAP) as u32;
/// Height of the picture.
pub const HEIGHT: u32 = (TITLE + 2 * (GRID_W + CAPTION) + ROW_GAP + MARGIN) as u32;

/// How strongly a reachable square is lit (as the board lights the last move's square).
const LIT: f32 = 0.72;
/// The far row's cool tint, as on the board.
const FAR_ROW: image::Rgb<u8> = rgb(208, 226, 236);

fn role(animal: Animal) -> Role {
    match animal {
        Animal::Lion => Role::Lion,
        Animal::Giraffe => Role::Giraffe,
        Animal::Elephant => Role::Elephant,
        Animal::Chick => Role::Chick,
        Animal::Hen => Role::Hen,
    }
}

/// Top-left corner of panel `i` (0..6, row by row).
fn panel_origin(i: usize) -> (i32, i32) {
    let (col, row) = ((i % 3) as i32, (i / 3) as i32);
    (MARGIN + col * (GRID_W + GAP), TITLE + row * (GRID_W + CAPTION + ROW_GAP))
}

/// Centre of square (col, row) of the panel at `origin`.
fn square_centre((x, y): (i32, i32), (col, row): (i32, i32)) -> (i32, i32) {
    (x + col * CELL + CELL / 2, y + row * CELL + CELL / 2)
}

/// A small board: wood around, grid lines, each square coloured by `colour(col, row)`.
fn small_board(img: &mut RgbImage, (x, y): (i32, i32), colour: impl Fn(i32, i32) -> image::Rgb<u8>) {
    wood_slab(img, ((x - 7) as f32, (y - 7) as f32, (x + GRID_W + 7) as f32, (y + GRID_W + 7) as f32), 8.0);
    fill_rect(img, x - 1, y - 1, GRID_W + 2, GRID_W + 2, GRID);
    for row in 0..3 {
        for col in 0..3 {
            fill_rect(img, x + col * CELL + 1, y + row * CELL + 1, CELL - 2, CELL - 2, colour(col, row));
        }
    }
}

/// A caption centred under a panel, wrapped and shrunk to fit.
fn caption(img: &mut RgbImage, (x, y): (i32, i32), text: &str) {
    let area = (x as f32 - 6.0, (y + GRID_W + 10) as f32, (x + GRID_W) as f32 + 6.0, (y + GRID_W + CAPTION) as f32);
    draw_block(img, font(), &fit_block(font(), text, area, Across::Centre, 20.0), TEXT);
}

/// Draws the picture in `lang`.
pub fn animals_image(lang: Lang) -> RgbImage {
    let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, BG);
    let f = font();
    let title = (MARGIN as f32, 6.0, (WIDTH as i32 - MARGIN) as f32, (TITLE - 14) as f32);
    draw_block(&mut img, f, &fit_block(f, &Msg::HowAnimalsMove.text(lang), title, Across::Centre, 22.0), TEXT);
    for (i, &animal) in ANIMALS.iter().enumerate() {
        let origin = panel_origin(i);
        let steps = animal.steps();
        small_board(&mut img, origin, |col, row| {
            let reach = steps.contains(&((col - 1) as i8, (row - 1) as i8));
            if reach {
                mix(FIELD, HIGHLIGHT, LIT)
            } else {
                FIELD
            }
        });
        stamp_hand_tile(&mut img, square_centre(origin, (1, 1)), animal);
        caption(&mut img, origin, animal_name(role(animal), lang));
    }
    // The chick steps onto the far row (tinted as on the board) and turns into a hen there.
    let origin = panel_origin(ANIMALS.len());
    small_board(&mut img, origin, |_, row| if row == 0 { FAR_ROW } else { FIELD });
    stamp_hand_tile(&mut img, square_centre(origin, (1, 2)), Animal::Chick);
    stamp_hand_tile(&mut img, square_centre(origin, (1, 0)), Animal::Hen);
    caption(&mut img, origin, &Msg::Promotion.text(lang));
    img
}

/// The picture as PNG bytes, drawn once per language.
pub fn animals_png(lang: Lang) -> Vec<u8> {
    static EN: OnceLock<Vec<u8>> = OnceLock::new();
    static JA: OnceLock<Vec<u8>> = OnceLock::new();
    let cell = if lang == Lang::Ja { &JA } else { &EN };
    cell.get_or_init(|| encode_png(&animals_image(lang)).expect("PNG encoding of an in-memory RGB image")).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pixel in the corner of a square, clear of the tile on the centre square.
    fn corner(origin: (i32, i32), (col, row): (i32, i32)) -> image::Rgb<u8> {
        let (cx, cy) = square_centre(origin, (col, row));
        let p = (cx - CELL / 2 + 3, cy - CELL / 2 + 3);
        *animals_image(Lang::En).get_pixel(p.0 as u32, p.1 as u32)
    }

    #[test]
    fn each_panel_lights_exactly_the_squares_its_animal_reaches() {
        let img = animals_image(Lang::En);
        assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
        assert!((560..=640).contains(&WIDTH), "about a board's width: {WIDTH}");
        for (i, &animal) in ANIMALS.iter().enumerate() {
            let origin = panel_origin(i);
            let mut lit = 0;
            for row in 0..3 {
                for col in 0..3 {
                    if (col, row) == (1, 1) {
                        continue;
                    }
                    let (cx, cy) = square_centre(origin, (col, row));
                    let p = *img.get_pixel((cx - CELL / 2 + 3) as u32, (cy - CELL / 2 + 3) as u32);
                    let reach = animal.steps().contains(&((col - 1) as i8, (row - 1) as i8));
                    assert_eq!(p == mix(FIELD, HIGHLIGHT, LIT), reach, "{animal:?} at ({col},{row}): {p:?}");
                    assert!(reach || p == FIELD, "{animal:?} at ({col},{row}) is plain board: {p:?}");
                    lit += usize::from(reach);
                }
            }
            assert_eq!(lit, animal.steps().len(), "{animal:?}");
            // The animal's own tile sits in the middle.
            let (cx, cy) = square_centre(origin, (1, 1));
            assert_ne!(*img.get_pixel(cx as u32, cy as u32), FIELD, "{animal:?} is drawn");
        }
        // The last panel: a far row, a chick below it and a hen on it.
        let last = panel_origin(ANIMALS.len());
        assert_eq!(corner(last, (0, 0)), FAR_ROW);
        assert_eq!(corner(last, (0, 2)), FIELD);
    }

    #[test]
    fn the_captions_follow_the_language_and_stay_in_their_panel() {
        let (en, ja) = (animals_image(Lang::En), animals_image(Lang::Ja));
        let differ: Vec<(u32, u32)> =
            en.enumerate_pixels().filter(|&(x, y, p)| ja.get_pixel(x, y) != p).map(|(x, y, _)| (x, y)).collect();
        assert!(differ.len() > 500, "{} pixels differ", differ.len());
        // Only words differ: the title and the captions, never the boards.
        for (x, y) in differ {
            let on_a_board = (0..6).any(|i| {
                let (bx, by) = panel_origin(i);
                (bx - 7..bx + GRID_W + 7).contains(&(x as i32)) && (by - 7..by + GRID_W + 7).contains(&(y as i32))
            });
            assert!(!on_a_board, "({x},{y}) differs on a board");
        }
        assert_eq!(animals_png(Lang::Ja), animals_png(Lang::Ja), "deterministic");
        let png = image::load_from_memory(&animals_png(Lang::En)).expect("valid PNG").to_rgb8();
        assert_eq!(png, en);
    }
}
