//! The board of buttons under a board picture (docs/design/touch.md): doubutsu shogi as a 3x4
//! grid mirroring the picture square for square, with the hand and the controls in a fifth row;
//! reversi as numbered buttons matching the numbers drawn on the picture. The menus of every
//! move stay one tap away, behind the list button.

use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

use super::app_emojis::AppEmojis;
use super::custom_id::{ListButton, TakebackButton, Tap, TouchButton};
use crate::domain::StoredGame;
use crate::i18n::{move_label, Lang, Msg};
use crate::render::doubutsu::{Animal, Owner, TileEmoji};
use crate::render::MOST_NUMBERED;
use settai_core::doubutsu::{self, Color, Role, Square};
use settai_core::{moves_from, numbered_moves, origins, Coach, Origin};
use settai_core::{Game, GameMove, MoveDetail};

/// Discord's limits: five action rows, five buttons a row.
const ROWS: usize = 5;
const PER_ROW: usize = 5;

/// What the board of buttons shows: nothing chosen yet, or an animal chosen and its squares lit.
pub(super) type Chosen = Option<Origin>;

/// The buttons under `game`'s board, or none when it is not the human's turn. `chosen`: the
/// animal the player has tapped (doubutsu), whose squares light up. Where the `coach` allows
/// take-backs, the ↩ button once the player has a move to take back; with its hints, a square
/// that loses at once is marked ⚠ and red, never hidden (docs/design/kind-coach.md).
pub(super) fn touch_board(
    game: &StoredGame,
    chosen: Chosen,
    coach: Coach,
    lang: Lang,
    emojis: &AppEmojis,
) -> Vec<CreateActionRow> {
    let record = &game.record;
    if !record.human_to_move() {
        return Vec::new();
    }
    let mut controls = Vec::new();
    // Only once the player has a move of their own to take back (as the service checks).
    if coach.takeback && game.takeback_ply().is_some() {
        controls.push(
            CreateButton::new(TakebackButton { game_id: record.id, ply: record.ply }.custom_id())
                .label(Msg::TakebackButton.text(lang))
                .emoji(sign(UNDO))
                .style(ButtonStyle::Secondary),
        );
    }
    controls.push(
        CreateButton::new(ListButton { game_id: record.id, ply: record.ply }.custom_id())
            .label(Msg::ListButton.text(lang))
            .emoji(sign(LIST))
            .style(ButtonStyle::Secondary),
    );
    let ids = Ids { game_id: record.id, ply: record.ply };
    match &record.game {
        Game::Doubutsu(_) => doubutsu_board(&record.game, chosen, coach, ids, controls, emojis),
        Game::Reversi(_) => reversi_board(&record.game, ids, controls, lang),
    }
}

/// The game and ply every button of one board names.
#[derive(Clone, Copy)]
struct Ids {
    game_id: i64,
    ply: u32,
}

impl Ids {
    fn id(self, tap: Tap) -> String {
        TouchButton { game_id: self.game_id, ply: self.ply, tap }.custom_id()
    }
}

/// How one square or hand button shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// One of the player's animals that can move: tap to choose it (while another is chosen, a
    /// tap switches to it).
    Yours,
    /// The animal chosen: tap again to cancel.
    Chosen,
    /// Where the chosen animal may go.
    Lit,
    /// Where it may go, losing at once (with hints).
    Risky,
    /// Nothing to do here now: the computer's animals and empty squares that are not lit. The
    /// player's animals that cannot move stay blue.
    Idle { yours: bool },
}

impl Look {
    fn style(self) -> ButtonStyle {
        match self {
            Look::Yours | Look::Lit | Look::Idle { yours: true } => ButtonStyle::Primary,
            Look::Chosen => ButtonStyle::Success,
            Look::Risky => ButtonStyle::Danger,
            Look::Idle { yours: false } => ButtonStyle::Secondary,
        }
    }
}

