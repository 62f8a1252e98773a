//! Buttons as Discord's clients lay them out, by the sizes docs/design/touch.md gives and says
//! where they come from (Discord promises none): 32 px high, 16 px each side, the emoji 22 px
//! and 4 px from the label, the label 14 px, at least 60 px wide; 8 px between buttons, and a
//! button that does not fit in what is left of the line goes on below (flex-wrap), 8 px lower.

use serde_json::Value;

use super::emoji::{runs, Run};

/// How high a button is.
pub const HEIGHT: i32 = 32;
/// Padding on each side of a button's content.
pub const PAD_X: i32 = 16;
/// The narrowest button.
pub const MIN_W: i32 = 60;
/// How large the emoji of a button is drawn.
pub const EMOJI: i32 = 22;
/// Between the emoji and the label.
pub const EMOJI_GAP: i32 = 4;
/// The label's size.
pub const LABEL_PX: f32 = 14.0;
/// Between two buttons of a line, and between wrapped lines and rows.
pub const GAP: i32 = 8;

/// The width of text with emoji at `px`, emoji `emoji` px wide.
pub fn rich_width(text: &str, px: f32, emoji: i32) -> i32 {
    runs(text)
        .iter()
        .map(|r| match r {
            Run::Text(t) => settai::render::measure_text(px, t).ceil() as i32,
            Run::Emoji(_) | Run::Custom(_) => emoji + 2,
        })
        .sum()
}

/// The width of a button's content: its emoji, the gap, its label.
pub fn content_width(button: &Value) -> i32 {
    let label = button.get("label").and_then(Value::as_str).unwrap_or("");
    let has_emoji = button.get("emoji").is_some_and(|e| !e.is_null());
    let label_w = if label.is_empty() { 0 } else { rich_width(label, LABEL_PX, EMOJI) };
    let emoji_w = if has_emoji { EMOJI } else { 0 };
    let gap = if has_emoji && label_w > 0 { EMOJI_GAP } else { 0 };
    emoji_w + gap + label_w
}

/// A button's width.
pub fn width(button: &Value) -> i32 {
    (content_width(button) + 2 * PAD_X).max(MIN_W)
}

/// Where each button of a row goes from `x0` with `room` px: `(line, x, width)`, line 0 the
/// row's first. A button wider than the room gets a line of its own.
pub fn place(row: &[Value], x0: i32, room: i32) -> Vec<(i32, i32, i32)> {
    let mut out = Vec::new();
    let (mut line, mut x) = (0, x0);
    for button in row {
        let w = width(button).min(room);
        if x > x0 && x + w > x0 + room {
            line += 1;
            x = x0;
        }
        out.push((line, x, w));
        x += w + GAP;
    }
    out
}
