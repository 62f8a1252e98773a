//! End-to-end: the real bot (serenity client, service, store, renderer) against a local stand-in
//! of Discord's gateway and REST API, and a real Postgres database per test.

mod support;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use serenity::gateway::ShardManager;
use settai::discord::{self, Connection};
use settai::domain::{Change, GameRecord, GameStatus, NewGame, NewMove, Nudge, Place, Scope};
use settai::service::table_keeper::TableKeeper;
use settai::service::Service;
use settai::store::Store;
use settai::table_file::TableFile;
use settai_core::doubutsu::{self, table::BuildOptions, table::Material, Table as _};
use settai_core::{reversi, DoubutsuGame, Game, GameKind, Level, Side};
use sqlx::PgPool;
use support::fixtures::{self, Ctx, OTHER_USER_ID, USER_ID};
use support::{screenshot, Exchange, ReplyKind, StandIn};

const T: Duration = Duration::from_secs(30);

/// A bot connected to a fresh stand-in, over the test's database.
struct Bot {
    standin: StandIn,
    shards: Arc<ShardManager>,
    store: Store,
}

impl Bot {
    async fn start(pool: PgPool) -> Bot {
        Bot::start_in(pool, None).await
    }

    /// A bot registering its commands to `guild_id` (development mode) or globally.
    async fn start_in(pool: PgPool, guild_id: Option<u64>) -> Bot {
        Bot::launch(pool, guild_id, None).await
    }

    /// A bot that has a doubutsu table.
    async fn start_with_table(pool: PgPool, table: Arc<TableFile>) -> Bot {
        Bot::launch(pool, None, Some(table)).await
    }

    async fn launch(pool: PgPool, guild_id: Option<u64>, table: Option<Arc<TableFile>>) -> Bot {
        Bot::launch_on(Store::from_pool(pool), guild_id, table).await
    }

    async fn launch_on(store: Store, guild_id: Option<u64>, table: Option<Arc<TableFile>>) -> Bot {
        Bot::launch_with_keeper(store, guild_id, TableKeeper::with(table)).await
    }

    /// A bot reading its doubutsu table from `keeper`, as `serve` does.
    async fn launch_with_keeper(store: Store, guild_id: Option<u64>, keeper: Arc<TableKeeper>) -> Bot {
        let standin = StandIn::start().await;
        let connection = Connection {
            token: StandIn::TOKEN.into(),
            guild_id,
            api_base: Some(standin.base_url()),
            idle_sweep: Duration::from_millis(300),
            shards: None,
        };
        let service = Service::new(store.clone()).with_table_keeper(keeper);
        let mut client = discord::client(connection, service).await.unwrap();
        let shards = client.shard_manager.clone();
        tokio::spawn(async move { client.start().await });
        standin.wait_ready(T).await;
        if guild_id.is_none() {
            standin.wait_commands(T).await;
        }
        Bot { standin, shards, store }
    }

    /// A doubutsu game of `ctx`'s user (sente) set up at `start`, as if started there.
    async fn doubutsu_game_at(&self, ctx: &Ctx, start: doubutsu::Position, level: Level) -> GameRecord {
        let game = Game::Doubutsu(DoubutsuGame(doubutsu::Game::from_position(start)));
        self.game_of(ctx, Side::First, level, game).await
    }

    /// A game of `ctx`'s user on `side`, stored as if started in `ctx`'s channel.
    async fn game_of(&self, ctx: &Ctx, human_side: Side, level: Level, game: Game) -> GameRecord {
        game_in(&self.store, ctx, human_side, level, game).await
    }

    /// Stops the bot; fails the test if the stand-in refused any call of the bot's, including
    /// calls made after the answers the test waited for.
    async fn stop(self) {
        self.shards.shutdown_all().await;
        let refused: Vec<String> = self.standin.all_calls().iter().filter(|c| !c.ok()).map(|c| c.to_string()).collect();
        assert!(refused.is_empty(), "the bot made calls Discord would refuse:\n{}", refused.join("\n"));
    }

    async fn game(&self, ctx: &Ctx) -> Option<GameRecord> {
        self.store.active_game(ctx.channel_id).await.unwrap()
    }

    /// The stored state of the channel's newest game: (position, ply, status, number of moves).
    async fn snapshot(&self, ctx: &Ctx) -> (String, u32, GameStatus, usize) {
        let id: i64 = sqlx::query_scalar("SELECT id FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1")
            .bind(ctx.channel_id as i64)
            .fetch_one(self.store.pool())
            .await
            .unwrap();
        let g = self.store.game(id).await.unwrap().unwrap();
        (g.game.encode(), g.ply, g.status, self.store.moves(id).await.unwrap().len())
    }
}

/// A game of `ctx`'s user on `side` in `store`, stored as if started in `ctx`'s channel.
async fn game_in(store: &Store, ctx: &Ctx, human_side: Side, level: Level, game: Game) -> GameRecord {
    store
        .create_game(&NewGame {
            guild_id: Some(ctx.guild_id),
            channel_id: ctx.channel_id,
            human_id: ctx.user_id,
            human_name: "Mika".into(),
            parent_id: None,
            human_side,
            level,
            game,
        })
        .await
        .unwrap()
}

fn play_reversi(ctx: &Ctx) -> Value {
    fixtures::slash(ctx, "play", "reversi", json!([]))
}

fn play_move(ctx: &Ctx, mv: &str) -> Value {
    fixtures::slash(ctx, "play", "move", json!([{ "name": "move", "type": 3, "value": mv }]))
}

/// Where `ctx` plays, as the store sees it.
fn place(ctx: &Ctx) -> Place {
    let guild_id = (ctx.guild_id != 0).then_some(ctx.guild_id);
    Place { guild_id, channel_id: ctx.channel_id, parent_id: ctx.thread_of }
}

/// The PNG of an exchange, decoded.
fn board_image(x: &Exchange) -> image::DynamicImage {
    let png = x.file(".png").unwrap_or_else(|| panic!("no PNG in the reply:\n{x}"));
    image::load_from_memory(png).expect("the board is a valid PNG")
}

/// How many frames a GIF has (it must decode).
fn gif_frames(bytes: &[u8]) -> usize {
    let mut decoder = gif::DecodeOptions::new().read_info(bytes).expect("a valid GIF");
    let mut n = 0;
    while decoder.read_next_frame().expect("a valid frame").is_some() {
        n += 1;
    }
    n
}

/// The move menu of the newest board: (custom_id, move values).
fn move_menu(x: &Exchange) -> (String, Vec<String>) {
    let ids = x.custom_ids();
    let id = ids.iter().find(|id| id.starts_with("mv:")).unwrap_or_else(|| panic!("no move menu:\n{x}")).clone();
    let values = x.select_options(&id).into_iter().map(|(_, v)| v).collect();
    (id, values)
}

/// A move menu as shown: (custom_id, placeholder, [(label, value)]).
type ShownMenu = (String, String, Vec<(String, String)>);

/// Every move menu of the newest board.
fn move_menus(x: &Exchange) -> Vec<ShownMenu> {
    x.component_list()
        .iter()
        .filter_map(|c| {
            let id = c["custom_id"].as_str().filter(|id| id.starts_with("mv:"))?.to_string();
            let placeholder = c["placeholder"].as_str().unwrap_or_default().to_string();
            Some((id.clone(), placeholder, x.select_options(&id)))
        })
        .collect()
}

fn assert_refused(x: &Exchange, needle: &str) {
    assert!(x.is_ephemeral(), "refusals are ephemeral:\n{x}");
    assert!(x.files().is_empty(), "refusals carry no board:\n{x}");
    assert!(x.content().contains(needle), "expected {needle:?} in {:?}", x.content());
}

#[test]
fn every_fixture_deserializes_as_a_serenity_interaction() {
    fixtures::assert_fixtures_deserialize();
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_play_command_is_registered_with_japanese_names(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let commands = bot.standin.registered_commands().await;
    let play = commands.iter().find(|c| c["name"] == "play").expect("/play is registered");
    let subs: Vec<&str> = play["options"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    for wanted in ["reversi", "doubutsu", "move", "board", "resign", "stats", "help"] {
        assert!(subs.contains(&wanted), "missing /play {wanted}: {subs:?}");
    }
    assert!(play["description_localizations"]["ja"].is_string());
    // Japanese clients see Japanese names for the command, every subcommand and option.
    assert_eq!(play["name_localizations"]["ja"], "あそぶ");
    for sub in play["options"].as_array().unwrap() {
        assert!(sub["name_localizations"]["ja"].is_string(), "{sub}");
        for opt in sub["options"].as_array().into_iter().flatten() {
            assert!(opt["name_localizations"]["ja"].is_string(), "{opt}");
        }
    }
    let settings = commands.iter().find(|c| c["name"] == "settings").expect("/settings is registered");
    assert_eq!(settings["name_localizations"]["ja"], "設定");
    let mv = play["options"].as_array().unwrap().iter().find(|o| o["name"] == "move").unwrap();
    assert_eq!(mv["options"][0]["autocomplete"], true);
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_game_starts_and_is_played_by_menu_and_by_command(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();

    let start = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(!start.is_ephemeral());
    let img = board_image(&start);
    assert!(img.width() >= 400 && img.height() >= 400);
    assert!(start.content().contains(&format!("<@{USER_ID}>")), "{}", start.content());
    let (menu, values) = move_menu(&start);
    let mut sorted = values.clone();
    sorted.sort();
    assert_eq!(sorted, ["c4", "d3", "e6", "f5"]);
    let menus = move_menus(&start);
    assert_eq!(menus.len(), 1, "{start}");
    assert_eq!(menus[0].1, "Place a disc");
    assert!(menus[0].2.iter().all(|(label, value)| label == &format!("{value} (flips 1)")), "{menus:?}");
    assert_eq!(bot.snapshot(&ctx).await.1, 0);

    // Tap f5 in the menu: the bot answers with a new board message and retires the old menu.
    let board_id = start.message_id().unwrap();
    let board = bot.standin.message(board_id).unwrap();
    // The new board comes first, then the old menu is taken off.
    let tap = bot
        .standin
        .interact_until(fixtures::select_on(&ctx, &menu, &["f5"], &board), |x| {
            x.answered() && x.calls.iter().any(|c| c.kind == ReplyKind::EditOriginal)
        })
        .await;
    assert!(tap.deferred(), "{tap}");
    assert!(tap.content().contains("You played **f5**"), "{}", tap.content());
    assert!(tap.content().contains("I play **"), "{}", tap.content());
    board_image(&tap);
    let old = bot.standin.message(board_id).unwrap();
    assert!(old["components"].as_array().is_none_or(|c| c.is_empty()), "old board keeps its menu: {old}");
    let record = bot.game(&ctx).await.unwrap();
    assert_eq!(record.ply, 2);
    let moves = bot.store.moves(record.id).await.unwrap();
    assert_eq!((moves[0].notation.as_str(), moves[0].by_bot, moves[0].user_id), ("f5", false, Some(USER_ID)));
    assert!(moves[1].by_bot);

    // The same thing by command.
    let (_, values) = move_menu(&tap);
    let typed = values[0].to_uppercase();
    let by_command = bot.standin.interact(play_move(&ctx, &format!(" {typed} "))).await;
    assert!(by_command.deferred() && !by_command.is_ephemeral(), "{by_command}");
    assert!(by_command.content().contains(&format!("You played **{}**", values[0])), "{}", by_command.content());
    board_image(&by_command);
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 4);

    // /play board re-posts the current board with a fresh menu.
    let again = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    board_image(&again);
    let (menu, _) = move_menu(&again);
    assert_eq!(menu, format!("mv:{}:4:0", record.id));
    bot.stop().await;
}

/// Whether a call creates a message (which notifies whom it mentions) rather than edits one.
fn creates_a_message(c: &support::Reply) -> bool {
    matches!(c.kind, ReplyKind::Callback { type_: 4 } | ReplyKind::Followup | ReplyKind::ChannelMessage { .. })
}

/// Every message of a whole game says explicitly whom it may ping: nobody for refusals and
/// private answers, only the player whose turn it is on a board; never @everyone, @here or a role.
/// And "your move" always comes in a new message, never only in an edit (Discord notifies
/// nobody of a mention added by an edit).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn every_message_pings_only_the_player_whose_turn_it_is_and_in_a_new_message(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let player = json!([USER_ID.to_string()]);
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (last, _) = tap_to_the_end(&bot, &ctx, start.clone()).await;
    assert!(last.content().contains("Game over"), "{}", last.content());
    // A new game, a move by command, /play board, a refusal, a resignation.
    bot.standin.interact(play_reversi(&ctx)).await;
    let by_command = bot.standin.interact(play_move(&ctx, "f5")).await;
    let board = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    assert_refused(&bot.standin.interact(play_move(&ctx, "a1")).await, "a1");
    let other = Ctx::en().with_user(OTHER_USER_ID);
    assert_refused(&bot.standin.interact(play_move(&other, "d3")).await, "'s game");
    bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;

    // The turn notices of the slash commands (and of a tap) are new messages pinging the player.
    for x in [&start, &by_command, &board] {
        let call = x.text_call().unwrap();
        assert!(call.content().unwrap().contains(&format!("<@{USER_ID}>")), "{x}");
        assert!(creates_a_message(call), "the turn notice is only an edit:\n{x}");
        assert_eq!(call.message_json().pointer("/allowed_mentions/users"), Some(&player), "{x}");
    }
    let calls = bot.standin.all_calls();
    let messages: Vec<_> = calls.iter().filter(|c| c.ok() && c.is_message()).collect();
    assert!(messages.len() >= 20, "{} messages", messages.len());
    let mut pings = 0;
    for c in messages {
        let allowed = c.message_json().get("allowed_mentions").unwrap_or_else(|| panic!("no allowed_mentions:\n{c}"));
        assert_eq!(allowed["parse"], json!([]), "{c}");
        assert_eq!(allowed["roles"], json!([]), "{c}");
        let users = &allowed["users"];
        let private = c.flags() & 64 != 0;
        if users != &json!([]) {
            assert_eq!(users, &player, "{c}");
            assert!(!private, "a private message pings nobody:\n{c}");
            assert!(c.content().is_some_and(|t| t.contains(&format!("<@{USER_ID}>"))), "{c}");
            pings += 1;
        }
        // A turn notice is never only in an edit.
        if users != &json!([]) {
            assert!(creates_a_message(c), "a turn notice in an edit:\n{c}");
        }
    }
    assert!(pings >= 10, "{pings} pings");
    bot.stop().await;
}

/// A tap whose old board was deleted still posts the new board and stores the move: the new
/// board comes first, taking the old menu off is best effort.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_deleted_old_board_never_hides_the_new_one(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (menu, _) = move_menu(&start);
    let board_id = start.message_id().unwrap();
    let board = bot.standin.message(board_id).unwrap();
    // Someone deletes the board message; the player taps the menu still on their screen.
    bot.standin.delete_message(board_id);
    let tap = bot
        .standin
        .try_interact_until(fixtures::select_on(&ctx, &menu, &["f5"], &board), |x| {
            x.calls.iter().any(|c| c.kind == ReplyKind::EditOriginal)
        })
        .await
        .unwrap();
    let posted = tap.followups();
    assert_eq!(posted.len(), 1, "{tap}");
    assert!(posted[0].content().is_some_and(|t| t.contains("You played **f5**")), "{tap}");
    assert!(!posted[0].files.is_empty() && posted[0].flags() & 64 == 0, "{tap}");
    assert!(tap.calls.iter().all(|c| c.flags() & 64 == 0), "no error for the player:\n{tap}");
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 2);
    assert!(tap.refused().iter().all(|c| c.kind == ReplyKind::EditOriginal), "{tap}");
    // The new board plays on.
    let new_board = bot.standin.message(posted[0].message_id.unwrap()).unwrap();
    let menu = new_board["components"][0]["components"][0]["custom_id"].as_str().unwrap().to_string();
    let values: Vec<String> = new_board["components"][0]["components"][0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect();
    let next = bot.standin.interact(fixtures::select_on(&ctx, &menu, &[&values[0]], &new_board)).await;
    assert!(!next.is_ephemeral(), "{next}");
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 4);
    // Discord refused only edits of the deleted message: through the tap, and (when the bot
    // takes the replaced board's menu off, best effort) by its id.
    bot.shards.shutdown_all().await;
    let refused: Vec<_> = bot.standin.all_calls().into_iter().filter(|c| !c.ok()).collect();
    let of_the_deleted_board = |kind: &ReplyKind| match kind {
        ReplyKind::EditOriginal => true,
        ReplyKind::EditChannelMessage { message_id, .. } => *message_id == board_id,
        _ => false,
    };
    assert!(refused.iter().all(|c| of_the_deleted_board(&c.kind)), "{refused:?}");
}

