//! A test child who cannot read (docs/design/touch.md#no-sentence-to-read): it sees pictures,
//! emoji, colours and numerals, never types, and never sends a slash command (a grown-up only
//! posts the game box). It plays three whole games from the box (doubutsu in English in a server
//! channel, doubutsu in Japanese in a thread, reversi in a group DM) and taps "again"; it taps
//! impatiently too: twice during a move, on an old board, on a sibling's board in and out of team
//! mode. Every answer it could not understand is counted, and the count must be 0.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use settai::domain::{Change, Scope};
use settai_core::doubutsu::DoubutsuLevel;
use settai_core::Level;
use sqlx::PgPool;

use crate::support::discord::ReplyKind;
use crate::support::fixtures::{self, Ctx, OTHER_USER_ID, THREAD_ID, USER_ID};
use crate::support::{Exchange, Reply};
use crate::{assert_no_hidden_word, buttons_of, place, shown_board, Bot};

/// Discord's green button: the animal a child has chosen.
const GREEN: u64 = 3;

/// What a child makes of one visible call the bot made for its tap.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seen {
    /// The tapped board itself, its buttons changed in place.
    TappedBoard,
    /// A picture of the game: a board message, or the tapped board showing a move.
    Board,
    /// A private message with no letters but names and numerals.
    Sign,
    /// Something to read.
    Sentence(String),
}

/// What a child saw of the exchange of its tap, one entry per visible call; `names` are the
/// names a child knows (its own, its family's).
fn seen(x: &Exchange, names: &[&str]) -> Vec<Seen> {
    x.calls
        .iter()
        .filter(|c| c.ok() && c.is_message())
        .filter_map(|c| match c.kind {
            // The tapped board showing the move's new picture (in a lively channel, or where the
            // new board's post may have failed): a board all the same.
            ReplyKind::EditOriginal if has_board(c) => Some(Seen::Board),
            ReplyKind::Callback { type_: 7 } | ReplyKind::EditOriginal => Some(Seen::TappedBoard),
            // An older board losing its buttons: not an answer to anyone.
            ReplyKind::EditChannelMessage { .. } => None,
            _ if has_board(c) => Some(Seen::Board),
            _ => {
                let text = c.content().unwrap_or_default();
                let private = c.flags() & 64 != 0;
                Some(if private && wordless(text, names) { Seen::Sign } else { Seen::Sentence(text.to_string()) })
            }
        })
        .collect()
}

/// Whether a call carries a picture of the game.
fn has_board(c: &Reply) -> bool {
    c.files.iter().any(|(name, _)| name == "board.png")
}

/// Whether `text` has no letter in any script once mentions and `names` are taken out.
fn wordless(text: &str, names: &[&str]) -> bool {
    let mut bare = text.to_string();
    while let Some(start) = bare.find("<@") {
        let Some(end) = bare[start..].find('>') else { break };
        bare.replace_range(start..start + end + 1, "");
    }
    for name in names {
        bare = bare.replace(name, "");
    }
    !bare.chars().any(char::is_alphabetic)
}

/// A player who cannot read: it taps what it sees, and keeps count of what it could not read
/// and of the slash commands it sent.
struct Child<'a> {
    bot: &'a Bot,
    ctx: Ctx,
    rng: StdRng,
    /// Every answer that was not one of the three kinds a child understands.
    not_understood: Vec<String>,
    /// Interactions it sent that were slash commands (it has none to send).
    slash_commands: usize,
}

