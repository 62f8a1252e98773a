//! Every component the bot posts (menus and buttons), as one type parsed once at the edge from
//! its custom id, and the one dispatch of a press (docs/design/touch.md#one-home-for-the-buttons).
//!
//! A new button is its id type and its flow in the flow's own file, and here a variant, its
//! prefix, its figure's name and its arm of the dispatch: two files.

use serenity::all::{ComponentInteraction, ComponentInteractionDataKind, MessageId};

use super::callers::{app_not_in_server, caller_of_component, missing_permissions};
use super::child_answers::report_to_child;
use super::custom_id::{
    ForgetButton, HouseRuleButton, ListButton, MoveSelect, OpponentSelect, ResignButton, TakebackButton, Tap,
    TouchButton,
};
use super::failure::{answer_privately, refuse_missing, report, Failure};
use super::flows::{or_the_board_now, play, resign_button};
use super::forget_me::forget_button;
use super::game_box::StartButton;
use super::observed::{note_game, Observation};
use super::reply::Responder;
use super::request::{read_place, Request};
use super::shell::Shell;
use super::starts::{start_chosen, start_pressed, toggle_house_rule};
use super::takeback::take_back;
use super::tapping::{show_list, tap};
use crate::domain::Venue;
use crate::i18n::{Lang, Msg};
use crate::service::PlayError;
use settai_core::Level;

/// A component of one of the bot's messages, as its custom id names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Component {
    /// A menu of moves (the list's, for grown-ups and screen readers).
    MoveMenu(MoveSelect),
    /// A button of the board of buttons.
    Touch(TouchButton),
    /// The list button under a board.
    List(ListButton),
    /// The opponent picker (a menu).
    Opponent(OpponentSelect),
    /// A toggle of the game's own rules beside the picker.
    HouseRule(HouseRuleButton),
    /// Resign, and its question's two answers.
    Resign(ResignButton),
    /// The take-back button.
    Takeback(TakebackButton),
    /// The forget-me question's answers.
    Forget(ForgetButton),
    /// A game (or an opponent) of the game box, or "again" under a final board.
    Start(StartButton),
}

/// What a press of a component sent: a button, or a menu's chosen values.
#[derive(Debug, Clone, Copy)]
pub(super) enum Pressed<'a> {
    /// A button.
    Button,
    /// A select menu, with the values chosen.
    Select(&'a [String]),
}

impl Component {
    /// The component `custom_id` names, read once: by its prefix, then by its own parser.
    pub(super) fn parse(custom_id: &str) -> Option<Component> {
        let prefix = custom_id.split(':').next()?;
        match prefix {
            "mv" => MoveSelect::parse(custom_id).map(Component::MoveMenu),
            "t" => TouchButton::parse(custom_id).map(Component::Touch),
            "ls" => ListButton::parse(custom_id).map(Component::List),
            "op" => OpponentSelect::parse(custom_id).map(Component::Opponent),
            "hr" => HouseRuleButton::parse(custom_id).map(Component::HouseRule),
            "rs" => ResignButton::parse(custom_id).map(Component::Resign),
            "tb" => TakebackButton::parse(custom_id).map(Component::Takeback),
            "fm" => ForgetButton::parse(custom_id).map(Component::Forget),
            StartButton::PREFIX => StartButton::parse(custom_id).map(Component::Start),
            _ => None,
        }
    }

    /// Its custom id, as posted.
    #[cfg(test)]
    pub(super) fn custom_id(&self) -> String {
        match self {
            Component::MoveMenu(c) => c.custom_id(),
            Component::Touch(c) => c.custom_id(),
            Component::List(c) => c.custom_id(),
            Component::Opponent(c) => c.custom_id(),
            Component::HouseRule(c) => c.custom_id(),
            Component::Resign(c) => c.custom_id(),
            Component::Takeback(c) => c.custom_id(),
            Component::Forget(c) => c.custom_id(),
            Component::Start(c) => c.custom_id(),
        }
    }

