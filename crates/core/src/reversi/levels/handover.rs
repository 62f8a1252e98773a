//! How `standard` hands the lead to a trusted human in the endgame (from
//! `TRUSTED_SOLVE_EMPTIES` (sontaku's tuning) empties): every root move
//! solved exactly, but only as far as the choice needs.
//!
//! The choice is the move whose best-play human margin `h` is closest to the aim (+6 plus the
//! slip allowance), a human win above any draw or loss ([`standard_final_value`] of `h − slip`).
//! A move inside the window of six discs around the aim beats every move outside it, so one
//! window solve per move decides nearly every position; only when no move falls inside are the
//! nearest moves solved further. A full-window solve of every move (the first version) needed
//! several times the nodes at 20 empties and rarely finished in the time (2026-12-02,
//! docs/design/reversi-handover.md#measured).

use crate::reversi::engine::eval::{PatternEval, DISC};
use crate::reversi::engine::search::{Child, Children, Engine};
use crate::reversi::engine::strong::Strong;
use crate::reversi::levels::sontaku::{standard_final_value, TARGET_WIN_MARGIN};
use crate::reversi::rules::board::moves;

/// Beyond every final margin.
const BEYOND: i32 = 65;
/// A move whose best-play margin is this near the aim (in discs) is played without solving the
/// moves after it. At 2 discs the bot thought a third less, but the margins against
/// `none(0.5)` moved up (40 games at full time: twelve +6 wins instead of eighteen; 2026-12-02,
/// docs/design/reversi-handover.md#measured), so only a move exactly at the aim stops it.
pub(crate) const CLOSE_ENOUGH: i32 = 0;

impl Engine {
    /// `standard`'s value of every root move against a trusted human with `slip` discs of
    /// allowance: [`standard_final_value`] of the human's best-play margin less `slip`, exact
    /// for the best move, no higher than it for the rest (some exact, some bounds). Once a
    /// move is within [`CLOSE_ENOUGH`] of the aim the rest are not solved and not listed.
    /// `hint` ranks the moves by a guess (the midgame's values, best first; moves it lacks
    /// come last): the nearer the first moves are to the aim, the narrower the windows of the
    /// others. `None` if the deadline passed first.
    pub fn handover_values(
        &mut self,
        eval: &PatternEval,
        p: u64,
        o: u64,
        slip: i32,
        hint: &[(u8, i32)],
    ) -> Option<Vec<(u8, i32)>> {
        let mut children = Children::new(p, o, moves(p, o));
        let guess = |sq: u8| hint.iter().find(|&&(s, _)| s == sq).map_or(i32::MIN, |&(_, v)| v);
        children.list[..children.len].sort_by_key(|c| std::cmp::Reverse(guess(c.sq)));
        let children = &children.list[..children.len];
        let aim = slip + TARGET_WIN_MARGIN;
        // The window of margins nearer the aim than the best so far: at first the six discs
        // either side (a human win, since lo = slip), narrowing with every nearer move.
        let mut reach = TARGET_WIN_MARGIN;
        let mut best: Option<usize> = None;
        let mut margins = Vec::with_capacity(children.len());
        // Whether a margin is exact: inside its window when solved.
        let mut exact = Vec::with_capacity(children.len());
        for (i, c) in children.iter().enumerate() {
            // The child is the human's turn: the solver's value is the human's margin.
            let (_, h) = self.solve_root(eval, c.p, c.o, aim - reach, aim + reach)?;
            let inside = aim - reach < h && h < aim + reach;
            if inside {
                reach = (h - aim).abs();
                best = Some(i);
            }
            margins.push(h);
            exact.push(inside);
            if reach <= CLOSE_ENOUGH {
                break;
            }
        }
        let best = match best {
            Some(best) => best,
            None => self.nearest_beyond(eval, children, slip, &mut margins, &mut exact)?,
        };
        // A move outside its window holds only a bound: it ranks below the best, which it
        // cannot beat (a tie is not looked for: the first of equals is played).
        let top = standard_final_value(margins[best] - slip);
        // Moves after a close enough one were not solved and are left out.
        let values = children.iter().zip(margins).zip(exact).map(|((c, h), exact)| {
            let v = standard_final_value(h - slip);
            (c.sq, if exact { v } else { v.min(top - 1) })
        });
        Some(values.collect())
    }

    /// An order for [`Engine::handover_values`] without `standard`'s midgame values: each
    /// move's distance from the aim by the strong engine's `depth`-ply search (nearer first).
    pub fn handover_hint(&mut self, eval: &PatternEval, p: u64, o: u64, depth: u32) -> Vec<(u8, i32)> {
        let Some(r) = self.iterate(&Strong(eval), p, o, depth, true, 1) else { return Vec::new() };
        // The human's lead is the CPU's loss.
        let aim = TARGET_WIN_MARGIN * DISC;
        r.scores.into_iter().map(|(sq, cpu)| (sq, -(-cpu - aim).abs())).collect()
    }

