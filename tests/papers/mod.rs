//! The commands the papers name, read the same way by the bot's docs test (`tests/docs.rs`) and
//! the lab's (`crates/lab-cli/tests/docs.rs`), each for its own program.

use std::path::Path;

/// The papers whose commands are promises: the README, the other top-level papers, the design
/// notes and the assets' READMEs (the notebook in docs/notebook/ is a dated record of what was
/// run then, and keeps the command names of its day).
const PAPERS_WITH_COMMANDS: &[&str] = &[
    "README.md",
    "ARCHITECTURE.md",
    "BENCHMARKS.md",
    "assets/README.md",
    "assets/reversi/README.md",
    "crates/core/assets/reversi/README.md",
    "docs/matches/README.md",
    "docs/design",
];

/// Each `program` command the papers name, as its subcommand words (`["table", "build"]`):
/// in code spans and after a path (`` `settai table build` ``, `./target/release/settai ...`),
/// and at the start of a line in a code block. At most two words, each a lowercase name.
/// `root` is the workspace's folder.
pub fn commands_named(root: &Path, program: &str) -> Vec<Vec<String>> {
    let mut papers = Vec::new();
    for paper in PAPERS_WITH_COMMANDS {
        let path = root.join(paper);
        if path.is_dir() {
            let mut notes: Vec<_> = std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()).collect();
            notes.retain(|p| p.extension().is_some_and(|e| e == "md"));
            papers.extend(notes);
        } else {
            papers.push(path);
        }
    }
    let needle = format!("{program} ");
    let mut found: Vec<Vec<String>> = Vec::new();
    for paper in papers {
        let text = std::fs::read_to_string(&paper).unwrap_or_else(|e| panic!("{}: {e}", paper.display()));
        let mut in_block = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                in_block = !in_block;
                continue;
            }
            for (at, _) in line.match_indices(&needle) {
                let before = line[..at].chars().last();
                let named = matches!(before, Some('`') | Some('/')) || (in_block && line[..at].trim().is_empty());
                if !named {
                    continue;
                }
                let mut words = Vec::new();
                for word in line[at + needle.len()..].split_whitespace().take(2) {
                    let (word, closed) = match word.strip_suffix('`') {
                        Some(w) => (w, true),
                        None => (word, false),
                    };
                    let name = word.starts_with(|c: char| c.is_ascii_lowercase())
                        && word.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                    if !name {
                        break;
                    }
                    words.push(word.to_string());
                    if closed {
                        break;
                    }
                }
                if !words.is_empty() && !found.contains(&words) {
                    found.push(words);
                }
            }
        }
    }
    found
}
