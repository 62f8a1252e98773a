//! The picture's captions: the header strip (a pill per player, the turn) and the hand trays'
//! captions and counts.

use image::RgbImage;
use settai_core::{GameKind, Side};

use super::layout::{tint, tray_origin, HAND_H, HAND_PITCH, HAND_TOP, HAND_W, HEADER, PAD, WIDTH};
use super::tiles::{tile_index, tiles};
use super::view::{Animal, DoubutsuView, Owner, ANIMALS};
use crate::i18n::Msg;
use crate::render::{
    draw_text, fill_round_rect, fit_size, fit_text, font, mix, printable, text_width, Align, Lang, LABEL, PILL,
    PILL_ACTIVE, PILL_RING, TEXT,
};

pub(super) fn side(owner: Owner) -> Side {
    match owner {
        Owner::Sente => Side::First,
        Owner::Gote => Side::Second,
    }
}

/// A seat's caption: "You" / "Computer" in English when the player's seat is known.
pub(super) fn side_label(owner: Owner, human: Option<Side>, lang: Lang) -> String {
    Msg::BoardSeat { kind: GameKind::Doubutsu, side: side(owner), human }.text(lang)
}

/// Header strip: a pill per player (lion badge in their colour, name), the side
/// to move highlighted; the turn or "game over" on the right.
pub(super) fn draw_header(img: &mut RgbImage, view: &DoubutsuView, lang: Lang) {
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
pub(super) fn hand_rows(hand: &[(Animal, u8)]) -> Vec<(Animal, u32)> {
    let mut counts = [0u32; 5];
    for &(animal, n) in hand {
        let kind = if animal == Animal::Hen { Animal::Chick } else { animal };
        counts[kind as usize] += u32::from(n);
    }
    ANIMALS.iter().zip(counts).filter(|&(_, n)| n > 0).map(|(&a, n)| (a, n)).collect()
}

/// A side's hand tray: caption, then one small tile and "×n" per kind held.
pub(super) fn draw_hand(img: &mut RgbImage, owner: Owner, hand: &[(Animal, u8)], human: Option<Side>, lang: Lang) {
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
