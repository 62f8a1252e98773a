//! The verdict of a bench run: what it found, and the failures among it. A run passes only when
//! every move a player saw accepted is stored once where they saw it, the stand-in refused none
//! of the bot's calls and met no route it does not know, the players met nothing unexpected,
//! the bot logged no warning, and no judged figure surely creeps faster than its threshold.

use super::creep::Creep;
use super::moves::MoveCheck;

/// What a run found. A field a bench does not gather stays empty.
#[derive(Debug, Default)]
pub struct Findings {
    /// The taps against the stored moves.
    pub moves: MoveCheck,
    /// Calls of the bot's the stand-in refused, as Discord would have.
    pub refused_calls: Vec<String>,
    /// Routes the bot called that the stand-in does not know (Discord would answer 404).
    pub unknown_routes: Vec<String>,
    /// What players met that they should not have: an exchange that did not complete, a tap
    /// or start refused, a board missing, the sweeps not done within their time.
    pub anomalies: Vec<String>,
    /// Warnings and errors in the bot's log.
    pub log_troubles: Vec<String>,
    /// Figures judged for creep: (what, its slope, the threshold it must not surely exceed).
    pub creeps: Vec<(String, Creep, f64)>,
}

/// The failures among `findings`, one line each (with up to three examples); none is a pass.
pub fn failures(findings: &Findings) -> Vec<String> {
    let listed = |what: &str, items: &[String]| {
        (!items.is_empty()).then(|| {
            let examples: Vec<&str> = items.iter().take(3).map(String::as_str).collect();
            format!("{} {what}: {}{}", items.len(), examples.join("; "), if items.len() > 3 { "; …" } else { "" })
        })
    };
    let mut failed: Vec<String> = [
        listed("moves lost or changed", &findings.moves.lost),
        listed("moves played twice", &findings.moves.twice),
        listed("moves stored that nobody tapped", &findings.moves.untapped),
        listed("calls the stand-in refused", &findings.refused_calls),
        listed("calls to unknown routes", &findings.unknown_routes),
        listed("anomalies", &findings.anomalies),
        listed("warnings or errors in the bot's log", &findings.log_troubles),
    ]
    .into_iter()
    .flatten()
    .collect();
    for (what, creep, threshold) in &findings.creeps {
        if let (true, Creep::Judged(fit)) = (creep.exceeds(*threshold), creep) {
            failed.push(format!(
                "{what} creeps: {:+.2} a day, 95% interval {:+.2} to {:+.2}, all above the threshold {threshold:+.2}",
                fit.slope, fit.low, fit.high
            ));
        }
    }
    failed
}

/// Prints the verdict and returns it: `Err` naming every failure (the bench's `main` then exits
/// non-zero), `Ok` when the run passed.
pub fn conclude(bench: &str, findings: &Findings) -> anyhow::Result<()> {
    let failed = failures(findings);
    if failed.is_empty() {
        println!("\n{bench}: PASS ({} taps checked against the database)", findings.moves.taps);
        return Ok(());
    }
    println!("\n{bench}: FAIL");
    for f in &failed {
        println!("  {f}");
    }
    anyhow::bail!("{bench} failed: {}", failed.join(" | "))
}