    /// When no move is within six discs of the aim: the nearest move, the smallest win above
    /// the window or, when no move is a win, the largest margin of all, by a principal-variation
    /// search over those moves (the first solved exactly, the others tested against it with a
    /// null window and solved only if they beat it). Updates `margins` and `exact`; returns
    /// the index of the nearest move.
    fn nearest_beyond(
        &mut self,
        eval: &PatternEval,
        children: &[Child],
        slip: i32,
        margins: &mut [i32],
        exact: &mut [bool],
    ) -> Option<usize> {
        let (lo, hi) = (slip, slip + 2 * TARGET_WIN_MARGIN);
        let above = margins.iter().any(|&h| h >= hi);
        let mut nearest: Option<(usize, i32)> = None;
        for (i, c) in children.iter().enumerate() {
            if above && margins[i] < hi {
                continue; // Not a win: never nearer than a win.
            }
            // The window of margins nearer than the nearest so far.
            let (a, b) = match nearest {
                None if above => (hi - 1, BEYOND),
                None => (-BEYOND, lo + 1),
                Some((_, m)) if above => (hi - 1, m),
                Some((_, m)) => (m, lo + 1),
            };
            if let Some((_, m)) = nearest {
                // A null window first: most moves do not beat the nearest, and show it cheaply.
                let (ta, tb) = if above { (m - 1, m) } else { (m, m + 1) };
                let (_, t) = self.solve_root(eval, c.p, c.o, ta, tb)?;
                let beats = if above { t < m } else { t > m };
                if !beats {
                    margins[i] = t;
                    exact[i] = false;
                    continue;
                }
            }
            let (_, h) = self.solve_root(eval, c.p, c.o, a, b)?;
            margins[i] = h;
            exact[i] = a < h && h < b;
            if exact[i] {
                nearest = Some((i, h));
            }
        }
        nearest.map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::rules::board::{Move, Position};
    use crate::reversi::rules::naive::random_position;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// [`standard_final_value`] of the human's exact margin after `sq`, by a full-window solve.
    fn judged(pos: &Position, sq: u8, slip: i32) -> i32 {
        let after = pos.play(Move::Place(crate::reversi::rules::board::Square::new(sq).unwrap())).unwrap();
        let human = pos.turn().opposite();
        // A small table: the default one is 64 MiB to clear per call.
        let (_, m) =
            Engine::new(12).solve_root(PatternEval::shared(), after.player(), after.opponent(), -65, 65).unwrap();
        let h = if after.turn() == human { m } else { -m };
        standard_final_value(h - slip)
    }

    #[test]
    fn the_window_solve_plays_the_best_move_or_one_close_enough_to_the_aim() {
        let mut rng = StdRng::seed_from_u64(91);
        let (mut inside, mut outside) = (0, 0);
        for i in 0..40 {
            let pos = random_position(&mut rng, 6 + i % 7, 2);
            let slip = [0, 2, 4, 10][i as usize % 4];
            let hint = if i % 2 == 0 {
                Vec::new()
            } else {
                Engine::new(16).handover_hint(PatternEval::shared(), pos.player(), pos.opponent(), 4)
            };
            let values = Engine::new(16)
                .handover_values(PatternEval::shared(), pos.player(), pos.opponent(), slip, &hint)
                .unwrap();
            let best = *values.iter().max_by_key(|&&(_, v)| v).unwrap();
            let truth: Vec<i32> = values.iter().map(|&(sq, _)| judged(&pos, sq, slip)).collect();
            let squares = (0..64u8).filter(|&sq| pos.legal_mask() >> sq & 1 == 1);
            let every: Vec<i32> = squares.map(|sq| judged(&pos, sq, slip)).collect();
            let optimum = *every.iter().max().unwrap();
            // The chosen value is exact, and the best by the full solve or within CLOSE_ENOUGH
            // of the aim (10 units per disc of distance).
            assert_eq!(best.1, judged(&pos, best.0, slip));
            let close = standard_final_value(TARGET_WIN_MARGIN) - 10 * CLOSE_ENOUGH;
            assert!(best.1 == optimum || best.1 >= close, "{} slip {slip}", pos.to_text());
            // Only moves after a close enough one are left out.
            assert!(values.len() == every.len() || best.1 >= close);
            // A value that is not exact ranks below the best: only the best is ever played.
            for (&(sq, v), &t) in values.iter().zip(&truth) {
                assert!(v == t || (v < best.1 && sq != best.0), "{} slip {slip}", pos.to_text());
            }
            let near = standard_final_value(TARGET_WIN_MARGIN) - 10 * TARGET_WIN_MARGIN;
            if best.1 > near {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        // Both branches ran: a move near the aim, and none near it.
        assert!(inside >= 5 && outside >= 5, "{inside} inside, {outside} outside");
    }
}
