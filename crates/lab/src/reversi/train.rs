//! Training pipeline for the pattern evaluation ([`settai_core::reversi::PatternEval`]).
//!
//! 1. Self-play: games whose first plies are random (varied openings), continued by a shallow
//!    search with the classic evaluation and some random moves.
//! 2. Labels, from the end backwards: positions with at most `exact_empties` empty squares get
//!    the exact final margin from the endgame solver; each earlier phase is labelled by a
//!    `label_depth` search whose leaves lie in the later phases already trained (the phase's
//!    own weights start as a copy of the next phase's), bootstrapping towards the opening.
//! 3. Fit: per phase, least squares by preconditioned gradient descent (each weight's step is
//!    normalised by how often it occurs), with a step that halves whenever the error grows.

use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use settai_core::reversi::{
    self, moves, phase, Engine, Layout, PatternEval, Position, Strong, DISC, INF, N_PHASES, N_TYPES,
};

/// Settings of a training run. The defaults reproduce `crates/core/assets/reversi/weights.bin` byte for
/// byte (the result does not depend on `threads`).
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Self-play games to generate.
    pub games: usize,
    /// Uniformly random plies at the start of each game (varied openings).
    pub random_plies: usize,
    /// Chance of a random move later in the game.
    pub random_move_rate: f64,
    /// Positions with at most this many empties are labelled by exact solving.
    pub exact_empties: u32,
    /// Search depth of the bootstrapped labels of earlier positions.
    pub label_depth: u32,
    /// Fitting passes per phase.
    pub epochs: usize,
    /// Worker threads for labelling.
    pub threads: usize,
    /// Seed of the whole run (the result depends only on the config).
    pub seed: u64,
    /// Print progress to stderr.
    pub verbose: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            games: 20_000,
            random_plies: 10,
            random_move_rate: 0.1,
            exact_empties: 14,
            label_depth: 4,
            epochs: 120,
            threads: 2,
            seed: 20261025,
            verbose: false,
        }
    }
}

/// What a training run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// Games generated.
    pub games: usize,
    /// Labelled positions used for fitting.
    pub positions: usize,
    /// Positions labelled by exact solving.
    pub exact_labels: usize,
    /// Per phase: positions, then the root-mean-square error in discs of the fitted weights
    /// on the training part and on the held-out tenth.
    pub phases: Vec<(usize, f64, f64)>,
    /// Size of the written weights file in bytes.
    pub file_bytes: usize,
    /// Wall-clock time of the run.
    pub time: Duration,
}

/// A training position: bitboards for the side to move and its label (1/DISC discs).
#[derive(Clone, Copy)]
struct Sample {
    p: u64,
    o: u64,
    target: i32,
}

/// One self-play game's positions where the side to move has a placement.
fn self_play(config: &TrainConfig, game: usize, engine: &mut Engine) -> Vec<(u64, u64)> {
    let mut rng = StdRng::seed_from_u64(config.seed ^ (game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut pos = Position::start();
    let mut out = Vec::with_capacity(60);
    let mut ply = 0;
    while !pos.is_game_over() {
        let legal = pos.legal_moves();
        if pos.legal_mask() != 0 {
            out.push((pos.player(), pos.opponent()));
        }
        let m = if ply < config.random_plies || rng.gen_bool(config.random_move_rate) || pos.empties() <= 12 {
            // Near the end moves only matter for the sample, so random ones save solving time.
            legal[rng.gen_range(0..legal.len())]
        } else {
            engine.choose_classic(&pos, 2, reversi::CLASSIC_EXACT_EMPTIES, &mut rng).best
        };
        pos = pos.play(m).expect("legal move");
        ply += 1;
    }
    out
}

/// Runs `f` over `items` on `threads` threads, keeping the order.
fn parallel_map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T, &mut Engine) -> R + Sync) -> Vec<R> {
    let threads = threads.max(1);
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                let f = &f;
                s.spawn(move || {
                    let mut engine = Engine::new(18);
                    part.iter().map(|x| f(x, &mut engine)).collect::<Vec<R>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker panicked")).collect()
    })
}

/// Parameter ids (canonical table entries) of a sample and its mobility difference.
fn features(eval: &PatternEval, layout: &Layout, s: &Sample, ids: &mut Vec<u32>) -> i32 {
    let mut idx = vec![0u32; eval.n_instances()];
    eval.indices(s.p, s.o, &mut idx);
    ids.clear();
    for &i in &idx {
        let t = (0..N_TYPES).find(|&t| (i as usize) < layout.offsets[t + 1]).expect("index in a table");
        ids.push((layout.offsets[t] + layout.canonical[i as usize] as usize) as u32);
    }
    moves(s.p, s.o).count_ones() as i32 - moves(s.o, s.p).count_ones() as i32
}

