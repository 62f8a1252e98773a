//! The catalogue: every [`Msg`] as a sentence in English and Japanese, side by side so that a
//! translator reads them together; the longer texts have files of their own.

use super::counts::en_count;
use super::help::help_text;
use super::menus::MoveMenu;
use super::msg::Msg;
use super::names::{kind_name, level_name, opponent_hint, opponent_name, side_kana, side_name};
use super::players_data::{erase_button, forget_question, forgotten, keep_button, kept, nothing_kept};
use super::results::{comment_text, result_text, summary_text};
use super::settings::settings_text;
use crate::domain::{HouseRule, Lang};
use settai_core::{EndReason, GameKind, Level, Side};

impl Msg<'_> {
    /// The sentence in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        use Lang::*;
        match (self, lang) {
            (Msg::Started { kind, human, human_side }, En) => format!(
                "New game of {} — <@{human}> plays {}.",
                kind_name(*kind, En),
                Msg::SideName { kind: *kind, side: *human_side }.text(En)
            ),
            (Msg::Started { kind, human, human_side }, Ja) => format!(
                "{}を始めます。<@{human}> さんは{}です。",
                kind_name(*kind, Ja),
                Msg::SideName { kind: *kind, side: *human_side }.text(Ja)
            ),
            (Msg::YourMove { human }, En) => format!("<@{human}>, your move."),
            (Msg::YourMove { human }, Ja) => format!("<@{human}> さんの番です。"),
            (Msg::YouPlayed { mv }, En) => format!("You played **{mv}**."),
            (Msg::YouPlayed { mv }, Ja) => format!("あなたの手：**{mv}**"),
            (Msg::BotPlayed { mv }, En) if mv.is_pass() => "I have no move and pass.".into(),
            (Msg::BotPlayed { mv }, Ja) if mv.is_pass() => "打てる場所がないのでパスします。".into(),
            (Msg::BotPlayed { mv }, En) => format!("I play **{mv}**."),
            (Msg::BotPlayed { mv }, Ja) => format!("わたしの手：**{mv}**"),
            (Msg::YouPassed, En) => "You have no move, so you pass.".into(),
            (Msg::YouPassed, Ja) => "あなたは打てる場所がないのでパスです。".into(),
            (Msg::GameOver { human_won, score, reason }, lang) => {
                let how = match (reason, lang) {
                    (Some(EndReason::LionCaptured), En) => " The lion was caught.",
                    (Some(EndReason::LionCaptured), Ja) => "ライオンをとりました。",
                    (Some(EndReason::Try), En) => " Try! The lion reached the far side.",
                    (Some(EndReason::Try), Ja) => "トライ！ライオンが おくまで たどりつきました。",
                    (Some(EndReason::Repetition), En) => " The same position came up three times.",
                    (Some(EndReason::Repetition), Ja) => "おなじ ばめんが 3かい でました。",
                    (Some(EndReason::NoMoves), En) => " No moves were left.",
                    (Some(EndReason::NoMoves), Ja) => "させる てが なくなりました。",
                    _ => "",
                };
                let score = score.map(|(a, b)| format!(" ({a}-{b})")).unwrap_or_default();
                let verdict = Msg::GameOver { human_won: *human_won, score: None, reason: None };
                if !how.is_empty() {
                    return match lang {
                        En => format!("{}{how}", verdict.text(En)),
                        Ja => format!("{}{how}", verdict.text(Ja)),
                    };
                }
                match (human_won, lang) {
                    (Some(true), En) => format!("Game over: you win{score}! Well played!"),
                    (Some(true), Ja) => format!("おしまい：あなたの かち{score}！おみごと！"),
                    (Some(false), En) => format!("Game over: I win{score}. Good game — another one?"),
                    (Some(false), Ja) => format!("おしまい：わたしの かち{score}。もう いっかい どう？"),
                    (None, En) => format!("Game over: a draw{score}. Good game!"),
                    (None, Ja) => format!("おしまい：ひきわけ{score}。いい しょうぶ でした！"),
                }
            }
            (Msg::Result { kind, outcome }, lang) => result_text(*kind, outcome, lang),
            (Msg::Resigned, En) => "You resigned. Good game!".into(),
            (Msg::Resigned, Ja) => "投了しました。ありがとうございました！".into(),
            (Msg::ChannelBusy, En) => "A game is already in progress here. `/play board` shows it.".into(),
            (Msg::ChannelBusy, Ja) => "このチャンネルでは対局中です。`/play board` で盤面を表示できます。".into(),
            (Msg::NoGame, En) => {
                "There is no game in this channel. Start one with `/play reversi` or `/play doubutsu`.".into()
            }
            (Msg::NoGame, Ja) => {
                "このチャンネルに対局はありません。`/play reversi` か `/play doubutsu` で始めましょう。".into()
            }
            (Msg::Unavailable { kind, minutes: None }, En) => {
                format!("{} is not ready on this server yet. Please try another game for now.", kind_name(*kind, En))
            }
            (Msg::Unavailable { kind, minutes: None }, Ja) => {
                format!("{}はまだ準備中です。いまは別のゲームで遊んでください。", kind_name(*kind, Ja))
            }
            (Msg::Unavailable { kind, minutes: Some(m) }, En) => format!(
                "{} is being set up on this server: ready in about {m} minute{}. Reversi is ready now.",
                kind_name(*kind, En),
                if *m == 1 { "" } else { "s" }
            ),
            (Msg::Unavailable { kind, minutes: Some(m) }, Ja) => {
                format!("{}は準備中です。あと{m}分ほどで遊べます。リバーシならすぐ遊べます。", kind_name(*kind, Ja))
            }
            (Msg::NotYourGame { owner }, En) => {
                format!("This is <@{owner}>'s game. Start your own in another channel or thread.")
            }
            (Msg::NotYourGame { owner }, Ja) => {
                format!("これは <@{owner}> さんの対局です。別のチャンネルかスレッドで始めてください。")
            }
            (Msg::NotYourTurn, En) => "It is not your turn yet.".into(),
            (Msg::NotYourTurn, Ja) => "まだあなたの番ではありません。".into(),
            (Msg::StaleBoard, En) => "This board is out of date — use the newest one (or `/play board`).".into(),
            (Msg::StaleBoard, Ja) => {
                "この盤面は古くなっています。最新の盤面（または `/play board`）を使ってください。".into()
            }
            (Msg::AlreadyPlayed, En) => "That move was already played.".into(),
            (Msg::AlreadyPlayed, Ja) => "その手はもう指されています。".into(),
            (Msg::BadMove { input, reason, .. }, En) => format!("`{input}` is not a move: {reason}."),
            (Msg::BadMove { kind: GameKind::Reversi, input, .. }, Ja) => format!("`{input}` は手として読めません。例：`d3`"),
            (Msg::BadMove { kind: GameKind::Doubutsu, input, .. }, Ja) => {
                format!("`{input}` は手として読めません。例：`B3B2`（駒を動かす）、`E*B2`（持ち駒を打つ）")
            }
            (Msg::IllegalMove { input, legal, .. }, En) => format!("`{input}` is not legal here. Legal moves: {legal}"),
            (Msg::IllegalMove { kind: GameKind::Reversi, input, legal }, Ja) => {
                format!("`{input}` には打てません。打てる場所：{legal}")
            }
            (Msg::IllegalMove { kind: GameKind::Doubutsu, input, legal }, Ja) => {
                format!("`{input}` は指せません。指せる手：{legal}")
            }
            (Msg::TryAgain, En) => "Something went wrong on my side. Please try again in a moment.".into(),
            (Msg::TryAgain, Ja) => "うまくいきませんでした。少し待ってからもう一度お試しください。".into(),
            (Msg::ManagersOnly, En) => "Only members who can manage this server can change settings.".into(),
            (Msg::ManagersOnly, Ja) => "設定を変えられるのはサーバーの管理者だけです。".into(),
            (Msg::NoManagers, En) => "Settings belong to a server's managers, and a private conversation has none. \
                 Here whoever starts a game chooses the opponent and whether take-backs and commentary are on, \
                 anyone in the conversation may move, and the one who started may resign."
                .into(),
            (Msg::NoManagers, Ja) => "設定はサーバーの管理者が決めるものですが、ここのような個人の会話には管理者がいません。\
                 ここでは、ゲームを始めた人が相手と、待ったや解説のあり・なしを選び、会話にいる人ならだれでも指せます。\
                 投了できるのは始めた人です。"
                .into(),
            (Msg::Settings { settings, hints_choice }, lang) => settings_text(settings, *hints_choice, lang),
            (Msg::ChoiceSet { on: true }, En) => {
                "Players now **choose their opponent** when they start a game.".into()
            }
            (Msg::ChoiceSet { on: false }, En) => "Players no longer choose: games start at the level set here.".into(),
            (Msg::ChoiceSet { on: true }, Ja) => "対局を始めるとき、プレイヤーが**対戦相手を選べる**ようにしました。".into(),
            (Msg::ChoiceSet { on: false }, Ja) => "対戦相手は選べなくなりました。ここで設定したレベルで始まります。".into(),
            (Msg::ForThisChannel, En) => "(This channel and its threads only.)".into(),
            (Msg::ForThisChannel, Ja) => "（このチャンネルとそのスレッドだけ）".into(),
            (Msg::ChannelReset { had: true }, En) => "This channel now follows the server's settings again.".into(),
            (Msg::ChannelReset { had: false }, En) => "This channel already follows the server's settings.".into(),
            (Msg::ChannelReset { had: true }, Ja) => "このチャンネルの設定をサーバーの設定に戻しました。".into(),
            (Msg::ChannelReset { had: false }, Ja) => "このチャンネルはもともとサーバーの設定のままです。".into(),
            (Msg::Busy, En) => "I'm thinking about a lot of games right now. Please try again in a moment!".into(),
            (Msg::Busy, Ja) => "いま、たくさんの対局を考えています。少し待ってからもう一度どうぞ。".into(),
            (Msg::CorruptGame, En) => {
                "Sorry, this game's saved record was damaged, so I closed it rather than guess. Start a new one with /play."
                    .into()
            }
            (Msg::CorruptGame, Ja) => {
                "ごめんなさい、この対局の記録がこわれていたので、推測せずに終了しました。/play で新しく始めてください。".into()
            }
            (Msg::NoLevelChoice, En) => "Opponents can't be chosen here any more. Start with /play again.".into(),
            (Msg::NoLevelChoice, Ja) => "ここでは対戦相手を選べなくなりました。/play からもう一度どうぞ。".into(),
            (Msg::ChooseOpponent { kind }, En) => format!("Who would you like to play {} with?", kind_name(*kind, En)),
            (Msg::ChooseOpponent { kind }, Ja) => format!("{}、だれと対局する？", kind_name(*kind, Ja)),
            (Msg::PickOpponent, En) => "Choose an opponent".into(),
            (Msg::PickOpponent, Ja) => "対戦相手をえらぶ".into(),
            (Msg::Opponent { level }, lang) => opponent_name(*level, lang).into(),
            (Msg::OpponentHint { level, reveal: true }, lang) => level_name(*level, lang).into(),
            (Msg::OpponentHint { level, reveal: false }, lang) => opponent_hint(*level, lang).into(),
            (Msg::OpponentChosen { level }, En) => format!("✓ You chose {}.", opponent_name(*level, En)),
            (Msg::OpponentChosen { level }, Ja) => format!("✓ {}をえらびました。", opponent_name(*level, Ja)),
            (Msg::BoardWasOld, En) => "That board was out of date. Here is the game now:".into(),
            (Msg::BoardWasOld, Ja) => "その盤面は古くなっていました。いまの対局はこちら：".into(),
            (Msg::NotAddedHere, En) => "I haven't been added to this server, so I can't keep a game here. \
                 Ask a server manager to add me, or play with me in a DM or group DM."
                .into(),
            (Msg::NotAddedHere, Ja) => "このサーバーにはまだ追加されていないので、ここでは対局できません。\
                 サーバーの管理者に追加をたのむか、DMやグループDMで遊んでね。"
                .into(),
            (Msg::ClosedIdle, En) => {
                "The game here was closed because it waited too long for a move. Start a new one with /play!".into()
            }
            (Msg::ClosedIdle, Ja) => "ここの対局は、長いあいだ指されなかったので終了しました。/play で新しく始めてね。".into(),
            (Msg::HouseRulesNote, En) => "Tap a button to change this game's rules, then choose.".into(),
            (Msg::HouseRulesNote, Ja) => "ボタンでこの対局のルールを変えてから、えらんでね。".into(),
            (Msg::HouseRuleToggle { rule, on }, lang) => {
                let (name, state) = match (rule, lang) {
                    (HouseRule::Takeback, En) => ("↩ Take-backs", if *on { "on" } else { "off" }),
                    (HouseRule::Commentary, En) => ("💬 Commentary", if *on { "on" } else { "off" }),
                    (HouseRule::Takeback, Ja) => ("↩ 待った", if *on { "あり" } else { "なし" }),
                    (HouseRule::Commentary, Ja) => ("💬 解説", if *on { "あり" } else { "なし" }),
                };
                match lang {
                    En => format!("{name}: {state}"),
                    Ja => format!("{name}：{state}"),
                }
            }
            (Msg::LevelSet { kind, level }, En) => format!(
                "{} will now be played at **{}**. Games in progress keep their level; new games use this one.",
                kind_name(*kind, En),
                level_name(*level, En)
            ),
            (Msg::LevelSet { kind, level }, Ja) => format!(
                "{}のレベルを **{}** にしました。対局中のゲームはそのまま、次の対局から変わります。",
                kind_name(*kind, Ja),
                level_name(*level, Ja)
            ),
            (Msg::LevelNotForGame { kind }, lang) => {
                let names: Vec<&str> = Level::for_kind(*kind).iter().map(|l| level_name(*l, lang)).collect();
                match lang {
                    En => format!("{} has the levels {}.", kind_name(*kind, En), names.join(", ")),
                    Ja => format!("{}のレベルは {} です。", kind_name(*kind, Ja), names.join("、")),
                }
            }
            (Msg::CommentarySet { on: true }, En) => {
                "Move commentary is **on**: after each move, players see how good it was.".into()
            }
            (Msg::CommentarySet { on: false }, En) => "Move commentary is **off**.".into(),
            (Msg::CommentarySet { on: true }, Ja) => {
                "一手ごとの解説を**オン**にしました。毎手、その手の良さを表示します。".into()
            }
            (Msg::CommentarySet { on: false }, Ja) => "一手ごとの解説を**オフ**にしました。".into(),
            (Msg::ChartTitle, En) => "How your game went (your side, after each move)".into(),
            (Msg::ChartTitle, Ja) => "対局のながれ（あなたから見た形勢）".into(),
            (Msg::ChartWinning, En) => "winning".into(),
            (Msg::ChartWinning, Ja) => "勝ち".into(),
            (Msg::ChartLosing, En) => "losing".into(),
            (Msg::ChartLosing, Ja) => "負け".into(),
            (Msg::ChartDiscs { discs }, En) => format!("{discs:+}"),
            (Msg::ChartDiscs { discs }, Ja) => format!("{discs:+}石"),
            (Msg::ChartPlies { plies }, En) => format!("move {plies}"),
            (Msg::ChartPlies { plies }, Ja) => format!("{plies}手"),
            (Msg::ChartFinds, En) => "great moves".into(),
            (Msg::ChartFinds, Ja) => "好手".into(),
            (Msg::ChartSlips, En) => "slips".into(),
            (Msg::ChartSlips, Ja) => "惜しい手".into(),
            (Msg::Summary { finds, slips }, lang) => summary_text(finds, slips, lang),
            (Msg::Replay, En) => "🎞️ The whole game, move by move.".into(),
            (Msg::Replay, Ja) => "🎞️ 対局をふりかえり（一手ずつ再生）".into(),
            (Msg::PictureMissing, En) => "(The picture could not be drawn this time; the buttons still play.)".into(),
            (Msg::PictureMissing, Ja) => "（今回は盤の絵をかけませんでした。ボタンでそのまま指せます。）".into(),
            (Msg::Computer, En) => "Computer".into(),
            (Msg::Computer, Ja) => "コンピューター".into(),
            (Msg::BoardTurn { to_move: None, .. }, En) => "Game over".into(),
            (Msg::BoardTurn { to_move: None, .. }, Ja) => "おしまい".into(),
            (Msg::BoardTurn { to_move: Some(side), human: Some(human), .. }, En) if side == human => "Your move".into(),
            (Msg::BoardTurn { to_move: Some(_), human: Some(_), .. }, En) => "Computer's move".into(),
            (Msg::BoardTurn { kind, to_move: Some(side), human: None }, En) => {
                format!("{} to move", side_name(*kind, *side, En))
            }
            (Msg::BoardTurn { to_move: Some(side), human: Some(human), .. }, Ja) if side == human => "あなたのばん".into(),
            (Msg::BoardTurn { to_move: Some(_), human: Some(_), .. }, Ja) => "コンピューターのばん".into(),
            (Msg::BoardTurn { kind, to_move: Some(side), human: None }, Ja) => format!("{}のばん", side_kana(*kind, *side)),
            (Msg::BoardSeat { side, human: Some(human), .. }, En) if side == human => "You".into(),
            (Msg::BoardSeat { human: Some(_), .. }, En) => Msg::Computer.text(En),
            (Msg::BoardSeat { side, human: Some(human), .. }, Ja) if side == human => "あなた".into(),
            (Msg::BoardSeat { human: Some(_), .. }, Ja) => Msg::Computer.text(Ja),
            (Msg::BoardSeat { kind, side, human: None }, En) => side_name(*kind, *side, En).into(),
            (Msg::BoardSeat { kind, side, human: None }, Ja) => side_kana(*kind, *side).into(),
            (Msg::Comment(c), lang) => comment_text(c, lang),
            (Msg::Help { commentary, venue, idle_days }, lang) => help_text(*commentary, *venue, *idle_days, lang),
            (Msg::TakebackSet { on: true }, En) => {
                "Players may now **take back** their last move (待った) with the ↩ button under the board or `/play takeback`; `/play stats` counts them.".into()
            }
            (Msg::TakebackSet { on: false }, En) => "Take-backs are **off**: a move stands once played.".into(),
            (Msg::TakebackSet { on: true }, Ja) => {
                "**待った**をオンにしました。盤面の下の ↩ ボタンか `/play takeback` で直前の自分の手を取り消せます（回数は `/play stats` に出ます）。".into()
            }
            (Msg::TakebackSet { on: false }, Ja) => "**待った**をオフにしました。指した手は取り消せません。".into(),
            (Msg::HintsSet { on: true }, En) => {
                "Hints are **on**: in doubutsu shogi, risky moves get a ⚠ and come last in the menus, and \
                 a young player hears when their lion is in danger."
                    .into()
            }
            (Msg::HintsSet { on: false }, En) => "Hints are **off**: the menus list every move alike.".into(),
            (Msg::HintsSet { on: true }, Ja) => {
                "**ヒント**をオンにしました。どうぶつしょうぎで、あぶない手に ⚠ がつき、メニューの最後に並びます。\
                 ライオンがねらわれているときはお知らせします。"
                    .into()
            }
            (Msg::HintsSet { on: false }, Ja) => "**ヒント**をオフにしました。メニューはすべての手を同じように並べます。".into(),
            (Msg::HintsChosen { on: true }, En) => {
                "Your hints are **on**, on every server: in doubutsu shogi, your risky moves get a ⚠ and \
                 come last in the menus, and the board tells you when your lion is in danger."
                    .into()
            }
            (Msg::HintsChosen { on: false }, En) => {
                "Your hints are **off**, on every server: your menus list every move alike. `/play hints on` \
                 brings them back."
                    .into()
            }
            (Msg::HintsChosen { on: true }, Ja) => {
                "あなたの**ヒント**をオンにしました（どのサーバーでも）。どうぶつしょうぎで、あぶない手に ⚠ がつき、\
                 メニューの最後に並びます。ライオンがねらわれているときは盤面でお知らせします。"
                    .into()
            }
            (Msg::HintsChosen { on: false }, Ja) => {
                "あなたの**ヒント**をオフにしました（どのサーバーでも）。メニューはすべての手を同じように並べます。\
                 `/play hints on` でもどせます。"
                    .into()
            }
            (Msg::LionInDanger, En) => "🦁 Careful! Your lion is in danger. Look around it before you move.".into(),
            (Msg::LionInDanger, Ja) => "🦁 気をつけて！ライオンがねらわれているよ。まわりをよく見てから指そう。".into(),
            (Msg::OfferTakeback, En) => "Oops! That was a risky move. Want to take it back? Tap ↩.".into(),
            (Msg::OfferTakeback, Ja) => "おっと！いまの ては あぶないよ。まったする？ ↩ をタップしてね。".into(),
            (Msg::RiskyMark, _) => "⚠".into(),
            (Msg::ListButton, En) => "Moves".into(),
            (Msg::ListButton, Ja) => "てのいちらん".into(),
            (Msg::MovesAsList, En) => "Your moves as a list (only you see it). Choosing one plays it, as tapping the board does.".into(),
            (Msg::MovesAsList, Ja) => "指せる手の一覧です（あなたにだけ見えます）。選ぶと、盤のボタンと同じように指せます。".into(),
            (Msg::GameBox, En) => "🎲 Tap a game to play!".into(),
            (Msg::GameBox, Ja) => "🎲 あそぶ ゲームを タップしてね！".into(),
            (Msg::AgainButton, En) => "Again".into(),
            (Msg::AgainButton, Ja) => "もういっかい".into(),
            (Msg::TookBack, En) => "↩ Move taken back: the board is as it was before your last move.".into(),
            (Msg::TookBack, Ja) => "↩ 待った！あなたの直前の手の前にもどしました。".into(),
            (Msg::TakebackButton, En) => "Take back".into(),
            (Msg::TakebackButton, Ja) => "まった".into(),
            (Msg::TakebackOff, En) => "Take-backs are not allowed here.".into(),
            (Msg::TakebackOff, Ja) => "ここでは待ったはできません。".into(),
            (Msg::NothingToTakeBack, En) => "You have no move to take back yet.".into(),
            (Msg::NothingToTakeBack, Ja) => "まだ取り消せる手がありません。".into(),
            (Msg::HowAnimalsMove, En) => "How the animals move (the dots show the way)".into(),
            (Msg::HowAnimalsMove, Ja) => "どうぶつの動き方（点の向きに1マス）".into(),
            (Msg::Promotion, En) => "A chick on the far row becomes a hen".into(),
            (Msg::Promotion, Ja) => "ひよこは奥の段でニワトリに".into(),
            (Msg::Stats { human, results }, En) => {
                let parts: Vec<String> = results
                    .iter()
                    .map(|(k, r)| {
                        let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
                        let taken = match r.takebacks {
                            0 => String::new(),
                            n => format!(" ({})", plural(n, "take-back", "take-backs")),
                        };
                        format!(
                            "{}: {}, {}, {}{taken}",
                            kind_name(*k, En),
                            plural(r.wins, "win", "wins"),
                            plural(r.losses, "loss", "losses"),
                            plural(r.draws, "draw", "draws")
                        )
                    })
                    .collect();
                format!("<@{human}>'s games here — {}", parts.join("; "))
            }
            (Msg::Stats { human, results }, Ja) => {
                let parts: Vec<String> = results
                    .iter()
                    .map(|(k, r)| {
                        let taken = if r.takebacks == 0 { String::new() } else { format!("（待った{}回）", r.takebacks) };
                        format!("{} {}勝{}敗{}分{taken}", kind_name(*k, Ja), r.wins, r.losses, r.draws)
                    })
                    .collect();
                format!("<@{human}> さんの成績：{}", parts.join("、"))
            }
            (Msg::TeamSet { on: true }, En) => {
                "Family team mode is **on**: anyone in the channel may move in its game (only the player who started can resign).".into()
            }
            (Msg::TeamSet { on: false }, En) => "Family team mode is **off**: only the player who started a game moves in it.".into(),
            (Msg::TeamSet { on: true }, Ja) => {
                "家族チームを**オン**にしました。チャンネルの誰でも指せます（投了は始めた人だけ）。".into()
            }
            (Msg::TeamSet { on: false }, Ja) => "家族チームを**オフ**にしました。対局を始めた人だけが指せます。".into(),
            (Msg::LanguageSet { language: None }, En) => "Language: **each player's Discord language**".into(),
            (Msg::LanguageSet { language: Some(En) }, En) => "Language: **English** for everyone".into(),
            (Msg::LanguageSet { language: Some(Ja) }, En) => "Language: **Japanese** for everyone".into(),
            (Msg::LanguageSet { language: None }, Ja) => "言語：**各プレイヤーの Discord の言語**".into(),
            (Msg::LanguageSet { language: Some(En) }, Ja) => "言語：全員**英語**".into(),
            (Msg::LanguageSet { language: Some(Ja) }, Ja) => "言語：全員**日本語**".into(),
            (Msg::IdleSet { days }, En) => {
                format!(
                    "Games that wait longer than **{}** for a move will be closed (running games included).",
                    en_count(*days, "day", "days")
                )
            }
            (Msg::IdleSet { days }, Ja) => {
                format!("**{days}日**指されなかった対局は終了するようにしました（対局中のものも含みます）。")
            }
            (Msg::Expired { human, days }, En) => {
                format!(
                    "<@{human}>, this game waited {} for a move, so I closed it. `/play` starts a new one any time!",
                    en_count(*days, "day", "days")
                )
            }
            (Msg::Expired { human, days }, Ja) => {
                format!("<@{human}> さん、{days}日間指されなかったので、この対局は終了しました。`/play` でいつでも新しく始められます！")
            }
            (Msg::Reminder { human, kind, link: Some(link) }, En) => format!(
                "<@{human}>, your game of {} is waiting for your move: {link}\n-# `/play remind off` turns these \
                 reminders off.",
                kind_name(*kind, En)
            ),
            (Msg::Reminder { human, kind, link: None }, En) => format!(
                "<@{human}>, your game of {} is waiting for your move. Here is the board!\n-# `/play remind off` \
                 turns these reminders off.",
                kind_name(*kind, En)
            ),
            (Msg::Reminder { human, kind, link }, Ja) => format!(
                "<@{human}> さん、{}があなたの番で待っています{}\n-# `/play remind off` でお知らせを止められます。",
                kind_name(*kind, Ja),
                link.map_or_else(|| "。盤面はこちらです！".to_string(), |l| format!("：{l}"))
            ),
            (Msg::FinalNotice { human, kind, link }, En) => format!(
                "<@{human}>, your game of {} will be closed tomorrow if nobody moves. One move keeps it going{}",
                kind_name(*kind, En),
                link.map_or_else(|| " — here is the board!".to_string(), |l| format!(": {l}"))
            ),
            (Msg::FinalNotice { human, kind, link }, Ja) => format!(
                "<@{human}> さん、{}はこのままだとあした終了します。一手指せば続けられます{}",
                kind_name(*kind, Ja),
                link.map_or_else(|| "。盤面はこちらです！".to_string(), |l| format!("：{l}"))
            ),
            (Msg::RemindSet { on: true }, En) => {
                "Reminders are **on**: I'll tell you when a game has waited a while for your move.".into()
            }
            (Msg::RemindSet { on: false }, En) => {
                "Reminders are **off**: I won't remind you of games waiting for you, on any server.".into()
            }
            (Msg::RemindSet { on: true }, Ja) => {
                "お知らせを**オン**にしました。対局があなたの番でしばらく待っているとお知らせします。".into()
            }
            (Msg::RemindSet { on: false }, Ja) => {
                "お知らせを**オフ**にしました。どのサーバーでも、待っている対局のお知らせはしません。".into()
            }
            (Msg::RemindersSet { hours: 0 }, En) => "Reminders are **off**: nobody is reminded of a waiting game.".into(),
            (Msg::RemindersSet { hours }, En) => format!(
                "A player whose move a game has waited **{}** for gets one reminder, and a notice the day \
                 before the game would be closed.",
                en_count(*hours, "hour", "hours")
            ),
            (Msg::RemindersSet { hours: 0 }, Ja) => "お知らせを**オフ**にしました。待っている対局のお知らせはしません。".into(),
            (Msg::RemindersSet { hours }, Ja) => format!(
                "**{hours}時間**指されていない対局は、その人に一度お知らせします。終了の前日にもお知らせします。"
            ),
            (Msg::AlreadyHandled, En) => "This was already done.".into(),
            (Msg::AlreadyHandled, Ja) => "これはもう受け付けました。".into(),
            (Msg::ResignButton, En) => "Resign".into(),
            (Msg::ResignButton, Ja) => "投了".into(),
            (Msg::ResignConfirm, En) => "Resign this game? It will count as a loss.".into(),
            (Msg::ResignConfirm, Ja) => "投了しますか？負けになります。".into(),
            (Msg::ResignYes, En) => "Yes, resign".into(),
            (Msg::ResignYes, Ja) => "投了する".into(),
            (Msg::ResignNo, En) => "Keep playing".into(),
            (Msg::ResignNo, Ja) => "続ける".into(),
            (Msg::MissingPermissions { needed }, lang) => {
                let names: Vec<&str> = needed.iter().map(|n| n.name(lang)).collect();
                match lang {
                    En => format!(
                        "I can't show a game here: I need the permission {} in this channel. Ask a server manager, \
                         please.",
                        names.join(", ")
                    ),
                    Ja => format!(
                        "ここではゲームを表示できません。このチャンネルで「{}」の権限が必要です。サーバーの管理者に頼んでください。",
                        names.join("」「")
                    ),
                }
            }
            (Msg::KeepPlaying, En) => "Good, the game goes on!".into(),
            (Msg::KeepPlaying, Ja) => "対局を続けましょう！".into(),
            (Msg::MenuOf { menu, more }, lang) => {
                let what = match (menu, lang) {
                    (MoveMenu::Lion, En) => "Move the lion 🦁",
                    (MoveMenu::Lion, Ja) => "ライオン🦁を動かす",
                    (MoveMenu::Animals, En) => "Move another animal",
                    (MoveMenu::Animals, Ja) => "ほかの動物を動かす",
                    (MoveMenu::Hand, En) => "Drop a piece from your hand",
                    (MoveMenu::Hand, Ja) => "持ち駒を打つ",
                    (MoveMenu::Discs, En) => "Place a disc",
                    (MoveMenu::Discs, Ja) => "石を置く",
                };
                match (more, lang) {
                    (false, _) => what.into(),
                    (true, En) => format!("{what} (more)"),
                    (true, Ja) => format!("{what}（つづき）"),
                }
            }
            (Msg::SideName { kind: GameKind::Reversi, side: Side::First }, En) => "black".into(),
            (Msg::SideName { kind: GameKind::Reversi, side: Side::Second }, En) => "white".into(),
            (Msg::SideName { kind: GameKind::Reversi, side: Side::First }, Ja) => "黒".into(),
            (Msg::SideName { kind: GameKind::Reversi, side: Side::Second }, Ja) => "白".into(),
            (Msg::SideName { kind: GameKind::Doubutsu, side: Side::First }, En) => "sente (first to move)".into(),
            (Msg::SideName { kind: GameKind::Doubutsu, side: Side::Second }, En) => "gote".into(),
            (Msg::SideName { kind: GameKind::Doubutsu, side: Side::First }, Ja) => "先手".into(),
            (Msg::SideName { kind: GameKind::Doubutsu, side: Side::Second }, Ja) => "後手".into(),
            (Msg::ForgetQuestion { counts }, lang) => forget_question(counts, lang),
            (Msg::NothingKept, lang) => nothing_kept(lang),
            (Msg::EraseButton, lang) => erase_button(lang),
            (Msg::KeepButton, lang) => keep_button(lang),
            (Msg::Forgotten { done }, lang) => forgotten(done, lang),
            (Msg::Kept, lang) => kept(lang),
        }
    }
}
