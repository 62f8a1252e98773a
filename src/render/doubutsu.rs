//! Doubutsu shogi board image: a plain view of a position in, PNG bytes out.
//!
//! The animals are Twemoji graphics (CC-BY 4.0), pre-rasterized to PNG under
//! `assets/doubutsu/` so the bot needs no SVG renderer; see `assets/README.md`.
//!
//! About 1000 lines on purpose: the drawing helpers (rounded boxes, wood, tiles, trays) serve
//! only this picture, and its pixel tests (a third of the file) sit beside them.

use std::sync::OnceLock;

use image::imageops::{self, FilterType};
use image::{Rgb, RgbImage, Rgba, Rgba32FImage};

use super::text::{draw_block, fit_block, Across, Block, Rect as TextBox};
use super::{
    blend, draw_label, draw_text, encode_png, fill_circle, fill_rect, fill_round_rect, fit_size, fit_text, font,
    inlay_groove, mix, printable, rgb, text_width, Align, Lang, Sprite, BANNER_TEXT, BG, LABEL, PILL, PILL_ACTIVE,
    PILL_RING, TEXT, WOOD, WOOD_EDGE, WOOD_LIGHT,
};
use crate::i18n::Msg;
use settai_core::{GameKind, Side};

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Animal {
    /// ライオン: one step in any direction; capturing it wins.
    Lion,
    /// キリン: one step orthogonally.
    Giraffe,
    /// ゾウ: one step diagonally.
    Elephant,
    /// ひよこ: one step forward; promotes to a hen on the far rank.
    Chick,
    /// ニワトリ: a promoted chick; moves like a gold general.
    Hen,
}

/// A side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Owner {
    /// The first player, at the bottom, moving up.
    Sente,
    /// The second player, at the top; its pieces are drawn turned 180°.
    Gote,
}

/// The last move, highlighted on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastMove {
    /// A piece moved from one square to another (square indices as in `DoubutsuView::cells`).
    Board {
        /// Square the piece left.
        from: u8,
        /// Square the piece arrived on.
        to: u8,
    },
    /// A piece was dropped from a hand onto a square.
    Drop {
        /// Square the piece was dropped on.
        to: u8,
    },
}

/// Everything the renderer needs to draw a doubutsu shogi position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoubutsuView {
    /// Squares, index = row * 3 + col; row 0 = rank 1 (top, gote's side), col 0 = file A (left).
    pub cells: [Option<(Owner, Animal)>; 12],
    /// Pieces in sente's hand as (kind, count); a `Hen` is shown as the chick it reverts to.
    pub sente_hand: Vec<(Animal, u8)>,
    /// Pieces in gote's hand as (kind, count).
    pub gote_hand: Vec<(Animal, u8)>,
    /// The last move, highlighted.
    pub last_move: Option<LastMove>,
    /// Whose turn it is; `None` when the game is over.
    pub to_move: Option<Owner>,
    /// Square index of a lion under attack, marked with a red glow.
    pub in_check: Option<u8>,
    /// Result text stamped across the board, e.g. "Sente wins: lion captured".
    pub banner: Option<String>,
    /// Sente's display name (any Unicode; glyphs the font lacks become a box).
    pub sente_name: String,
    /// Gote's display name.
    pub gote_name: String,
    /// The player's seat against the computer (English then says "You" and "Your move"; see
    /// [`Msg::BoardSeat`]); `None` for a board seen from outside a game.
    pub human: Option<Side>,
}

// Layout, in pixels. The 3 × 4 board sits in a wooden frame carrying the
// coordinates; gote's hand tray is top-left and sente's bottom-right, as on a
// real shogi table; the header strip above holds the names and the turn.
const CELL: i32 = 100;
const COLS: i32 = 3;
const ROWS: i32 = 4;
const BOARD_W: i32 = CELL * COLS;
const BOARD_H: i32 = CELL * ROWS;
const PAD: i32 = 14;
const HEADER: i32 = 64;
const FRAME: i32 = 34;
/// Em size of the coordinates, which the move menus name ("🐥 B3 → B2"): a child finds them
/// on a phone, where the image is shown at about two thirds of its size.
const LABEL_PX: f32 = 21.0;
const HAND_W: i32 = 104;
const HAND_H: i32 = 270;
const GAP: i32 = 12;
const BX: i32 = PAD + HAND_W + GAP + FRAME;
const BY: i32 = HEADER + FRAME;
/// Width of the rendered image in pixels.
pub const WIDTH: u32 = (BX + BOARD_W + FRAME + GAP + HAND_W + PAD) as u32;
/// Height of the rendered image in pixels.
pub const HEIGHT: u32 = (BY + BOARD_H + FRAME + PAD) as u32;

// Tiles: side length, the animal's share of it, and where the movement dots sit.
const TILE: f32 = 84.0;
const HAND_TILE: f32 = 54.0;
const ICON_TILE: f32 = 30.0;
const ART_SHARE: f32 = 0.60;
/// Distance of a movement dot's centre inside the tile edge, as a share of the tile side.
const DOT_INSET: f32 = 0.10;
const DOT_R: f32 = 0.054;
/// Vertical pitch of the rows in a hand tray.
const HAND_PITCH: i32 = 74;
const HAND_TOP: i32 = 40;

// Palette (the header and frame colours are shared, in render/mod.rs).
const TRAY: Rgb<u8> = rgb(76, 48, 28);
pub(super) const FIELD: Rgb<u8> = rgb(232, 204, 150);
pub(super) const GRID: Rgb<u8> = rgb(120, 82, 46);
pub(super) const HIGHLIGHT: Rgb<u8> = rgb(250, 214, 40);
const FROM_ALPHA: f32 = 0.38;
const TO_ALPHA: f32 = 0.72;
const CHECK: Rgb<u8> = rgb(226, 38, 38);

/// Colours of one side's tiles: body, rim and movement dots.
struct Tint {
    body: Rgb<u8>,
    rim: Rgb<u8>,
    dot: Rgb<u8>,
}

