//! The move menus under a board: one per kind of move, with options a child can read.

use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
};

use super::custom_id::{MoveSelect, ResignButton, TakebackButton};
use super::touch_board::{sign, UNDO, WHITE_FLAG};
use crate::domain::StoredGame;
use crate::i18n::{move_label, Lang, MoveMenu, Msg};
use crate::render::MOST_NUMBERED;
use settai_core::{numbered_moves, Coach, GameMove};

/// Discord's limit of options in one select menu.
pub(super) const SELECT_MAX: usize = 25;

/// Select menus of the human's legal moves, or none when it is not the human's turn. Each menu
/// holds one kind of move, named by its placeholder (the lion, the other animals, the hand, the
/// discs), with options a child can read; a list longer than Discord's 25 goes on in another
/// menu. Where the `coach` allows take-backs, a Take back button beside Resign once the
/// player has moved. With its hints, the coach marks the moves that lose at once and lists them
/// last in their menu.
pub(super) fn move_menus(game: &StoredGame, coach: Coach, lang: Lang) -> Vec<CreateActionRow> {
    let record = &game.record;
    if !record.human_to_move() {
        return Vec::new();
    }
    let mut kinds: std::collections::BTreeMap<MoveMenu, Vec<CreateSelectMenuOption>> = Default::default();
    // A reversi move shows the number its square carries on the picture and its button.
    let numbered: Vec<GameMove> = numbered_moves(&record.game).into_iter().take(MOST_NUMBERED).collect();
    for (mv, risky) in coach.moves_in_order(&record.game) {
        let detail = record.game.move_detail(mv);
        let label = match risky {
            true => format!("{} {}", move_label(mv, detail, lang), Msg::RiskyMark.text(lang)),
            false => move_label(mv, detail, lang),
        };
        let label = match numbered.iter().position(|&n| n == mv) {
            Some(i) => format!("{} · {label}", i + 1),
            None => label,
        };
        let option = CreateSelectMenuOption::new(label, mv.to_string());
        kinds.entry(MoveMenu::of(detail)).or_default().push(option);
    }
    let mut buttons = vec![CreateButton::new(ResignButton::Ask { game_id: record.id }.custom_id())
        .label(Msg::ResignButton.text(lang))
        .emoji(sign(WHITE_FLAG))
        .style(ButtonStyle::Secondary)];
    // Only once the player has a move of their own to take back (as the service checks).
    if coach.takeback && game.takeback_ply().is_some() {
        let id = TakebackButton { game_id: record.id, ply: record.ply };
        buttons.push(
            CreateButton::new(id.custom_id())
                .label(Msg::TakebackButton.text(lang))
                .emoji(sign(UNDO))
                .style(ButtonStyle::Secondary),
        );
    }
    let resign = CreateActionRow::Buttons(buttons);
    // Discord allows five rows: at most four menus (a doubutsu position never needs more).
    let menus: Vec<CreateActionRow> = kinds
        .into_iter()
        .flat_map(|(menu, options)| {
            let chunks: Vec<Vec<CreateSelectMenuOption>> = options.chunks(SELECT_MAX).map(<[_]>::to_vec).collect();
            chunks.into_iter().enumerate().map(move |(i, chunk)| (menu, i > 0, chunk))
        })
        .enumerate()
        .map(|(part, (menu, more, options))| {
            let id = MoveSelect { game_id: record.id, ply: record.ply, part: part as u8 };
            CreateActionRow::SelectMenu(
                CreateSelectMenu::new(id.custom_id(), CreateSelectMenuKind::String { options })
                    .placeholder(Msg::MenuOf { menu, more }.text(lang)),
            )
        })
        .take(4)
        .collect();
    menus.into_iter().chain([resign]).collect()
}
