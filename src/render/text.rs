//! Text that must fit a box whatever its length or language (the result banners): broken into
//! lines where English and Japanese allow, shrunk until the ink of every line, as the font
//! draws it, lies inside the box. Measured from the glyph outlines, not estimated, so nothing
//! is ever clipped.

use ab_glyph::{point, Font, FontRef, OutlinedGlyph, ScaleFont};
use image::{Rgb, RgbImage};

use super::{blend, em_scale, fit_text, text_width};

/// A box in pixels: left, top, right, bottom.
pub(crate) type Rect = (f32, f32, f32, f32);

/// How the lines of a block sit across their box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Across {
    /// Flush with the right edge (the header's status).
    Right,
    /// Centred (the banner across the doubutsu board).
    Centre,
}

/// Distance between baselines, in ems.
const LINE_PITCH: f32 = 1.28;
/// Below this em size the text is cut with "…" rather than shrunk further.
const FLOOR_PX: f32 = 8.0;

/// Text laid out in a box: its em size and each line with its pen position and baseline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Block {
    /// The em size every line is drawn at.
    pub(crate) px: f32,
    /// (x, baseline, text) of each line.
    pub(crate) lines: Vec<(f32, f32, String)>,
}

impl Block {
    /// The union of the ink of every line, as [`draw_block`] draws it (`None`: nothing to draw).
    pub(crate) fn ink(&self, f: &FontRef<'_>) -> Option<Rect> {
        self.lines.iter().filter_map(|(x, y, s)| run_ink(f, self.px, (*x, *y), s)).reduce(union)
    }
}

