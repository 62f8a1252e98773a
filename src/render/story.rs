//! The after-game chart: the game's value for the human after every ply, the human's best
//! finds and biggest slips marked on the curve.

use image::{Rgb, RgbImage};

use super::{blend, draw_line, draw_text, encode_png, fill_circle, fill_rect, fit_size, font, rgb, Align, BG, TEXT};
use crate::i18n::{Lang, Msg};
use settai_core::{Story, ValueUnit};

/// Chart width in pixels.
pub const WIDTH: u32 = 800;
/// Chart height in pixels.
pub const HEIGHT: u32 = 400;
/// Plot area: left, right, top, bottom.
const PLOT: (f32, f32, f32, f32) = (64.0, WIDTH as f32 - 28.0, 64.0, HEIGHT as f32 - 72.0);

/// The human ahead (area above zero, find markers).
pub(crate) const AHEAD: Rgb<u8> = rgb(88, 196, 120);
/// The human behind (area below zero, slip markers).
pub(crate) const BEHIND: Rgb<u8> = rgb(232, 96, 88);
const CURVE: Rgb<u8> = rgb(246, 200, 80);
const GRID: Rgb<u8> = rgb(70, 76, 86);
const MUTED: Rgb<u8> = rgb(160, 164, 172);

/// Vertical extent of the plot in value units (symmetric around zero).
fn scale(story: &Story) -> i32 {
    match story.unit {
        ValueUnit::Score => 100,
        ValueUnit::Discs => {
            let peak = story.values.iter().flatten().map(|v| v.abs()).max().unwrap_or(0);
            ((peak + 9) / 10 * 10).clamp(10, 64)
        }
    }
}

/// Pixel position of the value after `ply` (0 = the start).
fn point(story: &Story, ply: usize, v: i32) -> (f32, f32) {
    let (left, right, top, bottom) = PLOT;
    let n = story.values.len().max(2) - 1;
    let x = left + (right - left) * ply as f32 / n as f32;
    let s = scale(story) as f32;
    let y = (top + bottom) / 2.0 - (bottom - top) / 2.0 * (v as f32 / s).clamp(-1.0, 1.0);
    (x, y)
}

/// Draws the chart of `story` (values from the human's side).
pub fn story_image(story: &Story, lang: Lang) -> RgbImage {
    let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, BG);
    let (left, right, top, bottom) = PLOT;
    let mid = (top + bottom) / 2.0;
    let title = Msg::ChartTitle.text(lang);
    let px = fit_size(font(), 22.0, WIDTH as f32 - 48.0, &title);
    draw_text(&mut img, font(), px, (24.0, 30.0), Align::Left, TEXT, &title);

    // Shade between the curve and zero: green where the human leads, red where behind.
    let known: Vec<(usize, i32)> = story.values.iter().enumerate().filter_map(|(i, v)| v.map(|v| (i, v))).collect();
    for pair in known.windows(2) {
        let ((i0, v0), (i1, v1)) = (pair[0], pair[1]);
        let (x0, y0) = point(story, i0, v0);
        let (x1, y1) = point(story, i1, v1);
        for x in x0.round() as i32..x1.round() as i32 {
            let t = if x1 > x0 { (x as f32 - x0) / (x1 - x0) } else { 0.0 };
            let y = y0 + (y1 - y0) * t;
            let (from, to, c) = if y < mid { (y, mid, AHEAD) } else { (mid, y, BEHIND) };
            for yy in from.round() as i32..to.round() as i32 {
                blend(&mut img, x, yy, c, 0.28);
            }
        }
    }
    // Grid: zero line and the extremes.
    fill_rect(&mut img, left as i32, mid as i32, (right - left) as i32, 1, MUTED);
    fill_rect(&mut img, left as i32, top as i32, (right - left) as i32, 1, GRID);
    fill_rect(&mut img, left as i32, bottom as i32, (right - left) as i32, 1, GRID);
    let (up, down) = match story.unit {
        ValueUnit::Score => (Msg::ChartWinning.text(lang), Msg::ChartLosing.text(lang)),
        ValueUnit::Discs => {
            let s = scale(story);
            (Msg::ChartDiscs { discs: s }.text(lang), Msg::ChartDiscs { discs: -s }.text(lang))
        }
    };
    draw_text(&mut img, font(), 13.0, (left - 8.0, top), Align::Right, AHEAD, &up);
    draw_text(&mut img, font(), 13.0, (left - 8.0, mid), Align::Right, MUTED, "0");
    draw_text(&mut img, font(), 13.0, (left - 8.0, bottom), Align::Right, BEHIND, &down);
    for pair in known.windows(2) {
        let ((i0, v0), (i1, v1)) = (pair[0], pair[1]);
        draw_line(&mut img, point(story, i0, v0), point(story, i1, v1), CURVE, 3);
    }
    // Markers with their ply and move, finds above the curve, slips below.
    for (moments, colour, dy) in [(&story.finds, AHEAD, -18.0), (&story.slips, BEHIND, 18.0)] {
        for m in moments.iter() {
            let Some(Some(v)) = story.values.get(m.ply) else { continue };
            let (x, y) = point(story, m.ply, *v);
            fill_circle(&mut img, (x, y), 7.0, TEXT, 1.0);
            fill_circle(&mut img, (x, y), 5.0, colour, 1.0);
            let label = format!("{} {}", m.ply, m.mv);
            let w = super::text_width(font(), 13.0, &label);
            let lx = (x - w / 2.0).clamp(4.0, WIDTH as f32 - w - 4.0);
            draw_text(
                &mut img,
                font(),
                13.0,
                (lx, (y + dy).clamp(top - 10.0, bottom + 10.0)),
                Align::Left,
                colour,
                &label,
            );
        }
    }
    // Legend and the ply axis.
    let n = story.values.len().saturating_sub(1);
    draw_text(
        &mut img,
        font(),
        13.0,
        (right, bottom + 22.0),
        Align::Right,
        MUTED,
        &Msg::ChartPlies { plies: n }.text(lang),
    );
    let mut x = left;
    for (colour, text) in [(AHEAD, Msg::ChartFinds.text(lang)), (BEHIND, Msg::ChartSlips.text(lang))] {
        fill_circle(&mut img, (x + 6.0, bottom + 46.0), 6.0, colour, 1.0);
        x += 18.0 + draw_text(&mut img, font(), 15.0, (x + 16.0, bottom + 46.0), Align::Left, TEXT, &text) + 24.0;
    }
    img
}

