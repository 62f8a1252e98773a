//! The speed figures: perft, one reply and rendering (`bench`), the engine's search and solver
//! (`bench engine`) and the midgame search (`bench midgame`).

use std::time::Instant;

use anyhow::{bail, Context as _};
use rand::rngs::StdRng;
use rand::SeedableRng;

use settai::cli::replay_with_last;
use settai::i18n::Lang;
use settai::render;
use settai_core::reversi::Engine;
use settai_core::{self, reversi, Game, GameKind};

use super::super::solve::FfoCase;
use super::super::stopwatch::{describe, Stopwatch};
use super::machine::cores;

/// `settai-lab bench`: perft, one AI reply and board rendering.
pub(crate) fn quick(perft_depth: u32, renders: u32) -> anyhow::Result<()> {
    println!("machine: {} logical cores", std::thread::available_parallelism().map_or(0, |n| n.get()));
    let watch = Stopwatch::start();
    let leaves = reversi::perft(&reversi::Position::start(), perft_depth);
    let (wall, cpu) = watch.stop();
    println!(
        "reversi perft {perft_depth}: {leaves} leaves, 1 thread, {}",
        describe(wall, cpu, |s| format!("{:.1} M leaves/s", leaves as f64 / s / 1e6))
    );

    // A mid-game position for the AI and the renderer.
    let moves = "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c6 c5 b4 e3 g5";
    let (game, last) = replay_with_last(GameKind::Reversi, moves)?;
    let mut rng = StdRng::seed_from_u64(1);
    let Game::Reversi(pos) = &game else { bail!("the benchmark position is a reversi one") };
    let watch = Stopwatch::start();
    let analysis = reversi::choose_move(pos, settai_core::REVERSI_DEPTH, &mut rng);
    let (wall, cpu) = watch.stop();
    println!(
        "reversi AI depth {} (mid-game): {} nodes, {}",
        analysis.depth,
        analysis.nodes,
        describe(wall, cpu, |s| format!("{:.2} M nodes/s", analysis.nodes as f64 / s / 1e6))
    );

    let last = last.as_ref().map(|(g, m)| (g, *m));
    let mut bytes = 0;
    let watch = Stopwatch::start();
    for _ in 0..renders {
        bytes = render::game_png(&game, last, Lang::En, None, &render::Names::new("Mika", "Computer")).len();
    }
    let (wall, cpu) = watch.stop();
    let n = f64::from(renders.max(1));
    println!(
        "reversi board render x{renders}: {bytes} bytes per image, {}",
        describe(wall, cpu, |s| format!("{:.2} ms per image", s * 1000.0 / n))
    );
    Ok(())
}

/// The levels whose replies `bench engine` times: every level the bot offers.
const TIMED_LEVELS: [reversi::ReversiLevel; 4] = [
    reversi::ReversiLevel::NoMercy,
    reversi::ReversiLevel::Standard,
    reversi::ReversiLevel::Highest,
    reversi::ReversiLevel::StandardClassic,
];