/// Sente warm, gote cool, so ownership reads at a glance as well as from the orientation.
const fn tint(owner: Owner) -> Tint {
    match owner {
        Owner::Sente => Tint { body: rgb(255, 232, 196), rim: rgb(206, 128, 70), dot: rgb(176, 64, 30) },
        Owner::Gote => Tint { body: rgb(212, 232, 252), rim: rgb(92, 136, 196), dot: rgb(34, 76, 150) },
    }
}

pub(super) const ANIMALS: [Animal; 5] = [Animal::Lion, Animal::Giraffe, Animal::Elephant, Animal::Chick, Animal::Hen];

impl Animal {
    /// Steps this piece may take for sente, as (dx, dy) with dy = -1 forward (up).
    pub(super) fn steps(self) -> &'static [(i8, i8)] {
        match self {
            Animal::Lion => &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
            Animal::Giraffe => &[(0, -1), (-1, 0), (1, 0), (0, 1)],
            Animal::Elephant => &[(-1, -1), (1, -1), (-1, 1), (1, 1)],
            Animal::Chick => &[(0, -1)],
            Animal::Hen => &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)],
        }
    }

    /// The Twemoji artwork, 128 × 128 RGBA PNG.
    fn png(self) -> &'static [u8] {
        match self {
            Animal::Lion => include_bytes!("../../assets/doubutsu/lion.png"),
            Animal::Giraffe => include_bytes!("../../assets/doubutsu/giraffe.png"),
            Animal::Elephant => include_bytes!("../../assets/doubutsu/elephant.png"),
            Animal::Chick => include_bytes!("../../assets/doubutsu/chick.png"),
            Animal::Hen => include_bytes!("../../assets/doubutsu/hen.png"),
        }
    }
}

/// Pixel coordinates of the centre of square `idx` (a corner shared by four pixels).
fn cell_centre(idx: usize) -> (i32, i32) {
    let (row, col) = ((idx / 3) as i32, (idx % 3) as i32);
    (BX + col * CELL + CELL / 2, BY + row * CELL + CELL / 2)
}

// ---------------------------------------------------------------------------
// Rounded-box primitives, via the signed distance to the box (negative inside).

type Rect = (f32, f32, f32, f32);

fn round_box_sd((x, y): (f32, f32), (x0, y0, x1, y1): Rect, r: f32) -> f32 {
    let qx = (x - (x0 + x1) / 2.0).abs() - ((x1 - x0) / 2.0 - r);
    let qy = (y - (y0 + y1) / 2.0).abs() - ((y1 - y0) / 2.0 - r);
    qx.max(0.0).hypot(qy.max(0.0)) + qx.max(qy).min(0.0) - r
}

/// Visits the pixels within `margin` of `rect` with their centre's signed distance.
fn for_round_box(img: &mut RgbImage, rect: Rect, r: f32, margin: f32, mut f: impl FnMut(&mut RgbImage, i32, i32, f32)) {
    let x0 = ((rect.0 - margin).floor() as i32).max(0);
    let x1 = ((rect.2 + margin).ceil() as i32).min(img.width() as i32);
    let y0 = ((rect.1 - margin).floor() as i32).max(0);
    let y1 = ((rect.3 + margin).ceil() as i32).min(img.height() as i32);
    for y in y0..y1 {
        for x in x0..x1 {
            let d = round_box_sd((x as f32 + 0.5, y as f32 + 0.5), rect, r);
            f(img, x, y, d);
        }
    }
}

/// Soft glow or shadow of a rounded box: full `alpha` inside, fading out over `spread`.
fn round_glow(img: &mut RgbImage, rect: Rect, r: f32, spread: f32, c: Rgb<u8>, alpha: f32) {
    for_round_box(img, rect, r, spread + 1.0, |img, x, y, d| {
        let t = (d / spread).clamp(0.0, 1.0);
        // Smoothstep falloff reads as a soft penumbra rather than a hard ramp.
        blend(img, x, y, c, alpha * (1.0 - t * t * (3.0 - 2.0 * t)));
    });
}

/// Strokes the outline of a rounded box with an anti-aliased line of width `w`.
fn stroke_round_rect(img: &mut RgbImage, rect: Rect, r: f32, w: f32, c: Rgb<u8>, alpha: f32) {
    for_round_box(img, rect, r, w + 1.0, |img, x, y, d| {
        blend(img, x, y, c, alpha * (w / 2.0 - d.abs() + 0.5).clamp(0.0, 1.0));
    });
}

/// Fills a rounded box with a vertical gradient from `top` to `bottom`.
fn fill_round_gradient(img: &mut RgbImage, rect: Rect, r: f32, top: Rgb<u8>, bottom: Rgb<u8>) {
    let h = rect.3 - rect.1;
    for_round_box(img, rect, r, 1.0, |img, x, y, d| {
        let c = mix(top, bottom, (y as f32 + 0.5 - rect.1) / h);
        blend(img, x, y, c, (0.5 - d).clamp(0.0, 1.0));
    });
}

// ---------------------------------------------------------------------------
// Tiles.

/// Decodes an animal's artwork as premultiplied RGBA.
fn decode_art(animal: Animal) -> Rgba32FImage {
    // The PNGs are compiled in and a unit test decodes them all.
    let mut art = image::load_from_memory(animal.png()).expect("embedded animal PNG must decode").to_rgba32f();
    // Premultiply so that resampling does not bleed the transparent black
    // around the artwork into its edges as a dark fringe.
    for p in art.pixels_mut() {
        let a = p.0[3];
        for ch in &mut p.0[..3] {
            *ch *= a;
        }
    }
    art
}

