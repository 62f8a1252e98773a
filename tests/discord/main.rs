//! End-to-end: the real bot (serenity client, service, store, renderer) against a local stand-in
//! of Discord's gateway and REST API, and a real Postgres database per test.
//!
//! One test binary (`cargo test --test discord`), a module per feature; this file holds the test
//! bot ([`Bot`], started with [`Bot::builder`]) and the helpers the modules share.
//!
//! (Past 500 lines: the test bot and every helper two modules share, kept in one place to be
//! found.)

#[path = "../support/mod.rs"]
mod support;

mod best_effort;
mod board_pictures;
mod child;
mod coach;
mod commands;
mod commentary;
mod doubutsu_shogi;
mod family;
mod limits;
mod observability;
mod one_board;
mod outages;
mod players_data;
mod playing;
mod private_channels;
mod rate_limits;
mod refusals;
mod robustness;
mod round_trips;
mod said;
mod screenshots;
mod settings;
mod stand_in;
mod stand_in_emojis;
mod stand_in_rate_limits;
mod tiles;
mod touch;
mod touch_reversi;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use serenity::gateway::ShardManager;
use settai::discord::{self, Connection};
use settai::domain::{GameRecord, GameStatus, NewGame, Place};
use settai::metrics::Metrics;
use settai::service::table_keeper::TableKeeper;
use settai::service::Service;
use settai::store::Store;
use settai::table_file::TableFile;
use settai_core::doubutsu::{self, table::BuildOptions, table::Material};
use settai_core::{DoubutsuGame, Game, Level, Side};
use sqlx::PgPool;
use support::discord::{Calls, FaultKind, RateLimits};
use support::fixtures::{self, buttons_of, touch_id, touch_taps, Ctx};
use support::{Exchange, StandIn};

const T: Duration = Duration::from_secs(30);

/// A bot connected to a fresh stand-in, over the test's database.
struct Bot {
    standin: StandIn,
    shards: Arc<ShardManager>,
    store: Store,
}

impl Bot {
    /// A bot over `pool`'s database: add what differs from the default (commands registered
    /// globally, no doubutsu table), then `.start().await`.
    fn builder(pool: PgPool) -> BotBuilder {
        BotBuilder {
            store: Store::from_pool(pool),
            guild_id: None,
            keeper: None,
            metrics: None,
            heartbeat: None,
            channels: Vec::new(),
            rate_limits: None,
            faults: Vec::new(),
            tiles_uploaded: false,
        }
    }

    /// A doubutsu game of `ctx`'s user (sente) set up at `start`, as if started there.
    async fn doubutsu_game_at(&self, ctx: &Ctx, start: doubutsu::Position, level: Level) -> GameRecord {
        let game = Game::Doubutsu(DoubutsuGame::new(doubutsu::History::from_position(start)));
        self.game_of(ctx, Side::First, level, game).await
    }

    /// A game of `ctx`'s user on `side`, stored as if started in `ctx`'s channel.
    async fn game_of(&self, ctx: &Ctx, human_side: Side, level: Level, game: Game) -> GameRecord {
        if ctx.guild_id != 0 {
            self.standin.add_channel(ctx);
        }
        game_in(&self.store, ctx, human_side, level, game).await
    }

    /// Stops the bot; fails the test if the stand-in refused any call of the bot's, including
    /// calls made after the answers the test waited for.
    async fn stop(self) {
        self.stop_expecting(|_| false).await;
    }

    /// [`Self::stop`], where the calls for which `expected` holds are refusals the test
    /// brought about on purpose.
    async fn stop_expecting(self, expected: impl Fn(&support::Reply) -> bool) {
        self.shards.shutdown_all().await;
        self.standin.assert_refused_only(expected);
    }

    /// The bot after a restart: this process stops (its gateway session closes) and a new
    /// one, with a service of its own over the same database, connects to the same stand-in.
    async fn restart(self) -> Bot {
        self.restart_to(None).await
    }

