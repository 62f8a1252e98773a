//! The `/play` command as registered with Discord.

use serenity::all::{CommandOptionType, CreateCommand, CreateCommandOption, InteractionContext, Permissions};

use crate::i18n::{kind_name, level_name, Lang};
use settai_core::{GameKind, Level};

/// `/play` with its subcommands, names and descriptions localized for Japanese.
pub fn play_command() -> CreateCommand {
    command("play")
        .description("Play a board game")
        .description_localized("ja", "ボードゲームで遊ぶ")
        .add_option(
            option(CommandOptionType::SubCommand, "reversi", "Start a game of reversi")
                .description_localized("ja", "リバーシを始める")
                .add_sub_option(
                    option(CommandOptionType::String, "color", "Your colour (black moves first)")
                        .description_localized("ja", "あなたの色（黒が先手）")
                        .add_string_choice_localized("black", "black", [("ja", "黒")])
                        .add_string_choice_localized("white", "white", [("ja", "白")])
                        .required(false),
                ),
        )
        .add_option(
            option(CommandOptionType::SubCommand, "doubutsu", "Start a game of doubutsu shogi (you move first)")
                .description_localized("ja", "どうぶつしょうぎを始める（あなたが先手）"),
        )
        .add_option(
            option(CommandOptionType::SubCommand, "move", "Play a move")
                .description_localized("ja", "手を指す")
                .add_sub_option(
                    option(CommandOptionType::String, "move", "Your move, e.g. d3 or B3B2")
                        .description_localized("ja", "指し手（例：d3、B3B2）")
                        .required(true)
                        .set_autocomplete(true)
                        .max_length(16),
                ),
        )
        .add_option(
            option(CommandOptionType::SubCommand, "board", "Show the current board again")
                .description_localized("ja", "今の盤面をもう一度表示する"),
        )
        .add_option(
            option(CommandOptionType::SubCommand, "resign", "Resign the current game")
                .description_localized("ja", "投了する"),
        )
        .add_option(
            option(CommandOptionType::SubCommand, "stats", "Your results on this server")
                .description_localized("ja", "このサーバーでのあなたの成績"),
        )
        .add_option(
            option(CommandOptionType::SubCommand, "takeback", "Take back your last move (where the server allows it)")
                .description_localized("ja", "待った：直前の自分の手を取り消す（サーバーが許可しているとき）"),
        )
        .add_option(
            option(CommandOptionType::SubCommand, "help", "How to play both games, and how to tap your moves")
                .description_localized("ja", "2つのゲームの遊び方と、タップでの指し方"),
        )
        .add_option(
            option(CommandOptionType::SubCommand, "remind", "Reminders when a game waits for your move")
                .description_localized("ja", "対局があなたの番で待っているときのお知らせ")
                .add_sub_option(on_off()),
        )
}

