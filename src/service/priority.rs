//! The CPU priority of the service's own threads: the bot's searches and the table's build
//! yield to the gateway, the database and the replies.

/// Lowers the calling thread's CPU priority by `by` (on Linux a nice value is per thread, and
/// capped at 19); elsewhere, or if refused, the thread keeps its priority.
pub(crate) fn lower_priority(by: i32) {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority has no memory effects; `who = 0` is the calling thread on Linux.
    unsafe {
        let current = libc::getpriority(libc::PRIO_PROCESS, 0);
        if libc::setpriority(libc::PRIO_PROCESS, 0, (current + by).min(19)) != 0 {
            tracing::debug!("could not lower a thread's priority");
        }
    }
}
