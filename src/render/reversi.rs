//! Reversi board image: a plain view of a position in, PNG bytes out (its pixel tests in
//! `reversi/tests.rs`).

use std::sync::OnceLock;

use image::{Rgb, RgbImage};

use super::text::{draw_block, fit_block, Across, Block, Rect};
use super::{
    draw_label, draw_text, encode_png, fill_circle, fill_circle_with, fill_rect, fill_round_rect, fit_size, fit_text,
    font, inlay_groove, mix, printable, rgb, soft_shadow, stroke_circle, text_width, Align, Lang, Sprite, BANNER_TEXT,
    BG, LABEL, PILL, PILL_ACTIVE, PILL_RING, TEXT, WOOD, WOOD_EDGE, WOOD_LIGHT,
};
use crate::i18n::Msg;
use settai_core::{GameKind, Side};

/// Contents of one square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Disc {
    /// No disc.
    #[default]
    Empty,
    /// A black disc (or, as `to_move`, Black's turn).
    Black,
    /// A white disc (or, as `to_move`, White's turn).
    White,
}

/// Everything the renderer needs to draw a reversi position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReversiView {
    /// Squares, index = row * 8 + col; a1 = 0 top-left, h1 = 7, a8 = 56.
    pub cells: [Disc; 64],
    /// Square index of the last placement, marked with a red dot.
    pub last_move: Option<u8>,
    /// Bitmask (bit = square index) of discs flipped by the last move.
    pub flipped: u64,
    /// Bitmask of legal moves for the side to move, drawn as dots.
    pub legal: u64,
    /// The squares numbered for play by touch, in number order (the first is 1): drawn as
    /// large numerals instead of dots, the same numbers the buttons under the board carry
    /// (docs/design/touch.md#reversi-one-tap-on-a-number). Empty: dots only.
    pub numbered: Vec<u8>,
    /// Whose turn it is; `None` (or `Some(Empty)`) once the game is over.
    pub to_move: Option<Disc>,
    /// Result text shown in the header instead of the turn, e.g. "Black wins 40-24".
    pub banner: Option<String>,
    /// Display names of black and white, shown beside their disc counts (empty: counts only).
    pub names: [String; 2],
    /// The player's seat against the computer (English then says "Your move"; see
    /// [`Msg::BoardTurn`]); `None` for a board seen from outside a game.
    pub human: Option<Side>,
}

// Layout, in pixels. The board is 8 × 64 px inside a 34 px frame that carries
// the coordinates; the header strip above holds counts and status.
const CELL: i32 = 64;
const BOARD: i32 = CELL * 8;
const PAD: i32 = 14;
const FRAME: i32 = 34;
/// Em size of the coordinates: large enough for a child to find "d3" on a phone, where the
/// image is shown at about two thirds of its size.
const LABEL_PX: f32 = 21.0;
const HEADER: i32 = 64;
const BX: i32 = PAD + FRAME;
const BY: i32 = HEADER + FRAME;
/// Width of the rendered image in pixels.
pub const WIDTH: u32 = (BX + BOARD + FRAME + PAD) as u32;
/// Height of the rendered image in pixels.
pub const HEIGHT: u32 = (BY + BOARD + FRAME + PAD) as u32;
const DISC_R: f32 = 26.5;

// Palette (the shared colours live in render/mod.rs).
pub(crate) const GREEN: Rgb<u8> = rgb(36, 128, 72);
const GRID: Rgb<u8> = rgb(16, 62, 34);
const LAST_MOVE: Rgb<u8> = rgb(232, 56, 48);
const BLACK_DOT: Rgb<u8> = rgb(0, 0, 0);
const WHITE_DOT: Rgb<u8> = rgb(255, 255, 255);
const LEGAL_ALPHA_BLACK: f32 = 0.38;
const LEGAL_ALPHA_WHITE: f32 = 0.55;
const LEGAL_R: f32 = 7.5;
/// A numbered square: a rounded square in the buttons' own blurple, nearly filling the square,
/// the numeral white on it, so that a child matches it with the button at a glance and never
/// takes it for a disc (on a phone, where the image is shown at about two thirds of its size,
/// the numeral is still about 20 px high).
const NUMBER_HALF: f32 = 23.0;
const NUMBER_CORNER: f32 = 8.0;
/// Discord's primary button colour.
const NUMBER_BG: Rgb<u8> = rgb(88, 101, 242);
const NUMBER_INK: Rgb<u8> = rgb(255, 255, 255);
const NUMBER_PX: f32 = 34.0;
/// Two digits are set smaller to stay inside the disc.
const NUMBER_PX_TWO_DIGITS: f32 = 28.0;