/// `payload` as if the bot lacked the permissions `bits` where it was sent.
fn without_permissions(mut payload: Value, bits: u64) -> Value {
    let granted: u64 = payload["app_permissions"].as_str().unwrap().parse().unwrap();
    payload["app_permissions"] = json!((granted & !bits).to_string());
    payload
}

/// Where the bot cannot post a board, /play refuses privately naming the missing permission (in
/// the player's language) and stores nothing; a tap there changes nothing either.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn without_the_permissions_to_show_a_game_nothing_is_stored(pool: PgPool) {
    const SEND_MESSAGES: u64 = 1 << 11;
    const ATTACH_FILES: u64 = 1 << 15;
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let x = bot.standin.interact(without_permissions(play_reversi(&ctx), ATTACH_FILES)).await;
    assert_refused(&x, "Attach Files");
    assert!(!x.content().contains("Send Messages"), "{x}");
    assert!(bot.game(&ctx).await.is_none());
    let x = bot.standin.interact(without_permissions(play_reversi(&Ctx::ja()), SEND_MESSAGES | ATTACH_FILES)).await;
    assert_refused(&x, "「メッセージを送信」「ファイルを添付」");
    assert!(bot.game(&ctx).await.is_none());
    // With the permissions the game starts; a tap where they were lost since is refused.
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (menu, _) = move_menu(&start);
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();
    let tap = without_permissions(fixtures::select_on(&ctx, &menu, &["f5"], &board), SEND_MESSAGES);
    assert_refused(&bot.standin.interact(tap).await, "Send Messages");
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 0);
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn autocomplete_offers_the_legal_moves(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let none = bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "")).await;
    assert!(none.autocomplete_choices().is_empty());
    bot.standin.interact(play_reversi(&ctx)).await;
    let all = bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "")).await;
    let mut values: Vec<String> = all.autocomplete_choices().into_iter().map(|(_, v)| v).collect();
    values.sort();
    assert_eq!(values, ["c4", "d3", "e6", "f5"]);
    let some = bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "D")).await;
    assert_eq!(some.autocomplete_choices(), [("d3".to_string(), "d3".to_string())]);
    // Someone else's game offers them nothing.
    let other =
        bot.standin.interact(fixtures::autocomplete(&ctx.with_user(OTHER_USER_ID), "play", "move", "move", "")).await;
    assert!(other.autocomplete_choices().is_empty());
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn refusals_are_ephemeral_and_change_nothing(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();

    let no_game = bot.standin.interact(play_move(&ctx, "f5")).await;
    assert_refused(&no_game, "no game in this channel");
    let no_board = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    assert_refused(&no_board, "no game in this channel");

    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (menu, _) = move_menu(&start);
    let before = bot.snapshot(&ctx).await;

    let busy = bot.standin.interact(play_reversi(&ctx.with_user(OTHER_USER_ID))).await;
    assert_refused(&busy, "already in progress");
    let illegal = bot.standin.interact(play_move(&ctx, "a1")).await;
    assert_refused(&illegal, "not legal here");
    assert!(illegal.content().contains("d3"), "the legal moves are listed: {}", illegal.content());
    let garbage = bot.standin.interact(play_move(&ctx, "z9")).await;
    assert_refused(&garbage, "not a move");
    let intruder = bot.standin.interact(play_move(&ctx.with_user(OTHER_USER_ID), "f5")).await;
    assert_refused(&intruder, &format!("<@{USER_ID}>'s game"));
    let not_in_menu = bot.standin.interact(fixtures::select(&ctx, &menu, &["a1"], start.message_id().unwrap())).await;
    assert_refused(&not_in_menu, "not legal here");
    let unknown = bot.standin.interact(fixtures::select(&ctx, "nonsense", &["f5"], start.message_id().unwrap())).await;
    assert_refused(&unknown, "out of date");
    let ja = bot.standin.interact(play_move(&Ctx::ja(), "a1")).await;
    assert!(ja.is_ephemeral() && ja.content().contains("打てません"), "{}", ja.content());
    assert_eq!(bot.snapshot(&ctx).await, before, "a refusal changed the game");

    // A move, then the old board's menu is stale.
    bot.standin.interact(play_move(&ctx, "f5")).await;
    let after = bot.snapshot(&ctx).await;
    let stale = bot.standin.interact(fixtures::select(&ctx, &menu, &["d3"], start.message_id().unwrap())).await;
    assert_refused(&stale, "out of date");
    assert_eq!(bot.snapshot(&ctx).await, after);

    // Resign by someone else is refused; by the owner it ends the game.
    let bad_resign =
        bot.standin.interact(fixtures::slash(&ctx.with_user(OTHER_USER_ID), "play", "resign", json!([]))).await;
    assert_refused(&bad_resign, "game");
    let resign = bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    assert!(!resign.is_ephemeral() && resign.content().contains("resigned"), "{resign}");
    board_image(&resign);
    assert_eq!(bot.snapshot(&ctx).await.2, GameStatus::Resigned);
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn two_taps_at_once_apply_one_move(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (menu, _) = move_menu(&start);
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();
    let (a, b) = tokio::join!(
        bot.standin.interact(fixtures::select_on(&ctx, &menu, &["f5"], &board)),
        bot.standin.interact(fixtures::select_on(&ctx, &menu, &["d3"], &board)),
    );
    let (applied, refused) = if a.is_ephemeral() { (b, a) } else { (a, b) };
    assert!(!applied.is_ephemeral(), "one tap applies:\n{applied}");
    assert!(refused.is_ephemeral(), "the other is refused:\n{refused}");
    assert!(refused.files().is_empty());
    let snapshot = bot.snapshot(&ctx).await;
    assert_eq!((snapshot.1, snapshot.3), (2, 2), "exactly one human move and one reply");
    bot.stop().await;
}

/// Plays the human's side by tapping the first option of each new board until the game ends;
/// returns the last exchange and how many boards were tapped.
async fn tap_to_the_end(bot: &Bot, ctx: &Ctx, mut last: Exchange) -> (Exchange, usize) {
    let mut taps = 0;
    while last.custom_ids().iter().any(|id| id.starts_with("mv:")) {
        let (menu, values) = move_menu(&last);
        let board = bot.standin.message(last.message_id().unwrap()).unwrap();
        last = bot.standin.interact(fixtures::select_on(ctx, &menu, &[&values[0]], &board)).await;
        assert!(!last.is_ephemeral(), "a legal tap was refused:\n{last}");
        taps += 1;
        assert!(taps <= 40, "the game never ended");
    }
    (last, taps)
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_complete_game_by_tapping_ends_with_a_result(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (last, taps) = tap_to_the_end(&bot, &ctx, start).await;
    assert!(taps >= 10);
    assert!(last.content().contains("Game over"), "{}", last.content());
    board_image(&last);
    let (position, ply, status, moves) = bot.snapshot(&ctx).await;
    assert_eq!(status, GameStatus::Finished);
    assert_eq!(ply as usize, moves);
    let game = Game::decode(GameKind::Reversi, &position).unwrap();
    assert!(game.outcome().is_some());
    // The final board comes with the replay of the whole game: a frame per position.
    let gif = last.file("replay.gif").unwrap_or_else(|| panic!("no replay:\n{last}"));
    assert_eq!(gif_frames(gif), moves + 1);
    assert!(last.content().contains("The whole game"), "{}", last.content());
    assert!(last.file("chart.png").is_none(), "the chart comes with the commentary only");
    // The channel is free for a new game.
    let again = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(!again.is_ephemeral());
    bot.stop().await;
}

/// A seeded random game prefix reaching a position where black (the human) has a move after which
/// white (the bot) must pass, and one where after black's move every white reply leaves black
/// without a move (so the human passes automatically).
fn prefix_with_passes() -> Vec<reversi::Move> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..20_000 {
        let mut pos = reversi::Position::start();
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            if pos.turn() == reversi::Color::Black && pos.legal_mask() != 0 && moves.len() > 20 {
                let forces_bot_pass = pos.legal_moves().iter().any(|&m| {
                    let next = pos.play(m).unwrap();
                    !next.is_game_over() && next.legal_moves() == [reversi::Move::Pass]
                });
                if forces_bot_pass {
                    return moves;
                }
            }
            let legal = pos.legal_moves();
            let m = legal[rng.gen_range(0..legal.len())];
            pos = pos.play(m).unwrap();
            moves.push(m);
        }
    }
    panic!("no position with a forced pass found");
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn passes_are_played_and_announced(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    // Set the game up at a position where black can force white to pass.
    let prefix = prefix_with_passes();
    let mut game = Game::new(GameKind::Reversi);
    let mut moves = Vec::new();
    for &m in &prefix {
        let by_bot = game.to_move() == Some(Side::Second);
        game = game.play(m.into()).unwrap();
        moves.push(NewMove { mv: m.into(), by_bot, user_id: (!by_bot).then_some(USER_ID) });
    }
    let record = bot
        .store
        .create_game(&NewGame {
            guild_id: Some(ctx.guild_id),
            channel_id: ctx.channel_id,
            human_id: USER_ID,
            human_name: "Mika".into(),
            parent_id: None,
            human_side: Side::First,
            level: settai_core::Level::Reversi(settai_core::reversi::Level::Standard),
            game: Game::new(GameKind::Reversi),
        })
        .await
        .unwrap();
    bot.store.record_moves(&record, &moves, &game, None).await.unwrap();

    let Game::Reversi(pos) = &game else { unreachable!("a reversi game") };
    let forcing =
        pos.legal_moves().into_iter().find(|&m| pos.play(m).unwrap().legal_moves() == [reversi::Move::Pass]).unwrap();
    let x = bot.standin.interact(play_move(&ctx, &forcing.to_string())).await;
    assert!(x.content().contains("I have no move and pass"), "{}", x.content());
    let record = bot.game(&ctx).await;
    if let Some(r) = &record {
        // After the bot's pass, the human moves again (or passes too if the game went on).
        assert!(r.human_to_move());
    }
    let (last, _) = tap_to_the_end(&bot, &ctx, x).await;
    assert!(last.content().contains("Game over"), "{}", last.content());
    let (_, ply, status, count) = bot.snapshot(&ctx).await;
    assert_eq!(status, GameStatus::Finished);
    assert_eq!(ply as usize, count);
    let stored: Vec<String> = {
        let id: i64 = sqlx::query_scalar("SELECT id FROM games WHERE channel_id = $1")
            .bind(ctx.channel_id as i64)
            .fetch_one(bot.store.pool())
            .await
            .unwrap();
        bot.store.moves(id).await.unwrap().into_iter().map(|m| m.notation).collect()
    };
    assert!(stored.iter().any(|m| m == "pass"));
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_dead_database_gets_a_friendly_try_again(pool: PgPool) {
    let bot = Bot::start(pool.clone()).await;
    let ctx = Ctx::en();
    bot.standin.interact(play_reversi(&ctx)).await;
    pool.close().await;
    for payload in [play_move(&ctx, "f5"), play_reversi(&ctx.with_channel(fixtures::OTHER_CHANNEL_ID))] {
        let x = bot.standin.interact(payload).await;
        assert_refused(&x, "try again in a moment");
    }
    let ja = bot.standin.interact(play_move(&Ctx::ja(), "f5")).await;
    assert!(ja.is_ephemeral() && ja.content().contains("もう一度"), "{}", ja.content());
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn with_a_development_guild_commands_are_registered_there_only(pool: PgPool) {
    let bot = Bot::start_in(pool, Some(fixtures::GUILD_ID)).await;
    // The bot registers its commands in one call, once connected.
    bot.standin.wait_commands(T).await;
    let registered = bot.standin.registered_guild_commands(fixtures::GUILD_ID).await;
    assert!(registered.iter().any(|c| c["name"] == "play"), "{registered:?}");
    assert!(bot.standin.registered_commands().await.is_empty(), "nothing registered globally");
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn doubutsu_is_played_by_menu_and_command_at_the_weakest_level(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let weakest = Change::Level(settai_core::Level::Doubutsu(settai_core::doubutsu::Level::Weakest));
    bot.store.change_setting(ctx.guild_id, &place(&ctx), Scope::Server, weakest).await.unwrap();

    let start = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert!(!start.is_ephemeral(), "{start}");
    assert!(start.content().contains("doubutsu shogi"), "{}", start.content());
    board_image(&start);
    // One menu per kind of move, its placeholder saying which; options a child can read.
    let menus = move_menus(&start);
    let shown: Vec<(&str, Vec<(&str, &str)>)> =
        menus.iter().map(|(_, p, o)| (p.as_str(), o.iter().map(|(l, v)| (l.as_str(), v.as_str())).collect())).collect();
    assert_eq!(
        shown,
        [
            ("Move the lion 🦁", vec![("🦁 B4 → A3", "B4A3"), ("🦁 B4 → C3", "B4C3")]),
            ("Move another animal", vec![("🐥 B3 → B2 (takes 🐥)", "B3B2"), ("🦒 C4 → C3", "C4C3")]),
        ],
        "{start}"
    );
    let menu = menus[1].0.clone();

    // Autocomplete is case-insensitive.
    let ac = bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "b4")).await;
    let mut choices: Vec<String> = ac.autocomplete_choices().into_iter().map(|(_, v)| v).collect();
    choices.sort();
    assert_eq!(choices, ["B4A3", "B4C3"]);

    // The chick takes the chick by tapping; the bot answers.
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();
    let tap = bot.standin.interact(fixtures::select_on(&ctx, &menu, &["B3B2"], &board)).await;
    assert!(tap.content().contains("You played **B3B2**"), "{}", tap.content());
    assert!(tap.content().contains("I play **"), "{}", tap.content());
    board_image(&tap);
    let record = bot.game(&ctx).await.unwrap();
    assert_eq!(record.ply, 2);
    assert_eq!(record.level, settai_core::Level::Doubutsu(settai_core::doubutsu::Level::Weakest));

    // A drop is offered in its own menu once the hand holds a piece, and typed moves work.
    let menus = move_menus(&tap);
    let all_values: Vec<String> = menus.iter().flat_map(|(_, _, o)| o.iter().map(|(_, v)| v.clone())).collect();
    let moves = record.game.legal_moves();
    let mut legal: Vec<String> = moves.iter().map(ToString::to_string).collect();
    legal.sort();
    let mut offered = all_values.clone();
    offered.sort();
    assert_eq!(offered, legal, "the menus offer exactly the legal moves");
    // Drops have a menu of their own, each option naming the animal.
    let hand = menus.iter().find(|(_, p, _)| p == "Drop a piece from your hand").expect("the chick is in hand");
    assert!(hand.2.iter().all(|(l, v)| v.starts_with("C*") && l == &format!("Drop 🐥 on {}", &v[2..])), "{hand:?}");
    assert_eq!(hand.2.len(), moves.iter().filter(|m| m.is_drop()).count());
    let illegal = bot.standin.interact(play_move(&ctx, "A4A1")).await;
    assert_refused(&illegal, "not legal here");
    let typed = legal[0].to_lowercase();
    let by_command = bot.standin.interact(play_move(&ctx, &typed)).await;
    assert!(!by_command.is_ephemeral(), "{by_command}");
    board_image(&by_command);
    let stored = bot.snapshot(&ctx).await;
    assert!(stored.1 >= 3, "{stored:?}");
    // The stored game reads back with its history.
    assert!(Game::decode(GameKind::Doubutsu, &stored.0).is_ok());
    bot.stop().await;
}

/// The table of the sub-game with lions and chicks only (built in a moment), as a file the bot
/// maps like the real one; and that sub-game's first position.
fn small_table(name: &str) -> (Arc<TableFile>, doubutsu::Position) {
    let root: doubutsu::Position = "1l1/1c1/1C1/1L1 b -".parse().unwrap();
    let table = doubutsu::table::build(Material::of(&root), &BuildOptions::default()).unwrap();
    let path = std::env::temp_dir().join(format!("settai-e2e-{name}-{}.tb", std::process::id()));
    settai::table_file::write(&table, &path).unwrap();
    let file = TableFile::open(&path).unwrap();
    // The mapping stays valid after the name is gone.
    std::fs::remove_file(&path).unwrap();
    (Arc::new(file), root)
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn doubutsu_table_levels_answer_through_the_bot_as_the_table_says(pool: PgPool) {
    use rand::SeedableRng;
    let (table, root) = small_table("levels");
    let bot = Bot::start_with_table(pool, table.clone()).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let mut checked = 0;
    for (i, level) in
        [Level::Doubutsu(doubutsu::Level::Strongest), Level::Doubutsu(doubutsu::Level::Settai)].into_iter().enumerate()
    {
        let ctx = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 1 + i as u64);
        let record = bot.doubutsu_game_at(&ctx, root, level).await;
        let mut local = doubutsu::Game::from_position(root);
        for _ in 0..300 {
            if local.outcome().is_some() {
                break;
            }
            // The guest: random, but never missing a win in one nor walking into a loss in one.
            let human = doubutsu::weakest(&local, &mut rng).unwrap();
            let x = bot.standin.interact(play_move(&ctx, &human.to_string())).await;
            assert!(!x.is_ephemeral(), "{x}");
            board_image(&x);
            local.play(human).unwrap();
            let stored = bot.store.game(record.id).await.unwrap().unwrap();
            let Game::Doubutsu(stored_game) = &stored.game else { unreachable!("a doubutsu game") };
            if local.outcome().is_some() {
                assert_eq!(stored_game.0.moves(), local.moves());
                break;
            }
            assert_eq!(stored_game.0.moves().len(), local.moves().len() + 1, "the bot answered once");
            let reply = *stored_game.0.moves().last().unwrap();
            // What the table says of every move here, and of the level's own choice.
            let pos = *local.position();
            let values = doubutsu::evaluate_moves(&*table, &pos).unwrap();
            let value_of = |m: doubutsu::Move| values.iter().find(|(v, _)| *v == m).unwrap().1;
            let expected = match level {
                Level::Doubutsu(doubutsu::Level::Strongest) => doubutsu::strongest(&*table, &local).unwrap(),
                _ => doubutsu::settai(&*table, &local, &mut rng).unwrap(),
            };
            assert_eq!(
                value_of(reply),
                value_of(expected),
                "{level:?} at {pos}: played {reply}, expected {expected}'s value"
            );
            checked += 1;
            local.play(reply).unwrap();
        }
        assert!(local.outcome().is_some(), "the game ended");
        let finished = bot.store.game(record.id).await.unwrap().unwrap();
        assert_eq!(finished.status, GameStatus::Finished);
        assert!(bot.game(&ctx).await.is_none());
        // The stored game reads back from its own start (not the official one).
        let (_, last) = (finished.game.encode(), bot.store.moves(record.id).await.unwrap().len());
        assert_eq!(last, local.moves().len());
    }
    assert!(checked >= 4, "{checked} replies checked");
    // The table is used as a probe would: a position of this sub-game is valued.
    assert!(table.probe(&root).is_ok());
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn without_the_table_doubutsu_is_refused_politely_and_reversi_still_works(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    // The default doubutsu level (settai) needs the table, which this bot does not have.
    let refused = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert_refused(&refused, "not ready");
    assert!(bot.game(&ctx).await.is_none(), "no game was created");
    let ja = bot.standin.interact(fixtures::slash(&Ctx::ja(), "play", "doubutsu", json!([]))).await;
    assert!(ja.is_ephemeral() && ja.content().contains("準備中"), "{}", ja.content());
    let reversi = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(!reversi.is_ephemeral());
    board_image(&reversi);
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_missing_table_is_built_in_the_background_and_table_levels_wait_for_it_politely(pool: PgPool) {
    // A fresh install: no table file. The bot builds it (here a sub-game's, in a moment) and
    // is held at the start of the build until the refusal has been seen.
    let dir = std::env::temp_dir().join(format!("settai-e2e-keeper-{}", std::process::id()));
    let path = dir.join("doubutsu.tb");
    let _ = std::fs::remove_dir_all(&dir);
    let (release, gate) = std::sync::mpsc::channel::<()>();
    let root: doubutsu::Position = "1l1/1c1/1C1/1L1 b -".parse().unwrap();
    let keeper = TableKeeper::open_or_build_after(&path, Material::of(&root), move || {
        let _ = gate.recv();
    });
    let bot = Bot::launch_with_keeper(Store::from_pool(pool), None, keeper.clone()).await;
    let ctx = Ctx::en();
    let refused = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert_refused(&refused, "ready in about 1 minute");
    assert!(bot.game(&ctx).await.is_none(), "no game was created");
    let ja = bot.standin.interact(fixtures::slash(&Ctx::ja(), "play", "doubutsu", json!([]))).await;
    assert!(ja.is_ephemeral() && ja.content().contains("あと1分ほど"), "{}", ja.content());
    // Reversi plays meanwhile.
    let reversi = bot.standin.interact(play_reversi(&Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID))).await;
    assert!(!reversi.is_ephemeral(), "{reversi}");

    release.send(()).unwrap();
    assert!(tokio::time::timeout(T, keeper.wait_ready()).await.unwrap(), "the build finished and opened the table");
    assert!(TableFile::open(&path).is_ok(), "the table was written where serve looks for it");
    let started = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert!(!started.is_ephemeral(), "{started}");
    board_image(&started);
    // Table levels now answer as the table says (a game at the sub-game's root).
    let ctx = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 7);
    let record = bot.doubutsu_game_at(&ctx, root, Level::Doubutsu(doubutsu::Level::Strongest)).await;
    let mut local = doubutsu::Game::from_position(root);
    let human = doubutsu::weakest(&local, &mut <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1)).unwrap();
    let x = bot.standin.interact(play_move(&ctx, &human.to_string())).await;
    assert!(!x.is_ephemeral(), "{x}");
    local.play(human).unwrap();
    let stored = bot.store.game(record.id).await.unwrap().unwrap();
    let Game::Doubutsu(stored_game) = &stored.game else { unreachable!("a doubutsu game") };
    let reply = *stored_game.0.moves().last().unwrap();
    let table = keeper.get().unwrap();
    let best = doubutsu::strongest(&*table, &local).unwrap();
    let value = |m: doubutsu::Move| table.probe(&local.position().play(m).unwrap()).unwrap();
    assert_eq!(value(reply), value(best), "the bot played {reply}, the table's best is {best}");
    bot.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `/settings` interaction by a member with (or without) Manage Server.
fn settings(ctx: &Ctx, sub: &str, options: Value, manager: bool) -> Value {
    let mut payload = fixtures::slash(ctx, "settings", sub, options);
    // MANAGE_GUILD is bit 5; the fixture's default member has the usual member permissions only.
    let permissions = if manager { "32" } else { "0" };
    payload["member"]["permissions"] = json!(permissions);
    payload
}

fn level_options(game: &str, level: &str) -> Value {
    json!([{ "name": "game", "type": 3, "value": game }, { "name": "level", "type": 3, "value": level }])
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn server_managers_choose_the_levels_and_others_cannot(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let commands = bot.standin.registered_commands().await;
    let settings_cmd = commands.iter().find(|c| c["name"] == "settings").expect("/settings is registered");
    assert_eq!(settings_cmd["default_member_permissions"], "32");

    // A player who is not a manager changes nothing.
    let denied = bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "weakest"), false)).await;
    assert_refused(&denied, "manage this server");
    assert_eq!(
        bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Doubutsu),
        settai_core::Level::Doubutsu(settai_core::doubutsu::Level::Settai)
    );

    // A level of the other game is refused.
    let wrong = bot.standin.interact(settings(&ctx, "level", level_options("reversi", "weakest"), true)).await;
    assert!(wrong.is_ephemeral() && wrong.content().contains("no mercy"), "{}", wrong.content());
    assert_eq!(
        bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Reversi),
        settai_core::Level::Reversi(settai_core::reversi::Level::Standard)
    );

    // A manager sets doubutsu to weakest: the table is not needed, so doubutsu can start.
    let set = bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "weakest"), true)).await;
    assert!(set.is_ephemeral() && set.content().contains("weakest"), "{}", set.content());
    assert_eq!(
        bot.store.settings(&place(&ctx)).await.unwrap().level(GameKind::Doubutsu),
        settai_core::Level::Doubutsu(settai_core::doubutsu::Level::Weakest)
    );
    let shown = bot.standin.interact(settings(&Ctx::ja(), "show", json!([]), true)).await;
    assert!(
        shown.is_ephemeral() && shown.content().contains("雑魚") && shown.content().contains("標準"),
        "{}",
        shown.content()
    );
    let started = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
    assert!(!started.is_ephemeral(), "{started}");
    assert_eq!(
        bot.game(&ctx).await.unwrap().level,
        settai_core::Level::Doubutsu(settai_core::doubutsu::Level::Weakest)
    );

    // Changing the level later does not touch the running game.
    bot.standin.interact(settings(&ctx, "level", level_options("doubutsu", "strongest"), true)).await;
    assert_eq!(
        bot.game(&ctx).await.unwrap().level,
        settai_core::Level::Doubutsu(settai_core::doubutsu::Level::Weakest)
    );
    bot.stop().await;
}

