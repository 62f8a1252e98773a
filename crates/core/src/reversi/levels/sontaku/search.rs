//! The sontaku levels' entry point on the engine: the seed's search for every level, which hands
//! `standard` against a modelled human or in the opening to [`standard`](super::standard) and
//! `highest` near the end to [`cooperative`](super::cooperative), and the reads and tie-breaks
//! they share. `standard-classic` is this search alone, with the seed's own evaluation.

use rand::Rng;

use crate::reversi::engine::eval::PatternEval;
use crate::reversi::engine::search::{Children, Engine, Objective, INF};
use crate::reversi::rules::board::moves;

use super::choice::{jitter_index, rank_moves, Sontaku, SontakuChoice, SontakuStage};
use super::model::HumanModel;
use super::objectives::{Highest, OwnInterest, PublishedOwnInterest, Standard, StandardClassic};
use super::tuning::{
    COOPERATIVE_EMPTIES, FALLBACK_DEPTH, HIGHEST_FULL_READ, MODELLED_FROM, NEAR_EQUAL, OPENING_GUARD_EMPTIES,
    STANDARD_FULL_READ,
};

impl Engine {
    /// Exact values of every root move by reading to the end with `obj`; `None` on timeout.
    pub(super) fn read_to_end<O: Objective>(&mut self, obj: &O, p: u64, o: u64) -> Option<Vec<(u8, i32)>> {
        let children = Children::new(p, o, moves(p, o));
        let mut out = Vec::with_capacity(children.len);
        for c in &children.list[..children.len] {
            let v = -self.pvs(obj, c.p, c.o, 64, -INF, INF, false);
            if self.aborted {
                return None;
            }
            out.push((c.sq, v));
        }
        Some(out)
    }

    /// The CPU's own view of each candidate after its move (a 2-ply look by `obj`, an objective
    /// for the side to move), for tie-breaks.
    pub(super) fn own_interest<O: Objective>(&mut self, obj: &O, p: u64, o: u64, squares: &[u8]) -> Vec<(u8, i32)> {
        self.clear();
        let deadline = self.deadline.take();
        let children = Children::new(p, o, moves(p, o));
        let out = children.list[..children.len]
            .iter()
            .filter(|c| squares.contains(&c.sq))
            .map(|c| (c.sq, -self.pvs(obj, c.p, c.o, 2, -INF, INF, false)))
            .collect();
        self.deadline = deadline;
        out
    }

    /// Chooses a sontaku move for the side to move in (p, o), which must have a placement, against
    /// the original design's pessimistic human (docs/design/reversi-sontaku.md#the-idea-seed-001).
    /// `standard` still keeps its opening guard; `standard-classic` is the seed's rule alone. The
    /// deadline set on the engine bounds the search.
    #[cfg(test)]
    pub(crate) fn sontaku(
        &mut self,
        eval: &PatternEval,
        level: Sontaku,
        p: u64,
        o: u64,
        rng: &mut impl Rng,
    ) -> SontakuChoice {
        self.sontaku_for(eval, level, p, o, HumanModel::SEED, rng)
    }

    /// `Engine::sontaku` against a human of the given strength (`standard` only; `highest` and
    /// `standard-classic` always play the seed's way).
    pub(crate) fn sontaku_for(
        &mut self,
        eval: &PatternEval,
        level: Sontaku,
        p: u64,
        o: u64,
        human: HumanModel,
        rng: &mut impl Rng,
    ) -> SontakuChoice {
        let s = if level == Sontaku::Standard { human.strength.clamp(0.0, 1.0) } else { 0.0 };
        let n = (!(p | o)).count_ones();
        if level == Sontaku::Standard && (s >= MODELLED_FROM || n > OPENING_GUARD_EMPTIES) {
            let s = if s >= MODELLED_FROM { s } else { 0.0 };
            return self.standard_for(eval, p, o, s, rng);
        }
        self.clear();
        if level == Sontaku::Highest && n <= COOPERATIVE_EMPTIES {
            if let Some(c) = self.try_cooperative(p, o) {
                return c;
            }
            self.clear();
        }
        let full_read_from = match level {
            Sontaku::Standard | Sontaku::StandardClassic => STANDARD_FULL_READ,
            Sontaku::Highest => HIGHEST_FULL_READ,
        };
        let (values, depth, stage) = 'found: {
            if n <= full_read_from {
                let read = match level {
                    Sontaku::Standard => self.read_to_end(&Standard(eval), p, o),
                    Sontaku::Highest => self.read_to_end(&Highest, p, o),
                    Sontaku::StandardClassic => self.read_to_end(&StandardClassic, p, o),
                };
                if let Some(v) = read {
                    break 'found (v, n, SontakuStage::FullRead);
                }
                // Out of time (only on slow or busy hosts): answer from a short search instead
                // (the seed does not say; docs/design/reversi-sontaku.md#what-the-seed-leaves-open).
                self.set_deadline(None);
                self.clear();
            }
            let max_depth = if n <= full_read_from { FALLBACK_DEPTH } else { 60 };
            let r = match level {
                Sontaku::Standard => self.iterate(&Standard(eval), p, o, max_depth, true, 0),
                Sontaku::Highest => self.iterate(&Highest, p, o, max_depth, true, 0),
                Sontaku::StandardClassic => self.iterate(&StandardClassic, p, o, max_depth, true, 0),
            }
            .expect("the side to move has a placement");
            let stage = if r.complete { SontakuStage::FullRead } else { SontakuStage::Midgame };
            (r.scores, r.depth, stage)
        };
        // The jitter stops for good once the full read has begun, even if it ran out of time.
        let full_read = stage == SontakuStage::FullRead || n <= full_read_from;
        // Heuristic values are only nearly equal within NEAR_EQUAL; exact reads tie exactly.
        let near = if full_read || level == Sontaku::Highest { 0 } else { NEAR_EQUAL };
        let top = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
        let tied: Vec<u8> = values.iter().filter(|&&(_, v)| v >= top - near).map(|&(s, _)| s).collect();
        let own = match level {
            _ if tied.len() < 2 => Vec::new(),
            // The seed's own evaluation judges the CPU's interest too.
            Sontaku::StandardClassic => self.own_interest(&PublishedOwnInterest, p, o, &tied),
            Sontaku::Standard | Sontaku::Highest => self.own_interest(&OwnInterest, p, o, &tied),
        };
        let ranked = rank_moves(&values, &own, near);
        let index = match level {
            Sontaku::Standard | Sontaku::StandardClassic => jitter_index(ranked.len(), full_read, rng),
            Sontaku::Highest => 0,
        };
        SontakuChoice { best: ranked[index].0, ranked, depth, stage, jittered: index > 0 }
    }
}
