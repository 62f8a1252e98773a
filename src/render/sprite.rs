//! Pre-rendered overlays, stamped many times at the cost of one multiply-add per channel.

use image::RgbImage;

use super::draw::rgb;

/// A pre-rendered overlay stored as premultiplied colour plus per-channel
/// transmittance, so stamping it costs one multiply-add per channel instead of
/// re-evaluating anti-aliased, shaded shapes.
pub(crate) struct Sprite {
    w: u32,
    h: u32,
    /// Pixel offset of the sprite's top-left from the anchor point.
    origin: (i32, i32),
    /// Per pixel: premultiplied colour (3) then transmittance 0..=255 (3).
    px: Vec<[u8; 6]>,
}

impl Sprite {
    /// What `draw` paints on a `w`×`h` tile whose anchor is at `origin` inside it.
    /// Drawing once onto black and once onto white recovers colour and coverage
    /// exactly for any sequence of "over" compositing operations.
    pub(crate) fn painted(w: u32, h: u32, origin: (i32, i32), draw: impl Fn(&mut RgbImage)) -> Self {
        let mut on_black = RgbImage::from_pixel(w, h, rgb(0, 0, 0));
        let mut on_white = RgbImage::from_pixel(w, h, rgb(255, 255, 255));
        draw(&mut on_black);
        draw(&mut on_white);
        let px = on_black
            .pixels()
            .zip(on_white.pixels())
            .map(|(b, wh)| {
                let mut v = [0u8; 6];
                for i in 0..3 {
                    v[i] = b.0[i];
                    v[i + 3] = wh.0[i].saturating_sub(b.0[i]);
                }
                v
            })
            .collect();
        Sprite { w, h, origin: (-origin.0, -origin.1), px }
    }

    /// Composites the sprite onto `img` with its anchor at (x, y).
    pub(crate) fn stamp(&self, img: &mut RgbImage, (x, y): (i32, i32)) {
        let (x0, y0) = (x + self.origin.0, y + self.origin.1);
        for sy in 0..self.h as i32 {
            let ty = y0 + sy;
            if ty < 0 || ty >= img.height() as i32 {
                continue;
            }
            for sx in 0..self.w as i32 {
                let tx = x0 + sx;
                if tx < 0 || tx >= img.width() as i32 {
                    continue;
                }
                let s = &self.px[(sy as u32 * self.w + sx as u32) as usize];
                if s == &[0, 0, 0, 255, 255, 255] {
                    continue; // fully transparent
                }
                let p = img.get_pixel_mut(tx as u32, ty as u32);
                for i in 0..3 {
                    let under = (p.0[i] as u32 * s[i + 3] as u32 + 127) / 255;
                    p.0[i] = (s[i] as u32 + under).min(255) as u8;
                }
            }
        }
    }
}
