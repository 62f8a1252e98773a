//! Timing for the lab's commands: wall-clock and on-CPU time of the calling thread side by
//! side, so that a busy machine does not make the code look slow.

use std::time::{Duration, Instant};

use settai_lab::cpu_clock::thread_cpu_time;

/// Wall-clock and on-CPU time of the calling thread, so figures stay meaningful on a busy machine.
pub(super) struct Stopwatch {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Stopwatch {
    pub(super) fn start() -> Stopwatch {
        Stopwatch { wall: Instant::now(), cpu: thread_cpu_time() }
    }

    /// (wall seconds, on-CPU seconds if the platform tells).
    pub(super) fn stop(&self) -> (f64, Option<f64>) {
        let wall = self.wall.elapsed().as_secs_f64();
        let cpu = match (self.cpu, thread_cpu_time()) {
            (Some(a), Some(b)) => Some((b - a).as_secs_f64()),
            _ => None,
        };
        (wall, cpu)
    }
}

/// `wall` and `cpu` seconds with the rate `per` makes of each.
pub(super) fn describe(wall: f64, cpu: Option<f64>, per: impl Fn(f64) -> String) -> String {
    match cpu {
        Some(cpu) => format!("wall {wall:.3} s ({}), on-CPU {cpu:.3} s ({})", per(wall), per(cpu)),
        None => format!("wall {wall:.3} s ({})", per(wall)),
    }
}