    /// What a press asks for, as the figures name it (docs/design/operations.md).
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Component::Touch(TouchButton { tap: Tap::Play(_), .. }) | Component::MoveMenu(_) => "move",
            Component::Touch(_) => "choose",
            Component::List(_) => "list",
            Component::Opponent(_) | Component::Start(_) => "start",
            Component::HouseRule(_) => "house_rule",
            Component::Resign(_) => "resign",
            Component::Takeback(_) => "takeback",
            Component::Forget(_) => "forget_me",
        }
    }

    /// Whether its answer is posted in the channel, so that the bot needs the channel's
    /// permissions: all but the forget-me question, which is private from start to end.
    pub(super) fn posts_in_channel(&self) -> bool {
        !matches!(self, Component::Forget(_))
    }

    /// Whether a child presses it, and so hears of a refusal without a sentence to read
    /// (docs/design/touch.md#no-sentence-to-read): the board of buttons, the list button, the
    /// take-back button, the game box and "again". The menus, Resign and the questions are for
    /// grown-ups and screen readers and keep their words.
    pub(super) fn pressed_by_a_child(&self) -> bool {
        matches!(self, Component::Touch(_) | Component::List(_) | Component::Takeback(_) | Component::Start(_))
    }
}

/// Answers a press of a component: parsed once, checked, dispatched, and told in words or,
/// to a child, without ([`report_to_child`]).
pub(super) async fn on_component(shell: &Shell, responder: &Responder, c: &ComponentInteraction) -> Observation {
    let caller = caller_of_component(c);
    // Parsed once, here: everything after works on the component, never on its id.
    let component = Component::parse(&c.data.custom_id);
    let kind = component.as_ref().map_or("unknown", Component::kind);
    let child = component.as_ref().is_some_and(Component::pressed_by_a_child);
    if app_not_in_server(c.context, &c.authorizing_integration_owners) {
        let text = Msg::NotAddedHere.text(Lang::from_locale(&c.locale));
        return Observation::new(kind, None, answer_privately(responder, text).await);
    }
    let (snapshot, lang) = read_place(&shell.service, &caller, &c.locale).await;
    let snapshot = match snapshot {
        Ok(s) => s,
        Err(e) if child => {
            return Observation::new(
                kind,
                None,
                report_to_child(shell, responder, None, Err(Failure::Refused(e))).await,
            )
        }
        Err(e) => {
            return Observation::new(
                kind,
                None,
                report(&shell.service, responder, Err(Failure::Refused(e)), lang).await,
            )
        }
    };
    if let Some(game) = &snapshot.game {
        note_game(game.record.id);
    }
    let mut level = snapshot.game.as_ref().map(|g| g.record.level);
    let needed = missing_permissions(c.app_permissions, caller.parent_id.is_some());
    let posts = component.as_ref().is_none_or(Component::posts_in_channel);
    if posts && caller.venue == Venue::Server && !needed.is_empty() {
        return Observation::new(kind, level, refuse_missing(responder, &needed, lang).await);
    }
    let request = Request::new(responder, caller, snapshot, lang);
    let pressed = match &c.data.kind {
        ComponentInteractionDataKind::Button => Some(Pressed::Button),
        ComponentInteractionDataKind::StringSelect { values } => Some(Pressed::Select(values)),
        _ => None,
    };
    let ended = match (component, pressed) {
        (Some(component), Some(pressed)) => press(shell, &request, component, pressed, c.message.id, &mut level).await,
        _ => Err(Failure::Refused(PlayError::Stale)),
    };
    let handled = if child {
        report_to_child(shell, responder, Some(&request), ended).await
    } else {
        report(&shell.service, responder, ended, lang).await
    };
    Observation::new(kind, level, handled)
}

