//! `standard` against a human of shown strength (a deviation from the original design,
//! docs/design/reversi-sontaku.md#deviation-a-human-model-that-follows-the-player): the full read's
//! exact values, the solve for a trusted human, the chase when a trusted human is ahead of the
//! plan, and the midgame values that blend the seed's with the strong engine's.

use rand::Rng;

use crate::reversi::engine::eval::{PatternEval, DISC};
use crate::reversi::engine::search::Engine;
use crate::reversi::engine::strong::Strong;

use super::choice::{jitter_index, rank_moves, SontakuChoice, SontakuStage};
use super::desirability::{desirability_around, lead_ceiling, standard_final_value, trusted_target};
use super::objectives::{OwnInterest, Standard};
use super::tuning::{
    CHASE_PROBE_SHARE, DISC_TENTHS, FALLBACK_DEPTH, GIFT_CAP, GIFT_CAP_FROM, JITTER_SPAN, JITTER_SPAN_STRONG,
    NEAR_EQUAL, SLIP_ALLOWANCE, STANDARD_FULL_READ, STANDARD_TARGET, TRUSTED_SOLVE_EMPTIES, TRUSTED_STRENGTH,
};

/// What [`Engine::standard_chase`] found: every root move's value (square, value), the depth
/// searched and the square to play.
type Chase = (Vec<(u8, i32)>, u32, u8);

impl Engine {
    /// `standard` against a human of strength `s` in (0, 1] (see [`HumanModel`](super::HumanModel)).
    pub(super) fn standard_for(
        &mut self,
        eval: &PatternEval,
        p: u64,
        o: u64,
        s: f64,
        rng: &mut impl Rng,
    ) -> SontakuChoice {
        let n = (!(p | o)).count_ones();
        let full_read = n <= STANDARD_FULL_READ;
        let (values, depth, stage) = if full_read {
            match self.standard_exact_values(eval, p, o, s) {
                Some(values) => (values, n, SontakuStage::FullRead),
                None => {
                    // A full read that ran out of time answers from a short search instead.
                    let (values, depth) = self.standard_midgame_values(eval, p, o, s, FALLBACK_DEPTH);
                    (values, depth, SontakuStage::Midgame)
                }
            }
        } else if s >= TRUSTED_STRENGTH && n <= TRUSTED_SOLVE_EMPTIES {
            self.standard_solved_values(eval, p, o, s)
        } else {
            if let Some((values, depth, sq)) = self.standard_chase(eval, p, o, s, 60) {
                // Behind the plan: the strongest move, no tie-break by the classic table, no jitter.
                return SontakuChoice {
                    best: sq,
                    ranked: values,
                    depth,
                    stage: SontakuStage::Midgame,
                    jittered: false,
                };
            }
            let (values, depth) = self.standard_midgame_values(eval, p, o, s, 60);
            (values, depth, SontakuStage::Midgame)
        };
        let near = if stage == SontakuStage::FullRead { 0 } else { NEAR_EQUAL };
        let top = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
        let tied: Vec<u8> = values.iter().filter(|&&(_, v)| v >= top - near).map(|&(sq, _)| sq).collect();
        let own = if tied.len() > 1 { self.own_interest(&OwnInterest, p, o, &tied) } else { Vec::new() };
        let ranked = rank_moves(&values, &own, near);
        let span = (JITTER_SPAN as f64 * (1.0 - s)).max(JITTER_SPAN_STRONG as f64) as i32;
        let reasonable = ranked.iter().take_while(|&&(_, v)| v >= top - span).count();
        let index = jitter_index(reasonable, full_read || stage == SontakuStage::FullRead, rng);
        SontakuChoice { best: ranked[index].0, ranked, depth, stage, jittered: index > 0 }
    }

    /// The full read's exact value of every root move against a human of strength `s`: the
    /// seed's guarantee (a win whatever the human plays) below [`TRUSTED_STRENGTH`], the
    /// best-play final margin aimed at +6 plus the slip allowance from it. A blend would always
    /// side with the guarantee, whose losses weigh far more than any margin, so this is a
    /// switch. `None` when the read runs out of time.
    fn standard_exact_values(&mut self, eval: &PatternEval, p: u64, o: u64, s: f64) -> Option<Vec<(u8, i32)>> {
        self.clear();
        if s < TRUSTED_STRENGTH {
            return self.read_to_end(&Standard(eval), p, o);
        }
        let slip = (SLIP_ALLOWANCE * (1.0 - s)).round() as i32;
        let cpu_margins = self.read_to_end(&Strong(eval), p, o)?;
        Some(cpu_margins.into_iter().map(|(sq, cpu)| (sq, standard_final_value(-cpu / DISC - slip))).collect())
    }

    /// A trusted human's values between [`TRUSTED_SOLVE_EMPTIES`] and the full read: every root
    /// move solved exactly as far as the choice needs ([`Engine::handover_values`]: the
    /// best-play margin aimed at +6 plus the slip allowance, as in the full read), after a
    /// midgame search with half the time that answers if the solves do not finish.
    fn standard_solved_values(
        &mut self,
        eval: &PatternEval,
        p: u64,
        o: u64,
        s: f64,
    ) -> (Vec<(u8, i32)>, u32, SontakuStage) {
        let deadline = self.deadline;
        let start = self.now();
        if let Some(d) = deadline {
            self.set_deadline(Some(start + d.saturating_sub(start) / 2));
        }
        let (midgame, depth) = self.standard_midgame_values(eval, p, o, s, 60);
        self.set_deadline(deadline);
        let slip = (SLIP_ALLOWANCE * (1.0 - s)).round() as i32;
        // The midgame's values order the solves: the nearer the first, the cheaper the rest.
        match self.handover_values(eval, p, o, slip, &midgame) {
            Some(solved) if !self.aborted => (solved, (!(p | o)).count_ones(), SontakuStage::FullRead),
            _ => (midgame, depth, SontakuStage::Midgame),
        }
    }

