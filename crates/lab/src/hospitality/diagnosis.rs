//! Where a reversi level hands the lead over, per guest: the guest's value along the game, what
//! the level's moves gave away and when, and what the guest's own mistakes cost it (a measure
//! of the guest's strength). Built from the per-move judgements of [`SimulatedGame`].

use serde::Serialize;

use super::SimulatedGame;

/// Plies at which the guest's value is reported.
pub const CURVE_PLIES: [usize; 6] = [10, 20, 30, 40, 50, 58];
/// A gift at least this large (discs) counts as a big one.
pub const BIG_GIFT: i32 = 6;
/// From this ply the sontaku levels read to the end (60 squares minus 13 empties).
pub const FULL_READ_PLY: u32 = 47;

/// One guest's diagnosis.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnosis {
    /// The guest.
    pub guest: String,
    /// Median guest value (discs) at each of [`CURVE_PLIES`] over the games that reached it.
    pub curve: Vec<f64>,
    /// Mean gift per level move (discs): opening (plies below 20), midgame (up to the full
    /// read), endgame (the full read).
    pub gift_by_phase: [f64; 3],
    /// Share of the level's moves that gave away at least [`BIG_GIFT`] discs.
    pub big_gift_share: f64,
    /// Median over games of the largest single gift.
    pub largest_gift_median: f64,
    /// Mean cost of the guest's own moves (discs given back per move; 0 for a perfect guest).
    pub guest_cost: f64,
    /// Median of `standard`'s strength estimate of the guest at the end of the game.
    pub strength_median: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        f64::NAN
    } else {
        sum / n as f64
    }
}

impl Diagnosis {
    /// Diagnoses one guest's games.
    pub fn of(guest: &str, games: &[SimulatedGame]) -> Diagnosis {
        let curve = CURVE_PLIES
            .iter()
            .map(|&p| median(games.iter().filter_map(|g| g.values.get(p)).map(|&v| v as f64).collect()))
            .collect();
        let gifts = || games.iter().flat_map(|g| g.ai_gifts.iter().copied());
        let phase = |ply: u32| {
            if ply < 20 {
                0
            } else if ply < FULL_READ_PLY {
                1
            } else {
                2
            }
        };
        let gift_by_phase = [0, 1, 2].map(|k| mean(gifts().filter(|&(ply, _)| phase(ply) == k).map(|(_, g)| g as f64)));
        let count = gifts().count().max(1) as f64;
        Diagnosis {
            guest: guest.to_string(),
            curve,
            gift_by_phase,
            big_gift_share: gifts().filter(|&(_, g)| g >= BIG_GIFT).count() as f64 / count,
            largest_gift_median: median(
                games.iter().filter_map(|g| g.ai_gifts.iter().map(|&(_, x)| x).max()).map(f64::from).collect(),
            ),
            guest_cost: -mean(games.iter().flat_map(|g| g.guest_gifts.iter()).map(|&(_, x)| x as f64)),
            strength_median: median(games.iter().filter_map(|g| g.guest_strength).collect()),
        }
    }
}

/// The diagnosis table (Markdown).
pub fn markdown_table(rows: &[Diagnosis]) -> String {
    let plies: Vec<String> = CURVE_PLIES.iter().map(|p| format!("ply {p}")).collect();
    let mut out = format!(
        "| guest | guest cost/move | strength | guest value at {} | gift/move opening / midgame / endgame | big gifts (≥ {BIG_GIFT}) | largest gift (median) |\n|---|---|---|---|---|---|---|\n",
        plies.join(" / ")
    );
    for d in rows {
        let curve: Vec<String> = d.curve.iter().map(|v| format!("{v:+.0}")).collect();
        out.push_str(&format!(
            "| {} | {:.2} | {:.2} | {} | {:+.2} / {:+.2} / {:+.2} | {:.1}% | {:+.0} |\n",
            d.guest,
            d.guest_cost,
            d.strength_median,
            curve.join(" / "),
            d.gift_by_phase[0],
            d.gift_by_phase[1],
            d.gift_by_phase[2],
            d.big_gift_share * 100.0,
            d.largest_gift_median,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gifts_and_costs_are_attributed_by_phase_and_side() {
        let game = SimulatedGame {
            values: (0..60).map(|i| i / 2).collect(),
            ai_gifts: vec![(1, 2), (25, 8), (50, -4)],
            guest_gifts: vec![(0, -1), (2, -3)],
            ..Default::default()
        };
        let d = Diagnosis::of("g", &[game.clone(), game]);
        assert_eq!(d.gift_by_phase, [2.0, 8.0, -4.0]);
        assert!((d.big_gift_share - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(d.largest_gift_median, 8.0);
        assert_eq!(d.guest_cost, 2.0);
        assert_eq!(d.curve[0], 5.0);
        assert!(markdown_table(&[d]).contains("| g | 2.00 | NaN |"));
    }
}
