//! Golden tests of the classic search: what the guests, the trainer and the gallery get from
//! the core's classic search (`reversi::search_with`, `reversi::choose_move_with`) on a fixed,
//! seeded position set, pinned in committed fixtures under `crates/lab/tests/golden/` (see
//! [`crate::golden`]), so that a change of the search behind them shows.
//!
//! The fixtures were written by the `Searcher` of the old `ai.rs` (now `engine/classic.rs`)
//! before it was replaced by the shared engine
//! (docs/design/reversi-engine.md#golden-tests-of-the-classic-search). To rewrite them on purpose
//! (a deliberate change of behaviour, to be explained in the commit), run
//! `SETTAI_BLESS=1 cargo test -p settai-lab golden` and review the diff.

use std::fmt::Write as _;

use rand::rngs::StdRng;
use rand::SeedableRng;

use settai_core::reversi::{self, eval_pp, final_margin, moves, random_playout, Position, DISC_SCORE};

pub(crate) use crate::golden::check_fixture;

/// Number of positions in the golden set.
pub(crate) const POSITIONS: usize = 40;

/// The golden position set: seeded random playouts stopped at 4 to 56 plies (56 to 4 empties
/// before passes), every position with a move for someone.
pub(crate) fn positions() -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(18);
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let plies = 4 + out.len() * 52 / (POSITIONS - 1);
        let pos = random_playout(&mut rng, plies);
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

/// The search settings the callers of [`classic`] use: (depth, exact from empties, who).
const SETTINGS: [(u32, u32, &str); 7] = [
    (2, 0, "alphabeta(2)"),
    (4, 0, "alphabeta(4)"),
    (6, 0, "alphabeta(6)"),
    (8, 0, "alphabeta(8)"),
    (2, reversi::CLASSIC_EXACT_EMPTIES, "trainer, gallery"),
    (3, reversi::CLASSIC_EXACT_EMPTIES, "gallery"),
    (6, reversi::CLASSIC_EXACT_EMPTIES, "foundation, bench"),
];

/// One fixture line per position and setting: every root move's value, the deterministic best
/// move, and the move chosen among ties by a seeded generator.
fn classic_lines() -> String {
    let mut out = String::new();
    for (i, pos) in positions().iter().enumerate() {
        for &(depth, exact_from, _) in &SETTINGS {
            // Depth 8 on every fifth position only, to keep the suite fast on two cores; the
            // exact-from-12 settings differ from plain alpha-beta only within 12 empties.
            if (depth == 8 && i % 5 != 0) || (exact_from > 0 && pos.empties() > exact_from) {
                continue;
            }
            let a = reversi::search_with(pos, depth, exact_from);
            let mut rng = StdRng::seed_from_u64(i as u64);
            let chosen = reversi::choose_move_with(pos, depth, exact_from, &mut rng).best;
            let scores: Vec<String> = a.scores.iter().map(|(m, v)| format!("{m}:{v}")).collect();
            writeln!(
                out,
                "{i}\t{}\t{depth}\t{exact_from}\tbest {} {}\tchosen {chosen}\t{}",
                pos.to_text(),
                a.best,
                a.score,
                scores.join(" ")
            )
            .unwrap();
        }
    }
    out
}

#[test]
fn classic_search_matches_the_golden_fixture() {
    check_fixture("classic_search.txt", &classic_lines());
}

/// Plain depth-limited negamax on the classic evaluation, no pruning: passes cost no depth,
/// finished games score the final margin × [`DISC_SCORE`], as the guests' search always did.
fn minimax(p: u64, o: u64, depth: u32) -> i32 {
    let mask = moves(p, o);
    if mask == 0 && moves(o, p) == 0 {
        return final_margin(p, o) * DISC_SCORE;
    }
    if depth == 0 {
        return eval_pp(p, o);
    }
    if mask == 0 {
        return -minimax(o, p, depth);
    }
    let pos = Position::from_bitboards(p, o, reversi::Color::Black).expect("valid bitboards");
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let next = pos.play(m).expect("legal");
            -minimax(next.player(), next.opponent(), depth - 1)
        })
        .max()
        .expect("a move")
}

#[test]
fn classic_values_match_plain_minimax() {
    let mut checked = 0;
    for pos in positions() {
        let (p, o) = (pos.player(), pos.opponent());
        // Shallow depths everywhere, and the whole game where few squares are empty.
        let depths: &[u32] = if pos.empties() <= 8 { &[1, 2, 3, 64] } else { &[1, 2, 3] };
        for &depth in depths {
            let a = reversi::search_with(&pos, depth, 0);
            let expected = minimax(p, o, depth);
            assert_eq!(a.score, expected, "{} depth {depth}", pos.to_text());
            for &(m, v) in &a.scores {
                let next = pos.play(m).expect("legal");
                let reference = -minimax(next.player(), next.opponent(), depth - 1);
                assert_eq!(v, reference, "{} depth {depth} move {m}", pos.to_text());
            }
            checked += 1;
        }
    }
    assert!(checked >= 3 * POSITIONS);
}
