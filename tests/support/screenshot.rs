//! Screenshots for the README: a reply the bot really sent to the stand-in (its text, its
//! attachments and its components) drawn the way Discord's dark theme shows a message.
//!
//! Only what the bot sent is drawn; the frame (avatar, name, colours) imitates Discord's client.

use ab_glyph::Font;
use image::{imageops, Rgb, RgbImage, Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_rect_mut};
use imageproc::rect::Rect;
use serde_json::Value;

/// Width of a screenshot in pixels.
pub const WIDTH: u32 = 760;
const PAD: i32 = 16;
const TEXT_X: i32 = 72;
const TEXT_W: i32 = WIDTH as i32 - TEXT_X - PAD;
const IMAGE_W: u32 = 420;
const LINE: i32 = 24;
const PX: f32 = 17.0;

const BG: Rgb<u8> = Rgb([49, 51, 56]);
const TEXT: Rgb<u8> = Rgb([219, 222, 225]);
const MUTED: Rgb<u8> = Rgb([148, 155, 164]);
const NAME: Rgb<u8> = Rgb([242, 243, 245]);
const BLURPLE: Rgb<u8> = Rgb([88, 101, 242]);
const MENTION_BG: Rgb<u8> = Rgb([60, 66, 112]);
const MENTION: Rgb<u8> = Rgb([201, 205, 251]);
const FIELD: Rgb<u8> = Rgb([30, 31, 34]);
const GREY_BUTTON: Rgb<u8> = Rgb([78, 80, 88]);
const RED_BUTTON: Rgb<u8> = Rgb([218, 55, 60]);
const GREEN_BUTTON: Rgb<u8> = Rgb([36, 128, 70]);

/// One message as Discord would show it.
pub struct Card<'a> {
    /// The message text (Discord markdown).
    pub content: &'a str,
    /// Attachments `(file name, bytes)`; PNG and GIF are shown as images.
    pub files: Vec<(&'a str, &'a [u8])>,
    /// The message's action rows as the bot sent them.
    pub components: Vec<Value>,
    /// Shown with Discord's "Only you can see this" footer.
    pub ephemeral: bool,
    /// Display names for mentions `<@id>`.
    pub names: Vec<(u64, &'a str)>,
    /// Select menus drawn open, their options listed (as after a tap on them).
    pub open_menus: bool,
}

/// A piece of a text line: plain text or a mention pill.
enum Span {
    Text(String),
    Mention(String),
}

fn font() -> &'static ab_glyph::FontRef<'static> {
    settai::render::font()
}

fn width_of(text: &str) -> i32 {
    settai::render::measure_text(PX, text).ceil() as i32
}

/// Drops what the font cannot draw (emoji) and markdown markers.
fn clean(text: &str) -> String {
    let f = font();
    text.replace("**", "")
        .replace(['*', '`'], "")
        .chars()
        .filter(|&c| c == ' ' || (!c.is_control() && f.glyph_id(c).0 != 0))
        .collect::<String>()
        .trim()
        .to_string()
}

/// A line of Discord text as spans, mentions resolved to names.
fn spans(line: &str, names: &[(u64, &str)]) -> Vec<Span> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("<@") {
        let Some(end) = rest[start..].find('>') else { break };
        out.push(Span::Text(clean(&rest[..start])));
        let id: u64 = rest[start + 2..start + end].trim_start_matches('!').parse().unwrap_or(0);
        let name = names.iter().find(|(i, _)| *i == id).map_or("someone", |(_, n)| n);
        out.push(Span::Mention(format!("@{name}")));
        rest = &rest[start + end + 1..];
    }
    out.push(Span::Text(clean(rest)));
    out.retain(|s| !matches!(s, Span::Text(t) if t.is_empty()));
    out
}