/// Doubutsu: four rows of three squares as the picture shows them (row 1 at the top), then the
/// player's hand (one button per kind held, with its count) and the controls. Every square
/// shows its tile as the picture draws it and no words, so the grid is even; the computer's last
/// move is marked on its two squares as the picture tints them.
fn doubutsu_board(
    game: &Game,
    chosen: Chosen,
    coach: Coach,
    ids: Ids,
    controls: Vec<CreateButton>,
    emojis: &AppEmojis,
) -> Vec<CreateActionRow> {
    let Game::Doubutsu(g) = game else { return Vec::new() };
    let position = g.history().position();
    let mover: Color = position.turn();
    let movable = origins(game);
    // A chosen animal that has no move (an old id, or a forged one) chooses nothing.
    let chosen = chosen.filter(|o| movable.contains(o));
    let lit: Vec<(doubutsu::Move, bool)> = chosen
        .map(|o| moves_from(game, o))
        .unwrap_or_default()
        .into_iter()
        .map(|mv| (mv, coach.marks_risky(game, GameMove::Doubutsu(mv))))
        .collect();
    // The computer's last move, marked as the picture marks it.
    let (left, reached) = match g.history().last_move() {
        Some((_, mv)) if position.piece_at(mv.to()).is_some_and(|p| p.color != mover) => {
            let left = match mv {
                doubutsu::Move::Normal { from, .. } => Some(from),
                doubutsu::Move::Drop { .. } => None,
            };
            (left, Some(mv.to()))
        }
        _ => (None, None),
    };
    let square = |sq: Square| -> CreateButton {
        let piece = position.piece_at(sq);
        let yours = piece.is_some_and(|p| p.color == mover);
        let choose = |o: Origin| movable.contains(&o).then_some((Look::Yours, Tap::Choose(o)));
        let (look, tap) = match (chosen, lit.iter().find(|(mv, _)| mv.to() == sq)) {
            (Some(Origin::Board(from)), _) if from == sq => (Look::Chosen, Tap::Cancel),
            (Some(_), Some(&(mv, risky))) => (if risky { Look::Risky } else { Look::Lit }, Tap::Play(mv.to_string())),
            _ => choose(Origin::Board(sq)).unwrap_or((Look::Idle { yours }, Tap::Idle(sq.to_string()))),
        };
        let tile = match piece {
            Some(p) => TileEmoji::Piece {
                owner: Owner::from(p.color),
                animal: Animal::from(p.role),
                moved: reached == Some(sq),
            },
            None => TileEmoji::Empty { left: left == Some(sq) },
        };
        let button = CreateButton::new(ids.id(tap.clone()))
            .emoji(emojis.tile(tile))
            .style(look.style())
            .disabled(matches!(tap, Tap::Idle(_)));
        // A move that loses at once says so beside its tile (docs/design/kind-coach.md).
        if look == Look::Risky {
            button.label("⚠")
        } else {
            button
        }
    };
    let mut rows: Vec<CreateActionRow> = (0..4u8)
        .map(|row| {
            let squares = (0..3u8).filter_map(|col| Square::from_coords(col, row)).map(square).collect();
            CreateActionRow::Buttons(squares)
        })
        .collect();
    let mut last: Vec<CreateButton> = Role::HAND
        .into_iter()
        .filter(|&role| position.hand(mover, role) > 0)
        .map(|role| {
            let origin = Origin::Hand(role);
            let (look, tap) = match chosen {
                Some(o) if o == origin => (Look::Chosen, Tap::Cancel),
                _ if movable.contains(&origin) => (Look::Yours, Tap::Choose(origin)),
                _ => (Look::Idle { yours: true }, Tap::Idle(origin.to_string())),
            };
            CreateButton::new(ids.id(tap.clone()))
                .label(format!("×{}", position.hand(mover, role)))
                .emoji(emojis.tile(yours_in_hand(mover, role)))
                .style(look.style())
                .disabled(matches!(tap, Tap::Idle(_)))
        })
        .collect();
    last.extend(controls);
    rows.push(CreateActionRow::Buttons(last));
    rows
}

/// The tile of an animal in `mover`'s hand.
fn yours_in_hand(mover: Color, role: Role) -> TileEmoji {
    TileEmoji::Piece { owner: Owner::from(mover), animal: Animal::from(role), moved: false }
}

/// Reversi: a button per numbered square (the numbers drawn on the picture, in reading order),
/// five a row, then the controls; a forced pass is one button. Past what five rows hold, the
/// picture shows a plain dot and the list keeps the move (docs/design/touch.md#reversi-one-tap-on-a-number).
fn reversi_board(game: &Game, ids: Ids, controls: Vec<CreateButton>, lang: Lang) -> Vec<CreateActionRow> {
    let numbered = numbered_moves(game);
    let mut buttons: Vec<CreateButton> = numbered
        .iter()
        .take(MOST_NUMBERED)
        .enumerate()
        .map(|(i, mv)| {
            CreateButton::new(ids.id(Tap::Play(mv.to_string()))).label((i + 1).to_string()).style(ButtonStyle::Primary)
        })
        .collect();
    if numbered.is_empty() {
        // The only move is a pass.
        for mv in game.legal_moves().into_iter().filter(|mv| mv.is_pass()) {
            buttons.push(
                CreateButton::new(ids.id(Tap::Play(mv.to_string())))
                    .label(move_label(mv, Some(MoveDetail::Pass), lang))
                    .emoji(sign(PASS))
                    .style(ButtonStyle::Primary),
            );
        }
    }
    // The controls keep a row of their own while the numbers fit in the rows above it; the
    // picture numbers no more than there is room for (`MOST_NUMBERED`).
    let mut rows: Vec<CreateActionRow> = Vec::new();
    let (above, beside) = buttons.split_at(buttons.len().min((ROWS - 1) * PER_ROW));
    for chunk in above.chunks(PER_ROW) {
        rows.push(CreateActionRow::Buttons(chunk.to_vec()));
    }
    let mut last: Vec<CreateButton> = beside.to_vec();
    last.extend(controls);
    rows.push(CreateActionRow::Buttons(last));
    rows
}

