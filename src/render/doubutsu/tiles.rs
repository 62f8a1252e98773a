//! The piece tiles: the Twemoji artwork decoded once, a tile drawn (shadow, tinted body,
//! animal, movement dots; gote's turned round) and pre-rendered as sprites at each size.

use std::sync::OnceLock;

use image::imageops::{self, FilterType};
use image::{RgbImage, Rgba, Rgba32FImage};

use super::layout::{tint, ART_SHARE, DOT_INSET, DOT_R, HAND_TILE, ICON_TILE, TILE};
use super::rounded::{fill_round_gradient, round_glow};
use super::view::{Animal, Owner, ANIMALS};
use crate::render::{fill_circle, fill_round_rect, mix, rgb, Sprite};

impl Animal {
    /// The Twemoji artwork, 128 × 128 RGBA PNG.
    pub(super) fn png(self) -> &'static [u8] {
        match self {
            Animal::Lion => include_bytes!("../../../assets/doubutsu/lion.png"),
            Animal::Giraffe => include_bytes!("../../../assets/doubutsu/giraffe.png"),
            Animal::Elephant => include_bytes!("../../../assets/doubutsu/elephant.png"),
            Animal::Chick => include_bytes!("../../../assets/doubutsu/chick.png"),
            Animal::Hen => include_bytes!("../../../assets/doubutsu/hen.png"),
        }
    }
}

/// Decodes an animal's artwork as premultiplied RGBA.
pub(super) fn decode_art(animal: Animal) -> Rgba32FImage {
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
pub(super) fn draw_art(img: &mut RgbImage, art: &Rgba32FImage, c: (f32, f32)) {
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
pub(super) fn draw_tile(
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
pub(super) struct Tiles {
    pub(super) board: Vec<Sprite>,
    pub(super) hand: Vec<Sprite>,
    /// The two lions at header size, used as each player's badge.
    pub(super) icon: Vec<Sprite>,
}

/// Stamps sente's hand-sized tile of `animal` (with its dots) centred at `at` (the pictures
/// of `/play help`).
pub(in crate::render) fn stamp_hand_tile(img: &mut RgbImage, at: (i32, i32), animal: Animal) {
    tiles().hand[tile_index(Owner::Sente, animal)].stamp(img, at);
}

pub(super) fn tile_index(owner: Owner, animal: Animal) -> usize {
    owner as usize * ANIMALS.len() + animal as usize
}

pub(super) fn tiles() -> &'static Tiles {
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
            Sprite::painted(side, side, (half, half), |img| draw_tile(img, centre, size, owner, animal, art, dots))
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
