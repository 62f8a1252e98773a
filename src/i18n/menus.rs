//! The move menus under a board: which menu a move goes in, and a move as an option shows it.

use crate::domain::Lang;
use settai_core::doubutsu::Role;
use settai_core::{doubutsu, GameMove, MoveDetail};

/// The move menus under a board, each holding one kind of move (its placeholder says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveMenu {
    /// The lion's steps.
    Lion,
    /// The other animals' steps.
    Animals,
    /// Drops from the hand.
    Hand,
    /// Reversi placements.
    Discs,
}

impl MoveMenu {
    /// The menu a move of this kind goes in.
    pub fn of(detail: Option<MoveDetail>) -> MoveMenu {
        match detail {
            Some(MoveDetail::Step { role: Role::Lion, .. }) => MoveMenu::Lion,
            Some(MoveDetail::Step { .. }) => MoveMenu::Animals,
            Some(MoveDetail::Drop { .. }) => MoveMenu::Hand,
            Some(MoveDetail::Place { .. } | MoveDetail::Pass) | None => MoveMenu::Discs,
        }
    }
}

/// A doubutsu animal as menus show it.
pub fn animal_emoji(role: Role) -> &'static str {
    match role {
        Role::Lion => "🦁",
        Role::Giraffe => "🦒",
        Role::Elephant => "🐘",
        Role::Chick => "🐥",
        Role::Hen => "🐔",
    }
}

/// A legal move `mv` as a menu option shows it to a child: the animal and where it goes
/// ("🐥 B3 → B2 (takes 🐥)", "Drop 🐘 on B2"), or for reversi the square and how many discs it
/// turns ("d3 (flips 2)"). Without a detail, the notation itself.
pub fn move_label(mv: GameMove, detail: Option<MoveDetail>, lang: Lang) -> String {
    use Lang::{En, Ja};
    let (from, to) = match mv {
        GameMove::Doubutsu(doubutsu::Move::Normal { from, to }) => (from.to_string(), to.to_string()),
        GameMove::Doubutsu(doubutsu::Move::Drop { to, .. }) => (String::new(), to.to_string()),
        GameMove::Reversi(_) => (String::new(), String::new()),
    };
    match (detail, lang) {
        (None, _) => mv.to_string(),
        (Some(MoveDetail::Pass), En) => "Pass".into(),
        (Some(MoveDetail::Pass), Ja) => "パス".into(),
        (Some(MoveDetail::Place { flips }), En) => format!("{mv} (flips {flips})"),
        (Some(MoveDetail::Place { flips }), Ja) => format!("{mv}（{flips}枚返す）"),
        (Some(MoveDetail::Step { role, captures }), lang) => {
            let taken = match (captures, lang) {
                (None, _) => String::new(),
                (Some(c), En) => format!(" (takes {})", animal_emoji(c)),
                (Some(c), Ja) => format!("（{}を取る）", animal_emoji(c)),
            };
            format!("{} {from} → {to}{taken}", animal_emoji(role))
        }
        (Some(MoveDetail::Drop { role }), En) => format!("Drop {} on {to}", animal_emoji(role)),
        (Some(MoveDetail::Drop { role }), Ja) => format!("{}を{to}に打つ", animal_emoji(role)),
    }
}
