//! `/settings show`: the settings in effect, those of this channel marked.

use super::counts::en_count;
use super::msg::Msg;
use super::names::{kind_name, level_name};
use crate::domain::{Lang, Setting, Settings};
use settai_core::GameKind;

/// `/settings show`: the settings in effect, those of this channel marked.
/// `hints_choice`: the reader's own choice of hints, said beside the place's.
pub(super) fn settings_text(settings: &Settings, hints_choice: Option<bool>, lang: Lang) -> String {
    use Lang::{En, Ja};
    let mark = |setting: Setting| {
        if !settings.from_channel.contains(&setting) {
            ""
        } else if lang == Ja {
            " 〔このチャンネル〕"
        } else {
            " *(this channel)*"
        }
    };
    let on_off = |on: bool| match (lang, on) {
        (En, true) => "on",
        (En, false) => "off",
        (Ja, true) => "オン",
        (Ja, false) => "オフ",
    };
    let mut lines = Vec::new();
    for setting in Setting::ALL {
        let line = match setting {
            Setting::ReversiLevel | Setting::DoubutsuLevel => {
                let kind = if setting == Setting::ReversiLevel { GameKind::Reversi } else { GameKind::Doubutsu };
                let level = settings.level(kind);
                match lang {
                    En => format!("{}: **{}**", kind_name(kind, En), level_name(level, En)),
                    Ja => format!("{}：**{}**", kind_name(kind, Ja), level_name(level, Ja)),
                }
            }
            Setting::LevelChoice => match lang {
                En => format!("Players choose their opponent: **{}**", on_off(settings.level_choice)),
                Ja => format!("プレイヤーが対戦相手を選ぶ：**{}**", on_off(settings.level_choice)),
            },
            Setting::Commentary => match lang {
                En => format!("Move commentary: **{}**", on_off(settings.commentary)),
                Ja => format!("一手ごとの解説：**{}**", on_off(settings.commentary)),
            },
            Setting::TeamPlay => match (lang, settings.team_play) {
                (En, true) => "Family team mode: **on** (anyone in the channel may move)".into(),
                (En, false) => "Family team mode: **off** (only the player who started moves)".into(),
                (Ja, true) => "家族チーム：**オン**（チャンネルの誰でも指せます）".into(),
                (Ja, false) => "家族チーム：**オフ**（始めた人だけが指せます）".into(),
            },
            Setting::Language => Msg::LanguageSet { language: settings.language }.text(lang),
            Setting::ReminderHours => match (lang, settings.reminder_hours) {
                (En, 0) => "Reminders of waiting games: **off**".into(),
                (Ja, 0) => "待っている対局のお知らせ：**オフ**".into(),
                (En, hours) => {
                    format!(
                        "A game waiting **{}** for a move reminds its player once",
                        en_count(hours, "hour", "hours")
                    )
                }
                (Ja, hours) => format!("**{hours}時間**指されていない対局はお知らせします"),
            },
            Setting::Takeback => match lang {
                En => format!("Take-backs (待った): **{}**", on_off(settings.takeback)),
                Ja => format!("待った：**{}**", on_off(settings.takeback)),
            },
            Setting::Hints => {
                let yours = match (hints_choice, lang) {
                    (None, _) => String::new(),
                    (Some(on), En) => format!(" (yours: **{}**, `/play hints`)", on_off(on)),
                    (Some(on), Ja) => format!("（あなたの設定：**{}**、`/play hints`）", on_off(on)),
                };
                match lang {
                    En => format!(
                        "Hints for young players (a ⚠ on risky moves, a word when the lion is in danger): **{}**{yours}",
                        on_off(settings.hints)
                    ),
                    Ja => format!(
                        "ヒント（あぶない手に ⚠、ライオンがねらわれたらひとこと）：**{}**{yours}",
                        on_off(settings.hints)
                    ),
                }
            }
            Setting::IdleDays => match lang {
                En => format!(
                    "Games waiting longer than **{}** for a move are closed",
                    en_count(settings.idle_days, "day", "days")
                ),
                Ja => format!("**{}日**指されなかった対局は終了します", settings.idle_days),
            },
        };
        lines.push(format!("• {line}{}", mark(setting)));
    }
    let title = match (lang, settings.from_channel.is_empty()) {
        (En, true) => "Settings here (the server's)",
        (En, false) => "Settings here (the server's, with this channel's own marked)",
        (Ja, true) => "ここでの設定（サーバーの設定）",
        (Ja, false) => "ここでの設定（〔このチャンネル〕はこのチャンネルだけの設定）",
    };
    format!("{title}\n{}", lines.join("\n"))
}