/// Pixel coordinates of the centre of square `idx` (a corner shared by four pixels).
pub(crate) fn cell_centre(idx: usize) -> (i32, i32) {
    let (row, col) = ((idx / 8) as i32, (idx % 8) as i32);
    (BX + col * CELL + CELL / 2, BY + row * CELL + CELL / 2)
}

/// The static part of the image (frame, board, grid, coordinates), built once.
fn background() -> &'static RgbImage {
    static BG_IMG: OnceLock<RgbImage> = OnceLock::new();
    BG_IMG.get_or_init(build_background)
}

fn build_background() -> RgbImage {
    let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, BG);
    let frame = (PAD as f32, HEADER as f32, (WIDTH as i32 - PAD) as f32, (HEIGHT as i32 - PAD) as f32);
    // A darker outline under the wood gives the frame an edge on any backdrop.
    fill_round_rect(&mut img, frame, 10.0, WOOD_EDGE, 1.0);
    // Lighter top-left and plain bottom-right insets read as a gentle bevel.
    fill_round_rect(&mut img, (frame.0 + 1.0, frame.1 + 1.0, frame.2 - 2.0, frame.3 - 2.0), 9.0, WOOD_LIGHT, 1.0);
    fill_round_rect(&mut img, (frame.0 + 2.0, frame.1 + 2.0, frame.2 - 2.0, frame.3 - 2.0), 8.0, WOOD, 1.0);
    inlay_groove(&mut img, BX, BY, BOARD, BOARD);

    // Green field including the outer grid line, which straddles its edge.
    fill_rect(&mut img, BX - 1, BY - 1, BOARD + 2, BOARD + 2, GREEN);
    for i in 0..=8 {
        fill_rect(&mut img, BX + i * CELL - 1, BY - 1, 2, BOARD + 2, GRID);
        fill_rect(&mut img, BX - 1, BY + i * CELL - 1, BOARD + 2, 2, GRID);
    }
    // Star points at the corners of the central 4×4 (b2/c3, f2/g3, …).
    for (i, j) in [(2, 2), (2, 6), (6, 2), (6, 6)] {
        fill_circle(&mut img, ((BX + i * CELL) as f32, (BY + j * CELL) as f32), 4.5, GRID, 1.0);
    }

    let f = font();
    for k in 0..8 {
        let c = (CELL / 2 + k * CELL) as f32;
        let col = char::from(b'a' + k as u8).to_string();
        let row = (k + 1).to_string();
        // The groove takes the frame's inner 4 px: the labels are centred on what is left.
        let across = (BX - FRAME / 2 - 2) as f32;
        draw_label(&mut img, f, LABEL_PX, (BX as f32 + c, (BY - FRAME / 2 - 2) as f32), LABEL, &col, "abcdefh");
        draw_label(&mut img, f, LABEL_PX, (across, BY as f32 + c), LABEL, &row, "12345678");
    }
    img
}

/// Board-sized discs (with shadow) for Black and White, rendered once.
fn disc_sprites() -> &'static [Sprite; 2] {
    static SPRITES: OnceLock<[Sprite; 2]> = OnceLock::new();
    SPRITES.get_or_init(|| {
        let half = CELL / 2;
        let sprite = |d| {
            Sprite::painted(CELL as u32, CELL as u32, (half, half), |img| {
                draw_disc(img, (half as f32, half as f32), DISC_R, d)
            })
        };
        [sprite(Disc::Black), sprite(Disc::White)]
    })
}

