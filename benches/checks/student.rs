//! Student's t distribution, the little of it a 95% interval needs: the two-sided 95% point for
//! a whole number of degrees of freedom. Exact rather than approximated: for whole degrees of
//! freedom the distribution function has a closed form (Abramowitz and Stegun, 26.7.3 and
//! 26.7.4), which a bisection inverts. A dozen lines against a statistics crate's dependency
//! tree.

use std::f64::consts::PI;

/// The probability that a Student's t variable of `df` degrees of freedom lies within `±t`.
pub fn within(t: f64, df: u32) -> f64 {
    assert!(df >= 1, "Student's t needs at least one degree of freedom");
    let theta = (t.abs() / f64::from(df).sqrt()).atan();
    let (sin, cos) = theta.sin_cos();
    let cos2 = cos * cos;
    if df % 2 == 1 {
        // (2/π)(θ + sin θ (cos θ + 2/3 cos³θ + 2·4/(3·5) cos⁵θ + … up to cos^(df-2) θ))
        let mut sum = 0.0;
        if df > 1 {
            let mut term = cos;
            sum = term;
            for j in 1..(df - 1) / 2 {
                term *= cos2 * f64::from(2 * j) / f64::from(2 * j + 1);
                sum += term;
            }
        }
        2.0 / PI * (theta + sin * sum)
    } else {
        // sin θ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + … up to cos^(df-2) θ)
        let (mut term, mut sum) = (1.0, 1.0);
        for j in 1..df / 2 {
            term *= cos2 * f64::from(2 * j - 1) / f64::from(2 * j);
            sum += term;
        }
        sin * sum
    }
}

/// The `t` with 95% of Student's t distribution of `df` degrees of freedom within `±t` (12.706
/// for one, 2.228 for ten, towards the normal's 1.960 for many).
pub fn t95(df: u32) -> f64 {
    // `within` grows with t; the point lies between 0 and 100 for every df >= 1 (12.7 at df 1).
    let (mut low, mut high) = (0.0_f64, 100.0_f64);
    while high - low > 1e-12 {
        let mid = (low + high) / 2.0;
        if within(mid, df) < 0.95 {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}