/// Samples whose index is a multiple of this are held out to measure (and stop) the fit.
const HOLD_OUT: usize = 10;

/// Least-squares fit of one phase's weights on all but the held-out samples, keeping the
/// weights with the lowest held-out error; returns them and the (training, held-out) RMS
/// errors in discs.
fn fit(layout: &Layout, eval: &PatternEval, samples: &[Sample], start: &[i16], epochs: usize) -> (Vec<i16>, f64, f64) {
    let n = layout.phase_len();
    let (mob, bias) = (n - 2, n - 1);
    let mut ids = Vec::new();
    let feats: Vec<(Vec<u32>, i32)> = samples
        .iter()
        .map(|s| {
            let m = features(eval, layout, s, &mut ids);
            (ids.clone(), m)
        })
        .collect();
    let held = |i: usize| i % HOLD_OUT == HOLD_OUT - 1;
    // Preconditioner: how much each weight is exercised (plus a ridge term for rare ones).
    let mut norm = vec![0f64; n];
    for (i, (ids, m)) in feats.iter().enumerate() {
        if held(i) {
            continue;
        }
        for &j in ids {
            norm[j as usize] += 1.0;
        }
        norm[mob] += f64::from(m * m);
        norm[bias] += 1.0;
    }
    let mut w: Vec<f64> = start.iter().map(|&x| f64::from(x)).collect();
    let predict = |w: &[f64], (ids, m): &(Vec<u32>, i32)| -> f64 {
        ids.iter().map(|&j| w[j as usize]).sum::<f64>() + w[mob] * f64::from(*m) + w[bias]
    };
    // Mean squared error over the training part (`false`) or the held-out part (`true`).
    let loss = |w: &[f64], on_held: bool| -> f64 {
        let (mut sum, mut count) = (0f64, 0usize);
        for (i, (f, s)) in feats.iter().zip(samples).enumerate() {
            if held(i) == on_held {
                sum += (f64::from(s.target) - predict(w, f)).powi(2);
                count += 1;
            }
        }
        sum / count.max(1) as f64
    };
    let mut step = 0.25;
    let mut current = loss(&w, false);
    let mut best = (loss(&w, true), w.clone(), current);
    let mut grad = vec![0f64; n];
    for _ in 0..epochs {
        grad.fill(0.0);
        for (i, (f, s)) in feats.iter().zip(samples).enumerate() {
            if held(i) {
                continue;
            }
            let r = f64::from(s.target) - predict(&w, f);
            for &j in &f.0 {
                grad[j as usize] += r;
            }
            grad[mob] += r * f64::from(f.1);
            grad[bias] += r;
        }
        let trial: Vec<f64> =
            (0..n).map(|j| if norm[j] > 0.0 { w[j] + step * grad[j] / (norm[j] + 2.0) } else { w[j] }).collect();
        let l = loss(&trial, false);
        if l < current {
            w = trial;
            current = l;
            step = (step * 1.1).min(1.0);
            let v = loss(&w, true);
            if v < best.0 {
                best = (v, w.clone(), current);
            }
        } else {
            step *= 0.5;
            if step < 1e-3 {
                break;
            }
        }
    }
    let (valid, w, current) = best;
    // Expand canonical values to every table index.
    let mut out: Vec<i16> = w.iter().map(|&x| x.round().clamp(-32000.0, 32000.0) as i16).collect();
    for t in 0..N_TYPES {
        for i in layout.offsets[t]..layout.offsets[t + 1] {
            out[i] = out[layout.offsets[t] + layout.canonical[i] as usize];
        }
    }
    (out, current.sqrt() / f64::from(DISC), valid.sqrt() / f64::from(DISC))
}

