//! Charts of a hospitality run, drawn with the board renderer's primitives and font (no
//! plotting dependency): the guest's win rate per guest with its interval and target, the
//! distribution of game lengths (or reversi margins), and a typical game's value curve.

use std::path::Path;

use anyhow::Context as _;
use image::{Rgb, RgbImage};

use settai::render::{self, draw_line, draw_text, fill_rect, fit_size, font, rgb, Align, BG, TEXT};
use settai_lab::hospitality::{GuestResult, SimulatedGame, Summary};

const W: u32 = 900;
const GREEN: Rgb<u8> = rgb(96, 186, 120);
const RED: Rgb<u8> = rgb(222, 96, 88);
const BLUE: Rgb<u8> = rgb(104, 156, 230);
const GRID: Rgb<u8> = rgb(70, 74, 82);
const MUTED: Rgb<u8> = rgb(160, 164, 172);

/// Writes `win_rates.png`, `distribution.png`, `value_curve.png` and `median_curves.png` into `dir`.
pub fn write_charts(dir: &Path, rows: &[Summary], games: &[Vec<SimulatedGame>]) -> anyhow::Result<()> {
    for (name, img) in [
        ("win_rates.png", win_rates(rows)),
        ("distribution.png", distribution(rows, games)),
        ("value_curve.png", value_curve(rows, games)),
        ("median_curves.png", median_curves(rows, games)),
    ] {
        let path = dir.join(name);
        let png = render::encode_png(&img).map_err(|e| anyhow::anyhow!("{e}"))?;
        std::fs::write(&path, png).with_context(|| format!("could not write {}", path.display()))?;
    }
    Ok(())
}

fn title(img: &mut RgbImage, text: &str) {
    let px = fit_size(font(), 22.0, W as f32 - 48.0, text);
    draw_text(img, font(), px, (24.0, 26.0), Align::Left, TEXT, text);
}

/// One horizontal bar per guest: win rate, 95% interval whisker, target tick.
pub fn win_rates(rows: &[Summary]) -> RgbImage {
    let row_h = 34;
    let (left, right, top) = (200.0f32, W as f32 - 40.0, 70);
    let h = top as u32 + row_h as u32 * rows.len().max(1) as u32 + 50;
    let mut img = RgbImage::from_pixel(W, h, BG);
    let level = rows.first().map_or(String::new(), |r| format!("{} {}", r.game, r.level));
    title(&mut img, &format!("Guest win rate against {level} (95% interval)"));
    let x_of = |p: f64| left + (right - left) * p as f32;
    for tick in 0..=10 {
        let x = x_of(tick as f64 / 10.0);
        fill_rect(&mut img, x as i32, top - 6, 1, row_h * rows.len() as i32 + 6, GRID);
        if tick % 2 == 0 {
            let label = format!("{}%", tick * 10);
            draw_text(&mut img, font(), 13.0, (x - 12.0, h as f32 - 30.0), Align::Left, MUTED, &label);
        }
    }
    for (i, r) in rows.iter().enumerate() {
        let y = top + row_h * i as i32;
        draw_text(&mut img, font(), 16.0, (left - 12.0, y as f32 + row_h as f32 / 2.0), Align::Right, TEXT, &r.guest);
        let colour = match r.pass {
            Some(true) => GREEN,
            Some(false) => RED,
            None => BLUE,
        };
        let bar = (x_of(r.win_rate.value) - left).round() as i32;
        fill_rect(&mut img, left as i32, y + 7, bar.max(1), row_h - 14, colour);
        let (lo, hi) = (x_of(r.win_rate.low), x_of(r.win_rate.high));
        let mid = y as f32 + row_h as f32 / 2.0;
        draw_line(&mut img, (lo, mid), (hi, mid), TEXT, 2);
        draw_line(&mut img, (lo, mid - 6.0), (lo, mid + 6.0), TEXT, 2);
        draw_line(&mut img, (hi, mid - 6.0), (hi, mid + 6.0), TEXT, 2);
        if let Some(t) = r.target.as_deref().and_then(target_rate) {
            let x = x_of(t);
            draw_line(&mut img, (x, y as f32 + 3.0), (x, (y + row_h) as f32 - 3.0), rgb(246, 200, 80), 3);
        }
    }
    img
}

