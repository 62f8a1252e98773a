//! Who sits at each side, as the images name them.

use settai_core::Side;

/// Who sits at each side, as the images name them: display names in seat order (reversi: black
/// then white; doubutsu: sente then gote). An empty name shows the seat's generic label; any
/// Unicode is accepted (characters the font lacks become a box).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    /// Black's or sente's name.
    pub first: String,
    /// White's or gote's name.
    pub second: String,
    /// The player's seat when the other is the computer: English boards then say "Your move",
    /// "You" and "Computer" instead of the seats' names (`None`: a board seen from outside).
    pub human: Option<Side>,
}

impl Names {
    /// Names for the two seats in order.
    pub fn new(first: impl Into<String>, second: impl Into<String>) -> Names {
        Names { first: first.into(), second: second.into(), human: None }
    }

    /// The same names, the player sitting at `side` against the computer.
    pub fn with_human(self, side: Side) -> Names {
        Names { human: Some(side), ..self }
    }

    /// Whether neither seat has a name (the images then show only the generic labels).
    pub fn is_empty(&self) -> bool {
        self.first.trim().is_empty() && self.second.trim().is_empty()
    }
}