/// Composites premultiplied `art` centred at `c`.
fn draw_art(img: &mut RgbImage, art: &Rgba32FImage, c: (f32, f32)) {
    let x0 = (c.0 - art.width() as f32 / 2.0).round() as i32;
    let y0 = (c.1 - art.height() as f32 / 2.0).round() as i32;
    for (ax, ay, &Rgba([r, g, b, a])) in art.enumerate_pixels() {
        let (x, y) = (x0 + ax as i32, y0 + ay as i32);
        if a <= 0.0 || x < 0 || y < 0 || x as u32 >= img.width() || y as u32 >= img.height() {
            continue;
        }
        let p = img.get_pixel_mut(x as u32, y as u32);
        let a = a.clamp(0.0, 1.0);
        for (ch, src) in p.0.iter_mut().zip([r, g, b]) {
            let v = src.clamp(0.0, 1.0) * 255.0 + *ch as f32 * (1.0 - a);
            *ch = v.round().clamp(0.0, 255.0) as u8;
        }
    }
}

/// Draws a piece tile of side `size` centred at `c`: shadow, tinted body, animal,
/// and (if `dots`) the movement dots; gote's tile is turned 180°.
fn draw_tile(
    img: &mut RgbImage,
    c: (f32, f32),
    size: f32,
    owner: Owner,
    animal: Animal,
    art: &Rgba32FImage,
    dots: bool,
) {
    let t = tint(owner);
    let h = size / 2.0;
    let r = size * 0.17;
    let rect = (c.0 - h, c.1 - h, c.0 + h, c.1 + h);
    let rim_w = (size * 0.035).max(1.5);
    // Light comes from above for both sides, so the shadow is not rotated.
    let drop = size * 0.045;
    round_glow(img, (rect.0, rect.1 + drop, rect.2, rect.3 + drop), r, size * 0.06, rgb(0, 0, 0), 0.4);
    fill_round_rect(img, rect, r, t.rim, 1.0);
    let inner = (rect.0 + rim_w, rect.1 + rim_w, rect.2 - rim_w, rect.3 - rim_w);
    fill_round_gradient(img, inner, r - rim_w, mix(t.body, rgb(255, 255, 255), 0.55), t.body);
    match owner {
        Owner::Sente => draw_art(img, art, c),
        Owner::Gote => draw_art(img, &imageops::rotate180(art), c),
    }
    if dots {
        let flip = if owner == Owner::Sente { 1.0 } else { -1.0 };
        let reach = h - size * DOT_INSET;
        for &(dx, dy) in animal.steps() {
            let p = (c.0 + flip * dx as f32 * reach, c.1 + flip * dy as f32 * reach);
            fill_circle(img, p, size * DOT_R, t.dot, 1.0);
        }
    }
}

/// Pre-rendered tiles; `board` and `hand` are indexed by `tile_index`.
struct Tiles {
    board: Vec<Sprite>,
    hand: Vec<Sprite>,
    /// The two lions at header size, used as each player's badge.
    icon: Vec<Sprite>,
}

/// Stamps sente's hand-sized tile of `animal` (with its dots) centred at `at` (the pictures
/// of `/play help`).
pub(super) fn stamp_hand_tile(img: &mut RgbImage, at: (i32, i32), animal: Animal) {
    tiles().hand[tile_index(Owner::Sente, animal)].stamp(img, at);
}

fn tile_index(owner: Owner, animal: Animal) -> usize {
    owner as usize * ANIMALS.len() + animal as usize
}

fn tiles() -> &'static Tiles {
    static TILES: OnceLock<Tiles> = OnceLock::new();
    TILES.get_or_init(|| {
        let art: Vec<Rgba32FImage> = ANIMALS.iter().map(|&a| decode_art(a)).collect();
        let scaled = |animal: Animal, size: f32| {
            let side = (size * ART_SHARE).round() as u32;
            imageops::resize(&art[animal as usize], side, side, FilterType::CatmullRom)
        };
        let sprite = |size: f32, owner: Owner, animal: Animal, art: &Rgba32FImage, dots: bool| {
            // Room for the shadow below and the anti-aliased rim all round.
            let side = (size * 1.2).ceil() as u32 + 2;
            let half = (side / 2) as i32;
            let centre = (half as f32, half as f32);
            Sprite::record(side, side, (half, half), |img| draw_tile(img, centre, size, owner, animal, art, dots))
        };
        let set = |size: f32| {
            let arts: Vec<_> = ANIMALS.iter().map(|&a| scaled(a, size)).collect();
            [Owner::Sente, Owner::Gote]
                .iter()
                .flat_map(|&o| ANIMALS.iter().map(move |&a| (o, a)))
                .map(|(o, a)| sprite(size, o, a, &arts[a as usize], true))
                .collect()
        };
        let lion = scaled(Animal::Lion, ICON_TILE);
        Tiles {
            board: set(TILE),
            hand: set(HAND_TILE),
            icon: [Owner::Sente, Owner::Gote]
                .iter()
                .map(|&o| sprite(ICON_TILE, o, Animal::Lion, &lion, false))
                .collect(),
        }
    })
}

// ---------------------------------------------------------------------------
// Static background.

fn background() -> &'static RgbImage {
    static BG_IMG: OnceLock<RgbImage> = OnceLock::new();
    BG_IMG.get_or_init(build_background)
}

/// A bevelled wooden slab like the reversi frame.
pub(super) fn wood_slab(img: &mut RgbImage, r: Rect, radius: f32) {
    fill_round_rect(img, r, radius, WOOD_EDGE, 1.0);
    fill_round_rect(img, (r.0 + 1.0, r.1 + 1.0, r.2 - 2.0, r.3 - 2.0), radius - 1.0, WOOD_LIGHT, 1.0);
    fill_round_rect(img, (r.0 + 2.0, r.1 + 2.0, r.2 - 2.0, r.3 - 2.0), radius - 2.0, WOOD, 1.0);
}

/// Top-left corner of a side's hand tray.
fn tray_origin(owner: Owner) -> (i32, i32) {
    match owner {
        Owner::Gote => (PAD, HEADER),
        Owner::Sente => (WIDTH as i32 - PAD - HAND_W, HEIGHT as i32 - PAD - HAND_H),
    }
}

