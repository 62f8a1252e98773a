//! The names of things: seats, games, animals, levels and the opponents that stand for them, and
//! a doubutsu value in words.

use crate::domain::Lang;
use settai_core::doubutsu::{Role, Value};
use settai_core::{doubutsu, reversi, GameKind, Level, Side};

/// A seat's short name: black and white in reversi, sente and gote in doubutsu shogi, capitalised
/// in English to start a sentence.
pub fn side_name(kind: GameKind, side: Side, lang: Lang) -> &'static str {
    match (kind, side, lang) {
        (GameKind::Reversi, Side::First, Lang::En) => "Black",
        (GameKind::Reversi, Side::Second, Lang::En) => "White",
        (GameKind::Reversi, Side::First, Lang::Ja) => "黒",
        (GameKind::Reversi, Side::Second, Lang::Ja) => "白",
        (GameKind::Doubutsu, Side::First, Lang::En) => "Sente",
        (GameKind::Doubutsu, Side::Second, Lang::En) => "Gote",
        (GameKind::Doubutsu, Side::First, Lang::Ja) => "先手",
        (GameKind::Doubutsu, Side::Second, Lang::Ja) => "後手",
    }
}

/// A seat's name in kana, as a board a child reads shows it when nobody's seat is known
/// (くろ and しろ, せんて and ごて).
pub fn side_kana(kind: GameKind, side: Side) -> &'static str {
    match (kind, side) {
        (GameKind::Reversi, Side::First) => "くろ",
        (GameKind::Reversi, Side::Second) => "しろ",
        (GameKind::Doubutsu, Side::First) => "せんて",
        (GameKind::Doubutsu, Side::Second) => "ごて",
    }
}

/// A doubutsu value for the player, in words ("a win in 3", counted in plies).
pub fn value_words(v: Value, lang: Lang) -> String {
    match (v, lang) {
        (Value::Win(n), Lang::En) => format!("a win in {n}"),
        (Value::Loss(n), Lang::En) => format!("a loss in {n}"),
        (Value::Draw, Lang::En) => "a draw".into(),
        (Value::Win(n), Lang::Ja) => format!("{n}手で勝ち"),
        (Value::Loss(n), Lang::Ja) => format!("{n}手で負け"),
        (Value::Draw, Lang::Ja) => "引き分け".into(),
    }
}

/// An animal's name under its picture in `/play help`.
pub fn animal_name(role: Role, lang: Lang) -> &'static str {
    match (role, lang) {
        (Role::Lion, Lang::En) => "Lion",
        (Role::Lion, Lang::Ja) => "ライオン",
        (Role::Giraffe, Lang::En) => "Giraffe",
        (Role::Giraffe, Lang::Ja) => "キリン",
        (Role::Elephant, Lang::En) => "Elephant",
        (Role::Elephant, Lang::Ja) => "ゾウ",
        (Role::Chick, Lang::En) => "Chick",
        (Role::Chick, Lang::Ja) => "ひよこ",
        (Role::Hen, Lang::En) => "Hen",
        (Role::Hen, Lang::Ja) => "ニワトリ",
    }
}

/// The game's name.
pub fn kind_name(kind: GameKind, lang: Lang) -> &'static str {
    match (kind, lang) {
        (GameKind::Reversi, Lang::En) => "reversi",
        (GameKind::Reversi, Lang::Ja) => "リバーシ",
        (GameKind::Doubutsu, Lang::En) => "doubutsu shogi",
        (GameKind::Doubutsu, Lang::Ja) => "どうぶつしょうぎ",
    }
}