/// Words that give the hospitality away; with the commentary off no player may ever see them.
const HIDDEN_WORDS: [&str; 20] = [
    "settai",
    "sontaku",
    "hospitab",
    "level",
    "divergence",
    "standard",
    "highest",
    "mercy",
    "strongest",
    "weakest",
    "接待",
    "忖度",
    "レベル",
    "乖離",
    "標準",
    "最高",
    "最強",
    "雑魚",
    "おもてなし",
    "💡",
];

fn assert_no_hidden_word(what: &str, text: &str) {
    let lower = text.to_lowercase();
    for word in HIDDEN_WORDS {
        assert!(!lower.contains(word), "{what} shows {word:?}: {text}");
    }
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn with_the_commentary_off_no_player_ever_sees_a_word_of_hospitality(pool: PgPool) {
    let bot = Bot::start(pool).await;
    for ctx in [Ctx::en(), Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID)] {
        let mut last = bot.standin.interact(play_reversi(&ctx)).await;
        for _ in 0..4 {
            let (menu, values) = move_menu(&last);
            let board = bot.standin.message(last.message_id().unwrap()).unwrap();
            last = bot.standin.interact(fixtures::select_on(&ctx, &menu, &[&values[values.len() / 2]], &board)).await;
        }
        bot.standin.interact(fixtures::autocomplete(&ctx, "play", "move", "move", "")).await;
        bot.standin.interact(play_move(&ctx, "z9")).await;
        bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
        bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    }
    let calls = bot.standin.all_calls();
    assert!(calls.len() > 20, "{} calls", calls.len());
    for call in &calls {
        assert_no_hidden_word(&format!("{:?}", call.kind), &call.json.to_string());
    }
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn with_the_commentary_on_each_move_is_explained_in_the_players_language(pool: PgPool) {
    let (table, root) = small_table("commentary");
    let bot = Bot::start_with_table(pool, table.clone()).await;
    let ctx = Ctx::en();
    // Only managers turn it on.
    let on = json!([{ "name": "on", "type": 5, "value": true }]);
    let denied = bot.standin.interact(settings(&ctx, "commentary", on.clone(), false)).await;
    assert_refused(&denied, "manage this server");
    assert!(!bot.store.settings(&place(&ctx)).await.unwrap().commentary);
    let set = bot.standin.interact(settings(&ctx, "commentary", on, true)).await;
    assert!(set.is_ephemeral() && set.content().contains("**on**"), "{}", set.content());
    let show = bot.standin.interact(settings(&ctx, "show", json!([]), true)).await;
    assert!(show.content().contains("Move commentary: **on**"), "{}", show.content());

    // Reversi: the engine's evaluation of the move.
    bot.standin.interact(play_reversi(&ctx)).await;
    let x = bot.standin.interact(play_move(&ctx, "d3")).await;
    let text = x.content();
    assert!(text.contains("💡 **d3**") && text.contains("discs"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("You played **d3**") && lines[1].starts_with("💡"), "under the player's move: {text}");
    // After the game: the replay, the chart of how it went and its summary.
    let over = bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    assert_eq!(gif_frames(over.file("replay.gif").expect("a replay")), 3, "start, d3 and the bot's reply");
    let chart = image::load_from_memory(over.file("chart.png").expect("a chart")).unwrap();
    assert_eq!(chart.width(), settai::render::story::WIDTH);
    let summary = over.content();
    assert!(["Great moves", "Worth another look", "A steady game"].iter().any(|w| summary.contains(w)), "{summary}");

    // Doubutsu, in Japanese: the exact value and the divergence from the table.
    let ja = Ctx::ja();
    bot.doubutsu_game_at(&ja, root, Level::Doubutsu(doubutsu::Level::Settai)).await;
    let game = doubutsu::Game::from_position(root);
    let best = doubutsu::strongest(&*table, &game).unwrap();
    let worst = game
        .legal_moves()
        .into_iter()
        .find(|&m| doubutsu::analyze(&*table, &root, m).unwrap().divergence < 1.0)
        .expect("a move worse than the best");
    let good = bot.standin.interact(play_move(&ja, &best.to_string())).await;
    assert!(good.content().contains(&format!("💡 **{best}** は最善手です")), "{}", good.content());
    let over = bot.standin.interact(fixtures::slash(&ja, "play", "resign", json!([]))).await;
    assert!(over.file("chart.png").is_some() && over.content().contains("🎞️ 対局をふりかえり"), "{over}");
    bot.doubutsu_game_at(&ja, root, Level::Doubutsu(doubutsu::Level::Settai)).await;
    let bad = bot.standin.interact(play_move(&ja, &worst.to_string())).await;
    assert!(bad.content().contains("最善手乖離度"), "{}", bad.content());

    // Turned off again: the next move has no line.
    let off = json!([{ "name": "on", "type": 5, "value": false }]);
    bot.standin.interact(settings(&ctx, "commentary", off, true)).await;
    bot.standin.interact(fixtures::slash(&ja, "play", "resign", json!([]))).await;
    bot.standin.interact(play_reversi(&ctx)).await;
    let quiet = bot.standin.interact(play_move(&ctx, "d3")).await;
    assert!(!quiet.content().contains('💡'), "{}", quiet.content());
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn the_resign_button_asks_first_and_only_the_player_can_use_it(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let ask_id = start.custom_ids().into_iter().find(|id| id.starts_with("rs:ask:")).expect("a Resign button");
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();

    // Someone else cannot resign for the player.
    let other = bot.standin.interact(fixtures::button_on(&ctx.with_user(OTHER_USER_ID), &ask_id, &board)).await;
    assert_refused(&other, "<@");

    // The player is asked privately; "Keep playing" changes nothing.
    let ask = bot.standin.interact(fixtures::button_on(&ctx, &ask_id, &board)).await;
    assert!(ask.is_ephemeral() && ask.content().contains("Resign this game?"), "{ask}");
    let ids = ask.custom_ids();
    let (yes, no) =
        (ids.iter().find(|i| i.starts_with("rs:yes:")).unwrap(), ids.iter().find(|i| i.starts_with("rs:no:")).unwrap());
    // The ephemeral question as Discord would send it back with a click on its buttons.
    let mut question = fixtures::bot_message(&ctx, ask.message_id().unwrap_or(1_100_000_000_000_009_999));
    question["flags"] = json!(64);
    let kept = bot.standin.interact(fixtures::button_on(&ctx, no, &question)).await;
    assert!(kept.content().contains("goes on"), "{kept}");
    assert_eq!(bot.game(&ctx).await.unwrap().status, GameStatus::Active);

    // "Yes" resigns that game and posts the final board for everyone.
    // The flow's answer says so on the question; the final board follows it.
    let done =
        bot.standin.interact_until(fixtures::button_on(&ctx, yes, &question), |x| !x.followups().is_empty()).await;
    let contents = done.contents().join("\n");
    assert!(contents.contains("You resigned") || contents.contains("resign"), "{contents}");
    board_image(&done);
    assert!(done.followups().iter().any(|f| f.flags() & 64 == 0), "the final board is public:\n{done}");
    assert!(bot.game(&ctx).await.is_none());
    let (_, _, status, _) = bot.snapshot(&ctx).await;
    assert_eq!(status, GameStatus::Resigned);

    // The same confirmation, or the old board's button, cannot touch a newer game.
    bot.standin.interact(play_reversi(&ctx)).await;
    let again = bot.standin.interact(fixtures::button_on(&ctx, yes, &question)).await;
    assert_refused(&again, "board");
    let old = bot.standin.interact(fixtures::button_on(&ctx, &ask_id, &board)).await;
    assert_refused(&old, "board");
    assert_eq!(bot.game(&ctx).await.unwrap().status, GameStatus::Active);
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn stats_count_each_players_games_on_this_server(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let fresh = bot.standin.interact(fixtures::slash(&ctx, "play", "stats", json!([]))).await;
    assert!(fresh.content().contains("reversi: 0 wins, 0 losses, 0 draws"), "{}", fresh.content());
    // Two resigned reversi games count as losses; a game still on does not count.
    for _ in 0..2 {
        bot.standin.interact(play_reversi(&ctx)).await;
        bot.standin.interact(fixtures::slash(&ctx, "play", "resign", json!([]))).await;
    }
    bot.standin.interact(play_reversi(&ctx)).await;
    let mine = bot.standin.interact(fixtures::slash(&ctx, "play", "stats", json!([]))).await;
    assert!(mine.content().contains("reversi: 0 wins, 2 losses, 0 draws"), "{}", mine.content());
    assert_no_hidden_word("/play stats", &mine.content());
    // Another player, and the same player on another server, start from nothing.
    let other = bot.standin.interact(fixtures::slash(&ctx.with_user(OTHER_USER_ID), "play", "stats", json!([]))).await;
    assert!(other.content().contains("0 losses"), "{}", other.content());
    let elsewhere = Ctx { guild_id: fixtures::GUILD_ID + 1, ..Ctx::ja() };
    let ja = bot.standin.interact(fixtures::slash(&elsewhere, "play", "stats", json!([]))).await;
    assert!(ja.content().contains("リバーシ 0勝0敗0分"), "{}", ja.content());
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn games_idle_past_the_servers_limit_are_closed_with_a_notice(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    // A manager allows 30 days on this server; the default elsewhere is 14.
    let days = json!([{ "name": "days", "type": 4, "value": 30 }]);
    let set = bot.standin.interact(settings(&ctx, "idle", days, true)).await;
    assert!(set.content().contains("**30 days**"), "{}", set.content());
    let show = bot.standin.interact(settings(&ctx, "show", json!([]), true)).await;
    assert!(show.content().contains("**30 days**"), "{}", show.content());

    let here = ctx.clone();
    let elsewhere = Ctx { guild_id: fixtures::GUILD_ID + 1, ..ctx.with_channel(fixtures::OTHER_CHANNEL_ID) };
    for c in [&here, &elsewhere] {
        bot.standin.interact(play_reversi(c)).await;
    }
    // Both games last moved 20 days ago: past the default 14, within this server's 30.
    let since = bot.standin.cursor();
    sqlx::query("UPDATE games SET updated_at = now() - interval '20 days' WHERE status = 'active'")
        .execute(bot.store.pool())
        .await
        .unwrap();
    let notice = bot.standin.wait_call(since, T, |c| c.content().is_some_and(|t| t.contains("waited 14 days"))).await;
    assert!(
        matches!(notice.kind, support::discord::ReplyKind::ChannelMessage { channel_id } if channel_id == elsewhere.channel_id)
    );
    assert!(bot.game(&elsewhere).await.is_none(), "the idle game is closed");
    let (_, _, status, _) = bot.snapshot(&elsewhere).await;
    assert_eq!(status, GameStatus::Expired);
    assert!(bot.game(&here).await.is_some(), "within this server's limit the game goes on");
    // A stale tap on the closed game's board is refused; a new game can start there.
    let refused = bot.standin.interact(play_move(&elsewhere, "d3")).await;
    assert_refused(&refused, "no game in this channel");
    let again = bot.standin.interact(play_reversi(&elsewhere)).await;
    assert!(!again.is_ephemeral(), "{again}");
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn in_family_team_mode_anyone_in_the_channel_moves_but_only_the_starter_resigns(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let (parent, child) = (Ctx::en(), Ctx::en().with_user(OTHER_USER_ID));
    bot.standin.interact(play_reversi(&parent)).await;
    // Off by default: the child may not move in the parent's game, and sees no moves offered.
    assert_refused(&bot.standin.interact(play_move(&child, "f5")).await, "'s game");
    let offered = bot.standin.interact(fixtures::autocomplete(&child, "play", "move", "move", "")).await;
    assert!(offered.autocomplete_choices().is_empty(), "{offered}");

    // Only managers switch it on.
    let on = json!([{ "name": "on", "type": 5, "value": true }]);
    assert_refused(&bot.standin.interact(settings(&child, "team", on.clone(), false)).await, "manage this server");
    let set = bot.standin.interact(settings(&parent, "team", on, true)).await;
    assert!(set.is_ephemeral() && set.content().contains("team mode is **on**"), "{}", set.content());
    let show = bot.standin.interact(settings(&parent, "show", json!([]), true)).await;
    assert!(show.content().contains("Family team mode: **on**"), "{}", show.content());

    // Now the child moves (by command, then by tapping the menu of the board the child got)...
    let offered = bot.standin.interact(fixtures::autocomplete(&child, "play", "move", "move", "")).await;
    assert!(offered.autocomplete_choices().iter().any(|(_, v)| v == "f5"), "{offered}");
    let by_child = bot.standin.interact(play_move(&child, "f5")).await;
    assert!(!by_child.is_ephemeral() && by_child.content().contains("You played **f5**"), "{by_child}");
    let (menu, values) = move_menu(&by_child);
    let board = bot.standin.message(by_child.message_id().unwrap()).unwrap();
    let tap = bot.standin.interact(fixtures::select_on(&child, &menu, &[&values[0]], &board)).await;
    assert!(!tap.is_ephemeral(), "{tap}");
    // ...the moves are recorded as the child's, and the game stays the parent's.
    let game = bot.store.active_game(child.channel_id).await.unwrap().expect("the game goes on");
    assert_eq!(game.human_id, USER_ID);
    let moves = bot.store.moves(game.id).await.unwrap();
    let human: Vec<_> = moves.iter().filter(|m| !m.by_bot).map(|m| m.user_id).collect();
    assert_eq!(human, vec![Some(OTHER_USER_ID), Some(OTHER_USER_ID)]);
    // Resigning stays with the player who started.
    let resign = bot.standin.interact(fixtures::slash(&child, "play", "resign", json!([]))).await;
    assert_refused(&resign, "'s game");
    let off = json!([{ "name": "on", "type": 5, "value": false }]);
    bot.standin.interact(settings(&parent, "team", off, true)).await;
    assert_refused(&bot.standin.interact(play_move(&child, "d3")).await, "'s game");
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_server_language_overrides_each_players_locale(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let en = Ctx::en();
    let ja_language = json!([{ "name": "language", "type": 3, "value": "ja" }]);
    let set = bot.standin.interact(settings(&en, "language", ja_language, true)).await;
    assert!(set.content().contains("言語：全員**日本語**"), "confirmed in the new language: {}", set.content());
    // An English-locale player now gets Japanese, on the board image too.
    let started = bot.standin.interact(play_reversi(&en)).await;
    assert!(started.content().contains("リバーシを始めます"), "{}", started.content());
    let menus = move_menus(&started);
    assert_eq!(menus[0].1, "石を置く", "the menu speaks Japanese too");
    assert!(menus[0].2.iter().any(|(label, _)| label == "d3（1枚返す）"), "{menus:?}");
    let ja_board = started.file(".png").unwrap().to_vec();
    let board = bot.standin.interact(fixtures::slash(&en, "play", "board", json!([]))).await;
    assert_eq!(board.file(".png").unwrap(), ja_board.as_slice());
    // Back to each player's own language.
    let auto = json!([{ "name": "language", "type": 3, "value": "auto" }]);
    let back = bot.standin.interact(settings(&en, "language", auto, true)).await;
    assert!(back.content().contains("each player's Discord language"), "{}", back.content());
    let board = bot.standin.interact(fixtures::slash(&en, "play", "board", json!([]))).await;
    assert!(board.content().contains("your move"), "{}", board.content());
    assert_ne!(board.file(".png").unwrap(), ja_board.as_slice(), "the image is in English again");
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn threads_hold_games_of_their_own_beside_their_channel(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let channel = Ctx::en();
    let (thread_a, thread_b) = (channel.in_thread(fixtures::THREAD_ID), channel.in_thread(fixtures::THREAD_ID + 1));
    // One game in the channel and one in each thread, all at once, each its own.
    let started = bot.standin.interact(play_reversi(&channel)).await;
    assert!(!started.is_ephemeral(), "{started}");
    for thread in [&thread_a, &thread_b] {
        let x = bot.standin.interact(play_reversi(&thread.with_user(OTHER_USER_ID))).await;
        assert!(!x.is_ephemeral() && x.content().contains(&format!("<@{OTHER_USER_ID}>")), "{x}");
    }
    // A second game in a thread is refused like in a channel.
    assert_refused(&bot.standin.interact(play_reversi(&thread_a)).await, "already");
    // Moves go to their own game: the thread's owner plays there, the channel's game is untouched.
    let moved = bot.standin.interact(play_move(&thread_a.with_user(OTHER_USER_ID), "f5")).await;
    assert!(!moved.is_ephemeral(), "{moved}");
    let in_thread = bot.store.active_game(fixtures::THREAD_ID).await.unwrap().unwrap();
    let in_channel = bot.store.active_game(channel.channel_id).await.unwrap().unwrap();
    let in_other = bot.store.active_game(fixtures::THREAD_ID + 1).await.unwrap().unwrap();
    assert_eq!((in_thread.ply, in_channel.ply, in_other.ply), (2, 0, 0));
    assert_eq!((in_thread.human_id, in_channel.human_id), (OTHER_USER_ID, USER_ID));
    // The board of a thread's game is posted in the thread.
    let board = bot.standin.interact(fixtures::slash(&thread_a, "play", "board", json!([]))).await;
    assert!(board.file(".png").is_some(), "{board}");
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn boards_name_the_player_as_the_server_shows_them(pool: PgPool) {
    let bot = Bot::start(pool).await;
    // A nickname with an emoji the font lacks: kept as given, drawn with a box for the emoji.
    let mama = Ctx::en().with_nick("Mama 🌸");
    let named = bot.standin.interact(play_reversi(&mama)).await;
    assert_eq!(bot.game(&mama).await.unwrap().human_name, "Mama 🌸");
    // Without a nickname the global name is used (in a direct message too).
    let dm = Ctx::en().dm();
    let plain = bot.standin.interact(play_reversi(&dm)).await;
    assert_eq!(bot.game(&dm).await.unwrap().human_name, dm.username());
    // Same position, same language: the images differ only where the names are written.
    let (a, b) = (board_image(&named).to_rgb8(), board_image(&plain).to_rgb8());
    assert_eq!(a.dimensions(), b.dimensions());
    let differing_rows: Vec<u32> =
        (0..a.height()).filter(|&y| (0..a.width()).any(|x| a.get_pixel(x, y) != b.get_pixel(x, y))).collect();
    assert!(!differing_rows.is_empty(), "the name is drawn");
    assert!(*differing_rows.last().unwrap() < 64, "only the header differs: rows {differing_rows:?}");
    // The name is kept with the game: a later board (any member asking) still shows it.
    let again =
        bot.standin.interact(fixtures::slash(&mama.with_nick("Someone else"), "play", "board", json!([]))).await;
    assert_eq!(board_image(&again).to_rgb8(), a);
    bot.stop().await;
}

fn here() -> Value {
    json!({ "name": "here", "type": 5, "value": true })
}

fn on(value: bool) -> Value {
    json!([{ "name": "on", "type": 5, "value": value }])
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_channel_can_have_settings_of_its_own_that_its_threads_follow(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let family = Ctx::en();
    let thread = family.in_thread(fixtures::THREAD_ID);
    let other = family.with_channel(fixtures::OTHER_CHANNEL_ID);
    // This channel plays reversi at `highest`; the server stays at `standard`.
    let mut options = level_options("reversi", "highest");
    options.as_array_mut().unwrap().push(here());
    let set = bot.standin.interact(settings(&family, "level", options, true)).await;
    assert!(set.content().contains("highest") && set.content().contains("This channel"), "{}", set.content());
    let shown = bot.standin.interact(settings(&family, "show", json!([]), true)).await;
    assert!(shown.content().contains("reversi: **highest** *(this channel)*"), "{}", shown.content());
    let shown = bot.standin.interact(settings(&other, "show", json!([]), true)).await;
    assert!(shown.content().contains("reversi: **standard**\n"), "{}", shown.content());
    assert!(!shown.content().contains("this channel)"), "{}", shown.content());
    // A thread of the channel follows it; another channel follows the server.
    bot.standin.interact(play_reversi(&thread)).await;
    bot.standin.interact(play_reversi(&other)).await;
    assert_eq!(
        bot.game(&thread).await.unwrap().level,
        settai_core::Level::Reversi(settai_core::reversi::Level::Highest)
    );
    assert_eq!(bot.game(&thread).await.unwrap().parent_id, Some(family.channel_id));
    assert_eq!(
        bot.game(&other).await.unwrap().level,
        settai_core::Level::Reversi(settai_core::reversi::Level::Standard)
    );
    // A language set for the channel only answers there, on the board too.
    let ja = json!([{ "name": "language", "type": 3, "value": "ja" }, here()]);
    let set = bot.standin.interact(settings(&family, "language", ja, true)).await;
    assert!(set.content().contains("このチャンネル"), "{}", set.content());
    let board = bot.standin.interact(fixtures::slash(&thread, "play", "board", json!([]))).await;
    assert!(board.content().contains("さんの番です"), "{}", board.content());
    let board = bot.standin.interact(fixtures::slash(&other, "play", "board", json!([]))).await;
    assert!(board.content().contains("your move"), "{}", board.content());
    // Only managers change a channel, and a reset brings back the server's settings.
    let mut options = level_options("reversi", "none");
    options.as_array_mut().unwrap().push(here());
    assert_refused(&bot.standin.interact(settings(&family, "level", options, false)).await, "管理者");
    let reset = bot.standin.interact(settings(&family, "reset", json!([]), true)).await;
    assert!(reset.content().contains("follows the server's settings again"), "{}", reset.content());
    let s = bot.store.settings(&place(&thread)).await.unwrap();
    assert_eq!(
        (s.level(GameKind::Reversi), s.language, s.from_channel.len()),
        (settai_core::Level::Reversi(settai_core::reversi::Level::Standard), None, 0)
    );
    // The running game keeps the level it started with.
    assert_eq!(
        bot.game(&thread).await.unwrap().level,
        settai_core::Level::Reversi(settai_core::reversi::Level::Highest)
    );
    bot.stop().await;
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn where_players_choose_they_pick_an_opponent_never_a_level(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let set = bot.standin.interact(settings(&ctx, "choice", on(true), true)).await;
    assert!(set.content().contains("choose their opponent"), "{}", set.content());
    // /play offers the opponents privately; nothing starts yet.
    let offer = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(offer.is_ephemeral() && offer.files().is_empty(), "{offer}");
    assert!(bot.game(&ctx).await.is_none());
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let choices = offer.select_options(&picker);
    let labels: Vec<&str> = choices.iter().map(|(label, _)| label.as_str()).collect();
    assert_eq!(labels, ["🦉 Owl", "🐰 Rabbit", "🐺 Wolf"]);
    // With the commentary off, nothing in the offer (not even the menu's values) names a level.
    for call in offer.calls.iter() {
        assert_no_hidden_word("the opponent menu", &call.json.to_string());
    }
    // Choosing the wolf starts a public game at `none`; the private menu says what was chosen.
    let menu_message = bot.standin.message(offer.message_id().unwrap()).unwrap();
    let wolf = &choices[2].1;
    // The board is posted first, then the menu is edited to say what was chosen.
    let pick = fixtures::select_on(&ctx, &picker, &[wolf.as_str()], &menu_message);
    let chosen = bot
        .standin
        .interact_until(pick, |x| {
            x.calls.iter().skip_while(|c| c.kind != ReplyKind::Followup).any(|c| c.kind == ReplyKind::EditOriginal)
        })
        .await;
    let posted = chosen.followups();
    assert_eq!(posted.len(), 1, "{chosen}");
    assert!(posted[0].flags() & 64 == 0 && !posted[0].files.is_empty(), "the board is public: {chosen}");
    assert!(chosen.content().contains("Wolf"), "{}", chosen.content());
    assert_eq!(bot.game(&ctx).await.unwrap().level, settai_core::Level::Reversi(settai_core::reversi::Level::None));
    // The same menu again, or /play again, finds the channel busy.
    let again = bot.standin.interact(fixtures::select_on(&ctx, &picker, &[wolf.as_str()], &menu_message)).await;
    assert_refused(&again, "already");
    assert_refused(&bot.standin.interact(play_reversi(&ctx)).await, "already");
    // With the commentary on, the menu also tells the level (in the player's language).
    bot.standin.interact(settings(&ctx, "commentary", on(true), true)).await;
    let ja = Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID);
    let offer = bot.standin.interact(fixtures::slash(&ja, "play", "doubutsu", json!([]))).await;
    let picker = offer.custom_ids().into_iter().find(|id| id.starts_with("op:")).expect("an opponent menu");
    let menu = offer.component(&picker).unwrap().to_string();
    assert!(menu.contains("ゾウさん") && menu.contains("接待"), "{menu}");
    // If the managers turn the choice off meanwhile, the old menu is refused and starts nothing.
    bot.standin.interact(settings(&ctx, "choice", on(false), true)).await;
    let menu_message = bot.standin.message(offer.message_id().unwrap()).unwrap();
    let late = bot.standin.interact(fixtures::select_on(&ja, &picker, &["2"], &menu_message)).await;
    assert_refused(&late, "選べなくなりました");
    assert!(bot.game(&ja).await.is_none());
    // A forged value is refused too.
    bot.standin.interact(settings(&ctx, "choice", on(true), true)).await;
    let forged = bot.standin.interact(fixtures::select_on(&ja, &picker, &["7"], &menu_message)).await;
    assert_refused(&forged, "");
    assert!(bot.game(&ja).await.is_none());
    bot.stop().await;
}

/// A screenshot of the message an exchange left, as Discord would show it.
fn card(x: &Exchange, names: &[(u64, &str)], open_menus: bool) -> image::RgbImage {
    let content = x.content();
    let files = x.files().into_iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    let card = screenshot::Card {
        content: &content,
        files,
        components: x.components(),
        ephemeral: x.is_ephemeral(),
        names: names.to_vec(),
        open_menus,
    };
    screenshot::render(&card)
}

/// The README's screenshots are real replies of the bot, drawn the way Discord shows them; they
/// are written to the folder `SETTAI_SCREENSHOTS` names (the README gives the command).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn readme_screenshots_are_drawn_from_real_replies(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let mut shots: Vec<(&str, image::RgbImage, usize)> = Vec::new();
    let mika = Ctx::en().with_nick("Mika");
    let names = [(USER_ID, "Mika")];

    // A game starts, with the commentary on for the whole server.
    bot.standin.interact(settings(&mika, "commentary", on(true), true)).await;
    let start = bot.standin.interact(play_reversi(&mika)).await;
    shots.push(("play-reversi-en", card(&start, &names, false), 1));

    // A move in Japanese, with its one line of commentary.
    let haruto = Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID).with_nick("はると");
    let started = bot.standin.interact(play_reversi(&haruto)).await;
    let (menu, values) = move_menu(&started);
    let board = bot.standin.message(started.message_id().unwrap()).unwrap();
    let moved = bot.standin.interact(fixtures::select_on(&haruto, &menu, &[&values[0]], &board)).await;
    assert!(moved.contents().len() > 1 || moved.content().lines().count() > 2, "{moved}");
    shots.push(("move-ja", card(&moved, &[(USER_ID, "はると")], false), 1));

    // A family channel where the children choose their opponent (and no commentary).
    let family = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 7).with_nick("Mika");
    for (sub, value) in [("choice", true), ("commentary", false)] {
        let mut options = on(value);
        options.as_array_mut().unwrap().push(here());
        bot.standin.interact(settings(&family, sub, options, true)).await;
    }
    let offer = bot.standin.interact(fixtures::slash(&family, "play", "doubutsu", json!([]))).await;
    assert!(offer.is_ephemeral(), "{offer}");
    shots.push(("opponent-picker-en", card(&offer, &names, true), 0));
    let shown = bot.standin.interact(settings(&family, "show", json!([]), true)).await;
    shots.push(("settings-show-en", card(&shown, &names, false), 0));
    let help = bot.standin.interact(fixtures::slash(&family, "play", "help", json!([]))).await;
    assert!(help.is_ephemeral() && help.file("animals.png").is_some(), "{help}");
    shots.push(("help-en", card(&help, &names, false), 1));

    // A take-back (待った) where a manager allows them: the board goes back to before the move.
    let undo = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 9).with_nick("Mika");
    let mut options = on(true);
    options.as_array_mut().unwrap().push(here());
    bot.standin.interact(settings(&undo, "takeback", options, true)).await;
    bot.standin.interact(play_reversi(&undo)).await;
    bot.standin.interact(play_move(&undo, "f5")).await;
    let undone = bot.standin.interact(fixtures::slash(&undo, "play", "takeback", json!([]))).await;
    assert!(undone.contents().join("\n").contains("Move taken back"), "{undone}");
    shots.push(("takeback-en", card(&undone, &names, false), 1));

    // The end of the first game: result, replay and the chart of how it went.
    let (over, _) = tap_to_the_end(&bot, &mika, start).await;
    assert!(over.file("replay.gif").is_some() && over.file("chart.png").is_some(), "{over}");
    shots.push(("game-over-en", card(&over, &names, false), 3));

    let out = std::env::var_os("SETTAI_SCREENSHOTS").map(std::path::PathBuf::from);
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir).unwrap();
    }
    for (name, img, pictures) in &shots {
        assert_eq!(img.width(), screenshot::WIDTH, "{name}");
        // Each attached picture is drawn at its aspect ratio, at most 420 px wide.
        assert!(img.height() as usize > 100 + 180 * pictures, "{name} is only {} px tall", img.height());
        if let Some(dir) = &out {
            img.save(dir.join(format!("{name}.png"))).unwrap();
        }
    }
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): a hundred boards tapped twice at the
/// same moment, by the same player or by two members of a family team: every game takes exactly one
/// move, the other tap hears it was too late, and nothing is lost.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_hundred_double_taps_apply_one_move_each(pool: PgPool) {
    const PAIRS: u64 = 100;
    let bot = Bot::start(pool).await;
    let mika = Ctx::en();
    // The quick level keeps the test about the race, not the thinking; half the channels play
    // as a family team.
    let weakest = Change::Level(settai_core::Level::Doubutsu(settai_core::doubutsu::Level::Weakest));
    bot.store.change_setting(mika.guild_id, &place(&mika), Scope::Server, weakest).await.unwrap();
    let channels: Vec<Ctx> = (0..PAIRS).map(|i| mika.with_channel(fixtures::THREAD_ID + 1_000 + i)).collect();
    for ctx in channels.iter().step_by(2) {
        bot.store.change_setting(ctx.guild_id, &place(ctx), Scope::Channel, Change::TeamPlay(true)).await.unwrap();
    }
    let starts = futures::future::join_all(
        channels.iter().map(|ctx| bot.standin.interact(fixtures::slash(ctx, "play", "doubutsu", json!([])))),
    )
    .await;
    // Two different moves on each board, from the player twice or from the player and Dad.
    let taps = channels.iter().zip(&starts).enumerate().flat_map(|(i, (ctx, start))| {
        let (menu, values) = move_menu(start);
        let board = bot.standin.message(start.message_id().unwrap()).unwrap();
        let second = if i % 2 == 0 { ctx.with_user(OTHER_USER_ID) } else { ctx.clone() };
        [
            fixtures::select_on(ctx, &menu, &[values[0].as_str()], &board),
            fixtures::select_on(&second, &menu, &[values[1].as_str()], &board),
        ]
    });
    // Each exchange is complete at its answer: for the tap that is taken, the new board (a
    // follow-up, after the old board's menu is taken off); for the other, the refusal.
    let answers = futures::future::join_all(taps.map(|tap| bot.standin.interact(tap))).await;
    let mut applied = 0;
    for (ctx, pair) in channels.iter().zip(answers.chunks(2)) {
        let refused: Vec<&Exchange> = pair.iter().filter(|x| x.is_ephemeral()).collect();
        assert_eq!(refused.len(), 1, "one of each pair is refused:\n{}\n{}", pair[0], pair[1]);
        let said = refused[0].content();
        assert!(said.contains("already played") || said.contains("out of date"), "{said}");
        assert!(refused[0].files().is_empty());
        let winner = pair.iter().position(|x| !x.is_ephemeral()).unwrap();
        // The stored game has exactly the move that was acknowledged, and the bot's one reply.
        let record = bot.game(ctx).await.unwrap();
        let moves = bot.store.moves(record.id).await.unwrap();
        assert_eq!((record.ply, moves.len()), (2, 2), "channel {}", ctx.channel_id);
        let acknowledged = pair[winner].content();
        assert!(acknowledged.contains(&moves[0].notation), "the answer names {}:\n{}", moves[0].notation, pair[winner]);
        applied += 1;
    }
    assert_eq!(applied, PAIRS);
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): a stored game that was tampered with (a
/// position its moves do not lead to) or that does not even read back is detected, reported in a
/// friendly way and closed, never played on; the channel is free for a new game.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_tampered_or_corrupt_stored_game_is_closed_not_trusted(pool: PgPool) {
    let bot = Bot::start(pool.clone()).await;
    let ctx = Ctx::en();
    bot.standin.interact(play_reversi(&ctx)).await;
    bot.standin.interact(play_move(&ctx, "f5")).await;
    let record = bot.game(&ctx).await.unwrap();
    // A legal-looking position that the stored moves do not lead to (one more black disc).
    let mut forged = record.game.encode().into_bytes();
    let at = forged.iter().position(|&b| b == b'-').expect("an empty square");
    forged[at] = b'X';
    let forged = String::from_utf8(forged).unwrap();
    assert!(Game::decode(GameKind::Reversi, &forged).is_ok(), "the forgery reads as a position");
    sqlx::query("UPDATE games SET position = $1 WHERE id = $2")
        .bind(&forged)
        .bind(record.id)
        .execute(&pool)
        .await
        .unwrap();
    let legal = Game::decode(GameKind::Reversi, &forged).unwrap().legal_moves();
    let refused = bot.standin.interact(play_move(&ctx, &legal[0].to_string())).await;
    assert_refused(&refused, "damaged");
    let (position, ply, status, moves) = bot.snapshot(&ctx).await;
    assert_eq!((position, ply, status, moves), (forged, 2, GameStatus::Void, 2), "nothing was played on it");
    // The channel is free again.
    let fresh = bot.standin.interact(play_reversi(&ctx)).await;
    assert!(!fresh.is_ephemeral(), "{fresh}");
    // A row that does not even read back is closed as well, at whatever the player does.
    let fresh = bot.game(&ctx).await.unwrap();
    sqlx::query("UPDATE games SET position = 'garbage' WHERE id = $1").bind(fresh.id).execute(&pool).await.unwrap();
    let ja = bot.standin.interact(fixtures::slash(&Ctx::ja(), "play", "board", json!([]))).await;
    assert_refused(&ja, "記録がこわれて");
    assert!(bot.game(&ctx).await.is_none());
    // Void games count in nobody's record.
    let stats = bot.standin.interact(fixtures::slash(&ctx, "play", "stats", json!([]))).await;
    assert!(stats.content().contains("reversi: 0 wins, 0 losses, 0 draws"), "{}", stats.content());
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): the database goes away mid-game (every
/// connection cut, new ones refused): players get a friendly "try again" within Discord's three
/// seconds and nothing changes; when it is back the same bot process carries on, its pool
/// reconnecting by itself.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_database_outage_gets_a_try_again_and_the_bot_recovers_without_a_restart(pool: PgPool) {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL is set for sqlx::test");
    let name = pool.connect_options().get_database().expect("the test database").to_string();
    let (server, _) = base.rsplit_once('/').unwrap();
    let authority = server.split_once("://").unwrap().1.rsplit('@').next().unwrap();
    let relay = support::outage::Relay::start(authority).await;
    let store = Store::connect(&relay.url_through(&format!("{server}/{name}"))).await.unwrap();
    let bot = Bot::launch_on(store, None, None).await;
    let ctx = Ctx::en();
    bot.standin.interact(play_reversi(&ctx)).await;
    let moved = bot.standin.interact(play_move(&ctx, "f5")).await;
    assert!(!moved.is_ephemeral(), "{moved}");
    let direct = Store::from_pool(pool);
    let before = direct.active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!(before.ply, 2);

    relay.cut();
    let next = before.game.legal_moves()[0].to_string();
    for payload in [
        play_move(&ctx, &next),
        fixtures::slash(&ctx, "play", "board", json!([])),
        play_reversi(&ctx.with_channel(fixtures::OTHER_CHANNEL_ID)),
    ] {
        let x = bot.standin.interact(payload).await;
        assert_refused(&x, "try again in a moment");
        let answered = x.calls.iter().find(|c| c.ok()).unwrap().after;
        assert!(answered < Duration::from_secs(3), "answered after {answered:?}");
    }
    let during = direct.active_game(ctx.channel_id).await.unwrap().unwrap();
    assert_eq!((during.ply, during.version), (before.ply, before.version), "nothing changed");
    assert!(direct.active_game(fixtures::OTHER_CHANNEL_ID).await.unwrap().is_none());

    relay.restore();
    let connections = relay.connections();
    let moved = bot.standin.interact(play_move(&ctx, &next)).await;
    assert!(!moved.is_ephemeral(), "the same process plays on: {moved}");
    assert!(relay.connections() > connections, "the pool reconnected");
    assert_eq!(direct.active_game(ctx.channel_id).await.unwrap().unwrap().ply, 4);
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): two bot processes, each running one of
/// two gateway shards, over one database: each server's interactions reach the process of its
/// shard, and games on both servers are played.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn two_processes_on_two_shards_share_the_servers(pool: PgPool) {
    let standin = StandIn::start().await;
    let mut managers = Vec::new();
    for range in ["0/2", "1/2"] {
        let connection = Connection {
            token: StandIn::TOKEN.into(),
            guild_id: None,
            api_base: Some(standin.base_url()),
            idle_sweep: Duration::from_secs(3600),
            shards: Some(range.parse().unwrap()),
        };
        // Each "process" has its own service and pool over the same database.
        let service = Service::new(Store::from_pool(pool.clone()));
        let client = discord::client(connection.clone(), service).await.unwrap();
        managers.push(client.shard_manager.clone());
        tokio::spawn(discord::start(client, connection.shards));
    }
    standin.wait_sessions(2, T).await;
    let identified: Vec<Value> = standin.identify_payloads().iter().map(|d| d["shard"].clone()).collect();
    assert!(identified.contains(&json!([0, 2])) && identified.contains(&json!([1, 2])), "{identified:?}");
    // One server on each shard (Discord's rule: (id >> 22) % 2).
    let on_shard_1 = Ctx::en();
    let on_shard_0 =
        Ctx { guild_id: fixtures::GUILD_ID + (1 << 22), ..Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID) };
    let store = Store::from_pool(pool);
    for (ctx, shard) in [(&on_shard_0, 0), (&on_shard_1, 1)] {
        let payload = play_reversi(ctx);
        let token = payload["token"].as_str().unwrap().to_string();
        let started = standin.interact(payload).await;
        assert!(!started.is_ephemeral() && started.file(".png").is_some(), "{started}");
        let (_, identified_as) = standin.dispatched_to(&token).unwrap();
        assert_eq!(identified_as, json!([shard, 2]), "the server's shard got it");
        let moved = standin.interact(play_move(ctx, "f5")).await;
        assert!(!moved.is_ephemeral(), "{moved}");
        let game = store.active_game(ctx.channel_id).await.unwrap().unwrap();
        assert_eq!((game.guild_id, game.ply), (Some(ctx.guild_id), 2));
    }
    for m in managers {
        m.shutdown_all().await;
    }
}

/// Robustness, Discord's 3-second rule (docs/design/bot-reliability.md#robustness): whatever a
/// request waits for, the interaction is acknowledged in time, and the answer comes when the wait
/// is over: a tapped move as a new board, a refused command as a private message (its public
/// "thinking…" withdrawn).
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_slow_request_is_acknowledged_in_time_and_answered_after(pool: PgPool) {
    let bot = Bot::start(pool.clone()).await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let (menu, values) = move_menu(&start);
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();

    // Another client holds the settings tables until both requests are acknowledged: every
    // request waits on them, so only the deadline can have acknowledged them.
    let mut blocker = pool.begin().await.unwrap();
    sqlx::query("LOCK TABLE guild_settings, channel_settings IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *blocker)
        .await
        .unwrap();
    let tap = fixtures::select_on(&ctx, &menu, &[values[0].as_str()], &board);
    let command = play_move(&ctx.with_channel(fixtures::OTHER_CHANNEL_ID), "f5");
    let tokens = [fixtures::token(&tap), fixtures::token(&command)];
    let since = bot.standin.cursor();
    let release = async {
        for token in &tokens {
            let acknowledged = |c: &support::Reply| {
                c.token.as_deref() == Some(token.as_str()) && matches!(c.kind, ReplyKind::Callback { .. })
            };
            bot.standin.wait_call(since, T, acknowledged).await;
        }
        // Every call from here on was made after the lock was given up.
        let released = bot.standin.cursor();
        blocker.rollback().await.unwrap();
        released
    };
    let (tap, refused, released) = tokio::join!(bot.standin.interact(tap), bot.standin.interact(command), release);
    for (x, deferral) in [(&tap, 6), (&refused, 5)] {
        let first = x.calls.iter().find(|c| c.ok()).unwrap_or_else(|| panic!("no answer:\n{x}"));
        assert_eq!(first.kind, ReplyKind::Callback { type_: deferral }, "acknowledged first:\n{x}");
        assert!(first.after < Duration::from_millis(2500), "acknowledged after {:?}:\n{x}", first.after);
        assert!(x.calls[1..].iter().all(|c| c.seq >= released), "the answer waited for the lock:\n{x}");
    }
    assert!(tap.content().contains(&format!("You played **{}**", values[0])), "{tap}");
    board_image(&tap);
    assert!(refused.calls.iter().any(|c| c.kind == ReplyKind::DeleteOriginal), "{refused}");
    assert_refused(&refused, "no game in this channel");
    let record = bot.game(&ctx).await.unwrap();
    assert_eq!(record.ply, 2, "one move and its reply, nothing else");
    bot.stop().await;
}

/// Robustness (docs/design/bot-reliability.md#robustness): a reply that failed after the player's
/// move was stored (the database blinked) is paid by the running process, not left until a restart;
/// games whose reply is still being worked on are left alone.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reply_left_owed_while_running_is_paid_without_a_restart(pool: PgPool) {
    // A connecting bot pays every reply owed at that moment, however young; a game owed from
    // before it started marks the end of that first pass, after which this test's games are made.
    let earlier = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 2);
    let reversi = || Game::new(GameKind::Reversi);
    game_in(
        &Store::from_pool(pool.clone()),
        &earlier,
        Side::Second,
        Level::Reversi(reversi::Level::Standard),
        reversi(),
    )
    .await;
    let bot = Bot::start(pool.clone()).await;
    let paid_earlier = |c: &support::Reply| c.kind == ReplyKind::ChannelMessage { channel_id: earlier.channel_id };
    bot.standin.wait_call(0, T, paid_earlier).await;
    let (owed, fresh, later) = (
        Ctx::en(),
        Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID),
        Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 1),
    );
    let mut ids = Vec::new();
    for ctx in [&owed, &fresh, &later] {
        // The player took white: the bot is to move.
        let record = bot.game_of(ctx, Side::Second, Level::Reversi(reversi::Level::Standard), reversi()).await;
        ids.push(record.id);
    }
    let backdate = |id: i64| {
        sqlx::query("UPDATE games SET updated_at = now() - interval '3 minutes' WHERE id = $1").bind(id).execute(&pool)
    };
    let since = bot.standin.cursor();
    backdate(ids[0]).await.unwrap();
    let posted = bot.standin.wait_new_message(since, T).await;
    assert_eq!(posted.kind, ReplyKind::ChannelMessage { channel_id: owed.channel_id }, "{posted:?}");
    assert!(posted.content().is_some_and(|c| c.contains("I play **")), "{posted:?}");
    assert!(!posted.files.is_empty(), "the board is posted");
    assert_eq!(bot.store.game(ids[0]).await.unwrap().unwrap().ply, 1);
    // A game whose reply may still be on its way is not the sweep's to answer: a later sweep
    // (the one that pays a game owed only from now on) goes through the games in order and
    // passes the fresh one by.
    let since = bot.standin.cursor();
    backdate(ids[2]).await.unwrap();
    let paid_later = |c: &support::Reply| c.kind == ReplyKind::ChannelMessage { channel_id: later.channel_id };
    bot.standin.wait_call(since, T, paid_later).await;
    assert_eq!(bot.store.game(ids[1]).await.unwrap().unwrap().ply, 0);
    assert!(bot
        .standin
        .all_calls()
        .iter()
        .all(|c| c.kind != ReplyKind::ChannelMessage { channel_id: fresh.channel_id }));
    bot.stop().await;
}

