//! The custom ids of buttons and menus (moves, opponent picker, Resign, Take back, the
//! forget-me question): printing and parsing.

use settai_core::{GameKind, Level, Side};

/// The custom id of a board's move menu: the game and the ply it was made for, so a tap on an
/// old board is recognised and refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct MoveSelect {
    pub(super) game_id: i64,
    pub(super) ply: u32,
    pub(super) part: u8,
}

impl MoveSelect {
    pub(super) fn custom_id(&self) -> String {
        format!("mv:{}:{}:{}", self.game_id, self.ply, self.part)
    }

    pub(super) fn parse(id: &str) -> Option<MoveSelect> {
        let mut parts = id.split(':');
        if parts.next()? != "mv" {
            return None;
        }
        let parsed = MoveSelect {
            game_id: parts.next()?.parse().ok()?,
            ply: parts.next()?.parse().ok()?,
            part: parts.next()?.parse().ok()?,
        };
        parts.next().is_none().then_some(parsed)
    }
}

/// The custom id of the opponent picker: the game and the colour asked for in `/play`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct OpponentSelect {
    pub(super) kind: GameKind,
    pub(super) side: Side,
}

impl OpponentSelect {
    pub(super) fn custom_id(&self) -> String {
        format!("op:{}:{}", self.kind.as_str(), self.side.index())
    }

    pub(super) fn parse(id: &str) -> Option<OpponentSelect> {
        let mut parts = id.split(':');
        if parts.next()? != "op" {
            return None;
        }
        let kind = parts.next()?.parse().ok()?;
        let side = Side::from_index(parts.next()?.parse().ok()?)?;
        parts.next().is_none().then_some(OpponentSelect { kind, side })
    }

    /// The level behind a menu value (its position in the game's list).
    pub(super) fn level(&self, value: &str) -> Option<Level> {
        Level::for_kind(self.kind).get(value.parse::<usize>().ok()?).copied()
    }
}

/// The Resign button under a board and the two buttons of its confirmation, each naming the
/// game it belongs to (so an old board cannot resign a newer game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ResignButton {
    /// "Resign" under the board.
    Ask { game_id: i64 },
    /// "Yes, resign".
    Confirm { game_id: i64 },
    /// "Keep playing".
    Cancel { game_id: i64 },
}

impl ResignButton {
    pub(super) fn custom_id(&self) -> String {
        match self {
            ResignButton::Ask { game_id } => format!("rs:ask:{game_id}"),
            ResignButton::Confirm { game_id } => format!("rs:yes:{game_id}"),
            ResignButton::Cancel { game_id } => format!("rs:no:{game_id}"),
        }
    }

    pub(super) fn parse(id: &str) -> Option<ResignButton> {
        let mut parts = id.split(':');
        if parts.next()? != "rs" {
            return None;
        }
        let what = parts.next()?;
        let game_id = parts.next()?.parse().ok()?;
        if parts.next().is_some() {
            return None;
        }
        match what {
            "ask" => Some(ResignButton::Ask { game_id }),
            "yes" => Some(ResignButton::Confirm { game_id }),
            "no" => Some(ResignButton::Cancel { game_id }),
            _ => None,
        }
    }
}

/// The Take back button under a board: the game and the ply it was drawn at, so a second
/// press (or a press on an older board) is refused as stale and a move is taken back once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TakebackButton {
    pub(super) game_id: i64,
    pub(super) ply: u32,
}

impl TakebackButton {
    pub(super) fn custom_id(&self) -> String {
        format!("tb:{}:{}", self.game_id, self.ply)
    }

    pub(super) fn parse(id: &str) -> Option<TakebackButton> {
        let mut parts = id.split(':');
        if parts.next()? != "tb" {
            return None;
        }
        let parsed = TakebackButton { game_id: parts.next()?.parse().ok()?, ply: parts.next()?.parse().ok()? };
        parts.next().is_none().then_some(parsed)
    }
}

