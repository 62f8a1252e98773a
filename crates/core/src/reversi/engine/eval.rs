//! Pattern evaluation for the strong level: Edax-like pattern sets (corner 3x3, corner 2x5,
//! edge + 2 X-squares, lines 2-4, diagonals of 4-8 squares), a mobility term and a bias, with
//! one weight set per game phase. Weights come from this crate's own trainer
//! (the lab's `reversi::train`) and are embedded from `crates/core/assets/reversi/weights.bin`.
//!
//! Every pattern is one base square list mapped by the 8 board symmetries, and weights are
//! shared within a pattern's own symmetries, so the evaluation is exactly symmetric.

use std::fmt;

use crate::reversi::engine::features::{Features, N_INSTANCES, OFFSET};
use crate::reversi::engine::pattern_index::Indexer;
use crate::reversi::engine::patterns::Layout;

/// Evaluation units per disc of final margin.
pub const DISC: i32 = 32;

/// Number of game phases with their own weights (by empty squares, 6 per phase).
pub const N_PHASES: usize = 10;

/// The trained weights shipped with the crate.
static BUILTIN: &[u8] = include_bytes!("../../../../../crates/core/assets/reversi/weights.bin");

/// The weights of 2026-12-02, frozen as the baseline of engine matches (`none@baseline`): the
/// file never changes, so that results against it stay comparable (`crates/core/assets/reversi/README.md`).
static BASELINE: &[u8] = include_bytes!("../../../assets/reversi/weights-baseline-2026-12-02.bin");

/// File signature of a weights file.
const MAGIC: &[u8; 4] = b"RVW1";

/// The phase of a position with `empties` empty squares.
#[inline]
pub fn phase(empties: u32) -> usize {
    (empties.saturating_sub(1) as usize / 6).min(N_PHASES - 1)
}

/// A pattern evaluator with its weights (per phase, in 1/[`DISC`] discs).
#[derive(Clone)]
pub struct PatternEval {
    indexer: Indexer,
    weights: Vec<Vec<i16>>,
    phase_len: usize,
}

impl fmt::Debug for PatternEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PatternEval({} phases, {} weights each)", self.weights.len(), self.phase_len)
    }
}

/// Why a weights file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Wrong signature, truncated data or wrong lengths.
    #[error("malformed weights file: {0}")]
    Malformed(&'static str),
}

impl PatternEval {
    /// The evaluator with the embedded trained weights.
    pub fn builtin() -> Self {
        Self::from_bytes(BUILTIN).expect("embedded weights are well-formed")
    }

    /// The frozen baseline evaluator of engine matches (`none@baseline`; the file never changes).
    pub fn baseline() -> Self {
        Self::from_bytes(BASELINE).expect("embedded baseline weights are well-formed")
    }