/// Moves the last change of each channel's active game the given hours into the past, in one
/// statement (a sweep sees all of them or none); the sweeps read the database's clock.
async fn waited(bot: &Bot, waits: &[(&Ctx, f64)]) {
    let channels: Vec<i64> = waits.iter().map(|(c, _)| c.channel_id as i64).collect();
    let secs: Vec<f64> = waits.iter().map(|(_, h)| h * 3600.0).collect();
    sqlx::query(
        "UPDATE games g SET updated_at = now() - make_interval(secs => w.secs)
         FROM unnest($1::BIGINT[], $2::FLOAT8[]) AS w(channel_id, secs)
         WHERE g.channel_id = w.channel_id AND g.status = 'active'",
    )
    .bind(channels)
    .bind(secs)
    .execute(bot.store.pool())
    .await
    .unwrap();
}

/// Waits until the channel's game remembers `message_id` as its board: the bot records it as
/// soon as Discord has told it the id, which is just after the board was shown.
async fn board_remembered(bot: &Bot, ctx: &Ctx, message_id: u64) {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let stored = bot.game(ctx).await.and_then(|g| g.board_message_id);
        if stored == Some(message_id) {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "the board {message_id} was not remembered: {stored:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A message the bot posted in `ctx`'s channel containing `needle`.
fn posted_in(ctx: &Ctx, needle: &'static str) -> impl Fn(&support::Reply) -> bool {
    let channel = ctx.channel_id;
    move |c| {
        c.ok()
            && c.kind == ReplyKind::ChannelMessage { channel_id: channel }
            && c.content().is_some_and(|t| t.contains(needle))
    }
}

const REMINDER: &str = "is waiting for your move";
const FINAL_NOTICE: &str = "will be closed tomorrow";

/// Families and children (docs/design/bot-reliability.md#families-and-children): a player whose
/// move a game has waited for gets one reminder after the server's time (24 hours unless set),
/// linking to the board and pinging only them; none where the server or the player said no; a final
/// notice the day before the game is closed; a move starts a new wait.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_waiting_player_is_reminded_once_and_warned_before_the_close(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let channel = |n: u64| Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 10 + n);
    let (mine, quiet_here, witness) = (Ctx::en(), channel(1), channel(2));
    let other = Ctx::en().with_user(OTHER_USER_ID).with_channel(fixtures::OTHER_CHANNEL_ID);
    // A manager turns reminders off in one channel; the other player turns their own off.
    let off = json!([{ "name": "hours", "type": 4, "value": 0 }, { "name": "here", "type": 5, "value": true }]);
    let set = bot.standin.interact(settings(&quiet_here, "reminders", off, true)).await;
    assert!(set.is_ephemeral() && set.content().contains("Reminders are **off**"), "{set}");
    let show = bot.standin.interact(settings(&quiet_here, "show", json!([]), true)).await;
    assert!(show.content().contains("Reminders of waiting games: **off** *(this channel)*"), "{}", show.content());
    let remind_off = fixtures::slash(&other, "play", "remind", json!([{ "name": "on", "type": 5, "value": false }]));
    let said = bot.standin.interact(remind_off).await;
    assert!(said.is_ephemeral() && said.content().contains("Reminders are **off**"), "{said}");
    let mut boards = std::collections::HashMap::new();
    for ctx in [&mine, &quiet_here, &witness, &other] {
        let start = bot.standin.interact(play_reversi(ctx)).await;
        let id = start.message_id().unwrap();
        board_remembered(&bot, ctx, id).await;
        boards.insert(ctx.channel_id, id);
    }

    // 23 hours is not yet 24; the witness's reminder shows that a sweep looked at every game.
    let since = bot.standin.cursor();
    waited(&bot, &[(&mine, 23.0), (&quiet_here, 25.0), (&other, 25.0), (&witness, 25.0)]).await;
    let reminder = bot.standin.wait_call(since, T, posted_in(&witness, REMINDER)).await;
    let link = format!(
        "https://discord.com/channels/{}/{}/{}",
        witness.guild_id, witness.channel_id, boards[&witness.channel_id]
    );
    let text = reminder.content().unwrap();
    assert!(text.contains(&format!("<@{USER_ID}>")) && text.contains(&link), "{reminder}");
    assert_eq!(reminder.json.pointer("/allowed_mentions/users"), Some(&json!([USER_ID.to_string()])), "{reminder}");
    assert!(reminder.files.is_empty(), "the board is there: a link is enough");
    let reminders =
        |ctx: &Ctx, needle: &'static str| bot.standin.all_calls().iter().filter(|c| posted_in(ctx, needle)(c)).count();
    for ctx in [&mine, &quiet_here, &other] {
        assert_eq!(reminders(ctx, REMINDER), 0, "channel {}", ctx.channel_id);
    }

    // Past 24 hours the player is reminded, once: the witness's final notice (a day before its
    // 14 days are up) comes from a later sweep.
    let since = bot.standin.cursor();
    waited(&bot, &[(&mine, 25.0)]).await;
    bot.standin.wait_call(since, T, posted_in(&mine, REMINDER)).await;
    let since = bot.standin.cursor();
    waited(&bot, &[(&witness, 13.5 * 24.0)]).await;
    let final_notice = bot.standin.wait_call(since, T, posted_in(&witness, FINAL_NOTICE)).await;
    assert!(final_notice.content().unwrap().contains(&link), "{final_notice}");
    assert_eq!(reminders(&mine, REMINDER), 1);
    assert_eq!(reminders(&witness, REMINDER), 1, "the final notice comes once, without a second reminder");
    for ctx in [&quiet_here, &other] {
        assert_eq!(reminders(ctx, REMINDER) + reminders(ctx, FINAL_NOTICE), 0, "channel {}", ctx.channel_id);
    }
    // Then the close, after the final notice.
    let since = bot.standin.cursor();
    waited(&bot, &[(&witness, 14.5 * 24.0)]).await;
    let closed = bot.standin.wait_call(since, T, posted_in(&witness, "waited 14 days")).await;
    assert!(final_notice.seq < closed.seq);
    assert_eq!(reminders(&witness, FINAL_NOTICE), 1);

    // A move starts a new wait, with a reminder of its own.
    let record = bot.game(&mine).await.unwrap();
    let mv = record.game.legal_moves()[0].to_string();
    bot.standin.interact(play_move(&mine, &mv)).await;
    let since = bot.standin.cursor();
    waited(&bot, &[(&mine, 25.0)]).await;
    let again = bot.standin.wait_call(since, T, posted_in(&mine, REMINDER)).await;
    assert_eq!(reminders(&mine, REMINDER), 2, "{again}");
    // The player who said no changes their mind.
    let remind_on = fixtures::slash(&other, "play", "remind", json!([{ "name": "on", "type": 5, "value": true }]));
    assert!(bot.standin.interact(remind_on).await.content().contains("Reminders are **on**"));
    bot.standin.wait_call(since, T, posted_in(&other, REMINDER)).await;
    assert_eq!(reminders(&quiet_here, REMINDER), 0);
    bot.stop().await;
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): the idle sweep
/// never sends a reminder twice for one wait, whatever process looks: what was sent is in the
/// database.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reminder_is_recorded_before_it_is_sent(pool: PgPool) {
    let store = Store::from_pool(pool);
    let ctx = Ctx::en();
    let record =
        game_in(&store, &ctx, Side::First, Level::Reversi(reversi::Level::Standard), Game::new(GameKind::Reversi))
            .await;
    sqlx::query("UPDATE games SET updated_at = now() - interval '25 hours'").execute(store.pool()).await.unwrap();
    let owed = store.games_owed_nudges().await.unwrap();
    assert_eq!(owed.iter().map(|(r, n)| (r.id, *n)).collect::<Vec<_>>(), [(record.id, Nudge::Reminder)]);
    let read = &owed[0].0;
    assert!(store.claim_nudge(read, Nudge::Reminder).await.unwrap());
    // A second sweep (this process after a restart, or another one) finds nothing owed, and
    // could not claim it anyway.
    assert!(store.games_owed_nudges().await.unwrap().is_empty());
    assert!(!store.claim_nudge(read, Nudge::Reminder).await.unwrap());
    // The final notice is owed once too, and says nothing more is owed.
    sqlx::query("UPDATE games SET updated_at = now() - interval '13 days 1 hour'").execute(store.pool()).await.unwrap();
    let owed = store.games_owed_nudges().await.unwrap();
    assert_eq!(
        owed.iter().map(|(r, n)| (r.id, *n)).collect::<Vec<_>>(),
        [(record.id, Nudge::FinalNotice { days: 14 })]
    );
    assert!(store.claim_nudge(&owed[0].0, Nudge::FinalNotice { days: 14 }).await.unwrap());
    assert!(store.games_owed_nudges().await.unwrap().is_empty());
    // A player who does not want reminders is owed none.
    store.set_reminders_wanted(USER_ID, false).await.unwrap();
    assert!(!store.reminders_wanted(USER_ID).await.unwrap());
    let fresh = game_in(
        &store,
        &ctx.with_channel(fixtures::OTHER_CHANNEL_ID),
        Side::First,
        Level::Reversi(reversi::Level::Standard),
        Game::new(GameKind::Reversi),
    )
    .await;
    sqlx::query("UPDATE games SET updated_at = now() - interval '25 hours' WHERE id = $1")
        .bind(fresh.id)
        .execute(store.pool())
        .await
        .unwrap();
    assert!(store.games_owed_nudges().await.unwrap().is_empty());
}

