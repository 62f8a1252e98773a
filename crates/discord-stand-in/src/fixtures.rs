//! Builders for interaction payloads (as Discord sends them in `INTERACTION_CREATE`) that
//! serenity 0.12.5 accepts. A payload serenity cannot deserialize is dropped silently as an
//! unknown event, so [`assert_fixtures_deserialize`] checks every builder; call it from a test.
//!
//! Every payload gets a fresh interaction id and token. `application_id` is
//! [`StandIn::APP_ID`]. It is past 500 lines because every venue's payload (server, thread,
//! DM, user install, group DM) is built by the same few builders, side by side.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{json, Value};

// The board of buttons as a client shows it, where the payloads are built.
pub use super::touch::{buttons_of, touch_id, touch_taps};

use super::StandIn;

/// Where an interaction comes from, as Discord's `context` and install tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Venue {
    /// A server channel or thread (context 0), the app installed to the server.
    Server,
    /// The bot's own DM with the user (context 1), the app installed to a server they share.
    BotDm,
    /// The bot's own DM with the user (context 1), the app installed to the user's account.
    UserBotDm,
    /// A server channel (context 0) of a server the app was not added to: the user installed
    /// it to their account and used its command there.
    ServerWithoutApp,
    /// A group DM (context 2) the app is not in: `installer` installed it to their account
    /// and used its command there; everyone in the group may tap what it posted.
    GroupDm {
        /// The user whose install authorizes the interaction.
        installer: u64,
    },
}

/// Who clicks where. `guild_id == 0` means a DM or group DM (see [`Venue`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ctx {
    /// Where it happens.
    pub venue: Venue,
    /// The server (0 where there is none: a DM, a group DM).
    pub guild_id: u64,
    /// The channel (or thread, or DM) the interaction comes from.
    pub channel_id: u64,
    /// The user who interacts.
    pub user_id: u64,
    /// The user's locale, e.g. "en-US" or "ja".
    pub locale: &'static str,
    /// For a thread: the channel it hangs from.
    pub thread_of: Option<u64>,
    /// The member's server nickname, if any.
    pub nick: Option<&'static str>,
}

/// The server interactions come from unless a test says otherwise.
pub const GUILD_ID: u64 = 1_100_000_000_000_000_100;
/// The server channel interactions come from unless a test says otherwise.
pub const CHANNEL_ID: u64 = 1_100_000_000_000_000_200;
/// A second channel of the same server.
pub const OTHER_CHANNEL_ID: u64 = 1_100_000_000_000_000_201;
/// A thread (games live in threads too); the next ids are threads as well.
pub const THREAD_ID: u64 = 1_100_000_000_000_000_250;
/// Default player ("alice"-like) and a second one, for two-player games.
pub const USER_ID: u64 = 1_100_000_000_000_000_300;
/// The second player.
pub const OTHER_USER_ID: u64 = 1_100_000_000_000_000_301;
/// A family's group DM.
pub const GROUP_DM_ID: u64 = 1_100_000_000_000_000_700;

impl Default for Ctx {
    fn default() -> Self {
        Ctx::en()
    }
}

impl Ctx {
    /// An English-speaking user in the default guild channel.
    pub fn en() -> Ctx {
        Ctx {
            venue: Venue::Server,
            guild_id: GUILD_ID,
            channel_id: CHANNEL_ID,
            user_id: USER_ID,
            locale: "en-US",
            thread_of: None,
            nick: None,
        }
    }

    /// A Japanese-speaking user in the default guild channel.
    pub fn ja() -> Ctx {
        Ctx { locale: "ja", ..Ctx::en() }
    }

    /// The same context for another user.
    pub fn with_user(&self, user_id: u64) -> Ctx {
        Ctx { user_id, ..self.clone() }
    }

    /// The same context in another channel.
    pub fn with_channel(&self, channel_id: u64) -> Ctx {
        Ctx { channel_id, ..self.clone() }
    }

    /// The same context in a public thread `thread_id` of the current channel.
    pub fn in_thread(&self, thread_id: u64) -> Ctx {
        Ctx { channel_id: thread_id, thread_of: Some(self.channel_id), ..self.clone() }
    }

