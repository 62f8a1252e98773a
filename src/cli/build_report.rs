//! How a long build shows itself in a terminal: an indicatif bar per phase on stderr, and
//! one plain line per level and phase where no terminal draws the bar (logs).

use std::io::IsTerminal as _;
use std::sync::{Arc, Mutex};

use indicatif::{ProgressBar, ProgressStyle};
use settai_core::doubutsu::table::{BuildOptions, BuildReport};

/// A [`BuildReport`] for the command line.
pub struct TerminalReport {
    bar: Mutex<Option<ProgressBar>>,
    bars: bool,
    lines: bool,
}

impl TerminalReport {
    /// Bars on a terminal, plain lines otherwise (or always, with `lines`).
    pub fn new(lines: bool) -> TerminalReport {
        let bars = std::io::stderr().is_terminal();
        TerminalReport { bar: Mutex::new(None), bars, lines: lines || !bars }
    }

    /// Build options that report here.
    pub fn options(self) -> BuildOptions {
        BuildOptions { report: Some(Arc::new(self)), observer: None }
    }

    fn with_bar(&self, f: impl FnOnce(&ProgressBar)) {
        if let Some(bar) = self.bar.lock().expect("the bar's lock").as_ref() {
            f(bar);
        }
    }
}

impl BuildReport for TerminalReport {
    fn begin(&self, what: &'static str, len: u64) {
        if !self.bars {
            return;
        }
        let bar = ProgressBar::new(len);
        let style = ProgressStyle::with_template(&format!(
            "{{elapsed_precise:>8}} {what:<11} [{{bar:40}}] {{human_pos}}/{{human_len}} {{msg}} (eta {{eta}})"
        ))
        .expect("valid template")
        .progress_chars("=> ");
        bar.set_style(style);
        *self.bar.lock().expect("the bar's lock") = Some(bar);
    }

    fn advance(&self, units: u64) {
        self.with_bar(|bar| bar.inc(units));
    }

    fn message(&self, text: String) {
        self.with_bar(|bar| bar.set_message(text));
    }

    fn end(&self, clear: bool) {
        if let Some(bar) = self.bar.lock().expect("the bar's lock").take() {
            if clear {
                bar.finish_and_clear();
            } else {
                bar.finish();
            }
        }
    }

    fn line(&self, text: String) {
        if self.lines {
            eprintln!("{text}");
        }
    }
}