/// `/settings`: server managers choose how the bot plays (Discord hides it from others; the
/// handler checks the permission again).
pub fn settings_command() -> CreateCommand {
    let mut game =
        option(CommandOptionType::String, "game", "Which game").description_localized("ja", "ゲーム").required(true);
    for kind in GameKind::ALL {
        game = game.add_string_choice_localized(
            kind_name(kind, Lang::En),
            kind.as_str(),
            [("ja", kind_name(kind, Lang::Ja))],
        );
    }
    let mut level = option(CommandOptionType::String, "level", "How the bot plays it")
        .description_localized("ja", "ボットの打ち方")
        .required(true);
    for kind in GameKind::ALL {
        for &l in Level::for_kind(kind) {
            let en = format!("{}: {}", kind_name(kind, Lang::En), level_name(l, Lang::En));
            let ja = format!("{}：{}", kind_name(kind, Lang::Ja), level_name(l, Lang::Ja));
            level = level.add_string_choice_localized(en, l.as_str(), [("ja", ja)]);
        }
    }
    command("settings")
        .description("Choose how the bot plays on this server (server managers)")
        .description_localized("ja", "このサーバーでのボットの打ち方を選ぶ（サーバー管理者）")
        .default_member_permissions(Permissions::MANAGE_GUILD)
        .contexts(vec![InteractionContext::Guild])
        .add_option(
            option(CommandOptionType::SubCommand, "show", "Show the settings in effect in this channel")
                .description_localized("ja", "このチャンネルで有効な設定を表示する"),
        )
        .add_option(setting(
            option(CommandOptionType::SubCommand, "level", "Set the level of a game (applies to new games)")
                .description_localized("ja", "ゲームのレベルを設定する（次の対局から）")
                .add_sub_option(game)
                .add_sub_option(level),
        ))
        .add_option(setting(
            option(CommandOptionType::SubCommand, "choice", "Let players choose their opponent when they start")
                .description_localized("ja", "対局を始めるとき、プレイヤーが対戦相手を選べるようにする")
                .add_sub_option(on_off()),
        ))
        .add_option(setting(
            option(CommandOptionType::SubCommand, "idle", "Close games that wait this many days for a move")
                .description_localized("ja", "この日数指されなかった対局を終了する")
                .add_sub_option(
                    option(CommandOptionType::Integer, "days", "Days (1-365)")
                        .description_localized("ja", "日数（1〜365）")
                        .min_int_value(1)
                        .max_int_value(365)
                        .required(true),
                ),
        ))
        .add_option(setting(
            option(
                CommandOptionType::SubCommand,
                "reminders",
                "Remind a player once after this many hours without a move",
            )
            .description_localized("ja", "この時間指されなかったら、プレイヤーに一度お知らせする")
            .add_sub_option(
                option(CommandOptionType::Integer, "hours", "Hours (1-8760), or 0 for no reminders")
                    .description_localized("ja", "時間（1〜8760）。0 でお知らせしない")
                    .min_int_value(0)
                    .max_int_value(u64::from(crate::domain::MAX_REMINDER_HOURS))
                    .required(true),
            ),
        ))
        .add_option(setting(
            option(CommandOptionType::SubCommand, "commentary", "Show after each move how good it was")
                .description_localized("ja", "毎手、その手の良さを表示する")
                .add_sub_option(on_off()),
        ))
        .add_option(setting(
            option(CommandOptionType::SubCommand, "takeback", "Let players take back their last move (off by default)")
                .description_localized("ja", "待った：直前の手を取り消せるようにする（初期設定はオフ）")
                .add_sub_option(on_off()),
        ))
        .add_option(setting(
            option(CommandOptionType::SubCommand, "team", "Family team mode: anyone in the channel may move")
                .description_localized("ja", "家族チーム：チャンネルの誰でも指せる")
                .add_sub_option(on_off()),
        ))
        .add_option(setting(
            option(CommandOptionType::SubCommand, "language", "The bot's language on this server")
                .description_localized("ja", "このサーバーでのボットの言語")
                .add_sub_option(
                    option(CommandOptionType::String, "language", "Language")
                        .description_localized("ja", "言語")
                        .required(true)
                        .add_string_choice_localized(
                            "Each player's Discord language",
                            "auto",
                            [("ja", "各プレイヤーの Discord の言語")],
                        )
                        .add_string_choice_localized("English", "en", [("ja", "英語")])
                        .add_string_choice_localized("Japanese", "ja", [("ja", "日本語")]),
                ),
        ))
        .add_option(
            option(CommandOptionType::SubCommand, "reset", "Make this channel follow the server's settings again")
                .description_localized("ja", "このチャンネルだけの設定をやめ、サーバーの設定に戻す"),
        )
}

/// A setting's subcommand with the optional `here` flag: change it for this channel only.
fn setting(sub: CreateCommandOption) -> CreateCommandOption {
    sub.add_sub_option(
        option(CommandOptionType::Boolean, "here", "Only in this channel (and its threads)")
            .description_localized("ja", "このチャンネル（とそのスレッド）だけ"),
    )
}

fn on_off() -> CreateCommandOption {
    option(CommandOptionType::Boolean, "on", "On or off").description_localized("ja", "オン／オフ").required(true)
}

/// Japanese names of the commands, subcommands and options (Discord shows them to users whose
/// client is in Japanese; interactions still carry the English names).
fn ja_name(kind: Option<CommandOptionType>, name: &str) -> Option<&'static str> {
    let sub = kind == Some(CommandOptionType::SubCommand);
    Some(match (sub, name) {
        (false, "play") if kind.is_none() => "あそぶ",
        (false, "settings") if kind.is_none() => "設定",
        (true, "reversi") => "リバーシ",
        (true, "doubutsu") => "どうぶつしょうぎ",
        (true, "move") => "指す",
        (true, "board") => "盤面",
        (true, "resign") => "投了",
        (true, "stats") => "成績",
        (true, "remind") => "お知らせ",
        (true, "help") => "遊び方",
        (true, "takeback") => "待った",
        (true, "reminders") => "お知らせ",
        (false, "hours") => "時間",
        (true, "show") => "表示",
        (true, "level") => "レベル",
        (true, "commentary") => "解説",
        (true, "idle") => "放置期限",
        (true, "team") => "チーム",
        (true, "language") => "言語",
        (true, "choice") => "相手選び",
        (true, "reset") => "リセット",
        (false, "here") => "このチャンネル",
        (false, "language") => "言語",
        (false, "days") => "日数",
        (false, "color") => "色",
        (false, "move") => "手",
        (false, "game") => "ゲーム",
        (false, "level") => "レベル",
        (false, "on") => "オン",
        _ => return None,
    })
}

fn command(name: &str) -> CreateCommand {
    let c = CreateCommand::new(name);
    match ja_name(None, name) {
        Some(ja) => c.name_localized("ja", ja),
        None => c,
    }
}

fn option(kind: CommandOptionType, name: &str, description: &str) -> CreateCommandOption {
    let o = CreateCommandOption::new(kind, name, description);
    match ja_name(Some(kind), name) {
        Some(ja) => o.name_localized("ja", ja),
        None => o,
    }
}
