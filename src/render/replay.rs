//! Animated replays of whole games as GIF (Discord animates GIF attachments on every client,
//! phones included; APNG is shown still on some).
//!
//! The first frame is the whole start position; every later frame is only the rectangle that
//! changed since the frame before, drawn over it with its unchanged pixels transparent, so a
//! 60-move game stays small.

use image::RgbImage;

use super::board::game_image;
use super::Names;
use crate::i18n::Lang;
use settai_core::{line, Game, GameMove, ReplayError};

/// How long each move stays on screen.
pub const MOVE_DELAY_MS: u16 = 900;
/// How long the first and the final position stay on screen.
pub const HOLD_DELAY_MS: u16 = 3000;
/// NeuQuant sampling (1 best .. 30 fastest): 10 is the codec's default quality.
const QUANT_SPEED: i32 = 10;

/// Why a replay could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReplayFailure {
    /// The move list does not replay from the start.
    #[error(transparent)]
    Moves(#[from] ReplayError),
    /// The GIF encoder failed.
    #[error("GIF encoding failed: {0}")]
    Gif(#[from] gif::EncodingError),
}

/// Largest replay the bot posts; longer games are drawn smaller until they fit.
pub const MAX_REPLAY_BYTES: usize = 3 << 20;

/// The replay of `moves` played from `start` as GIF bytes; `banner` is drawn on the final
/// frame (the result); `names` label the seats. Deterministic; at most [`MAX_REPLAY_BYTES`]
/// (frames are scaled down for very long games).
pub fn replay_gif(
    start: &Game,
    moves: &[GameMove],
    lang: Lang,
    banner: Option<&str>,
    names: &Names,
) -> Result<Vec<u8>, ReplayFailure> {
    let mut gif = encode(start, moves, lang, banner, names, 1.0)?;
    for scale in [0.75, 0.5] {
        if gif.len() <= MAX_REPLAY_BYTES {
            break;
        }
        gif = encode(start, moves, lang, banner, names, scale)?;
    }
    Ok(gif)
}

fn encode(
    start: &Game,
    moves: &[GameMove],
    lang: Lang,
    banner: Option<&str>,
    names: &Names,
    scale: f32,
) -> Result<Vec<u8>, ReplayFailure> {
    let games = line(start, moves)?;
    let last = games.len() - 1;
    let frame_of = |i: usize| {
        let previous = (i > 0).then(|| (&games[i - 1], moves[i - 1]));
        let img = game_image(&games[i], previous, lang, if i == last { banner } else { None }, names);
        if scale < 1.0 {
            let (w, h) = ((img.width() as f32 * scale) as u32, (img.height() as f32 * scale) as u32);
            image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle)
        } else {
            img
        }
    };
    let first = frame_of(0);
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, first.width() as u16, first.height() as u16, &[])?;
        encoder.set_repeat(gif::Repeat::Infinite)?;
        let mut before: Option<RgbImage> = None;
        for i in 0..=last {
            let img = if i == 0 { first.clone() } else { frame_of(i) };
            let delay = if i == 0 || i == last { HOLD_DELAY_MS } else { MOVE_DELAY_MS };
            let (x, y, w, h) = match &before {
                Some(prev) => changed_rect(prev, &img).unwrap_or((0, 0, 1, 1)),
                None => (0, 0, img.width(), img.height()),
            };
            // Inside the changed rectangle, pixels that did not change are transparent: they show
            // the frame below, and their long runs of one index cost LZW almost nothing.
            let mut patch = Vec::with_capacity((w * h * 4) as usize);
            for py in y..y + h {
                for px in x..x + w {
                    let p = img.get_pixel(px, py).0;
                    match &before {
                        Some(prev) if prev.get_pixel(px, py).0 == p => patch.extend_from_slice(&[0, 0, 0, 0]),
                        _ => patch.extend_from_slice(&[p[0], p[1], p[2], 255]),
                    }
                }
            }
            let mut frame = gif::Frame::from_rgba_speed(w as u16, h as u16, &mut patch, QUANT_SPEED);
            frame.left = x as u16;
            frame.top = y as u16;
            frame.delay = delay / 10;
            frame.dispose = gif::DisposalMethod::Keep;
            encoder.write_frame(&frame)?;
            before = Some(img);
        }
    }
    Ok(out)
}