fn build_background() -> RgbImage {
    let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, BG);
    let frame = ((BX - FRAME) as f32, HEADER as f32, (BX + BOARD_W + FRAME) as f32, (HEIGHT as i32 - PAD) as f32);
    wood_slab(&mut img, frame, 10.0);
    inlay_groove(&mut img, BX, BY, BOARD_W, BOARD_H);
    fill_rect(&mut img, BX - 1, BY - 1, BOARD_W + 2, BOARD_H + 2, GRID);
    for idx in 0..12 {
        let (cx, cy) = cell_centre(idx);
        let h = CELL / 2 - 1;
        fill_rect(&mut img, cx - h, cy - h, 2 * h, 2 * h, field_colour(idx));
    }

    for owner in [Owner::Gote, Owner::Sente] {
        let (x, y) = tray_origin(owner);
        let r = (x as f32, y as f32, (x + HAND_W) as f32, (y + HAND_H) as f32);
        wood_slab(&mut img, r, 10.0);
        // A recessed tray below the caption holds the captured pieces.
        fill_round_rect(&mut img, (r.0 + 7.0, r.1 + 32.0, r.2 - 7.0, r.3 - 7.0), 6.0, TRAY, 1.0);
    }

    let f = font();
    for k in 0..COLS {
        let c = (BX + k * CELL + CELL / 2) as f32;
        let col = char::from(b'A' + k as u8).to_string();
        // The groove takes the frame's inner 4 px: the labels are centred on what is left.
        draw_label(&mut img, f, LABEL_PX, (c, (BY - FRAME / 2 - 2) as f32), LABEL, &col, "ABC");
    }
    for k in 0..ROWS {
        let c = (BY + k * CELL + CELL / 2) as f32;
        let row = (k + 1).to_string();
        draw_label(&mut img, f, LABEL_PX, ((BX - FRAME / 2 - 2) as f32, c), LABEL, &row, "1234");
    }
    img
}

/// The plain colour of a square: gote's home rank (top) is tinted cool and
/// sente's (bottom) warm, the ranks a lion must reach to win by "try".
fn field_colour(idx: usize) -> Rgb<u8> {
    match idx / 3 {
        0 => rgb(208, 226, 236),
        3 => rgb(250, 214, 186),
        _ => FIELD,
    }
}

// ---------------------------------------------------------------------------
// Text.

fn side(owner: Owner) -> Side {
    match owner {
        Owner::Sente => Side::First,
        Owner::Gote => Side::Second,
    }
}

/// A seat's caption: "You" / "Computer" in English when the player's seat is known.
fn side_label(owner: Owner, human: Option<Side>, lang: Lang) -> String {
    Msg::BoardSeat { kind: GameKind::Doubutsu, side: side(owner), human }.text(lang)
}

/// Header strip: a pill per player (lion badge in their colour, name), the side
/// to move highlighted; the turn or "game over" on the right.
fn draw_header(img: &mut RgbImage, view: &DoubutsuView, lang: Lang) {
    let f = font();
    let mid = (HEADER / 2) as f32;
    let right = (WIDTH as i32 - PAD - 4) as f32;
    let status = Msg::BoardTurn { kind: GameKind::Doubutsu, to_move: view.to_move.map(side), human: view.human };
    let status = status.text(lang);
    let status_px = fit_size(f, 20.0, 220.0, &status);
    let status_w = text_width(f, status_px, &status);
    draw_text(img, f, status_px, (right, mid), Align::Right, TEXT, &status);

    let avail = right - status_w - 18.0 - PAD as f32;
    let pill_w = ((avail - 10.0) / 2.0).min(210.0).floor();
    let mut x = PAD as f32;
    for (owner, name) in [(Owner::Sente, &view.sente_name), (Owner::Gote, &view.gote_name)] {
        let pill = (x, mid - 20.0, x + pill_w, mid + 20.0);
        if view.to_move == Some(owner) {
            fill_round_rect(img, pill, 20.0, PILL_RING, 1.0);
            fill_round_rect(img, (pill.0 + 2.0, pill.1 + 2.0, pill.2 - 2.0, pill.3 - 2.0), 18.0, PILL_ACTIVE, 1.0);
        } else {
            fill_round_rect(img, pill, 20.0, PILL, 1.0);
        }
        tiles().icon[owner as usize].stamp(img, ((x + 22.0) as i32, mid as i32));
        let mut shown = printable(f, name);
        if shown.is_empty() {
            shown = side_label(owner, view.human, lang);
        }
        let (px, shown) = fit_text(f, 18.0, 13.0, pill_w - 42.0 - 14.0, &shown);
        draw_text(img, f, px, (x + 42.0, mid), Align::Left, TEXT, &shown);
        x += pill_w + 10.0;
    }
}

/// A hand as rows of (kind, count) in a fixed order; hens revert to chicks.
fn hand_rows(hand: &[(Animal, u8)]) -> Vec<(Animal, u32)> {
    let mut counts = [0u32; 5];
    for &(animal, n) in hand {
        let kind = if animal == Animal::Hen { Animal::Chick } else { animal };
        counts[kind as usize] += u32::from(n);
    }
    ANIMALS.iter().zip(counts).filter(|&(_, n)| n > 0).map(|(&a, n)| (a, n)).collect()
}

/// A side's hand tray: caption, then one small tile and "×n" per kind held.
fn draw_hand(img: &mut RgbImage, owner: Owner, hand: &[(Animal, u8)], human: Option<Side>, lang: Lang) {
    let f = font();
    let (x, y) = tray_origin(owner);
    let label = side_label(owner, human, lang);
    let px = fit_size(f, 17.0, (HAND_W - 14) as f32, &label);
    let w = text_width(f, px, &label);
    let mid = (x + HAND_W / 2) as f32;
    draw_text(img, f, px, (mid - w / 2.0, (y + 18) as f32), Align::Left, mix(tint(owner).body, LABEL, 0.3), &label);
    let rows = hand_rows(hand);
    let avail = HAND_H - HAND_TOP - 8;
    // Three kinds fit at the normal pitch; more (unusual views) are squeezed in.
    let pitch = HAND_PITCH.min(avail / rows.len().max(1) as i32);
    for (i, &(animal, n)) in rows.iter().enumerate() {
        let cy = y + HAND_TOP + pitch / 2 + i as i32 * pitch;
        let cx = x + 38;
        tiles().hand[tile_index(owner, animal)].stamp(img, (cx, cy));
        let count = format!("×{n}");
        let (px, count) = fit_text(f, 20.0, 12.0, (x + HAND_W - cx - 34) as f32, &count);
        draw_text(img, f, px, ((cx + 32) as f32, cy as f32), Align::Left, TEXT, &count);
    }
}

