//! Screenshots for the README: a reply the bot really sent to the stand-in (its text, its
//! attachments and its components) drawn the way Discord's dark theme shows a message, on a
//! desktop client or a phone, every emoji drawn as Discord draws it (`emoji`) and the buttons
//! laid out as its clients lay them (`buttons`), each picture labelled as drawn.
//!
//! Only what the bot sent is drawn; the frame (avatar, name, colours) imitates Discord's client.

mod buttons;
mod emoji;

use image::{imageops, Rgb, RgbImage, Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_rect_mut};
use imageproc::rect::Rect;
use serde_json::Value;

use emoji::Run;

/// Width of a screenshot in pixels, as a desktop client shows a message.
pub const WIDTH: u32 = 760;
/// The phones the touch screenshots are drawn for, one point a pixel: a 360-point Android
/// screen and a 414-point iPhone (docs/design/touch.md).
pub const PHONE_WIDTHS: [u32; 2] = [360, 414];
/// What every screenshot says of itself, under the message.
pub const CAPTION: &str = "drawn by the tests, not a capture";
const PAD: i32 = 16;
const IMAGE_W: u32 = 420;
const LINE: i32 = 24;
const PX: f32 = 16.0;
/// An emoji in a message's text (1.375 em), and a message of emoji alone (jumbo).
const EMOJI: i32 = 22;
const JUMBO: i32 = 48;

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
    /// How wide the client is ([`WIDTH`], or one of [`PHONE_WIDTHS`]).
    pub width: u32,
    /// The application's custom emojis `(id, image)`, as the stand-in keeps them: a button
    /// naming one shows that very picture.
    pub custom_emojis: Vec<(u64, Vec<u8>)>,
}

impl Card<'_> {
    fn phone(&self) -> bool {
        self.width < 500
    }

    /// Where the message's text starts: after the avatar (40 px) and its margins.
    fn text_x(&self) -> i32 {
        if self.phone() {
            68
        } else {
            72
        }
    }
}

/// A piece of a text line: plain text or a mention pill.
enum Span {
    Text(String),
    Mention(String),
}

/// The width of message text (emoji included, `emoji` px wide).
fn width_of(text: &str, emoji: i32) -> i32 {
    buttons::rich_width(text, PX, emoji)
}

