//! What the catalogue's check reads: every message with a sample for each branch of its
//! sentence, and the labels and names said outside messages, each in both languages.

use crate::domain::{DataCounts, Forgotten, HouseRule, Lang, PlayerResults, Setting, Settings, Venue};
use crate::i18n::menus::{move_label, MoveMenu};
use crate::i18n::msg::Msg;
use crate::i18n::names::animal_name;
use crate::i18n::permissions::Needed;
use settai_core::doubutsu::{Role, Value};
use settai_core::Moment;
use settai_core::{doubutsu, reversi, Commentary, EndReason, GameKind, GameMove, Level, MoveDetail, Outcome, Side};

/// A player's id, as Discord mentions them.
const PLAYER: u64 = 123_456_789_012_345_678;
/// A link to a board message.
const LINK: &str = "https://discord.com/channels/1/2/3";

/// Kept for the whole test: a message borrows its arguments, and the samples outlive the
/// function that makes them.
fn keep<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn reversi_move(text: &str) -> GameMove {
    GameMove::parse(GameKind::Reversi, text).expect("a reversi move")
}

fn doubutsu_move(text: &str) -> GameMove {
    GameMove::parse(GameKind::Doubutsu, text).expect("a doubutsu move")
}

/// Why `input` is not a move of `kind`, as the game's notation says.
fn syntax_error(kind: GameKind, input: &str) -> &'static str {
    match GameMove::parse(kind, input) {
        Err(settai_core::MoveError::Syntax(reason)) => keep(reason).as_str(),
        other => panic!("{input:?} should not read as a move of {kind}: {other:?}"),
    }
}