    /// The embedded evaluator, decoded once per test process (decoding takes milliseconds). Only
    /// for the core's tests: elsewhere the caller owns the evaluator and hands it in.
    #[cfg(test)]
    pub(crate) fn shared() -> &'static PatternEval {
        static SHARED: std::sync::OnceLock<PatternEval> = std::sync::OnceLock::new();
        SHARED.get_or_init(PatternEval::builtin)
    }

    /// An evaluator whose weights are all zero (used to start training).
    pub fn zero() -> Self {
        let layout = Layout::new();
        let phase_len = layout.phase_len();
        Self::with_weights(&layout, vec![vec![0; phase_len]; N_PHASES])
    }

    /// Builds an evaluator from per-phase weight vectors of the given layout.
    pub fn with_weights(layout: &Layout, weights: Vec<Vec<i16>>) -> Self {
        PatternEval { indexer: Indexer::new(layout), weights, phase_len: layout.phase_len() }
    }

    /// The weights of phase `ph`.
    pub fn phase_weights(&self, ph: usize) -> &[i16] {
        &self.weights[ph]
    }

    /// Table indices (offset included) of every pattern instance for `p` to move.
    #[inline]
    pub fn indices(&self, p: u64, o: u64, out: &mut [u32]) {
        self.indexer.for_each(p, o, |k, idx| out[k] = idx);
    }

    /// Number of pattern instances (46).
    pub fn n_instances(&self) -> usize {
        self.indexer.len()
    }

    /// Evaluation for `p` to move against `o`, in 1/[`DISC`] discs of expected final margin.
    #[inline]
    pub fn eval(&self, p: u64, o: u64) -> i32 {
        let empties = (!(p | o)).count_ones();
        let w = &self.weights[phase(empties)];
        let mut sum = 0i32;
        self.indexer.for_each(p, o, |_, idx| sum += i32::from(w[idx as usize]));
        self.finish(w, sum, p, o, crate::reversi::rules::board::moves(p, o))
    }

    /// [`eval`](Self::eval) from indices kept up to date by the search (equal to it, tested in
    /// [`features`](crate::reversi::engine::features)): no gathering from the whole board.
    #[inline]
    pub fn eval_features(&self, p: u64, o: u64, f: &Features) -> i32 {
        self.eval_features_with_moves(p, o, crate::reversi::rules::board::moves(p, o), f)
    }

    /// [`eval_features`](Self::eval_features) given the mover's legal moves `mask`, which a
    /// search leaf has already generated.
    #[inline]
    pub fn eval_features_with_moves(&self, p: u64, o: u64, mask: u64, f: &Features) -> i32 {
        let empties = (!(p | o)).count_ones();
        let w = &self.weights[phase(empties)];
        let mut sum = 0i32;
        for (k, &offset) in OFFSET[..N_INSTANCES].iter().enumerate() {
            sum += i32::from(w[offset as usize + usize::from(f.index(k))]);
        }
        self.finish(w, sum, p, o, mask)
    }

    /// The pattern sum plus the mobility term and the bias, clamped below a certain result;
    /// `mask` is the mover's legal moves.
    #[inline]
    fn finish(&self, w: &[i16], mut sum: i32, p: u64, o: u64, mask: u64) -> i32 {
        let mob = mask.count_ones() as i32 - crate::reversi::rules::board::moves(o, p).count_ones() as i32;
        let n = self.phase_len;
        sum += i32::from(w[n - 2]) * mob + i32::from(w[n - 1]);
        sum.clamp(-64 * DISC + 1, 64 * DISC - 1)
    }

    /// Serialises the weights: signature, phase count, phase length, then zero-run-length
    /// encoded little-endian i16 values (a 0 value is followed by a u16 run length).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.push(self.weights.len() as u8);
        out.extend_from_slice(&(self.phase_len as u32).to_le_bytes());
        for w in &self.weights {
            let mut i = 0;
            while i < w.len() {
                if w[i] == 0 {
                    let mut run = 0usize;
                    while i < w.len() && w[i] == 0 && run < u16::MAX as usize {
                        run += 1;
                        i += 1;
                    }
                    out.extend_from_slice(&0i16.to_le_bytes());
                    out.extend_from_slice(&(run as u16).to_le_bytes());
                } else {
                    out.extend_from_slice(&w[i].to_le_bytes());
                    i += 1;
                }
            }
        }
        out
    }

    /// Reads weights written by [`to_bytes`](Self::to_bytes); a file with no phases means
    /// all-zero weights.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, WeightsError> {
        let layout = Layout::new();
        let phase_len = layout.phase_len();
        if bytes.len() < 9 || &bytes[..4] != MAGIC {
            return Err(WeightsError::Malformed("bad signature"));
        }
        let phases = bytes[4] as usize;
        let len = u32::from_le_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]) as usize;
        if phases == 0 {
            return Ok(Self::zero());
        }
        if phases != N_PHASES || len != phase_len {
            return Err(WeightsError::Malformed("phase count or length differs from this build's layout"));
        }
        let mut pos = 9;
        let mut next = || -> Result<i16, WeightsError> {
            let b = bytes.get(pos..pos + 2).ok_or(WeightsError::Malformed("truncated"))?;
            pos += 2;
            Ok(i16::from_le_bytes([b[0], b[1]]))
        };
        let mut weights = Vec::with_capacity(phases);
        for _ in 0..phases {
            let mut w = Vec::with_capacity(len);
            while w.len() < len {
                let v = next()?;
                if v == 0 {
                    let run = next()? as u16 as usize;
                    w.extend(std::iter::repeat_n(0, run));
                } else {
                    w.push(v);
                }
            }
            if w.len() != len {
                return Err(WeightsError::Malformed("run crosses a phase boundary"));
            }
            weights.push(w);
        }
        Ok(Self::with_weights(&layout, weights))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::engine::patterns::{transform, N_TYPES};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn layout_has_the_edax_like_46_instances() {
        let layout = Layout::new();
        assert_eq!(layout.instances.len(), 46);
        // Every square is covered by some pattern.
        let covered: u64 =
            layout.instances.iter().flat_map(|(_, s)| s.iter()).map(|&s| 1u64 << s).fold(0, |a, b| a | b);
        assert_eq!(covered, !0);
        for (idx, &c) in layout.canonical.iter().enumerate() {
            let t = (0..N_TYPES).find(|&t| idx < layout.offsets[t + 1]).unwrap();
            let base = layout.offsets[t];
            assert!(c as usize <= idx - base, "canonical index is the smallest of its class");
            // Canonical maps are idempotent within each table.
            assert_eq!(layout.canonical[base + c as usize], c);
        }
    }

    /// Random weights tied by the canonical map: the evaluation must not depend on orientation.
    #[test]
    fn evaluation_is_symmetric_under_the_8_board_symmetries() {
        let layout = Layout::new();
        let mut rng = StdRng::seed_from_u64(31);
        let weights: Vec<Vec<i16>> = (0..N_PHASES)
            .map(|_| {
                let raw: Vec<i16> = (0..layout.phase_len()).map(|_| rng.gen_range(-40..40)).collect();
                let mut w = raw.clone();
                for t in 0..N_TYPES {
                    for i in layout.offsets[t]..layout.offsets[t + 1] {
                        w[i] = raw[layout.offsets[t] + layout.canonical[i] as usize];
                    }
                }
                w
            })
            .collect();
        let eval = PatternEval::with_weights(&layout, weights);
        for _ in 0..300 {
            let a: u64 = rng.gen();
            let b: u64 = rng.gen();
            let (p, o) = (a & !b, b & !a);
            let v = eval.eval(p, o);
            assert_ne!(v, 0);
            for g in 1..8 {
                assert_eq!(eval.eval(transform(g, p), transform(g, o)), v, "symmetry {g}");
            }
        }
    }

    #[test]
    fn trained_weights_are_symmetric_and_informative() {
        let eval = PatternEval::builtin();
        let mut rng = StdRng::seed_from_u64(8);
        let mut nonzero = 0;
        for _ in 0..300 {
            let mut pos = crate::reversi::rules::board::Position::start();
            for _ in 0..rng.gen_range(4..58) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos = pos.play(legal[rng.gen_range(0..legal.len())]).unwrap();
            }
            let (p, o) = (pos.player(), pos.opponent());
            let v = eval.eval(p, o);
            nonzero += usize::from(v != 0);
            for g in 1..8 {
                assert_eq!(eval.eval(transform(g, p), transform(g, o)), v, "symmetry {g}");
            }
        }
        assert!(nonzero > 250, "the shipped weights should be trained ({nonzero}/300 non-zero)");
    }

    #[test]
    fn weights_round_trip_through_bytes_and_builtin_loads() {
        let layout = Layout::new();
        let mut rng = StdRng::seed_from_u64(5);
        let weights: Vec<Vec<i16>> = (0..N_PHASES)
            .map(|_| (0..layout.phase_len()).map(|_| if rng.gen_bool(0.1) { rng.gen() } else { 0 }).collect())
            .collect();
        let eval = PatternEval::with_weights(&layout, weights.clone());
        let back = PatternEval::from_bytes(&eval.to_bytes()).unwrap();
        assert_eq!(back.weights, weights);
        assert!(PatternEval::from_bytes(b"nope").is_err());
        let builtin = PatternEval::builtin();
        assert_eq!(builtin.weights.len(), N_PHASES);
    }

    /// The baseline is frozen: a changed file would silently move every match result against it.
    #[test]
    fn the_baseline_weights_are_the_frozen_file() {
        // FNV-1a 64 of the file as committed on 2026-12-02 (sha256 ae41668d...4233).
        let fnv =
            BASELINE.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        assert_eq!((BASELINE.len(), fnv), (2_745_473, 0x093c_f0f1_5063_b29c));
        assert_eq!(PatternEval::baseline().weights.len(), N_PHASES);
    }
}