/// Draws a shaded disc with a soft shadow, centred at `c` with radius `r`.
fn draw_disc(img: &mut RgbImage, c: (f32, f32), r: f32, disc: Disc) {
    let (hi, base, rim) = match disc {
        Disc::Black => (rgb(98, 98, 104), rgb(24, 24, 27), rgb(6, 6, 8)),
        Disc::White => (rgb(255, 255, 255), rgb(222, 222, 216), rgb(168, 168, 160)),
        Disc::Empty => return,
    };
    soft_shadow(img, (c.0 + 1.0, c.1 + 2.5), r, 2.5, 0.45);
    fill_circle_with(img, c, r, 1.0, |nx, ny| {
        // Light from the upper left: a broad highlight fading into the base colour,
        // darkening again towards the rim so the disc reads as slightly domed.
        let (hx, hy) = (nx + 0.38, ny + 0.45);
        let t = ((hx * hx + hy * hy).sqrt() / 1.25).min(1.0);
        let body = mix(hi, base, t * t * (3.0 - 2.0 * t));
        let d = (nx * nx + ny * ny).sqrt();
        mix(body, rim, ((d - 0.78) / 0.22).clamp(0.0, 1.0) * 0.7)
    });
    if disc == Disc::White {
        // A thin dark rim keeps the white disc crisp against the green.
        stroke_circle(img, c, r - 0.5, 1.0, rgb(120, 120, 112), 0.55);
    }
}

/// Draws the header strip: a pill per side (disc, name if known, count), the side to move
/// highlighted; status or banner on the right.
fn draw_header(img: &mut RgbImage, view: &ReversiView, lang: Lang) {
    let f = font();
    let count = |d: Disc| view.cells.iter().filter(|&&c| c == d).count();
    let to_move = match view.to_move {
        Some(d @ (Disc::Black | Disc::White)) => Some(d),
        _ => None,
    };
    let banner = view.banner.as_deref().map(|b| printable(f, b)).filter(|b| !b.is_empty());
    let status = Msg::BoardTurn { kind: GameKind::Reversi, to_move: to_move.map(seat), human: view.human }.text(lang);
    let mid = (HEADER / 2) as f32;
    let right = (WIDTH as i32 - PAD - 4) as f32;
    let named = view.names.iter().any(|n| !printable(f, n).is_empty());
    // Named pills share what the status leaves (at most 200 px each); bare counts need 92. A
    // result takes what the pills can give: it is wrapped into the room left (`banner_box`).
    let pill_w = if !named {
        92.0
    } else if banner.is_some() {
        NAMED_PILL_MIN
    } else {
        let status_w = text_width(f, fit_size(f, 20.0, 200.0, &status), &status).min(200.0);
        ((right - status_w - 18.0 - PAD as f32 - 10.0) / 2.0).clamp(NAMED_PILL_MIN, 200.0).floor()
    };
    let mut x = PAD as f32;
    for (side, name) in [(Disc::Black, &view.names[0]), (Disc::White, &view.names[1])] {
        // The side to move gets a lighter pill so the turn is visible at a glance.
        let pill = (x, mid - 20.0, x + pill_w, mid + 20.0);
        if to_move == Some(side) {
            fill_round_rect(img, pill, 20.0, PILL_RING, 1.0);
            fill_round_rect(img, (pill.0 + 2.0, pill.1 + 2.0, pill.2 - 2.0, pill.3 - 2.0), 18.0, PILL_ACTIVE, 1.0);
        } else {
            fill_round_rect(img, pill, 20.0, PILL, 1.0);
        }
        draw_disc(img, (x + 21.0, mid), 13.0, side);
        let n = count(side).to_string();
        if named {
            let count_right = x + pill_w - 14.0;
            draw_text(img, f, 20.0, (count_right, mid), Align::Right, TEXT, &n);
            let shown = printable(f, name);
            let shown = if shown.is_empty() {
                Msg::BoardSeat { kind: GameKind::Reversi, side: seat(side), human: view.human }.text(lang)
            } else {
                shown
            };
            let max_w = count_right - text_width(f, 20.0, &n) - 8.0 - (x + 42.0);
            let (px, shown) = fit_text(f, 17.0, 12.0, max_w, &shown);
            draw_text(img, f, px, (x + 42.0, mid), Align::Left, TEXT, &shown);
        } else {
            draw_text(img, f, 20.0, (x + 42.0, mid), Align::Left, TEXT, &n);
        }
        x += pill_w + 10.0;
    }

    match banner {
        Some(b) => draw_block(img, f, &banner_block(&b, banner_box(named)), BANNER_TEXT),
        None => {
            let (px, text) = fit_text(f, 20.0, 11.0, right - x - 8.0, &status);
            draw_text(img, f, px, (right, mid), Align::Right, TEXT, &text);
        }
    }
}

