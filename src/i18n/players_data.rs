//! What `/play forget-me` says: the question before anything is erased, its buttons, and what
//! was done (docs/design/players-data.md#forget-me).

use super::counts::en_count;
use crate::domain::{DataCounts, Forgotten, Lang};

/// The question: what erasing will remove, named in counts, and that it cannot be undone.
pub(super) fn forget_question(counts: &DataCounts, lang: Lang) -> String {
    let DataCounts { finished_games, games_in_progress, moves_in_others_games, choices } = *counts;
    let mut lines = Vec::new();
    match lang {
        Lang::En => {
            lines.push("**Forget you?** I would erase, on every server:".to_string());
            if finished_games > 0 {
                lines.push(format!(
                    "- your name and id from {}, so your results and take-backs are gone",
                    en_count(finished_games, "finished game", "finished games")
                ));
            }
            if games_in_progress > 0 {
                lines.push(format!(
                    "- {} you are playing: they end now, as resigned",
                    en_count(games_in_progress, "game", "games")
                ));
            }
            if moves_in_others_games > 0 {
                lines.push(format!(
                    "- your id from {} you played in others' games",
                    en_count(moves_in_others_games, "move", "moves")
                ));
            }
            if choices {
                lines.push("- your own choices (reminders, hints)".to_string());
            }
            lines.push("Other players' games stay as they are. This cannot be undone.".to_string());
        }
        Lang::Ja => {
            lines.push("**あなたの記録を消しますか？** すべてのサーバーで、次のものを消します。".to_string());
            if finished_games > 0 {
                lines.push(format!(
                    "- 終わった対局 {finished_games} 局からあなたの名前とID（成績と待ったの記録も消えます）"
                ));
            }
            if games_in_progress > 0 {
                lines.push(format!("- 対局中の {games_in_progress} 局（いま投了として終わります）"));
            }
            if moves_in_others_games > 0 {
                lines.push(format!("- ほかの人の対局であなたが指した {moves_in_others_games} 手からあなたのID"));
            }
            if choices {
                lines.push("- あなたの設定（お知らせ、ヒント）".to_string());
            }
            lines.push("ほかの人の対局はそのまま残ります。元に戻すことはできません。".to_string());
        }
    }
    lines.join("\n")
}

/// Nothing is kept about the player: nothing to ask.
pub(super) fn nothing_kept(lang: Lang) -> String {
    match lang {
        Lang::En => "I keep nothing about you: no games, no choices. Nothing to erase.".into(),
        Lang::Ja => "あなたの記録はありません（対局も設定もありません）。消すものはありません。".into(),
    }
}

/// The button that erases.
pub(super) fn erase_button(lang: Lang) -> String {
    match lang {
        Lang::En => "Erase my data".into(),
        Lang::Ja => "記録を消す".into(),
    }
}

/// The button that keeps everything.
pub(super) fn keep_button(lang: Lang) -> String {
    match lang {
        Lang::En => "Keep it".into(),
        Lang::Ja => "消さない".into(),
    }
}

/// Done: what was erased.
pub(super) fn forgotten(done: &Forgotten, lang: Lang) -> String {
    let ended = done.ended.len();
    match lang {
        Lang::En => {
            let mut text = format!(
                "Done: I no longer know you. Your name and id are gone from {} you started, your id from {} \
                 you played{}.",
                en_count(done.games, "game", "games"),
                en_count(done.moves, "move", "moves"),
                if done.choices { ", and your choices are deleted" } else { "" }
            );
            if ended > 0 {
                text.push_str(&format!(" {} in progress ended.", en_count(ended as u64, "game", "games")));
            }
            text
        }
        Lang::Ja => {
            let mut text = format!(
                "消しました。あなたが始めた {} 局からあなたの名前とIDを、あなたが指した {} 手からIDを消しました{}。",
                done.games,
                done.moves,
                if done.choices { "。あなたの設定も消しました" } else { "" }
            );
            if ended > 0 {
                text.push_str(&format!("対局中だった {ended} 局は終わりました。"));
            }
            text
        }
    }
}

/// Cancelled: nothing was erased.
pub(super) fn kept(lang: Lang) -> String {
    match lang {
        Lang::En => "Nothing was erased.".into(),
        Lang::Ja => "何も消していません。".into(),
    }
}