    /// The same user with a server nickname.
    pub fn with_nick(&self, nick: &'static str) -> Ctx {
        Ctx { nick: Some(nick), ..self.clone() }
    }

    /// The same user in a DM with the bot (no guild, no member), the app installed to a
    /// server they share.
    pub fn dm(&self) -> Ctx {
        Ctx { venue: Venue::BotDm, guild_id: 0, channel_id: self.channel_id + 1_000, ..self.clone() }
    }

    /// The same user in the bot's DM, the app installed to their own account.
    pub fn user_dm(&self) -> Ctx {
        Ctx { venue: Venue::UserBotDm, guild_id: 0, channel_id: StandIn::dm_channel_of(self.user_id), ..self.clone() }
    }

    /// The same user in a server the app was not added to, through their own install.
    pub fn server_without_app(&self) -> Ctx {
        Ctx { venue: Venue::ServerWithoutApp, ..self.clone() }
    }

    /// The same user in the family's group DM, where `installer` installed the app to their
    /// account.
    pub fn group_dm(&self, installer: u64) -> Ctx {
        Ctx { venue: Venue::GroupDm { installer }, guild_id: 0, channel_id: GROUP_DM_ID, ..self.clone() }
    }

    /// The username the fixtures give this user: `user<last 4 digits of the id>`.
    pub fn username(&self) -> String {
        username(self.user_id)
    }
}

fn username(user_id: u64) -> String {
    format!("user{}", user_id % 10_000)
}

static NEXT: AtomicU64 = AtomicU64::new(1);