fn values<T>(named: Vec<(&'static str, T)>) -> Vec<T> {
    named.into_iter().map(|(_, value)| value).collect()
}

/// Every level of both games.
fn levels() -> Vec<Level> {
    GameKind::ALL.iter().flat_map(|&kind| Level::for_kind(kind).iter().copied()).collect()
}

/// A seat known or not, as the board images take it.
fn seats() -> Vec<Option<Side>> {
    std::iter::once(None).chain(every!(Side { First, Second }).into_iter().map(Some)).collect()
}

/// Every game with every seat in it.
fn kinds_and_sides() -> Vec<(GameKind, Side)> {
    GameKind::ALL.iter().flat_map(|&kind| every!(Side { First, Second }).into_iter().map(move |s| (kind, s))).collect()
}

/// Every message, by variant, with a sample for each branch of its sentence.
fn messages() -> Vec<(&'static str, Msg<'static>)> {
    let reasons = &every!(EndReason { Count, LionCaptured, Try, Repetition, NoMoves });
    let on_off = [true, false];
    let needed = every!(Needed { SendMessages, AttachFiles, SendInThreads });
    let moment = |ply, mv| Moment { ply, mv };
    let finds: &'static [Moment] = keep(vec![moment(12, doubutsu_move("B3B2")), moment(20, doubutsu_move("E*B2"))]);
    let slips: &'static [Moment] = keep(vec![moment(7, reversi_move("c4"))]);
    samples_of_every!(Msg {
        Started => kinds_and_sides()
            .into_iter()
            .map(|(kind, human_side)| Msg::Started { kind, human: PLAYER, human_side })
            .collect(),
        YourMove => vec![Msg::YourMove { human: PLAYER }],
        YouPlayed => vec![Msg::YouPlayed { mv: reversi_move("d3") }, Msg::YouPlayed { mv: doubutsu_move("B3B2") }],
        BotPlayed => [reversi_move("pass"), reversi_move("d3"), doubutsu_move("E*B2")]
            .map(|mv| Msg::BotPlayed { mv })
            .to_vec(),
        YouPassed => vec![Msg::YouPassed],
        GameOver => [Some(true), Some(false), None]
            .into_iter()
            .flat_map(|human_won| {
                std::iter::once(None).chain(reasons.iter().copied().map(Some)).flat_map(move |reason| {
                    [None, Some((40, 24))].map(|score| Msg::GameOver { human_won, score, reason })
                })
            })
            .collect(),
        Result => GameKind::ALL
            .into_iter()
            .flat_map(|kind| {
                [Some(Side::First), Some(Side::Second), None].into_iter().flat_map(move |winner| {
                    reasons.iter().flat_map(move |&reason| {
                        [None, Some((40, 24))]
                            .map(|score| Msg::Result { kind, outcome: Outcome { winner, score, reason } })
                    })
                })
            })
            .collect(),
        Unavailable => GameKind::ALL
            .into_iter()
            .flat_map(|kind| [None, Some(1), Some(5)].map(|minutes| Msg::Unavailable { kind, minutes }))
            .collect(),
        Resigned => vec![Msg::Resigned],
        ChannelBusy => vec![Msg::ChannelBusy],
        NoGame => vec![Msg::NoGame],
        NotYourGame => vec![Msg::NotYourGame { owner: PLAYER }],
        NotYourTurn => vec![Msg::NotYourTurn],
        StaleBoard => vec![Msg::StaleBoard],
        AlreadyPlayed => vec![Msg::AlreadyPlayed],
        BadMove => vec![
            Msg::BadMove { kind: GameKind::Reversi, input: "z9", reason: syntax_error(GameKind::Reversi, "z9") },
            Msg::BadMove { kind: GameKind::Doubutsu, input: "lion", reason: syntax_error(GameKind::Doubutsu, "lion") },
        ],
        IllegalMove => vec![
            Msg::IllegalMove { kind: GameKind::Reversi, input: "a1", legal: "d3, c4, f5, e6" },
            Msg::IllegalMove { kind: GameKind::Doubutsu, input: "B3B1", legal: "B3B2, A4A3, C4C3" },
        ],
        TryAgain => vec![Msg::TryAgain],
        MenuOf => every!(MoveMenu { Lion, Animals, Hand, Discs })
            .into_iter()
            .flat_map(|menu| on_off.map(|more| Msg::MenuOf { menu, more }))
            .collect(),
        ResignButton => vec![Msg::ResignButton],
        ResignConfirm => vec![Msg::ResignConfirm],
        ResignYes => vec![Msg::ResignYes],
        ResignNo => vec![Msg::ResignNo],
        KeepPlaying => vec![Msg::KeepPlaying],
        ManagersOnly => vec![Msg::ManagersOnly],
        NoManagers => vec![Msg::NoManagers],
        MissingPermissions => needed
            .iter()
            .map(|n| Msg::MissingPermissions { needed: keep([*n]) })
            .chain([Msg::MissingPermissions { needed: keep(needed.clone()) }])
            .collect(),
        Stats => vec![
            Msg::Stats { human: PLAYER, results: GameKind::ALL.map(|k| (k, PlayerResults::default())).to_vec() },
            Msg::Stats {
                human: PLAYER,
                results: vec![
                    (GameKind::Reversi, PlayerResults { wins: 1, losses: 1, draws: 1, takebacks: 1 }),
                    (GameKind::Doubutsu, PlayerResults { wins: 12, losses: 3, draws: 2, takebacks: 5 }),
                ],
            },
        ],
        Settings => settings()
            .into_iter()
            .flat_map(|settings| {
                [None, Some(true), Some(false)].map(|hints_choice| Msg::Settings { settings, hints_choice })
            })
            .collect(),
        ChoiceSet => on_off.map(|on| Msg::ChoiceSet { on }).to_vec(),
        ForThisChannel => vec![Msg::ForThisChannel],
        ChannelReset => on_off.map(|had| Msg::ChannelReset { had }).to_vec(),
        Busy => vec![Msg::Busy],
        CorruptGame => vec![Msg::CorruptGame],
        NoLevelChoice => vec![Msg::NoLevelChoice],
        ChooseOpponent => GameKind::ALL.map(|kind| Msg::ChooseOpponent { kind }).to_vec(),
        PickOpponent => vec![Msg::PickOpponent],
        Opponent => levels().into_iter().map(|level| Msg::Opponent { level }).collect(),
        OpponentHint => levels()
            .into_iter()
            .flat_map(|level| on_off.map(|reveal| Msg::OpponentHint { level, reveal }))
            .collect(),
        OpponentChosen => levels().into_iter().map(|level| Msg::OpponentChosen { level }).collect(),
        HouseRulesNote => vec![Msg::HouseRulesNote],
        HouseRuleToggle => every!(HouseRule { Takeback, Commentary })
            .into_iter()
            .flat_map(|rule| on_off.map(|on| Msg::HouseRuleToggle { rule, on }))
            .collect(),
        TeamSet => on_off.map(|on| Msg::TeamSet { on }).to_vec(),
        LanguageSet => std::iter::once(None)
            .chain(every!(Lang { En, Ja }).into_iter().map(Some))
            .map(|language| Msg::LanguageSet { language })
            .collect(),
        IdleSet => vec![Msg::IdleSet { days: 14 }],
        BoardWasOld => vec![Msg::BoardWasOld],
        NotAddedHere => vec![Msg::NotAddedHere],
        ClosedIdle => vec![Msg::ClosedIdle],
        Expired => vec![Msg::Expired { human: PLAYER, days: 14 }],
        CommentarySet => on_off.map(|on| Msg::CommentarySet { on }).to_vec(),
        Comment => values(commentaries()).into_iter().map(|c| Msg::Comment(keep(c))).collect(),
        LevelSet => levels().into_iter().map(|level| Msg::LevelSet { kind: level.kind(), level }).collect(),
        LevelNotForGame => GameKind::ALL.map(|kind| Msg::LevelNotForGame { kind }).to_vec(),
        SideName => kinds_and_sides().into_iter().map(|(kind, side)| Msg::SideName { kind, side }).collect(),
        ChartTitle => vec![Msg::ChartTitle],
        ChartWinning => vec![Msg::ChartWinning],
        ChartLosing => vec![Msg::ChartLosing],
        ChartDiscs => [-8, 0, 12].map(|discs| Msg::ChartDiscs { discs }).to_vec(),
        ChartPlies => vec![Msg::ChartPlies { plies: 30 }],
        ChartFinds => vec![Msg::ChartFinds],
        ChartSlips => vec![Msg::ChartSlips],
        Summary => vec![
            Msg::Summary { finds, slips },
            Msg::Summary { finds, slips: &[] },
            Msg::Summary { finds: &[], slips },
            Msg::Summary { finds: &[], slips: &[] },
        ],
        Replay => vec![Msg::Replay],
        PictureMissing => vec![Msg::PictureMissing],
        Computer => vec![Msg::Computer],
        BoardTurn => GameKind::ALL
            .into_iter()
            .flat_map(|kind| {
                seats().into_iter().flat_map(move |to_move| {
                    seats().into_iter().map(move |human| Msg::BoardTurn { kind, to_move, human })
                })
            })
            .collect(),
        BoardSeat => kinds_and_sides()
            .into_iter()
            .flat_map(|(kind, side)| seats().into_iter().map(move |human| Msg::BoardSeat { kind, side, human }))
            .collect(),
        Reminder => GameKind::ALL
            .into_iter()
            .flat_map(|kind| [Some(LINK), None].map(|link| Msg::Reminder { human: PLAYER, kind, link }))
            .collect(),
        FinalNotice => GameKind::ALL
            .into_iter()
            .flat_map(|kind| [Some(LINK), None].map(|link| Msg::FinalNotice { human: PLAYER, kind, link }))
            .collect(),
        RemindSet => on_off.map(|on| Msg::RemindSet { on }).to_vec(),
        RemindersSet => [0, 24].map(|hours| Msg::RemindersSet { hours }).to_vec(),
        AlreadyHandled => vec![Msg::AlreadyHandled],
        TakebackSet => on_off.map(|on| Msg::TakebackSet { on }).to_vec(),
        TookBack => vec![Msg::TookBack],
        TakebackButton => vec![Msg::TakebackButton],
        TakebackOff => vec![Msg::TakebackOff],
        NothingToTakeBack => vec![Msg::NothingToTakeBack],
        HintsSet => on_off.map(|on| Msg::HintsSet { on }).to_vec(),
        HintsChosen => on_off.map(|on| Msg::HintsChosen { on }).to_vec(),
        LionInDanger => vec![Msg::LionInDanger],
        OfferTakeback => vec![Msg::OfferTakeback],
        RiskyMark => vec![Msg::RiskyMark],
        ListButton => vec![Msg::ListButton],
        MovesAsList => vec![Msg::MovesAsList],
        GameBox => vec![Msg::GameBox],
        AgainButton => vec![Msg::AgainButton],
        Help => every!(Venue { Server, BotDm, PrivateChannel })
            .into_iter()
            .flat_map(|venue| on_off.map(|commentary| Msg::Help { commentary, venue, idle_days: 14 }))
            .collect(),
        HowAnimalsMove => vec![Msg::HowAnimalsMove],
        Promotion => vec![Msg::Promotion],
        ForgetQuestion => data_counts().into_iter().map(|counts| Msg::ForgetQuestion { counts: keep(counts) }).collect(),
        NothingKept => vec![Msg::NothingKept],
        EraseButton => vec![Msg::EraseButton],
        KeepButton => vec![Msg::KeepButton],
        Forgotten => [
            Forgotten { games: 3, ended: vec![41], moves: 57, choices: true },
            Forgotten { games: 0, ended: Vec::new(), moves: 4, choices: false },
        ]
        .into_iter()
        .map(|done| Msg::Forgotten { done: keep(done) })
        .collect(),
        Kept => vec![Msg::Kept],
    })
}

/// Settings that between them take every branch of `/settings show`: each setting from the
/// server and from the channel, on and off, every language and reminders on and off.
fn settings() -> Vec<&'static Settings> {
    let changed = Settings {
        reversi_level: reversi::ReversiLevel::StandardClassic,
        doubutsu_level: doubutsu::DoubutsuLevel::Weakest,
        commentary: true,
        idle_days: 30,
        team_play: true,
        language: Some(Lang::En),
        level_choice: true,
        reminder_hours: 0,
        takeback: true,
        hints: false,
        from_channel: Setting::ALL.to_vec(),
    };
    let japanese = Settings { language: Some(Lang::Ja), from_channel: vec![Setting::Hints], ..Settings::default() };
    vec![keep(Settings::default()), keep(changed), keep(japanese)]
}

