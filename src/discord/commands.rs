//! The `/play` command as registered with Discord.

use serenity::all::{CommandOptionType, CreateCommand, CreateCommandOption};

/// `/play` with its subcommands, names and descriptions localized for Japanese.
pub fn play_command() -> CreateCommand {
    CreateCommand::new("play")
        .description("Play a board game")
        .description_localized("ja", "ボードゲームで遊ぶ")
        .add_option(
            CreateCommandOption::new(CommandOptionType::SubCommand, "reversi", "Start a game of reversi")
                .description_localized("ja", "リバーシを始める")
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::String, "color", "Your colour (black moves first)")
                        .description_localized("ja", "あなたの色（黒が先手）")
                        .add_string_choice_localized("black", "black", [("ja", "黒")])
                        .add_string_choice_localized("white", "white", [("ja", "白")])
                        .required(false),
                ),
        )
        .add_option(
            CreateCommandOption::new(CommandOptionType::SubCommand, "doubutsu", "Start a game of doubutsu shogi (you move first)")
                .description_localized("ja", "どうぶつしょうぎを始める（あなたが先手）"),
        )
        .add_option(
            CreateCommandOption::new(CommandOptionType::SubCommand, "move", "Play a move")
                .description_localized("ja", "手を指す")
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::String, "move", "Your move, e.g. d3 or B3B2")
                        .description_localized("ja", "指し手（例：d3、B3B2）")
                        .required(true)
                        .set_autocomplete(true)
                        .max_length(16),
                ),
        )
        .add_option(
            CreateCommandOption::new(CommandOptionType::SubCommand, "board", "Show the current board again")
                .description_localized("ja", "今の盤面をもう一度表示する"),
        )
        .add_option(
            CreateCommandOption::new(CommandOptionType::SubCommand, "resign", "Resign the current game")
                .description_localized("ja", "投了する"),
        )
}