/// The band across the board that holds the result: full width, over the middle two ranks.
fn banner_band() -> TextBox {
    let mid = (BY + BOARD_H / 2) as f32;
    (PAD as f32, mid - 44.0, (WIDTH as i32 - PAD) as f32, mid + 44.0)
}

/// Where the result's text may ink: inside the band's gold rule, with a margin.
fn banner_box() -> TextBox {
    let band = banner_band();
    (band.0 + 18.0, band.1 + 10.0, band.2 - 18.0, band.3 - 10.0)
}

/// The result laid out in the band: one line at 30 px when it fits, else wrapped and shrunk
/// (a Japanese result with its reason runs to two lines).
fn banner_block(text: &str) -> Block {
    fit_block(font(), text, banner_box(), Across::Centre, 30.0)
}

/// The result stamped across the whole width of the board.
fn draw_banner(img: &mut RgbImage, text: &str) {
    let f = font();
    // The result may quote a player's name, so it gets the same fallbacks.
    let text = printable(f, text);
    if text.is_empty() {
        return;
    }
    draw_band(img);
    draw_block(img, f, &banner_block(&text), BANNER_TEXT);
}

/// The dark band with its gold rule that the result is written on.
fn draw_band(img: &mut RgbImage) {
    let band = banner_band();
    round_glow(img, band, 12.0, 8.0, rgb(0, 0, 0), 0.35);
    fill_round_rect(img, band, 12.0, rgb(24, 26, 30), 0.88);
    stroke_round_rect(img, (band.0 + 4.0, band.1 + 4.0, band.2 - 4.0, band.3 - 4.0), 9.0, 2.0, BANNER_TEXT, 0.9);
}

/// Tints a whole square (inside the grid lines) towards `c`.
fn tint_square(img: &mut RgbImage, idx: usize, c: Rgb<u8>, alpha: f32) {
    let (cx, cy) = cell_centre(idx);
    let h = CELL / 2 - 1;
    for y in cy - h..cy + h {
        for x in cx - h..cx + h {
            blend(img, x, y, c, alpha);
        }
    }
}

fn square(idx: u8) -> Option<usize> {
    (usize::from(idx) < 12).then_some(usize::from(idx))
}

/// Renders a doubutsu shogi position as a PNG image (`WIDTH` × `HEIGHT`).
pub fn render_doubutsu(view: &DoubutsuView, lang: Lang) -> Vec<u8> {
    encode_png(&doubutsu_image(view, lang)).expect("PNG encoding of an in-memory RGB image")
}

/// Draws a doubutsu shogi position (`WIDTH` × `HEIGHT`).
pub fn doubutsu_image(view: &DoubutsuView, lang: Lang) -> RgbImage {
    let mut img = background().clone();

    // Square highlights go under the tiles so the piece itself stays clean.
    match view.last_move {
        Some(LastMove::Board { from, to }) => {
            if let Some(i) = square(from) {
                tint_square(&mut img, i, HIGHLIGHT, FROM_ALPHA);
            }
            if let Some(i) = square(to) {
                tint_square(&mut img, i, HIGHLIGHT, TO_ALPHA);
            }
        }
        Some(LastMove::Drop { to }) => {
            if let Some(i) = square(to) {
                tint_square(&mut img, i, HIGHLIGHT, TO_ALPHA);
            }
        }
        None => {}
    }
    let check = view.in_check.and_then(square);
    let tile_rect = |idx: usize, grow: f32| {
        let (cx, cy) = cell_centre(idx);
        let h = TILE / 2.0 + grow;
        (cx as f32 - h, cy as f32 - h, cx as f32 + h, cy as f32 + h)
    };
    if let Some(i) = check {
        tint_square(&mut img, i, CHECK, 0.22);
        // Grown 1 px and spread 7 px: the glow ends at the square's grid lines.
        round_glow(&mut img, tile_rect(i, 1.0), 16.0, 7.0, CHECK, 0.85);
    }

    for (idx, cell) in view.cells.iter().enumerate() {
        if let Some((owner, animal)) = *cell {
            tiles().board[tile_index(owner, animal)].stamp(&mut img, cell_centre(idx));
        }
    }
    if let Some(i) = check {
        stroke_round_rect(&mut img, tile_rect(i, 1.5), 16.0, 3.0, CHECK, 1.0);
    }

    draw_hand(&mut img, Owner::Gote, &view.gote_hand, view.human, lang);
    draw_hand(&mut img, Owner::Sente, &view.sente_hand, view.human, lang);
    draw_header(&mut img, view, lang);
    if let Some(b) = view.banner.as_deref() {
        draw_banner(&mut img, b);
    }
    // Encoding an in-memory RGB8 buffer of valid dimensions cannot fail.
    img
}

#[cfg(test)]
mod tests {
    use super::*;
    use Animal::*;
    use Owner::*;

    fn empty() -> DoubutsuView {
        DoubutsuView {
            cells: [None; 12],
            sente_hand: vec![],
            gote_hand: vec![],
            last_move: None,
            to_move: Some(Sente),
            in_check: None,
            banner: None,
            sente_name: "Mika".into(),
            gote_name: "Dad".into(),
            human: None,
        }
    }

