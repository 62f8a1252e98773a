//! Text in the embedded font: the font parsed once, runs of text measured and drawn, labels
//! centred by their ink, and the size at which a text fits.

use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use image::{Rgb, RgbImage};

use super::draw::blend;
use super::error::RenderError;

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
