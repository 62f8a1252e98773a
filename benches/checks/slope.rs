//! An ordinary least-squares slope with its 95% interval. The soak's readings come from several
//! processes of the bot (it is restarted twice), each starting at its own level: the fit gives
//! each process its own intercept and all of them one slope, so that a restart's drop is not
//! read as a trend and every reading after warm-up counts towards the one slope.
//!
//! The interval is Student's t's over the residuals, which assumes they are independent. Day to
//! day swings of memory last more than a day, so the true interval is somewhat wider than the
//! one printed: a run may fail on a slope that a longer run would find within the threshold
//! (never the other way round), which is the side a check for creep should err on.

use super::student;

/// A fitted slope: `slope` per unit of x, the 95% interval `low..=high` around it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    pub slope: f64,
    pub low: f64,
    pub high: f64,
    /// How many readings the fit used.
    pub readings: usize,
}

/// The least-squares fit of `y = a[group] + slope × x` over `(group, x, y)` readings, with the
/// 95% interval of the slope. `None` when the data cannot give an interval: fewer readings
/// than groups + 2 (no degree of freedom left for the residuals), or x the same within every
/// group.
pub fn fit(readings: &[(usize, f64, f64)]) -> Option<Fit> {
    let mut groups: Vec<usize> = readings.iter().map(|r| r.0).collect();
    groups.sort_unstable();
    groups.dedup();
    let df = readings.len().checked_sub(groups.len() + 1).filter(|df| *df >= 1)?;
    // Each reading as its distance from its group's means.
    let centred: Vec<(f64, f64)> = groups
        .iter()
        .flat_map(|g| {
            let mine: Vec<(f64, f64)> = readings.iter().filter(|r| r.0 == *g).map(|r| (r.1, r.2)).collect();
            let n = mine.len() as f64;
            let (mx, my) = (mine.iter().map(|p| p.0).sum::<f64>() / n, mine.iter().map(|p| p.1).sum::<f64>() / n);
            mine.into_iter().map(move |(x, y)| (x - mx, y - my))
        })
        .collect();
    let sxx: f64 = centred.iter().map(|(x, _)| x * x).sum();
    if sxx == 0.0 {
        return None;
    }
    let slope = centred.iter().map(|(x, y)| x * y).sum::<f64>() / sxx;
    let residuals: f64 = centred.iter().map(|(x, y)| (y - slope * x).powi(2)).sum();
    let standard_error = (residuals / df as f64 / sxx).sqrt();
    let half = student::t95(df as u32) * standard_error;
    Some(Fit { slope, low: slope - half, high: slope + half, readings: readings.len() })
}
