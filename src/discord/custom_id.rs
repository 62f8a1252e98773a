//! The custom ids of buttons and menus (moves, opponent picker and its house rules, Resign, Take back, the
//! forget-me question): printing and parsing.

use crate::domain::{HouseRule, HouseRules, Settings};
use settai_core::Origin;
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

/// A button of the board of buttons (docs/design/touch.md): the game and the ply it was drawn
/// at (an old board is refused as the menus' are) and what the tap does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TouchButton {
    pub(super) game_id: i64,
    pub(super) ply: u32,
    pub(super) tap: Tap,
}

/// What a tap on the board of buttons does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tap {
    /// First tap: choose the animal on this square or in hand; its squares light up.
    Choose(Origin),
    /// The chosen animal tapped again: nothing chosen any more.
    Cancel,
    /// A lit square (doubutsu) or a number (reversi): play this move, in notation. Parsed by
    /// the game as any typed move is, so a forged id meets the same checks.
    Play(String),
    /// A square that cannot be tapped now (Discord shows it disabled); it names its square, as
    /// ids must differ within a message.
    Idle(String),
}

impl TouchButton {
    pub(super) fn custom_id(&self) -> String {
        let tap = match &self.tap {
            Tap::Choose(origin) => format!("c.{origin}"),
            Tap::Cancel => "x".to_string(),
            Tap::Play(mv) => format!("p.{mv}"),
            Tap::Idle(square) => format!("i.{square}"),
        };
        format!("t:{}:{}:{tap}", self.game_id, self.ply)
    }

    pub(super) fn parse(id: &str) -> Option<TouchButton> {
        let mut parts = id.split(':');
        if parts.next()? != "t" {
            return None;
        }
        let game_id = parts.next()?.parse().ok()?;
        let ply = parts.next()?.parse().ok()?;
        let tap = match parts.next()? {
            "x" => Tap::Cancel,
            tap => match tap.split_once('.')? {
                ("c", origin) => Tap::Choose(origin.parse().ok()?),
                ("p", mv) if is_notation(mv) => Tap::Play(mv.to_string()),
                ("i", square) if is_notation(square) => Tap::Idle(square.to_string()),
                _ => return None,
            },
        };
        parts.next().is_none().then_some(TouchButton { game_id, ply, tap })
    }
}

/// Whether `text` could be a move or a square in notation: short, letters, digits and `*`.
fn is_notation(text: &str) -> bool {
    (1..=8).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'*')
}

/// The button that shows the player's moves as a list, privately (the menus, for grown-ups and
/// screen readers; docs/design/touch.md#the-list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ListButton {
    pub(super) game_id: i64,
    pub(super) ply: u32,
}

impl ListButton {
    pub(super) fn custom_id(&self) -> String {
        format!("ls:{}:{}", self.game_id, self.ply)
    }

    pub(super) fn parse(id: &str) -> Option<ListButton> {
        let mut parts = id.split(':');
        if parts.next()? != "ls" {
            return None;
        }
        let parsed = ListButton { game_id: parts.next()?.parse().ok()?, ply: parts.next()?.parse().ok()? };
        parts.next().is_none().then_some(parsed)
    }
}

/// The custom id of the opponent picker: the game and the colour asked for in `/play`, and
/// outside servers the game's own rules as the starter has set them so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct OpponentSelect {
    pub(super) kind: GameKind,
    pub(super) side: Side,
    pub(super) house_rules: Option<HouseRules>,
}

impl OpponentSelect {
    pub(super) fn custom_id(&self) -> String {
        let base = format!("op:{}:{}", self.kind.as_str(), self.side.index());
        match self.house_rules {
            None => base,
            Some(rules) => format!("{base}:{}", rules_code(rules)),
        }
    }

    pub(super) fn parse(id: &str) -> Option<OpponentSelect> {
        let mut parts = id.split(':');
        if parts.next()? != "op" {
            return None;
        }
        let picker = Self::parse_fields(&mut parts)?;
        parts.next().is_none().then_some(picker)
    }

    /// The kind, the side and the optional rules, from the parts after a prefix.
    fn parse_fields<'a>(parts: &mut impl Iterator<Item = &'a str>) -> Option<OpponentSelect> {
        let kind = parts.next()?.parse().ok()?;
        let side = Side::from_index(parts.next()?.parse().ok()?)?;
        let house_rules = match parts.next() {
            None => None,
            Some(code) => Some(parse_rules(code)?),
        };
        Some(OpponentSelect { kind, side, house_rules })
    }

    /// The level behind a menu value (its position in the game's list).
    pub(super) fn level(&self, value: &str) -> Option<Level> {
        Level::for_kind(self.kind).get(value.parse::<usize>().ok()?).copied()
    }

    /// Whether the picker names the levels: where the commentary is on (the game's own choice,
    /// else the place's `settings`).
    pub(super) fn reveals_levels(&self, settings: &Settings) -> bool {
        self.house_rules.map_or(settings.commentary, |rules| rules.commentary)
    }

    /// Whether the picker offers `level`: a published rule as written (`Level::is_classic`) only
    /// where the levels are named, since a player without the commentary could not tell it from
    /// the level it copies (docs/design/doubutsu-levels.md#the-published-rules-as-levels).
    pub(super) fn offers(&self, settings: &Settings, level: Level) -> bool {
        !level.is_classic() || self.reveals_levels(settings)
    }
}

/// A toggle of one of the game's own rules beside the opponent picker (outside servers): the
/// picker as it stands, and the rule the button switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct HouseRuleButton {
    pub(super) picker: OpponentSelect,
    pub(super) rule: HouseRule,
}

