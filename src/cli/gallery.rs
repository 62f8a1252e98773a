//! `settai gallery`: the sample boards, replays and charts under `docs/gallery/`, all from
//! seeded games so that the command rewrites the same files.

use std::path::Path;
use std::time::Instant;

use anyhow::Context as _;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::i18n::{Lang, Msg};
use crate::render;
use settai_core::doubutsu::table::{build, BuildOptions, Material};
use settai_core::{doubutsu, reversi, story, DoubutsuGame, Game, GameKind, GameMove, Line, Side, Thinker};

/// Seed of the sample doubutsu game (a lively one, 40-odd plies).
const DOUBUTSU_SEED: u64 = 20;

/// A whole reversi game between two shallow searches with seeded tie-breaks.
fn reversi_game(seed: u64) -> Vec<GameMove> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = reversi::Position::start();
    let mut moves = Vec::new();
    while !pos.is_game_over() {
        let legal = pos.legal_moves();
        let mv = if legal == [reversi::Move::Pass] {
            reversi::Move::Pass
        } else {
            reversi::choose_move(&pos, 2 + moves.len() as u32 % 2, &mut rng).best
        };
        pos = pos.play(mv).expect("the AI plays legal moves");
        moves.push(mv.into());
    }
    moves
}

/// A doubutsu game from `start`: a random first player against `second` until it ends.
fn doubutsu_game(
    start: doubutsu::Position,
    seed: u64,
    mut second: impl FnMut(&doubutsu::History, &mut StdRng) -> doubutsu::Move,
) -> Vec<GameMove> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = doubutsu::History::from_position(start);
    let mut moves = Vec::new();
    while game.outcome().is_none() && moves.len() < 200 {
        let mv = if game.position().turn() == doubutsu::Color::Sente {
            let legal = game.legal_moves();
            // A child's game: mostly moves that do not hang the lion.
            let p = *game.position();
            let safe: Vec<_> = legal.iter().copied().filter(|&m| !p.loses_at_once(m)).collect();
            let pool = if safe.is_empty() { &legal } else { &safe };
            pool[rng.gen_range(0..pool.len())]
        } else {
            second(&game, &mut rng)
        };
        game.play(mv).expect("legal moves only");
        moves.push(mv.into());
    }
    moves
}

/// The seats of the samples: a child against the computer, named in `lang`.
fn names(lang: Lang) -> render::Names {
    let child = if lang == Lang::Ja { "はると" } else { "Mika" };
    render::Names::new(child, Msg::Computer.text(lang)).with_human(Side::First)
}

/// The board after `moves[..n]` from `start`, with its last move marked and, at the end, the
/// result for the first player (the human of these samples).
fn board_after(start: &Game, moves: &[GameMove], n: usize, lang: Lang) -> anyhow::Result<Vec<u8>> {
    let mut game = start.clone();
    let mut last = None;
    for &m in &moves[..n] {
        let next = game.play(m).map_err(|e| anyhow::anyhow!("{m}: {e}"))?;
        last = Some((game, m));
        game = next;
    }
    let banner = banner(&game, lang);
    Ok(render::game_png(&game, last.as_ref().map(|(g, m)| (g, *m)), lang, banner.as_deref(), &names(lang)))
}

fn banner(game: &Game, lang: Lang) -> Option<String> {
    game.outcome().map(|o| {
        Msg::GameOver { human_won: o.winner.map(|w| w == Side::First), score: o.score, reason: Some(o.reason) }
            .text(lang)
    })
}

/// Writes the gallery into `dir`, printing each file with its size and time.
pub fn gallery(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("could not create {}", dir.display()))?;
    let write = |name: &str, bytes: Vec<u8>, started: Instant| -> anyhow::Result<()> {
        let path = dir.join(name);
        std::fs::write(&path, &bytes).with_context(|| format!("could not write {}", path.display()))?;
        println!("{:<28} {:>9} bytes {:>8.1} ms", name, bytes.len(), started.elapsed().as_secs_f64() * 1e3);
        Ok(())
    };

    let reversi_start = Game::new(GameKind::Reversi);
    let moves = reversi_game(7);
    for (name, n, lang) in [
        ("reversi-start-en.png", 0, Lang::En),
        ("reversi-midgame-ja.png", 21, Lang::Ja),
        ("reversi-final-en.png", moves.len(), Lang::En),
    ] {
        let t = Instant::now();
        write(name, board_after(&reversi_start, &moves, n, lang)?, t)?;
    }
    let t = Instant::now();
    let line = Line::new(&reversi_start, &moves)?;
    let gif = render::replay::replay_gif(&line, Lang::En, banner(line.end(), Lang::En).as_deref(), &names(Lang::En))?;
    write("reversi-replay.gif", gif, t)?;
    let t = Instant::now();
    let told = story::<doubutsu::BuiltTable>(&line, Side::First, None, &mut Thinker::new(Instant::now));
    write("reversi-chart-en.png", render::story::story_png(&told, Lang::En), t)?;

    let doubutsu_start = Game::new(GameKind::Doubutsu);
    let moves = doubutsu_game(doubutsu::Position::start(), DOUBUTSU_SEED, |g, rng| {
        doubutsu::weakest(g, rng).expect("the game is on")
    });
    for (name, n, lang) in [
        ("doubutsu-start-ja.png", 0, Lang::Ja),
        ("doubutsu-midgame-en.png", moves.len().min(9), Lang::En),
        ("doubutsu-final-ja.png", moves.len(), Lang::Ja),
    ] {
        let t = Instant::now();
        write(name, board_after(&doubutsu_start, &moves, n, lang)?, t)?;
    }
    let t = Instant::now();
    let line = Line::new(&doubutsu_start, &moves)?;
    let gif = render::replay::replay_gif(&line, Lang::Ja, banner(line.end(), Lang::Ja).as_deref(), &names(Lang::Ja))?;
    write("doubutsu-replay.gif", gif, t)?;

    // The exact chart needs the table: a small one, from a set-up endgame, is built here.
    let root: doubutsu::Position = "1l1/1c1/1C1/1L1 b Gg".parse().expect("a valid position");
    let table = build(Material::of(&root), &BuildOptions::default())?;
    let moves = doubutsu_game(root, 3, |g, rng| doubutsu::settai(&table, g, rng).expect("the table holds the game"));
    let start = Game::Doubutsu(DoubutsuGame::new(doubutsu::History::from_position(root)));
    let t = Instant::now();
    let told = story(&Line::new(&start, &moves)?, Side::First, Some(&table), &mut Thinker::new(Instant::now));
    write("doubutsu-chart-ja.png", render::story::story_png(&told, Lang::Ja), t)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_games_are_whole_games_and_replay() {
        let moves =
            doubutsu_game(doubutsu::Position::start(), DOUBUTSU_SEED, |g, rng| doubutsu::weakest(g, rng).unwrap());
        let line = Line::new(&Game::new(GameKind::Doubutsu), &moves).unwrap();
        let end = line.end();
        assert!(end.outcome().is_some() && (30..=60).contains(&moves.len()), "{} plies", moves.len());
        let moves = reversi_game(7);
        assert!(Line::new(&Game::new(GameKind::Reversi), &moves).unwrap().end().outcome().is_some());
        assert_eq!(moves, reversi_game(7), "seeded");
    }
}
