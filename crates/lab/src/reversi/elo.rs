//! The arithmetic of a match result: score (a draw counts half), its 95% interval and the Elo
//! difference it implies.
//!
//! The main interval is a normal approximation with the sample variance over colour-swapped
//! pairs; the Wilson interval over games is the second opinion. A match plays each opening with both colours, so the two games of a
//! pair share the opening's bias; treating the pair as the unit counts that correlation instead
//! of pretending the games are independent (the "pentanomial" model of engine testing).

/// z for a two-sided 95% interval.
const Z95: f64 = 1.96;

/// Wins, draws and losses of one side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points over games, a draw counting half (0.5 when no game was played).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n),
        }
    }

    /// The score's 95% Wilson interval treating every game as independent, a draw as half a
    /// win: unlike the normal approximation it keeps a width when every game went one way.
    pub fn wilson(&self) -> Interval {
        let n = f64::from(self.games());
        if n == 0.0 {
            return Interval { low: 0.0, high: 1.0 };
        }
        let (p, z2) = (self.score(), Z95 * Z95);
        let denom = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / denom;
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
        Interval { low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
    }
}

/// A closed interval of scores (0..=1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Interval {
    /// The 95% normal interval of the mean of `samples` (each a score in 0..=1), with the
    /// sample variance, clipped to 0..=1; the whole range for fewer than two samples.
    pub fn of_mean(samples: &[f64]) -> Interval {
        let n = samples.len() as f64;
        if samples.len() < 2 {
            return Interval { low: 0.0, high: 1.0 };
        }
        let mean = samples.iter().sum::<f64>() / n;
        let var = samples.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let half = Z95 * (var / n).sqrt();
        Interval { low: (mean - half).max(0.0), high: (mean + half).min(1.0) }
    }

    /// The score interval over colour-swapped pairs: `pair_points` holds each pair's points
    /// (0, 0.5, ..., 2) for the same side.
    pub fn over_pairs(pair_points: &[f64]) -> Interval {
        let scores: Vec<f64> = pair_points.iter().map(|p| p / 2.0).collect();
        Interval::of_mean(&scores)
    }

    /// The Elo differences of both ends.
    pub fn elo(&self) -> (f64, f64) {
        (elo(self.low), elo(self.high))
    }
}

/// The Elo difference a score implies: −400·log10(1/score − 1); ±infinity at 0 and 1.
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An Elo difference for people: a sign, no decimals, `∞` at the ends.
pub fn elo_text(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+∞" } else { "−∞" }.to_string()
    } else {
        // Adding zero turns −0 (an even score) into +0.
        format!("{:+.0}", elo + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn sixty_wins_twenty_draws_twenty_losses_by_hand() {
        let t = Tally { wins: 60, draws: 20, losses: 20 };
        assert_eq!(t.games(), 100);
        assert!(close(t.score(), 0.70));
        // Wilson with p = 0.7, n = 100, z = 1.96: centre (0.7 + z²/200) / (1 + z²/100) = 0.69260,
        // half width z·sqrt(0.21/100 + z²/40000) / (1 + z²/100) = 0.08845.
        let ci = t.wilson();
        assert!(close(ci.low, 0.60415) && close(ci.high, 0.78105), "{ci:?}");
        // −400·log10(0.3/0.7) = 147.19; the ends: −400·log10(0.39585/0.60415), −400·log10(0.21895/0.78105).
        assert!((elo(0.7) - 147.19).abs() < 0.01, "{}", elo(0.7));
        let (lo, hi) = ci.elo();
        assert!((lo - 73.4).abs() < 0.3 && (hi - 220.9).abs() < 0.3, "{lo} {hi}");
        // Every game won: the Wilson interval keeps a width (the normal one would not).
        let all = Tally { wins: 40, draws: 0, losses: 0 }.wilson();
        assert!(close(all.low, 0.91238) && all.high == 1.0, "{all:?}");
        assert_eq!(elo_text(elo(0.7)), "+147");
    }

    #[test]
    fn pairs_are_the_unit_of_the_pair_interval() {
        // Pairs won 2-0, split twice, lost 0-2: scores 1, ½, ½, 0, mean ½, sample variance
        // 0.5/3; half width 1.96·sqrt(0.5/3/4) = 0.40008.
        let ci = Interval::over_pairs(&[2.0, 1.0, 1.0, 0.0]);
        assert!(close(ci.low, 0.09992) && close(ci.high, 0.90008), "{ci:?}");
        // The same eight games one by one (a split pair as a win and a loss, the other as two
        // draws): 3 wins, 2 draws, 3 losses, which look less spread than the pairs are.
        let games = Tally { wins: 3, draws: 2, losses: 3 }.wilson();
        assert!(games.high - games.low < ci.high - ci.low, "pairs won or lost whole widen the interval");
        // Every pair split: no doubt left about who is stronger than whom.
        assert_eq!(Interval::over_pairs(&[1.0; 5]), Interval { low: 0.5, high: 0.5 });
        assert_eq!(Interval::over_pairs(&[2.0]), Interval { low: 0.0, high: 1.0 });
    }

    #[test]
    fn elo_is_zero_at_even_and_infinite_at_the_ends() {
        assert_eq!(elo(0.5), 0.0);
        assert_eq!(elo_text(elo(0.5)), "+0");
        assert!((elo(0.25) + elo(0.75)).abs() < 1e-9);
        assert!((elo(10.0 / 11.0) - 400.0).abs() < 1e-9, "10:1 odds are 400 Elo");
        assert_eq!(elo(1.0), f64::INFINITY);
        assert_eq!(elo_text(elo(0.0)), "−∞");
        assert_eq!(Tally::default().score(), 0.5);
    }
}