/// `settai-lab bench engine`: perft, the FFO suite (every answer checked) and each level's reply
/// on mid-game positions.
pub(crate) fn engine(ffo: &[FfoCase], perft_depth: u32, positions: usize) -> anyhow::Result<()> {
    println!("machine: {} logical cores; one thread per measurement", cores());
    let watch = Stopwatch::start();
    let leaves = reversi::perft(&reversi::Position::start(), perft_depth);
    let (wall, cpu) = watch.stop();
    println!(
        "perft {perft_depth}: {leaves} leaves, {}",
        describe(wall, cpu, |s| format!("{:.1} M leaves/s", leaves as f64 / s / 1e6))
    );

    println!("\n| # | empties | best | score | nodes | on-CPU s | M nodes/s | |");
    println!("|---|---|---|---|---|---|---|---|");
    let (mut total_cpu, mut total_nodes, mut wrong) = (0.0, 0u64, 0);
    for (name, pos, score, best) in ffo {
        let watch = Stopwatch::start();
        let solved = reversi::solve(pos);
        let (wall, cpu) = watch.stop();
        let secs = cpu.unwrap_or(wall);
        let ok = solved.score == *score && best.contains(&solved.best);
        wrong += usize::from(!ok);
        total_cpu += secs;
        total_nodes += solved.nodes;
        println!(
            "| {} | {} | {} | {:+} | {:.1}M | {secs:.2} | {:.1} | {} |",
            name.trim_start_matches('#'),
            pos.empties(),
            solved.best,
            solved.score,
            solved.nodes as f64 / 1e6,
            solved.nodes as f64 / secs / 1e6,
            if ok { "ok" } else { "WRONG" }
        );
    }
    println!("FFO total: {total_cpu:.1} s, {:.0}M nodes, {wrong} wrong", total_nodes as f64 / 1e6);

    // The strong level's win/loss/draw solve (21-24 empties), alone and after a selective pass.
    println!("\n| # | empties | WLD | WLD solve: nodes, on-CPU s | after a selective pass: nodes, on-CPU s |");
    println!("|---|---|---|---|---|");
    let eval = &reversi::PatternEval::builtin();
    for (name, pos, ..) in ffo.iter().filter(|c| c.1.empties() <= 24) {
        let (p, o) = (pos.player(), pos.opponent());
        let timed = |selective: bool| {
            let mut engine = Engine::new(reversi::TT_BITS);
            let watch = Stopwatch::start();
            let solved =
                if selective { engine.solve_window(eval, p, o, -1, 1) } else { engine.solve_root(eval, p, o, -1, 1) };
            let (wall, cpu) = watch.stop();
            (solved.expect("no deadline").1.signum(), engine.nodes, cpu.unwrap_or(wall))
        };
        let (alone, selective) = (timed(false), timed(true));
        assert_eq!(alone.0, selective.0, "both solves are exact");
        println!(
            "| {} | {} | {:+} | {:.1}M, {:.2} | {:.1}M, {:.2} |",
            name.trim_start_matches('#'),
            pos.empties(),
            alone.0,
            alone.1 as f64 / 1e6,
            alone.2,
            selective.1 as f64 / 1e6,
            selective.2
        );
    }

    // `standard`'s handover to a trusted human (docs/design/reversi-handover.md#measured): every
    // root move solved exactly, as its first version did, against the window solve that decides
    // the same choice.
    println!(
        "\n| # | empties | every move solved exactly: nodes, on-CPU s | the handover's window solve: nodes, on-CPU s |"
    );
    println!("|---|---|---|---|");
    for (name, pos, ..) in ffo.iter().filter(|c| c.1.empties() <= 22) {
        let mut engine = Engine::new(reversi::TT_BITS);
        let watch = Stopwatch::start();
        for m in pos.legal_moves() {
            let child = pos.play(m).expect("a legal move");
            engine.solve_exact(eval, child.player(), child.opponent()).expect("no deadline");
        }
        let (wall, cpu) = watch.stop();
        let every = (engine.nodes, cpu.unwrap_or(wall));
        // The bot orders the solves by its midgame search; here a depth-6 one (not timed).
        let (p, o) = (pos.player(), pos.opponent());
        let hint = Engine::new(16).handover_hint(eval, p, o, 6);
        let mut engine = Engine::new(reversi::TT_BITS);
        let watch = Stopwatch::start();
        engine.handover_values(eval, p, o, 0, &hint).expect("no deadline");
        let (wall, cpu) = watch.stop();
        let window = (engine.nodes, cpu.unwrap_or(wall));
        println!(
            "| {} | {} | {:.1}M, {:.2} | {:.1}M, {:.2} |",
            name.trim_start_matches('#'),
            pos.empties(),
            every.0 as f64 / 1e6,
            every.1,
            window.0 as f64 / 1e6,
            window.1
        );
    }

    // Mid-game positions: seeded random openings of 20 plies, the bot to move.
    let mut rng = StdRng::seed_from_u64(7);
    // `standard-classic` draws from a source of its own, so that the positions stay those the
    // other levels were timed on before it joined them.
    let mut classic_rng = StdRng::seed_from_u64(8);
    println!("\n| level | position | empties | depth | nodes | stage | wall s | M nodes/s |");
    println!("|---|---|---|---|---|---|---|---|");
    // One engine for every reply, as a bot thread keeps one.
    let mut thinker = settai_core::Thinker::new(Instant::now);
    for i in 0..positions {
        let pos = random_reversi_position(&mut rng, 20);
        for level in TIMED_LEVELS {
            let source = if level == reversi::ReversiLevel::StandardClassic { &mut classic_rng } else { &mut rng };
            let started = Instant::now();
            let (engine, eval) = thinker.reversi();
            let reply = reversi::choose_at_level(engine, eval, &pos, level, &[], source);
            let wall = started.elapsed().as_secs_f64();
            println!(
                "| {} | {} | {} | {} | {:.2}M | {:?} | {wall:.2} | {:.2} |",
                level.as_str(),
                i + 1,
                pos.empties(),
                reply.depth,
                reply.nodes as f64 / 1e6,
                reply.stage,
                reply.nodes as f64 / wall / 1e6
            );
        }
    }
    if wrong > 0 {
        bail!("{wrong} FFO position(s) solved differently from the reference");
    }
    Ok(())
}

