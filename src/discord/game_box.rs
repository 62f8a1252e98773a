//! The game box: a message of big buttons, one per game (and the opponents, where the place
//! offers a choice), that starts a game in one tap; and the same choices, with "again", under a
//! final board (docs/design/touch.md#the-game-box). `/play games` posts it; in a server anyone
//! may tap it and a manager may pin it.

use serenity::all::{ButtonStyle, CreateActionRow, CreateButton, ReactionType};

use crate::domain::{GameRecord, GameResult, HouseRules, Lang, Pick, Settings};
use crate::i18n::{kind_name, opponent_name, Msg};
use settai_core::{GameKind, Level, Side};

/// A button that starts a game: the game, the player's side, the opponent where it is named
/// (by its place in the game's list of levels, so not even the payload names a level), and
/// outside servers the game's own rules. "Again" is one too, with the finished game's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct StartButton {
    pub(super) kind: GameKind,
    pub(super) side: Side,
    level: Option<u8>,
    house_rules: Option<HouseRules>,
}

/// The wordless signs of a game's end (docs/design/touch.md#the-end): a win, a draw, and a
/// friendly face after a loss ("again" is beside it). Every sign is fully qualified, as
/// Discord's emoji list has it (the tests below).
const WON: &str = "🏆";
const DRAWN: &str = "🤝";
const LOST: &str = "😊";
/// "Again", under a final board.
const AGAIN: &str = "🔁";

/// The wordless sign of a game's end.
pub(super) fn result_sign(record: &GameRecord) -> &'static str {
    match record.result {
        Some(GameResult::Human) => WON,
        Some(GameResult::Bot) => LOST,
        _ => DRAWN,
    }
}

impl StartButton {
    /// The prefix of its custom id.
    pub(super) const PREFIX: &'static str = "gb";

    /// A game of the box at the place's opponent, or at `level` where the place offers a
    /// choice; the player moves first.
    pub(super) fn game(kind: GameKind, level: Option<Level>) -> StartButton {
        StartButton { kind, side: Side::First, level: level.and_then(index_of), house_rules: None }
    }

    /// "Again" after `record`: the same game, side, opponent and own rules.
    fn after(record: &GameRecord) -> StartButton {
        StartButton {
            kind: record.kind(),
            side: record.human_side,
            level: index_of(record.level),
            house_rules: record.house_rules,
        }
    }

    /// "Again" of a game of `kind` played on `side` at the level of index `level`.
    #[cfg(test)]
    pub(super) fn again(kind: GameKind, side: Side, level: u8, house_rules: Option<HouseRules>) -> StartButton {
        StartButton { kind, side, level: Some(level), house_rules }
    }

    /// The opponent it names, if any.
    pub(super) fn level(&self) -> Option<Level> {
        Level::for_kind(self.kind).get(usize::from(self.level?)).copied()
    }

    pub(super) fn custom_id(&self) -> String {
        let level = self.level.map_or_else(|| "-".to_string(), |l| l.to_string());
        let rules = self.house_rules.map_or_else(|| "-".to_string(), super::custom_id::rules_code);
        format!("{}:{}:{}:{level}:{rules}", Self::PREFIX, self.kind.as_str(), self.side.index())
    }

    pub(super) fn parse(id: &str) -> Option<StartButton> {
        let mut parts = id.split(':');
        if parts.next()? != Self::PREFIX {
            return None;
        }
        let kind: GameKind = parts.next()?.parse().ok()?;
        let side = Side::from_index(parts.next()?.parse().ok()?)?;
        let level = match parts.next()? {
            "-" => None,
            l => Some(l.parse::<u8>().ok().filter(|&i| usize::from(i) < Level::for_kind(kind).len())?),
        };
        let house_rules = match parts.next()? {
            "-" => None,
            code => Some(super::custom_id::parse_rules(code)?),
        };
        parts.next().is_none().then_some(StartButton { kind, side, level, house_rules })
    }