    fn start() -> DoubutsuView {
        let mut v = empty();
        for (i, piece) in [
            (0, (Gote, Giraffe)),
            (1, (Gote, Lion)),
            (2, (Gote, Elephant)),
            (4, (Gote, Chick)),
            (7, (Sente, Chick)),
            (9, (Sente, Elephant)),
            (10, (Sente, Lion)),
            (11, (Sente, Giraffe)),
        ] {
            v.cells[i] = Some(piece);
        }
        v
    }

    fn render(v: &DoubutsuView, lang: Lang) -> RgbImage {
        image::load_from_memory(&render_doubutsu(v, lang)).expect("valid PNG").to_rgb8()
    }

    fn at(img: &RgbImage, (x, y): (i32, i32)) -> Rgb<u8> {
        *img.get_pixel(x as u32, y as u32)
    }

    fn close(a: Rgb<u8>, b: Rgb<u8>, tol: i32) -> bool {
        (0..3).all(|i| (a.0[i] as i32 - b.0[i] as i32).abs() <= tol)
    }

    /// A pixel in the square's top-left corner, clear of its tile and the tile's shadow.
    fn margin(idx: usize) -> (i32, i32) {
        let (cx, cy) = cell_centre(idx);
        (cx - CELL / 2 + 3, cy - CELL / 2 + 3)
    }

    /// The pixel at the centre of the movement dot for board step (dx, dy) (dy = -1 is up).
    fn dot_at(idx: usize, (dx, dy): (i8, i8)) -> (i32, i32) {
        let (cx, cy) = cell_centre(idx);
        let reach = TILE / 2.0 - TILE * DOT_INSET;
        ((cx as f32 + dx as f32 * reach).floor() as i32, (cy as f32 + dy as f32 * reach).floor() as i32)
    }

    #[test]
    fn embedded_art_decodes() {
        for a in ANIMALS {
            let img = image::load_from_memory(a.png()).expect("decodes").to_rgba8();
            assert_eq!(img.dimensions(), (128, 128), "{a:?}");
            // Transparent corners, opaque artwork.
            assert_eq!(img.get_pixel(0, 0).0[3], 0, "{a:?}");
            assert!(img.pixels().filter(|p| p.0[3] == 255).count() > 4000, "{a:?}");
        }
    }

    #[test]
    fn png_has_expected_size() {
        let img = render(&start(), Lang::En);
        assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
        assert!((560..=640).contains(&WIDTH), "width {WIDTH}");
    }

    #[test]
    fn rendering_is_deterministic() {
        let mut v = start();
        v.last_move = Some(LastMove::Board { from: 10, to: 7 });
        v.in_check = Some(1);
        v.sente_hand = vec![(Chick, 2)];
        v.banner = Some("Sente wins".into());
        for lang in [Lang::En, Lang::Ja] {
            assert_eq!(render_doubutsu(&v, lang), render_doubutsu(&v, lang));
        }
    }

    #[test]
    fn empty_squares_show_the_board_and_occupied_ones_a_tile() {
        let img = render(&start(), Lang::En);
        assert_eq!(at(&img, cell_centre(3)), field_colour(3));
        assert_eq!(at(&img, cell_centre(6)), FIELD);
        let mut v = start();
        v.cells[6] = Some((Sente, Giraffe));
        let with = render(&v, Lang::En);
        let (cx, cy) = cell_centre(6);
        // The tile body near its top-left corner (clear of art and dots) is sente's tint.
        let body = at(&with, (cx - 26, cy - 20));
        assert_ne!(body, FIELD);
        assert!(close(body, tint(Sente).body, 40), "{body:?}");
        // The margin around the tile is still the board.
        assert_eq!(at(&with, margin(6)), FIELD);
    }

    #[test]
    fn last_move_highlights_from_and_to_squares() {
        let mut v = start();
        v.cells[7] = None;
        v.cells[4] = Some((Sente, Chick));
        let plain = render(&v, Lang::En);
        v.last_move = Some(LastMove::Board { from: 7, to: 4 });
        let marked = render(&v, Lang::En);
        // The vacated square is tinted all over, the destination around its tile.
        let from = at(&marked, cell_centre(7));
        assert_ne!(from, at(&plain, cell_centre(7)));
        assert!(close(from, mix(FIELD, HIGHLIGHT, FROM_ALPHA), 2), "{from:?}");
        let to = at(&marked, margin(4));
        assert_ne!(to, at(&plain, margin(4)));
        assert!(close(to, mix(FIELD, HIGHLIGHT, TO_ALPHA), 2), "{to:?}");
        // Other squares are untouched.
        assert_eq!(at(&marked, cell_centre(6)), at(&plain, cell_centre(6)));
        assert_eq!(at(&marked, margin(1)), at(&plain, margin(1)));

        v.last_move = Some(LastMove::Drop { to: 4 });
        let dropped = render(&v, Lang::En);
        assert!(close(at(&dropped, margin(4)), mix(FIELD, HIGHLIGHT, TO_ALPHA), 2));
        assert_eq!(at(&dropped, cell_centre(7)), at(&plain, cell_centre(7)));

        // Out-of-range squares are ignored rather than panicking.
        v.last_move = Some(LastMove::Board { from: 12, to: 255 });
        v.in_check = Some(40);
        assert_eq!(render(&v, Lang::En), plain);
    }

    #[test]
    fn lion_in_check_is_marked_red() {
        let v = start();
        let plain = render(&v, Lang::En);
        let mut checked = v.clone();
        checked.in_check = Some(1);
        let img = render(&checked, Lang::En);
        let (cx, cy) = cell_centre(1);
        let beside = (cx - CELL / 2 + 5, cy);
        let p = at(&img, beside);
        assert_ne!(p, at(&plain, beside));
        assert!(p.0[0] > 200 && p.0[1] < 120 && p.0[2] < 120, "glow {p:?}");
        // The ring hugs the tile's left edge.
        let ring = at(&img, (cx - (TILE / 2.0) as i32 - 2, cy));
        assert!(close(ring, CHECK, 30), "ring {ring:?}");
        assert_eq!(at(&img, margin(10)), at(&plain, margin(10)));
        // The glow stays inside its square: the neighbours' edges are untouched.
        for (x, y) in [(cx - CELL / 2 - 2, cy), (cx + CELL / 2 + 1, cy), (cx, cy + CELL / 2 + 1)] {
            assert_eq!(at(&img, (x, y)), at(&plain, (x, y)), "({x},{y})");
        }
    }

