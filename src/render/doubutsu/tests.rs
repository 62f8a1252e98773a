//! Pixel tests of the doubutsu picture.

use image::{Rgb, RgbImage};

use super::background::*;
use super::banner::*;
use super::layout::*;
use super::picture::*;
use super::view::*;
use crate::render::*;
use settai_core::GameKind;
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
    assert!(s.ends_with(ELLIPSIS) && text_width(f, px, &s) <= 120.0, "{s}");
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
    let gold = img.enumerate_pixels().filter(|&(_, y, p)| band_y.contains(&y) && close(*p, BANNER_TEXT, 12)).count();
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
        for text in board::every_result_text(GameKind::Doubutsu, lang) {
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
