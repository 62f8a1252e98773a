//! Starting a game: `/play <game>` at once or through the offer of the opponents (with, outside
//! servers, the game's own rules), the game box and "again", and the first board.

use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
    EditInteractionResponse,
};

use super::board_message::{board, narrate};
use super::board_posts::board_posted;
use super::custom_id::{HouseRuleButton, OpponentSelect};
use super::failure::Failure;
use super::flows::show_board_privately;
use super::game_box::{box_rows, StartButton};
use super::message::{allowed_mentions, Reply};
use super::observed::note_game;
use super::request::Request;
use super::shell::Shell;
use crate::domain::{HouseRule, HouseRules, Lang, Pick, Settings, StoredGame};
use crate::i18n::Msg;
use crate::service::{settings_in_effect, Service};
use settai_core::{GameKind, Level, Side};

/// `/play <game>`: starts at once, or where players choose their opponent, offers the
/// choice first (a menu only the player sees).
pub(super) async fn start_or_offer(
    shell: &Shell,
    request: &Request<'_>,
    kind: GameKind,
    side: Side,
) -> Result<(), Failure> {
    let (responder, caller, settings, lang) = request.parts();
    if !settings.level_choice {
        let game = shell.service.start(caller, &request.snapshot, kind, side, None).await.map_err(Failure::Refused)?;
        note_game(game.record.id);
        responder.defer().await?;
        let (board, shown) = first_board(shell, request, game).await?;
        if let Some(posted) = responder.post(board).await? {
            board_posted(&shell.service, responder.http(), &shown.record, posted, None).await;
        }
        return Ok(());
    }
    // A busy channel says so now rather than after the choice.
    Service::channel_free(&request.snapshot).map_err(Failure::Refused)?;
    // Outside servers the starter also sets the game's own rules, in the same offer.
    let house_rules = (!caller.venue.has_managers()).then_some(HouseRules::OFFERED);
    let (heading, rows) = opponent_offer(OpponentSelect { kind, side, house_rules }, settings, lang);
    responder.answer(Reply::private(heading).with_components(rows)).await?;
    Ok(())
}

/// A tap on one of the game's own rules in the offer: the same offer, that rule switched.
pub(super) async fn toggle_house_rule(request: &Request<'_>, button: HouseRuleButton) -> Result<(), Failure> {
    let (responder, _, settings, lang) = request.parts();
    let mut picker = button.picker;
    picker.house_rules = picker.house_rules.map(|rules| rules.toggled(button.rule));
    let (heading, rows) = opponent_offer(picker, settings, lang);
    // An update keeps the message's own flags (it stays private).
    responder.update(Reply::public(heading).with_components(rows)).await?;
    Ok(())
}

/// The player picked an opponent: the game starts in the channel for all to see, and the
/// private menu says what was chosen.
pub(super) async fn start_chosen(
    shell: &Shell,
    request: &Request<'_>,
    picker: OpponentSelect,
    level: Level,
) -> Result<(), Failure> {
    let (responder, _, _, lang) = request.parts();
    let pick = Pick { level, house_rules: picker.house_rules };
    start_from_component(shell, request, picker.kind, picker.side, Some(pick)).await?;
    let chosen = EditInteractionResponse::new()
        .content(Msg::OpponentChosen { level }.text(lang))
        .allowed_mentions(allowed_mentions(&[]))
        .components(vec![]);
    responder.edit(chosen).await?;
    Ok(())
}

/// Starts a game from a component (the picker, the game box, "again") under every rule
/// `/play` keeps, and posts its first board as a new message: the component's own message
/// stays.
pub(super) async fn start_from_component(
    shell: &Shell,
    request: &Request<'_>,
    kind: GameKind,
    side: Side,
    pick: Option<Pick>,
) -> Result<(), Failure> {
    let (responder, caller, _, _) = request.parts();
    let game = shell.service.start(caller, &request.snapshot, kind, side, pick).await.map_err(Failure::Refused)?;
    note_game(game.record.id);
    responder.defer().await?;
    let (board, shown) = first_board(shell, request, game).await?;
    let posted = responder.follow_up_posted(board.follow_up()).await?;
    board_posted(&shell.service, responder.http(), &shown.record, posted, None).await;
    Ok(())
}

