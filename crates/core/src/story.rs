//! How a finished game went, from the human's side: the value of every position, with the
//! human's biggest slips and best finds, for the after-game chart. Pure and CPU-bound
//! (a few milliseconds per reversi position, microseconds per doubutsu probe).

use super::doubutsu::{self, Table};
use super::reversi;
use super::reversi::engine::search::Engine;
use super::reversi::levels::level::position_value;
use super::{Game, GameMove, Line, LinePosition, Side, Thinker};

/// What the values of a [`Story`] measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueUnit {
    /// Reversi: the expected final disc margin.
    Discs,
    /// Doubutsu: settai's score of the exact value, 100 − plies for a win, −100 + plies for a
    /// loss, 0 for a draw (docs/design/doubutsu-settai.md#score-playersscore).
    Score,
}

/// A notable move of the human's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moment {
    /// 1-based ply of the move.
    pub ply: usize,
    /// The move.
    pub mv: GameMove,
}

/// The course of a game from the human's side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Story {
    /// Value for the human of the start and of the position after each ply; `None` where it is
    /// unknown (doubutsu positions outside the table).
    pub values: Vec<Option<i32>>,
    /// What the values measure.
    pub unit: ValueUnit,
    /// The human's worst moves, worst first (at most [`MOMENTS`]).
    pub slips: Vec<Moment>,
    /// The human's best finds, best first (at most [`MOMENTS`]).
    pub finds: Vec<Moment>,
}

/// How many slips and finds a story names.
pub(crate) const MOMENTS: usize = 3;
/// A reversi move that loses this many discs of value is a slip.
const REVERSI_SLIP: i32 = 4;
/// A reversi move that gains this many discs over the engine's expectation is a find.
const REVERSI_FIND: i32 = 2;

/// Tells the story of the game whose positions are `line` (computed once, shared with its
/// replay: docs/design/storage.md#the-end-of-a-game), the human playing `human`. Doubutsu
/// values need the table; without it they are all unknown. Reversi values are the `thinker`'s
/// evaluation's (its engine is left alone: the story searches on a table of its own).
pub fn story<T: Table>(line: &Line, human: Side, table: Option<&T>, thinker: &mut Thinker) -> Story {
    let moves = line.moves();
    let positions = 0..=line.last();
    // (ply, how notable) of the human's moves, from the position before each.
    let mut slips: Vec<(usize, i32)> = Vec::new();
    let mut finds: Vec<(usize, i32)> = Vec::new();
    let (values, unit) = match line.end() {
        Game::Reversi(_) => {
            let mut engine = Engine::new(18);
            let eval = thinker.evaluation();
            let values: Vec<Option<i32>> = positions
                .map(|i| match line.position(i) {
                    LinePosition::Reversi(pos) => {
                        Some(for_human(position_value(&mut engine, eval, pos), reversi_side(pos.turn()), human))
                    }
                    LinePosition::Doubutsu(_) => None,
                })
                .collect();
            for ply in human_plies(line, human) {
                let (Some(before), Some(after)) = (values[ply - 1], values[ply]) else { continue };
                let delta = after - before;
                if delta <= -REVERSI_SLIP {
                    slips.push((ply, -delta));
                } else if delta >= REVERSI_FIND {
                    finds.push((ply, delta));
                }
            }
            (values, ValueUnit::Discs)
        }
        Game::Doubutsu(_) => {
            let values = positions
                .map(|i| {
                    let (LinePosition::Doubutsu(pos), Some(t)) = (line.position(i), table) else { return None };
                    let v = doubutsu::value_of(t, pos).ok()?;
                    Some(for_human(doubutsu::players::score(v), doubutsu_side(pos.turn()), human))
                })
                .collect();
            for ply in human_plies(line, human) {
                let (LinePosition::Doubutsu(before), Some(t)) = (line.position(ply - 1), table) else { continue };
                let GameMove::Doubutsu(mv) = moves[ply - 1] else { continue };
                let Ok(evals) = doubutsu::evaluate_moves(t, before) else { continue };
                let Some(&(_, played)) = evals.iter().find(|e| e.0 == mv) else { continue };
                let best = evals.iter().map(|e| doubutsu::players::score(e.1)).max().unwrap_or(0);
                let lost = best - doubutsu::players::score(played);
                if lost > 0 && outcome_class(played) < evals.iter().map(|e| outcome_class(e.1)).max().unwrap_or(0) {
                    // Only moves that change who wins (or turn a win into a draw) are slips:
                    // a slower win is no mistake a child needs to hear about.
                    slips.push((ply, lost));
                } else if lost == 0 && evals.len() >= 3 {
                    // A find: the best move where most others would have changed the result.
                    let worse = evals.iter().filter(|e| outcome_class(e.1) < outcome_class(played)).count();
                    if 2 * worse >= evals.len() {
                        finds.push((ply, (100 * worse / evals.len()) as i32));
                    }
                }
            }
            (values, ValueUnit::Score)
        }
    };
    let pick = |mut list: Vec<(usize, i32)>| -> Vec<Moment> {
        // Most notable first; earlier plies first among equals.
        list.sort_by_key(|&(ply, weight)| (-weight, ply));
        list.into_iter().take(MOMENTS).map(|(ply, _)| Moment { ply, mv: moves[ply - 1] }).collect()
    };
    Story { values, unit, slips: pick(slips), finds: pick(finds) }
}