    /// Against a trusted human ahead of the plan (every move leaves a best-play lead above
    /// [`TRUSTED_LEAD_CEILING`](crate::reversi::levels::sontaku::tuning::TRUSTED_LEAD_CEILING), by a probe of all root moves with [`CHASE_PROBE_SHARE`] of the
    /// time), the strongest move by a principal-variation search with the rest of the time, as
    /// `none` finds its moves: `Some((values, depth, move))`, the move alone valued (the choice
    /// is made among no other). `None` (nothing searched that counts) when the human is not
    /// trusted, the ceiling does not hold at this point of the game, or some move stays within it.
    ///
    /// A deviation from the original design ("chase harder when the lead leaves the band",
    /// docs/design/reversi-sontaku.md#deviation-the-chase): the aim already picked the least lead
    /// when every move was above it, but by a full-window search of every root move, with the
    /// classic table breaking ties within 0.6 discs and the 35% jitter within 0.4; held below the
    /// ceiling without the chase, `none(2.4)`'s value at ply 40 (its opponent to move) still rose
    /// from −2 at ply 10 to +4.5 (8 games), with it it stayed at −1 (2026-12-01 late night). Which
    /// of the three mattered most was not measured apart.
    pub(super) fn standard_chase(&mut self, eval: &PatternEval, p: u64, o: u64, s: f64, limit: u32) -> Option<Chase> {
        let n = (!(p | o)).count_ones();
        let trusted = s >= TRUSTED_STRENGTH;
        let ceiling = lead_ceiling(n, s).filter(|_| trusted)?;
        let deadline = self.deadline;
        let start = self.now();
        if let Some(d) = deadline {
            self.set_deadline(Some(start + d.saturating_sub(start).mul_f64(CHASE_PROBE_SHARE)));
        }
        self.clear();
        let probe = self.iterate(&Strong(eval), p, o, limit, true, DISC).expect("a placement exists");
        self.set_deadline(deadline);
        let leads: Vec<(u8, i32)> = probe.scores.iter().map(|&(sq, cpu)| (sq, -cpu * 10 / DISC)).collect();
        if leads.iter().any(|&(_, l)| l <= ceiling) {
            return None;
        }
        let r = self.iterate(&Strong(eval), p, o, limit, false, DISC).expect("a placement exists");
        let (sq, cpu) = r.scores[0];
        Some((vec![(sq, desirability_around(-cpu * 10 / DISC, trusted_target(n)))], r.depth, sq))
    }

    /// The midgame value of every root move against a human of strength `s` (searches of at
    /// most `limit` plies): `(1 - s) ×` the seed's value `+ s ×` the desirability of the human's
    /// lead when both then play best, without the moves that give away more than [`GIFT_CAP`]
    /// (from [`GIFT_CAP_FROM`]) or pass the ceiling ([`lead_ceiling`]). The seed's search has
    /// its share of the time, the strong engine's the rest. Returns the values and the depth
    /// reached.
    pub(super) fn standard_midgame_values(
        &mut self,
        eval: &PatternEval,
        p: u64,
        o: u64,
        s: f64,
        limit: u32,
    ) -> (Vec<(u8, i32)>, u32) {
        let deadline = self.deadline;
        let start = self.now();
        let seed_share = (1.0 - s).clamp(0.0, 0.5);
        let mut seed: Option<Vec<(u8, i32)>> = None;
        let mut depth = 0;
        if seed_share > 0.0 {
            if let Some(d) = deadline {
                self.set_deadline(Some(start + d.saturating_sub(start).mul_f64(seed_share)));
            }
            self.clear();
            let r = self.iterate(&Standard(eval), p, o, limit, true, 0).expect("a placement exists");
            depth = r.depth;
            seed = Some(r.scores);
        }
        self.set_deadline(deadline);
        self.clear();
        let r = self.iterate(&Strong(eval), p, o, limit, true, DISC).expect("a placement exists");
        depth = depth.max(r.depth);
        // The human's lead (tenths of a disc) after each move if both then play best.
        let leads: Vec<(u8, i32)> = r.scores.into_iter().map(|(sq, cpu)| (sq, -cpu * 10 / DISC)).collect();
        let lead_of = |sq: u8| leads.iter().find(|&&(m, _)| m == sq).map(|&(_, l)| l);
        let least = leads.iter().map(|&(_, l)| l).min().unwrap_or(0);
        let capped = s >= GIFT_CAP_FROM;
        let n = (!(p | o)).count_ones();
        let target = if s >= TRUSTED_STRENGTH { trusted_target(n) } else { STANDARD_TARGET };
        let ceiling = lead_ceiling(n, s);
        // Both searches value every root move; the seed's order (when it ran) breaks ties.
        let order: Vec<(u8, Option<i32>)> = match &seed {
            Some(v) => v.iter().map(|&(sq, a)| (sq, Some(a))).collect(),
            None => leads.iter().map(|&(sq, _)| (sq, None)).collect(),
        };
        let values = order
            .into_iter()
            .filter_map(|(sq, seed_value)| {
                let lead = lead_of(sq)?;
                if capped && lead - least > GIFT_CAP {
                    return None;
                }
                if let Some(c) = ceiling {
                    if lead > c.max(least + DISC_TENTHS) {
                        return None;
                    }
                }
                let best_play = desirability_around(lead, target) as f64;
                let v = seed_value.map_or(best_play, |a| (1.0 - s) * a as f64 + s * best_play);
                Some((sq, v.round() as i32))
            })
            .collect();
        (values, depth)
    }
}
