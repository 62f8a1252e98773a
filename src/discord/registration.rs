//! The commands as registered with Discord, built from the same subcommand lists that
//! [`Command::parse`](super::command::Command::parse) reads, with their descriptions and Japanese names.

use serenity::all::{
    CommandOptionType, CreateCommand, CreateCommandOption, InstallationContext, InteractionContext, Permissions,
};

use super::command::{option as opt, PlaySub, SettingsSub, PLAY, SETTINGS};
use crate::i18n::{kind_name, level_name, Lang};
use settai_core::{GameKind, Level};

/// `/play` with its subcommands, names and descriptions localized for Japanese.
pub fn play_command() -> CreateCommand {
    let play = command(PLAY).description("Play a board game").description_localized("ja", "ボードゲームで遊ぶ");
    PlaySub::ALL.into_iter().fold(play, |c, sub| c.add_option(sub.definition()))
}

impl PlaySub {
    /// The subcommand as registered.
    fn definition(self) -> CreateCommandOption {
        let sub = |en: &str, ja: &str| subcommand(self.name(), self.ja_name(), en, ja);
        match self {
            PlaySub::Games => {
                sub("Big buttons to start a game, for anyone to tap", "タップで はじめる ゲームの ボタン")
            }
            PlaySub::Reversi => sub("Start a game of reversi", "リバーシを始める").add_sub_option(
                option(CommandOptionType::String, opt::COLOR, "Your colour (black moves first)")
                    .description_localized("ja", "あなたの色（黒が先手）")
                    .add_string_choice_localized("black", "black", [("ja", "黒")])
                    .add_string_choice_localized("white", "white", [("ja", "白")])
                    .required(false),
            ),
            PlaySub::Doubutsu => {
                sub("Start a game of doubutsu shogi (you move first)", "どうぶつしょうぎを始める（あなたが先手）")
            }
            PlaySub::Move => sub("Play a move", "手を指す").add_sub_option(
                option(CommandOptionType::String, opt::MOVE, "Your move, e.g. d3 or B3B2")
                    .description_localized("ja", "指し手（例：d3、B3B2）")
                    .required(true)
                    .set_autocomplete(true)
                    .max_length(16),
            ),
            PlaySub::Board => sub("Show the current board again", "今の盤面をもう一度表示する"),
            PlaySub::Resign => sub("Resign the current game", "投了する"),
            PlaySub::Stats => {
                sub("Your results on this server (or in DMs)", "このサーバー（またはDM）でのあなたの成績")
            }
            PlaySub::Takeback => sub(
                "Take back your last move (where the server allows it)",
                "待った：直前の自分の手を取り消す（サーバーが許可しているとき）",
            ),
            PlaySub::Help => {
                sub("How to play both games, and how to tap your moves", "2つのゲームの遊び方と、タップでの指し方")
            }
            PlaySub::Remind => {
                sub("Reminders when a game waits for your move", "対局があなたの番で待っているときのお知らせ")
                    .add_sub_option(on_off())
            }
            PlaySub::Hints => sub(
                "Your own hints in doubutsu shogi (a ⚠ on risky moves), on every server",
                "どうぶつしょうぎのあなたのヒント（あぶない手に ⚠）、どのサーバーでも",
            )
            .add_sub_option(on_off()),
            PlaySub::ForgetMe => sub(
                "Erase what the bot keeps about you, on every server (asks first)",
                "ボットにあるあなたの記録を、すべてのサーバーで消す（先に確認します）",
            ),
        }
    }
}

/// `/settings`: server managers choose how the bot plays (Discord hides it from others in
/// servers; the handler checks the permission again). Outside servers it explains that nobody
/// manages anything there.
pub fn settings_command() -> CreateCommand {
    let settings = command(SETTINGS)
        .description("Choose how the bot plays on this server (server managers)")
        .description_localized("ja", "このサーバーでのボットの打ち方を選ぶ（サーバー管理者）")
        .default_member_permissions(Permissions::MANAGE_GUILD);
    SettingsSub::ALL.into_iter().fold(settings, |c, sub| c.add_option(sub.definition()))
}

