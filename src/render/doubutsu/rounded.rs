//! Rounded-box primitives, via the signed distance to the box (negative inside): glows and
//! shadows, outlines and gradients of the tiles and the banner.

use image::{Rgb, RgbImage};

use crate::render::{blend, mix};

pub(super) type Rect = (f32, f32, f32, f32);

pub(super) fn round_box_sd((x, y): (f32, f32), (x0, y0, x1, y1): Rect, r: f32) -> f32 {
    let qx = (x - (x0 + x1) / 2.0).abs() - ((x1 - x0) / 2.0 - r);
    let qy = (y - (y0 + y1) / 2.0).abs() - ((y1 - y0) / 2.0 - r);
    qx.max(0.0).hypot(qy.max(0.0)) + qx.max(qy).min(0.0) - r
}

/// Visits the pixels within `margin` of `rect` with their centre's signed distance.
pub(super) fn for_round_box(
    img: &mut RgbImage,
    rect: Rect,
    r: f32,
    margin: f32,
    mut f: impl FnMut(&mut RgbImage, i32, i32, f32),
) {
    let x0 = ((rect.0 - margin).floor() as i32).max(0);
    let x1 = ((rect.2 + margin).ceil() as i32).min(img.width() as i32);
    let y0 = ((rect.1 - margin).floor() as i32).max(0);
    let y1 = ((rect.3 + margin).ceil() as i32).min(img.height() as i32);
    for y in y0..y1 {
        for x in x0..x1 {
            let d = round_box_sd((x as f32 + 0.5, y as f32 + 0.5), rect, r);
            f(img, x, y, d);
        }
    }
}

/// Soft glow or shadow of a rounded box: full `alpha` inside, fading out over `spread`.
pub(super) fn round_glow(img: &mut RgbImage, rect: Rect, r: f32, spread: f32, c: Rgb<u8>, alpha: f32) {
    for_round_box(img, rect, r, spread + 1.0, |img, x, y, d| {
        let t = (d / spread).clamp(0.0, 1.0);
        // Smoothstep falloff reads as a soft penumbra rather than a hard ramp.
        blend(img, x, y, c, alpha * (1.0 - t * t * (3.0 - 2.0 * t)));
    });
}

/// Strokes the outline of a rounded box with an anti-aliased line of width `w`.
pub(super) fn stroke_round_rect(img: &mut RgbImage, rect: Rect, r: f32, w: f32, c: Rgb<u8>, alpha: f32) {
    for_round_box(img, rect, r, w + 1.0, |img, x, y, d| {
        blend(img, x, y, c, alpha * (w / 2.0 - d.abs() + 0.5).clamp(0.0, 1.0));
    });
}

/// Fills a rounded box with a vertical gradient from `top` to `bottom`.
pub(super) fn fill_round_gradient(img: &mut RgbImage, rect: Rect, r: f32, top: Rgb<u8>, bottom: Rgb<u8>) {
    let h = rect.3 - rect.1;
    for_round_box(img, rect, r, 1.0, |img, x, y, d| {
        let c = mix(top, bottom, (y as f32 + 0.5 - rect.1) / h);
        blend(img, x, y, c, (0.5 - d).clamp(0.0, 1.0));
    });
}