    #[test]
    fn gote_tiles_are_turned_half_round() {
        let mut v = empty();
        v.cells[4] = Some((Sente, Chick));
        v.cells[7] = Some((Gote, Chick));
        let img = render(&v, Lang::En);
        let (s, g) = (tint(Sente).dot, tint(Gote).dot);
        // Sente's chick points up, gote's down: each has its one dot on that edge only.
        assert!(close(at(&img, dot_at(4, (0, -1))), s, 3));
        assert!(!close(at(&img, dot_at(4, (0, 1))), s, 60));
        assert!(close(at(&img, dot_at(7, (0, 1))), g, 3));
        assert!(!close(at(&img, dot_at(7, (0, -1))), g, 60));
    }

    #[test]
    fn every_kind_renders_in_both_orientations_with_its_dots() {
        let mut v = empty();
        let pieces: Vec<(Owner, Animal)> =
            [Sente, Gote].iter().flat_map(|&o| ANIMALS.iter().map(move |&a| (o, a))).collect();
        for (i, &p) in pieces.iter().enumerate() {
            v.cells[i] = Some(p);
        }
        v.to_move = None;
        let bytes = render_doubutsu(&v, Lang::En);
        std::fs::write(std::env::temp_dir().join("doubutsu_all.png"), &bytes).unwrap();
        let img = image::load_from_memory(&bytes).unwrap().to_rgb8();

        let all_steps = Lion.steps();
        for (i, &(owner, animal)) in pieces.iter().enumerate() {
            let flip = if owner == Sente { 1 } else { -1 };
            for &(dx, dy) in all_steps {
                let p = at(&img, dot_at(i, (flip * dx, flip * dy)));
                let want = animal.steps().contains(&(dx, dy));
                assert_eq!(close(p, tint(owner).dot, 3), want, "{owner:?} {animal:?} step ({dx},{dy}): {p:?}");
            }
        }
        // Every tile's picture is distinct from every other.
        let tile = |i: usize| {
            let (cx, cy) = cell_centre(i);
            let h = TILE as i32 / 2;
            image::imageops::crop_imm(&img, (cx - h) as u32, (cy - h) as u32, TILE as u32, TILE as u32).to_image()
        };
        for a in 0..pieces.len() {
            for b in a + 1..pieces.len() {
                assert_ne!(tile(a), tile(b), "{:?} vs {:?}", pieces[a], pieces[b]);
            }
        }
    }

    #[test]
    fn hands_show_tiles_and_counts() {
        let v = start();
        let bare = render(&v, Lang::En);
        let mut one = v.clone();
        one.sente_hand = vec![(Chick, 1)];
        one.gote_hand = vec![(Elephant, 1), (Giraffe, 1)];
        let one_img = render(&one, Lang::En);
        let mut two = one.clone();
        two.sente_hand = vec![(Chick, 2)];
        let two_img = render(&two, Lang::En);

        let (sx, sy) = tray_origin(Sente);
        let first_row = |x: i32, y: i32| (x + 38, y + HAND_TOP + HAND_PITCH / 2);
        // A sente chick tile sits in the first slot, with its dot on top.
        let (tx, ty) = first_row(sx, sy);
        assert_eq!(at(&bare, (tx, ty)), TRAY);
        assert_ne!(at(&one_img, (tx, ty)), TRAY);
        let reach = (HAND_TILE / 2.0 - HAND_TILE * DOT_INSET) as i32;
        assert!(close(at(&one_img, (tx, ty - reach)), tint(Sente).dot, 10));
        // Gote's tray lists giraffe before elephant, both turned.
        let (gx, gy) = first_row(tray_origin(Gote).0, tray_origin(Gote).1);
        assert!(close(at(&one_img, (gx, gy + reach)), tint(Gote).dot, 10));
        assert!(close(at(&one_img, (gx + reach, gy)), tint(Gote).dot, 10));
        let second = at(&one_img, (gx - 18, gy + HAND_PITCH - 14));
        assert!(close(second, tint(Gote).body, 40), "{second:?}");
        // "×1" and "×2" differ, and only in the count's place.
        let mut diff = 0;
        for (x, y, p) in two_img.enumerate_pixels() {
            if p != one_img.get_pixel(x, y) {
                diff += 1;
                let (x, y) = (x as i32, y as i32);
                assert!(x > sx + 60 && x < sx + HAND_W && (y - ty).abs() < 16, "({x},{y})");
            }
        }
        assert!(diff > 20, "{diff} pixels differ");
        // A hen in hand is shown as a chick.
        let mut hen = one.clone();
        hen.sente_hand = vec![(Hen, 1)];
        assert_eq!(render(&hen, Lang::En), one_img);
    }

    #[test]
    fn header_follows_language_and_turn() {
        let v = start();
        let en = render(&v, Lang::En);
        let ja = render(&v, Lang::Ja);
        let header_diff = |a: &RgbImage, b: &RgbImage| {
            (0..HEADER as u32)
                .flat_map(|y| (0..WIDTH).map(move |x| (x, y)))
                .filter(|&(x, y)| a.get_pixel(x, y) != b.get_pixel(x, y))
                .count()
        };
        assert!(header_diff(&en, &ja) > 100);
        let mut gote = v.clone();
        gote.to_move = Some(Gote);
        assert!(header_diff(&en, &render(&gote, Lang::En)) > 100);
        // The side to move has the lighter pill: sample it past the name.
        let pill_left = (PAD + 150, HEADER / 2);
        assert_eq!(at(&en, pill_left), PILL_ACTIVE);
        let mut over = v.clone();
        over.to_move = None;
        assert_eq!(at(&render(&over, Lang::En), pill_left), PILL);
    }

