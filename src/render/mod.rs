//! Board-image rendering: pure functions from a view of a position to PNG bytes.
//!
//! Past 500 lines on purpose: one job, the room's shared toolkit (font, PNG encoding, pixel and
//! text primitives, palette) every picture draws with; the pictures have files of their own.
//!
//! Everything here is synchronous and deterministic; the only shared state is
//! immutable caches (the parsed font, pre-rendered backgrounds).

mod board;
pub mod doubutsu;
pub mod help;
pub mod replay;
pub mod reversi;
pub mod story;
mod text;

pub use board::{game_image, game_png, result_banner};
pub use reversi::{render_reversi, Disc, ReversiView};

use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder, Rgb, RgbImage};

/// Language of the text drawn into images (the players' language).
pub use crate::i18n::Lang;
use settai_core::Side;

/// Who sits at each side, as the images name them: display names in seat order (reversi: black
/// then white; doubutsu: sente then gote). An empty name shows the seat's generic label; any
/// Unicode is accepted (characters the font lacks become a box).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    /// Black's or sente's name.
    pub first: String,
    /// White's or gote's name.
    pub second: String,
    /// The player's seat when the other is the computer: English boards then say "Your move",
    /// "You" and "Computer" instead of the seats' names (`None`: a board seen from outside).
    pub human: Option<Side>,
}

impl Names {
    /// Names for the two seats in order.
    pub fn new(first: impl Into<String>, second: impl Into<String>) -> Names {
        Names { first: first.into(), second: second.into(), human: None }
    }

    /// The same names, the player sitting at `side` against the computer.
    pub fn with_human(self, side: Side) -> Names {
        Names { human: Some(side), ..self }
    }

    /// Whether neither seat has a name (the images then show only the generic labels).
    pub fn is_empty(&self) -> bool {
        self.first.trim().is_empty() && self.second.trim().is_empty()
    }
}

/// Failures of the shared rendering helpers.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The embedded font could not be parsed.
    #[error("embedded font could not be parsed: {0}")]
    Font(#[from] ab_glyph::InvalidFont),
    /// The PNG encoder rejected the image.
    #[error("PNG encoding failed: {0}")]
    Png(#[from] image::ImageError),
}

/// M PLUS 1 Bold (SIL OFL 1.1): one face covering Latin, kana and kanji.
const FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/Mplus1-Bold.otf");

/// Parses the embedded font.
pub fn load_font() -> Result<FontRef<'static>, RenderError> {
    Ok(FontRef::try_from_slice(FONT_BYTES)?)
}

/// The embedded font, parsed once.
pub fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    // The bytes are compiled in and a unit test parses them, so failure here
    // would be a build defect rather than a runtime condition.
    FONT.get_or_init(|| load_font().expect("embedded font must parse"))
}

/// Writes `text` in the embedded font, one em `px` pixels tall, from `x` and centred on
/// `mid_y`; returns its width. For tools drawing beside the boards (the README's screenshots).
pub fn write_text(img: &mut RgbImage, px: f32, (x, mid_y): (f32, f32), colour: Rgb<u8>, text: &str) -> f32 {
    draw_text(img, font(), px, (x, mid_y), Align::Left, colour, text)
}

/// The width [`write_text`] would give `text`.
pub fn measure_text(px: f32, text: &str) -> f32 {
    text_width(font(), px, text)
}

/// Encodes an RGB image as PNG.
pub fn encode_png(img: &RgbImage) -> Result<Vec<u8>, RenderError> {
    // Zlib level 3 with adaptive filtering: on a 600×650 board it encodes in
    // about half the time of the default level 6 for ~5% more bytes.
    let mut out = Vec::with_capacity(64 * 1024);
    PngEncoder::new_with_quality(&mut out, CompressionType::Level(3), FilterType::Adaptive).write_image(
        img.as_raw(),
        img.width(),
        img.height(),
        ExtendedColorType::Rgb8,
    )?;
    Ok(out)
}