/// The move menu of a stored message: (custom_id, move values).
fn menu_of(message: &Value) -> (String, Vec<String>) {
    let menu = &message["components"][0]["components"][0];
    let id = menu["custom_id"].as_str().unwrap_or_else(|| panic!("no menu: {message}")).to_string();
    let values = menu["options"].as_array().unwrap().iter().map(|o| o["value"].as_str().unwrap().to_string()).collect();
    (id, values)
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): a board someone
/// deleted comes back with nothing of the game lost: `/play board` posts a fresh one, which becomes
/// the game's board (the board it replaces loses its menu), and a reminder whose board is gone
/// brings a fresh board along.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_deleted_board_is_recovered_by_play_board_and_by_a_reminder(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let board = || fixtures::slash(&ctx, "play", "board", json!([]));
    let stripped = |id: u64| {
        move |c: &support::Reply| c.kind == ReplyKind::EditChannelMessage { channel_id: ctx.channel_id, message_id: id }
    };
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let first = start.message_id().unwrap();
    board_remembered(&bot, &ctx, first).await;
    bot.standin.delete_message(first);

    let since = bot.standin.cursor();
    let again = bot.standin.interact(board()).await;
    board_image(&again);
    let second = again.message_id().unwrap();
    assert_ne!(second, first);
    // Letting go of the deleted board's menu fails, and changes nothing.
    let gone = bot.standin.wait_call(since, T, stripped(first)).await;
    assert_eq!(gone.status, 404, "{gone}");
    assert_eq!(bot.game(&ctx).await.unwrap().board_message_id, Some(second));
    assert_eq!(bot.snapshot(&ctx).await.1, 0);

    // Another /play board: the live board is the newest, the one before loses its menu.
    let since = bot.standin.cursor();
    let third = bot.standin.interact(board()).await.message_id().unwrap();
    assert!(bot.standin.wait_call(since, T, stripped(second)).await.ok());
    let old = bot.standin.message(second).unwrap();
    assert!(old["components"].as_array().is_none_or(|c| c.is_empty()), "{old}");
    assert_eq!(bot.game(&ctx).await.unwrap().board_message_id, Some(third));

    // The newest board is deleted too; a day later the reminder brings a fresh board.
    bot.standin.delete_message(third);
    let since = bot.standin.cursor();
    waited(&bot, &[(&ctx, 25.0)]).await;
    let reminder = bot.standin.wait_call(since, T, posted_in(&ctx, REMINDER)).await;
    assert!(!reminder.files.is_empty(), "{reminder}");
    assert!(!reminder.content().unwrap().contains("https://discord.com/channels"), "no link to a deleted board");
    assert_eq!(reminder.json.pointer("/allowed_mentions/users"), Some(&json!([USER_ID.to_string()])), "{reminder}");
    let fresh = reminder.message_id.unwrap();
    board_remembered(&bot, &ctx, fresh).await;
    // It plays on: nothing of the game was lost.
    let message = bot.standin.message(fresh).unwrap();
    let (menu, values) = menu_of(&message);
    let tap = bot.standin.interact(fixtures::select_on(&ctx, &menu, &[&values[0]], &message)).await;
    assert!(!tap.is_ephemeral() && tap.content().contains("You played"), "{tap}");
    assert_eq!(bot.game(&ctx).await.unwrap().ply, 2);
    // Discord refused only the edits of the deleted boards.
    bot.shards.shutdown_all().await;
    let refused: Vec<_> = bot.standin.all_calls().into_iter().filter(|c| !c.ok()).collect();
    assert!(refused.iter().all(|c| [stripped(first), stripped(third)].iter().any(|s| s(c))), "{refused:?}");
    assert_eq!(refused.len(), 2, "{refused:?}");
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): `/play help` tells
/// privately, in the player's language, the rules of both games and how to tap, with the picture of
/// how the animals move; what the levels mean only when the commentary is on; and it leaves a game
/// in the channel as it was.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn play_help_tells_the_rules_privately_and_the_levels_only_with_the_commentary_on(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let help = |ctx: &Ctx| fixtures::slash(ctx, "play", "help", json!([]));
    let (en, ja) = (Ctx::en(), Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID));
    // In the middle of a game: the help changes nothing of it.
    let started = bot.standin.interact(play_reversi(&en)).await;
    let before = bot.snapshot(&en).await;

    let told = bot.standin.interact(help(&en)).await;
    assert!(told.is_ephemeral() && told.answered(), "{told}");
    for words in ["**Reversi**", "**Doubutsu shogi**", "a hen", "*try*", "`d3 (flips 2)`", "B3 → B2", "Drop 🐘 on B2"]
    {
        assert!(told.content().contains(words), "no {words:?} in {}", told.content());
    }
    assert!(told.content().chars().count() < 2000, "Discord's limit");
    assert_no_hidden_word("/play help", &told.content());
    let picture = image::load_from_memory(told.file("animals.png").unwrap_or_else(|| panic!("no picture:\n{told}")))
        .expect("a valid PNG")
        .to_rgb8();
    assert_eq!(picture, settai::render::help::animals_image(settai::i18n::Lang::En));
    assert_eq!(bot.snapshot(&en).await, before, "the game is as it was");
    assert_eq!(move_menu(&started).1.len(), 4);

    let japanese = bot.standin.interact(help(&ja)).await;
    assert!(japanese.is_ephemeral(), "{japanese}");
    for words in ["**リバーシ**", "**どうぶつしょうぎ**", "ニワトリ", "トライ", "🐘をB2に打つ", "投了"]
    {
        assert!(japanese.content().contains(words), "no {words:?} in {}", japanese.content());
    }
    assert_no_hidden_word("/play help (ja)", &japanese.content());
    let picture_ja = image::load_from_memory(japanese.file("animals.png").expect("a picture")).unwrap().to_rgb8();
    assert_ne!(picture_ja, picture, "the picture's words follow the language");

    // With the commentary on, the levels are named and explained, in each language.
    bot.standin.interact(settings(&en, "commentary", on(true), true)).await;
    let levels = bot.standin.interact(help(&en)).await.content();
    for words in
        ["**Levels**", "**standard**", "**no mercy**", "**settai (hospitable)**", "**weakest**", "`/settings level`"]
    {
        assert!(levels.contains(words), "no {words:?} in {levels}");
    }
    let levels_ja = bot.standin.interact(help(&ja)).await.content();
    for words in ["**レベル**", "**標準**", "**忖度無し**", "**接待**", "**雑魚**"] {
        assert!(levels_ja.contains(words), "no {words:?} in {levels_ja}");
    }
    assert!(levels.chars().count() < 2000 && levels_ja.chars().count() < 2000, "Discord's limit");
    bot.stop().await;
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): English boards
/// speak to the child ("Your move", "You" and "Computer" over the hands) where they said
/// "Sente"/"Gote"; Japanese boards keep 先手/後手, pixel for pixel.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn english_boards_say_you_and_computer_and_japanese_boards_keep_the_seats(pool: PgPool) {
    use settai::i18n::{Lang, Msg};
    use settai::render::{game_image, Names};
    let bot = Bot::start(pool).await;
    bot.standin.interact(settings(&Ctx::en(), "level", level_options("doubutsu", "weakest"), true)).await;
    let ja = Ctx::ja().with_channel(fixtures::OTHER_CHANNEL_ID).with_nick("Mika");
    for (ctx, lang) in [(Ctx::en().with_nick("Mika"), Lang::En), (ja, Lang::Ja)] {
        let started = bot.standin.interact(fixtures::slash(&ctx, "play", "doubutsu", json!([]))).await;
        let shown = board_image(&started).to_rgb8();
        let game = bot.game(&ctx).await.expect("a game").game;
        let names = Names::new("Mika", Msg::Computer.text(lang));
        let spoken = game_image(&game, None, lang, None, &names.clone().with_human(Side::First));
        assert_eq!(shown, spoken, "{lang:?}: the board is drawn for the player's seat");
        let outside = game_image(&game, None, lang, None, &names);
        assert_eq!(shown == outside, lang == Lang::Ja, "{lang:?}: only English boards change their words");
    }
    bot.stop().await;
}

