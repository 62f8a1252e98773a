//! Time on a CPU, the calling thread's and the process's: speed figures that a busy machine, or a paused run, does
//! not distort (wall time also counts the time other programs took from the thread).

use std::time::Duration;

/// This thread's time on a CPU so far, `None` where the platform does not tell.
#[cfg(target_os = "linux")]
pub fn thread_cpu_time() -> Option<Duration> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the call's duration.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

/// This thread's time on a CPU so far, `None` where the platform does not tell.
#[cfg(not(target_os = "linux"))]
pub fn thread_cpu_time() -> Option<Duration> {
    None
}

/// The whole process's time on a CPU so far (user and system, every thread), in seconds; 0
/// where the platform does not tell. A match's threads share it.
pub fn process_cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getrusage only writes the struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: as above; `u` is a valid, writable rusage.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
            return t(u.ru_utime) + t(u.ru_stime);
        }
    }
    0.0
}

/// Measures the calling thread's on-CPU time across a piece of work done on that thread.
#[derive(Clone, Copy, Debug)]
pub struct CpuWatch(Option<Duration>);

impl CpuWatch {
    /// Starts measuring now.
    pub fn start() -> CpuWatch {
        CpuWatch(thread_cpu_time())
    }

    /// On-CPU time of this thread since [`start`](Self::start) (call it on the same thread).
    pub fn elapsed(&self) -> Option<Duration> {
        Some(thread_cpu_time()?.saturating_sub(self.0?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn busy_work_counts_and_sleeping_does_not() {
        let watch = CpuWatch::start();
        let mut x = 1u64;
        let spin = std::time::Instant::now();
        while spin.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let busy = watch.elapsed().expect("linux tells a thread's CPU time");
        // Even on a loaded machine a 30 ms spin gets some CPU; a broken clock reads 0.
        assert!(busy > Duration::ZERO, "{busy:?}");

        let watch = CpuWatch::start();
        std::thread::sleep(Duration::from_millis(50));
        let asleep = watch.elapsed().expect("linux tells a thread's CPU time");
        // Sleeping 50 ms takes microseconds of CPU; wall time would read 50 ms.
        assert!(asleep < Duration::from_millis(20), "{asleep:?}");
    }
}
