//! The verdict of a bench run: what it found, and the failures among it. A run passes only when
//! players tapped moves (a run that played none shows nothing), every move a player saw accepted
//! is stored once where they saw it, the boards left offer each game's moves once and only
//! where the player is to move, the stand-in refused none of the bot's calls and met no route
//! it does not know, the players met nothing unexpected, the bot logged no warning, every
//! memory figure read was above zero (a renamed or missing metric reads 0 and could never creep),
//! and no judged figure surely creeps faster than its threshold.

use super::creep::Creep;
use super::moves::MoveCheck;

/// What a run found. A field a bench does not gather stays empty.
#[derive(Debug, Default)]
pub struct Findings {
    /// The taps against the stored moves.
    pub moves: MoveCheck,
    /// The boards left in the channels against the games ([`super::boards::troubles`]): posted
    /// twice, stale, or missing.
    pub boards: Vec<String>,
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
    /// Every memory figure read: (what and when, its value). One at zero or below fails.
    pub memory: Vec<(String, f64)>,
}

/// One check a run failed: what, how many times, and the first few cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub what: String,
    pub count: usize,
    /// Up to [`EXAMPLES`] cases, each on one line of at most [`EXAMPLE_CHARS`] characters.
    pub examples: Vec<String>,
}

/// How many cases a failure shows.
pub const EXAMPLES: usize = 3;
/// How much of a case a failure shows (a refused call's body runs to kilobytes).
pub const EXAMPLE_CHARS: usize = 200;

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.what, self.count)?;
        for e in &self.examples {
            write!(f, "\n    {e}")?;
        }
        if self.count > self.examples.len() {
            write!(f, "\n    …")?;
        }
        Ok(())
    }
}

/// The failures among `findings`; none is a pass.
pub fn failures(findings: &Findings) -> Vec<Failure> {
    let listed = |what: &str, items: &[String]| {
        (!items.is_empty()).then(|| Failure {
            what: what.to_string(),
            count: items.len(),
            examples: items
                .iter()
                .take(EXAMPLES)
                .map(|i| {
                    let line = i.lines().next().unwrap_or_default();
                    match line.char_indices().nth(EXAMPLE_CHARS) {
                        Some((cut, _)) => format!("{}…", &line[..cut]),
                        None => line.to_string(),
                    }
                })
                .collect(),
        })
    };
    let no_taps = (findings.moves.taps == 0).then(|| "no move was tapped: the run shows nothing".to_string());
    // NaN too: a figure that could not be read is no reading.
    let zeros: Vec<String> = findings
        .memory
        .iter()
        .filter(|(_, v)| v.is_nan() || *v <= 0.0)
        .map(|(what, v)| format!("{what}: {v}"))
        .collect();
    let mut failed: Vec<Failure> = [
        listed("runs without a tapped move", no_taps.as_slice()),
        listed("memory figures that read 0 (a metric renamed or gone?)", &zeros),
        listed("moves lost or changed", &findings.moves.lost),
        listed("moves played twice", &findings.moves.twice),
        listed("moves stored that nobody tapped", &findings.moves.untapped),
        listed("boards posted twice, left stale or missing", &findings.boards),
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
            failed.push(Failure {
                what: format!("{what} creeps (slope a day, all of its 95% interval above {threshold:+.2})"),
                count: 1,
                examples: vec![format!("{:+.2} a day, 95% interval {:+.2} to {:+.2}", fit.slope, fit.low, fit.high)],
            });
        }
    }
    failed
}

/// Prints the verdict and returns it: `Err` naming every check failed (the bench's `main` then
/// exits non-zero), `Ok` when the run passed.
pub fn conclude(bench: &str, findings: &Findings) -> anyhow::Result<()> {
    let failed = failures(findings);
    if failed.is_empty() {
        println!("\n{bench}: PASS ({} taps checked against the database{})", findings.moves.taps, unjudged(findings));
        return Ok(());
    }
    println!("\n{bench}: FAIL");
    for f in &failed {
        println!("  {f}");
    }
    let named: Vec<String> = failed.iter().map(|f| format!("{} ({})", f.what, f.count)).collect();
    anyhow::bail!("{bench} failed: {}", named.join("; "))
}

/// What a pass did not judge: the creeping figures whose readings were too few (a short run,
/// too short to tell memory's trend), said in the verdict so that no one reads it as judged.
pub fn unjudged(findings: &Findings) -> String {
    let short: Vec<&str> = findings
        .creeps
        .iter()
        .filter(|(_, creep, _)| matches!(creep, Creep::TooShort { .. }))
        .map(|(what, _, _)| what.as_str())
        .collect();
    if short.is_empty() {
        return String::new();
    }
    format!("; not judged, too few readings for its trend: {}", short.join(", "))
}

/// A bench's exit: success, or failure with the error (the verdict's, or why the run could not
/// go on) on standard error, without the backtrace `RUST_BACKTRACE` would add to `main`'s.
pub fn exit_code(run: anyhow::Result<()>) -> std::process::ExitCode {
    match run {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