// ---------------------------------------------------------------------------
// Small drawing helpers. All coordinates are in pixels; a pixel (x, y) is the
// unit square whose centre is (x + 0.5, y + 0.5), so shapes centred on an
// integer coordinate are symmetric.

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
    /// Records what `draw` paints on a `w`×`h` tile whose anchor is at `origin` inside it.
    /// Drawing once onto black and once onto white recovers colour and coverage
    /// exactly for any sequence of "over" compositing operations.
    pub(crate) fn record(w: u32, h: u32, origin: (i32, i32), draw: impl Fn(&mut RgbImage)) -> Self {
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

/// Horizontal anchoring of a text run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// `x` is the left edge.
    Left,
    /// `x` is the right edge.
    Right,
}

/// The ab_glyph scale that makes one em `px` pixels tall. `PxScale` itself
/// means ascent-to-descent height, which for M PLUS 1 is ~1.45 em.
pub(crate) fn em_scale(font: &FontRef<'_>, px: f32) -> PxScale {
    let em = font.units_per_em().unwrap_or(1000.0);
    PxScale::from(px * font.height_unscaled() / em)
}

/// Advance width of `text` at an em size of `px` pixels, kerning included.
pub(crate) fn text_width(font: &FontRef<'_>, px: f32, text: &str) -> f32 {
    let sf = font.as_scaled(em_scale(font, px));
    let mut w = 0.0;
    let mut prev = None;
    for ch in text.chars() {
        let id = sf.glyph_id(ch);
        if let Some(p) = prev {
            w += sf.kern(p, id);
        }
        w += sf.h_advance(id);
        prev = Some(id);
    }
    w
}

/// Draws `text` so that its cap height is vertically centred on `mid_y`;
/// returns the advance width. Centring on caps (not ink) keeps separate runs
/// on one row on a shared baseline, and suits digits and kanji alike.
pub fn draw_text(
    img: &mut RgbImage,
    font: &FontRef<'_>,
    px: f32,
    (x, mid_y): (f32, f32),
    align: Align,
    c: Rgb<u8>,
    text: &str,
) -> f32 {
    let sf = font.as_scaled(em_scale(font, px));
    // Ink height of 'H' above the baseline (pixel bounds are y-down).
    let cap = font
        .outline_glyph(font.glyph_id('H').with_scale(em_scale(font, px)))
        .map(|g| -g.px_bounds().min.y)
        .unwrap_or(px * 0.7);
    let width = text_width(font, px, text);
    let mut pen = match align {
        Align::Left => x,
        Align::Right => x - width,
    };
    // Whole-pixel baseline keeps horizontal strokes crisp.
    let baseline = (mid_y + cap / 2.0).round();
    let mut prev = None;
    for ch in text.chars() {
        let id = sf.glyph_id(ch);
        if let Some(p) = prev {
            pen += sf.kern(p, id);
        }
        let glyph = id.with_scale_and_position(em_scale(font, px), point(pen, baseline));
        if let Some(outlined) = font.outline_glyph(glyph) {
            let b = outlined.px_bounds();
            outlined.draw(|gx, gy, cov| {
                blend(img, b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32, c, cov);
            });
        }
        pen += sf.h_advance(id);
        prev = Some(id);
    }
    width
}

