//! The `settai` command: the bot's commands (the `settai` library's [`settai::cli`]) and
//! nothing else. The lab's commands (`bench`, `train`, `solve`) are the `settai-lab` command's
//! (`crates/lab-cli`), so this binary, the one that serves, links no lab code: Cargo keeps
//! that, not a convention (ARCHITECTURE.md).

use std::process::ExitCode;

use clap::Parser;
use settai::cli::{self as bot, shell};

/// settai: board games on Discord that let children win gracefully.
#[derive(Debug, Parser)]
#[command(name = "settai", version, about)]
struct Cli {
    #[command(subcommand)]
    command: bot::Command,
}

/// Parses arguments, runs, and turns errors into one line and a non-zero exit code.
fn main() -> ExitCode {
    let _ = dotenvy::from_path(settai::config::env_file());
    bot::init_tracing();
    let cli = Cli::parse();
    if !matches!(cli.command, bot::Command::Serve { .. }) {
        shell::quiet_on_closed_pipe();
    }
    match bot::run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", shell::for_this_shell(&settai::report::one_line(e.as_ref())));
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_parses() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
