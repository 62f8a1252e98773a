//! Reversi board image: a plain view of a position in, PNG bytes out.
//!
//! Past 500 lines by its pixel tests (nearly half the file); the picture itself is about 290 lines.

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
/// A numbered square: a pale disc nearly filling the square, the numeral dark on it, so that a
/// child matches it with the button at a glance on a phone (where the image is shown at about
/// two thirds of its size, the numeral is still about 20 px high).
const NUMBER_R: f32 = 24.0;
const NUMBER_BG: Rgb<u8> = rgb(250, 246, 232);
const NUMBER_INK: Rgb<u8> = rgb(20, 28, 24);
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
            Sprite::record(CELL as u32, CELL as u32, (half, half), |img| {
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

/// The numeral `n` on square `idx`, on its pale disc.
fn draw_number(img: &mut RgbImage, idx: usize, n: usize) {
    let (cx, cy) = cell_centre(idx);
    let c = (cx as f32, cy as f32);
    soft_shadow(img, (c.0, c.1 + 1.5), NUMBER_R, 3.0, 0.35);
    fill_circle(img, c, NUMBER_R, NUMBER_BG, 1.0);
    let text = n.to_string();
    let px = if text.len() > 1 { NUMBER_PX_TWO_DIGITS } else { NUMBER_PX };
    // Centred by the ink of the digits themselves (every digit shares the same height).
    draw_label(img, font(), px, c, NUMBER_INK, &text, "0123456789");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Index of a square from its name, e.g. "d3".
    fn sq(name: &str) -> usize {
        let b = name.as_bytes();
        (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
    }

    fn start() -> ReversiView {
        let mut cells = [Disc::Empty; 64];
        cells[sq("d4")] = Disc::White;
        cells[sq("e5")] = Disc::White;
        cells[sq("e4")] = Disc::Black;
        cells[sq("d5")] = Disc::Black;
        let legal = ["d3", "c4", "f5", "e6"].iter().fold(0u64, |m, s| m | 1 << sq(s));
        ReversiView {
            cells,
            last_move: None,
            flipped: 0,
            legal,
            numbered: Vec::new(),
            to_move: Some(Disc::Black),
            banner: None,
            names: Default::default(),
            human: None,
        }
    }

    fn decode(bytes: &[u8]) -> RgbImage {
        image::load_from_memory(bytes).expect("valid PNG").to_rgb8()
    }

    fn px_at(img: &RgbImage, idx: usize) -> Rgb<u8> {
        let (x, y) = cell_centre(idx);
        *img.get_pixel(x as u32, y as u32)
    }

    fn luma(p: Rgb<u8>) -> u32 {
        (p.0[0] as u32 * 3 + p.0[1] as u32 * 6 + p.0[2] as u32) / 10
    }

    fn close(a: Rgb<u8>, b: Rgb<u8>, tol: i32) -> bool {
        (0..3).all(|i| (a.0[i] as i32 - b.0[i] as i32).abs() <= tol)
    }

    #[test]
    fn png_has_expected_size() {
        let img = decode(&render_reversi(&start(), Lang::En));
        assert_eq!((img.width(), img.height()), (WIDTH, HEIGHT));
        assert!((560..=640).contains(&WIDTH));
    }

    #[test]
    fn rendering_is_deterministic() {
        let mut v = start();
        v.last_move = Some(sq("d3") as u8);
        v.flipped = 1 << sq("d4");
        assert_eq!(render_reversi(&v, Lang::Ja), render_reversi(&v, Lang::Ja));
        assert_eq!(render_reversi(&v, Lang::En), render_reversi(&v, Lang::En));
    }

    #[test]
    fn squares_show_discs_and_board() {
        let img = decode(&render_reversi(&start(), Lang::En));
        let black = px_at(&img, sq("e4"));
        let white = px_at(&img, sq("d4"));
        assert!(luma(black) < 70, "black disc centre {black:?}");
        assert!(luma(white) > 200, "white disc centre {white:?}");
        // a1 is empty and not legal: plain board green.
        assert_eq!(px_at(&img, sq("a1")), GREEN);
        assert_eq!(px_at(&img, sq("h8")), GREEN);
    }

    #[test]
    fn legal_moves_are_dotted_in_the_movers_colour() {
        let img = decode(&render_reversi(&start(), Lang::En));
        let dot = px_at(&img, sq("d3"));
        assert_ne!(dot, px_at(&img, sq("a1")));
        assert!(close(dot, mix(GREEN, BLACK_DOT, LEGAL_ALPHA_BLACK), 2), "{dot:?}");

        let mut v = start();
        v.to_move = Some(Disc::White);
        let img = decode(&render_reversi(&v, Lang::En));
        let dot = px_at(&img, sq("d3"));
        assert!(close(dot, mix(GREEN, WHITE_DOT, LEGAL_ALPHA_WHITE), 2), "{dot:?}");
        assert!(luma(dot) > luma(GREEN));

        // No side to move: legal bits are not drawn.
        v.to_move = None;
        let img = decode(&render_reversi(&v, Lang::En));
        assert_eq!(px_at(&img, sq("d3")), GREEN);
    }

    #[test]
    fn numbered_squares_show_their_numbers_on_pale_discs() {
        let mut v = start();
        v.numbered = ["c4", "d3", "e6", "f5"].iter().map(|s| sq(s) as u8).collect();
        let img = decode(&render_reversi(&v, Lang::En));
        let cell = |img: &RgbImage, s: &str| -> Vec<Rgb<u8>> {
            let (x, y) = cell_centre(sq(s));
            (-14..14)
                .flat_map(|dy| (-14..14).map(move |dx| (x + dx, y + dy)))
                .map(|(x, y)| *img.get_pixel(x as u32, y as u32))
                .collect()
        };
        for s in ["c4", "d3", "e6", "f5"] {
            let (x, y) = cell_centre(sq(s));
            // Left of the numeral, inside the disc: the disc's pale colour, not the board's dot.
            let edge = *img.get_pixel((x - 19) as u32, y as u32);
            assert!(close(edge, NUMBER_BG, 3), "{s}: {edge:?}");
            let dark = cell(&img, s).iter().filter(|p| luma(**p) < 80).count();
            assert!(dark > 20, "{s}: a numeral is drawn ({dark} dark pixels)");
        }
        // The number, not the square, makes the picture: swapping two numbers swaps the cells.
        let mut swapped = v.clone();
        swapped.numbered.swap(0, 1);
        let other = decode(&render_reversi(&swapped, Lang::En));
        assert_ne!(cell(&img, "c4"), cell(&other, "c4"));
        assert_eq!(cell(&img, "c4"), cell(&other, "d3"), "number 1 looks the same wherever it is");
        assert_eq!(cell(&img, "f5"), cell(&other, "f5"));
        // Two digits fit inside the disc.
        let mut many = start();
        many.numbered = vec![sq("d3") as u8; 1];
        many.numbered.extend((0..11).map(|i| i as u8));
        let twelve = decode(&render_reversi(&many, Lang::En));
        // The twelfth square numbered is square 10 (c2).
        let (x, y) = cell_centre(10);
        let mut ink = 0;
        // Inside the square, the numeral's ink (darker than the grid and the disc's shadow) stays
        // in its disc.
        for dy in -29..30 {
            for dx in -29..30 {
                if luma(*twelve.get_pixel((x + dx) as u32, (y + dy) as u32)) < 40 {
                    ink += 1;
                    let r = ((dx * dx + dy * dy) as f32).sqrt();
                    assert!(r < NUMBER_R - 2.0, "12's ink at {dx},{dy} leaves its disc");
                }
            }
        }
        assert!(ink > 30, "12 is drawn ({ink} dark pixels)");
    }

    #[test]
    fn last_move_marker_changes_its_square() {
        let mut v = start();
        v.cells[sq("d3")] = Disc::Black;
        v.cells[sq("d4")] = Disc::Black;
        v.legal = 0;
        let plain = decode(&render_reversi(&v, Lang::En));
        v.last_move = Some(sq("d3") as u8);
        let marked = decode(&render_reversi(&v, Lang::En));
        let p = px_at(&marked, sq("d3"));
        assert_ne!(p, px_at(&plain, sq("d3")));
        assert!(p.0[0] > 180 && p.0[1] < 90 && p.0[2] < 90, "red marker {p:?}");
        // Only the pixels around that square change.
        let (cx, cy) = cell_centre(sq("d3"));
        for (x, y, a) in marked.enumerate_pixels() {
            if a != plain.get_pixel(x, y) {
                assert!((x as i32 - cx).abs() < 10 && (y as i32 - cy).abs() < 10, "({x},{y})");
            }
        }
    }

    #[test]
    fn flipped_discs_are_marked() {
        let mut v = start();
        let plain = decode(&render_reversi(&v, Lang::En));
        v.flipped = 1 << sq("e4");
        let marked = decode(&render_reversi(&v, Lang::En));
        let (cx, cy) = cell_centre(sq("e4"));
        let ring = ((cx as f32 + DISC_R * 0.55) as u32, cy as u32);
        assert_ne!(marked.get_pixel(ring.0, ring.1), plain.get_pixel(ring.0, ring.1));
    }

    #[test]
    fn japanese_header_differs_from_english() {
        let en = decode(&render_reversi(&start(), Lang::En));
        let ja = decode(&render_reversi(&start(), Lang::Ja));
        let header_diff = (0..HEADER as u32)
            .flat_map(|y| (0..WIDTH).map(move |x| (x, y)))
            .filter(|&(x, y)| en.get_pixel(x, y) != ja.get_pixel(x, y))
            .count();
        assert!(header_diff > 100, "only {header_diff} header pixels differ");
        // Below the header the images are identical.
        for y in HEADER as u32..HEIGHT {
            for x in 0..WIDTH {
                assert_eq!(en.get_pixel(x, y), ja.get_pixel(x, y));
            }
        }
    }

    #[test]
    fn banner_replaces_turn_text() {
        let mut v = start();
        v.to_move = None;
        v.legal = 0;
        let over = decode(&render_reversi(&v, Lang::En));
        v.banner = Some("Black wins 40-24".into());
        let banner = decode(&render_reversi(&v, Lang::En));
        let gold =
            banner.enumerate_pixels().filter(|&(_, y, p)| y < HEADER as u32 && close(*p, BANNER_TEXT, 12)).count();
        assert!(gold > 50, "banner ink pixels: {gold}");
        assert_ne!(over, banner);
        // A very long banner is shrunk to fit rather than running off the image.
        v.banner = Some("白の勝ち！ 40対24 とてもよくがんばりました、またあそぼうね".into());
        let long = decode(&render_reversi(&v, Lang::Ja));
        assert_eq!(long.width(), WIDTH);
    }

    /// Rows and columns where two images differ: (min_x, min_y, max_x, max_y).
    fn diff_box(a: &RgbImage, b: &RgbImage) -> Option<(u32, u32, u32, u32)> {
        a.enumerate_pixels().filter(|&(x, y, p)| b.get_pixel(x, y) != p).fold(None, |acc, (x, y, _)| {
            let (x0, y0, x1, y1) = acc.unwrap_or((x, y, x, y));
            Some((x0.min(x), y0.min(y), x1.max(x), y1.max(y)))
        })
    }

    #[test]
    fn names_are_written_in_the_header_and_long_ones_are_cut_before_the_status() {
        let bare = decode(&render_reversi(&start(), Lang::En));
        let mut v = start();
        v.names = ["Mika".into(), "Computer".into()];
        let named = decode(&render_reversi(&v, Lang::En));
        let (_, _, _, y1) = diff_box(&bare, &named).expect("the names are drawn");
        assert!(y1 < HEADER as u32, "only the header changes (down to row {y1})");
        // Whatever the names, the status on the right stays as it was: long names are cut.
        v.names = ["W".repeat(300), "とてもながいなまえ".repeat(10)];
        let long = decode(&render_reversi(&v, Lang::En));
        let (_, _, x1, _) = diff_box(&named, &long).expect("other names, other pixels");
        let status_w = text_width(font(), 20.0, "Black to move");
        assert!((x1 as f32) < WIDTH as f32 - PAD as f32 - 4.0 - status_w, "a name ran to x = {x1}");
        // Names the font cannot draw at all fall back to the colour's label; nothing panics.
        v.names = ["\u{200D}\u{FE0F}".into(), "🦁🦁 \u{1F1EF}\u{1F1F5}".into()];
        let odd = decode(&render_reversi(&v, Lang::Ja));
        assert_eq!((odd.width(), odd.height()), (WIDTH, HEIGHT));
        v.names = ["黒".into(), "🦁🦁 \u{1F1EF}\u{1F1F5}".into()];
        assert_eq!(odd, decode(&render_reversi(&v, Lang::Ja)), "an undrawable name reads as its colour");
    }

    #[test]
    fn every_result_fits_the_header_measured_by_its_ink_and_by_the_pixels_drawn() {
        use crate::render::text::inside;
        let f = font();
        for lang in [Lang::En, Lang::Ja] {
            for text in crate::render::board::every_result_text(GameKind::Reversi, lang) {
                for named in [true, false] {
                    let area = banner_box(named);
                    let block = banner_block(&text, area);
                    let ink = block.ink(f).expect("a result inks");
                    assert!(inside(ink, area), "{text:?}: ink {ink:?} leaves {area:?}");
                    assert!(block.px >= 13.0 && block.lines.len() <= 2, "{text:?}: {block:?}");
                    let said: String = block.lines.iter().map(|(_, _, l)| l.replace(' ', "")).collect();
                    assert_eq!(said, text.replace(' ', ""), "nothing is cut");
                }
                // Drawn: every gold pixel of the header lies in that box, right of the pills.
                let mut v = start();
                (v.to_move, v.legal, v.banner) = (None, 0, Some(text.clone()));
                v.names = ["Mika".into(), "Computer".into()];
                let img = decode(&render_reversi(&v, lang));
                let area = banner_box(true);
                let gold: Vec<(u32, u32)> = img
                    .enumerate_pixels()
                    .filter(|&(_, y, p)| y < HEADER as u32 && p.0[0] as i32 - p.0[2] as i32 > 30)
                    .map(|(x, y, _)| (x, y))
                    .collect();
                assert!(gold.len() > 100, "{text:?} is drawn ({} pixels)", gold.len());
                for (x, y) in gold {
                    let px = (x as f32, y as f32, x as f32 + 1.0, y as f32 + 1.0);
                    assert!(inside(px, area), "{text:?} inks ({x},{y}), outside {area:?}");
                }
            }
        }
    }

    /// The ink box of the light pixels (the coordinates) in `r` of the board's background.
    fn label_ink(img: &RgbImage, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> (i32, i32, i32, i32) {
        let mut b = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for y in y0..y1 {
            for x in x0..x1 {
                if luma(*img.get_pixel(x as u32, y as u32)) > 150 {
                    b = (b.0.min(x), b.1.min(y), b.2.max(x + 1), b.3.max(y + 1));
                }
            }
        }
        assert!(b.0 < b.2, "no label in {:?}", (x0, y0, x1, y1));
        b
    }

    #[test]
    fn coordinates_are_large_and_stay_on_the_frame() {
        let img = decode(&render_reversi(&start(), Lang::En));
        for k in 0..8 {
            // Rows 1-8 left of the board: digits at least 14 px tall, clear of the groove.
            let row = label_ink(&img, (PAD + 2, BY + k * CELL, BX - 4, BY + (k + 1) * CELL));
            assert!(row.3 - row.1 >= 14, "row {} is {} px tall", k + 1, row.3 - row.1);
            assert!(row.0 >= PAD + 3 && row.2 <= BX - 5, "row {} leaves the frame: {row:?}", k + 1);
            // Columns a-h above it: at least 10 px (the x-height of a, c, e), inside the frame.
            let col = label_ink(&img, (BX + k * CELL, HEADER + 2, BX + (k + 1) * CELL, BY - 4));
            assert!(col.3 - col.1 >= 10, "column {k} is {} px tall", col.3 - col.1);
            assert!(col.1 >= HEADER + 3 && col.3 <= BY - 5, "column {k} leaves the frame: {col:?}");
        }
    }
}