/// Draws a short label centred on `centre`: horizontally by its own ink, and
/// vertically by the ink of `v_ref`, so a row of labels ("a".."h") shares one
/// baseline while each still looks centred in its cell.
pub(crate) fn draw_label(
    img: &mut RgbImage,
    font: &FontRef<'_>,
    px: f32,
    centre: (f32, f32),
    c: Rgb<u8>,
    text: &str,
    v_ref: &str,
) {
    let scale = em_scale(font, px);
    let sf = font.as_scaled(scale);
    // Lay out at baseline 0 and return the union of the ink boxes.
    let layout = |s: &str| {
        let mut pen = 0.0;
        let mut glyphs = Vec::new();
        for ch in s.chars() {
            let id = sf.glyph_id(ch);
            if let Some(g) = font.outline_glyph(id.with_scale_and_position(scale, point(pen, 0.0))) {
                glyphs.push(g);
            }
            pen += sf.h_advance(id);
        }
        let ink = glyphs.iter().map(|g| g.px_bounds()).reduce(|a, b| ab_glyph::Rect {
            min: point(a.min.x.min(b.min.x), a.min.y.min(b.min.y)),
            max: point(a.max.x.max(b.max.x), a.max.y.max(b.max.y)),
        });
        (glyphs, ink)
    };
    let (glyphs, Some(ink)) = layout(text) else {
        return;
    };
    let v_ink = layout(v_ref).1.unwrap_or(ink);
    let dx = (centre.0 - (ink.min.x + ink.max.x) / 2.0).round() as i32;
    let dy = (centre.1 - (v_ink.min.y + v_ink.max.y) / 2.0).round() as i32;
    for g in &glyphs {
        let b = g.px_bounds();
        g.draw(|gx, gy, cov| {
            blend(img, b.min.x as i32 + gx as i32 + dx, b.min.y as i32 + gy as i32 + dy, c, cov);
        });
    }
}

/// The largest em size ≤ `px` at which `text` fits in `max_w` pixels (never below 10).
pub fn fit_size(font: &FontRef<'_>, px: f32, max_w: f32, text: &str) -> f32 {
    let w = text_width(font, px, text);
    if w > max_w && w > 0.0 {
        (px * max_w / w).floor().max(10.0)
    } else {
        px
    }
}

// Palette shared by the boards: dark header strip, pills, wooden frame.
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

// ---------------------------------------------------------------------------
// Text that may come from players (display names, results quoting them).

/// Stands in for a character the font lacks. M PLUS 1 has no U+FFFD either,
/// so it draws as the font's `.notdef` box, the familiar "tofu".
pub(crate) const PLACEHOLDER: char = '\u{FFFD}';
pub(crate) const ELLIPSIS: char = '…';

/// Characters that never draw on their own: joiners, variation selectors,
/// emoji modifiers and tags, bidi and other format controls.
fn is_invisible(ch: char) -> bool {
    matches!(ch,
        '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}'
        | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}'
        | '\u{1F3FB}'..='\u{1F3FF}'
        | '\u{E0000}'..='\u{E007F}'
        | '\u{E0100}'..='\u{E01EF}')
}

fn is_combining(ch: char) -> bool {
    matches!(ch,
        '\u{0300}'..='\u{036F}'
        | '\u{1AB0}'..='\u{1AFF}'
        | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}'
        | '\u{FE20}'..='\u{FE2F}')
}

/// `name` reduced to what the font can draw: each character it lacks becomes
/// one box (a ZWJ emoji sequence or a flag becomes a single box), marks and
/// joiners it lacks are dropped, control characters become spaces.
pub(crate) fn printable(f: &FontRef<'_>, name: &str) -> String {
    let has = |ch: char| f.glyph_id(ch).0 != 0;
    let mut out = String::new();
    let mut after_zwj = false;
    let mut open_flag = false;
    for ch in name.chars() {
        let zwj = ch == '\u{200D}';
        if ch.is_control() || ch.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            open_flag = false;
        } else if is_invisible(ch) || (is_combining(ch) && !has(ch)) {
            // Nothing to draw; a joiner only glues the next emoji to the last box.
        } else if has(ch) {
            out.push(ch);
            open_flag = false;
        } else {
            let flag_half = ('\u{1F1E6}'..='\u{1F1FF}').contains(&ch);
            let joined = after_zwj && out.ends_with(PLACEHOLDER);
            if !(joined || (flag_half && open_flag)) {
                out.push(PLACEHOLDER);
            }
            open_flag = flag_half && !open_flag;
        }
        after_zwj = zwj;
    }
    out.trim().to_string()
}

