//! Whether a figure creeps once warm: the slope per day of the readings each process of the
//! bot gave after its warm-up, judged against a threshold only when there are enough of them
//! (docs/design/operations.md#the-soak).

use super::slope::{self, Fit};

/// The days a freshly started process warms up (its caches and allocator arenas fill), left
/// out of the slope: the soak's processes level off within four or five days.
pub const WARM_UP_DAYS: u32 = 5;

/// The fewest readings after warm-up a slope is judged on. Fewer come from a short run, whose
/// processes barely leave their warm-up; its readings are printed but decide nothing, so that a
/// few days of a busy machine's noise cannot fail it. The month has 15 (five days after each of
/// its three processes' warm-up).
pub const MIN_READINGS: usize = 10;

/// The bot's own memory (resident, without mapped files) may not be shown to grow faster than
/// this, in MiB a simulated day. At 200 channels a soak's day is about 1,100 moves and the
/// bot's own memory levels off at 320-390 MiB; the small host the bot is made for has 1 GiB
/// (docs/design/doubutsu-settai.md), so about 600 MiB of room. 1.5 MiB a day fills that room
/// in a year of days as busy as the soak's: a process must not creep faster.
pub const OWN_MEMORY_MIB_PER_DAY: f64 = 1.5;

/// One figure read after a day of the soak.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    /// Which process of the bot it was read from (0 for the first, 1 after the first restart, …).
    pub process: usize,
    /// The days this process had played when it was read (1 after its first day).
    pub days_played: u32,
    /// The soak's day.
    pub day: u32,
    pub value: f64,
}

/// A figure's slope after warm-up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Creep {
    /// Fitted over this many readings or more ([`MIN_READINGS`]).
    Judged(Fit),
    /// Too few readings after warm-up to judge; the fit over them, if they give one, for the
    /// record.
    TooShort { readings: usize, fit: Option<Fit> },
}

impl Creep {
    /// Whether the whole 95% interval lies above `threshold`: the figure surely grows faster.
    pub fn exceeds(&self, threshold: f64) -> bool {
        matches!(self, Creep::Judged(fit) if fit.low > threshold)
    }
}

/// The slope per day of `readings` after each process's warm-up: one slope, each process at its
/// own level ([`slope::fit`]).
pub fn creep(readings: &[Reading]) -> Creep {
    let warm: Vec<(usize, f64, f64)> = readings
        .iter()
        .filter(|r| r.days_played > WARM_UP_DAYS)
        .map(|r| (r.process, f64::from(r.day), r.value))
        .collect();
    let fit = slope::fit(&warm);
    match fit {
        Some(fit) if warm.len() >= MIN_READINGS => Creep::Judged(fit),
        _ => Creep::TooShort { readings: warm.len(), fit },
    }
}
