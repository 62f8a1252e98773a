//! `/play help`: how to play both games and, with commentary on, what the levels mean.

use super::counts::en_count;
use super::names::{kind_name, level_name};
use crate::domain::{Lang, Venue};
use settai_core::{doubutsu, reversi, GameKind, Level};

/// `/play help` (see [`Msg::Help`](super::Msg::Help)); well under Discord's 2,000 characters in both
/// languages, in every venue.
pub(super) fn help_text(commentary: bool, venue: Venue, idle_days: u32, lang: Lang) -> String {
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
            "**Tapping**: in doubutsu shogi the buttons under the picture are the board. Tap your animal, \
             then one of the squares that light up (tap another of your animals to change your mind); the \
             animals in your hand are in the last row. A red ⚠ square loses at once. In reversi, tap the number \
             written on the square where you want your disc. 📋 **Moves** lists your moves with their \
             squares (letters are columns, numbers rows), and **Resign**, which asks first. `/play move` \
             works too, and `/play board` shows the board again."
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
            "**タップで指す**：どうぶつしょうぎは、絵の下のボタンが盤です。自分のどうぶつをタップし、光ったマスを\
             タップします（ほかのどうぶつをタップすると選び直せます）。持ち駒は一番下の段です。赤い ⚠ のマスはすぐ負けて\
             しまう手です。リバーシは、石を置きたいマスに書いてある数字をタップします。📋 **てのいちらん**で指せる手\
             （アルファベットが列、数字が行）と**投了**（確かめてから投了）。`/play move` でも指せます。\
             `/play board` で盤面をもう一度表示します。"
                .into(),
        ],
    };
    if let Some(here) = without_managers(venue, idle_days, lang) {
        parts.push(here);
    }
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
            (Level::Reversi(reversi::ReversiLevel::NoMercy), Lang::En) => "— the computer plays to win",
            (Level::Reversi(reversi::ReversiLevel::NoMercy), Lang::Ja) => "…コンピューターが本気で勝ちにくる",
            (Level::Reversi(reversi::ReversiLevel::StandardClassic), Lang::En) => {
                "— the published sontaku rule, as the original article describes it"
            }
            (Level::Reversi(reversi::ReversiLevel::StandardClassic), Lang::Ja) => "…原典の忖度ルールそのまま",
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
            (Level::Doubutsu(doubutsu::DoubutsuLevel::SettaiClassic), Lang::En) => {
                "— the published settai rule, as the original article describes it"
            }
            (Level::Doubutsu(doubutsu::DoubutsuLevel::SettaiClassic), Lang::Ja) => "…原典の接待ルールそのまま",
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

/// How games go where nobody manages the settings (docs/design/private-channels.md): who
/// chooses and moves, and what the bot can and cannot do there on its own.
fn without_managers(venue: Venue, idle_days: u32, lang: Lang) -> Option<String> {
    let reminded = match (venue, lang) {
        (Venue::Server, _) => return None,
        (Venue::BotDm, Lang::En) => {
            "When a game waits for your move, I remind you here once (`/play remind off` stops it)."
        }
        (Venue::BotDm, Lang::Ja) => {
            "あなたの番で対局が止まっていたら、ここで一度お知らせします（`/play remind off` で止められます）。"
        }
        (Venue::PrivateChannel, Lang::En) => {
            "I can't post here on my own, only answer your taps. When a game waits for a move, the one who \
             started it is reminded once in their DM with me (`/play remind off` stops it); the others are not."
        }
        (Venue::PrivateChannel, Lang::Ja) => {
            "ここでは、わたしは自分からは書きこめず、タップに答えるだけです。対局が止まっていたら、始めた人にだけ\
             わたしとのDMで一度お知らせします（`/play remind off` で止められます）。"
        }
    };
    Some(match lang {
        Lang::En => format!(
            "**Here**: whoever starts a game picks the opponent and whether take-backs and commentary are on; \
             anyone here may move, and only the one who started may resign. {reminded} A game with no move for \
             {} is closed, and the next one to play is told.",
            en_count(idle_days, "day", "days")
        ),
        Lang::Ja => format!(
            "**ここでは**：ゲームを始めた人が、相手と、待ったや解説のあり・なしを選びます。ここにいる人ならだれでも\
             指せて、投了できるのは始めた人だけです。{reminded}{idle_days}日指されなかった対局は終了し、次に遊ぶ人に\
             そう伝えます。"
        ),
    })
}