/// The minimum win rate in a target text such as "guest wins ≥ 85% (…)".
fn target_rate(target: &str) -> Option<f64> {
    let after = target.split('≥').nth(1)?;
    let number: String = after.trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    number.parse::<f64>().ok().map(|p| p / 100.0)
}

/// Histogram of reversi margins when there are any, else of game lengths, all guests stacked.
pub fn distribution(rows: &[Summary], games: &[Vec<SimulatedGame>]) -> RgbImage {
    let all: Vec<&SimulatedGame> = games.iter().flatten().collect();
    let margins = all.iter().all(|g| g.margin.is_some()) && !all.is_empty();
    let values: Vec<i32> = all.iter().map(|g| if margins { g.margin.unwrap_or(0) } else { g.plies as i32 }).collect();
    let (lo, hi) = if margins { (-64, 64) } else { (0, values.iter().copied().max().unwrap_or(1).max(1)) };
    let bins = 32usize;
    let width = ((hi - lo) as f32 / bins as f32).max(1.0);
    let mut count = vec![[0u32; 3]; bins];
    for (g, v) in all.iter().zip(&values) {
        let b = (((v - lo) as f32 / width) as usize).min(bins - 1);
        let k = match g.result {
            GuestResult::Win => 0,
            GuestResult::Draw => 1,
            GuestResult::Loss => 2,
        };
        count[b][k] += 1;
    }
    let h = 420;
    let mut img = RgbImage::from_pixel(W, h, BG);
    let level = rows.first().map_or(String::new(), |r| format!("{} {}", r.game, r.level));
    let what = if margins { "final disc margin for the guest" } else { "game length in plies" };
    title(&mut img, &format!("{level}: {what} (green guest won, grey draw, red guest lost)"));
    let (left, right, top, bottom) = (60.0f32, W as f32 - 30.0, 60.0f32, h as f32 - 50.0);
    let peak = count.iter().map(|c| c.iter().sum::<u32>()).max().unwrap_or(1).max(1);
    let bw = (right - left) / bins as f32;
    for (b, c) in count.iter().enumerate() {
        let mut y = bottom;
        for (k, colour) in [(0, GREEN), (1, MUTED), (2, RED)] {
            let seg = (bottom - top) * c[k] as f32 / peak as f32;
            fill_rect(
                &mut img,
                (left + bw * b as f32) as i32 + 1,
                (y - seg) as i32,
                bw as i32 - 2,
                seg.round() as i32,
                colour,
            );
            y -= seg;
        }
    }
    fill_rect(&mut img, left as i32, bottom as i32, (right - left) as i32, 1, GRID);
    for k in 0..=4 {
        let v = lo as f32 + (hi - lo) as f32 * k as f32 / 4.0;
        let x = left + (right - left) * k as f32 / 4.0;
        draw_text(&mut img, font(), 13.0, (x - 10.0, bottom + 20.0), Align::Left, MUTED, &format!("{v:.0}"));
    }
    draw_text(&mut img, font(), 13.0, (left - 8.0, top), Align::Right, MUTED, &peak.to_string());
    img
}

