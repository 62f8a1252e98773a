//! The reversi picture's pixel tests.
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
fn numbered_squares_show_their_numbers_in_the_buttons_colour() {
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
        // Left of the numeral, inside the marker: the buttons' blurple, nothing like a white
        // or a black disc.
        let edge = *img.get_pixel((x - 19) as u32, y as u32);
        assert!(close(edge, NUMBER_BG, 3), "{s}: {edge:?}");
        assert!(!close(edge, rgb(255, 255, 255), 120) && !close(edge, rgb(0, 0, 0), 120), "{s}: {edge:?}");
        let white = cell(&img, s).iter().filter(|p| luma(**p) > 200).count();
        assert!(white > 20, "{s}: a numeral is drawn ({white} white pixels)");
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
    // Inside the square, the numeral's white ink stays in its marker.
    for dy in -29..30 {
        for dx in -29..30 {
            if luma(*twelve.get_pixel((x + dx) as u32, (y + dy) as u32)) > 200 {
                ink += 1;
                let r = dx.abs().max(dy.abs()) as f32;
                assert!(r < NUMBER_HALF - 2.0, "12's ink at {dx},{dy} leaves its marker");
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
    let gold = banner.enumerate_pixels().filter(|&(_, y, p)| y < HEADER as u32 && close(*p, BANNER_TEXT, 12)).count();
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
    v.names = ["くろ".into(), "🦁🦁 \u{1F1EF}\u{1F1F5}".into()];
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