    #[test]
    fn names_the_font_cannot_draw_do_not_panic() {
        let f = font();
        assert_eq!(printable(f, "Mika"), "Mika");
        assert_eq!(printable(f, "ゆうと"), "ゆうと");
        // A family ZWJ sequence and a flag each become one placeholder.
        assert_eq!(printable(f, "Dad 👨\u{200D}👩\u{200D}👧 🇯🇵"), "Dad \u{FFFD} \u{FFFD}");
        assert_eq!(printable(f, "👍🏽\u{FE0F}"), "\u{FFFD}");
        assert_eq!(printable(f, "a\n\tb\u{0}"), "a b");
        assert_eq!(printable(f, "\u{200B}\u{202E}"), "");

        let mut v = start();
        v.sente_name = "🦁🦁🦁 ライオン王 \u{1F1EF}\u{1F1F5}\u{E0067}".into();
        v.gote_name = "\u{200D}\u{FE0F}".into(); // nothing printable: falls back to "Gote"
        let img = render(&v, Lang::En);
        assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
        let long = DoubutsuView {
            sente_name: "とてもながいなまえのひと".repeat(8),
            gote_name: "W".repeat(300),
            banner: Some("Z̸̢͉a̵l̷g̶o\u{7}\n".repeat(30)),
            ..v
        };
        assert_eq!(render(&long, Lang::Ja).dimensions(), (WIDTH, HEIGHT));
    }

    #[test]
    fn long_text_is_cut_to_fit() {
        let f = font();
        let (px, s) = fit_text(f, 18.0, 13.0, 120.0, &"あ".repeat(40));
        assert_eq!(px, 13.0);
        assert!(s.ends_with(crate::render::ELLIPSIS) && text_width(f, px, &s) <= 120.0, "{s}");
        let (px, s) = fit_text(f, 18.0, 13.0, 120.0, "Mika");
        assert_eq!((px, s.as_str()), (18.0, "Mika"));
    }

    #[test]
    fn banner_is_stamped_across_the_board() {
        let mut v = start();
        v.to_move = None;
        let plain = render(&v, Lang::En);
        v.banner = Some("Sente wins: lion captured!".into());
        let img = render(&v, Lang::En);
        let band_y = (BY + BOARD_H / 2 - 30) as u32..(BY + BOARD_H / 2 + 30) as u32;
        let gold =
            img.enumerate_pixels().filter(|&(_, y, p)| band_y.contains(&y) && close(*p, BANNER_TEXT, 12)).count();
        assert!(gold > 300, "banner ink pixels: {gold}");
        // Away from the band nothing changes.
        assert_eq!(at(&img, cell_centre(0)), at(&plain, cell_centre(0)));
        // A blank banner is not drawn.
        v.banner = Some("  ".into());
        assert_eq!(render(&v, Lang::En), plain);
    }

    #[test]
    fn every_result_fits_the_band_measured_by_its_ink_and_by_the_pixels_drawn() {
        use crate::render::text::inside;
        let f = font();
        let mut band = background().clone();
        draw_band(&mut band);
        for lang in [Lang::En, Lang::Ja] {
            for text in crate::render::board::every_result_text(GameKind::Doubutsu, lang) {
                let block = banner_block(&text);
                let ink = block.ink(f).expect("a result inks");
                assert!(inside(ink, banner_box()), "{text:?}: ink {ink:?} leaves {:?}", banner_box());
                assert!(block.px >= 16.0 && block.lines.len() <= 2, "{text:?}: {block:?}");
                let said: String = block.lines.iter().map(|(_, _, l)| l.replace(' ', "")).collect();
                assert_eq!(said, text.replace(' ', ""), "nothing is cut");
                // Drawn: the text changes only pixels inside the band's gold rule.
                let mut with = background().clone();
                draw_banner(&mut with, &text);
                let changed: Vec<(u32, u32)> = with
                    .enumerate_pixels()
                    .filter(|&(x, y, p)| p != band.get_pixel(x, y))
                    .map(|(x, y, _)| (x, y))
                    .collect();
                assert!(changed.len() > 300, "{text:?} is drawn ({} pixels)", changed.len());
                for (x, y) in changed {
                    let px = (x as f32, y as f32, x as f32 + 1.0, y as f32 + 1.0);
                    assert!(inside(px, banner_box()), "{text:?} inks ({x},{y}), outside {:?}", banner_box());
                }
            }
        }
    }

    #[test]
    fn coordinates_are_large_and_stay_on_the_frame() {
        let img = render(&empty(), Lang::En);
        let luma = |p: &Rgb<u8>| (p.0[0] as u32 * 3 + p.0[1] as u32 * 6 + p.0[2] as u32) / 10;
        let ink = |(x0, y0, x1, y1): (i32, i32, i32, i32)| {
            let mut b = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
            for y in y0..y1 {
                for x in x0..x1 {
                    if luma(img.get_pixel(x as u32, y as u32)) > 150 {
                        b = (b.0.min(x), b.1.min(y), b.2.max(x + 1), b.3.max(y + 1));
                    }
                }
            }
            assert!(b.0 < b.2, "no label in {:?}", (x0, y0, x1, y1));
            b
        };
        // The menus name squares such as B3: rows 1-4 at least 14 px tall, columns A-C too.
        for k in 0..ROWS {
            let row = ink((BX - FRAME + 3, BY + k * CELL, BX - 4, BY + (k + 1) * CELL));
            assert!(row.3 - row.1 >= 14, "row {} is {} px tall", k + 1, row.3 - row.1);
            assert!(row.0 >= BX - FRAME + 4 && row.2 <= BX - 5, "row {} leaves the frame: {row:?}", k + 1);
        }
        for k in 0..COLS {
            let col = ink((BX + k * CELL, HEADER + 3, BX + (k + 1) * CELL, BY - 4));
            assert!(col.3 - col.1 >= 14, "column {k} is {} px tall", col.3 - col.1);
            assert!(col.1 >= HEADER + 4 && col.3 <= BY - 5, "column {k} leaves the frame: {col:?}");
        }
    }
}