/// The character that stands for a level in the players' opponent picker. No word of it tells
/// how the level plays beyond what a child sees across the board.
pub fn opponent_name(level: Level, lang: Lang) -> &'static str {
    match (level, lang) {
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Settai), Lang::En) => "🐘 Elephant",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Settai), Lang::Ja) => "🐘 ゾウさん",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest), Lang::En) => "🦁 Lion",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest), Lang::Ja) => "🦁 ライオンさん",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest), Lang::En) => "🐥 Chick",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest), Lang::Ja) => "🐥 ひよこさん",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::SettaiClassic), Lang::En) => "📖 Elephant, as published",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::SettaiClassic), Lang::Ja) => "📖 ゾウさん（原典）",
        (Level::Reversi(reversi::ReversiLevel::Standard), Lang::En) => "🦉 Owl",
        (Level::Reversi(reversi::ReversiLevel::Standard), Lang::Ja) => "🦉 フクロウさん",
        (Level::Reversi(reversi::ReversiLevel::Highest), Lang::En) => "🐰 Rabbit",
        (Level::Reversi(reversi::ReversiLevel::Highest), Lang::Ja) => "🐰 ウサギさん",
        (Level::Reversi(reversi::ReversiLevel::NoMercy), Lang::En) => "🐺 Wolf",
        (Level::Reversi(reversi::ReversiLevel::NoMercy), Lang::Ja) => "🐺 オオカミさん",
        (Level::Reversi(reversi::ReversiLevel::StandardClassic), Lang::En) => "📖 Owl, as published",
        (Level::Reversi(reversi::ReversiLevel::StandardClassic), Lang::Ja) => "📖 フクロウさん（原典）",
    }
}

/// The line under an opponent in the picker, in kana (a child may choose), but for the
/// published rules, which are for grown-ups.
pub(super) fn opponent_hint(level: Level, lang: Lang) -> &'static str {
    match (level, lang) {
        (
            Level::Doubutsu(doubutsu::DoubutsuLevel::Settai) | Level::Reversi(reversi::ReversiLevel::Standard),
            Lang::En,
        ) => "A good match",
        (
            Level::Doubutsu(doubutsu::DoubutsuLevel::Settai) | Level::Reversi(reversi::ReversiLevel::Standard),
            Lang::Ja,
        ) => "いい しょうぶ",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest), Lang::En) => "The champion",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest), Lang::Ja) => "チャンピオン",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest), Lang::En) => "Still learning",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest), Lang::Ja) => "れんしゅうちゅう",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::SettaiClassic), Lang::En) => "The published rule",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::SettaiClassic), Lang::Ja) => "原典どおり",
        (Level::Reversi(reversi::ReversiLevel::Highest), Lang::En) => "Easy-going",
        (Level::Reversi(reversi::ReversiLevel::Highest), Lang::Ja) => "のんびりや",
        (Level::Reversi(reversi::ReversiLevel::NoMercy), Lang::En) => "Plays to win",
        (Level::Reversi(reversi::ReversiLevel::NoMercy), Lang::Ja) => "ほんきで くる",
        (Level::Reversi(reversi::ReversiLevel::StandardClassic), Lang::En) => "The published rule",
        (Level::Reversi(reversi::ReversiLevel::StandardClassic), Lang::Ja) => "原典どおり",
    }
}

/// A level's name as admins see it.
pub fn level_name(level: Level, lang: Lang) -> &'static str {
    match (level, lang) {
        (Level::Reversi(reversi::ReversiLevel::Standard), Lang::En) => "standard",
        (Level::Reversi(reversi::ReversiLevel::Standard), Lang::Ja) => "標準",
        (Level::Reversi(reversi::ReversiLevel::Highest), Lang::En) => "highest",
        (Level::Reversi(reversi::ReversiLevel::Highest), Lang::Ja) => "最高",
        (Level::Reversi(reversi::ReversiLevel::NoMercy), Lang::En) => "no mercy",
        (Level::Reversi(reversi::ReversiLevel::NoMercy), Lang::Ja) => "忖度無し",
        (Level::Reversi(reversi::ReversiLevel::StandardClassic), Lang::En) => "standard, as published",
        (Level::Reversi(reversi::ReversiLevel::StandardClassic), Lang::Ja) => "標準（原典）",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Settai), Lang::En) => "settai (hospitable)",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Settai), Lang::Ja) => "接待",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest), Lang::En) => "strongest",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest), Lang::Ja) => "最強",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest), Lang::En) => "weakest",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest), Lang::Ja) => "雑魚",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::SettaiClassic), Lang::En) => "settai, as published",
        (Level::Doubutsu(doubutsu::DoubutsuLevel::SettaiClassic), Lang::Ja) => "接待（原典）",
    }
}