/// The two buttons of the `/play forget-me` question, naming the player asked (only they may
/// answer it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ForgetButton {
    /// "Erase my data".
    Erase { user_id: u64 },
    /// "Keep it".
    Keep { user_id: u64 },
}

impl ForgetButton {
    pub(super) fn custom_id(&self) -> String {
        match self {
            ForgetButton::Erase { user_id } => format!("fm:yes:{user_id}"),
            ForgetButton::Keep { user_id } => format!("fm:no:{user_id}"),
        }
    }

    pub(super) fn parse(id: &str) -> Option<ForgetButton> {
        let mut parts = id.split(':');
        if parts.next()? != "fm" {
            return None;
        }
        let what = parts.next()?;
        let user_id = parts.next()?.parse().ok()?;
        if parts.next().is_some() {
            return None;
        }
        match what {
            "yes" => Some(ForgetButton::Erase { user_id }),
            "no" => Some(ForgetButton::Keep { user_id }),
            _ => None,
        }
    }

    /// The player the question was asked of.
    pub(super) fn user_id(&self) -> u64 {
        match *self {
            ForgetButton::Erase { user_id } | ForgetButton::Keep { user_id } => user_id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

        /// Component ids come back from Discord as any client sends them: whatever parses names
        /// the component it would print.
        #[test]
        fn component_ids_from_anywhere_parse_to_what_they_print(
            id in prop_oneof![
                any::<String>(),
                "(mv|rs|op|tb|fm|xx):(ask|yes|no|[-0-9a-z]{0,20})(:[-0-9a-z]{0,20}){0,3}",
                "op:(reversi|doubutsu|chess):[0-9]{1,3}",
            ],
            value in prop_oneof![any::<String>(), "[0-9]{1,3}", "-1"],
        ) {
            if let Some(m) = MoveSelect::parse(&id) {
                prop_assert_eq!(MoveSelect::parse(&m.custom_id()), Some(m));
            }
            if let Some(b) = ResignButton::parse(&id) {
                prop_assert_eq!(ResignButton::parse(&b.custom_id()), Some(b));
            }
            if let Some(t) = TakebackButton::parse(&id) {
                prop_assert_eq!(TakebackButton::parse(&t.custom_id()), Some(t));
                prop_assert!(ResignButton::parse(&id).is_none() && MoveSelect::parse(&id).is_none());
            }
            if let Some(f) = ForgetButton::parse(&id) {
                prop_assert_eq!(ForgetButton::parse(&f.custom_id()), Some(f));
                prop_assert!(ResignButton::parse(&id).is_none() && TakebackButton::parse(&id).is_none());
            }
            if let Some(o) = OpponentSelect::parse(&id) {
                prop_assert_eq!(OpponentSelect::parse(&o.custom_id()), Some(o));
                if let Some(level) = o.level(&value) {
                    prop_assert_eq!(level.kind(), o.kind);
                }
            }
        }
    }

    #[test]
    fn resign_button_ids_round_trip_and_reject_garbage() {
        for b in [
            ResignButton::Ask { game_id: 7 },
            ResignButton::Confirm { game_id: 7 },
            ResignButton::Cancel { game_id: 9 },
        ] {
            assert_eq!(ResignButton::parse(&b.custom_id()), Some(b));
        }
        for bad in ["", "rs", "rs:ask", "rs:ask:x", "rs:maybe:1", "rs:yes:1:2", "mv:1:2:3"] {
            assert_eq!(ResignButton::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn move_select_ids_round_trip_and_reject_garbage() {
        let id = MoveSelect { game_id: 42, ply: 17, part: 1 };
        assert_eq!(MoveSelect::parse(&id.custom_id()), Some(id));
        for bad in ["", "mv", "mv:1:2", "mv:1:2:3:4", "xx:1:2:3", "mv:a:2:3", "mv:1:-2:3", "mv:1:2:999"] {
            assert_eq!(MoveSelect::parse(bad), None, "{bad:?}");
        }
    }
}
