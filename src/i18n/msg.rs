//! [`Msg`]: something the bot says, with what it needs to say it.

use super::menus::MoveMenu;
use super::permissions::Needed;
use crate::domain::{DataCounts, Forgotten, HouseRule, Lang, PlayerResults, Settings, Venue};
use settai_core::Moment;
use settai_core::{Commentary, EndReason, GameKind, GameMove, Level, Outcome, Side};

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
    /// The move text is not a move of `kind` (`reason` says why, in English: the Japanese text
    /// shows an example of the game's notation instead).
    BadMove { kind: GameKind, input: &'a str, reason: &'a str },
    /// The move is not legal in a game of `kind` (reversi places a disc, doubutsu moves an animal:
    /// Japanese words them differently).
    IllegalMove { kind: GameKind, input: &'a str, legal: &'a str },
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
    /// `/settings` outside a server: a private conversation has no managers, and what
    /// happens there instead.
    NoManagers,
    /// The bot lacks permissions it needs here to show a game.
    MissingPermissions { needed: &'a [Needed] },
    /// A player's results, per game.
    Stats { human: u64, results: Vec<(GameKind, PlayerResults)> },
    /// The server's settings.
    Settings {
        /// The place's settings.
        settings: &'a Settings,
        /// The reader's own choice of hints, if they made one.
        hints_choice: Option<bool>,
    },
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
    /// Under the picker's heading outside servers: the game's own rules can be set first.
    HouseRulesNote,
    /// A toggle of one of the game's own rules, showing whether it is on.
    HouseRuleToggle { rule: HouseRule, on: bool },
    /// Team mode was turned on or off.
    TeamSet { on: bool },
    /// The server's language was set (`None`: each player's own).
    LanguageSet { language: Option<Lang> },
    /// The idle limit was set.
    IdleSet { days: u32 },
    /// Above a fresh board: the one tapped was out of date.
    BoardWasOld,
    /// The app was used in a server it was not added to (a player's own install).
    NotAddedHere,
    /// There is no game: the last one was closed for waiting too long.
    ClosedIdle,
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
    /// Under a board whose picture could not be drawn: the buttons still play.
    PictureMissing,
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
    /// The coach's hints were turned on or off (`/settings hints`).
    HintsSet { on: bool },
    /// `/play hints`: the player chose the coach's hints for themself, on every server.
    HintsChosen { on: bool },
    /// The coach, under a board where the player's lion is attacked (never a word about the
    /// bot's intentions: docs/design/kind-coach.md#the-secret).
    LionInDanger,
    /// The coach, after the player's move let the lion be caught or a try through, where
    /// take-backs are allowed: the ↩ button is offered.
    OfferTakeback,
    /// The mark of a move that loses at once in the move menus and autocomplete.
    RiskyMark,
    /// The button under a board that shows the player's moves as a list (privately).
    ListButton,
    /// Above that list: what it is, and that the board's buttons do the same.
    MovesAsList,
    /// The game box's line, over its big buttons (for grown-ups: a child taps a picture).
    GameBox,
    /// The button under a final board that starts the same game again.
    AgainButton,
    /// `/play help`: the rules of both games and how to tap; the levels only with the
    /// commentary on (else no word of them, as everywhere); outside servers, how games go
    /// there (who chooses, who is reminded, the close after `idle_days` days without a move).
    Help { commentary: bool, venue: Venue, idle_days: u32 },
    /// Title of the picture of how the animals move.
    HowAnimalsMove,
    /// The picture's last panel: a chick reaching the far row becomes a hen.
    Promotion,
    /// `/play forget-me`: what erasing the player's data would remove, asked before anything is.
    ForgetQuestion { counts: &'a DataCounts },
    /// `/play forget-me` when nothing is kept about the player.
    NothingKept,
    /// The button that erases the player's data.
    EraseButton,
    /// The button that keeps it.
    KeepButton,
    /// The player's data was erased.
    Forgotten { done: &'a Forgotten },
    /// The player chose to keep their data.
    Kept,
}