/// Runs the whole pipeline and writes the weights to `out`.
pub fn train(config: TrainConfig, out: &Path) -> io::Result<TrainReport> {
    let start = Instant::now();
    let log = |msg: String| {
        if config.verbose {
            eprintln!("[{:7.1}s] {msg}", start.elapsed().as_secs_f64());
        }
    };
    let layout = Layout::new();
    let game_ids: Vec<usize> = (0..config.games).collect();
    let games = parallel_map(&game_ids, config.threads, |&g, engine| self_play(&config, g, engine));
    let mut by_phase: Vec<Vec<(u64, u64)>> = vec![Vec::new(); N_PHASES];
    for (p, o) in games.into_iter().flatten() {
        by_phase[phase((!(p | o)).count_ones())].push((p, o));
    }
    log(format!("self-play: {} games, {} positions", config.games, by_phase.iter().map(Vec::len).sum::<usize>()));
    let mut weights: Vec<Vec<i16>> = vec![vec![0; layout.phase_len()]; N_PHASES];
    let mut report = TrainReport {
        games: config.games,
        positions: 0,
        exact_labels: 0,
        phases: vec![(0, 0.0, 0.0); N_PHASES],
        file_bytes: 0,
        time: Duration::ZERO,
    };
    for ph in 0..N_PHASES {
        if ph > 0 {
            // Bootstrapping: this phase starts from the next-later phase's weights.
            weights[ph] = weights[ph - 1].clone();
        }
        let eval = PatternEval::with_weights(&layout, weights.clone());
        let labelled: Vec<(Sample, bool)> = parallel_map(&by_phase[ph], config.threads, |&(p, o), engine| {
            let empties = (!(p | o)).count_ones();
            engine.clear();
            if empties <= config.exact_empties {
                let (_, v) = engine.solve_root(&eval, p, o, -64, 64).expect("no deadline");
                (Sample { p, o, target: v * DISC }, true)
            } else {
                let v = engine.pvs(&Strong(&eval), p, o, config.label_depth, -INF, INF, true);
                (Sample { p, o, target: v }, false)
            }
        });
        report.exact_labels += labelled.iter().filter(|x| x.1).count();
        let samples: Vec<Sample> = labelled.into_iter().map(|x| x.0).collect();
        let (w, rmse, valid) = fit(&layout, &eval, &samples, &weights[ph], config.epochs);
        weights[ph] = w;
        report.phases[ph] = (samples.len(), rmse, valid);
        report.positions += samples.len();
        log(format!("phase {ph}: {} positions, rms error {rmse:.2} discs (held-out {valid:.2})", samples.len()));
    }
    let bytes = PatternEval::with_weights(&layout, weights).to_bytes();
    std::fs::write(out, &bytes)?;
    report.file_bytes = bytes.len();
    report.time = start.elapsed();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny run must write loadable weights that predict the labels better than zero weights.
    #[test]
    fn tiny_training_run_learns_something() {
        let dir = std::env::temp_dir().join(format!("reversi-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("w.bin");
        let config = TrainConfig { games: 40, exact_empties: 8, label_depth: 2, epochs: 30, ..TrainConfig::default() };
        let report = train(config, &out).unwrap();
        assert!(report.positions > 1000 && report.exact_labels > 100);
        let eval = PatternEval::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(report.file_bytes, std::fs::read(&out).unwrap().len());
        // On fresh endgames the trained evaluation should beat guessing 0.
        let mut rng = StdRng::seed_from_u64(1);
        let mut engine = Engine::new(14);
        let (mut err_trained, mut err_zero) = (0f64, 0f64);
        for _ in 0..60 {
            let mut pos = Position::start();
            while pos.empties() > 6 + rng.gen_range(0..3) && !pos.is_game_over() {
                let legal = pos.legal_moves();
                pos = pos.play(legal[rng.gen_range(0..legal.len())]).unwrap();
            }
            if pos.legal_mask() == 0 {
                continue;
            }
            let (_, v) = engine.solve_root(&eval, pos.player(), pos.opponent(), -64, 64).unwrap();
            let e = f64::from(eval.eval(pos.player(), pos.opponent()) - v * DISC);
            err_trained += e * e;
            err_zero += f64::from(v * DISC).powi(2);
        }
        assert!(err_trained < err_zero * 0.8, "trained {err_trained} vs zero {err_zero}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn training_is_deterministic_whatever_the_thread_count() {
        let dir = std::env::temp_dir().join(format!("reversi-train-det-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let run = |threads: usize| {
            let out = dir.join(format!("w{threads}.bin"));
            let config = TrainConfig {
                games: 12,
                exact_empties: 8,
                label_depth: 2,
                epochs: 10,
                threads,
                ..TrainConfig::default()
            };
            train(config, &out).unwrap();
            std::fs::read(&out).unwrap()
        };
        let (one, three) = (run(1), run(3));
        assert_eq!(one, three);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The self-play games (the trainer's use of the classic search, depth 2) are pinned by a
    /// committed fixture: per game, the number of positions and a digest of them
    /// (docs/design/reversi-engine.md#golden-tests-of-the-classic-search).
    #[test]
    fn self_play_matches_the_golden_fixture() {
        use std::fmt::Write as _;
        let config = TrainConfig::default();
        let mut out = String::new();
        let mut engine = Engine::new(16);
        for game in 0..8 {
            let positions = self_play(&config, game, &mut engine);
            // FNV-1a over both bitboards of every position, in order.
            let digest = positions.iter().flat_map(|&(p, o)| [p, o]).fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
                x.to_le_bytes().iter().fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
            });
            writeln!(out, "game {game}	{} positions	{digest:016x}", positions.len()).unwrap();
        }
        crate::golden::check_fixture("trainer_self_play.txt", &out);
    }
}
