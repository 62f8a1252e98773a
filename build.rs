//! Build script: a fingerprint of the source the benchmark games depend on (the game cores,
//! the hospitality guests and the reversi assets), so that a benchmark journal written by one
//! build is resumed only by a build of the same rules, engines and guests (any commit with the
//! same files gives the same fingerprint; any change to them, even a comment, another).

use std::path::{Path, PathBuf};

const SOURCES: [&str; 3] = ["src/games", "src/hospitality", "assets/reversi"];

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let mut files = Vec::new();
    for dir in SOURCES {
        println!("cargo:rerun-if-changed={dir}");
        collect(Path::new(dir), &mut files);
    }
    files.sort();
    // FNV-1a over each path and its bytes: stable across builds and toolchains.
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for file in &files {
        let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for b in file.to_string_lossy().bytes().chain(bytes) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=SETTAI_BENCH_SOURCE={hash:016x}");
}
