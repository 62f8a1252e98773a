//! `highest` near the end: once some moves guarantee the human a win by
//! [`GUARANTEE_MARGIN`] or more, the human is assumed to cooperate and the biggest line among
//! those moves is played.

use crate::reversi::engine::search::{Children, Engine, Objective, INF};
use crate::reversi::rules::board::moves;

use super::choice::{SontakuChoice, SontakuStage};
use super::desirability::highest_final_value;
use super::objectives::{final_for_human, for_mover};
use super::tuning::GUARANTEE_MARGIN;

/// The human's final margin, the CPU maximising it and the human minimising it: a value of at
/// least 8 is a guaranteed win by 8 whatever the human plays.
struct Guarantee;

impl Objective for Guarantee {
    type Features = ();
    fn eval_with_moves(&self, _: u64, _: u64, _: u64, _: &(), _: bool) -> i32 {
        0 // Only used for complete reads.
    }
    fn terminal(&self, p: u64, o: u64, cpu: bool) -> i32 {
        for_mover(final_for_human(p, o, cpu).0, cpu)
    }
}

impl Engine {
    /// Largest `highest` value reachable when both sides aim for it (no alpha-beta applies).
    fn cooperative(&mut self, p: u64, o: u64, cpu: bool) -> i32 {
        self.nodes += 1;
        let mask = moves(p, o);
        if mask == 0 {
            if moves(o, p) == 0 {
                let (m, cpu_discs) = final_for_human(p, o, cpu);
                return highest_final_value(m, cpu_discs);
            }
            return self.cooperative(o, p, !cpu);
        }
        let children = Children::new(p, o, mask);
        let mut best = -INF;
        for c in &children.list[..children.len] {
            best = best.max(self.cooperative(c.p, c.o, !cpu));
            if best >= highest_final_value(64, 0) {
                break; // A perfect win cannot be beaten.
            }
        }
        best
    }

    /// `highest` near the end: if some moves guarantee a win by 8 or more, the best cooperative
    /// line among them.
    pub(super) fn try_cooperative(&mut self, p: u64, o: u64) -> Option<SontakuChoice> {
        let guarantees = self.read_to_end(&Guarantee, p, o)?;
        let children = Children::new(p, o, moves(p, o));
        let mut ranked: Vec<(u8, i32, i32)> = Vec::new();
        for c in &children.list[..children.len] {
            let g = guarantees.iter().find(|&&(s, _)| s == c.sq).map_or(-INF, |&(_, g)| g);
            if g >= GUARANTEE_MARGIN {
                ranked.push((c.sq, self.cooperative(c.p, c.o, false), g));
            }
        }
        if ranked.is_empty() {
            return None;
        }
        // Biggest cooperative result first; among equals the safer guarantee.
        ranked.sort_by_key(|&(_, v, g)| (-v, -g));
        Some(SontakuChoice {
            best: ranked[0].0,
            ranked: ranked.iter().map(|&(s, v, _)| (s, v)).collect(),
            depth: (!(p | o)).count_ones(),
            stage: SontakuStage::Cooperative,
            jittered: false,
        })
    }
}
