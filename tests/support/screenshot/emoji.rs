//! Emoji as Discord's clients draw them: a Unicode emoji as its Twemoji picture (vendored in
//! `tests/assets/twemoji/`, see its README), a custom emoji as the image its application
//! uploaded (the stand-in keeps it). An emoji with no picture here is a panic naming it, never
//! a gap in a screenshot.

use std::collections::HashSet;
use std::sync::OnceLock;

use ab_glyph::Font;
use image::{imageops, RgbaImage};

/// Where the vendored glyphs are.
fn folder() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/assets/twemoji")
}

/// Every emoji Twemoji has, by file name (code points in hex joined by `-`).
fn twemoji_names() -> &'static HashSet<String> {
    static NAMES: OnceLock<HashSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let list = std::fs::read_to_string(folder().join("names.txt")).expect("tests/assets/twemoji/names.txt");
        list.lines().map(str::to_string).collect()
    })
}

/// Twemoji's name of a sequence of code points (U+FE0F left out, as its file names do unless
/// the sequence joins others with U+200D).
fn name_of(chars: &[char]) -> String {
    let joined = chars.contains(&'\u{200D}');
    let kept = chars.iter().filter(|&&c| joined || c != '\u{FE0F}');
    kept.map(|&c| format!("{:x}", c as u32)).collect::<Vec<_>>().join("-")
}

/// Symbols Twemoji has that Discord leaves as text unless U+FE0F asks for the emoji.
fn text_by_default(c: char) -> bool {
    c.is_ascii() || matches!(c, '©' | '®' | '™')
}

/// A piece of text as drawn: letters in the font, or an emoji's picture.
#[derive(Clone, Debug, PartialEq)]
pub enum Run {
    Text(String),
    /// A Unicode emoji, by its Twemoji name.
    Emoji(String),
    /// A custom emoji, by id.
    Custom(u64),
}

/// `text` cut into runs of letters and emoji. Panics on a character neither the font nor
/// Twemoji draws (it would be missing from the picture).
pub fn runs(text: &str) -> Vec<Run> {
    let chars: Vec<char> = text.chars().collect();
    let font = settai::render::font();
    let mut out: Vec<Run> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        // A custom emoji written in text: `<:name:id>`, `<a:name:id>` when animated.
        if chars[i] == '<' {
            let rest: String = chars[i..].iter().take(120).collect();
            if let Some((id, len)) = custom_in_text(&rest) {
                out.push(Run::Custom(id));
                i += len;
                continue;
            }
        }
        // The longest emoji sequence starting here (Twemoji's longest are 10 code points).
        let found = (1..=10.min(chars.len() - i)).rev().find(|&n| {
            let seq = &chars[i..i + n];
            twemoji_names().contains(&name_of(seq)) && !(n == 1 && text_by_default(seq[0]))
        });
        if let Some(n) = found {
            let mut n = n;
            // A trailing presentation selector belongs to the emoji.
            if chars.get(i + n) == Some(&'\u{FE0F}') {
                n += 1;
            }
            out.push(Run::Emoji(name_of(&chars[i..i + n])));
            i += n;
            continue;
        }
        let c = chars[i];
        i += 1;
        if matches!(c, '\u{FE0E}' | '\u{FE0F}' | '\u{200D}') {
            continue;
        }
        if !(c.is_whitespace() || font.glyph_id(c).0 != 0) {
            panic!(
                "screenshot: no glyph for {c:?} (U+{:04X}) in {text:?}: neither the font nor Twemoji draws it (an emoji \
                 Twemoji lacks, or a symbol the font lacks)",
                c as u32
            );
        }
        match out.last_mut() {
            Some(Run::Text(t)) => t.push(c),
            _ => out.push(Run::Text(c.to_string())),
        }
    }
    out
}

/// The id and length in characters of a custom emoji's markup at the start of `s`.
fn custom_in_text(s: &str) -> Option<(u64, usize)> {
    let body = s.strip_prefix("<a:").or_else(|| s.strip_prefix("<:"))?;
    let end = body.find('>')?;
    let (name, id) = body[..end].split_once(':')?;
    let ok = name.len() >= 2 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let id: u64 = id.parse().ok().filter(|_| ok)?;
    Some((id, s.len() - body.len() + end + 1))
}

/// The picture of a Unicode emoji (its Twemoji name), `px` square.
pub fn twemoji(name: &str, px: u32) -> RgbaImage {
    let path = folder().join(format!("{name}.png"));
    let Ok(img) = image::open(&path) else {
        let emoji: String =
            name.split('-').filter_map(|h| u32::from_str_radix(h, 16).ok()).filter_map(char::from_u32).collect();
        panic!(
            "screenshot: no Twemoji glyph vendored for {emoji} ({name}): add it to tests/assets/twemoji/emoji.txt and \
             run tests/assets/twemoji/regenerate.sh"
        );
    };
    imageops::resize(&img.to_rgba8(), px, px, imageops::FilterType::CatmullRom)
}

/// The picture of the custom emoji `id` from `images` (the application's emojis as the
/// stand-in keeps them), `px` high at its aspect ratio.
pub fn custom(id: u64, images: &[(u64, Vec<u8>)], px: u32) -> RgbaImage {
    let Some((_, bytes)) = images.iter().find(|(i, _)| *i == id) else {
        panic!(
            "screenshot: the custom emoji {id} is not one of the application's (the stand-in holds none by that id)"
        );
    };
    let img = image::load_from_memory(bytes).unwrap_or_else(|e| panic!("screenshot: custom emoji {id}: {e}"));
    let w = (img.width() as f32 * px as f32 / img.height().max(1) as f32).round().max(1.0) as u32;
    imageops::resize(&img.to_rgba8(), w, px, imageops::FilterType::CatmullRom)
}
