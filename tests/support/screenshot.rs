//! Screenshots for the README: a reply the bot really sent to the stand-in (its text, its
//! attachments and its components) drawn the way Discord's dark theme shows a message.
//!
//! Only what the bot sent is drawn; the frame (avatar, name, colours) imitates Discord's client.

use ab_glyph::Font;
use image::{imageops, Rgb, RgbImage, Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_rect_mut};
use imageproc::rect::Rect;
use serde_json::Value;

/// Width of a screenshot in pixels, as a desktop client shows a message.
pub const WIDTH: u32 = 760;
/// Width of a screenshot as a phone shows it (a 390-point screen, the message's own margins).
pub const PHONE_WIDTH: u32 = 430;
const PAD: i32 = 16;
const TEXT_X: i32 = 72;
const IMAGE_W: u32 = 420;
/// A button as Discord draws it: 32 px high, at least 60 wide.
const BUTTON_H: i32 = 34;
const BUTTON_MIN_W: i32 = 60;
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
    /// How wide the client is ([`WIDTH`], or [`PHONE_WIDTH`]).
    pub width: u32,
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

/// Splits spans into lines no wider than `text_w` (at spaces, or anywhere in Japanese).
fn wrap(spans: Vec<Span>, text_w: i32) -> Vec<Vec<Span>> {
    let mut lines = vec![Vec::new()];
    let mut x = 0;
    for span in spans {
        match span {
            Span::Mention(m) => {
                let w = width_of(&m) + 8;
                if x + w > text_w && x > 0 {
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
                    if x + w > text_w {
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

fn attachment(name: &str, bytes: &[u8], max_w: u32) -> Option<RgbImage> {
    let img = if name.ends_with(".gif") {
        // An animation is caught in the middle, as a reader of the channel would see it.
        let frames = gif::DecodeOptions::new().read_info(bytes).ok()?.into_iter().count();
        gif_frame(bytes, frames / 2)?
    } else {
        image::load_from_memory(bytes).ok()?.to_rgba8()
    };
    let w = img.width().min(max_w);
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

/// The picture of a button's emoji where the client draws one the font has not: the animals
/// (the same Twemoji pictures Discord shows, from `assets/doubutsu/`), 20 px.
fn emoji_picture(name: &str) -> Option<RgbaImage> {
    let file = match name {
        "🦁" => "lion",
        "🦒" => "giraffe",
        "🐘" => "elephant",
        "🐥" => "chick",
        "🐔" => "hen",
        _ => return None,
    };
    let path = format!("{}/assets/doubutsu/{file}.png", env!("CARGO_MANIFEST_DIR"));
    let img = image::open(path).ok()?.to_rgba8();
    Some(imageops::resize(&img, 20, 20, imageops::FilterType::CatmullRom))
}

/// Blends `top` over `img` at (x, y) by its alpha.
fn overlay_alpha(img: &mut RgbImage, top: &RgbaImage, x: i32, y: i32, fade: f32) {
    for (tx, ty, p) in top.enumerate_pixels() {
        let (px, py) = (x + tx as i32, y + ty as i32);
        if px < 0 || py < 0 || px >= img.width() as i32 || py >= img.height() as i32 {
            continue;
        }
        let a = p.0[3] as f32 / 255.0 * fade;
        let under = img.get_pixel_mut(px as u32, py as u32);
        for k in 0..3 {
            under.0[k] = (under.0[k] as f32 * (1.0 - a) + p.0[k] as f32 * a).round() as u8;
        }
    }
}

/// Draws `card` as a screenshot.
pub fn render(card: &Card<'_>) -> RgbImage {
    let text_w = card.width as i32 - TEXT_X - PAD;
    let lines: Vec<Vec<Span>> = card.content.lines().flat_map(|l| wrap(spans(l, &card.names), text_w)).collect();
    let image_w = IMAGE_W.min(text_w as u32);
    let images: Vec<RgbImage> = card.files.iter().filter_map(|(n, b)| attachment(n, b, image_w)).collect();
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
    // Buttons wrap on a narrow client: room for every button on a line of its own, cropped after.
    height += rows.iter().map(Vec::len).sum::<usize>() as i32 * (BUTTON_H + 8);
    let mut img = RgbImage::from_pixel(card.width, height.max(80) as u32, BG);

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
                    // A disabled button is drawn at half strength, as Discord does.
                    let disabled = c.get("disabled").and_then(Value::as_bool) == Some(true);
                    let fade = |c: Rgb<u8>| if disabled { mix(c, BG) } else { c };
                    let emoji = c.pointer("/emoji/name").and_then(Value::as_str).unwrap_or("");
                    let picture = emoji_picture(emoji);
                    let glyph = if picture.is_none() { clean(emoji) } else { String::new() };
                    let inner = picture.as_ref().map_or(0, |_| 22)
                        + if glyph.is_empty() { 0 } else { width_of(&glyph) + 4 }
                        + width_of(&label);
                    let w = (inner + 28).max(BUTTON_MIN_W);
                    if x + w > card.width as i32 - PAD && x > TEXT_X {
                        // The row goes on below, as a narrow client wraps it.
                        x = TEXT_X;
                        y += BUTTON_H + 8;
                    }
                    round_rect(&mut img, x, y + 2, w, BUTTON_H, fade(colour));
                    let mut at = x + (w - inner) / 2;
                    if let Some(p) = &picture {
                        overlay_alpha(&mut img, p, at, y + 9, if disabled { 0.5 } else { 1.0 });
                        at += 22;
                    }
                    if !glyph.is_empty() {
                        text(&mut img, at, y + 8, fade(NAME), &glyph);
                        at += width_of(&glyph) + 4;
                    }
                    text(&mut img, at, y + 8, fade(NAME), &label);
                    x += w + 8;
                }
                _ => {}
            }
        }
        y += 42;
    }
    if card.ephemeral {
        text(&mut img, TEXT_X, y + 4, MUTED, "Only you can see this · Dismiss message");
        y += 30;
    }
    let used = (y + PAD).clamp(80, img.height() as i32) as u32;
    imageops::crop_imm(&img, 0, 0, card.width, used).to_image()
}

/// Halfway between `c` and the background.
fn mix(c: Rgb<u8>, bg: Rgb<u8>) -> Rgb<u8> {
    Rgb([0, 1, 2].map(|k| ((c.0[k] as u16 + bg.0[k] as u16) / 2) as u8))
}
