//! The command flows: start a game or offer the opponents, play a move, show the board, resign, stats, remind, hints.

use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
    EditInteractionResponse, MessageId,
};

use super::board_message::narrate;
use super::calls::Failed;
use super::custom_id::{HouseRuleButton, OpponentSelect, ResignButton};
use super::handler::{Bot, Failure};
use super::observed::note_game;
use super::reply::{allowed_mentions, Reply, Responder};
use super::request::Request;
use super::touch_board::{frozen_board, touch_board};
use crate::domain::{GameRecord, HouseRule, HouseRules, Lang, Pick, Settings, StoredGame};
use crate::i18n::Msg;
use crate::service::{settings_in_effect, PlayError, Service};
use settai_core::{GameKind, Level, Side};

impl Bot {
    /// `/play <game>`: starts at once, or where players choose their opponent, offers the
    /// choice first (a menu only the player sees).
    pub(super) async fn start_or_offer(
        &self,
        request: &Request<'_>,
        kind: GameKind,
        side: Side,
    ) -> Result<(), Failure> {
        let (responder, caller, settings, lang) = request.parts();
        if !settings.level_choice {
            let game =
                self.service().start(caller, &request.snapshot, kind, side, None).await.map_err(Failure::Refused)?;
            note_game(game.record.id);
            responder.defer().await?;
            let (board, shown) = self.first_board(request, game).await?;
            if let Some(posted) = responder.post(board).await? {
                self.board_posted(responder.http(), &shown.record, posted, None).await;
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
    pub(super) async fn toggle_house_rule(
        &self,
        request: &Request<'_>,
        button: HouseRuleButton,
    ) -> Result<(), Failure> {
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
        &self,
        request: &Request<'_>,
        picker: OpponentSelect,
        level: Level,
    ) -> Result<(), Failure> {
        let (responder, _, _, lang) = request.parts();
        let pick = Pick { level, house_rules: picker.house_rules };
        self.start_from_component(request, picker.kind, picker.side, Some(pick)).await?;
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
        &self,
        request: &Request<'_>,
        kind: GameKind,
        side: Side,
        pick: Option<Pick>,
    ) -> Result<(), Failure> {
        let (responder, caller, _, _) = request.parts();
        let game = self.service().start(caller, &request.snapshot, kind, side, pick).await.map_err(Failure::Refused)?;
        note_game(game.record.id);
        responder.defer().await?;
        let (board, shown) = self.first_board(request, game).await?;
        let posted = responder.follow_up_posted(board.follow_up()).await?;
        self.board_posted(responder.http(), &shown.record, posted, None).await;
        Ok(())
    }

    /// The first board of a new game (the greeting, and the bot's opening if it moves first)
    /// and the game as it shows it.
    async fn first_board(&self, request: &Request<'_>, game: StoredGame) -> Result<(Reply, StoredGame), Failure> {
        let (_, caller, _, lang) = request.parts();
        // The request read the place's settings before the game existed: those in effect now
        // are the new game's.
        let read = &request.snapshot.settings;
        let settings = &settings_in_effect(&read.as_read, read.venue, game.record.house_rules, read.hints_choice).reader;
        let (kind, human_side) = (game.record.kind(), game.record.human_side);
        let bot = self.service().bot_turn(game).await.map_err(Failure::Late)?;
        let mut lines = vec![Msg::Started { kind, human: caller.user_id, human_side }.text(lang)];
        lines.extend(narrate(&bot.moves, lang));
        let board = self.board(&bot.game, bot.last_move(), lines, settings, lang).await;
        Ok((board, bot.game))
    }

    /// Plays the player's `input`. `tapped` names the game, the ply and the board message a
    /// component was on; `on_board` says it was the board of buttons itself, which then shows
    /// the move at once, frozen, while the bot answers (docs/design/touch.md#every-tap-answers-at-once).
    pub(super) async fn play(
        &self,
        request: &Request<'_>,
        input: &str,
        tapped: Option<(i64, u32, MessageId)>,
        on_board: bool,
    ) -> Result<(), Failure> {
        let (responder, caller, settings, lang) = request.parts();
        let expected = tapped.map(|(game_id, ply, _)| (game_id, ply));
        let turn =
            self.service().human_move(caller, &request.snapshot, input, expected).await.map_err(Failure::Refused)?;
        let frozen = on_board && responder.is_component();
        let board_before = turn.game.clone();
        // The move is played only once its first answer is out (within Discord's window, so
        // the claim on the game is not held past it): a tap whose answer failed changed nothing.
        let answered = if frozen {
            responder.update_components(frozen_board(&turn.game, turn.played.mv, &self.emojis)).await
        } else {
            responder.defer().await
        };
        if let Err(e) = answered {
            drop(turn);
            if frozen && Failed::of(&e) == Failed::Unknown {
                // Discord may have frozen the board without saying so: it comes back as it was
                // (an edit, refused harmlessly where nothing was frozen).
                let back = touch_board(&board_before, None, settings.takeback, settings.hints, lang, &self.emojis);
                let back = EditInteractionResponse::new().components(back).allowed_mentions(allowed_mentions(&[]));
                if let Err(e) = responder.edit(back).await {
                    tracing::debug!(error = %e, "no board to bring back after a failed first answer");
                }
            }
            return Err(e.into());
        }
        // The bot's turn and the commentary on the player's move are thought out together.
        let played = turn.played.clone();
        let (stored, comment) = tokio::join!(self.service().finish_turn(turn), async {
            if settings.commentary {
                self.service().comment(&caller.place(), &played).await
            } else {
                None
            }
        });
        let stored = match stored {
            Ok(stored) => stored,
            Err(e) => {
                if frozen {
                    // The frozen board comes back as it was; where another process stored a
                    // move first (its board is the one now), it loses its buttons instead.
                    let rows = match e {
                        PlayError::AlreadyPlayed => Vec::new(),
                        _ => touch_board(&board_before, None, settings.takeback, settings.hints, lang, &self.emojis),
                    };
                    let back = EditInteractionResponse::new().components(rows).allowed_mentions(allowed_mentions(&[]));
                    if let Err(e) = responder.edit(back).await {
                        tracing::warn!(error = %e, "could not unfreeze a board");
                    }
                }
                // A tap on the same board from another process was stored first: nothing changed.
                return Err(match e {
                    PlayError::AlreadyPlayed => Failure::Refused(e),
                    e => Failure::Late(e),
                });
            }
        };
        let mut lines = narrate(&stored.moves, lang);
        if let Some(c) = &comment {
            // Right under the player's own move.
            lines.insert(1.min(lines.len()), Msg::Comment(c).text(lang));
        }
        // The coach: the player's own move was risky and the game goes on, where take-backs are
        // allowed: offer the ↩ (docs/design/kind-coach.md).
        if stored.offers_takeback(settings.coach()) {
            lines.push(Msg::OfferTakeback.text(lang));
        }
        let board = self.board(&stored.game, stored.last_move(), lines, settings, lang).await;
        self.post_new_board(responder, board, &stored.game.record, tapped.map(|(_, _, m)| m)).await
    }

    /// Posts the board of a changed game. From a component, a new message (it keeps a readable
    /// history and notifies the player) goes first: the old board losing its menu (so it cannot
    /// be tapped again) is best effort, and a failed edit (the message was deleted) must not
    /// hide the stored change.
    pub(super) async fn post_new_board(
        &self,
        responder: &Responder,
        board: Reply,
        record: &GameRecord,
        tapped: Option<MessageId>,
    ) -> Result<(), Failure> {
        if responder.is_component() {
            let posted = match responder.follow_up_posted(board.follow_up()).await {
                Ok(posted) => posted,
                // Discord may or may not have posted it; a second post could show the board
                // twice. The board tapped becomes the new one instead (an edit, safe to try
                // again), so the game goes on from a board either way
                // (docs/design/bot-reliability.md#when-discord-fails).
                Err(e) => match tapped {
                    Some(tapped) if Failed::of(&e) == Failed::Unknown => {
                        tracing::warn!(error = %e, game = record.id, "a board's post failed; the board tapped shows it");
                        responder.edit(board.edit()).await?;
                        self.board_posted(responder.http(), record, tapped, Some(tapped)).await;
                        return Ok(());
                    }
                    _ => return Err(e.into()),
                },
            };
            let strip = EditInteractionResponse::new().components(Vec::new()).allowed_mentions(allowed_mentions(&[]));
            if let Err(e) = responder.edit(strip).await {
                tracing::warn!(error = %e, game = record.id, "could not take the menu off the old board");
            }
            self.board_posted(responder.http(), record, posted, tapped).await;
        } else if let Some(posted) = responder.post(board).await? {
            self.board_posted(responder.http(), record, posted, None).await;
        }
        Ok(())
    }

    /// `/play board`, or `first` and then the board: a fresh copy of the game's board.
    pub(super) async fn show_board(&self, request: &Request<'_>, first: Option<Msg<'_>>) -> Result<(), Failure> {
        let (responder, _, settings, lang) = request.parts();
        let game = Service::game_here(&request.snapshot).map_err(Failure::Refused)?;
        let record = &game.record;
        let mut lines: Vec<String> = first.map(|m| m.text(lang)).into_iter().collect();
        if record.human_to_move() {
            lines.push(Msg::YourMove { human: record.human_id }.text(lang));
        }
        let board = self.board(game, game.last_move(), lines, settings, lang).await;
        // A fresh board every time: it also brings back a board someone deleted.
        if let Some(posted) = responder.post(board).await? {
            self.board_posted(responder.http(), record, posted, None).await;
        }
        Ok(())
    }

    /// The game as it is now, for the tapper's eyes only: its board with its buttons (a child's
    /// stale tap, or a tap on the game box while a game is on). Not remembered as the game's
    /// board: reminders link to the channel's.
    pub(super) async fn show_board_privately(&self, request: &Request<'_>) -> Result<(), Failure> {
        let (responder, _, settings, lang) = request.parts();
        let game = Service::game_here(&request.snapshot).map_err(Failure::Refused)?;
        let mut board = self.board(game, game.last_move(), Vec::new(), settings, lang).await;
        board.ephemeral = true;
        board.mentions.clear();
        // In HTTP mode the answer to Discord's request is the only call that cannot race the
        // answer itself: the buttons go there, without the picture (the channel's board shows it).
        if !responder.first_carries_files() {
            board.files.clear();
        }
        responder.answer(board).await?;
        Ok(())
    }

    pub(super) async fn resign(&self, request: &Request<'_>) -> Result<(), Failure> {
        let (responder, caller, settings, lang) = request.parts();
        let game = self.service().resign(caller, &request.snapshot, None).await.map_err(Failure::Refused)?;
        let board = self.board(&game, None, vec![Msg::Resigned.text(lang)], settings, lang).await;
        responder.answer(board).await?;
        Ok(())
    }

    pub(super) async fn stats(&self, request: &Request<'_>) -> Result<(), Failure> {
        let (responder, caller, _, lang) = request.parts();
        let results = self.service().results_of(caller).await.map_err(Failure::Refused)?;
        responder.answer(Reply::public(Msg::Stats { human: caller.user_id, results }.text(lang))).await?;
        Ok(())
    }

    /// `/play hints on|off`: the player's own choice of the coach's hints, on every server,
    /// over the place's (a private answer; docs/design/kind-coach.md#your-own-choice).
    pub(super) async fn hints_for_me(&self, request: &Request<'_>, on: bool) -> Result<(), Failure> {
        let (responder, caller, _, lang) = request.parts();
        self.service().set_hints_choice(caller, Some(on)).await.map_err(Failure::Refused)?;
        responder.answer(Reply::private(Msg::HintsChosen { on }.text(lang))).await?;
        Ok(())
    }

    /// `/play remind on|off`: the player's own choice, on every server (a private answer).
    pub(super) async fn remind_me(&self, request: &Request<'_>, on: bool) -> Result<(), Failure> {
        let (responder, caller, _, lang) = request.parts();
        self.service().set_reminders_wanted(caller, on).await.map_err(Failure::Refused)?;
        responder.answer(Reply::private(Msg::RemindSet { on }.text(lang))).await?;
        Ok(())
    }

    /// The board's Resign button asks first (privately); "Yes" resigns that very game and
    /// posts the final board for everyone, "Keep playing" just closes the question.
    pub(super) async fn resign_button(&self, request: &Request<'_>, button: ResignButton) -> Result<(), Failure> {
        let (responder, caller, settings, lang) = request.parts();
        match button {
            ResignButton::Ask { game_id } => {
                // Only the player of that game, while it is on, is asked.
                Service::game_to_resign(caller, &request.snapshot, Some(game_id)).map_err(Failure::Refused)?;
                let buttons = CreateActionRow::Buttons(vec![
                    CreateButton::new(ResignButton::Confirm { game_id }.custom_id())
                        .label(Msg::ResignYes.text(lang))
                        .style(ButtonStyle::Danger),
                    CreateButton::new(ResignButton::Cancel { game_id }.custom_id())
                        .label(Msg::ResignNo.text(lang))
                        .style(ButtonStyle::Secondary),
                ]);
                responder.answer(Reply::private(Msg::ResignConfirm.text(lang)).with_components(vec![buttons])).await?;
            }
            ResignButton::Cancel { .. } => {
                responder.update(Reply::public(Msg::KeepPlaying.text(lang))).await?;
            }
            ResignButton::Confirm { game_id } => {
                let game =
                    self.service().resign(caller, &request.snapshot, Some(game_id)).await.map_err(Failure::Refused)?;
                responder.update(Reply::public(Msg::Resigned.text(lang))).await?;
                let board = self.board(&game, None, vec![Msg::Resigned.text(lang)], settings, lang).await;
                responder.follow_up(board.follow_up()).await?;
            }
        }
        Ok(())
    }
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