fn next() -> u64 {
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Base interaction id; fixtures count up from here.
pub const INTERACTION_ID_BASE: u64 = 1_200_000_000_000_000_000;
/// Id of the registered commands that the fixtures claim was invoked (Discord sends the real
/// command id; serenity does not check it).
pub const COMMAND_ID: u64 = 1_100_000_000_000_000_500;
/// Message id used by [`select`]/[`button`] when the test has no real message.
pub const SOME_MESSAGE_ID: u64 = 1_100_000_000_000_000_600;

const PERMISSIONS: &str = "2248473465835073";
/// What `app_permissions` holds in a DM or group DM: attach files, embed links, mention
/// everyone; in the bot's own DM also use external emojis. No "send messages": the app
/// answers there, it does not post.
const GROUP_DM_PERMISSIONS: &str = "180224";
const BOT_DM_PERMISSIONS: &str = "442368";
const TIMESTAMP: &str = "2024-01-01T00:00:00.000000+00:00";

/// A user object as Discord sends it.
pub fn user(user_id: u64) -> Value {
    let name = username(user_id);
    json!({
        "id": user_id.to_string(),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": null,
        "public_flags": 0,
        "flags": 0,
    })
}

fn member(user_id: u64, nick: Option<&str>) -> Value {
    json!({
        "user": user(user_id),
        "nick": nick,
        "avatar": null,
        "roles": [],
        "joined_at": TIMESTAMP,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "permissions": PERMISSIONS,
        "communication_disabled_until": null,
    })
}

/// Fields every interaction has, for `ctx`.
fn base(ctx: &Ctx, type_: u8) -> Value {
    let n = next();
    let mut v = json!({
        "id": (INTERACTION_ID_BASE + n).to_string(),
        "application_id": StandIn::APP_ID.to_string(),
        "type": type_,
        "token": format!("standin-token-{n}-{}", std::process::id()),
        "version": 1,
        "channel_id": ctx.channel_id.to_string(),
        "app_permissions": PERMISSIONS,
        "locale": ctx.locale,
        "entitlements": [],
        "attachment_size_limit": 26_214_400,
    });
    if ctx.guild_id != 0 {
        v["guild_id"] = json!(ctx.guild_id.to_string());
        v["guild_locale"] = json!("en-US");
        v["member"] = member(ctx.user_id, ctx.nick);
        v["channel"] = json!({
            "id": ctx.channel_id.to_string(),
            "type": if ctx.thread_of.is_some() { 11 } else { 0 },
            "name": if ctx.thread_of.is_some() { "family-game" } else { "game-room" },
            "guild_id": ctx.guild_id.to_string(),
            "permissions": PERMISSIONS,
            "parent_id": null,
            "nsfw": false,
            "position": 0,
            "flags": 0,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "topic": null,
        });
        if let Some(parent) = ctx.thread_of {
            v["channel"]["parent_id"] = json!(parent.to_string());
            v["channel"]["thread_metadata"] = json!({
                "archived": false,
                "auto_archive_duration": 10080,
                "archive_timestamp": "2026-11-29T00:00:00.000000+00:00",
                "locked": false,
            });
            v["channel"]["message_count"] = json!(3);
            v["channel"]["member_count"] = json!(2);
        }
        v["authorizing_integration_owners"] = match ctx.venue {
            Venue::ServerWithoutApp => json!({"1": ctx.user_id.to_string()}),
            _ => json!({"0": ctx.guild_id.to_string()}),
        };
        v["context"] = json!(0);
    } else {
        v["user"] = user(ctx.user_id);
        v["channel"] = json!({
            "id": ctx.channel_id.to_string(),
            "type": 1,
            "flags": 0,
            "last_message_id": null,
            "recipients": [user(ctx.user_id)],
        });
        v["app_permissions"] = json!(BOT_DM_PERMISSIONS);
        match ctx.venue {
            Venue::Server | Venue::ServerWithoutApp | Venue::BotDm => {
                v["authorizing_integration_owners"] = json!({"0": "0"});
                v["context"] = json!(1);
            }
            Venue::UserBotDm => {
                v["authorizing_integration_owners"] = json!({"1": ctx.user_id.to_string()});
                v["context"] = json!(1);
            }
            Venue::GroupDm { installer } => {
                let mut family = vec![USER_ID, OTHER_USER_ID, installer, ctx.user_id];
                family.sort_unstable();
                family.dedup();
                v["channel"] = json!({
                    "id": ctx.channel_id.to_string(),
                    "type": 3,
                    "flags": 0,
                    "name": "family",
                    "icon": null,
                    "owner_id": installer.to_string(),
                    "last_message_id": null,
                    "recipients": family.iter().map(|&u| user(u)).collect::<Vec<_>>(),
                });
                v["app_permissions"] = json!(GROUP_DM_PERMISSIONS);
                v["authorizing_integration_owners"] = json!({"1": installer.to_string()});
                v["context"] = json!(2);
            }
        }
    }
    v
}

/// The options of a command invocation: `sub` is "" (no subcommand), "sub" or "group sub".
fn wrap_sub(sub: &str, options: Value) -> Value {
    let options = if options.is_null() { json!([]) } else { options };
    let parts: Vec<&str> = sub.split_whitespace().collect();
    match parts.as_slice() {
        [] => options,
        [s] => json!([{"name": s, "type": 1, "options": options}]),
        [g, s, ..] => json!([{"name": g, "type": 2, "options": [{"name": s, "type": 1, "options": options}]}]),
    }
}

/// `resolved` data for user options (type 6) found in `options` (recursively).
fn resolved_for(ctx: &Ctx, options: &Value) -> Value {
    fn walk(v: &Value, out: &mut Vec<u64>) {
        if let Some(arr) = v.as_array() {
            for o in arr {
                if o.get("type").and_then(Value::as_u64) == Some(6) {
                    if let Some(id) =
                        o.get("value").and_then(|x| x.as_str().and_then(|s| s.parse().ok()).or(x.as_u64()))
                    {
                        out.push(id);
                    }
                }
                if let Some(inner) = o.get("options") {
                    walk(inner, out);
                }
            }
        }
    }
    let mut ids = Vec::new();
    walk(options, &mut ids);
    if ids.is_empty() {
        return json!({});
    }
    let mut users = serde_json::Map::new();
    let mut members = serde_json::Map::new();
    for id in ids {
        users.insert(id.to_string(), user(id));
        if ctx.guild_id != 0 {
            let mut m = member(id, None);
            m.as_object_mut().map(|o| o.remove("user"));
            members.insert(id.to_string(), m);
        }
    }
    json!({"users": users, "members": members})
}

/// A slash command (type 2): `/name sub options...`. `sub` is "" for a command without
/// subcommands, or "group sub" for a subcommand group. `options` is the array of options of the
/// (sub)command, e.g. `json!([{"name":"square","type":3,"value":"d3"}])`; user options (type 6)
/// get `resolved` users/members automatically.
pub fn slash(ctx: &Ctx, name: &str, sub: &str, options: Value) -> Value {
    let mut v = base(ctx, 2);
    let resolved = resolved_for(ctx, &options);
    v["data"] = json!({
        "id": COMMAND_ID.to_string(),
        "name": name,
        "type": 1,
        "options": wrap_sub(sub, options),
        "resolved": resolved,
    });
    if ctx.guild_id != 0 {
        v["data"]["guild_id"] = json!(ctx.guild_id.to_string());
    }
    v
}

/// An autocomplete request (type 4) for `focused_option` with what the user `typed` so far.
pub fn autocomplete(ctx: &Ctx, name: &str, sub: &str, focused_option: &str, typed: &str) -> Value {
    autocomplete_with(ctx, name, sub, json!([]), focused_option, typed)
}

/// Like [`autocomplete`], with other options already filled in (`others`, e.g.
/// `json!([{"name":"game","type":3,"value":"shogi"}])`). The focused option is sent as a string
/// (Discord sends the partial text as a string, whatever the option type).
pub fn autocomplete_with(ctx: &Ctx, name: &str, sub: &str, others: Value, focused_option: &str, typed: &str) -> Value {
    let mut opts = others.as_array().cloned().unwrap_or_default();
    opts.push(json!({"name": focused_option, "type": 3, "value": typed, "focused": true}));
    let mut v = base(ctx, 4);
    v["data"] = json!({
        "id": COMMAND_ID.to_string(),
        "name": name,
        "type": 1,
        "options": wrap_sub(sub, Value::Array(opts)),
    });
    if ctx.guild_id != 0 {
        v["data"]["guild_id"] = json!(ctx.guild_id.to_string());
    }
    v
}

/// A minimal message by the bot, as it appears in a component interaction when the test has no
/// real one (prefer [`select_on`]/[`button_on`] with a message from `StandIn::message`).
pub fn bot_message(ctx: &Ctx, message_id: u64) -> Value {
    let mut m = json!({
        "id": message_id.to_string(),
        "channel_id": ctx.channel_id.to_string(),
        "author": {
            "id": StandIn::BOT_USER_ID.to_string(), "username": StandIn::BOT_NAME,
            "discriminator": "0", "avatar": null, "bot": true, "global_name": null,
        },
        "content": "",
        "timestamp": TIMESTAMP,
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "components": [],
        "pinned": false,
        "type": 20,
        "flags": 0,
        "application_id": StandIn::APP_ID.to_string(),
        "webhook_id": StandIn::APP_ID.to_string(),
    });
    if ctx.guild_id != 0 {
        m["guild_id"] = json!(ctx.guild_id.to_string());
    }
    m
}

fn component(ctx: &Ctx, data: Value, message: Value) -> Value {
    let mut v = base(ctx, 3);
    v["data"] = data;
    v["message"] = message;
    v
}

/// A string select menu choice (type 3, component_type 3) on message `message_id`. If the
/// stand-in knows that message (the bot posted it), the stand-in uses its stored state.
pub fn select(ctx: &Ctx, custom_id: &str, values: &[&str], message_id: u64) -> Value {
    select_on(ctx, custom_id, values, &bot_message(ctx, message_id))
}

/// A button click (type 3, component_type 2) on message `message_id`.
pub fn button(ctx: &Ctx, custom_id: &str, message_id: u64) -> Value {
    button_on(ctx, custom_id, &bot_message(ctx, message_id))
}

/// A string select choice on a full message object (e.g. `standin.message(id).unwrap()`), so the
/// bot sees the message's real content, components and attachments.
pub fn select_on(ctx: &Ctx, custom_id: &str, values: &[&str], message: &Value) -> Value {
    assert_shown(message, custom_id, 3, Some(values));
    component(ctx, json!({"custom_id": custom_id, "component_type": 3, "values": values}), message.clone())
}

/// A button click on a full message object.
pub fn button_on(ctx: &Ctx, custom_id: &str, message: &Value) -> Value {
    assert_shown(message, custom_id, 2, None);
    component(ctx, json!({"custom_id": custom_id, "component_type": 2}), message.clone())
}

/// Discord's client sends only what the message shows: a component of this id and type, not
/// disabled, and (for a menu) values among its options. A message with no components at all
/// stands for a request made without a client (a test of the bot's own checks), and passes.
fn assert_shown(message: &Value, custom_id: &str, kind: u64, values: Option<&[&str]>) {
    let rows = message["components"].as_array().cloned().unwrap_or_default();
    if rows.is_empty() {
        return;
    }
    let shown: Vec<Value> = rows.iter().flat_map(|r| r["components"].as_array().cloned().unwrap_or_default()).collect();
    let Some(c) = shown.iter().find(|c| c["custom_id"].as_str() == Some(custom_id)) else {
        panic!("no client can tap {custom_id:?}: the message does not show it\n{message}");
    };
    assert_eq!(c["type"].as_u64(), Some(kind), "{custom_id:?} is another kind of component\n{message}");
    assert!(c["disabled"].as_bool() != Some(true), "no client can tap the disabled {custom_id:?}\n{message}");
    if let Some(values) = values {
        let options: Vec<&str> =
            c["options"].as_array().into_iter().flatten().filter_map(|o| o["value"].as_str()).collect();
        assert!(values.iter().all(|v| options.contains(v)), "{values:?} are not options of {custom_id:?}\n{message}");
    }
}

/// A modal submission (type 5) with text inputs `(custom_id, value)`, one per action row.
/// `message_id`: the message whose component opened the modal, if any.
pub fn modal_submit(ctx: &Ctx, custom_id: &str, fields: &[(&str, &str)], message_id: Option<u64>) -> Value {
    let mut v = base(ctx, 5);
    let rows: Vec<Value> = fields
        .iter()
        .map(|(id, value)| json!({"type": 1, "components": [{"type": 4, "custom_id": id, "value": value}]}))
        .collect();
    v["data"] = json!({"custom_id": custom_id, "components": rows});
    if let Some(mid) = message_id {
        v["message"] = bot_message(ctx, mid);
    }
    v
}

/// The interaction token of a payload.
pub fn token(payload: &Value) -> String {
    payload["token"].as_str().unwrap_or_default().to_string()
}

/// Deserializes every builder's output (guild and DM, both locales) as serenity's
/// `Interaction` and checks the parts the bot reads. Panics with serde's error otherwise.
pub fn assert_fixtures_deserialize() {
    use serenity::all::{CommandDataOptionValue, ComponentInteractionDataKind, Interaction};

    fn parse(what: &str, v: &Value) -> Interaction {
        match serde_json::from_value::<Interaction>(v.clone()) {
            Ok(i) => i,
            Err(e) => panic!("fixture {what} does not deserialize as serenity Interaction: {e}\n{v:#}"),
        }
    }

    for ctx in [
        Ctx::en(),
        Ctx::ja(),
        Ctx::en().dm(),
        Ctx::en().user_dm(),
        Ctx::en().group_dm(OTHER_USER_ID),
        Ctx::en().server_without_app(),
    ] {
        let tag = format!("(locale {}, guild {})", ctx.locale, ctx.guild_id);

        let v = slash(
            &ctx,
            "play",
            "shogi",
            json!([{"name": "square", "type": 3, "value": "d3"}, {"name": "level", "type": 4, "value": 2}]),
        );
        let Interaction::Command(c) = parse(&format!("slash {tag}"), &v) else {
            panic!("slash is not a Command {tag}")
        };
        assert_eq!(c.data.name, "play");
        assert_eq!(c.locale, ctx.locale);
        assert_eq!(c.user.id.get(), ctx.user_id, "user {tag}");
        assert_eq!(c.guild_id.map(|g| g.get()), (ctx.guild_id != 0).then_some(ctx.guild_id));
        assert_eq!(c.application_id.get(), StandIn::APP_ID);
        match &c.data.options[0].value {
            CommandDataOptionValue::SubCommand(opts) => {
                assert_eq!(c.data.options[0].name, "shogi");
                assert_eq!(opts[0].value, CommandDataOptionValue::String("d3".into()));
                assert_eq!(opts[1].value, CommandDataOptionValue::Integer(2));
            }
            other => panic!("slash: expected a subcommand, got {other:?}"),
        }

        let v = slash(&ctx, "stats", "", json!([]));
        let Interaction::Command(c) = parse(&format!("slash without sub {tag}"), &v) else { panic!() };
        assert!(c.data.options.is_empty());

        let v = slash(
            &ctx,
            "play",
            "vs friend",
            json!([{"name": "opponent", "type": 6, "value": OTHER_USER_ID.to_string()}]),
        );
        let Interaction::Command(c) = parse(&format!("slash with group and user option {tag}"), &v) else { panic!() };
        let resolved = c.data.options();
        assert!(!resolved.is_empty());
        assert!(c.data.resolved.users.contains_key(&OTHER_USER_ID.into()));

        let v = autocomplete(&ctx, "play", "shogi", "square", "d");
        let Interaction::Autocomplete(a) = parse(&format!("autocomplete {tag}"), &v) else {
            panic!("not Autocomplete")
        };
        let focused = a.data.autocomplete().expect("autocomplete: no focused option");
        assert_eq!((focused.name, focused.value), ("square", "d"));

        let v =
            autocomplete_with(&ctx, "play", "", json!([{"name": "game", "type": 3, "value": "reversi"}]), "level", "");
        let Interaction::Autocomplete(a) = parse(&format!("autocomplete_with {tag}"), &v) else { panic!() };
        assert_eq!(a.data.autocomplete().unwrap().name, "level");

        let v = select(&ctx, "move", &["d3"], SOME_MESSAGE_ID);
        let Interaction::Component(c) = parse(&format!("select {tag}"), &v) else { panic!("not Component") };
        assert_eq!(c.data.custom_id, "move");
        assert_eq!(c.message.id.get(), SOME_MESSAGE_ID);
        match &c.data.kind {
            ComponentInteractionDataKind::StringSelect { values } => assert_eq!(values, &vec!["d3".to_string()]),
            other => panic!("select: {other:?}"),
        }

        let v = button(&ctx, "resign", SOME_MESSAGE_ID);
        let Interaction::Component(c) = parse(&format!("button {tag}"), &v) else { panic!() };
        assert!(matches!(c.data.kind, ComponentInteractionDataKind::Button));

        let mut msg = bot_message(&ctx, SOME_MESSAGE_ID + 1);
        msg["components"] = json!([{"type": 1, "components": [
            {"type": 3, "custom_id": "move", "options": [{"label": "D3", "value": "d3"}], "placeholder": "Move"}]},
            {"type": 1, "components": [{"type": 2, "style": 4, "custom_id": "resign", "label": "Resign"}]}]);
        msg["attachments"] = json!([{"id": "1", "filename": "board.png", "size": 3, "url": "http://x/board.png", "proxy_url": "http://x/board.png"}]);
        let v = select_on(&ctx, "move", &["d3"], &msg);
        let Interaction::Component(c) = parse(&format!("select_on {tag}"), &v) else { panic!() };
        assert_eq!(c.message.components.len(), 2);
        let v = button_on(&ctx, "resign", &msg);
        parse(&format!("button_on {tag}"), &v);

        let v = modal_submit(&ctx, "name", &[("nickname", "Taro")], Some(SOME_MESSAGE_ID));
        let Interaction::Modal(m) = parse(&format!("modal_submit {tag}"), &v) else { panic!("not Modal") };
        assert_eq!(m.data.custom_id, "name");
        let v = modal_submit(&ctx, "name", &[("nickname", "Taro")], None);
        parse(&format!("modal_submit without message {tag}"), &v);
    }
}