    /// [`Self::restart`] with the commands registered to `guild_id` (globally without one), as
    /// after `DISCORD_GUILD_ID` was set, changed or cleared.
    async fn restart_to(self, guild_id: Option<u64>) -> Bot {
        let Bot { standin, shards, store } = self;
        shards.shutdown_all().await;
        Bot::on_to(standin, store, guild_id).await
    }

    /// A bot over `store` connecting to `standin` as another process left it (its emojis, its
    /// commands, its channels); waits until it has registered (its emojis, then its commands).
    async fn on(standin: StandIn, store: Store) -> Bot {
        Bot::on_to(standin, store, None).await
    }

    /// [`Self::on`], registering the commands to `guild_id` (globally without one).
    async fn on_to(standin: StandIn, store: Store, guild_id: Option<u64>) -> Bot {
        let (sessions, registered) = (standin.sessions(), standin.command_registrations());
        let connection = connection_to(&standin, guild_id);
        let mut client = discord::client(connection, Service::new(store.clone())).await.unwrap();
        let shards = client.shard_manager.clone();
        tokio::spawn(async move { client.start().await });
        standin.wait_sessions(sessions + 1, T).await;
        standin.wait_command_registrations(registered + 1, T).await;
        Bot { standin, shards, store }
    }

    async fn game(&self, ctx: &Ctx) -> Option<GameRecord> {
        self.store.active_game(ctx.channel_id).await.unwrap()
    }

    /// The stored state of the channel's newest game: (position, ply, status, number of moves),
    /// as its row holds them (read as they are: a game closed as corrupt does not read back).
    async fn snapshot(&self, ctx: &Ctx) -> (String, u32, GameStatus, usize) {
        let (id, position, ply, status): (i64, String, i32, String) = sqlx::query_as(
            "SELECT id, position_and_start, ply, status FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
        )
        .bind(ctx.channel_id as i64)
        .fetch_one(self.store.pool())
        .await
        .unwrap();
        let status = match status.as_str() {
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            "resigned" => GameStatus::Resigned,
            "expired" => GameStatus::Expired,
            "void" => GameStatus::Void,
            other => panic!("status {other:?}"),
        };
        (position, ply as u32, status, self.store.moves(id).await.unwrap().len())
    }
}

/// How a [`Bot`] starts: `Bot::builder(pool)`, what differs from the default, `.start().await`.
struct BotBuilder {
    store: Store,
    guild_id: Option<u64>,
    keeper: Option<Arc<TableKeeper>>,
    metrics: Option<Arc<Metrics>>,
    heartbeat: Option<Duration>,
    /// Server channels the stand-in knows before the bot connects.
    channels: Vec<Ctx>,
    rate_limits: Option<RateLimits>,
    /// Faults the stand-in injects from the start (`StandIn::inject_fault`).
    faults: Vec<(&'static str, String, FaultKind, Calls)>,
    /// The tiles are the application's emojis before the bot connects.
    tiles_uploaded: bool,
}

impl BotBuilder {
    /// A stand-in where the board's tiles are already the application's emojis, as an earlier
    /// start left them (the bot then only lists them).
    fn tiles_uploaded(mut self) -> BotBuilder {
        self.tiles_uploaded = true;
        self
    }

    /// A stand-in that answers every `method` call to a path ending with `path_suffix` with
    /// `status` from the start, until healed (`StandIn::heal_calls`).
    fn failing(self, method: &'static str, path_suffix: &'static str, status: u16) -> BotBuilder {
        self.fault(method, path_suffix, FaultKind::Status { status, retry_after: None }, Calls::Every)
    }

    /// A stand-in that injects `kind` into the `calls` of `method` to a path ending with
    /// `path_suffix` from the start (`StandIn::inject_fault`).
    fn fault(mut self, method: &'static str, path_suffix: &str, kind: FaultKind, calls: Calls) -> BotBuilder {
        self.faults.push((method, path_suffix.to_string(), kind, calls));
        self
    }