/// The value curve of a typical game: the median-length game of the middle guest.
pub fn value_curve(rows: &[Summary], games: &[Vec<SimulatedGame>]) -> RgbImage {
    let h = 420;
    let mut img = RgbImage::from_pixel(W, h, BG);
    let middle = games.len() / 2;
    let mut chosen: Vec<&SimulatedGame> = games.get(middle).map(|g| g.iter().collect()).unwrap_or_default();
    chosen.sort_by_key(|g| g.plies);
    let Some(game) = chosen.get(chosen.len() / 2).copied() else {
        title(&mut img, "no games");
        return img;
    };
    let guest = rows.get(middle).map_or("", |r| r.guest.as_str());
    let result = match game.result {
        GuestResult::Win => "the guest won",
        GuestResult::Draw => "a draw",
        GuestResult::Loss => "the guest lost",
    };
    title(&mut img, &format!("A typical game against {guest}: value for the guest after each ply ({result})"));
    let (left, right, top, bottom) = (60.0f32, W as f32 - 30.0, 60.0f32, h as f32 - 50.0);
    let peak = game.values.iter().map(|v| v.abs()).max().unwrap_or(1).max(1) as f32;
    let y_of = |v: i32| (top + bottom) / 2.0 - (bottom - top) / 2.0 * v as f32 / peak;
    let n = game.values.len().max(2) - 1;
    let x_of = |i: usize| left + (right - left) * i as f32 / n as f32;
    fill_rect(&mut img, left as i32, y_of(0) as i32, (right - left) as i32, 1, GRID);
    for (i, pair) in game.values.windows(2).enumerate() {
        let colour = if pair[1] > 0 {
            GREEN
        } else if pair[1] < 0 {
            RED
        } else {
            MUTED
        };
        draw_line(&mut img, (x_of(i), y_of(pair[0])), (x_of(i + 1), y_of(pair[1])), colour, 3);
    }
    draw_text(&mut img, font(), 13.0, (left - 8.0, top), Align::Right, MUTED, &format!("+{peak:.0}"));
    draw_text(&mut img, font(), 13.0, (left - 8.0, bottom), Align::Right, MUTED, &format!("-{peak:.0}"));
    draw_text(&mut img, font(), 13.0, (right, bottom + 20.0), Align::Right, MUTED, &format!("ply {}", n));
    img
}

/// Line colours of [`median_curves`], one per guest in order (repeating after eight).
const PALETTE: [Rgb<u8>; 8] = [
    rgb(250, 128, 180),
    rgb(104, 156, 230),
    rgb(96, 186, 120),
    rgb(246, 200, 80),
    rgb(222, 96, 88),
    rgb(190, 120, 220),
    rgb(80, 200, 200),
    rgb(240, 140, 60),
];

