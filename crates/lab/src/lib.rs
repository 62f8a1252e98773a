//! settai's lab: what measures, trains and checks the game cores, beside them and never linked
//! by the bot (ARCHITECTURE.md).
//!
//! - [`hospitality`]: the levels against simulated guests, and how close and natural the games are.
//! - [`reversi`]: engine-against-engine matches ([`reversi::duel`], scored by [`reversi::elo`])
//!   from the balanced [`reversi::openings`], the evaluation's trainer ([`reversi::train`](mod@reversi::train)) and
//!   ProbCut's margins ([`reversi::probcut_fit`]).
//! - [`journal`]: the file that lets a long run span sessions; [`cpu_clock`]: the calling
//!   thread's CPU time, for figures a busy machine does not distort.

pub mod cpu_clock;
pub mod golden;
pub mod hospitality;
pub mod journal;
pub mod reversi;
