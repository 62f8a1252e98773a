//! Animated replays of whole games as GIF (Discord animates GIF attachments on every client,
//! phones included; APNG is shown still on some).
//!
//! The first frame is the whole start position; every later frame is only the rectangle that
//! changed since the frame before, drawn over it with its unchanged pixels transparent, so a
//! 60-move game stays small.
//!
//! One palette serves the whole replay, learnt once from the first and the final frame, which
//! between them show the board, the pieces, the hands and the result. Learning a palette per
//! frame cost about 20 ms a frame, most of a finished game's reply and three quarters of the
//! bot's CPU in the soak (docs/notebook/2026-12-06-the-month-again.md).

use std::collections::HashMap;

use color_quant::NeuQuant;
use image::RgbImage;

use super::board::line_image;
use super::Names;
use crate::i18n::Lang;
use settai_core::Line;

/// How long each move stays on screen.
pub const MOVE_DELAY_MS: u16 = 900;
/// How long the first and the final position stay on screen.
pub const HOLD_DELAY_MS: u16 = 3000;
/// NeuQuant sampling (1 best .. 30 fastest): 10 is the codec's default quality.
const QUANT_SPEED: i32 = 10;
/// The palette's index of "unchanged since the frame before" (transparent); the other 255 are
/// colours.
const UNCHANGED: u8 = 255;

/// Largest replay the bot posts; longer games are drawn smaller until they fit.
pub const MAX_REPLAY_BYTES: usize = 3 << 20;

/// The replay of the game whose positions are `line` as GIF bytes; `banner` is drawn on the
/// final frame (the result); `names` label the seats. Deterministic; at most
/// [`MAX_REPLAY_BYTES`] (frames are scaled down for very long games). Every size tried reads
/// the one line (docs/design/storage.md#the-end-of-a-game).
pub fn replay_gif(line: &Line, lang: Lang, banner: Option<&str>, names: &Names) -> Result<Vec<u8>, gif::EncodingError> {
    fitting(line, lang, banner, names, MAX_REPLAY_BYTES)
}

/// The replay drawn at full size, else at 75%, else at 50%: the first that fits `cap` bytes,
/// or the smallest.
fn fitting(
    line: &Line,
    lang: Lang,
    banner: Option<&str>,
    names: &Names,
    cap: usize,
) -> Result<Vec<u8>, gif::EncodingError> {
    let mut gif = encode(line, lang, banner, names, 1.0)?;
    for scale in [0.75, 0.5] {
        if gif.len() <= cap {
            break;
        }
        gif = encode(line, lang, banner, names, scale)?;
    }
    Ok(gif)
}

fn encode(
    line: &Line,
    lang: Lang,
    banner: Option<&str>,
    names: &Names,
    scale: f32,
) -> Result<Vec<u8>, gif::EncodingError> {
    let last = line.last();
    let frame_of = |i: usize| {
        let img = line_image(line, i, lang, if i == last { banner } else { None }, names);
        if scale < 1.0 {
            let (w, h) = ((img.width() as f32 * scale) as u32, (img.height() as f32 * scale) as u32);
            image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle)
        } else {
            img
        }
    };
    let first = frame_of(0);
    let mut palette = Palette::learn(&[&first, &frame_of(last)]);
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, first.width() as u16, first.height() as u16, &palette.colours)?;
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
            let mut indices = Vec::with_capacity((w * h) as usize);
            for py in y..y + h {
                for px in x..x + w {
                    let p = img.get_pixel(px, py).0;
                    indices.push(match &before {
                        Some(prev) if prev.get_pixel(px, py).0 == p => UNCHANGED,
                        _ => palette.index_of(p),
                    });
                }
            }
            let frame = gif::Frame {
                left: x as u16,
                top: y as u16,
                width: w as u16,
                height: h as u16,
                delay: delay / 10,
                dispose: gif::DisposalMethod::Keep,
                transparent: Some(UNCHANGED),
                buffer: indices.into(),
                ..gif::Frame::default()
            };
            encoder.write_frame(&frame)?;
            before = Some(img);
        }
    }
    Ok(out)
}

/// The replay's one palette: 255 colours learnt from some frames, each pixel given the nearest.
struct Palette {
    quant: NeuQuant,
    /// The GIF's global colour table: the 255 colours, then [`UNCHANGED`]'s.
    colours: Vec<u8>,
    /// Colours already looked up: a board has a few thousand (anti-aliased edges).
    seen: HashMap<[u8; 3], u8>,
    /// The last one: most pixels continue a run of their left neighbour's colour.
    last: ([u8; 3], u8),
}

impl Palette {
    fn learn(frames: &[&RgbImage]) -> Palette {
        let rgba: Vec<u8> = frames.iter().flat_map(|f| f.pixels()).flat_map(|p| [p[0], p[1], p[2], 255]).collect();
        let quant = NeuQuant::new(QUANT_SPEED, usize::from(UNCHANGED), &rgba);
        let mut colours = quant.color_map_rgb();
        colours.extend_from_slice(&[0, 0, 0]);
        let black = quant.index_of(&[0, 0, 0, 255]) as u8;
        Palette { quant, colours, seen: HashMap::new(), last: ([0, 0, 0], black) }
    }

