//! The reminders a waiting game may be owed.

/// What a waiting game is owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nudge {
    /// The one reminder of this wait.
    Reminder,
    /// The notice a day before the idle limit closes the game (`days`: that limit).
    FinalNotice {
        /// The idle limit in days.
        days: u32,
    },
}
