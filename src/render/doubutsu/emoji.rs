//! The picture's tiles as small square pictures for the buttons under it (the bot uploads them
//! as its application emojis, docs/design/touch.md#tiles-on-the-buttons): the same tiles the
//! board shows, so a child matches a button with its square by shape as well as colour.

use image::{imageops, ImageEncoder as _, RgbImage, RgbaImage};

use super::layout::{FIELD, FROM_ALPHA, GRID, HIGHLIGHT, TO_ALPHA};
use super::tiles::{decode_art, draw_tile};
use super::view::{Animal, Owner, ANIMALS};
use crate::render::{fill_round_rect, mix, rgb, RenderError};

/// The side of a tile picture in pixels: Discord's size for an emoji.
pub const TILE_EMOJI_SIDE: u32 = 128;

/// One picture a button can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TileEmoji {
    /// A piece as the picture draws it (sente upright and warm, gote turned and cool); `moved`:
    /// on the yellow of the square the last move reached.
    Piece {
        /// Whose piece.
        owner: Owner,
        /// Which animal.
        animal: Animal,
        /// The square the last move reached, tinted as the picture tints it.
        moved: bool,
    },
    /// An empty square; `left`: the square the last move left, tinted as the picture tints it.
    Empty {
        /// The square the last move left.
        left: bool,
    },
}

impl TileEmoji {
    /// Every tile picture, in a fixed order: sente's five, gote's five, gote's five on the last
    /// move's square, and the two empty squares. (Sente's moves are the player's: the bot never
    /// marks them on the buttons.)
    pub fn all() -> Vec<TileEmoji> {
        let pieces = |owner, moved| ANIMALS.into_iter().map(move |animal| TileEmoji::Piece { owner, animal, moved });
        pieces(Owner::Sente, false)
            .chain(pieces(Owner::Gote, false))
            .chain(pieces(Owner::Gote, true))
            .chain([TileEmoji::Empty { left: false }, TileEmoji::Empty { left: true }])
            .collect()
    }

    /// The picture, [`TILE_EMOJI_SIDE`] square, with a transparent corner round the square.
    pub fn image(self) -> RgbaImage {
        let side = TILE_EMOJI_SIDE;
        let c = side as f32 / 2.0;
        painted(side, |img| {
            let square = (2.0, 2.0, side as f32 - 2.0, side as f32 - 2.0);
            match self {
                TileEmoji::Empty { left } => {
                    let field = if left { mix(FIELD, HIGHLIGHT, FROM_ALPHA) } else { FIELD };
                    fill_round_rect(img, square, 22.0, GRID, 1.0);
                    fill_round_rect(img, (8.0, 8.0, side as f32 - 8.0, side as f32 - 8.0), 17.0, field, 1.0);
                }
                TileEmoji::Piece { owner, animal, moved } => {
                    if moved {
                        fill_round_rect(img, square, 22.0, mix(FIELD, HIGHLIGHT, TO_ALPHA), 1.0);
                    }
                    // A little smaller on the yellow, so the yellow shows round it.
                    let size = if moved { 100.0 } else { 112.0 };
                    let art = decode_art(animal);
                    let a = (size * super::layout::ART_SHARE).round() as u32;
                    let art = imageops::resize(&art, a, a, imageops::FilterType::CatmullRom);
                    draw_tile(img, (c, c - 3.0), size, owner, animal, &art, true);
                }
            }
        })
    }

    /// The picture as PNG bytes (what the bot uploads).
    pub fn png(self) -> Result<Vec<u8>, RenderError> {
        let img = self.image();
        let mut out = Vec::new();
        image::codecs::png::PngEncoder::new(&mut out).write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )?;
        Ok(out)
    }
}

/// What `draw` paints, with its coverage as alpha: drawn once on black and once on white, the
/// two differ exactly by what shows through.
fn painted(side: u32, draw: impl Fn(&mut RgbImage)) -> RgbaImage {
    let mut on_black = RgbImage::from_pixel(side, side, rgb(0, 0, 0));
    let mut on_white = RgbImage::from_pixel(side, side, rgb(255, 255, 255));
    draw(&mut on_black);
    draw(&mut on_white);
    RgbaImage::from_fn(side, side, |x, y| {
        let (b, w) = (on_black.get_pixel(x, y).0, on_white.get_pixel(x, y).0);
        let through: u32 = (0..3).map(|i| w[i].saturating_sub(b[i]) as u32).sum::<u32>() / 3;
        let alpha = 255 - through.min(255);
        if alpha == 0 {
            return image::Rgba([0, 0, 0, 0]);
        }
        // Un-premultiply: on black, a pixel shows its colour times its coverage.
        let un = |v: u8| ((v as u32 * 255 + alpha / 2) / alpha).min(255) as u8;
        image::Rgba([un(b[0]), un(b[1]), un(b[2]), alpha as u8])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_is_a_distinct_square_picture_small_enough_to_upload() {
        let all = TileEmoji::all();
        assert_eq!(all.len(), 17);
        let mut seen = std::collections::HashSet::new();
        for tile in all {
            let png = tile.png().unwrap();
            // Discord refuses an emoji over 256 KiB.
            assert!(png.len() < 256 * 1024, "{tile:?}: {} bytes", png.len());
            let img = image::load_from_memory(&png).unwrap().to_rgba8();
            assert_eq!(img.dimensions(), (TILE_EMOJI_SIDE, TILE_EMOJI_SIDE), "{tile:?}");
            // The corners show the button through; the middle is opaque.
            assert_eq!(img.get_pixel(0, 0).0[3], 0, "{tile:?}");
            assert_eq!(img.get_pixel(64, 64).0[3], 255, "{tile:?}");
            assert!(seen.insert(img.into_raw()), "{tile:?} looks like another tile");
        }
    }

    #[test]
    fn sides_differ_by_shape_as_well_as_colour() {
        // Gote's tile is sente's turned round: in grey the two still differ.
        for animal in ANIMALS {
            let grey = |owner| {
                imageops::grayscale(&TileEmoji::Piece { owner, animal, moved: false }.image())
                    .pixels()
                    .map(|p| p.0[0])
                    .collect::<Vec<_>>()
            };
            let (sente, gote) = (grey(Owner::Sente), grey(Owner::Gote));
            let differ = sente.iter().zip(&gote).filter(|(a, b)| a.abs_diff(**b) > 40).count();
            assert!(differ > 500, "{animal:?}: only {differ} pixels differ in grey");
        }
    }
}