/// The smallest rectangle `(x, y, w, h)` outside which `a` and `b` are equal, or `None`.
fn changed_rect(a: &RgbImage, b: &RgbImage) -> Option<(u32, u32, u32, u32)> {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for (x, y, p) in b.enumerate_pixels() {
        if a.get_pixel(x, y) != p {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    (x0 != u32::MAX).then(|| (x0, y0, x1 - x0 + 1, y1 - y0 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use settai_core::GameKind;

    /// Decodes a GIF into its composed frames (RGBA) with their delays.
    fn decode(bytes: &[u8]) -> Vec<(Vec<u8>, u16)> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(bytes).unwrap();
        let (w, h) = (decoder.width() as usize, decoder.height() as usize);
        let mut canvas = vec![0u8; w * h * 4];
        let mut frames = Vec::new();
        while let Some(f) = decoder.read_next_frame().unwrap() {
            // Compose as a viewer does: transparent pixels keep what is below.
            for row in 0..f.height as usize {
                for col in 0..f.width as usize {
                    let src = &f.buffer[(row * f.width as usize + col) * 4..][..4];
                    if src[3] > 0 {
                        let at = ((f.top as usize + row) * w + f.left as usize + col) * 4;
                        canvas[at..at + 4].copy_from_slice(src);
                    }
                }
            }
            frames.push((canvas.clone(), f.delay));
        }
        frames
    }

    #[test]
    fn a_replay_has_a_frame_per_position_and_ends_on_the_final_board() {
        let start = Game::new(GameKind::Reversi);
        let moves: Vec<GameMove> =
            ["f5", "d6", "c3", "d3", "c4"].iter().map(|s| start.parse_move(s).unwrap()).collect();
        let gif = replay_gif(&start, &moves, Lang::En, None, &Names::default()).unwrap();
        let frames = decode(&gif);
        assert_eq!(frames.len(), moves.len() + 1);
        assert_eq!(frames[0].1, HOLD_DELAY_MS / 10);
        assert_eq!(frames[1].1, MOVE_DELAY_MS / 10);
        assert_eq!(frames.last().unwrap().1, HOLD_DELAY_MS / 10);
        // The last composed frame looks like the final board (palette quantisation aside).
        let mut game = start.clone();
        let mut before = start.clone();
        for &m in &moves {
            before = game.clone();
            game = game.play(m).unwrap();
        }
        let want = game_image(&game, Some((&before, moves[4])), Lang::En, None, &Names::default());
        let got = &frames.last().unwrap().0;
        let far = want
            .pixels()
            .zip(got.chunks(4))
            .filter(|(w, g)| (0..3).any(|i| (w.0[i] as i32 - g[i] as i32).abs() > 24))
            .count();
        assert!(far * 100 < want.pixels().len(), "{far} pixels differ from the final board");
        assert_eq!(gif, replay_gif(&start, &moves, Lang::En, None, &Names::default()).unwrap(), "deterministic");
    }

    #[test]
    fn a_bad_move_list_is_refused_with_its_ply() {
        let start = Game::new(GameKind::Doubutsu);
        let moves = vec![start.parse_move("B3B2").unwrap(), start.parse_move("A1A4").unwrap()];
        match replay_gif(&start, &moves, Lang::Ja, None, &Names::default()) {
            Err(ReplayFailure::Moves(e)) => assert_eq!(e.ply, 2),
            other => panic!("expected a replay error, got {other:?}"),
        }
    }

    #[test]
    fn unchanged_frames_cost_one_pixel_and_changes_are_bounded() {
        let a = RgbImage::from_pixel(10, 8, image::Rgb([1, 2, 3]));
        let mut b = a.clone();
        assert_eq!(changed_rect(&a, &b), None);
        b.put_pixel(2, 3, image::Rgb([9, 9, 9]));
        b.put_pixel(6, 5, image::Rgb([9, 9, 9]));
        assert_eq!(changed_rect(&a, &b), Some((2, 3, 5, 3)));
    }
}