/// The board of buttons while the bot answers the player's `played` on `game` (the first
/// response to a tap that passed the checks, docs/design/touch.md#every-tap-answers-at-once):
/// the move shown (doubutsu: the animal on its new square, green; reversi: the tapped number,
/// green), everything disabled, and a thinking sign where the controls were.
pub(super) fn frozen_board(game: &StoredGame, played: GameMove, emojis: &AppEmojis) -> Vec<CreateActionRow> {
    let record = &game.record;
    let ids = Ids { game_id: record.id, ply: record.ply };
    let thinking = CreateButton::new(ids.id(Tap::Idle(THINKING.to_string())))
        .emoji(sign(WAIT))
        .style(ButtonStyle::Secondary)
        .disabled(true);
    let idle = |tap: String, style: ButtonStyle| CreateButton::new(ids.id(Tap::Idle(tap))).style(style).disabled(true);
    let mut rows = Vec::new();
    let mut last = Vec::new();
    match (&record.game, played) {
        (Game::Doubutsu(g), GameMove::Doubutsu(mv)) => {
            let human = g.history().position().turn();
            let Ok(Game::Doubutsu(after)) = record.game.play(played) else { return Vec::new() };
            let position = after.history().position();
            for row in 0..4u8 {
                let squares = (0..3u8)
                    .filter_map(|col| Square::from_coords(col, row))
                    .map(|sq| {
                        let piece = position.piece_at(sq);
                        let style = match piece {
                            _ if sq == mv.to() => ButtonStyle::Success,
                            Some(p) if p.color == human => ButtonStyle::Primary,
                            _ => ButtonStyle::Secondary,
                        };
                        let tile = match piece {
                            Some(p) => TileEmoji::Piece {
                                owner: Owner::from(p.color),
                                animal: Animal::from(p.role),
                                moved: false,
                            },
                            None => TileEmoji::Empty { left: false },
                        };
                        idle(sq.to_string(), style).emoji(emojis.tile(tile))
                    })
                    .collect();
                rows.push(CreateActionRow::Buttons(squares));
            }
            for role in Role::HAND.into_iter().filter(|&role| position.hand(human, role) > 0) {
                let held = idle(Origin::Hand(role).to_string(), ButtonStyle::Primary);
                last.push(
                    held.label(format!("×{}", position.hand(human, role)))
                        .emoji(emojis.tile(yours_in_hand(human, role))),
                );
            }
        }
        (_, played) => {
            let numbered = numbered_moves(&record.game);
            let numbers = numbered.iter().take(MOST_NUMBERED).enumerate().map(|(i, &mv)| {
                let style = if mv == played { ButtonStyle::Success } else { ButtonStyle::Secondary };
                idle(mv.to_string(), style).label((i + 1).to_string())
            });
            let mut numbers: Vec<CreateButton> = numbers.collect();
            if numbered.is_empty() {
                numbers.push(idle(played.to_string(), ButtonStyle::Success).emoji(sign(PASS)));
            }
            // The thinking sign follows the numbers (at most 24 buttons: five rows).
            numbers.push(thinking);
            return numbers.chunks(PER_ROW).map(|chunk| CreateActionRow::Buttons(chunk.to_vec())).collect();
        }
    }
    last.push(thinking);
    rows.push(CreateActionRow::Buttons(last));
    rows
}

/// Signs a button carries, fully qualified as Unicode's emoji data lists them (with the
/// variation selector where the character alone is text): what Discord's emoji list holds.
pub(super) const UNDO: &str = "↩\u{fe0f}";
/// Pass.
pub(super) const PASS: &str = "⏭\u{fe0f}";
/// Resign.
pub(super) const WHITE_FLAG: &str = "🏳\u{fe0f}";
/// The list of moves.
const LIST: &str = "📋";
/// The computer is thinking.
const WAIT: &str = "⏳";

/// A plain emoji as a button's picture.
pub(super) fn sign(emoji: &str) -> serenity::all::ReactionType {
    serenity::all::ReactionType::Unicode(emoji.to_string())
}

/// What the thinking sign's id names (it is never tapped: Discord shows it disabled).
const THINKING: &str = "wait";

#[cfg(test)]
mod tests {
    use super::*;

    /// Discord refuses a message whose button shows an emoji not in its list as it lists it
    /// (50035 Invalid emoji): fully qualified, as in Unicode's emoji data.
    #[test]
    fn the_signs_are_emoji_discord_lists() {
        for sign in [UNDO, PASS, WHITE_FLAG, LIST, WAIT] {
            assert!(emojis::get(sign).is_some_and(|e| e.as_str() == sign), "{sign:?}");
        }
        // Without their variation selector, these three are text (the stand-in refuses them).
        for bare in ["\u{21a9}", "\u{23ed}", "\u{1f3f3}"] {
            assert!(emojis::get(bare).is_some_and(|e| e.as_str() != bare), "{bare:?}");
        }
    }
}
