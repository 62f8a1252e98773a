//! The rows the store reads, as sqlx decodes them (`FromRow`), and their reading into the
//! domain's types: text the database holds is parsed here, and what does not read is a
//! corrupt game, never a panic.

use chrono::{DateTime, Utc};

use super::batch::CorruptGame;
use super::StoreError;
use crate::domain::{
    GameRecord, GameResult, GameStatus, HouseRules, Lang, MoveRecord, Setting, Settings, StoredGame, MAX_REMINDER_HOURS,
};
use settai_core::{Game, GameKind, Level, Side};

/// The columns of a [`GameRow`], for `SELECT` and `RETURNING` lists: the one place they are
/// named ([`game_columns`] prefixes them with a table's alias).
pub(super) const GAME_COLUMNS: &str = "id, guild_id, channel_id, parent_id, kind, level, human_id, human_name, \
                                       human_side, position_and_start, ply, status, result, version, created_at, \
                                       updated_at, board_message_id, private_channel, house_takeback, \
                                       house_commentary, withdrew_blunder";

/// [`GAME_COLUMNS`] of the game aliased `alias`.
pub(super) fn game_columns(alias: &str) -> String {
    let columns: Vec<String> = GAME_COLUMNS.split(',').map(|c| format!("{alias}.{}", c.trim())).collect();
    columns.join(", ")
}

/// One row of `games`, as stored.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct GameRow {
    pub(super) id: i64,
    pub(super) guild_id: Option<i64>,
    pub(super) channel_id: i64,
    pub(super) parent_id: Option<i64>,
    pub(super) kind: String,
    pub(super) level: String,
    pub(super) human_id: i64,
    pub(super) human_name: String,
    pub(super) human_side: i16,
    /// The position and, for a doubutsu game set up elsewhere, its start (`Game::encode`); its
    /// moves are in `moves` only (docs/design/storage.md#one-record-of-the-moves).
    pub(super) position_and_start: String,
    pub(super) ply: i32,
    pub(super) status: String,
    pub(super) result: Option<String>,
    pub(super) version: i32,
    pub(super) created_at: DateTime<Utc>,
    pub(super) updated_at: DateTime<Utc>,
    pub(super) board_message_id: Option<i64>,
    pub(super) private_channel: bool,
    pub(super) house_takeback: Option<bool>,
    pub(super) house_commentary: Option<bool>,
    pub(super) withdrew_blunder: bool,
}

impl GameStatus {
    /// The status as the `status` column holds it.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Resigned => "resigned",
            GameStatus::Expired => "expired",
            GameStatus::Void => "void",
        }
    }

    /// The status the `status` column holds, if it reads.
    pub(super) fn parse(s: &str) -> Option<GameStatus> {
        Some(match s {
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            "resigned" => GameStatus::Resigned,
            "expired" => GameStatus::Expired,
            "void" => GameStatus::Void,
            _ => return None,
        })
    }
}

impl GameResult {
    /// The result as the `result` column holds it.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            GameResult::Human => "human",
            GameResult::Bot => "bot",
            GameResult::Draw => "draw",
        }
    }

    /// The result the `result` column holds, if it reads.
    pub(super) fn parse(s: &str) -> Option<GameResult> {
        Some(match s {
            "human" => GameResult::Human,
            "bot" => GameResult::Bot,
            "draw" => GameResult::Draw,
            _ => return None,
        })
    }
}

impl GameRow {
    /// The game this row holds, with `game` as its position: the one just written, which the
    /// row returned by the write holds (it need not be read back from the text).
    pub(super) fn into_record_holding(self, game: &Game) -> Result<GameRecord, StoreError> {
        self.into_record_read(|_, _| Ok((game.clone(), ()))).map(|(record, ())| record)
    }