/// The median value for the guest after each ply (over the games still running), one line per
/// guest: where each guest's lead came from and when.
pub fn median_curves(rows: &[Summary], games: &[Vec<SimulatedGame>]) -> RgbImage {
    let legend_h = 22 * rows.len().div_ceil(3) as u32;
    let h = 440 + legend_h;
    let mut img = RgbImage::from_pixel(W, h, BG);
    let level = rows.first().map_or(String::new(), |r| format!("{} {}", r.game, r.level));
    title(&mut img, &format!("Median value for the guest after each ply against {level}, per guest"));
    let curves: Vec<Vec<i32>> = games
        .iter()
        .map(|gs| {
            let longest = gs.iter().map(|g| g.values.len()).max().unwrap_or(0);
            (0..longest)
                .map_while(|i| {
                    let mut at: Vec<i32> = gs.iter().filter_map(|g| g.values.get(i).copied()).collect();
                    // Only while most games are still running, so the tail is not one game's.
                    (at.len() * 2 > gs.len()).then(|| {
                        at.sort_unstable();
                        at[at.len() / 2]
                    })
                })
                .collect()
        })
        .collect();
    let peak = curves.iter().flatten().map(|v| v.abs()).max().unwrap_or(1).max(1);
    let peak = (peak + 9) / 10 * 10;
    let plies = curves.iter().map(Vec::len).max().unwrap_or(2).max(2) - 1;
    let (left, right, top, bottom) = (60.0f32, W as f32 - 30.0, 60.0f32, 400.0f32);
    let y_of = |v: i32| (top + bottom) / 2.0 - (bottom - top) / 2.0 * v as f32 / peak as f32;
    let x_of = |i: usize| left + (right - left) * i as f32 / plies as f32;
    for v in [-peak, -peak / 2, 0, peak / 2, peak] {
        fill_rect(&mut img, left as i32, y_of(v) as i32, (right - left) as i32, 1, GRID);
        draw_text(&mut img, font(), 13.0, (left - 8.0, y_of(v)), Align::Right, MUTED, &format!("{v:+}"));
    }
    draw_text(&mut img, font(), 13.0, (right, bottom + 18.0), Align::Right, MUTED, &format!("ply {plies}"));
    for (k, (curve, row)) in curves.iter().zip(rows).enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        for (i, pair) in curve.windows(2).enumerate() {
            draw_line(&mut img, (x_of(i), y_of(pair[0])), (x_of(i + 1), y_of(pair[1])), colour, 2);
        }
        let (lx, ly) = (left + 280.0 * (k % 3) as f32, 430.0 + 22.0 * (k / 3) as f32);
        fill_rect(&mut img, lx as i32, ly as i32 - 2, 18, 4, colour);
        draw_text(&mut img, font(), 14.0, (lx + 26.0, ly), Align::Left, TEXT, &row.guest);
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;
    use settai_lab::hospitality::Rate;

    fn row(guest: &str, rate: f64, pass: Option<bool>) -> Summary {
        let mut s = Summary::of("doubutsu", "settai", guest, &[]);
        s.win_rate = Rate { value: rate, low: rate - 0.1, high: rate + 0.05 };
        s.pass = pass;
        // A target label as the benchmark prints it (docs/design/hospitality-benchmark.md#targets).
        s.target = pass.map(|_| "guest wins ≥ 85% (most games)".into());
        s
    }

    #[test]
    fn win_rate_bars_are_as_long_as_the_rate_and_coloured_by_verdict() {
        let img = win_rates(&[row("random", 0.9, Some(true)), row("perfect", 0.2, Some(false)), row("x", 0.5, None)]);
        assert_eq!(img.width(), W);
        let (left, right) = (200.0f32, W as f32 - 40.0);
        let x_at = |p: f32| (left + (right - left) * p) as u32;
        // First row (y 70..104), bar centre line just above the whisker: green up to 90%.
        assert_eq!(*img.get_pixel(x_at(0.5), 70 + 10), GREEN);
        assert_eq!(*img.get_pixel(x_at(0.15), 104 + 10), RED);
        assert_ne!(*img.get_pixel(x_at(0.6), 104 + 10), RED, "the red bar stops at 20%");
        assert_eq!(*img.get_pixel(x_at(0.3), 138 + 10), BLUE);
        // The rate is read from a target's label (docs/design/hospitality-benchmark.md#targets).
        assert_eq!(target_rate("guest wins ≥ 85% (most games)"), Some(0.85));
    }

    #[test]
    fn distribution_and_curve_draw_without_games_and_with() {
        let g =
            SimulatedGame { result: GuestResult::Win, plies: 40, values: vec![0, -10, 20, 90], ..Default::default() };
        let rows = [row("random", 1.0, None)];
        let games = vec![vec![g.clone(), g]];
        let d = distribution(&rows, &games);
        assert!(d.pixels().any(|p| *p == GREEN), "a green stack for the guest's wins");
        let c = value_curve(&rows, &games);
        assert!(c.pixels().any(|p| *p == GREEN) && c.pixels().any(|p| *p == RED));
        let empty = value_curve(&[], &[]);
        assert_eq!(empty.width(), W);
        // The median curve of the first guest is drawn in the first palette colour.
        let m = median_curves(&rows, &games);
        let in_plot = |c: Rgb<u8>| m.enumerate_pixels().any(|(_, y, p)| y < 400 && *p == c);
        assert!(in_plot(PALETTE[0]), "the guest's curve (above the legend)");
        assert!(!in_plot(PALETTE[1]), "one guest, one colour");
        assert_eq!(median_curves(&[], &[]).width(), W);
    }
}
