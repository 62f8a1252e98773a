//! Golden tests of every level's move choice: what `standard`, `highest` and `none` answer in
//! reversi, and `settai`, `strongest` and `weakest` in doubutsu shogi, on fixed seeded
//! positions, pinned in committed fixtures under `tests/golden/`. They hold the behaviour still
//! while code moves: a refactoring that changes one reply, one search's node count or one
//! commentary value shows here.
//!
//! Reversi searches run on a clock that counts nodes, so a reply does not depend on the machine
//! or its load. Doubutsu plays on a table of a small sub-game (lions, chicks and a giraffe each),
//! built in the test, as the full table is generated data.
//!
//! To rewrite the fixtures on purpose (a deliberate change of behaviour, explained in the
//! commit), run `SETTAI_BLESS=1 cargo test -p settai-lab --test golden_levels` and review the diff.

use std::fmt::Write as _;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use settai_core::doubutsu::table::{build, BuildOptions, Material};
use settai_core::doubutsu::{self, BuiltTable};
use settai_core::reversi::{self, Clock, Engine, Move, PatternEval, Position, TT_BITS};
use settai_core::{human_moves, GameMove};
use settai_lab::golden::check_fixture;

/// The node clock of the level tests: a slow machine's rates, so budgets stay small.
const CLOCK: Clock = Clock::Nodes { mid_ns: 2000.0, end_ns: 300.0 };

/// Seeded random games from the start, stopped after 2 to 58 plies where the side to move has
/// a choice: the position (the bot to move) and every move played to reach it.
fn reversi_games() -> Vec<(Position, Vec<GameMove>)> {
    let mut rng = StdRng::seed_from_u64(41);
    let mut out = Vec::new();
    while out.len() < 30 {
        let plies = 2 + out.len() * 56 / 29;
        let mut pos = Position::start();
        let mut played = Vec::new();
        for _ in 0..plies {
            let Some(&mv) = pos.legal_moves().choose(&mut rng) else { break };
            pos = pos.play(mv).expect("legal");
            played.push(GameMove::Reversi(mv));
        }
        if pos.legal_moves().len() > 1 {
            out.push((pos, played));
        }
    }
    out
}

fn moves_text(evals: &[(Move, i32)]) -> String {
    evals.iter().map(|(m, v)| format!("{m}:{v}")).collect::<Vec<_>>().join(" ")
}

/// One line per game and level: the reply as the bot's engine makes it (the human's moves so
/// far handed over, as the bot does), and every field of the choice but its wall time.
#[test]
fn reversi_levels_choose_as_the_golden_fixture() {
    let mut out = String::new();
    let eval = &PatternEval::builtin();
    for (i, (pos, played)) in reversi_games().iter().enumerate() {
        let human = human_moves(pos, played);
        for level in reversi::ReversiLevel::ALL {
            // A tenth of the level's thinking time on a node clock: 20k to 120k nodes a reply.
            let budget = level.budget() / 10;
            let mut rng = StdRng::seed_from_u64(i as u64);
            let c = Engine::new(TT_BITS).with_clock(CLOCK).choose_at_level(eval, pos, level, budget, &human, &mut rng);
            writeln!(
                out,
                "{i}\t{}\t{level}\t{} {:?} depth {} nodes {} exact {} jittered {} strength {}\t{}",
                pos.to_text(),
                c.best,
                c.stage,
                c.depth,
                c.nodes,
                c.exact,
                c.jittered,
                c.human_strength.map_or("-".into(), |s| format!("{s:.6}")),
                moves_text(&c.evals)
            )
            .unwrap();
        }
    }
    check_fixture("reversi_levels.txt", &out);
}

/// The commentary's analysis of every move and the after-game chart's value, on the same games.
#[test]
fn reversi_analysis_and_values_as_the_golden_fixture() {
    let mut out = String::new();
    let eval = &PatternEval::builtin();
    for (i, (pos, _)) in reversi_games().iter().enumerate().step_by(3) {
        let (moves, exact) = Engine::new(TT_BITS).with_clock(CLOCK).analyze(eval, pos, Duration::from_millis(40));
        let text: Vec<String> = moves.iter().map(|(m, v)| format!("{m}:{v:.3}")).collect();
        let value = reversi::position_value(&mut Engine::new(TT_BITS), eval, pos);
        writeln!(out, "{i}\t{}\tvalue {value}\texact {exact}\t{}", pos.to_text(), text.join(" ")).unwrap();
    }
    check_fixture("reversi_analysis.txt", &out);
}

/// The doubutsu sub-game of the tests: lions, a chick and a giraffe in hand each.
const ROOT: &str = "1l1/1c1/1C1/1L1 b Gg";