/// Splits spans into lines no wider than `TEXT_W` (at spaces, or anywhere in Japanese).
fn wrap(spans: Vec<Span>) -> Vec<Vec<Span>> {
    let mut lines = vec![Vec::new()];
    let mut x = 0;
    for span in spans {
        match span {
            Span::Mention(m) => {
                let w = width_of(&m) + 8;
                if x + w > TEXT_W && x > 0 {
                    lines.push(Vec::new());
                    x = 0;
                }
                x += w + 4;
                lines.last_mut().unwrap().push(Span::Mention(m));
            }
            Span::Text(t) => {
                let mut current = String::new();
                for ch in t.chars() {
                    let w = width_of(&ch.to_string());
                    if x + w > TEXT_W {
                        // Break at the last space if the line has one, else here.
                        let carry = match current.rfind(' ') {
                            Some(i) if ch.is_ascii() => current.split_off(i + 1),
                            _ => String::new(),
                        };
                        lines.last_mut().unwrap().push(Span::Text(current));
                        lines.push(Vec::new());
                        x = width_of(&carry);
                        current = carry;
                    }
                    current.push(ch);
                    x += w;
                }
                x += 4;
                lines.last_mut().unwrap().push(Span::Text(current));
            }
        }
    }
    lines
}

/// Frame `n` of a GIF as a viewer shows it (the frames before composed under it).
fn gif_frame(bytes: &[u8], n: usize) -> Option<RgbaImage> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).ok()?;
    let (w, h) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut canvas = RgbaImage::new(w, h);
    let mut seen = 0;
    while let Some(frame) = decoder.read_next_frame().ok()? {
        for (i, px) in frame.buffer.chunks(4).enumerate() {
            let (x, y) = (
                u32::from(frame.left) + i as u32 % u32::from(frame.width),
                u32::from(frame.top) + i as u32 / u32::from(frame.width),
            );
            if px[3] > 0 && x < w && y < h {
                canvas.put_pixel(x, y, Rgba([px[0], px[1], px[2], 255]));
            }
        }
        seen += 1;
        if seen > n {
            break;
        }
    }
    Some(canvas)
}

fn attachment(name: &str, bytes: &[u8]) -> Option<RgbImage> {
    let img = if name.ends_with(".gif") {
        // An animation is caught in the middle, as a reader of the channel would see it.
        let frames = gif::DecodeOptions::new().read_info(bytes).ok()?.into_iter().count();
        gif_frame(bytes, frames / 2)?
    } else {
        image::load_from_memory(bytes).ok()?.to_rgba8()
    };
    let w = img.width().min(IMAGE_W);
    let h = (img.height() as f32 * w as f32 / img.width() as f32).round() as u32;
    let img = imageops::resize(&img, w, h, imageops::FilterType::CatmullRom);
    Some(image::DynamicImage::ImageRgba8(img).to_rgb8())
}

fn round_rect(img: &mut RgbImage, x: i32, y: i32, w: i32, h: i32, c: Rgb<u8>) {
    let r = 6.min(h / 2);
    draw_filled_rect_mut(img, Rect::at(x + r, y).of_size((w - 2 * r) as u32, h as u32), c);
    draw_filled_rect_mut(img, Rect::at(x, y + r).of_size(w as u32, (h - 2 * r) as u32), c);
    for (cx, cy) in [(x + r, y + r), (x + w - r - 1, y + r), (x + r, y + h - r - 1), (x + w - r - 1, y + h - r - 1)] {
        draw_filled_circle_mut(img, (cx, cy), r, c);
    }
}

/// Text whose line box starts at `y`.
fn text(img: &mut RgbImage, x: i32, y: i32, c: Rgb<u8>, s: &str) {
    settai::render::write_text(img, PX, (x as f32, (y + LINE / 2) as f32), c, s);
}

/// What each component row will take: (height, drawer).
fn component_rows(components: &[Value]) -> Vec<Vec<Value>> {
    components
        .iter()
        .map(|row| row.get("components").and_then(Value::as_array).cloned().unwrap_or_else(|| vec![row.clone()]))
        .collect()
}

