//! `/play help`: how to play both games and, with commentary on, what the levels mean.

use super::names::{kind_name, level_name};
use crate::domain::Lang;
use settai_core::{doubutsu, reversi, GameKind, Level};

/// `/play help` (see [`Msg::Help`](super::Msg::Help)); well under Discord's 2,000 characters in both languages.
pub(super) fn help_text(commentary: bool, lang: Lang) -> String {
    let mut parts: Vec<String> = match lang {
        Lang::En => vec![
            "**How to play**".into(),
            "**Reversi** (8×8): put a disc so that a line of the computer's discs lies between it and one of \
             yours; they all turn to your colour. Black starts. If you cannot put a disc anywhere, you pass. \
             When neither side can, whoever has more discs wins."
                .into(),
            "**Doubutsu shogi** (3×4): you sit at the bottom and move first. Each animal steps one square \
             the ways its dots show (see the picture). Step onto an animal to take it: it joins your hand, \
             and on a later turn you may drop it on any empty square instead of moving. A chick that reaches \
             the far row becomes a hen. Take the lion to win, or walk your lion onto the far row where it \
             cannot be taken (a *try*). The same position three times is a draw."
                .into(),
            "**Tapping**: under each board, open the menu and tap your move. `d3 (flips 2)` puts a disc on \
             d3; `🐥 B3 → B2 (takes 🐥)` moves your chick from B3 to B2; `Drop 🐘 on B2` puts the elephant \
             from your hand on B2. Letters name the columns and numbers the rows, as written around the \
             board. `/play move` works too, `/play board` shows the board again, and **Resign** asks \
             before it gives up."
                .into(),
        ],
        Lang::Ja => vec![
            "**遊び方**".into(),
            "**リバーシ**（8×8）：相手の石を自分の石ではさむように置くと、はさんだ石がぜんぶ自分の色になります。\
             黒が先に打ちます。打てる場所がなければパス。どちらも打てなくなったら、石の多いほうの勝ちです。"
                .into(),
            "**どうぶつしょうぎ**（3×4）：あなたは下側で、先に指します。どうぶつは、こまの点の向きに1マス動けます\
             （絵を見てね）。相手のこまのマスに動くと取れて、持ち駒になります。持ち駒は、動かすかわりに空いている\
             マスに打てます。ひよこは奥の段に着くとニワトリになります。ライオンを取るか、自分のライオンが取られずに\
             奥の段に着けば（トライ）勝ち。同じ局面が3回あらわれたら引き分けです。"
                .into(),
            "**タップで指す**：盤面の下のメニューを開いて、手をタップします。`d3（2枚返す）` は d3 に石を置く手、\
             `🐥 B3 → B2（🐥を取る）` はひよこを B3 から B2 へ動かす手、`🐘をB2に打つ` は持ち駒のゾウを B2 に\
             打つ手です。アルファベットが列、数字が行で、盤のまわりに書いてあります。`/play move` でも指せます。\
             `/play board` で盤面をもう一度表示、**投了**ボタンは確かめてから投了します。"
                .into(),
        ],
    };
    if commentary {
        let levels = |kind: GameKind, what: &dyn Fn(Level) -> &'static str| {
            let list: Vec<String> =
                Level::for_kind(kind).iter().map(|&l| format!("**{}** {}", level_name(l, lang), what(l))).collect();
            match lang {
                Lang::En => format!("{}: {}", kind_name(kind, lang), list.join("; ")),
                Lang::Ja => format!("{}：{}", kind_name(kind, lang), list.join("、")),
            }
        };
        let meaning = |l: Level| match (l, lang) {
            (Level::Reversi(reversi::ReversiLevel::Standard), Lang::En) => {
                "— a close game you usually win by a few discs"
            }
            (Level::Reversi(reversi::ReversiLevel::Standard), Lang::Ja) => "…数枚差で勝てることの多い接戦",
            (Level::Reversi(reversi::ReversiLevel::Highest), Lang::En) => "— you win by a lot",
            (Level::Reversi(reversi::ReversiLevel::Highest), Lang::Ja) => "…大差で勝てる",
            (Level::Reversi(reversi::ReversiLevel::None), Lang::En) => "— the computer plays to win",
            (Level::Reversi(reversi::ReversiLevel::None), Lang::Ja) => "…コンピューターが本気で勝ちにくる",
            (Level::Doubutsu(doubutsu::DoubutsuLevel::Settai), Lang::En) => {
                "— answers a good move with a good one and a slip with a slip: always close"
            }
            (Level::Doubutsu(doubutsu::DoubutsuLevel::Settai), Lang::Ja) => {
                "…よい手にはよい手、ゆるい手にはゆるい手で応える、いつもいい勝負"
            }
            (Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest), Lang::En) => "— perfect play",
            (Level::Doubutsu(doubutsu::DoubutsuLevel::Strongest), Lang::Ja) => "…完全に読み切った手",
            (Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest), Lang::En) => {
                "— plays at random, but never misses a win in one"
            }
            (Level::Doubutsu(doubutsu::DoubutsuLevel::Weakest), Lang::Ja) => {
                "…でたらめに指すが、一手で勝てる手は逃さない"
            }
        };
        let (title, how) = match lang {
            Lang::En => (
                "**Levels** (server managers choose them with `/settings level`)",
                "The commentary after each move says how good it was.",
            ),
            Lang::Ja => (
                "**レベル**（サーバー管理者が `/settings level` で選びます）",
                "毎手のあとの解説で、その手の良さがわかります。",
            ),
        };
        parts.push(format!(
            "{title}\n{}\n{}\n{how}",
            levels(GameKind::Reversi, &meaning),
            levels(GameKind::Doubutsu, &meaning)
        ));
    }
    parts.join("\n\n")
}