impl SettingsSub {
    /// The subcommand as registered.
    fn definition(self) -> CreateCommandOption {
        let sub = |en: &str, ja: &str| subcommand(self.name(), self.ja_name(), en, ja);
        match self {
            SettingsSub::Show => {
                sub("Show the settings in effect in this channel", "このチャンネルで有効な設定を表示する")
            }
            SettingsSub::Level => setting(
                sub("Set the level of a game (applies to new games)", "ゲームのレベルを設定する（次の対局から）")
                    .add_sub_option(game_choices())
                    .add_sub_option(level_choices()),
            ),
            SettingsSub::Choice => setting(
                sub(
                    "Let players choose their opponent when they start",
                    "対局を始めるとき、プレイヤーが対戦相手を選べるようにする",
                )
                .add_sub_option(on_off()),
            ),
            SettingsSub::Idle => setting(
                sub("Close games that wait this many days for a move", "この日数指されなかった対局を終了する")
                    .add_sub_option(
                        option(CommandOptionType::Integer, opt::DAYS, "Days (1-365)")
                            .description_localized("ja", "日数（1〜365）")
                            .min_int_value(1)
                            .max_int_value(365)
                            .required(true),
                    ),
            ),
            SettingsSub::Reminders => setting(
                sub(
                    "Remind a player once after this many hours without a move",
                    "この時間指されなかったら、プレイヤーに一度お知らせする",
                )
                .add_sub_option(
                    option(CommandOptionType::Integer, opt::HOURS, "Hours (1-8760), or 0 for no reminders")
                        .description_localized("ja", "時間（1〜8760）。0 でお知らせしない")
                        .min_int_value(0)
                        .max_int_value(u64::from(crate::domain::MAX_REMINDER_HOURS))
                        .required(true),
                ),
            ),
            SettingsSub::Commentary => setting(
                sub("Show after each move how good it was", "毎手、その手の良さを表示する").add_sub_option(on_off()),
            ),
            SettingsSub::Takeback => setting(
                sub(
                    "Let players take back their last move (off by default)",
                    "待った：直前の手を取り消せるようにする（初期設定はオフ）",
                )
                .add_sub_option(on_off()),
            ),
            SettingsSub::Team => setting(
                sub("Family team mode: anyone in the channel may move", "家族チーム：チャンネルの誰でも指せる")
                    .add_sub_option(on_off()),
            ),
            SettingsSub::Hints => setting(
                sub(
                    "Hints for young players in doubutsu shogi: risky moves marked, a word when the lion is in danger",
                    "どうぶつしょうぎのヒント：あぶない手に印、ライオンがねらわれたらひとこと",
                )
                .add_sub_option(on_off()),
            ),
            SettingsSub::Language => setting(
                sub("The bot's language on this server", "このサーバーでのボットの言語").add_sub_option(
                    option(CommandOptionType::String, opt::LANGUAGE, "Language")
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
            ),
            SettingsSub::Reset => sub(
                "Make this channel follow the server's settings again",
                "このチャンネルだけの設定をやめ、サーバーの設定に戻す",
            ),
        }
    }
}

/// `/settings level`'s game, one choice per game.
fn game_choices() -> CreateCommandOption {
    let mut game =
        option(CommandOptionType::String, opt::GAME, "Which game").description_localized("ja", "ゲーム").required(true);
    for kind in GameKind::ALL {
        game = game.add_string_choice_localized(
            kind_name(kind, Lang::En),
            kind.as_str(),
            [("ja", kind_name(kind, Lang::Ja))],
        );
    }
    game
}

/// `/settings level`'s level: every level of every game, named with its game.
fn level_choices() -> CreateCommandOption {
    let mut level = option(CommandOptionType::String, opt::LEVEL, "How the bot plays it")
        .description_localized("ja", "ボットの打ち方")
        .required(true);
    for kind in GameKind::ALL {
        for &l in Level::for_kind(kind) {
            let en = format!("{}: {}", kind_name(kind, Lang::En), level_name(l, Lang::En));
            let ja = format!("{}：{}", kind_name(kind, Lang::Ja), level_name(l, Lang::Ja));
            level = level.add_string_choice_localized(en, l.as_str(), [("ja", ja)]);
        }
    }
    level
}

/// A setting's subcommand with the optional `here` flag: change it for this channel only.
fn setting(sub: CreateCommandOption) -> CreateCommandOption {
    sub.add_sub_option(
        option(CommandOptionType::Boolean, opt::HERE, "Only in this channel (and its threads)")
            .description_localized("ja", "このチャンネル（とそのスレッド）だけ"),
    )
}

fn on_off() -> CreateCommandOption {
    option(CommandOptionType::Boolean, opt::ON, "On or off").description_localized("ja", "オン／オフ").required(true)
}

impl PlaySub {
    /// Its name for users whose Discord is in Japanese (interactions carry the English name).
    fn ja_name(self) -> &'static str {
        match self {
            PlaySub::Games => "ゲーム",
            PlaySub::Reversi => "リバーシ",
            PlaySub::Doubutsu => "どうぶつしょうぎ",
            PlaySub::Move => "指す",
            PlaySub::Board => "盤面",
            PlaySub::Resign => "投了",
            PlaySub::Stats => "成績",
            PlaySub::Takeback => "待った",
            PlaySub::Help => "遊び方",
            PlaySub::Remind => "お知らせ",
            PlaySub::Hints => "ヒント",
            PlaySub::ForgetMe => "記録を消す",
        }
    }
}