/// [`story_image`] as PNG bytes.
pub fn story_png(story: &Story, lang: Lang) -> Vec<u8> {
    encode_png(&story_image(story, lang)).expect("PNG encoding of an in-memory RGB image")
}

#[cfg(test)]
mod tests {
    use super::*;
    use settai_core::Moment;
    use settai_core::{GameKind, GameMove};

    fn sample() -> Story {
        Story {
            values: vec![Some(0), Some(10), None, Some(-20), Some(30), Some(40)],
            unit: ValueUnit::Discs,
            slips: vec![Moment { ply: 3, mv: GameMove::parse(GameKind::Reversi, "b2").unwrap() }],
            finds: vec![Moment { ply: 4, mv: GameMove::parse(GameKind::Reversi, "a1").unwrap() }],
        }
    }

    #[test]
    fn the_chart_shades_leads_green_and_deficits_red_and_marks_moments() {
        let story = sample();
        let img = story_image(&story, Lang::En);
        assert_eq!((img.width(), img.height()), (WIDTH, HEIGHT));
        // Just above zero at the lead of ply 5 is shaded green, just below at ply 3 red.
        let (x5, _) = point(&story, 5, 40);
        let mid = ((PLOT.2 + PLOT.3) / 2.0) as u32;
        let ahead = *img.get_pixel(x5 as u32 - 4, mid - 6);
        assert!(ahead.0[1] > ahead.0[0] && ahead.0[1] > BG.0[1], "green shade above zero: {ahead:?}");
        let (x3, y3) = point(&story, 3, -20);
        let behind = *img.get_pixel(x3 as u32, mid + 6);
        assert!(behind.0[0] > behind.0[1] && behind.0[0] > BG.0[0], "red shade below zero: {behind:?}");
        // The slip's marker sits on the curve in red, the find's in green.
        assert_eq!(*img.get_pixel(x3 as u32, y3 as u32), BEHIND);
        let (x4, y4) = point(&story, 4, 30);
        assert_eq!(*img.get_pixel(x4 as u32, y4 as u32), AHEAD);
        // Deterministic, and the language changes the picture.
        assert_eq!(story_png(&story, Lang::En), story_png(&story, Lang::En));
        assert_ne!(story_png(&story, Lang::En), story_png(&story, Lang::Ja));
    }

    #[test]
    fn doubutsu_scores_use_the_fixed_scale_and_empty_stories_draw() {
        let mut story = sample();
        story.unit = ValueUnit::Score;
        assert_eq!(scale(&story), 100);
        assert_eq!(scale(&sample()), 40);
        let empty = Story { values: vec![], unit: ValueUnit::Discs, slips: vec![], finds: vec![] };
        assert_eq!(story_image(&empty, Lang::Ja).width(), WIDTH);
    }
}