/// What a player's data may hold: everything, nothing but one kind, and each kind alone.
fn data_counts() -> Vec<DataCounts> {
    let all = DataCounts { finished_games: 5, games_in_progress: 1, moves_in_others_games: 12, choices: true };
    let none = DataCounts::default();
    vec![
        all,
        DataCounts { finished_games: 1, ..none },
        DataCounts { games_in_progress: 2, ..none },
        DataCounts { moves_in_others_games: 1, ..none },
        DataCounts { choices: true, ..none },
    ]
}

/// The commentary on a best move and on a worse one, in each game, with every doubutsu value.
fn commentaries() -> Vec<(&'static str, Commentary)> {
    let step = |text: &str| match doubutsu_move(text) {
        GameMove::Doubutsu(mv) => mv,
        GameMove::Reversi(_) => unreachable!("a doubutsu move"),
    };
    let square = |text: &str| match reversi_move(text) {
        GameMove::Reversi(mv) => mv,
        GameMove::Doubutsu(_) => unreachable!("a reversi move"),
    };
    let every_value = values(samples_of_every!(Value {
        Win => vec![Value::Win(5)],
        Loss => vec![Value::Loss(2)],
        Draw => vec![Value::Draw],
    }));
    samples_of_every!(Commentary {
        Doubutsu => every_value
            .iter()
            .flat_map(|&value| {
                [
                    Commentary::Doubutsu {
                        mv: step("B3B2"),
                        divergence: 1.0,
                        best: vec![step("B3B2"), step("A4A3")],
                        value,
                        best_value: value,
                    },
                    Commentary::Doubutsu {
                        mv: step("C4C3"),
                        divergence: 0.75,
                        best: vec![step("B3B2")],
                        value,
                        best_value: Value::Win(3),
                    },
                ]
            })
            .collect(),
        Reversi => vec![
            Commentary::Reversi { mv: square("d3"), value: 6.2, best: square("d3"), best_value: 6.4 },
            Commentary::Reversi { mv: square("c4"), value: -2.0, best: square("f5"), best_value: 4.0 },
        ],
    })
}