    /// Makes `ctx`'s channel known to the stand-in before the bot connects (a game stored
    /// there before the bot started, which it answers at once).
    fn channel(mut self, ctx: &Ctx) -> BotBuilder {
        self.channels.push(ctx.clone());
        self
    }

    /// Registers the commands to `guild_id` (development mode) instead of globally.
    fn guild(mut self, guild_id: u64) -> BotBuilder {
        self.guild_id = Some(guild_id);
        self
    }

    /// A bot that has a doubutsu table.
    fn table(mut self, table: Arc<TableFile>) -> BotBuilder {
        self.keeper = Some(TableKeeper::with(Some(table)));
        self
    }

    /// A bot reading its doubutsu table from `keeper`, as `serve` does.
    fn keeper(mut self, keeper: Arc<TableKeeper>) -> BotBuilder {
        self.keeper = Some(keeper);
        self
    }

    /// A bot reaching the database through `store` (e.g. one connected through a relay).
    fn store(mut self, store: Store) -> BotBuilder {
        self.store = store;
        self
    }

    /// A bot counting in `metrics` (as `serve` does with `SETTAI_METRICS_ADDR`).
    fn metrics(mut self, metrics: Arc<Metrics>) -> BotBuilder {
        self.metrics = Some(metrics);
        self
    }

    /// A stand-in asking for a heartbeat every `interval` (Discord asks every 41 s), so that the
    /// gateway's latency is known soon.
    fn heartbeat(mut self, interval: Duration) -> BotBuilder {
        self.heartbeat = Some(interval);
        self
    }

    /// A stand-in rate-limiting with `limits` (by default [`RateLimits::roomy`]).
    fn rate_limits(mut self, limits: RateLimits) -> BotBuilder {
        self.rate_limits = Some(limits);
        self
    }