impl HouseRuleButton {
    pub(super) fn custom_id(&self) -> String {
        let rule = match self.rule {
            HouseRule::Takeback => "t",
            HouseRule::Commentary => "c",
        };
        let rules = self.picker.house_rules.map_or_else(String::new, rules_code);
        format!("hr:{rule}:{}:{}:{rules}", self.picker.kind.as_str(), self.picker.side.index())
    }

    pub(super) fn parse(id: &str) -> Option<HouseRuleButton> {
        let mut parts = id.split(':');
        if parts.next()? != "hr" {
            return None;
        }
        let rule = match parts.next()? {
            "t" => HouseRule::Takeback,
            "c" => HouseRule::Commentary,
            _ => return None,
        };
        let picker = OpponentSelect::parse_fields(&mut parts)?;
        (picker.house_rules.is_some() && parts.next().is_none()).then_some(HouseRuleButton { picker, rule })
    }
}

/// The rules as two digits, take-backs then commentary (`10`: take-backs on, commentary off).
pub(super) fn rules_code(rules: HouseRules) -> String {
    format!("{}{}", u8::from(rules.takeback), u8::from(rules.commentary))
}

pub(super) fn parse_rules(code: &str) -> Option<HouseRules> {
    let digit = |c: u8| match c {
        b'0' => Some(false),
        b'1' => Some(true),
        _ => None,
    };
    match code.as_bytes() {
        &[t, c] => Some(HouseRules { takeback: digit(t)?, commentary: digit(c)? }),
        _ => None,
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
                "(mv|rs|op|tb|fm|xx|t|ls):(ask|yes|no|[-0-9a-z]{0,20})(:[-0-9a-z]{0,20}){0,3}",
                "t:[0-9]{1,3}:[0-9]{1,3}:(x|[cpi]\\.[a-zA-Z0-9*]{0,6}|[a-z.]{0,4})(:[0-9])?",
                "op:(reversi|doubutsu|chess):[0-9]{1,3}(:[0-9]{0,3})?",
                "hr:(t|c|x):(reversi|doubutsu|chess):[0-9]{1,2}(:[0-9]{0,3}){0,2}",
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
            if let Some(h) = HouseRuleButton::parse(&id) {
                prop_assert_eq!(HouseRuleButton::parse(&h.custom_id()), Some(h));
                prop_assert!(h.picker.house_rules.is_some() && OpponentSelect::parse(&id).is_none());
            }
            if let Some(t) = TouchButton::parse(&id) {
                prop_assert_eq!(TouchButton::parse(&t.custom_id()), Some(t));
                prop_assert!(MoveSelect::parse(&id).is_none() && TakebackButton::parse(&id).is_none());
            }
            if let Some(l) = ListButton::parse(&id) {
                prop_assert_eq!(ListButton::parse(&l.custom_id()), Some(l));
                prop_assert!(TouchButton::parse(&id).is_none());
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
    fn pickers_and_their_house_rule_toggles_round_trip_and_reject_garbage() {
        let house_rules = Some(HouseRules { takeback: true, commentary: false });
        let picker = OpponentSelect { kind: GameKind::Doubutsu, side: Side::First, house_rules };
        assert_eq!(picker.custom_id(), "op:doubutsu:0:10");
        assert_eq!(OpponentSelect::parse(&picker.custom_id()), Some(picker));
        let server = OpponentSelect { house_rules: None, ..picker };
        assert_eq!(OpponentSelect::parse(&server.custom_id()), Some(server));
        for rule in HouseRule::ALL {
            let b = HouseRuleButton { picker, rule };
            assert_eq!(HouseRuleButton::parse(&b.custom_id()), Some(b));
        }
        for bad in ["op:doubutsu:0:2", "op:doubutsu:0:100", "op:doubutsu:0:", "hr:t:doubutsu:0:", "hr:t:doubutsu:0"] {
            assert_eq!((OpponentSelect::parse(bad), HouseRuleButton::parse(bad)), (None, None), "{bad:?}");
        }
        for bad in ["hr:x:doubutsu:0:10", "hr:t:doubutsu:0:10:1", "hr:c:chess:0:10"] {
            assert_eq!(HouseRuleButton::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn touch_ids_round_trip_fit_discord_and_reject_garbage() {
        use settai_core::doubutsu::{Role, Square};
        let origins = Square::ALL.into_iter().map(Origin::Board).chain(Role::HAND.into_iter().map(Origin::Hand));
        let mut taps: Vec<Tap> = origins.map(Tap::Choose).collect();
        taps.extend([Tap::Cancel, Tap::Play("E*B2".into()), Tap::Play("B3B2".into()), Tap::Play("pass".into())]);
        taps.extend([Tap::Play("f5".into()), Tap::Idle("C4".into())]);
        for tap in taps {
            // The largest ids a game can have still fit Discord's 100 characters.
            let b = TouchButton { game_id: i64::MAX, ply: u32::MAX, tap };
            assert!(b.custom_id().len() <= 100, "{}", b.custom_id());
            assert_eq!(TouchButton::parse(&b.custom_id()), Some(b));
        }
        let list = ListButton { game_id: i64::MAX, ply: u32::MAX };
        assert_eq!(ListButton::parse(&list.custom_id()), Some(list));
        for bad in ["t:1:2", "t:1:2:", "t:1:2:c.", "t:1:2:c.D9", "t:1:2:c.L*", "t:1:2:p.", "t:1:2:p.a b", "t:1:2:x:3"] {
            assert_eq!(TouchButton::parse(bad), None, "{bad:?}");
        }
        for bad in ["t:a:2:x", "t:1:-2:x", "t:1:2:q.B3", "t:1:2:p.B3B2B1B2B3", "ls:1", "ls:1:2:3", "ls:x:2"] {
            assert_eq!((TouchButton::parse(bad), ListButton::parse(bad)), (None, None), "{bad:?}");
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