/// Something a player reads, said in both languages.
pub(super) struct Said {
    /// Which message or label, and its branch's arguments.
    pub name: String,
    /// The variant or function it comes from, as [`super::LANGUAGE_NEUTRAL`] names it.
    pub kind: &'static str,
    /// The English text.
    pub en: String,
    /// The Japanese text.
    pub ja: String,
}

/// Every message and every label outside them (the move menus' options, the animals' names
/// under their pictures), said in both languages.
pub(super) fn everything_said() -> Vec<Said> {
    let mut said: Vec<Said> = messages()
        .into_iter()
        .map(|(kind, msg)| Said { name: format!("{msg:?}"), kind, en: msg.text(Lang::En), ja: msg.text(Lang::Ja) })
        .collect();
    let details = samples_of_every!(MoveDetail {
        Place => vec![MoveDetail::Place { flips: 1 }, MoveDetail::Place { flips: 4 }],
        Pass => vec![MoveDetail::Pass],
        Step => vec![
            MoveDetail::Step { role: Role::Chick, captures: None },
            MoveDetail::Step { role: Role::Lion, captures: Some(Role::Giraffe) },
        ],
        Drop => vec![MoveDetail::Drop { role: Role::Elephant }],
    });
    let labels = details
        .into_iter()
        .map(|(variant, detail)| {
            let mv = match detail {
                MoveDetail::Place { .. } => reversi_move("d3"),
                MoveDetail::Pass => reversi_move("pass"),
                MoveDetail::Step { .. } => doubutsu_move("B3B2"),
                MoveDetail::Drop { .. } => doubutsu_move("E*B2"),
            };
            (variant, mv, Some(detail))
        })
        .chain([reversi_move("d3"), doubutsu_move("B3B2")].map(|mv| ("None", mv, None)));
    for (variant, mv, detail) in labels {
        said.push(Said {
            name: format!("move_label({mv}, {detail:?})"),
            kind: keep(format!("move_label({variant})")).as_str(),
            en: move_label(mv, detail, Lang::En),
            ja: move_label(mv, detail, Lang::Ja),
        });
    }
    for role in every!(Role { Lion, Giraffe, Elephant, Chick, Hen }) {
        said.push(Said {
            name: format!("animal_name({role:?})"),
            kind: "animal_name",
            en: animal_name(role, Lang::En).into(),
            ja: animal_name(role, Lang::Ja).into(),
        });
    }
    said
}
