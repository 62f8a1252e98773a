//! `settai play`: games against the AI in a terminal, through the same [`Service`] as the bot
//! (start, move, the bot's turn, resign) and the same catalogue sentences. The terminal is a
//! channel of its own in the same Postgres as `serve`, so an unfinished game is picked up again
//! the next time.

use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;

use anyhow::bail;

use super::doubutsu::open_table;
use super::shell::for_this_shell;
use super::text_board::{game_over_line, text_board};
use crate::domain::{
    GameRecord, GameStatus, PlayedMove, Snapshot, StoredGame, Venue, TERMINAL_CHANNEL, TERMINAL_PLAYER,
};
use crate::i18n::{kind_name, level_name, side_name, Lang, Msg};
use crate::service::{Caller, PlayError, Service};
use settai_core::{GameKind, Level, MoveError, Side};

/// The terminal speaks English (the bot follows each player's language; `settai` is a tool).
const LANG: Lang = Lang::En;

/// What `settai play` was asked for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Request {
    /// The game.
    pub kind: GameKind,
    /// The AI's level for a new game.
    pub level: Level,
    /// Whether `--level` chose it (a resumed game keeps its own, and says so).
    pub level_asked: bool,
    /// The human's seat in a new game.
    pub human: Side,
    /// Give up an unfinished game and start a new one.
    pub new: bool,
}

/// The person at the terminal.
fn caller() -> Caller {
    let name = std::env::var("USER").unwrap_or_default();
    // The terminal is the operator's own room: the bot may print there, nobody manages it.
    Caller {
        guild_id: None,
        channel_id: TERMINAL_CHANNEL,
        parent_id: None,
        user_id: TERMINAL_PLAYER,
        name,
        venue: Venue::BotDm,
    }
}