impl<'a> Child<'a> {
    fn new(bot: &'a Bot, ctx: Ctx, seed: u64) -> Child<'a> {
        Child { bot, ctx, rng: StdRng::seed_from_u64(seed), not_understood: Vec::new(), slash_commands: 0 }
    }

    /// Looks at what an exchange showed; with the commentary off, no word of it, nor of its
    /// buttons, gives the hospitality away (the signs, the box and "again" included).
    fn look(&mut self, x: &Exchange) -> Vec<Seen> {
        for call in x.calls.iter().filter(|c| c.ok() && c.is_message()) {
            assert_no_hidden_word("an answer to a child", call.content().unwrap_or_default());
            assert_no_hidden_word("its buttons", &call.components().map(Value::Array).unwrap_or_default().to_string());
        }
        let seen = seen(x, &["Mika"]);
        for s in &seen {
            if let Seen::Sentence(text) = s {
                self.not_understood.push(text.clone());
            }
        }
        seen
    }

    /// The payload of a tap on `id` of `message`.
    fn payload(&mut self, id: &str, message: &Value) -> Value {
        let payload = fixtures::button_on(&self.ctx, id, message);
        if payload["type"].as_u64() == Some(2) {
            self.slash_commands += 1;
        }
        payload
    }

    /// Taps `id` on `message` and waits for the answer.
    async fn tap(&mut self, id: &str, message: &Value) -> Exchange {
        let payload = self.payload(id, message);
        let x = self.bot.standin.interact(payload).await;
        self.look(&x);
        x
    }

    /// The enabled buttons of `message` whose picture (emoji, or a label that starts with it)
    /// is `picture`.
    fn with_picture(message: &Value, picture: &str) -> Vec<String> {
        buttons_of(message)
            .into_iter()
            .filter(|b| b["disabled"].as_bool() != Some(true))
            .filter(|b| {
                b["emoji"]["name"].as_str() == Some(picture)
                    || b["label"].as_str().is_some_and(|l| l.starts_with(picture))
            })
            .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
            .collect()
    }

    /// What a child taps on a board of buttons: a blue button with an animal or a number on it
    /// (never the list 📋 nor ↩, which are for grown-ups), or, with an animal chosen, a lit
    /// square (blue or red, not the green chosen one).
    fn pick(&mut self, board: &Value) -> Option<String> {
        let controls = ["📋", "↩\u{fe0f}"];
        let candidates: Vec<String> = buttons_of(board)
            .into_iter()
            .filter(|b| b["disabled"].as_bool() != Some(true) && b["style"].as_u64() != Some(GREEN))
            .filter(|b| !b["emoji"]["name"].as_str().is_some_and(|e| controls.contains(&e)))
            .filter(|b| b["custom_id"].as_str().is_some_and(|id| id.starts_with("t:")))
            .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
            .collect();
        (!candidates.is_empty()).then(|| candidates[self.rng.gen_range(0..candidates.len())].clone())
    }

    /// Taps the button of the game box `box_message` whose picture is `picture`: a game starts
    /// (its board, the exchange's).
    async fn start_from(&mut self, box_message: &Value, picture: &str) -> Exchange {
        let id = Child::with_picture(box_message, picture).first().cloned().expect("the box shows it");
        let started = self.tap(&id, box_message).await;
        assert!(seen_board(&started), "the box starts a game:\n{started}");
        started
    }

    /// Plays on from the board `x` showed until the game ends; `impatient`: once, mid-game, it
    /// taps the same lit square twice at once. The exchange that showed the final board.
    async fn play_to_the_end(&mut self, mut x: Exchange, mut impatient: bool) -> Exchange {
        for _ in 0..300 {
            let board = shown_board(self.bot, &x);
            let Some(id) = self.pick(&board) else { return x };
            let tapped = self.tap(&id, &board).await;
            let seen = seen(&tapped, &["Mika"]);
            if seen.contains(&Seen::Board) {
                x = tapped;
                continue;
            }
            // An animal chosen: its squares are lit on the same message. The child may change
            // its mind once: a tap on another of its animals chooses that one instead.
            assert_eq!(seen, vec![Seen::TappedBoard], "{tapped}");
            let message_id = board["id"].as_str().unwrap().parse().unwrap();
            let mut lit = self.bot.standin.message(message_id).unwrap();
            let mut square = self.pick(&lit).expect("a chosen animal lights a square");
            if chooses(&square) {
                let switched = self.tap(&square, &lit).await;
                assert_eq!(seen_in(&switched), vec![Seen::TappedBoard], "another animal chosen:\n{switched}");
                lit = self.bot.standin.message(message_id).unwrap();
                square = self.pick(&lit).filter(|id| !chooses(id)).unwrap_or_else(|| {
                    crate::touch_taps(&lit, "p")
                        .first()
                        .and_then(|mv| crate::touch_id(&lit, &format!("p.{mv}")))
                        .expect("a lit square")
                });
            }
            let moves = self.bot.store.moves(self.bot.game_or_last(&self.ctx).await).await.unwrap().len();
            x = if impatient && moves >= 2 {
                impatient = false;
                self.double_tap(&square, &lit).await
            } else {
                self.tap(&square, &lit).await
            };
            assert!(seen_board(&x), "a lit square plays:\n{x}");
        }
        panic!("the game never ended");
    }

    /// The same lit square tapped twice at once: one tap plays (the board frozen with the move,
    /// then the new board), the other changes nothing and tells nobody off. The exchange that
    /// played.
    async fn double_tap(&mut self, id: &str, board: &Value) -> Exchange {
        let (a, b) = (self.payload(id, board), self.payload(id, board));
        let (played, other) = crate::two_taps_at_once(self.bot, a, b).await;
        self.look(&played);
        self.look(&other);
        played
    }
}

/// Whether a tap on the button `id` chooses an animal (rather than plays).
fn chooses(id: &str) -> bool {
    id.rsplit(':').next().is_some_and(|tap| tap.starts_with("c."))
}

/// What the test child saw of an exchange.
fn seen_in(x: &Exchange) -> Vec<Seen> {
    seen(x, &["Mika"])
}

/// Whether an exchange showed a board message (a tap that played).
fn seen_board(x: &Exchange) -> bool {
    seen(x, &["Mika"]).contains(&Seen::Board)
}

/// A grown-up posts the game box where `ctx` plays; the box as the channel shows it.
async fn game_box(bot: &Bot, ctx: &Ctx) -> Value {
    let posted = bot.standin.interact(fixtures::slash(ctx, "play", "games", json!([]))).await;
    let message = bot.standin.message(posted.message_id().expect("the box")).unwrap();
    assert!(!buttons_of(&message).is_empty(), "the box has buttons:\n{message}");
    assert_no_hidden_word("the game box", &format!("{} {}", message["content"], message["components"]));
    message
}

/// The final board's buttons: its wordless sign (disabled), then "again", enabled.
fn assert_final_board(board: &Value) {
    let buttons = buttons_of(board);
    let sign = buttons.first().and_then(|b| b["emoji"]["name"].as_str()).unwrap_or_default();
    assert!(["🏆", "🤝", "😊"].contains(&sign), "a wordless sign first:\n{board}");
    assert!(!Child::with_picture(board, "🔁").is_empty(), "again:\n{board}");
    assert!(!buttons.iter().any(|b| b["custom_id"].as_str().is_some_and(|id| id.starts_with("t:"))), "{board}");
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_child_who_cannot_read_plays_three_games_and_again_by_touch_alone(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let weakest = Change::Level(Level::Doubutsu(DoubutsuLevel::Weakest));
    let server = Ctx::en().with_nick("Mika");
    bot.store.change_setting(server.guild_id, &place(&server), Scope::Server, weakest).await.unwrap();

    // Doubutsu, in English, in a server channel: the box's 🦁, a double tap mid-game.
    let mut child = Child::new(&bot, server.clone(), 1);
    let box_message = game_box(&bot, &server).await;
    let started = child.start_from(&box_message, "🦁").await;
    let first_board = shown_board(&bot, &started);
    // A sibling taps the child's board (no team mode here): a hand and the child's name.
    let mut sibling = Child::new(&bot, server.with_user(OTHER_USER_ID), 9);
    let id = sibling.pick(&first_board).unwrap();
    let refused = sibling.tap(&id, &first_board).await;
    assert_eq!(seen(&refused, &[]), vec![Seen::Sign], "{refused}");
    assert!(refused.content().contains(&format!("<@{USER_ID}>")), "{refused}");
    // The box again while the game is on: the game's board, privately.
    let lion = Child::with_picture(&box_message, "🦁");
    let shown = child.tap(&lion[0], &box_message).await;
    assert!(seen_board(&shown) && shown.is_ephemeral(), "{shown}");
    let end = child.play_to_the_end(started, true).await;
    let final_board = shown_board(&bot, &end);
    assert_final_board(&final_board);
    // An old board (as a slow phone still shows it): the game as it is, privately.
    let old = child.pick(&first_board).unwrap();
    let stale = child.tap(&old, &first_board).await;
    assert_eq!(seen(&stale, &[]).len(), 1, "{stale}");
    assert!(stale.is_ephemeral(), "{stale}");
    // Again: the same game starts.
    let again = child.tap(&Child::with_picture(&final_board, "🔁")[0], &final_board).await;
    assert!(seen_board(&again), "again starts a game:\n{again}");
    assert!(bot.game(&server).await.is_some(), "a game is on");

    // Doubutsu, in Japanese, in a thread.
    let thread = Ctx::ja().in_thread(THREAD_ID);
    let mut thread_child = Child::new(&bot, thread.clone(), 2);
    let box_message = game_box(&bot, &thread).await;
    let started = thread_child.start_from(&box_message, "🦁").await;
    let end = thread_child.play_to_the_end(started, true).await;
    assert_final_board(&shown_board(&bot, &end));

    // Reversi in a group DM, where the box offers the opponents: the owl 🦉.
    let family = Ctx::en().group_dm(USER_ID);
    let mut dm_child = Child::new(&bot, family.clone(), 3);
    let box_message = game_box(&bot, &family).await;
    let started = dm_child.start_from(&box_message, "🦉").await;
    // Team mode (a group DM's rule): the sibling's tap on the child's board plays.
    let board = shown_board(&bot, &started);
    let mut dm_sibling = Child::new(&bot, family.with_user(OTHER_USER_ID), 8);
    let id = dm_sibling.pick(&board).unwrap();
    let played = dm_sibling.tap(&id, &board).await;
    assert!(seen_board(&played), "{played}");
    // The board before it (old boards keep their buttons here): the game now, privately.
    let old = dm_child.pick(&board).unwrap();
    let stale = dm_child.tap(&old, &board).await;
    assert_eq!(seen(&stale, &[]), vec![Seen::Board], "{stale}");
    let end = dm_child.play_to_the_end(played, false).await;
    let final_board = shown_board(&bot, &end);
    assert_final_board(&final_board);
    let again = dm_child.tap(&Child::with_picture(&final_board, "🔁")[0], &final_board).await;
    assert!(seen_board(&again), "{again}");

    for c in [&child, &sibling, &thread_child, &dm_child, &dm_sibling] {
        assert_eq!(c.not_understood, Vec::<String>::new(), "answers a child cannot read");
        assert_eq!(c.slash_commands, 0, "slash commands a child cannot type");
    }
    bot.stop().await;
}

/// The child's eyes are honest: a sentence put back where a sign belongs is caught, a sign is
/// not, and a board is a board.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_sentence_is_what_the_test_child_cannot_read(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let ctx = Ctx::en();
    // The list button's answer is for grown-ups: a sentence over menus.
    let start = bot.standin.interact(crate::play_reversi(&ctx)).await;
    assert!(seen(&start, &[]).contains(&Seen::Board), "{start}");
    let list = crate::open_list(&bot, &ctx, &start).await;
    assert!(matches!(seen(&list, &[])[..], [Seen::Sentence(_)]), "{list}");
    // A grown-up's refusal in words, as the child would see it.
    let typed = bot.standin.interact(crate::play_move(&ctx.with_user(USER_ID + 5), "d3")).await;
    assert!(matches!(seen(&typed, &[])[..], [Seen::Sentence(_)]), "{typed}");
    assert!(!wordless("Not your game", &[]) && !wordless("あなたの ばん", &[]) && !wordless("✋ 手", &[]));
    assert!(
        wordless("✋ <@123>", &[]) && wordless("⏳", &[]) && wordless("😵 🔁 2", &[]) && wordless("Mika 🏆", &["Mika"])
    );
    bot.stop().await;
}
