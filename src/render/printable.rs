//! Text that may come from players (display names, results quoting them): reduced to what the
//! font can draw, and cut to fit.

use ab_glyph::{Font, FontRef};

use super::font::{fit_size, text_width};

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