/// Plays the terminal's game of `request.kind` through `service` (running its steps on
/// `runtime`): the unfinished one, or a new one. Reads the human's lines from `input` and writes
/// to `out`; bad input gets one short line naming it, and the board is shown again only when it
/// changed. `table` is the doubutsu table file, opened when the game's level needs it.
pub(super) fn play(
    runtime: &tokio::runtime::Runtime,
    service: Service,
    table: &Path,
    request: Request,
    input: impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let caller = caller();
    let kind = request.kind;
    // The terminal's game is read once; afterwards this process holds it (every write is
    // still guarded by the game's version). The settings in effect are the caller's, in its
    // venue, as for every front end.
    let mut snapshot = match runtime.block_on(service.snapshot_for(&caller)) {
        Ok(snapshot) => snapshot,
        Err(PlayError::Corrupt) => {
            writeln!(out, "{}", Msg::CorruptGame.text(LANG))?;
            runtime.block_on(service.snapshot_for(&caller))?
        }
        Err(e) => return Err(e.into()),
    };
    let resumed = match snapshot.game.take() {
        Some(game) if request.new => {
            let record = &game.record;
            runtime.block_on(service.resign(&caller, &with_game(&snapshot, &game), None))?;
            let game = kind_name(record.kind(), LANG);
            writeln!(out, "Your unfinished {game} game is resigned; a new one begins.")?;
            None
        }
        Some(game) if game.record.kind() != kind => bail!(
            "{}",
            for_this_shell(&format!(
                "your {0} game is not finished: `settai play {0}` goes on with it, `settai play {1} --new` gives it up",
                game.record.kind(),
                kind
            ))
        ),
        other => other,
    };
    let level = resumed.as_ref().map_or(request.level, |g| g.record.level);
    let service = match level.needs_table() {
        true => service.with_doubutsu_table(Some(Arc::new(open_table(table)?))),
        false => service,
    };
    let example = match kind {
        GameKind::Reversi => "a square like `d3`",
        GameKind::Doubutsu => "a move like `B3B2` or a drop like `E*B2`",
    };
    let human = resumed.as_ref().map_or(request.human, |g| g.record.human_side);
    writeln!(
        out,
        "settai — {} against the AI ({}). You are {}.\nType {example}; `moves` lists the legal ones, `board` shows the board, `resign` gives up, `quit` leaves.",
        kind_name(kind, LANG),
        level_name(level, LANG),
        side_name(kind, human, LANG).to_lowercase(),
    )?;
    let mut game = match resumed {
        Some(game) => {
            let again = for_this_shell(&format!("`settai play {kind} --new`"));
            writeln!(
                out,
                "Your unfinished game goes on from move {}; `resign` or {again} starts over.",
                game.record.ply + 1
            )?;
            if request.level_asked && request.level != game.record.level {
                let again = for_this_shell(&format!("`settai play {kind} --new --level {}`", request.level.as_str()));
                writeln!(
                    out,
                    "It keeps its own level, {}; --level {} is for a new game: {again} gives this one up and starts one.",
                    level_name(game.record.level, LANG),
                    request.level.as_str()
                )?;
            }
            game
        }
        None => runtime.block_on(service.start_at_level(&caller, human, level))?,
    };
    if game.record.bot_to_move() {
        let stored = runtime.block_on(service.bot_turn(game))?;
        narrate(&stored.moves, out)?;
        game = stored.game;
    }
    let mut lines = input.lines();
    let mut show_board = true;
    while game.record.status == GameStatus::Active {
        let record = &game.record;
        if show_board {
            writeln!(out, "\n{}", text_board(&record.game))?;
            show_board = false;
        }
        let legal = record.game.legal_moves().iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
        write!(out, "your move> ")?;
        out.flush()?;
        let saved = for_this_shell(&format!("`settai play {kind}` goes on with it"));
        let Some(line) = lines.next() else {
            writeln!(out, "\nThe input ended; the game is kept: {saved}. Bye!")?;
            return Ok(());
        };
        let line = line?;
        let typed = line.trim();
        match typed.to_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => {
                writeln!(out, "Bye! The game is kept: {saved}.")?;
                return Ok(());
            }
            "resign" => {
                snapshot.game = Some(game);
                runtime.block_on(service.resign(&caller, &snapshot, None))?;
                writeln!(out, "{}", Msg::Resigned.text(LANG))?;
                return Ok(());
            }
            "moves" | "?" | "help" => writeln!(out, "legal: {legal}")?,
            "board" => show_board = true,
            _ => match runtime.block_on(service.human_move(&caller, &with_game(&snapshot, &game), typed, None)) {
                Ok(turn) => {
                    let bot = runtime.block_on(service.finish_turn(turn))?;
                    narrate(&bot.moves, out)?;
                    game = bot.game;
                    show_board = true;
                }
                Err(PlayError::BadMove { error: MoveError::Syntax(_), .. }) => {
                    let reason = format!("expected {example} (`moves` lists them)");
                    writeln!(out, "{}", Msg::BadMove { kind, input: typed, reason: &reason }.text(LANG))?;
                }
                Err(PlayError::BadMove { error: MoveError::Illegal(_), .. }) => {
                    writeln!(out, "{}", Msg::IllegalMove { kind, input: typed, legal: &legal }.text(LANG))?;
                }
                Err(e) => return Err(e.into()),
            },
        }
    }
    game_over(&game.record, human, out)
}

/// The terminal's place holding `game` (as this process has it).
fn with_game(snapshot: &Snapshot, game: &StoredGame) -> Snapshot {
    Snapshot { game: Some(game.clone()), last_ended: None, ..snapshot.clone() }
}

/// The moves the AI's turn made: its own, and the human's forced passes (the move the human
/// typed, which comes first, is not told back).
fn narrate(moves: &[PlayedMove], out: &mut impl Write) -> std::io::Result<()> {
    for m in moves.iter().filter(|m| m.user_id.is_none()) {
        match (m.by_bot, m.mv.is_pass()) {
            (true, true) => writeln!(out, "\nThe AI has no move and passes.")?,
            (true, false) => writeln!(out, "\nThe AI plays {}.", m.mv)?,
            (false, _) => writeln!(out, "{}", Msg::YouPassed.text(LANG))?,
        }
    }
    Ok(())
}

/// The final board and the result in words.
fn game_over(record: &GameRecord, human: Side, out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(out, "\n{}", text_board(&record.game))?;
    match record.game.outcome() {
        Some(outcome) => writeln!(out, "{}", game_over_line(&outcome, human))?,
        None => writeln!(out, "The game was closed.")?,
    }
    Ok(())
}
