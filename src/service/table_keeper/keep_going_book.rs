//! The keep-going book as the running bot keeps it: read with the table, or, when it is missing
//! or unusable and the machine has the memory, built in the background at the lowest priority
//! and attached once written. Settai plays without it meanwhile, as it did before the book
//! (docs/design/doubutsu-settai.md#deviation-7-choosing-early-moves-by-the-keep-going-book).

use std::sync::Arc;

use settai_core::doubutsu::table::keep_going_book::KeepGoingBook;
use settai_core::doubutsu::table::{BuildOptions, Material};

use crate::table_file::{book_path, write_book, BookError, TableFile, REBUILD_BOOK_COMMAND};

/// Memory the book's build needs at its peak (measured 3.6 GiB for the real game; docs/design/
/// doubutsu-settai.md#deviation-7-choosing-early-moves-by-the-keep-going-book), with a margin for
/// the bot itself. A machine with less available does not start it: it would be killed.
pub const BOOK_BUILD_MEMORY: u64 = 4 << 30;

/// How much nicer than the rest of the process the build's threads are, as the table's.
const BUILD_NICENESS: i32 = 19;

/// Builds the book of `table` in the background after `why` (it is missing or unusable) and
/// attaches it once written; only for the real game's table (a test's small table has no
/// start to read a book from), and only where the machine has [`BOOK_BUILD_MEMORY`] available.
/// What it does is logged.
pub fn build_in_background(table: Arc<TableFile>, material: Material, why: BookError) {
    if material != Material::FULL {
        return;
    }
    if let BookError::Io { .. } = why {
        tracing::warn!("{why}; settai plays without the keep-going book until it can be read");
        return;
    }
    let path = book_path(table.path());
    if let Some(available) = available_memory().filter(|&a| a < BOOK_BUILD_MEMORY) {
        tracing::warn!(
            "{why}; this machine has {:.1} GiB of memory available and the build needs about {:.0}: \
             build it on another machine with `{REBUILD_BOOK_COMMAND}` and copy it to {}; settai plays \
             without it meanwhile",
            available as f64 / (1u64 << 30) as f64,
            BOOK_BUILD_MEMORY as f64 / (1u64 << 30) as f64,
            path.display()
        );
        return;
    }
    tracing::warn!(
        "{why}; building it in the background (about 15 minutes on two cores); settai plays without it meanwhile"
    );
    let spawned = std::thread::Builder::new().name("settai-book-build".into()).spawn(move || {
        let built = (|| -> anyhow::Result<()> {
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("settai-book-{i}"))
                .start_handler(|_| super::super::priority::lower_priority(BUILD_NICENESS))
                .build()?;
            let book = pool.install(|| KeepGoingBook::build_standard(&BuildOptions::default()));
            write_book(&book, &path)?;
            table.attach_book(book, &path)?;
            Ok(())
        })();
        match built {
            Ok(()) => tracing::info!("keep-going book built and ready ({})", path.display()),
            Err(e) => tracing::error!("could not build the keep-going book: {e:#}"),
        }
    });
    if let Err(e) = spawned {
        tracing::error!("could not start the keep-going book's build: {e}");
    }
}

/// The memory the kernel says is available (`MemAvailable`), where it says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&info)
}

/// `MemAvailable` from `/proc/meminfo`'s text, in bytes.
fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let text = "MemTotal:       24576000 kB\nMemFree:         1000 kB\nMemAvailable:   2097152 kB\n";
        assert_eq!(parse_mem_available(text), Some(2 << 30));
        assert_eq!(parse_mem_available("MemTotal: 5 kB\n"), None);
        // This machine's own reading is a number when the kernel gives one.
        if std::path::Path::new("/proc/meminfo").exists() {
            assert!(available_memory().is_some_and(|a| a > 0));
        }
    }
}
