//! The shared toolkit: the font, PNG encoding, text, sprites and circles.

use ab_glyph::Font;
use image::RgbImage;

use super::*;

#[test]
fn embedded_font_parses_and_covers_latin_kana_kanji() {
    let f = load_font().expect("font parses");
    for ch in "Black to move 0123456789 abcdefgh 黒の番 白の番 終局 勝ち".chars() {
        if ch != ' ' {
            assert_ne!(f.glyph_id(ch).0, 0, "missing glyph for {ch:?}");
            assert!(f.outline(f.glyph_id(ch)).is_some(), "no outline for {ch:?}");
        }
    }
}

#[test]
fn png_roundtrips() {
    let mut img = RgbImage::from_pixel(7, 5, rgb(10, 20, 30));
    img.put_pixel(3, 2, rgb(200, 100, 50));
    let bytes = encode_png(&img).unwrap();
    let back = image::load_from_memory(&bytes).unwrap().to_rgb8();
    assert_eq!(back, img);
}

#[test]
fn text_draws_ink_and_width_matches() {
    let mut img = RgbImage::from_pixel(200, 40, rgb(0, 0, 0));
    let w = draw_text(&mut img, font(), 24.0, (10.0, 20.0), Align::Left, rgb(255, 255, 255), "黒の番");
    // Kanji and kana are full-width: about one em each.
    assert!((66.0..=78.0).contains(&w), "width {w}");
    let lit: Vec<u32> = img.enumerate_pixels().filter(|(_, _, p)| p.0[0] > 128).map(|(x, _, _)| x).collect();
    assert!(lit.len() > 50);
    // Ink stays within the advance box (small side bearings aside).
    assert!(*lit.iter().min().unwrap() >= 9 && *lit.iter().max().unwrap() <= 10 + w as u32 + 1);
}

#[test]
fn sprite_matches_direct_drawing() {
    let bg = |x: u32, y: u32| rgb((x * 9) as u8, (y * 7) as u8, 90);
    let draw = |img: &mut RgbImage| {
        soft_shadow(img, (12.0, 13.0), 7.0, 2.0, 0.5);
        fill_circle(img, (12.0, 12.0), 7.0, rgb(200, 30, 40), 0.8);
    };
    let mut direct = RgbImage::from_fn(24, 24, bg);
    draw(&mut direct);
    let mut stamped = RgbImage::from_fn(24, 24, bg);
    Sprite::painted(24, 24, (12, 12), draw).stamp(&mut stamped, (12, 12));
    for (a, b) in direct.pixels().zip(stamped.pixels()) {
        for i in 0..3 {
            assert!((a.0[i] as i32 - b.0[i] as i32).abs() <= 2, "{a:?} vs {b:?}");
        }
    }
    assert_ne!(direct, RgbImage::from_fn(24, 24, bg));
}

#[test]
fn circle_is_antialiased_and_symmetric() {
    let mut img = RgbImage::from_pixel(20, 20, rgb(0, 0, 0));
    fill_circle(&mut img, (10.0, 10.0), 6.0, rgb(255, 255, 255), 1.0);
    assert_eq!(img.get_pixel(10, 10).0[0], 255);
    assert_eq!(img.get_pixel(0, 0).0[0], 0);
    // Some rim pixel is partially covered.
    assert!(img.pixels().any(|p| p.0[0] > 0 && p.0[0] < 255));
    // Mirror symmetry about the centre line x = 10.
    for y in 0..20 {
        for x in 0..10 {
            assert_eq!(img.get_pixel(x, y), img.get_pixel(19 - x, y));
        }
    }
}