/// `settai-lab bench midgame`: the strong level's evaluation searched to `depth` plies (PVS, the
/// table, no clock, no ProbCut) from the first `positions` balanced openings of the match set.
/// The node count is a fingerprint of the search (a pure speed-up keeps it); nodes per on-CPU
/// second measure the midgame's speed.
pub(crate) fn midgame(depth: u32, positions: usize) -> anyhow::Result<()> {
    use settai_core::reversi::Strong;
    let set = settai_lab::reversi::openings::parse_openings(include_str!("../../../../assets/reversi/openings.txt"))?;
    let eval = &reversi::PatternEval::builtin();
    println!("machine: {} logical cores; one thread", cores());
    println!("\n| # | empties | best | value | nodes | on-CPU s | M nodes/s |");
    println!("|---|---|---|---|---|---|---|");
    let (mut nodes, mut secs) = (0u64, 0.0);
    for (i, opening) in set.iter().take(positions).enumerate() {
        let pos = opening.position;
        let mut engine = Engine::new(reversi::TT_BITS);
        let watch = Stopwatch::start();
        let r = engine
            .iterate(&Strong(eval), pos.player(), pos.opponent(), depth, false, reversi::DISC)
            .context("an opening without a move")?;
        let (wall, cpu) = watch.stop();
        let cpu = cpu.unwrap_or(wall);
        let (sq, value) = r.scores[0];
        nodes += engine.nodes;
        secs += cpu;
        println!(
            "| {} | {} | {} | {:+.2} | {} | {cpu:.3} | {:.2} |",
            i + 1,
            pos.empties(),
            reversi::Square::new(sq).expect("a square"),
            value as f64 / reversi::DISC as f64,
            engine.nodes,
            engine.nodes as f64 / cpu / 1e6
        );
    }
    println!("total: depth {depth}, {nodes} nodes, on-CPU {secs:.2} s, {:.2} M nodes/s", nodes as f64 / secs / 1e6);
    Ok(())
}

/// A position after `plies` random legal moves (re-drawn until the game is still on).
fn random_reversi_position(rng: &mut StdRng, plies: usize) -> reversi::Position {
    use rand::seq::SliceRandom;
    'again: loop {
        let mut pos = reversi::Position::start();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let Some(&mv) = moves.choose(rng) else { continue 'again };
            pos = pos.play(mv).expect("a legal move");
        }
        if !pos.is_game_over() && !pos.legal_moves().is_empty() {
            return pos;
        }
    }
}

#[cfg(test)]
mod tests {
    use settai_core::reversi::ReversiLevel;

    use super::TIMED_LEVELS;

    /// A level the bot offers has its reply time in BENCHMARKS.md only if `bench engine` times it.
    #[test]
    fn bench_engine_times_every_level() {
        for level in ReversiLevel::ALL {
            assert!(TIMED_LEVELS.contains(&level), "`settai-lab bench engine` does not time {level:?}");
        }
    }
}
