//! Transparent huge pages for the big tables the searches probe at random.
//!
//! The one call the core makes to the operating system, and still pure: advice on memory the
//! caller's table owns, which changes no value and keeps no state (a refusal only costs speed).
//! `tests/architecture/purity.rs` lets no other file of the core call the OS.

/// Asks the kernel to back the memory of `v` (its whole capacity, written or not) with
/// transparent huge pages. Tables of tens or hundreds of megabytes probed at random miss the
/// TLB on nearly every probe with 4 KiB pages (doubly costly under virtualization), and first
/// touches fault page by page. Call it before the memory is first written: pages already
/// touched stay small. A refusal, or another OS, only costs speed.
pub(crate) fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let base = v.as_ptr() as usize;
        let start = base.next_multiple_of(HUGE);
        let end = (base + v.capacity() * size_of::<T>()) & !(HUGE - 1);
        if end > start {
            // SAFETY: the range lies inside the allocation this Vec owns; MADV_HUGEPAGE does not
            // change its contents or validity.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}