impl SettingsSub {
    /// Its name for users whose Discord is in Japanese.
    fn ja_name(self) -> &'static str {
        match self {
            SettingsSub::Show => "表示",
            SettingsSub::Level => "レベル",
            SettingsSub::Choice => "相手選び",
            SettingsSub::Idle => "放置期限",
            SettingsSub::Reminders => "お知らせ",
            SettingsSub::Commentary => "解説",
            SettingsSub::Takeback => "待った",
            SettingsSub::Team => "チーム",
            SettingsSub::Hints => "ヒント",
            SettingsSub::Language => "言語",
            SettingsSub::Reset => "リセット",
        }
    }
}

/// Japanese names of the commands and options (Discord shows them to users whose client is in
/// Japanese; interactions still carry the English names).
fn ja_name(name: &str) -> Option<&'static str> {
    Some(match name {
        PLAY => "あそぶ",
        SETTINGS => "設定",
        opt::HOURS => "時間",
        opt::HERE => "このチャンネル",
        opt::LANGUAGE => "言語",
        opt::DAYS => "日数",
        opt::COLOR => "色",
        opt::MOVE => "手",
        opt::GAME => "ゲーム",
        opt::LEVEL => "レベル",
        opt::ON => "オン",
        _ => return None,
    })
}

/// A subcommand with its names and descriptions in both languages.
fn subcommand(name: &str, ja_name: &str, description: &str, ja_description: &str) -> CreateCommandOption {
    CreateCommandOption::new(CommandOptionType::SubCommand, name, description)
        .name_localized("ja", ja_name)
        .description_localized("ja", ja_description)
}

/// A command installable to servers and to players' accounts, usable in servers, in the bot's
/// DM and in players' other DMs and group DMs (docs/design/private-channels.md).
fn command(name: &str) -> CreateCommand {
    let c = CreateCommand::new(name)
        .integration_types(vec![InstallationContext::Guild, InstallationContext::User])
        .contexts(vec![InteractionContext::Guild, InteractionContext::BotDm, InteractionContext::PrivateChannel]);
    match ja_name(name) {
        Some(ja) => c.name_localized("ja", ja),
        None => c,
    }
}

fn option(kind: CommandOptionType, name: &str, description: &str) -> CreateCommandOption {
    let o = CreateCommandOption::new(kind, name, description);
    match ja_name(name) {
        Some(ja) => o.name_localized("ja", ja),
        None => o,
    }
}
