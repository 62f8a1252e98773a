//! The sontaku levels' tests: the seed's levels (`seed`), `standard` against a modelled human
//! (`modelled`), which guests `standard` gives the seed's search (`who_meets`) and
//! `standard-classic`, the seed's `standard` as published (`classic`), with the judges they share
//! below: exact minimax over the public API and the strong engine's best-play leads.

mod classic;
mod modelled;
mod seed;
mod who_meets;

use super::choice::*;
use super::desirability::desirability_around;
use super::desirability::*;
use super::objectives::*;
use super::published_eval::*;
use super::tuning::DISC_TENTHS;
use super::tuning::*;
use super::*;
use crate::reversi::engine::eval::{PatternEval, DISC};
use crate::reversi::engine::search::{final_margin, Clock, Engine};
use crate::reversi::engine::strong::Strong;
use crate::reversi::rules::board::{Color, Move, Position};
use crate::reversi::rules::naive::random_position;
use rand::rngs::mock::StepRng;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// The model of a player who replies with the best moves.
const STRONG: HumanModel = HumanModel { strength: 1.0 };

/// The human's best-play lead (tenths of a disc) after each CPU move, by the strong search
/// at `depth`: the judge the sontaku properties are checked against.
struct Leads {
    by_move: Vec<(u8, i32)>,
    /// The lead after the CPU's best move.
    least: i32,
}

impl Leads {
    fn of(&self, sq: u8) -> i32 {
        self.by_move.iter().find(|&&(m, _)| m == sq).unwrap().1
    }
}

fn judged_leads(p: u64, o: u64, depth: u32) -> Leads {
    let r = Engine::new(16).iterate(&Strong(PatternEval::shared()), p, o, depth, true, DISC).unwrap();
    let by_move: Vec<(u8, i32)> = r.scores.iter().map(|&(sq, cpu)| (sq, -cpu * 10 / DISC)).collect();
    let least = by_move.iter().map(|&(_, l)| l).min().unwrap();
    Leads { by_move, least }
}

/// Human's final margin (empties to the winner) of a finished game.
fn human_margin(pos: &Position, human: Color) -> i32 {
    let m = final_margin(pos.black(), pos.white());
    if human == Color::Black {
        m
    } else {
        -m
    }
}

/// Plain minimax over the public API: the CPU maximises `value`, the human minimises it.
fn reference(pos: &Position, cpu: Color, value: &dyn Fn(&Position) -> i32) -> i32 {
    if pos.is_game_over() {
        return value(pos);
    }
    let vals = pos.legal_moves().into_iter().map(|m| reference(&pos.play(m).unwrap(), cpu, value));
    if pos.turn() == cpu {
        vals.max().unwrap()
    } else {
        vals.min().unwrap()
    }
}

fn choose(level: Sontaku, pos: &Position, rng: &mut impl Rng) -> SontakuChoice {
    let mut engine = Engine::new(18).with_clock(Clock::Wall(Instant::now));
    engine.set_deadline(Some(engine.now() + Duration::from_secs(30)));
    engine.sontaku(PatternEval::shared(), level, pos.player(), pos.opponent(), rng)
}

fn play_sq(pos: &Position, sq: u8) -> Position {
    pos.play(Move::Place(crate::reversi::rules::board::Square::new(sq).unwrap())).unwrap()
}

/// Exact final human margin after `pos` with both sides playing best (plain negamax).
fn best_play_margin(pos: &Position, human: Color) -> i32 {
    if pos.is_game_over() {
        return human_margin(pos, human);
    }
    let vals = pos.legal_moves().into_iter().map(|m| best_play_margin(&pos.play(m).unwrap(), human));
    if pos.turn() == human {
        vals.max().unwrap()
    } else {
        vals.min().unwrap()
    }
}