    /// The game this row holds, its position read by `read` from the game's kind and the
    /// `position` text, with whatever else `read` found; what does not read makes the game
    /// corrupt.
    pub(super) fn into_record_read<T>(
        self,
        read: impl FnOnce(GameKind, &str) -> Result<(Game, T), String>,
    ) -> Result<(GameRecord, T), StoreError> {
        let id = self.id;
        let corrupt = |reason: String| StoreError::Corrupt { game_id: id, reason };
        let kind: GameKind = self.kind.parse().map_err(|e: settai_core::UnknownGame| corrupt(e.to_string()))?;
        let level = Level::parse(kind, &self.level).map_err(|e| corrupt(e.to_string()))?;
        let (mut game, found) = read(kind, &self.position_and_start).map_err(corrupt)?;
        let side = self.human_side;
        let human_side = Side::from_index(side).ok_or_else(|| corrupt(format!("human_side {side}")))?;
        // The record no longer holds a blunder its player took back; the game remembers it.
        if self.withdrew_blunder {
            game.note_withdrawn_blunder(human_side);
        }
        let record = GameRecord {
            id,
            guild_id: self.guild_id.map(|g| g as u64),
            channel_id: self.channel_id as u64,
            parent_id: self.parent_id.map(|p| p as u64),
            level,
            human_id: self.human_id as u64,
            human_name: self.human_name,
            human_side,
            game,
            ply: u32::try_from(self.ply).map_err(|_| corrupt(format!("ply {}", self.ply)))?,
            status: GameStatus::parse(&self.status).ok_or_else(|| corrupt(format!("status {:?}", self.status)))?,
            result: match self.result {
                None => None,
                Some(r) => Some(GameResult::parse(&r).ok_or_else(|| corrupt(format!("result {r:?}")))?),
            },
            version: self.version,
            created_at: self.created_at,
            updated_at: self.updated_at,
            board_message_id: self.board_message_id.map(|m| m as u64),
            private_channel: self.private_channel,
            house_rules: match (self.house_takeback, self.house_commentary) {
                (Some(takeback), Some(commentary)) => Some(HouseRules { takeback, commentary }),
                (None, None) => None,
                (t, c) => return Err(corrupt(format!("house rules {t:?}/{c:?}"))),
            },
        };
        Ok((record, found))
    }
}

/// One row of `moves`.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct MoveRow {
    pub(super) ply: i32,
    pub(super) notation: String,
    pub(super) by_bot: bool,
    pub(super) user_id: Option<i64>,
}

impl MoveRow {
    /// The move as the domain sees it.
    pub(super) fn into_move(self) -> MoveRecord {
        MoveRecord {
            ply: self.ply as u32,
            notation: self.notation,
            by_bot: self.by_bot,
            user_id: self.user_id.map(|u| u as u64),
        }
    }
}

/// A game's moves as parallel columns (one array each, in ply order), read beside its row.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct MoveColumns {
    move_plies: Vec<i32>,
    move_notations: Vec<String>,
    move_by_bot: Vec<bool>,
    move_user_ids: Vec<Option<i64>>,
}

/// The `FROM` clause's join of the moves of the game aliased `alias`, as the one row of a
/// [`MoveColumns`] (`mv.*`): one join, the moves read once, in ply order; empty arrays for a
/// game without moves (or no game: a place's snapshot joins a game that may be missing).
pub(super) fn moves_of_game(alias: &str) -> String {
    let column =
        |expression: &str, name: &str| format!("COALESCE(array_agg({expression} ORDER BY m.ply), '{{}}') AS {name}");
    format!(
        "LEFT JOIN LATERAL (SELECT {}, {}, {}, {} FROM moves m WHERE m.game_id = {alias}.id) mv ON TRUE",
        column("m.ply", "move_plies"),
        column("m.notation", "move_notations"),
        column("m.actor = 'bot'", "move_by_bot"),
        column("m.user_id", "move_user_ids"),
    )
}

impl MoveColumns {
    /// The moves, one record each.
    fn into_moves(self) -> Vec<MoveRecord> {
        let rows = self.move_plies.into_iter().zip(self.move_notations).zip(self.move_by_bot).zip(self.move_user_ids);
        rows.map(|(((ply, notation), by_bot), user_id)| MoveRecord {
            ply: ply as u32,
            notation,
            by_bot,
            user_id: user_id.map(|u| u as u64),
        })
        .collect()
    }
}

/// A game's row with its moves ([`game_columns`] and `mv.*` over [`moves_of_game`]): what every
/// read of a game decodes.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct GameWithMoves {
    #[sqlx(flatten)]
    row: GameRow,
    #[sqlx(flatten)]
    moves: MoveColumns,
}

impl GameWithMoves {
    /// The game this row holds: its moves, the one record of them, replayed once in place from
    /// the start its text names, which must lead to the position the text names, one move per
    /// ply (docs/design/storage.md#one-record-of-the-moves). What does not add up makes the game
    /// corrupt.
    pub(super) fn into_stored_game(self) -> Result<StoredGame, StoreError> {
        let moves = self.moves.into_moves();
        let (record, replayed) = self.row.into_record_read(|kind, text| {
            let stored = Game::decode(kind, text).map_err(|e| e.to_string())?;
            let (game, replayed) = StoredGame::replay(stored.start(), &moves).map_err(|untrusted| untrusted.0)?;
            if game.stored_position() != stored {
                return Err("the move list does not lead to the stored position".into());
            }
            Ok((game, replayed))
        })?;
        let game_id = record.id;
        StoredGame::of_replay(record, replayed)
            .map_err(|untrusted| StoreError::Corrupt { game_id, reason: untrusted.0 })
    }