/// Drops markdown markers and control characters (emoji stay: they are drawn).
fn clean(text: &str) -> String {
    text.replace("**", "")
        .replace(['*', '`'], "")
        .chars()
        .filter(|&c| !c.is_control())
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

/// Splits spans into lines no wider than `text_w` (at spaces, or anywhere in Japanese); an
/// emoji is one unit `emoji` px wide.
fn wrap(spans: Vec<Span>, text_w: i32, emoji: i32) -> Vec<Vec<Span>> {
    let mut lines = vec![Vec::new()];
    let mut x = 0;
    for span in spans {
        match span {
            Span::Mention(m) => {
                let w = width_of(&m, emoji) + 8;
                if x + w > text_w && x > 0 {
                    lines.push(Vec::new());
                    x = 0;
                }
                x += w + 4;
                lines.last_mut().unwrap().push(Span::Mention(m));
            }
            Span::Text(t) => {
                // Units: a letter, or an emoji with its selectors.
                let mut units: Vec<String> = Vec::new();
                for c in t.chars() {
                    let joins = matches!(c, '\u{FE0F}' | '\u{FE0E}' | '\u{200D}' | '\u{20E3}')
                        || units.last().is_some_and(|u| u.ends_with('\u{200D}'));
                    match units.last_mut() {
                        Some(u) if joins => u.push(c),
                        _ => units.push(c.to_string()),
                    }
                }
                let mut current = String::new();
                for unit in units {
                    let w = width_of(&unit, emoji);
                    if x + w > text_w {
                        // Break at the last space if the line has one, else here.
                        let carry = match current.rfind(' ') {
                            Some(i) if unit.is_ascii() => current.split_off(i + 1),
                            _ => String::new(),
                        };
                        lines.last_mut().unwrap().push(Span::Text(current));
                        lines.push(Vec::new());
                        x = width_of(&carry, emoji);
                        current = carry;
                    }
                    current.push_str(&unit);
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
    round_rect_r(img, x, y, w, h, 6, c);
}

fn round_rect_r(img: &mut RgbImage, x: i32, y: i32, w: i32, h: i32, radius: i32, c: Rgb<u8>) {
    let r = radius.min(h / 2).min(w / 2);
    draw_filled_rect_mut(img, Rect::at(x + r, y).of_size((w - 2 * r) as u32, h as u32), c);
    draw_filled_rect_mut(img, Rect::at(x, y + r).of_size(w as u32, (h - 2 * r) as u32), c);
    for (cx, cy) in [(x + r, y + r), (x + w - r - 1, y + r), (x + r, y + h - r - 1), (x + w - r - 1, y + h - r - 1)] {
        draw_filled_circle_mut(img, (cx, cy), r, c);
    }
}

/// How text with emoji is drawn: its size, its emoji's, its colour, how strongly (a disabled
/// button's content is half there), and the application's custom emojis.
struct Ink<'a> {
    px: f32,
    emoji: i32,
    colour: Rgb<u8>,
    fade: f32,
    custom: &'a [(u64, Vec<u8>)],
}

/// Draws `s` (letters and emoji) from `x`, centred on `mid_y`; returns its width.
fn rich(img: &mut RgbImage, x: i32, mid_y: i32, ink: &Ink<'_>, s: &str) -> i32 {
    let mut at = x;
    for run in emoji::runs(s) {
        match run {
            Run::Text(t) => {
                settai::render::write_text(img, ink.px, (at as f32, mid_y as f32), ink.colour, &t);
                at += settai::render::measure_text(ink.px, &t).ceil() as i32;
            }
            Run::Emoji(name) => {
                let pic = emoji::twemoji(&name, ink.emoji as u32);
                overlay_alpha(img, &pic, at + 1, mid_y - ink.emoji / 2, ink.fade);
                at += ink.emoji + 2;
            }
            Run::Custom(id) => {
                let pic = emoji::custom(id, ink.custom, ink.emoji as u32);
                overlay_alpha(img, &pic, at + 1, mid_y - ink.emoji / 2, ink.fade);
                at += pic.width() as i32 + 2;
            }
        }
    }
    at - x
}

/// Message text whose line box (`LINE` high) starts at `y`, emoji at the text's size.
fn text(img: &mut RgbImage, x: i32, y: i32, c: Rgb<u8>, s: &str) {
    let ink = Ink { px: PX, emoji: EMOJI, colour: c, fade: 1.0, custom: &[] };
    rich(img, x, y + LINE / 2, &ink, s);
}

/// What each component row holds.
fn component_rows(components: &[Value]) -> Vec<Vec<Value>> {
    components
        .iter()
        .map(|row| row.get("components").and_then(Value::as_array).cloned().unwrap_or_else(|| vec![row.clone()]))
        .collect()
}

/// Blends `top` over `img` at (x, y) by its alpha, times `fade`.
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

/// Whether a message is emoji alone (27 at most), which Discord shows large.
fn jumbo(content: &str) -> bool {
    let content = clean(content);
    let runs = emoji::runs(&content);
    let emoji = runs.iter().filter(|r| !matches!(r, Run::Text(_))).count();
    (1..=27).contains(&emoji) && runs.iter().all(|r| !matches!(r, Run::Text(t) if !t.trim().is_empty()))
}

/// Draws a button at (x, y), `w` wide.
fn button(img: &mut RgbImage, c: &Value, x: i32, y: i32, w: i32, custom: &[(u64, Vec<u8>)]) {
    let colour = match c.get("style").and_then(Value::as_u64) {
        Some(1) => BLURPLE,
        Some(3) => GREEN_BUTTON,
        Some(4) => RED_BUTTON,
        _ => GREY_BUTTON,
    };
    // A disabled button is drawn at half strength, as Discord does.
    let disabled = c.get("disabled").and_then(Value::as_bool) == Some(true);
    let fade = |c: Rgb<u8>| if disabled { mix(c, BG) } else { c };
    round_rect_r(img, x, y, w, buttons::HEIGHT, 8, fade(colour));
    let label = clean(c.get("label").and_then(Value::as_str).unwrap_or(""));
    let ink = Ink {
        px: buttons::LABEL_PX,
        emoji: buttons::EMOJI,
        colour: fade(NAME),
        fade: if disabled { 0.5 } else { 1.0 },
        custom,
    };
    let mid = y + buttons::HEIGHT / 2;
    let mut at = x + (w - buttons::content_width(c)).max(0) / 2;
    if let Some(e) = c.get("emoji").filter(|e| !e.is_null()) {
        // A custom emoji by its id; a Unicode one by itself as its name.
        let pic = match e.get("id").and_then(|id| id.as_str().and_then(|s| s.parse().ok()).or(id.as_u64())) {
            Some(id) => emoji::custom(id, custom, buttons::EMOJI as u32),
            None => match emoji::runs(e.get("name").and_then(Value::as_str).unwrap_or("")).as_slice() {
                [Run::Emoji(name)] => emoji::twemoji(name, buttons::EMOJI as u32),
                other => panic!("screenshot: a button's emoji {e} is no single emoji: {other:?}"),
            },
        };
        overlay_alpha(img, &pic, at, mid - buttons::EMOJI / 2, ink.fade);
        at += buttons::EMOJI + buttons::EMOJI_GAP;
    }
    rich(img, at, mid, &ink, &label);
}

/// Draws `card` as a screenshot.
pub fn render(card: &Card<'_>) -> RgbImage {
    let text_x = card.text_x();
    let text_w = card.width as i32 - text_x - PAD;
    let big = jumbo(card.content);
    let (line_h, emoji_px) = if big { (JUMBO + 8, JUMBO) } else { (LINE, EMOJI) };
    let lines: Vec<Vec<Span>> =
        card.content.lines().flat_map(|l| wrap(spans(l, &card.names), text_w, emoji_px)).collect();
    let image_w = IMAGE_W.min(text_w as u32);
    let images: Vec<RgbImage> = card.files.iter().filter_map(|(n, b)| attachment(n, b, image_w)).collect();
    let rows = component_rows(&card.components);
    let mut height = PAD + 26 + lines.len() as i32 * line_h;
    height += images.iter().map(|i| i.height() as i32 + 8).sum::<i32>();
    height += if card.ephemeral { 30 } else { 0 } + PAD + 40;
    if card.open_menus {
        height += rows
            .iter()
            .flatten()
            .map(|c| c.get("options").and_then(Value::as_array).map_or(0, Vec::len) as i32 * 48)
            .sum::<i32>();
    }
    // Room for every component on a line of its own; cropped after.
    height += rows.iter().map(|r| r.len() as i32 * (buttons::HEIGHT.max(40) + buttons::GAP)).sum::<i32>();
    let mut img = RgbImage::from_pixel(card.width, height.max(160) as u32, BG);

    // Avatar and name line.
    draw_filled_circle_mut(&mut img, (PAD + 20, PAD + 20), 20, BLURPLE);
    text(&mut img, PAD + 12, PAD + 7, NAME, "接");
    text(&mut img, text_x, PAD - 2, NAME, "settai");
    let badge_x = text_x + width_of("settai", EMOJI) + 8;
    round_rect(&mut img, badge_x, PAD + 1, 38, 18, BLURPLE);
    settai::render::write_text(&mut img, 12.0, ((badge_x + 7) as f32, (PAD + 10) as f32), NAME, "APP");
    text(&mut img, badge_x + 48, PAD - 2, MUTED, "Today at 19:42");

    let mut y = PAD + 26;
    let ink = |c| Ink { px: PX, emoji: emoji_px, colour: c, fade: 1.0, custom: &card.custom_emojis };
    for line in &lines {
        let mut x = text_x;
        for span in line {
            match span {
                Span::Text(t) => {
                    x += rich(&mut img, x, y + line_h / 2, &ink(TEXT), t) + 4;
                }
                Span::Mention(m) => {
                    let w = width_of(m, emoji_px) + 8;
                    round_rect(&mut img, x, y + 1, w, LINE - 2, MENTION_BG);
                    text(&mut img, x + 4, y, MENTION, m);
                    x += w + 4;
                }
            }
        }
        y += line_h;
    }
    for pic in &images {
        y += 4;
        imageops::overlay(&mut img, pic, i64::from(text_x), i64::from(y));
        y += pic.height() as i32 + 4;
    }
    let menu_w = 400.min(text_w);
    for row in &rows {
        y += buttons::GAP;
        if row.iter().any(|c| c.get("type").and_then(Value::as_u64) != Some(2)) {
            for c in row {
                y = select_menu(&mut img, card, c, text_x, y, menu_w);
            }
            continue;
        }
        let placed = buttons::place(row, text_x, text_w);
        for (c, &(line, x, w)) in row.iter().zip(&placed) {
            button(&mut img, c, x, y + line * (buttons::HEIGHT + buttons::GAP), w, &card.custom_emojis);
        }
        let lines = placed.last().map_or(0, |p| p.0 + 1);
        y += lines * buttons::HEIGHT + (lines - 1).max(0) * buttons::GAP;
    }
    if card.ephemeral {
        text(&mut img, text_x, y + 4, MUTED, "Only you can see this · Dismiss message");
        y += 30;
    }
    let used = (y + PAD).clamp(80, img.height() as i32 - 26) as u32;
    let mut out = imageops::crop_imm(&img, 0, 0, card.width, used + 26).to_image();
    // The label: a strip under the message, so that nobody takes the picture for a capture.
    draw_filled_rect_mut(&mut out, Rect::at(0, used as i32).of_size(card.width, 26), FIELD);
    settai::render::write_text(&mut out, 12.0, (PAD as f32, used as f32 + 13.0), MUTED, CAPTION);
    out
}

/// Draws a select menu (open, its options listed, if the card says so); returns the y under it.
fn select_menu(img: &mut RgbImage, card: &Card<'_>, c: &Value, x: i32, y: i32, w: i32) -> i32 {
    let placeholder = clean(c.get("placeholder").and_then(Value::as_str).unwrap_or("Make a selection"));
    let ink = |colour| Ink { px: PX, emoji: 20, colour, fade: 1.0, custom: &card.custom_emojis };
    round_rect(img, x, y, w, 38, FIELD);
    rich(img, x + 12, y + 19, &ink(MUTED), &placeholder);
    text(img, x + w - 22, y + 7, TEXT, "v");
    let mut bottom = y + 38;
    if card.open_menus {
        let options = c.get("options").and_then(Value::as_array).cloned().unwrap_or_default();
        let top = y + 40;
        round_rect(img, x, top, w, options.len() as i32 * 48 + 4, FIELD);
        for (i, o) in options.iter().enumerate() {
            let oy = top + 4 + i as i32 * 48;
            let label = clean(o.get("label").and_then(Value::as_str).unwrap_or(""));
            let hint = clean(o.get("description").and_then(Value::as_str).unwrap_or(""));
            rich(img, x + 12, oy + 12, &ink(NAME), &label);
            rich(img, x + 12, oy + 33, &ink(MUTED), &hint);
        }
        bottom = top + options.len() as i32 * 48 + 4;
    }
    bottom
}

/// Halfway between `c` and the background.
fn mix(c: Rgb<u8>, bg: Rgb<u8>) -> Rgb<u8> {
    Rgb([0, 1, 2].map(|k| ((c.0[k] as u16 + bg.0[k] as u16) / 2) as u8))
}
