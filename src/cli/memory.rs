//! The allocator's arenas (docs/design/operations.md#memory): glibc gives busy threads arenas
//! of their own, up to eight per core, and memory freed in one is not reused by another. The
//! bot renders boards on many short-lived blocking threads, so its memory grew for days with
//! arenas nobody shared; two arenas keep it flat at the same speed (the soak measures both).

/// Arenas `serve` asks glibc for, unless `MALLOC_ARENA_MAX` says otherwise.
const ARENAS: i32 = 2;

/// Limits the allocator's arenas before any thread starts (glibc on Linux; elsewhere nothing).
pub(super) fn fewer_arenas() {
    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        return;
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; called before the runtime's threads.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, ARENAS);
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = ARENAS;
}