    /// The game this row holds ([`GameWithMoves::into_stored_game`]) or, when it does not add
    /// up, the game as corrupt with the version read (a batch read sets it apart and goes on).
    pub(super) fn into_record_or_corrupt(self) -> Result<GameRecord, CorruptGame> {
        let (game_id, version) = (self.row.id, self.row.version);
        self.into_stored_game().map(|stored| stored.record).map_err(|e| CorruptGame {
            game_id,
            version,
            reason: match e {
                StoreError::Corrupt { reason, .. } => reason,
                other => other.to_string(),
            },
        })
    }
}

impl Setting {
    /// The column in `guild_settings` and `channel_settings` (never user input).
    pub(super) fn column(self) -> &'static str {
        match self {
            Setting::ReversiLevel => "reversi_level",
            Setting::DoubutsuLevel => "doubutsu_level",
            Setting::Commentary => "commentary",
            Setting::IdleDays => "idle_days",
            Setting::TeamPlay => "team_play",
            Setting::Language => "language",
            Setting::LevelChoice => "level_choice",
            Setting::ReminderHours => "reminder_hours",
            Setting::Takeback => "takeback",
            Setting::Hints => "hints",
        }
    }
}

/// The settings of a place as one row: each the channel's own value, else (in a thread) its
/// parent channel's, else the server's, and whether it came from the channel.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct SettingsRow {
    reversi_level: Option<String>,
    doubutsu_level: Option<String>,
    commentary: Option<bool>,
    idle_days: Option<i32>,
    team_play: Option<bool>,
    language: Option<String>,
    level_choice: Option<bool>,
    reminder_hours: Option<i32>,
    takeback: Option<bool>,
    hints: Option<bool>,
    reversi_level_here: bool,
    doubutsu_level_here: bool,
    commentary_here: bool,
    idle_days_here: bool,
    team_play_here: bool,
    language_here: bool,
    level_choice_here: bool,
    reminder_hours_here: bool,
    takeback_here: bool,
    hints_here: bool,
}

/// The select list of a [`SettingsRow`] over `t` (the channel's overrides), `p` (its parent
/// channel's) and `g` (the server's).
pub(super) fn settings_columns() -> String {
    let columns: Vec<String> = Setting::ALL
        .iter()
        .map(|s| {
            let c = s.column();
            format!("COALESCE(t.{c}, p.{c}, g.{c}) AS {c}, (t.{c} IS NOT NULL OR p.{c} IS NOT NULL) AS {c}_here")
        })
        .collect();
    columns.join(", ")
}

impl SettingsRow {
    /// The settings in effect; nothing set (or a level the game does not know, edited by hand)
    /// leaves the default.
    pub(super) fn into_settings(self) -> Settings {
        let defaults = Settings::default();
        let here = |setting| match setting {
            Setting::ReversiLevel => self.reversi_level_here,
            Setting::DoubutsuLevel => self.doubutsu_level_here,
            Setting::Commentary => self.commentary_here,
            Setting::IdleDays => self.idle_days_here,
            Setting::TeamPlay => self.team_play_here,
            Setting::Language => self.language_here,
            Setting::LevelChoice => self.level_choice_here,
            Setting::ReminderHours => self.reminder_hours_here,
            Setting::Takeback => self.takeback_here,
            Setting::Hints => self.hints_here,
        };
        let from_channel = Setting::ALL.into_iter().filter(|&s| here(s)).collect();
        Settings {
            reversi_level: self.reversi_level.and_then(|t| t.parse().ok()).unwrap_or(defaults.reversi_level),
            doubutsu_level: self.doubutsu_level.and_then(|t| t.parse().ok()).unwrap_or(defaults.doubutsu_level),
            commentary: self.commentary.unwrap_or(defaults.commentary),
            idle_days: self.idle_days.map_or(defaults.idle_days, |d| d.clamp(1, 365) as u32),
            team_play: self.team_play.unwrap_or(defaults.team_play),
            language: match self.language.as_deref() {
                Some("en") => Some(Lang::En),
                Some("ja") => Some(Lang::Ja),
                _ => None,
            },
            level_choice: self.level_choice.unwrap_or(defaults.level_choice),
            reminder_hours: self
                .reminder_hours
                .map_or(defaults.reminder_hours, |h| h.clamp(0, MAX_REMINDER_HOURS as i32) as u32),
            takeback: self.takeback.unwrap_or(defaults.takeback),
            hints: self.hints.unwrap_or(defaults.hints),
            from_channel,
        }
    }
}
