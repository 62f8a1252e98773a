//! Words about play: a finished game's result, the after-game summary of great moves and slips,
//! and the commentary on a move.

use super::names::{side_name, value_words};
use crate::domain::Lang;
use settai_core::Moment;
use settai_core::{Commentary, EndReason, GameKind, Outcome};

/// "Gote wins — lion captured", "黒の勝ち 40対24": [`Msg::Result`](super::Msg::Result).
pub(super) fn result_text(kind: GameKind, outcome: &Outcome, lang: Lang) -> String {
    let who = match (outcome.winner, lang) {
        (Some(side), Lang::En) => format!("{} wins", side_name(kind, side, lang)),
        (Some(side), Lang::Ja) => format!("{}の勝ち", side_name(kind, side, lang)),
        (None, Lang::En) => "Draw".into(),
        (None, Lang::Ja) => "引き分け".into(),
    };
    let score = match (outcome.score, lang) {
        (Some((a, b)), Lang::En) => format!(" {a}-{b}"),
        (Some((a, b)), Lang::Ja) => format!(" {a}対{b}"),
        (None, _) => String::new(),
    };
    let why = match (outcome.reason, lang) {
        (EndReason::Count, _) => "",
        (EndReason::LionCaptured, Lang::En) => " — lion captured",
        (EndReason::LionCaptured, Lang::Ja) => "（ライオンをとりました）",
        (EndReason::Try, Lang::En) => " — try! The lion reached the far side",
        (EndReason::Try, Lang::Ja) => "（トライ）",
        (EndReason::Repetition, Lang::En) => " — the same position three times",
        (EndReason::Repetition, Lang::Ja) => "（千日手）",
        (EndReason::NoMoves, Lang::En) => " — no moves left",
        (EndReason::NoMoves, Lang::Ja) => "（指せる手がありません）",
    };
    format!("{who}{score}{why}")
}

/// "Great moves: 12 B3B2, 20 a1. Slips: 7 c3." (the chart's markers in words).
pub(super) fn summary_text(finds: &[Moment], slips: &[Moment], lang: Lang) -> String {
    let list = |ms: &[Moment]| ms.iter().map(|m| format!("**{}** ({})", m.mv, m.ply)).collect::<Vec<_>>().join(", ");
    let mut parts = Vec::new();
    match lang {
        Lang::En => {
            if !finds.is_empty() {
                parts.push(format!("🌟 Great moves: {}.", list(finds)));
            }
            if !slips.is_empty() {
                parts.push(format!("🔍 Worth another look: {}.", list(slips)));
            }
            if parts.is_empty() {
                parts.push("📈 A steady game, no big swings.".into());
            }
        }
        Lang::Ja => {
            if !finds.is_empty() {
                parts.push(format!("🌟 好手：{}", list(finds)));
            }
            if !slips.is_empty() {
                parts.push(format!("🔍 ふりかえりたい手：{}", list(slips)));
            }
            if parts.is_empty() {
                parts.push("📈 大きなゆれのない、安定した対局でした。".into());
            }
        }
    }
    parts.join("\n")
}

pub(super) fn comment_text(c: &Commentary, lang: Lang) -> String {
    match c {
        Commentary::Doubutsu { mv, divergence, best, value, best_value } => {
            let (value, best_value) = (value_words(*value, lang), value_words(*best_value, lang));
            if best.contains(mv) {
                match lang {
                    Lang::En => format!("💡 **{mv}** was one of the best moves ({value})."),
                    Lang::Ja => format!("💡 **{mv}** は最善手です（{value}）。"),
                }
            } else {
                let best = best.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
                match lang {
                    Lang::En => format!(
                        "💡 **{mv}**: divergence {divergence:.2}; best was **{best}** ({best_value} → {value})."
                    ),
                    Lang::Ja => format!(
                        "💡 **{mv}**：最善手乖離度 {divergence:.2}。最善は **{best}**（{best_value} → {value}）。"
                    ),
                }
            }
        }
        Commentary::Reversi { mv, value, best, best_value } => {
            let loss = (best_value - value).max(0.0);
            if loss < 0.5 {
                match lang {
                    Lang::En => format!("💡 **{mv}** was one of the best moves (about {value:+.0} discs for you)."),
                    Lang::Ja => format!("💡 **{mv}** は最善手です（あなたから見て約{value:+.0}石）。"),
                }
            } else {
                match lang {
                    Lang::En => format!(
                        "💡 **{mv}** gave away about {loss:.0} discs; **{best}** was best (about {best_value:+.0} for you, now {value:+.0})."
                    ),
                    Lang::Ja => format!("💡 **{mv}** で約{loss:.0}石損しました。最善は **{best}**（約{best_value:+.0}石 → 約{value:+.0}石）。"),
                }
            }
        }
    }
}