/// 2 for a win, 1 for a draw, 0 for a loss.
fn outcome_class(v: doubutsu::Value) -> u8 {
    match v {
        doubutsu::Value::Win(_) => 2,
        doubutsu::Value::Draw => 1,
        doubutsu::Value::Loss(_) => 0,
    }
}

/// A value for `mover`, the side to move, turned to the human's side. A finished game has no
/// side to move: its value is already the last mover's loss, i.e. for the side "to move".
fn for_human(v: i32, mover: Side, human: Side) -> i32 {
    if mover == human {
        v
    } else {
        -v
    }
}

fn doubutsu_side(c: doubutsu::Color) -> Side {
    match c {
        doubutsu::Color::Sente => Side::First,
        doubutsu::Color::Gote => Side::Second,
    }
}

fn reversi_side(c: reversi::Color) -> Side {
    match c {
        reversi::Color::Black => Side::First,
        reversi::Color::White => Side::Second,
    }
}

/// 1-based plies the human played (passes included: they are skipped as moments later since
/// they cannot lose value).
fn human_plies(line: &Line, human: Side) -> Vec<usize> {
    (1..=line.last()).filter(|&ply| line.to_move(ply - 1) == Some(human)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doubutsu::table::{build, BuildOptions, Material};
    use crate::{DoubutsuGame, GameKind};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn random_moves(start: &Game, rng: &mut StdRng, max: usize) -> Vec<GameMove> {
        let mut g = start.clone();
        let mut moves = Vec::new();
        while g.to_move().is_some() && moves.len() < max {
            let legal = g.legal_moves();
            let mv = legal[rng.gen_range(0..legal.len())];
            g = g.play(mv).unwrap();
            moves.push(mv);
        }
        moves
    }

    #[test]
    fn a_reversi_story_values_every_position_and_its_slips_lost_value() {
        let mut rng = StdRng::seed_from_u64(8);
        let start = Game::new(GameKind::Reversi);
        let moves = random_moves(&start, &mut rng, 200);
        let line = Line::new(&start, &moves).unwrap();
        let s = story::<doubutsu::BuiltTable>(&line, Side::First, None, &mut Thinker::new(std::time::Instant::now));
        assert_eq!(s.unit, ValueUnit::Discs);
        assert_eq!(s.values.len(), moves.len() + 1);
        assert!(s.values.iter().all(Option::is_some));
        // The curve ends on the exact result, from black's side.
        let Game::Reversi(p) = *line.end() else { unreachable!() };
        assert_eq!(s.values.last().unwrap().unwrap(), reversi::engine::search::final_margin(p.black(), p.white()));
        // Random play slips; each named slip is a human (black) move that lost value.
        assert!(!s.slips.is_empty(), "a random game has slips");
        for m in &s.slips {
            let before = Line::new(&start, &moves[..m.ply - 1]).unwrap();
            assert_eq!(before.end().to_move(), Some(Side::First), "ply {} is the human's", m.ply);
            assert!(s.values[m.ply].unwrap() - s.values[m.ply - 1].unwrap() <= -REVERSI_SLIP);
            assert_eq!(m.mv, moves[m.ply - 1]);
        }
        assert!(s.slips.len() <= MOMENTS && s.finds.len() <= MOMENTS);
        assert_eq!(
            s,
            story::<doubutsu::BuiltTable>(&line, Side::First, None, &mut Thinker::new(std::time::Instant::now)),
            "deterministic"
        );
    }

    #[test]
    fn a_doubutsu_story_reads_the_table_and_names_result_changing_slips() {
        let root: doubutsu::Position = "1l1/1c1/1C1/1L1 b -".parse().unwrap();
        let table = build(Material::of(&root), &BuildOptions::default()).unwrap();
        let start = Game::Doubutsu(DoubutsuGame::new(doubutsu::History::from_position(root)));
        let mut rng = StdRng::seed_from_u64(4);
        let mut slips = 0;
        for _ in 0..20 {
            let moves = random_moves(&start, &mut rng, 30);
            let line = Line::new(&start, &moves).unwrap();
            let s = story(&line, Side::First, Some(&table), &mut Thinker::new(std::time::Instant::now));
            assert_eq!(s.unit, ValueUnit::Score);
            assert_eq!(s.values.len(), moves.len() + 1);
            for m in &s.slips {
                // A slip turned the human's result class for the worse: the sign of the
                // value falls across the move.
                let (before, after) = (s.values[m.ply - 1], s.values[m.ply]);
                let (Some(b), Some(a)) = (before, after) else { continue };
                assert!(a.signum() < b.signum(), "slip at {} from {b} to {a}", m.ply);
                slips += 1;
            }
        }
        assert!(slips > 0, "random play slips");
        // Without the table nothing is known and nothing named.
        let moves = random_moves(&start, &mut rng, 10);
        let line = Line::new(&start, &moves).unwrap();
        let s = story::<doubutsu::BuiltTable>(&line, Side::First, None, &mut Thinker::new(std::time::Instant::now));
        assert!(s.values.iter().all(Option::is_none) && s.slips.is_empty() && s.finds.is_empty());
    }

    #[test]
    fn a_bad_move_list_names_its_ply() {
        let start = Game::new(GameKind::Reversi);
        let f5 = start.parse_move("f5").unwrap();
        let e = Line::new(&start, &[f5, f5]).unwrap_err();
        assert_eq!(e.ply, 2);
    }
}
