//! Every player-facing sentence, in English and Japanese, in one place.
//!
//! Past 500 lines on purpose: one job, the catalogue; keeping every sentence of both languages
//! in one file is what lets a translator read them side by side.

use crate::domain::{PlayerRecord, Setting, Settings};
use settai_core::doubutsu::Role;
use settai_core::doubutsu::Value;
use settai_core::story::Moment;
use settai_core::{doubutsu, reversi, Commentary, EndReason, GameKind, GameMove, Level, MoveDetail, Outcome, Side};

pub use crate::domain::Lang;

/// Something the bot says.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg<'a> {
    /// A game started.
    Started { kind: GameKind, human: u64, human_side: Side },
    /// It is the human's turn.
    YourMove { human: u64 },
    /// The human's move (echo).
    YouPlayed { mv: GameMove },
    /// The bot's move.
    BotPlayed { mv: GameMove },
    /// The human had no move and passed automatically.
    YouPassed,
    /// The game ended; `human_won` is None for a draw.
    GameOver { human_won: Option<bool>, score: Option<(u32, u32)>, reason: Option<EndReason> },
    /// A finished game's result told without a "you": who won, the score, why (the banner of
    /// boards rendered outside a game, such as `settai render`).
    Result { kind: GameKind, outcome: Outcome },
    /// The game cannot be started at this server's level yet; `minutes` is about how long
    /// until it can, while its table is being built.
    Unavailable { kind: GameKind, minutes: Option<u64> },
    /// The human resigned.
    Resigned,
    /// The channel already has a game.
    ChannelBusy,
    /// No game in this channel.
    NoGame,
    /// Someone else's game.
    NotYourGame { owner: u64 },
    /// The bot is still to move.
    NotYourTurn,
    /// A component of an older board was used.
    StaleBoard,
    /// Two moves raced; this one lost.
    AlreadyPlayed,
    /// The move text is not a move.
    BadMove { input: &'a str, reason: &'a str },
    /// The move is not legal.
    IllegalMove { input: &'a str, legal: &'a str },
    /// Something on our side failed (database down...).
    TryAgain,
    /// Placeholder of a move menu: what it holds (`more`: the rest of a long list).
    MenuOf { menu: MoveMenu, more: bool },
    /// The Resign button under a board.
    ResignButton,
    /// The question after it.
    ResignConfirm,
    /// The confirming button.
    ResignYes,
    /// The cancelling button.
    ResignNo,
    /// After "keep playing".
    KeepPlaying,
    /// `/settings` by someone without Manage Server.
    ManagersOnly,
    /// `/settings` outside a server.
    ServerOnly,
    /// The bot lacks permissions it needs here to show a game.
    MissingPermissions { needed: &'a [Needed] },
    /// A player's results, per game.
    Stats { human: u64, records: Vec<(GameKind, PlayerRecord)> },
    /// The server's settings.
    Settings { settings: &'a Settings },
    /// Players may (or may not) choose their opponent from now on.
    ChoiceSet { on: bool },
    /// Appended to a confirmation: the change holds for this channel (and its threads) only.
    ForThisChannel,
    /// A channel's overrides were dropped (`had`: there were some).
    ChannelReset { had: bool },
    /// Too many games are waiting for the bot to think; try again.
    Busy,
    /// The channel's game was damaged in storage and has been closed.
    CorruptGame,
    /// Players cannot choose the opponent here (a stale picker).
    NoLevelChoice,
    /// Heading of the opponent picker.
    ChooseOpponent { kind: GameKind },
    /// Placeholder of the opponent menu.
    PickOpponent,
    /// An opponent's name in the picker: a character, never a level word.
    Opponent { level: Level },
    /// The line under an opponent's name; with `reveal` (commentary on) the level itself.
    OpponentHint { level: Level, reveal: bool },
    /// The picker after a choice.
    OpponentChosen { level: Level },
    /// Team mode was turned on or off.
    TeamSet { on: bool },
    /// The server's language was set (`None`: each player's own).
    LanguageSet { language: Option<Lang> },
    /// The idle limit was set.
    IdleSet { days: u32 },
    /// A game was closed for waiting too long.
    Expired { human: u64, days: u32 },
    /// The commentary was turned on or off.
    CommentarySet { on: bool },
    /// The commentary on a player's move.
    Comment(&'a Commentary),
    /// A level was set.
    LevelSet { kind: GameKind, level: Level },
    /// A level that the game does not have.
    LevelNotForGame { kind: GameKind },
    /// Label of the colour option.
    SideName { kind: GameKind, side: Side },
    /// Title of the after-game chart.
    ChartTitle,
    /// Top of the doubutsu chart's scale.
    ChartWinning,
    /// Bottom of the doubutsu chart's scale.
    ChartLosing,
    /// A disc margin on the reversi chart's scale.
    ChartDiscs { discs: i32 },
    /// The chart's ply axis.
    ChartPlies { plies: usize },
    /// Legend of the best-find markers.
    ChartFinds,
    /// Legend of the slip markers.
    ChartSlips,
    /// The after-game summary under the chart.
    Summary { finds: &'a [Moment], slips: &'a [Moment] },
    /// Caption of the replay animation.
    Replay,
    /// The bot's seat as the board images name it.
    Computer,
    /// A board image's turn line: whose move it is (`None`: the game is over). Knowing the
    /// player's seat (`human`), English speaks to the child ("Your move"); Japanese keeps the
    /// seats' names, as Japanese boards always do.
    BoardTurn { kind: GameKind, to_move: Option<Side>, human: Option<Side> },
    /// A seat's caption on a board image (a hand tray, a pill without a name); with the
    /// player's seat known, "You" and "Computer" in English.
    BoardSeat { kind: GameKind, side: Side, human: Option<Side> },
    /// A game has waited a while for the player's move; `link` is its board (`None`: a fresh
    /// board comes with the message).
    Reminder { human: u64, kind: GameKind, link: Option<&'a str> },
    /// The game will be closed tomorrow unless someone moves.
    FinalNotice { human: u64, kind: GameKind, link: Option<&'a str> },
    /// `/play remind`: the player turned their reminders on or off.
    RemindSet { on: bool },
    /// `/settings reminders`: the wait before a reminder (0: no reminders).
    RemindersSet { hours: u32 },
    /// HTTP mode: a request that was already answered came again.
    AlreadyHandled,
    /// Take-backs were allowed or not (`/settings takeback`).
    TakebackSet { on: bool },
    /// The board after a take-back.
    TookBack,
    /// The Take back button under a board.
    TakebackButton,
    /// A take-back where they are not allowed.
    TakebackOff,
    /// A take-back before the player has moved.
    NothingToTakeBack,
    /// `/play help`: the rules of both games and how to tap; the levels only with the
    /// commentary on (else no word of them, as everywhere).
    Help { commentary: bool },
    /// Title of the picture of how the animals move.
    HowAnimalsMove,
    /// The picture's last panel: a chick reaching the far row becomes a hen.
    Promotion,
}

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
                    (Some(EndReason::Try), Ja) => "トライ！ライオンが奥までたどりつきました。",
                    (Some(EndReason::Repetition), En) => " The same position came up three times.",
                    (Some(EndReason::Repetition), Ja) => "同じ局面が3回あらわれました（千日手）。",
                    (Some(EndReason::NoMoves), En) => " No moves were left.",
                    (Some(EndReason::NoMoves), Ja) => "指せる手がなくなりました。",
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
                    (Some(true), Ja) => format!("対局終了：あなたの勝ちです{score}！おみごと！"),
                    (Some(false), En) => format!("Game over: I win{score}. Good game — another one?"),
                    (Some(false), Ja) => format!("対局終了：わたしの勝ちです{score}。もう一局どうですか？"),
                    (None, En) => format!("Game over: a draw{score}. Good game!"),
                    (None, Ja) => format!("対局終了：引き分けです{score}。いい勝負でした！"),
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
            (Msg::BadMove { input, reason }, En) => format!("`{input}` is not a move: {reason}."),
            (Msg::BadMove { input, reason: _ }, Ja) => format!("`{input}` は手として読めません。例：`d3`"),
            (Msg::IllegalMove { input, legal }, En) => format!("`{input}` is not legal here. Legal moves: {legal}"),
            (Msg::IllegalMove { input, legal }, Ja) => format!("`{input}` には打てません。打てる場所：{legal}"),
            (Msg::TryAgain, En) => "Something went wrong on my side. Please try again in a moment.".into(),
            (Msg::TryAgain, Ja) => "うまくいきませんでした。少し待ってからもう一度お試しください。".into(),
            (Msg::ManagersOnly, En) => "Only members who can manage this server can change settings.".into(),
            (Msg::ManagersOnly, Ja) => "設定を変えられるのはサーバーの管理者だけです。".into(),
            (Msg::ServerOnly, En) => "Settings belong to a server; use this command in one.".into(),
            (Msg::ServerOnly, Ja) => "設定はサーバーごとです。サーバーの中で使ってください。".into(),
            (Msg::Settings { settings }, lang) => settings_text(settings, lang),
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
            (Msg::Computer, En) => "Computer".into(),
            (Msg::Computer, Ja) => "コンピューター".into(),
            (Msg::BoardTurn { to_move: None, .. }, En) => "Game over".into(),
            (Msg::BoardTurn { to_move: None, .. }, Ja) => "終局".into(),
            (Msg::BoardTurn { to_move: Some(side), human: Some(human), .. }, En) if side == human => "Your move".into(),
            (Msg::BoardTurn { to_move: Some(_), human: Some(_), .. }, En) => "Computer's move".into(),
            (Msg::BoardTurn { kind, to_move: Some(side), human: None }, En) => {
                format!("{} to move", side_name(*kind, *side, En))
            }
            (Msg::BoardTurn { kind, to_move: Some(side), .. }, Ja) => format!("{}の番", side_name(*kind, *side, Ja)),
            (Msg::BoardSeat { side, human: Some(human), .. }, En) if side == human => "You".into(),
            (Msg::BoardSeat { human: Some(_), .. }, En) => Msg::Computer.text(En),
            (Msg::BoardSeat { kind, side, .. }, lang) => side_name(*kind, *side, lang).into(),
            (Msg::Comment(c), lang) => comment_text(c, lang),
            (Msg::Help { commentary }, lang) => help_text(*commentary, lang),
            (Msg::TakebackSet { on: true }, En) => {
                "Players may now **take back** their last move (待った) with the ↩ button under the board or `/play takeback`; `/play stats` counts them.".into()
            }
            (Msg::TakebackSet { on: false }, En) => "Take-backs are **off**: a move stands once played.".into(),
            (Msg::TakebackSet { on: true }, Ja) => {
                "**待った**をオンにしました。盤面の下の ↩ ボタンか `/play takeback` で直前の自分の手を取り消せます（回数は `/play stats` に出ます）。".into()
            }
            (Msg::TakebackSet { on: false }, Ja) => "**待った**をオフにしました。指した手は取り消せません。".into(),
            (Msg::TookBack, En) => "↩ Move taken back: the board is as it was before your last move.".into(),
            (Msg::TookBack, Ja) => "↩ 待った！あなたの直前の手の前にもどしました。".into(),
            (Msg::TakebackButton, En) => "Take back".into(),
            (Msg::TakebackButton, Ja) => "待った".into(),
            (Msg::TakebackOff, En) => "Take-backs are not allowed here.".into(),
            (Msg::TakebackOff, Ja) => "ここでは待ったはできません。".into(),
            (Msg::NothingToTakeBack, En) => "You have no move to take back yet.".into(),
            (Msg::NothingToTakeBack, Ja) => "まだ取り消せる手がありません。".into(),
            (Msg::HowAnimalsMove, En) => "How the animals move (the dots show the way)".into(),
            (Msg::HowAnimalsMove, Ja) => "どうぶつの動き方（点の向きに1マス）".into(),
            (Msg::Promotion, En) => "A chick on the far row becomes a hen".into(),
            (Msg::Promotion, Ja) => "ひよこは奥の段でニワトリに".into(),
            (Msg::Stats { human, records }, En) => {
                let parts: Vec<String> = records
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
            (Msg::Stats { human, records }, Ja) => {
                let parts: Vec<String> = records
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
                    "Games that wait longer than **{days} days** for a move will be closed (running games included)."
                )
            }
            (Msg::IdleSet { days }, Ja) => {
                format!("**{days}日**指されなかった対局は終了するようにしました（対局中のものも含みます）。")
            }
            (Msg::Expired { human, days }, En) => {
                format!("<@{human}>, this game waited {days} days for a move, so I closed it. `/play` starts a new one any time!")
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
                "A player whose move a game has waited **{hours} hours** for gets one reminder, and a notice the day \
                 before the game would be closed."
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
        }
    }
}

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

/// "Gote wins — lion captured", "黒の勝ち 40対24": [`Msg::Result`].
fn result_text(kind: GameKind, outcome: &Outcome, lang: Lang) -> String {
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

/// "Great moves: 12 B3B2, 20 a1. Slips: 7 c3." (the chart's markers in words).
fn summary_text(finds: &[Moment], slips: &[Moment], lang: Lang) -> String {
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

fn comment_text(c: &Commentary, lang: Lang) -> String {
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

/// `/play help` (see [`Msg::Help`]); well under Discord's 2,000 characters in both languages.
fn help_text(commentary: bool, lang: Lang) -> String {
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
            (Level::Reversi(reversi::Level::Standard), Lang::En) => "— a close game you usually win by a few discs",
            (Level::Reversi(reversi::Level::Standard), Lang::Ja) => "…数枚差で勝てることの多い接戦",
            (Level::Reversi(reversi::Level::Highest), Lang::En) => "— you win by a lot",
            (Level::Reversi(reversi::Level::Highest), Lang::Ja) => "…大差で勝てる",
            (Level::Reversi(reversi::Level::None), Lang::En) => "— the computer plays to win",
            (Level::Reversi(reversi::Level::None), Lang::Ja) => "…コンピューターが本気で勝ちにくる",
            (Level::Doubutsu(doubutsu::Level::Settai), Lang::En) => {
                "— answers a good move with a good one and a slip with a slip: always close"
            }
            (Level::Doubutsu(doubutsu::Level::Settai), Lang::Ja) => {
                "…よい手にはよい手、ゆるい手にはゆるい手で応える、いつもいい勝負"
            }
            (Level::Doubutsu(doubutsu::Level::Strongest), Lang::En) => "— perfect play",
            (Level::Doubutsu(doubutsu::Level::Strongest), Lang::Ja) => "…完全に読み切った手",
            (Level::Doubutsu(doubutsu::Level::Weakest), Lang::En) => "— plays at random, but never misses a win in one",
            (Level::Doubutsu(doubutsu::Level::Weakest), Lang::Ja) => "…でたらめに指すが、一手で勝てる手は逃さない",
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
        (Level::Doubutsu(doubutsu::Level::Settai), Lang::En) => "🐘 Elephant",
        (Level::Doubutsu(doubutsu::Level::Settai), Lang::Ja) => "🐘 ゾウさん",
        (Level::Doubutsu(doubutsu::Level::Strongest), Lang::En) => "🦁 Lion",
        (Level::Doubutsu(doubutsu::Level::Strongest), Lang::Ja) => "🦁 ライオンさん",
        (Level::Doubutsu(doubutsu::Level::Weakest), Lang::En) => "🐥 Chick",
        (Level::Doubutsu(doubutsu::Level::Weakest), Lang::Ja) => "🐥 ひよこさん",
        (Level::Reversi(reversi::Level::Standard), Lang::En) => "🦉 Owl",
        (Level::Reversi(reversi::Level::Standard), Lang::Ja) => "🦉 フクロウさん",
        (Level::Reversi(reversi::Level::Highest), Lang::En) => "🐰 Rabbit",
        (Level::Reversi(reversi::Level::Highest), Lang::Ja) => "🐰 ウサギさん",
        (Level::Reversi(reversi::Level::None), Lang::En) => "🐺 Wolf",
        (Level::Reversi(reversi::Level::None), Lang::Ja) => "🐺 オオカミさん",
    }
}

/// The line under an opponent in the picker.
fn opponent_hint(level: Level, lang: Lang) -> &'static str {
    match (level, lang) {
        (Level::Doubutsu(doubutsu::Level::Settai) | Level::Reversi(reversi::Level::Standard), Lang::En) => {
            "A good match"
        }
        (Level::Doubutsu(doubutsu::Level::Settai) | Level::Reversi(reversi::Level::Standard), Lang::Ja) => "いい勝負",
        (Level::Doubutsu(doubutsu::Level::Strongest), Lang::En) => "The champion",
        (Level::Doubutsu(doubutsu::Level::Strongest), Lang::Ja) => "チャンピオン",
        (Level::Doubutsu(doubutsu::Level::Weakest), Lang::En) => "Still learning",
        (Level::Doubutsu(doubutsu::Level::Weakest), Lang::Ja) => "れんしゅう中",
        (Level::Reversi(reversi::Level::Highest), Lang::En) => "Easy-going",
        (Level::Reversi(reversi::Level::Highest), Lang::Ja) => "のんびり屋",
        (Level::Reversi(reversi::Level::None), Lang::En) => "Plays to win",
        (Level::Reversi(reversi::Level::None), Lang::Ja) => "本気でくる",
    }
}

/// The move menus under a board, each holding one kind of move (its placeholder says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveMenu {
    /// The lion's steps.
    Lion,
    /// The other animals' steps.
    Animals,
    /// Drops from the hand.
    Hand,
    /// Reversi placements.
    Discs,
}

impl MoveMenu {
    /// The menu a move of this kind goes in.
    pub fn of(detail: Option<MoveDetail>) -> MoveMenu {
        match detail {
            Some(MoveDetail::Step { role: Role::Lion, .. }) => MoveMenu::Lion,
            Some(MoveDetail::Step { .. }) => MoveMenu::Animals,
            Some(MoveDetail::Drop { .. }) => MoveMenu::Hand,
            Some(MoveDetail::Place { .. } | MoveDetail::Pass) | None => MoveMenu::Discs,
        }
    }
}

/// A doubutsu animal as menus show it.
pub fn animal_emoji(role: Role) -> &'static str {
    match role {
        Role::Lion => "🦁",
        Role::Giraffe => "🦒",
        Role::Elephant => "🐘",
        Role::Chick => "🐥",
        Role::Hen => "🐔",
    }
}

/// A legal move `mv` as a menu option shows it to a child: the animal and where it goes
/// ("🐥 B3 → B2 (takes 🐥)", "Drop 🐘 on B2"), or for reversi the square and how many discs it
/// turns ("d3 (flips 2)"). Without a detail, the notation itself.
pub fn move_label(mv: GameMove, detail: Option<MoveDetail>, lang: Lang) -> String {
    use Lang::{En, Ja};
    let (from, to) = match mv {
        GameMove::Doubutsu(doubutsu::Move::Normal { from, to }) => (from.to_string(), to.to_string()),
        GameMove::Doubutsu(doubutsu::Move::Drop { to, .. }) => (String::new(), to.to_string()),
        GameMove::Reversi(_) => (String::new(), String::new()),
    };
    match (detail, lang) {
        (None, _) => mv.to_string(),
        (Some(MoveDetail::Pass), En) => "Pass".into(),
        (Some(MoveDetail::Pass), Ja) => "パス".into(),
        (Some(MoveDetail::Place { flips }), En) => format!("{mv} (flips {flips})"),
        (Some(MoveDetail::Place { flips }), Ja) => format!("{mv}（{flips}枚返す）"),
        (Some(MoveDetail::Step { role, captures }), lang) => {
            let taken = match (captures, lang) {
                (None, _) => String::new(),
                (Some(c), En) => format!(" (takes {})", animal_emoji(c)),
                (Some(c), Ja) => format!("（{}を取る）", animal_emoji(c)),
            };
            format!("{} {from} → {to}{taken}", animal_emoji(role))
        }
        (Some(MoveDetail::Drop { role }), En) => format!("Drop {} on {to}", animal_emoji(role)),
        (Some(MoveDetail::Drop { role }), Ja) => format!("{}を{to}に打つ", animal_emoji(role)),
    }
}

/// `/settings show`: the settings in effect, those of this channel marked.
fn settings_text(settings: &Settings, lang: Lang) -> String {
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
                (En, hours) => format!("A game waiting **{hours} hours** for a move reminds its player once"),
                (Ja, hours) => format!("**{hours}時間**指されていない対局はお知らせします"),
            },
            Setting::Takeback => match lang {
                En => format!("Take-backs (待った): **{}**", on_off(settings.takeback)),
                Ja => format!("待った：**{}**", on_off(settings.takeback)),
            },
            Setting::IdleDays => match lang {
                En => format!("Games waiting longer than **{} days** for a move are closed", settings.idle_days),
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

/// A level's name as admins see it.
pub fn level_name(level: Level, lang: Lang) -> &'static str {
    match (level, lang) {
        (Level::Reversi(reversi::Level::Standard), Lang::En) => "standard",
        (Level::Reversi(reversi::Level::Standard), Lang::Ja) => "標準",
        (Level::Reversi(reversi::Level::Highest), Lang::En) => "highest",
        (Level::Reversi(reversi::Level::Highest), Lang::Ja) => "最高",
        (Level::Reversi(reversi::Level::None), Lang::En) => "no mercy",
        (Level::Reversi(reversi::Level::None), Lang::Ja) => "忖度無し",
        (Level::Doubutsu(doubutsu::Level::Settai), Lang::En) => "settai (hospitable)",
        (Level::Doubutsu(doubutsu::Level::Settai), Lang::Ja) => "接待",
        (Level::Doubutsu(doubutsu::Level::Strongest), Lang::En) => "strongest",
        (Level::Doubutsu(doubutsu::Level::Strongest), Lang::Ja) => "最強",
        (Level::Doubutsu(doubutsu::Level::Weakest), Lang::En) => "weakest",
        (Level::Doubutsu(doubutsu::Level::Weakest), Lang::Ja) => "雑魚",
    }
}

/// A permission the bot needs in a channel to show a game, as Discord's settings name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needed {
    /// Send Messages.
    SendMessages,
    /// Attach Files (the boards are images).
    AttachFiles,
    /// Send Messages in Threads.
    SendInThreads,
}

impl Needed {
    /// The permission's name as Discord shows it in `lang`.
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Needed::SendMessages, Lang::En) => "Send Messages",
            (Needed::SendMessages, Lang::Ja) => "メッセージを送信",
            (Needed::AttachFiles, Lang::En) => "Attach Files",
            (Needed::AttachFiles, Lang::Ja) => "ファイルを添付",
            (Needed::SendInThreads, Lang::En) => "Send Messages in Threads",
            (Needed::SendInThreads, Lang::Ja) => "スレッドでメッセージを送信",
        }
    }
}