fn union(a: Rect, b: Rect) -> Rect {
    (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
}

/// Whether `inner` lies inside `outer`.
pub(crate) fn inside(inner: Rect, outer: Rect) -> bool {
    inner.0 >= outer.0 && inner.1 >= outer.1 && inner.2 <= outer.2 && inner.3 <= outer.3
}

/// The outlined glyphs of `text` with the pen at `x` on `baseline`, kerned like [`text_width`].
fn run_glyphs(f: &FontRef<'_>, px: f32, (x, baseline): (f32, f32), text: &str) -> Vec<OutlinedGlyph> {
    let scale = em_scale(f, px);
    let sf = f.as_scaled(scale);
    let (mut pen, mut prev) = (x, None);
    let mut out = Vec::new();
    for ch in text.chars() {
        let id = sf.glyph_id(ch);
        if let Some(p) = prev {
            pen += sf.kern(p, id);
        }
        if let Some(g) = f.outline_glyph(id.with_scale_and_position(scale, point(pen, baseline))) {
            out.push(g);
        }
        pen += sf.h_advance(id);
        prev = Some(id);
    }
    out
}

/// The pixels a run of text inks (whole pixels, as drawn).
fn run_ink(f: &FontRef<'_>, px: f32, at: (f32, f32), text: &str) -> Option<Rect> {
    run_glyphs(f, px, at, text)
        .iter()
        .map(|g| {
            let b = g.px_bounds();
            (b.min.x.floor(), b.min.y.floor(), b.max.x.ceil(), b.max.y.ceil())
        })
        .reduce(union)
}

/// Whether a character is set without spaces between words (kana, kanji, full-width forms),
/// so a line may break beside it.
fn is_wide(ch: char) -> bool {
    ('\u{2E80}'..='\u{9FFF}').contains(&ch)
        || ('\u{F900}'..='\u{FAFF}').contains(&ch)
        || ('\u{FF00}'..='\u{FFEF}').contains(&ch)
}

/// Punctuation that may not start a line (it closes what came before).
fn closes(ch: char) -> bool {
    "、。，．！？）」』】〕：；ー…!?),.:;".contains(ch)
}

/// Punctuation that may not end a line (it opens what comes after).
fn opens(ch: char) -> bool {
    "（「『【〔(".contains(ch)
}

/// `text` cut where a line may break: after spaces, and between wide characters except before
/// closing or after opening punctuation (the Japanese rule of kinsoku, simplified).
fn pieces(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut prev: Option<char> = None;
    for ch in text.chars() {
        let breaks = match prev {
            None => false,
            Some(p) if p.is_whitespace() => !ch.is_whitespace(),
            Some(p) => (is_wide(p) || is_wide(ch)) && !ch.is_whitespace() && !closes(ch) && !opens(p),
        };
        if breaks || out.is_empty() {
            out.push(String::new());
        }
        out.last_mut().expect("a piece was pushed").push(ch);
        prev = Some(ch);
    }
    out
}

/// Greedy lines of at most `max_w` advance (a piece wider than that gets a line of its own).
fn wrap(f: &FontRef<'_>, px: f32, max_w: f32, pieces: &[String]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in pieces {
        let candidate = format!("{line}{piece}");
        if line.is_empty() || text_width(f, px, candidate.trim_end()) <= max_w {
            line = candidate;
        } else {
            lines.push(line.trim_end().to_string());
            line = piece.trim_start().to_string();
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// Places `lines` at em size `px` in `region`, centred vertically as one block.
fn place(f: &FontRef<'_>, px: f32, region: Rect, across: Across, lines: Vec<String>) -> Block {
    let cap =
        f.outline_glyph(f.glyph_id('H').with_scale(em_scale(f, px))).map(|g| -g.px_bounds().min.y).unwrap_or(px * 0.7);
    let pitch = (px * LINE_PITCH).round();
    let mid = (region.1 + region.3) / 2.0;
    let n = lines.len() as f32;
    let placed = lines
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            let w = text_width(f, px, &s);
            let x = match across {
                Across::Right => region.2 - w,
                Across::Centre => ((region.0 + region.2) / 2.0 - w / 2.0).round(),
            };
            // Whole-pixel baselines, as in `draw_text`, keep horizontal strokes crisp.
            let line_mid = mid + (i as f32 - (n - 1.0) / 2.0) * pitch;
            (x, (line_mid + cap / 2.0).round(), s)
        })
        .collect();
    Block { px, lines: placed }
}

/// `text` laid out to fit `region`: the largest em size from `px` down at which its lines
/// (as many as fit, evened out) ink only pixels inside the box. Below `FLOOR_PX` (text no
/// banner ever holds) it is cut with "…" on one line instead.
pub(crate) fn fit_block(f: &FontRef<'_>, text: &str, region: Rect, across: Across, px: f32) -> Block {
    let pieces = pieces(text.trim());
    let max_w = region.2 - region.0;
    let fits = |b: &Block| b.ink(f).is_none_or(|ink| inside(ink, region));
    let mut size = px;
    while size >= FLOOR_PX {
        let lines = wrap(f, size, max_w, &pieces);
        let block = place(f, size, region, across, lines.clone());
        if fits(&block) {
            // Even the lines out: the narrowest width that keeps their number, so a result
            // never ends on one lonely word.
            let (mut lo, mut hi) = (0.0f32, max_w);
            for _ in 0..12 {
                let w = (lo + hi) / 2.0;
                if wrap(f, size, w, &pieces).len() == lines.len() {
                    hi = w;
                } else {
                    lo = w;
                }
            }
            let even = place(f, size, region, across, wrap(f, size, hi, &pieces));
            return if fits(&even) { even } else { block };
        }
        size -= 1.0;
    }
    let (size, cut) = fit_text(f, FLOOR_PX, FLOOR_PX, max_w, text.trim());
    place(f, size, region, across, vec![cut])
}

/// Draws a block laid out by [`fit_block`].
pub(crate) fn draw_block(img: &mut RgbImage, f: &FontRef<'_>, block: &Block, c: Rgb<u8>) {
    for (x, baseline, s) in &block.lines {
        for g in run_glyphs(f, block.px, (*x, *baseline), s) {
            let b = g.px_bounds();
            g.draw(|gx, gy, cov| blend(img, b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32, c, cov));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::font;

    #[test]
    fn lines_break_between_words_and_between_japanese_characters_but_not_before_closing_marks() {
        assert_eq!(pieces("Game over: you win"), ["Game ", "over: ", "you ", "win"]);
        let ja = pieces("勝ちです（40-24）！おみごと");
        assert_eq!(ja, ["勝", "ち", "で", "す", "（40-24）！", "お", "み", "ご", "と"]);
        assert!(pieces("ひよこ。ライオン").iter().all(|p| !p.starts_with('。')));
    }

    #[test]
    fn a_long_text_is_wrapped_and_shrunk_until_its_ink_fits_and_no_word_is_lost() {
        let f = font();
        let region = (100.0, 4.0, 340.0, 60.0);
        for text in [
            "Game over: I win (40-24). Good game — another one?",
            "対局終了：わたしの勝ちです。もう一局どうですか？同じ局面が3回あらわれました（千日手）。",
            "Short",
        ] {
            let block = fit_block(f, text, region, Across::Right, 20.0);
            let ink = block.ink(f).expect("ink");
            assert!(inside(ink, region), "{text:?}: ink {ink:?} leaves {region:?}");
            let joined: String = block.lines.iter().map(|(_, _, s)| s.replace(' ', "")).collect();
            assert_eq!(joined, text.replace(' ', ""), "every character is kept");
            assert!(block.px >= 12.0, "{text:?} at {} px", block.px);
        }
        // A short text stays on one line at full size.
        let short = fit_block(f, "Short", region, Across::Right, 20.0);
        assert_eq!((short.px, short.lines.len()), (20.0, 1));
    }

    #[test]
    fn drawn_pixels_stay_inside_the_measured_ink() {
        let f = font();
        let mut img = RgbImage::from_pixel(400, 80, Rgb([0, 0, 0]));
        let region = (20.0, 6.0, 380.0, 74.0);
        let block =
            fit_block(f, "とてもながい けっか の ぶんしょう です よ、ほんとうに ながい", region, Across::Centre, 30.0);
        draw_block(&mut img, f, &block, Rgb([255, 255, 255]));
        let ink = block.ink(f).unwrap();
        let lit: Vec<(u32, u32)> =
            img.enumerate_pixels().filter(|(_, _, p)| p.0[0] > 0).map(|(x, y, _)| (x, y)).collect();
        assert!(lit.len() > 200);
        for (x, y) in lit {
            assert!(inside((x as f32, y as f32, x as f32 + 1.0, y as f32 + 1.0), ink), "({x},{y}) outside {ink:?}");
        }
    }

    #[test]
    fn junk_no_banner_holds_is_cut_rather_than_drawn_outside() {
        let f = font();
        let region = (0.0, 0.0, 200.0, 30.0);
        let block = fit_block(f, &"W".repeat(500), region, Across::Centre, 20.0);
        assert!(inside(block.ink(f).unwrap(), region));
        assert!(block.lines[0].2.ends_with(crate::render::ELLIPSIS));
    }
}