/// The first board of a new game (the greeting, and the bot's opening if it moves first)
/// and the game as it shows it.
async fn first_board(shell: &Shell, request: &Request<'_>, game: StoredGame) -> Result<(Reply, StoredGame), Failure> {
    let (_, caller, _, lang) = request.parts();
    // The request read the place's settings before the game existed: those in effect now
    // are the new game's.
    let read = &request.snapshot.settings;
    let settings = &settings_in_effect(&read.as_read, read.venue, game.record.house_rules, read.hints_choice).reader;
    let (kind, human_side) = (game.record.kind(), game.record.human_side);
    let bot = shell.service.bot_turn(game).await.map_err(Failure::Late)?;
    let mut lines = vec![Msg::Started { kind, human: caller.user_id, human_side }.text(lang)];
    lines.extend(narrate(&bot.moves, lang));
    let board = board(shell, &bot.game, bot.last_move(), lines, settings, lang).await;
    Ok((board, bot.game))
}

/// `/play games`: the game box, in the channel for all to tap (outside servers, the answer
/// itself).
pub(super) async fn show_game_box(request: &Request<'_>) -> Result<(), Failure> {
    let (responder, _, settings, lang) = request.parts();
    let reply = Reply::public(Msg::GameBox.text(lang)).with_components(box_rows(settings, lang));
    responder.answer(reply).await?;
    Ok(())
}

/// A tap on the box or on "again": the game starts, under every rule `/play` keeps; with
/// a game on here, that game's board instead.
pub(super) async fn start_pressed(shell: &Shell, request: &Request<'_>, button: StartButton) -> Result<(), Failure> {
    let (_, caller, settings, _) = request.parts();
    if request.snapshot.game.is_some() {
        return show_board_privately(shell, request).await;
    }
    let pick = button.pick(settings, caller.venue.has_managers());
    // The box (or the final board) stays for the next game.
    start_from_component(shell, request, button.kind, button.side, pick).await
}

/// The offer of the opponents for `picker`'s game (its text and components), with a toggle for
/// each of the game's own rules where it has them. The level names show only where the
/// commentary is on (the game's own choice, else the place's).
fn opponent_offer(picker: OpponentSelect, settings: &Settings, lang: Lang) -> (String, Vec<CreateActionRow>) {
    let reveal = picker.reveals_levels(settings);
    // The values are positions in the game's list of levels: not even the payload names them.
    let options = Level::for_kind(picker.kind)
        .iter()
        .enumerate()
        .filter(|(_, &level)| picker.offers(settings, level))
        .map(|(i, &level)| {
            CreateSelectMenuOption::new(Msg::Opponent { level }.text(lang), i.to_string())
                .description(Msg::OpponentHint { level, reveal }.text(lang))
        })
        .collect();
    let menu = CreateSelectMenu::new(picker.custom_id(), CreateSelectMenuKind::String { options })
        .placeholder(Msg::PickOpponent.text(lang));
    let mut rows = vec![CreateActionRow::SelectMenu(menu)];
    let mut heading = Msg::ChooseOpponent { kind: picker.kind }.text(lang);
    if let Some(rules) = picker.house_rules {
        heading = format!("{heading}\n{}", Msg::HouseRulesNote.text(lang));
        let toggles = HouseRule::ALL
            .into_iter()
            .map(|rule| {
                let on = rules.is_on(rule);
                CreateButton::new(HouseRuleButton { picker, rule }.custom_id())
                    .label(Msg::HouseRuleToggle { rule, on }.text(lang))
                    .style(if on { ButtonStyle::Success } else { ButtonStyle::Secondary })
            })
            .collect();
        rows.push(CreateActionRow::Buttons(toggles));
    }
    (heading, rows)
}