/// Families and children (docs/design/bot-reliability.md#families-and-children): take-backs
/// (待った). Off by default (refused, nothing changes, no button); where a manager allows them, the
/// button under the board undoes the player's last move and the bot's reply, two presses at once
/// undo once, only the player whose game it is may, and there must be a move to take back;
/// `/play takeback` does the same, and `/play stats` counts every take-back.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_take_back_undoes_the_players_move_and_the_reply_once_and_only_where_allowed(pool: PgPool) {
    let bot = Bot::start(pool).await;
    let ctx = Ctx::en();
    let takeback = |ctx: &Ctx| fixtures::slash(ctx, "play", "takeback", json!([]));
    let button = |x: &Exchange| x.custom_ids().into_iter().find(|id| id.starts_with("tb:"));
    bot.standin.interact(play_reversi(&ctx)).await;
    let moved = bot.standin.interact(play_move(&ctx, "f5")).await;
    assert_eq!(button(&moved), None, "no button while take-backs are off:\n{moved}");
    let after_move = bot.snapshot(&ctx).await;
    assert_eq!((after_move.1, after_move.3), (2, 2));
    let off = bot.standin.interact(takeback(&ctx)).await;
    assert_refused(&off, "not allowed");
    assert_eq!(bot.snapshot(&ctx).await, after_move, "nothing changed");

    // Allowed for the server: a fresh board has the button.
    let allowed = bot.standin.interact(settings(&ctx, "takeback", on(true), true)).await;
    assert!(allowed.content().contains("take back"), "{}", allowed.content());
    let shown = bot.standin.interact(settings(&ctx, "show", json!([]), true)).await;
    assert!(shown.content().contains("Take-backs (待った): **on**"), "{}", shown.content());
    let board_x = bot.standin.interact(fixtures::slash(&ctx, "play", "board", json!([]))).await;
    let id = button(&board_x).unwrap_or_else(|| panic!("a Take back button:\n{board_x}"));
    let board = bot.standin.message(board_x.message_id().unwrap()).unwrap();

    // Not the player's game: refused, nothing changes.
    let other = bot.standin.interact(fixtures::button_on(&ctx.with_user(OTHER_USER_ID), &id, &board)).await;
    assert_refused(&other, &format!("<@{USER_ID}>"));
    assert_eq!(bot.snapshot(&ctx).await, after_move);

    // Two presses at once: one takes back (the player's f5 and the reply), the other is stale.
    // Done: refused privately, or the new board posted and the old one's buttons taken off.
    let done =
        |x: &Exchange| x.answered() && (x.is_ephemeral() || x.calls.iter().any(|c| c.kind == ReplyKind::EditOriginal));
    let (a, b) = tokio::join!(
        bot.standin.interact_until(fixtures::button_on(&ctx, &id, &board), done),
        bot.standin.interact_until(fixtures::button_on(&ctx, &id, &board), done),
    );
    let (applied, refused) = if a.is_ephemeral() { (b, a) } else { (a, b) };
    assert!(applied.contents().join("\n").contains("Move taken back"), "{applied}");
    assert_refused(&refused, "out of date");
    let start = Game::new(GameKind::Reversi).encode();
    let back = bot.snapshot(&ctx).await;
    assert_eq!((back.0.as_str(), back.1, back.3), (start.as_str(), 0, 0), "back at the start, once");
    let (_, values) = move_menu(&applied);
    assert_eq!(values.len(), 4, "the start's moves are offered again");
    assert_eq!(button(&applied), None, "nothing left to take back, so no button");

    // Nothing to take back: refused, nothing changes.
    let nothing = bot.standin.interact(takeback(&ctx)).await;
    assert_refused(&nothing, "no move to take back");
    assert_eq!(bot.snapshot(&ctx).await.1, 0);

    // By command, in Japanese: two moves, one taken back.
    let ja = Ctx::ja();
    bot.standin.interact(play_move(&ja, "d3")).await;
    let (_, values) = move_menu(&bot.standin.interact(fixtures::slash(&ja, "play", "board", json!([]))).await);
    bot.standin.interact(play_move(&ja, &values[0])).await;
    let four = bot.snapshot(&ctx).await;
    assert_eq!(four.1, 4);
    let undone = bot.standin.interact(takeback(&ja)).await;
    assert!(!undone.is_ephemeral() && undone.content().contains("待った"), "{undone}");
    board_image(&undone);
    let two = bot.snapshot(&ctx).await;
    assert_eq!((two.1, two.3), (2, 2));
    let moves = bot.store.moves(bot.game(&ctx).await.unwrap().id).await.unwrap();
    assert_eq!(moves[0].notation, "d3", "the first move stays");

    // The stats count both take-backs.
    let stats = bot.standin.interact(fixtures::slash(&ctx, "play", "stats", json!([]))).await;
    assert!(stats.content().contains("reversi: 0 wins, 0 losses, 0 draws (2 take-backs)"), "{}", stats.content());
    let stats_ja = bot.standin.interact(fixtures::slash(&ja, "play", "stats", json!([]))).await;
    assert!(stats_ja.content().contains("（待った2回）"), "{}", stats_ja.content());
    // Turned off again, the button's board is refused too.
    bot.standin.interact(settings(&ctx, "takeback", on(false), true)).await;
    let late = bot.standin.interact(takeback(&ctx)).await;
    assert_refused(&late, "not allowed");
    assert_eq!(bot.snapshot(&ctx).await.1, 2);
    bot.stop().await;
}