    fn index_of(&mut self, rgb: [u8; 3]) -> u8 {
        if self.last.0 != rgb {
            let quant = &self.quant;
            // Below UNCHANGED: the palette has that many colours.
            let index = *self.seen.entry(rgb).or_insert_with(|| quant.index_of(&[rgb[0], rgb[1], rgb[2], 255]) as u8);
            self.last = (rgb, index);
        }
        self.last.1
    }
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
    use crate::render::game_image;
    use settai_core::{Game, GameKind, GameMove};

    /// The replay of `moves` from `start`.
    fn replay_of(start: &Game, moves: &[GameMove], lang: Lang, banner: Option<&str>) -> Vec<u8> {
        replay_gif(&Line::new(start, moves).unwrap(), lang, banner, &Names::default()).unwrap()
    }

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
        let gif = replay_of(&start, &moves, Lang::En, None);
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
        let far = far_pixels(&want, got);
        assert!(far * 100 < want.pixels().len(), "{far} pixels differ from the final board");
        assert_eq!(gif, replay_of(&start, &moves, Lang::En, None), "deterministic");
    }

    /// Pixels of `got` (RGBA) further than a palette's error from `want`'s.
    fn far_pixels(want: &RgbImage, got: &[u8]) -> usize {
        want.pixels()
            .zip(got.chunks(4))
            .filter(|(w, g)| (0..3).any(|i| (w.0[i] as i32 - g[i] as i32).abs() > 24))
            .count()
    }

    /// With one palette for the whole replay, every frame still looks like its own position, in
    /// both games: hands, captures and the last move's marks included, colours the first and the
    /// final frame may not show.
    #[test]
    fn every_frame_looks_like_its_position() {
        for kind in [GameKind::Doubutsu, GameKind::Reversi] {
            let start = Game::new(kind);
            let (mut games, mut moves) = (vec![start.clone()], Vec::new());
            // A game of varied moves: each time the legal move a seeded step picks.
            for step in 0..24usize {
                let game = games.last().unwrap();
                if game.outcome().is_some() {
                    break;
                }
                let legal = game.legal_moves();
                let mv = legal[(step * 7 + 3) % legal.len()];
                games.push(game.play(mv).unwrap());
                moves.push(mv);
            }
            let frames = decode(&replay_of(&start, &moves, Lang::En, None));
            assert_eq!(frames.len(), games.len());
            for (i, (got, _)) in frames.iter().enumerate() {
                let previous = (i > 0).then(|| (&games[i - 1], moves[i - 1]));
                let want = game_image(&games[i], previous, Lang::En, None, &Names::default());
                let far = far_pixels(&want, got);
                assert!(far * 100 < want.pixels().len(), "{kind:?} frame {i}: {far} pixels differ from its position");
            }
        }
    }

    /// A long game's replay is drawn smaller until it fits Discord's room for it.
    #[test]
    fn a_long_games_replay_fits_its_cap() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let start = Game::new(GameKind::Doubutsu);
        // A game of 200 plies: seeded random moves that neither end it nor lose at once, from
        // the first seed whose game lasts that long.
        let long_game = |seed: u64| {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let (mut game, mut moves) = (start.clone(), Vec::new());
            while moves.len() < 200 {
                let mut legal = game.legal_moves();
                legal.shuffle(&mut rng);
                let going_on = legal
                    .into_iter()
                    .find(|&mv| !game.loses_at_once(mv) && game.play(mv).is_ok_and(|next| next.outcome().is_none()))?;
                game = game.play(going_on).unwrap();
                moves.push(going_on);
            }
            Some(moves)
        };
        let moves = (0..100).find_map(long_game).expect("a seed whose game lasts 200 plies");
        let names = Names::default();
        let line = Line::new(&start, &moves).unwrap();
        let gif = replay_gif(&line, Lang::Ja, Some("banner"), &names).unwrap();
        assert!(gif.len() <= MAX_REPLAY_BYTES, "{} bytes", gif.len());
        // Past a cap, it is drawn smaller until it fits (the real cap takes a longer game).
        let cap = gif.len() * 2 / 3;
        let smaller = fitting(&line, Lang::Ja, Some("banner"), &names, cap).unwrap();
        assert!(smaller.len() <= cap, "{} bytes past {cap}", smaller.len());
        assert_eq!(decode(&gif).len(), moves.len() + 1);
    }

    /// A frame drawn from the line is, pixel for pixel, the board drawn from the game at that
    /// position: the same last move, whose turn, the lion in danger, the banner.
    #[test]
    fn a_lines_frames_are_the_games_boards() {
        for kind in [GameKind::Doubutsu, GameKind::Reversi] {
            let start = Game::new(kind);
            let (mut games, mut moves) = (vec![start.clone()], Vec::new());
            for step in 0..40usize {
                let game = games.last().unwrap();
                if game.outcome().is_some() {
                    break;
                }
                let legal = game.legal_moves();
                let mv = legal[(step * 5 + 1) % legal.len()];
                games.push(game.play(mv).unwrap());
                moves.push(mv);
            }
            let line = Line::new(&start, &moves).unwrap();
            for (i, game) in games.iter().enumerate() {
                let previous = (i > 0).then(|| (&games[i - 1], moves[i - 1]));
                let banner = (i == line.last()).then_some("the end");
                let want = game_image(game, previous, Lang::Ja, banner, &Names::default());
                assert!(line_image(&line, i, Lang::Ja, banner, &Names::default()) == want, "{kind:?} position {i}");
            }
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