/// What a press of `component` (on message `on`) does: the one dispatch of every
/// component. `level` learns the level a start chose, for the figures.
pub(super) async fn press(
    shell: &Shell,
    request: &Request<'_>,
    component: Component,
    pressed: Pressed<'_>,
    on: MessageId,
    level: &mut Option<Level>,
) -> Result<(), Failure> {
    let stale = Err(Failure::Refused(PlayError::Stale));
    match (component, pressed) {
        (Component::MoveMenu(target), Pressed::Select(values)) => {
            let choice = values.first().map(String::as_str).unwrap_or("");
            let played = play(shell, request, choice, Some((target.game_id, target.ply, on)), false).await;
            or_the_board_now(shell, request, played).await
        }
        (Component::Opponent(picker), Pressed::Select(values)) => {
            // A published rule is chosen only where the menu offered it.
            let offered = |&l: &Level| picker.offers(&request.snapshot.settings.place, l);
            match values.first().and_then(|choice| picker.level(choice)).filter(offered) {
                Some(chosen) => {
                    *level = Some(chosen);
                    start_chosen(shell, request, picker, chosen).await
                }
                None => stale,
            }
        }
        (Component::Touch(button), Pressed::Button) => tap(shell, request, button, on).await,
        (Component::List(button), Pressed::Button) => show_list(request, button).await,
        (Component::Forget(button), Pressed::Button) => forget_button(&shell.service, request, button).await,
        (Component::Resign(button), Pressed::Button) => resign_button(shell, request, button).await,
        (Component::Takeback(b), Pressed::Button) => take_back(shell, request, Some((b.game_id, b.ply, on))).await,
        (Component::HouseRule(button), Pressed::Button) => toggle_house_rule(request, button).await,
        (Component::Start(button), Pressed::Button) => {
            *level = button.level();
            start_pressed(shell, request, button).await
        }
        // A menu's id on a button, or the other way round: only a forged payload.
        _ => stale,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::HouseRules;
    use settai_core::doubutsu::Role;
    use settai_core::{GameKind, Origin, Side};

    /// One id of every shape the bot has ever posted (boards live for weeks, so each must still
    /// read as what it was).
    const POSTED: [&str; 22] = [
        "mv:42:17:1",
        "t:42:17:c.B3",
        "t:42:17:c.G*",
        "t:42:17:x",
        "t:42:17:p.B3B2",
        "t:42:17:p.E*B2",
        "t:42:17:p.d3",
        "t:42:17:p.pass",
        "t:42:17:i.C4",
        "ls:42:17",
        "op:doubutsu:0",
        "op:reversi:1",
        "op:doubutsu:0:10",
        "hr:t:doubutsu:0:10",
        "hr:c:reversi:1:01",
        "rs:ask:42",
        "rs:yes:42",
        "rs:no:42",
        "tb:42:17",
        "fm:yes:7",
        "fm:no:7",
        "t:42:0:c.C4",
    ];

    #[test]
    fn every_id_ever_posted_still_parses_as_what_it_was() {
        for id in POSTED {
            let component = Component::parse(id).unwrap_or_else(|| panic!("{id} no longer parses"));
            assert_eq!(component.custom_id(), id, "{id} reads as something else: {component:?}");
        }
        let kinds: Vec<&str> = POSTED.iter().map(|id| Component::parse(id).unwrap().kind()).collect();
        for kind in ["move", "choose", "list", "start", "house_rule", "resign", "takeback", "forget_me"] {
            assert!(kinds.contains(&kind), "no posted id counts as {kind}");
        }
    }

    #[test]
    fn each_kind_of_component_round_trips_through_the_one_parser() {
        let rules = Some(HouseRules { takeback: true, commentary: false });
        let picker = OpponentSelect { kind: GameKind::Doubutsu, side: Side::First, house_rules: rules };
        let components = [
            Component::MoveMenu(MoveSelect { game_id: 1, ply: 2, part: 0 }),
            Component::Touch(TouchButton {
                game_id: 1,
                ply: 2,
                tap: Tap::Choose(Origin::Board("B3".parse().unwrap())),
            }),
            Component::Touch(TouchButton { game_id: 1, ply: 2, tap: Tap::Choose(Origin::Hand(Role::Chick)) }),
            Component::List(ListButton { game_id: 1, ply: 2 }),
            Component::Opponent(picker),
            Component::HouseRule(HouseRuleButton { picker, rule: crate::domain::HouseRule::Commentary }),
            Component::Resign(ResignButton::Confirm { game_id: 3 }),
            Component::Takeback(TakebackButton { game_id: 1, ply: 2 }),
            Component::Forget(ForgetButton::Keep { user_id: 9 }),
            Component::Start(StartButton::game(GameKind::Reversi, None)),
            Component::Start(StartButton::again(GameKind::Doubutsu, Side::First, 2, rules)),
        ];
        for c in components {
            assert!(c.custom_id().len() <= 100, "Discord's limit: {}", c.custom_id());
            assert_eq!(Component::parse(&c.custom_id()), Some(c.clone()), "{}", c.custom_id());
        }
        for bad in ["", ":", "zz:1:2", "mv", "t:1", "ls:1:2:3", "gb", "gb:chess"] {
            assert_eq!(Component::parse(bad), None, "{bad:?}");
        }
    }
}