    /// Connects the bot to a fresh stand-in; waits until it is ready and has registered its
    /// commands (after its emojis: registration at start is one step).
    async fn start(self) -> Bot {
        let BotBuilder { store, guild_id, keeper, metrics, heartbeat, channels, rate_limits, faults, tiles_uploaded } =
            self;
        let keeper = keeper.unwrap_or_else(|| TableKeeper::with(None));
        let standin = StandIn::start_with(rate_limits.unwrap_or_else(RateLimits::roomy)).await;
        for ctx in &channels {
            standin.add_channel(ctx);
        }
        for (method, path_suffix, kind, calls) in faults {
            standin.inject_fault(method, &path_suffix, kind, calls);
        }
        if tiles_uploaded {
            for tile in settai::render::doubutsu::TileEmoji::all() {
                standin.add_application_emoji(&discord::tile_name(tile), &tile.png().unwrap());
            }
        }
        if let Some(interval) = heartbeat {
            standin.set_heartbeat_interval(interval);
        }
        let connection = connection_to(&standin, guild_id);
        let mut service = Service::new(store.clone()).with_table_keeper(keeper);
        if let Some(metrics) = &metrics {
            service = service.with_figures(metrics.figures());
        }
        let mut client = discord::client(connection, service).await.unwrap();
        let shards = client.shard_manager.clone();
        tokio::spawn(async move { client.start().await });
        standin.wait_ready(T).await;
        standin.wait_commands(T).await;
        Bot { standin, shards, store }
    }
}

/// How the test bot connects to `standin`: registering its commands to `guild_id` (globally
/// without one), sweeping waiting games every 300 ms.
fn connection_to(standin: &StandIn, guild_id: Option<u64>) -> Connection {
    Connection {
        token: StandIn::TOKEN.into(),
        guild_id,
        api_base: Some(standin.api_base()),
        api_certificate: Some(StandIn::certificate()),
        idle_sweep: Duration::from_millis(300),
        shards: None,
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
            private_channel: false,
            house_rules: None,
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

/// The board picture of an exchange, decoded, for a look at its pixels (that it shows the game
/// as stored is [`board_pictures::assert_board_is_stored`]'s to check).
fn board_image(x: &Exchange) -> image::DynamicImage {
    let png = x.file("board.png").unwrap_or_else(|| panic!("no board picture in the reply:\n{x}"));
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

/// The game as it is now, for the tapper only: what a child's tap that could not do what it
/// asked shows (a board picture with its buttons; docs/design/touch.md#no-sentence-to-read).
fn assert_the_game_now(x: &Exchange) {
    assert!(x.is_ephemeral(), "only the tapper sees it:\n{x}");
    assert!(x.file("board.png").is_some(), "the game's board:\n{x}");
}

/// A child's tap that could not play, answered without a word: nothing at all (a quiet
/// acknowledgement), or the game as it is now.
fn assert_quiet_or_the_game_now(x: &Exchange) {
    if x.calls.iter().any(|c| c.ok() && c.is_message()) {
        assert_the_game_now(x);
    } else {
        assert_eq!(x.callback_type(), Some(6), "a quiet acknowledgement:\n{x}");
    }
}

/// Two taps sent at once on one board: the one that played (its board frozen with the move at
/// once, then the new board) and the other, answered without a word.
async fn two_taps_at_once(bot: &Bot, a: Value, b: Value) -> (Exchange, Exchange) {
    let (ta, tb) = (fixtures::token(&a), fixtures::token(&b));
    bot.standin.send_interaction(a).await;
    bot.standin.send_interaction(b).await;
    // The one that played posts the new board for everyone; the other never does.
    let public = |x: &Exchange| x.answered() && !x.is_ephemeral();
    let (won, lost) = tokio::select! {
        x = bot.standin.wait_exchange(&ta, public) => (x.unwrap(), tb),
        x = bot.standin.wait_exchange(&tb, public) => (x.unwrap(), ta),
    };
    assert!(
        won.callback_type() == Some(7) || won.deferred(),
        "the board froze with the move, or (past the deadline) was acknowledged first:\n{won}"
    );
    let lost = bot.standin.wait_exchange(&lost, |x| x.callback_type().is_some()).await.unwrap();
    assert_quiet_or_the_game_now(&lost);
    (won, lost)
}

/// A private sign a child understands: no letter, only pictures and the name in `mention`.
fn assert_sign(x: &Exchange, mention: u64) {
    assert!(x.is_ephemeral() && x.files().is_empty(), "a private sign:\n{x}");
    let text = x.content().replace(&format!("<@{mention}>"), "");
    assert!(!text.chars().any(char::is_alphabetic), "a sign, not words: {}", x.content());
    assert!(x.content().contains(&format!("<@{mention}>")), "{x}");
}

/// The board an exchange showed last (a tap's new board, a command's board), as the stand-in
/// keeps it now.
fn shown_board(bot: &Bot, x: &Exchange) -> Value {
    let id = x.message_id().unwrap_or_else(|| panic!("no board in the exchange:\n{x}"));
    bot.standin.message(id).unwrap_or_else(|| panic!("the board {id} is gone"))
}

/// Plays `mv` (in notation) by touch on the board `x` showed, as `ctx`'s player: one tap on its
/// number (reversi), or the animal and then the square (doubutsu). The exchange of the last tap.
async fn tap_move(bot: &Bot, ctx: &Ctx, x: &Exchange, mv: &str) -> Exchange {
    tap_move_on(bot, ctx, &shown_board(bot, x), mv).await
}

/// [`tap_move`] on a board message as a client shows it.
async fn tap_move_on(bot: &Bot, ctx: &Ctx, board: &Value, mv: &str) -> Exchange {
    if let Some(id) = touch_id(board, &format!("p.{mv}")) {
        return bot.standin.interact(fixtures::button_on(ctx, &id, board)).await;
    }
    // A doubutsu move starts at its first two characters: a square (`B3B2`) or a hand (`E*B2`).
    let origin = mv.get(..2).unwrap_or(mv);
    let choose =
        touch_id(board, &format!("c.{origin}")).unwrap_or_else(|| panic!("nothing chooses {origin}:\n{board}"));
    let chosen = bot.standin.interact(fixtures::button_on(ctx, &choose, board)).await;
    assert!(!chosen.is_ephemeral() && chosen.files().is_empty(), "choosing is an update in place:\n{chosen}");
    let lit = bot.standin.message(board["id"].as_str().unwrap().parse().unwrap()).unwrap();
    let play = touch_id(&lit, &format!("p.{mv}")).unwrap_or_else(|| panic!("{mv} is not lit after {origin}:\n{lit}"));
    bot.standin.interact(fixtures::button_on(ctx, &play, &lit)).await
}

/// The board tile a button shows: the application emoji it names, read back from the picture
/// the bot uploaded for that id; `None` for a plain emoji or none.
fn tile_of(bot: &Bot, button: &Value) -> Option<settai::render::doubutsu::TileEmoji> {
    use settai::render::doubutsu::TileEmoji;
    static PICTURES: std::sync::OnceLock<Vec<(TileEmoji, Vec<u8>)>> = std::sync::OnceLock::new();
    let pictures = PICTURES.get_or_init(|| TileEmoji::all().into_iter().map(|t| (t, t.png().unwrap())).collect());
    let id: u64 = button["emoji"]["id"].as_str()?.parse().ok()?;
    let png = bot.standin.application_emoji_image(id).unwrap_or_else(|| panic!("emoji {id} is not the bot's"));
    let tile = pictures.iter().find(|(_, p)| *p == png).map(|(t, _)| *t);
    Some(tile.unwrap_or_else(|| panic!("emoji {id} is no tile's picture")))
}

/// The moves the board `x` showed offers as numbers (reversi), in reading order.
fn numbers(bot: &Bot, x: &Exchange) -> Vec<String> {
    touch_taps(&shown_board(bot, x), "p")
}

/// The private list of moves a tap on the board's list button shows.
async fn open_list(bot: &Bot, ctx: &Ctx, x: &Exchange) -> Exchange {
    let board = shown_board(bot, x);
    let id = buttons_of(&board)
        .into_iter()
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .find(|id| id.starts_with("ls:"))
        .unwrap_or_else(|| panic!("no list button:\n{board}"));
    let list = bot.standin.interact(fixtures::button_on(ctx, &id, &board)).await;
    assert!(list.is_ephemeral(), "the list is private:\n{list}");
    list
}

/// Plays the human's side by touch until the game ends, each time the first number (reversi)
/// or the first animal and its first square (doubutsu); returns the last exchange and how
/// many moves were tapped.
async fn tap_to_the_end(bot: &Bot, ctx: &Ctx, mut last: Exchange) -> (Exchange, usize) {
    let mut moves = 0;
    loop {
        let board = shown_board(bot, &last);
        let mv = match (touch_taps(&board, "p").first(), touch_taps(&board, "c").first()) {
            (Some(mv), _) => mv.clone(),
            (None, Some(origin)) => {
                let choose = touch_id(&board, &format!("c.{origin}")).unwrap();
                bot.standin.interact(fixtures::button_on(ctx, &choose, &board)).await;
                let lit = bot.standin.message(board["id"].as_str().unwrap().parse().unwrap()).unwrap();
                touch_taps(&lit, "p").first().cloned().unwrap_or_else(|| panic!("{origin} lights nothing:\n{lit}"))
            }
            (None, None) => break,
        };
        last = tap_move_on(bot, ctx, &shown_board(bot, &last), &mv).await;
        assert!(!last.is_ephemeral(), "a legal tap was refused:\n{last}");
        moves += 1;
        assert!(moves <= 200, "the game never ended");
    }
    (last, moves)
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

fn here() -> Value {
    json!({ "name": "here", "type": 5, "value": true })
}

fn on(value: bool) -> Value {
    json!([{ "name": "on", "type": 5, "value": value }])
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