/// An em size in `min_px..=px` and the text (cut with "…" if need be) that fits `max_w`.
pub(crate) fn fit_text(f: &FontRef<'_>, px: f32, min_px: f32, max_w: f32, text: &str) -> (f32, String) {
    let size = fit_size(f, px, max_w, text).max(min_px);
    if text_width(f, size, text) <= max_w {
        return (size, text.to_string());
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let mut cut = chars.iter().collect::<String>().trim_end().to_string();
        cut.push(ELLIPSIS);
        if text_width(f, size, &cut) <= max_w {
            return (size, cut);
        }
    }
    (size, ELLIPSIS.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_font_parses_and_covers_latin_kana_kanji() {
        let f = load_font().expect("font parses");
        for ch in "Black to move 0123456789 abcdefgh 黒の番 白の番 終局 勝ち".chars() {
            if ch != ' ' {
                assert_ne!(f.glyph_id(ch).0, 0, "missing glyph for {ch:?}");
                assert!(f.outline(f.glyph_id(ch)).is_some(), "no outline for {ch:?}");
            }
        }
    }

    #[test]
    fn png_roundtrips() {
        let mut img = RgbImage::from_pixel(7, 5, rgb(10, 20, 30));
        img.put_pixel(3, 2, rgb(200, 100, 50));
        let bytes = encode_png(&img).unwrap();
        let back = image::load_from_memory(&bytes).unwrap().to_rgb8();
        assert_eq!(back, img);
    }

    #[test]
    fn text_draws_ink_and_width_matches() {
        let mut img = RgbImage::from_pixel(200, 40, rgb(0, 0, 0));
        let w = draw_text(&mut img, font(), 24.0, (10.0, 20.0), Align::Left, rgb(255, 255, 255), "黒の番");
        // Kanji and kana are full-width: about one em each.
        assert!((66.0..=78.0).contains(&w), "width {w}");
        let lit: Vec<u32> = img.enumerate_pixels().filter(|(_, _, p)| p.0[0] > 128).map(|(x, _, _)| x).collect();
        assert!(lit.len() > 50);
        // Ink stays within the advance box (small side bearings aside).
        assert!(*lit.iter().min().unwrap() >= 9 && *lit.iter().max().unwrap() <= 10 + w as u32 + 1);
    }

    #[test]
    fn sprite_matches_direct_drawing() {
        let bg = |x: u32, y: u32| rgb((x * 9) as u8, (y * 7) as u8, 90);
        let draw = |img: &mut RgbImage| {
            soft_shadow(img, (12.0, 13.0), 7.0, 2.0, 0.5);
            fill_circle(img, (12.0, 12.0), 7.0, rgb(200, 30, 40), 0.8);
        };
        let mut direct = RgbImage::from_fn(24, 24, bg);
        draw(&mut direct);
        let mut stamped = RgbImage::from_fn(24, 24, bg);
        Sprite::record(24, 24, (12, 12), draw).stamp(&mut stamped, (12, 12));
        for (a, b) in direct.pixels().zip(stamped.pixels()) {
            for i in 0..3 {
                assert!((a.0[i] as i32 - b.0[i] as i32).abs() <= 2, "{a:?} vs {b:?}");
            }
        }
        assert_ne!(direct, RgbImage::from_fn(24, 24, bg));
    }

    #[test]
    fn circle_is_antialiased_and_symmetric() {
        let mut img = RgbImage::from_pixel(20, 20, rgb(0, 0, 0));
        fill_circle(&mut img, (10.0, 10.0), 6.0, rgb(255, 255, 255), 1.0);
        assert_eq!(img.get_pixel(10, 10).0[0], 255);
        assert_eq!(img.get_pixel(0, 0).0[0], 0);
        // Some rim pixel is partially covered.
        assert!(img.pixels().any(|p| p.0[0] > 0 && p.0[0] < 255));
        // Mirror symmetry about the centre line x = 10.
        for y in 0..20 {
            for x in 0..10 {
                assert_eq!(img.get_pixel(x, y), img.get_pixel(19 - x, y));
            }
        }
    }
}