/// Draws `card` as a screenshot.
pub fn render(card: &Card<'_>) -> RgbImage {
    let lines: Vec<Vec<Span>> = card.content.lines().flat_map(|l| wrap(spans(l, &card.names))).collect();
    let images: Vec<RgbImage> = card.files.iter().filter_map(|(n, b)| attachment(n, b)).collect();
    let rows = component_rows(&card.components);
    let mut height = PAD + 26 + lines.len() as i32 * LINE;
    height += images.iter().map(|i| i.height() as i32 + 8).sum::<i32>();
    height += rows.len() as i32 * 48 + if card.ephemeral { 30 } else { 0 } + PAD;
    if card.open_menus {
        height += rows
            .iter()
            .flatten()
            .map(|c| c.get("options").and_then(Value::as_array).map_or(0, Vec::len) as i32 * 48)
            .sum::<i32>();
    }
    let mut img = RgbImage::from_pixel(WIDTH, height.max(80) as u32, BG);

    // Avatar and name line.
    draw_filled_circle_mut(&mut img, (PAD + 20, PAD + 20), 20, BLURPLE);
    text(&mut img, PAD + 11, PAD + 7, NAME, "接");
    text(&mut img, TEXT_X, PAD - 2, NAME, "settai");
    let badge_x = TEXT_X + width_of("settai") + 8;
    round_rect(&mut img, badge_x, PAD + 1, 38, 18, BLURPLE);
    settai::render::write_text(&mut img, 12.0, ((badge_x + 7) as f32, (PAD + 10) as f32), NAME, "APP");
    text(&mut img, badge_x + 48, PAD - 2, MUTED, "Today at 19:42");

    let mut y = PAD + 26;
    for line in &lines {
        let mut x = TEXT_X;
        for span in line {
            match span {
                Span::Text(t) => {
                    text(&mut img, x, y, TEXT, t);
                    x += width_of(t) + 4;
                }
                Span::Mention(m) => {
                    let w = width_of(m) + 8;
                    round_rect(&mut img, x, y + 1, w, LINE - 2, MENTION_BG);
                    text(&mut img, x + 4, y, MENTION, m);
                    x += w + 4;
                }
            }
        }
        y += LINE;
    }
    for pic in &images {
        y += 4;
        imageops::overlay(&mut img, pic, i64::from(TEXT_X), i64::from(y));
        y += pic.height() as i32 + 4;
    }
    for row in &rows {
        y += 6;
        let mut x = TEXT_X;
        for c in row {
            match c.get("type").and_then(Value::as_u64) {
                Some(3) => {
                    let placeholder = c.get("placeholder").and_then(Value::as_str).unwrap_or("Make a selection");
                    round_rect(&mut img, x, y, 400, 38, FIELD);
                    text(&mut img, x + 12, y + 8, MUTED, &clean(placeholder));
                    text(&mut img, x + 378, y + 8, TEXT, "v");
                    if card.open_menus {
                        let options = c.get("options").and_then(Value::as_array).cloned().unwrap_or_default();
                        let top = y + 40;
                        round_rect(&mut img, x, top, 400, options.len() as i32 * 48 + 4, FIELD);
                        for (i, o) in options.iter().enumerate() {
                            let oy = top + 4 + i as i32 * 48;
                            let label = clean(o.get("label").and_then(Value::as_str).unwrap_or(""));
                            let hint = clean(o.get("description").and_then(Value::as_str).unwrap_or(""));
                            text(&mut img, x + 12, oy, NAME, &label);
                            text(&mut img, x + 12, oy + 21, MUTED, &hint);
                        }
                        y += options.len() as i32 * 48 + 4;
                    }
                    x += 408;
                }
                Some(2) => {
                    let label = clean(c.get("label").and_then(Value::as_str).unwrap_or(""));
                    let colour = match c.get("style").and_then(Value::as_u64) {
                        Some(1) => BLURPLE,
                        Some(3) => GREEN_BUTTON,
                        Some(4) => RED_BUTTON,
                        _ => GREY_BUTTON,
                    };
                    let w = width_of(&label) + 32;
                    round_rect(&mut img, x, y + 2, w, 34, colour);
                    text(&mut img, x + 16, y + 8, NAME, &label);
                    x += w + 8;
                }
                _ => {}
            }
        }
        y += 42;
    }
    if card.ephemeral {
        text(&mut img, TEXT_X, y + 4, MUTED, "Only you can see this · Dismiss message");
    }
    img
}
