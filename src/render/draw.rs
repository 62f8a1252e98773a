//! Small drawing helpers: colours, blending, rectangles, lines, rounded rectangles, circles and
//! shadows. All coordinates are in pixels; a pixel (x, y) is the unit square whose centre is
//! (x + 0.5, y + 0.5), so shapes centred on an integer coordinate are symmetric.

use image::{Rgb, RgbImage};

/// Shorthand for an RGB colour.
pub const fn rgb(r: u8, g: u8, b: u8) -> Rgb<u8> {
    Rgb([r, g, b])
}

/// Linear interpolation between two colours, `t` in 0..=1.
pub(crate) fn mix(a: Rgb<u8>, b: Rgb<u8>, t: f32) -> Rgb<u8> {
    let t = t.clamp(0.0, 1.0);
    let ch = |i: usize| (a.0[i] as f32 + (b.0[i] as f32 - a.0[i] as f32) * t).round() as u8;
    Rgb([ch(0), ch(1), ch(2)])
}

/// Composites `c` over the pixel at (x, y) with opacity `alpha`; off-image is ignored.
pub(crate) fn blend(img: &mut RgbImage, x: i32, y: i32, c: Rgb<u8>, alpha: f32) {
    if alpha <= 0.0 || x < 0 || y < 0 || x as u32 >= img.width() || y as u32 >= img.height() {
        return;
    }
    let px = img.get_pixel_mut(x as u32, y as u32);
    *px = mix(*px, c, alpha);
}

/// Pixel range `[lo, hi)` covering `[a, b]`, clamped to `0..limit`.
fn span(a: f32, b: f32, limit: u32) -> (i32, i32) {
    let lo = (a.floor() as i32).max(0);
    let hi = (b.ceil() as i32).min(limit as i32);
    (lo, hi)
}

/// Fills an axis-aligned rectangle (integer pixels, no anti-aliasing needed).
pub fn fill_rect(img: &mut RgbImage, x: i32, y: i32, w: i32, h: i32, c: Rgb<u8>) {
    let (x0, x1) = (x.max(0), (x + w).min(img.width() as i32));
    let (y0, y1) = (y.max(0), (y + h).min(img.height() as i32));
    for yy in y0..y1 {
        for xx in x0..x1 {
            img.put_pixel(xx as u32, yy as u32, c);
        }
    }
}

/// A straight line of square dots `width` pixels wide (charts; no anti-aliasing needed).
pub fn draw_line(img: &mut RgbImage, (x0, y0): (f32, f32), (x1, y1): (f32, f32), c: Rgb<u8>, width: i32) {
    let steps = ((x1 - x0).abs().max((y1 - y0).abs()).ceil() as i32).max(1);
    for s in 0..=steps {
        let t = s as f32 / steps as f32;
        let (x, y) = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
        fill_rect(img, x.round() as i32 - width / 2, y.round() as i32 - width / 2, width, width, c);
    }
}

/// Fills an anti-aliased rounded rectangle spanning `[x0, x1] × [y0, y1]`.
pub(crate) fn fill_round_rect(
    img: &mut RgbImage,
    (x0, y0, x1, y1): (f32, f32, f32, f32),
    radius: f32,
    c: Rgb<u8>,
    alpha: f32,
) {
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (hx, hy) = ((x1 - x0) / 2.0 - radius, (y1 - y0) / 2.0 - radius);
    let (px0, px1) = span(x0, x1, img.width());
    let (py0, py1) = span(y0, y1, img.height());
    for y in py0..py1 {
        for x in px0..px1 {
            // Signed distance to a rounded box.
            let qx = (x as f32 + 0.5 - cx).abs() - hx;
            let qy = (y as f32 + 0.5 - cy).abs() - hy;
            let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
            let d = outside + qx.max(qy).min(0.0) - radius;
            blend(img, x, y, c, alpha * (0.5 - d).clamp(0.0, 1.0));
        }
    }
}

/// Fills an anti-aliased circle, colouring each pixel with `shade(nx, ny)`,
/// where (nx, ny) is the pixel centre relative to the circle, scaled so the rim is at 1.
pub(crate) fn fill_circle_with(
    img: &mut RgbImage,
    (cx, cy): (f32, f32),
    r: f32,
    alpha: f32,
    shade: impl Fn(f32, f32) -> Rgb<u8>,
) {
    let (px0, px1) = span(cx - r - 1.0, cx + r + 1.0, img.width());
    let (py0, py1) = span(cy - r - 1.0, cy + r + 1.0, img.height());
    for y in py0..py1 {
        for x in px0..px1 {
            let dx = x as f32 + 0.5 - cx;
            let dy = y as f32 + 0.5 - cy;
            // Analytic coverage: one pixel wide ramp across the rim.
            let cov = (r - (dx * dx + dy * dy).sqrt() + 0.5).clamp(0.0, 1.0);
            if cov > 0.0 {
                blend(img, x, y, shade(dx / r, dy / r), alpha * cov);
            }
        }
    }
}

/// Fills an anti-aliased circle in one colour.
pub(crate) fn fill_circle(img: &mut RgbImage, centre: (f32, f32), r: f32, c: Rgb<u8>, alpha: f32) {
    fill_circle_with(img, centre, r, alpha, |_, _| c);
}

/// Strokes an anti-aliased ring of radius `r` and line width `w`.
pub(crate) fn stroke_circle(img: &mut RgbImage, (cx, cy): (f32, f32), r: f32, w: f32, c: Rgb<u8>, alpha: f32) {
    let outer = r + w / 2.0 + 1.0;
    let (px0, px1) = span(cx - outer, cx + outer, img.width());
    let (py0, py1) = span(cy - outer, cy + outer, img.height());
    for y in py0..py1 {
        for x in px0..px1 {
            let dx = x as f32 + 0.5 - cx;
            let dy = y as f32 + 0.5 - cy;
            let d = ((dx * dx + dy * dy).sqrt() - r).abs();
            blend(img, x, y, c, alpha * (w / 2.0 - d + 0.5).clamp(0.0, 1.0));
        }
    }
}

/// Draws a soft circular shadow: opaque-ish inside `r - blur`, fading out by `r + blur`.
pub(crate) fn soft_shadow(img: &mut RgbImage, (cx, cy): (f32, f32), r: f32, blur: f32, alpha: f32) {
    let outer = r + blur + 1.0;
    let (px0, px1) = span(cx - outer, cx + outer, img.width());
    let (py0, py1) = span(cy - outer, cy + outer, img.height());
    for y in py0..py1 {
        for x in px0..px1 {
            let dx = x as f32 + 0.5 - cx;
            let dy = y as f32 + 0.5 - cy;
            let t = (((dx * dx + dy * dy).sqrt() - (r - blur)) / (2.0 * blur)).clamp(0.0, 1.0);
            // Smoothstep falloff looks like a real penumbra, unlike a linear ramp.
            let a = 1.0 - t * t * (3.0 - 2.0 * t);
            blend(img, x, y, rgb(0, 0, 0), alpha * a);
        }
    }
}