/// The narrowest a pill with a name gets.
const NAMED_PILL_MIN: f32 = 150.0;

/// Where a result is written: the header right of the pills, above the frame.
fn banner_box(named: bool) -> Rect {
    let pill_w = if named { NAMED_PILL_MIN } else { 92.0 };
    (PAD as f32 + 2.0 * (pill_w + 10.0) + 8.0, 3.0, (WIDTH as i32 - PAD - 4) as f32, (HEADER - 3) as f32)
}

/// A result laid out in `area`: one line at 20 px when it fits, else wrapped and shrunk.
fn banner_block(text: &str, area: Rect) -> Block {
    fit_block(font(), text, area, Across::Right, 20.0)
}

fn seat(d: Disc) -> Side {
    if d == Disc::White {
        Side::Second
    } else {
        Side::First
    }
}

/// Renders a reversi position as a PNG image (`WIDTH` × `HEIGHT`).
pub fn render_reversi(view: &ReversiView, lang: Lang) -> Vec<u8> {
    encode_png(&reversi_image(view, lang)).expect("PNG encoding of an in-memory RGB image")
}

/// Draws a reversi position (`WIDTH` × `HEIGHT`).
pub fn reversi_image(view: &ReversiView, lang: Lang) -> RgbImage {
    let mut img = background().clone();
    let legal_colour = match view.to_move {
        Some(Disc::Black) => Some((BLACK_DOT, LEGAL_ALPHA_BLACK)),
        Some(Disc::White) => Some((WHITE_DOT, LEGAL_ALPHA_WHITE)),
        _ => None,
    };

    let numbered: u64 = view.numbered.iter().filter(|&&i| i < 64).fold(0, |m, &i| m | 1 << i);
    for (idx, &disc) in view.cells.iter().enumerate() {
        let (cx, cy) = cell_centre(idx);
        let c = (cx as f32, cy as f32);
        let bit = 1u64 << idx;
        match disc {
            Disc::Empty => {
                if numbered & bit != 0 {
                    // Drawn below, once every disc is down.
                } else if let (true, Some((colour, alpha))) = (view.legal & bit != 0, legal_colour) {
                    fill_circle(&mut img, c, LEGAL_R, colour, alpha);
                }
            }
            _ => {
                disc_sprites()[usize::from(disc == Disc::White)].stamp(&mut img, (cx, cy));
                if view.flipped & bit != 0 {
                    // A faint inner ring in the contrasting tone: noticeable when looked for.
                    let ring = if disc == Disc::Black { rgb(255, 255, 255) } else { rgb(0, 0, 0) };
                    stroke_circle(&mut img, c, DISC_R * 0.55, 2.0, ring, 0.28);
                }
            }
        }
    }

    if let Some(idx) = view.last_move.filter(|&i| i < 64) {
        let (cx, cy) = cell_centre(idx as usize);
        let c = (cx as f32, cy as f32);
        fill_circle(&mut img, c, 6.5, rgb(0, 0, 0), 0.25);
        fill_circle(&mut img, c, 5.5, LAST_MOVE, 1.0);
    }

    for (n, &idx) in view.numbered.iter().enumerate().filter(|&(_, &i)| i < 64) {
        draw_number(&mut img, idx as usize, n + 1);
    }

    draw_header(&mut img, view, lang);
    // Encoding an in-memory RGB8 buffer of valid dimensions cannot fail.
    img
}

/// The numeral `n` on square `idx`, on its button-coloured square.
fn draw_number(img: &mut RgbImage, idx: usize, n: usize) {
    let (cx, cy) = cell_centre(idx);
    let c = (cx as f32, cy as f32);
    soft_shadow(img, (c.0, c.1 + 1.5), NUMBER_HALF, 3.0, 0.35);
    let h = NUMBER_HALF;
    fill_round_rect(img, (c.0 - h, c.1 - h, c.0 + h, c.1 + h), NUMBER_CORNER, NUMBER_BG, 1.0);
    let text = n.to_string();
    let px = if text.len() > 1 { NUMBER_PX_TWO_DIGITS } else { NUMBER_PX };
    // Centred by the ink of the digits themselves (every digit shares the same height).
    draw_label(img, font(), px, c, NUMBER_INK, &text, "0123456789");
}

#[cfg(test)]
mod tests;