fn table() -> BuiltTable {
    build(Material::of(&ROOT.parse().expect("position")), &BuildOptions::default()).expect("the sub-game table")
}

/// Seeded random games of the sub-game, careless and careful, stopped before their end.
fn doubutsu_games() -> Vec<doubutsu::History> {
    let mut rng = StdRng::seed_from_u64(42);
    let mut out = Vec::new();
    for n in 0..24 {
        let mut game = doubutsu::History::from_position(ROOT.parse().expect("position"));
        let careless = n % 3 == 0;
        for _ in 0..rng.gen_range(0..30) {
            let pos = *game.position();
            let all = game.legal_moves();
            let safe: Vec<_> = all.iter().copied().filter(|&m| !pos.loses_at_once(m)).collect();
            let pool = if careless || safe.is_empty() { &all } else { &safe };
            let Some(&mv) = pool.choose(&mut rng) else { break };
            let mut next = game.clone();
            next.play(mv).expect("legal");
            if next.outcome().is_some() {
                break;
            }
            game = next;
        }
        out.push(game);
    }
    out
}

/// One line per game, side to move and level: the reply with three seeds, and the analysis of
/// every legal move as the commentary shows it.
#[test]
fn doubutsu_levels_choose_as_the_golden_fixture() {
    let table = table();
    let mut out = String::new();
    for (i, game) in doubutsu_games().iter().enumerate() {
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        writeln!(out, "game {i}\t{}\t{}", game.position(), moves.join(" ")).unwrap();
        for level in doubutsu::DoubutsuLevel::ALL {
            let replies: Vec<String> = (0..3)
                .map(|seed| {
                    let mut rng = StdRng::seed_from_u64(1000 * i as u64 + seed);
                    match level.choose_move(Some(&table), game, &mut rng) {
                        Ok(m) => m.to_string(),
                        Err(e) => format!("error: {e}"),
                    }
                })
                .collect();
            writeln!(out, "  {level}\t{}", replies.join(" ")).unwrap();
        }
        let pos = game.position();
        for mv in pos.legal_moves() {
            let a = doubutsu::analyze(&table, pos, mv).expect("a live position");
            let best: Vec<String> = a.best.iter().map(|m| m.to_string()).collect();
            writeln!(
                out,
                "  analysis {mv}\t{:?} score {} best {} {:?} score {} divergence {:.6}",
                a.value,
                a.score,
                best.join(","),
                a.best_value,
                a.best_score,
                a.divergence
            )
            .unwrap();
        }
    }
    check_fixture("doubutsu_levels.txt", &out);
}

/// The weakest level needs no table: its replies on random games of the real game, from the
/// official start, and the table levels' refusal without a table.
#[test]
fn doubutsu_weakest_on_the_full_game_as_the_golden_fixture() {
    let mut rng = StdRng::seed_from_u64(43);
    let mut out = String::new();
    for i in 0..20 {
        let mut game = doubutsu::History::new();
        for _ in 0..rng.gen_range(0..40) {
            let Some(&mv) = game.legal_moves().choose(&mut rng) else { break };
            let mut next = game.clone();
            next.play(mv).expect("legal");
            if next.outcome().is_some() {
                break;
            }
            game = next;
        }
        let replies: Vec<String> = (0..3)
            .map(|seed| {
                let mut rng = StdRng::seed_from_u64(100 * i + seed);
                doubutsu::DoubutsuLevel::Weakest
                    .choose_move(None::<&BuiltTable>, &game, &mut rng)
                    .expect("a move")
                    .to_string()
            })
            .collect();
        let refused = doubutsu::DoubutsuLevel::Settai.choose_move(None::<&BuiltTable>, &game, &mut rng).is_err()
            && doubutsu::DoubutsuLevel::Strongest.choose_move(None::<&BuiltTable>, &game, &mut rng).is_err();
        writeln!(out, "{i}\t{}\tweakest {}\ttable levels refuse {refused}", game.position(), replies.join(" "))
            .unwrap();
    }
    check_fixture("doubutsu_weakest.txt", &out);
}

/// The table file of the sub-game, byte for byte (its length and a hash of every byte): the
/// format and the builder stay as they are.
#[test]
fn doubutsu_table_file_as_the_golden_fixture() {
    let table = table();
    let bytes: Vec<u8> = doubutsu::table::header(&table).iter().chain(table.values()).copied().collect();
    // FNV-1a, 64 bits: a hash written out here, so that it cannot change with the code it checks.
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let stats = doubutsu::table::TableStats::of(&table);
    check_fixture("doubutsu_table.txt", &format!("{} bytes, fnv1a {hash:016x}\n{stats:?}\n", bytes.len()));
}