    /// The game's rules to start with: the button's own outside servers, where the box offers
    /// what the picker first offers.
    pub(super) fn pick(&self, settings: &Settings, has_managers: bool) -> Option<Pick> {
        let house_rules = if has_managers { None } else { Some(self.house_rules.unwrap_or(HouseRules::OFFERED)) };
        let reveal = house_rules.map_or(settings.commentary, |r| r.commentary);
        // Where players may not choose, the place's level plays; a published rule only where
        // the levels are named (as in the picker).
        let level = self.level().filter(|l| settings.level_choice && (!l.is_classic() || reveal))?;
        Some(Pick { level, house_rules })
    }
}

/// The index of `level` in its game's list.
fn index_of(level: Level) -> Option<u8> {
    Level::for_kind(level.kind()).iter().position(|&l| l == level).and_then(|i| u8::try_from(i).ok())
}

/// The picture of a game on its tile.
fn game_emoji(kind: GameKind) -> ReactionType {
    ReactionType::Unicode(game_sign(kind).to_string())
}

fn game_sign(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Doubutsu => "🦁",
        GameKind::Reversi => "⚫",
    }
}

/// A game's name on its tile, as a title ("Reversi"; the name inside a sentence is lower case).
fn tile_label(kind: GameKind, lang: Lang) -> String {
    let name = kind_name(kind, lang);
    let mut chars = name.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The box's rows: one big tile per game; where the place offers a choice of opponent, each
/// game's row is its tile (a heading) and its opponents.
pub(super) fn box_rows(settings: &Settings, lang: Lang) -> Vec<CreateActionRow> {
    if !settings.level_choice {
        let tiles = GameKind::ALL
            .iter()
            .map(|&kind| {
                CreateButton::new(StartButton::game(kind, None).custom_id())
                    .label(tile_label(kind, lang))
                    .emoji(game_emoji(kind))
                    .style(ButtonStyle::Primary)
            })
            .collect();
        return vec![CreateActionRow::Buttons(tiles)];
    }
    GameKind::ALL
        .iter()
        .map(|&kind| {
            let heading = CreateButton::new(format!("{}:{}:h", StartButton::PREFIX, kind.as_str()))
                .label(tile_label(kind, lang))
                .emoji(game_emoji(kind))
                .style(ButtonStyle::Secondary)
                .disabled(true);
            let reveal = settings.commentary;
            let opponents = Level::for_kind(kind).iter().filter(|l| !l.is_classic() || reveal).map(|&level| {
                CreateButton::new(StartButton::game(kind, Some(level)).custom_id())
                    .label(opponent_name(level, lang))
                    .style(ButtonStyle::Primary)
            });
            CreateActionRow::Buttons(std::iter::once(heading).chain(opponents).collect())
        })
        .collect()
}

/// The rows under a final board: its wordless sign and "again", then the box.
pub(super) fn final_rows(record: &GameRecord, settings: &Settings, lang: Lang) -> Vec<CreateActionRow> {
    let sign = CreateButton::new(format!("{}:end:{}", StartButton::PREFIX, record.id))
        .emoji(ReactionType::Unicode(result_sign(record).to_string()))
        .style(ButtonStyle::Success)
        .disabled(true);
    let again = CreateButton::new(StartButton::after(record).custom_id())
        .label(Msg::AgainButton.text(lang))
        .emoji(ReactionType::Unicode(AGAIN.to_string()))
        .style(ButtonStyle::Primary);
    let mut rows = vec![CreateActionRow::Buttons(vec![sign, again])];
    rows.extend(box_rows(settings, lang));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Discord refuses a message whose button shows an emoji not in its list as it lists it
    /// (50035 Invalid emoji): fully qualified, as in Unicode's emoji data.
    #[test]
    fn the_signs_are_emoji_discord_lists() {
        let signs = [WON, DRAWN, LOST, AGAIN, game_sign(GameKind::Doubutsu), game_sign(GameKind::Reversi)];
        for sign in signs {
            assert!(emojis::get(sign).is_some_and(|e| e.as_str() == sign), "{sign:?}");
        }
    }
}
