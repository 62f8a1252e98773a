//! What the reports say about the machine they ran on.

/// The machine's logical cores (0 when unknown).
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(0, |n| n.get())
}
