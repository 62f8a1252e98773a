//! `settai play`: one game against the AI in a terminal, through the same game interface and
//! the same catalogue sentences as the bot.

use std::io::{BufRead, Write};

use rand::Rng;

use super::{game_over_line, text_board};
use crate::games::doubutsu::TableFile;
use crate::games::{Game, GameKind, Level, MoveError, Side};
use crate::i18n::{kind_name, level_name, side_name, Lang, Msg};

/// The terminal speaks English (the bot follows each player's language; `settai` is a tool).
const LANG: Lang = Lang::En;

/// Plays one game reading the human's lines from `input` and writing to `out`: the human has the
/// `human` seat, the AI plays at `level` (the doubutsu table levels with `table`). Bad input gets
/// one short line naming it, and the board is shown again only when it changed.
pub(super) fn play(
    kind: GameKind,
    level: Level,
    human: Side,
    table: Option<&TableFile>,
    rng: &mut impl Rng,
    input: impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let example = match kind {
        GameKind::Reversi => "a square like `d3`",
        GameKind::Doubutsu => "a move like `B3B2` or a drop like `E*B2`",
    };
    writeln!(
        out,
        "settai — {} against the AI ({}). You are {}.\nType {example}; `moves` lists the legal ones, `board` shows the board, `resign` gives up, `quit` leaves.",
        kind_name(kind, LANG),
        level_name(level, LANG),
        side_name(kind, human, LANG).to_lowercase(),
    )?;
    let mut game = Game::new(kind);
    let mut lines = input.lines();
    let mut show_board = true;
    while let Some(to_move) = game.to_move() {
        if to_move != human {
            let mv = game.ai_move(level, table, rng)?.expect("the game goes on");
            game = game.play(mv)?;
            if mv.is_pass() {
                writeln!(out, "\nThe AI has no move and passes.")?;
            } else {
                writeln!(out, "\nThe AI plays {mv}.")?;
            }
            show_board = true;
            continue;
        }
        if show_board {
            writeln!(out, "\n{}", text_board(&game))?;
            show_board = false;
        }
        let legal = game.legal_moves();
        if let [only] = legal[..] {
            if only.is_pass() {
                writeln!(out, "{}", Msg::YouPassed.text(LANG))?;
                game = game.play(only)?;
                continue;
            }
        }
        let listed = legal.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
        write!(out, "your move> ")?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out, "\nThe input ended, so the game is left unfinished. Bye!")?;
            return Ok(());
        };
        let line = line?;
        let typed = line.trim();
        match typed.to_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => {
                writeln!(out, "Bye! The game is left unfinished; `play` starts a new one any time.")?;
                return Ok(());
            }
            "resign" => {
                writeln!(out, "{}", Msg::Resigned.text(LANG))?;
                return Ok(());
            }
            "moves" | "?" | "help" => writeln!(out, "legal: {listed}")?,
            "board" => show_board = true,
            _ => match game.parse_move(typed).and_then(|mv| game.play(mv)) {
                Ok(next) => {
                    game = next;
                    show_board = true;
                }
                Err(MoveError::Syntax(_)) => {
                    let reason = format!("expected {example} (`moves` lists them)");
                    writeln!(out, "{}", Msg::BadMove { input: typed, reason: &reason }.text(LANG))?;
                }
                Err(MoveError::Illegal(_)) => {
                    writeln!(out, "{}", Msg::IllegalMove { input: typed, legal: &listed }.text(LANG))?;
                }
            },
        }
    }
    writeln!(out, "\n{}", text_board(&game))?;
    writeln!(out, "{}", game_over_line(&game.outcome().expect("the loop ends with the game"), human))?;
    Ok(())
}
