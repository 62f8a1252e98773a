//! The stand-in itself: what it refuses, as Discord does, and how a test hears of it (its rate
//! limits in `stand_in_rate_limits.rs`). The bot's own flows are tested against it in the files
//! beside this one; here it is called directly.
//!
//! (Past 500 lines by a few: one notion, the refusals of the messages Discord keeps, and the
//! request helpers the other stand-in files borrow.)

use std::time::Duration;

use serde_json::{json, Value};

use crate::support::discord::{permission, StandIn};
use crate::support::fixtures::{self, Ctx};
use crate::support::ReplyKind;

/// A route Discord does not have is answered 404, and a call to one fails the test that made it
/// when the stand-in is dropped, so that a best-effort call to a wrong route cannot pass quietly.
#[tokio::test]
async fn an_unknown_route_fails_the_test_that_called_it() {
    let standin = StandIn::start().await;
    let url = format!("{}/api/v10/channels/1/nowhere", standin.base_url());
    let answer = reqwest::Client::new().get(&url).send().await.unwrap();
    assert_eq!(answer.status(), 404);
    assert_eq!(standin.unknown_routes(), ["GET /api/v10/channels/1/nowhere"]);
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(standin)));
    let message = dropped.expect_err("dropping a stand-in that met an unknown route fails the test");
    let message = message.downcast_ref::<String>().expect("a formatted panic message");
    assert!(message.contains("/api/v10/channels/1/nowhere"), "{message}");

    // Taken on purpose, it does not.
    let standin = StandIn::start().await;
    reqwest::Client::new().get(format!("{}/api/v10/nowhere", standin.base_url())).send().await.unwrap();
    assert_eq!(standin.take_unknown_routes(), ["GET /api/v10/nowhere"]);
    drop(standin);
}

/// Discord's refusals of an interaction's answers, as the stand-in gives them: the code in the
/// body and the status, for the calls real bots trip over.
#[tokio::test]
async fn the_answers_to_an_interaction_are_refused_as_discord_refuses_them() {
    let standin = StandIn::start().await;
    let ctx = Ctx::en();
    let payload = fixtures::slash(&ctx, "play", "reversi", json!([]));
    let (id, token) = (payload["id"].as_str().unwrap().to_string(), payload["token"].as_str().unwrap().to_string());
    let base = format!("{}/api/v10", standin.base_url());
    let http = reqwest::Client::new();
    let call = |method: reqwest::Method, url: String, body: Value| {
        let http = http.clone();
        async move {
            let answer = http.request(method, url).json(&body).send().await.unwrap();
            let status = answer.status().as_u16();
            let body: Value = answer.json().await.unwrap_or(Value::Null);
            (status, body["code"].as_u64())
        }
    };
    let callback = format!("{base}/interactions/{id}/{token}/callback");
    let original = format!("{base}/webhooks/{}/{token}/messages/@original", StandIn::APP_ID);
    let answer = json!({"type": 4, "data": {"content": "hello"}});

    // A token Discord never sent: 10062 Unknown Interaction.
    assert_eq!(call(reqwest::Method::POST, callback.clone(), answer.clone()).await, (404, Some(10062)));
    standin.register_interaction(&payload);
    // An edit of the answer before there is one: 10015 Unknown Webhook.
    assert_eq!(call(reqwest::Method::PATCH, original.clone(), json!({"content": "edited"})).await, (404, Some(10015)));
    // Content past 2000 characters: 50035 Invalid Form Body, and nothing is acknowledged.
    let long = json!({"type": 4, "data": {"content": "x".repeat(2001)}});
    assert_eq!(call(reqwest::Method::POST, callback.clone(), long).await, (400, Some(50035)));
    // The answer, then a second one: 40060 Interaction has already been acknowledged.
    assert_eq!(call(reqwest::Method::POST, callback.clone(), answer.clone()).await.0, 204);
    assert_eq!(call(reqwest::Method::POST, callback, answer).await, (400, Some(40060)));
    // Now the edit is accepted.
    assert_eq!(call(reqwest::Method::PATCH, original, json!({"content": "edited"})).await.0, 200);
}

/// A call to the stand-in's REST API as the bot makes it: the status, Discord's error code (if
/// refused) and the body.
pub(crate) async fn call(
    standin: &StandIn,
    method: reqwest::Method,
    path: &str,
    body: Value,
) -> (u16, Option<u64>, Value) {
    let url = format!("{}/api/v10{path}", standin.base_url());
    let answer = reqwest::Client::new().request(method, url).json(&body).send().await.unwrap();
    let status = answer.status().as_u16();
    let body: Value = answer.json().await.unwrap_or(Value::Null);
    let code = if (200..300).contains(&status) { None } else { body["code"].as_u64() };
    (status, code, body)
}

/// The status and code of a call through serenity that the stand-in refused.
pub(crate) fn refusal<T: std::fmt::Debug>(result: serenity::Result<T>) -> (u16, isize) {
    match result {
        Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r))) => {
            (r.status_code.as_u16(), r.error.code)
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// An interaction in `ctx` the stand-in has taken as dispatched (no bot): its id and token.
fn dispatched(standin: &StandIn, ctx: &Ctx) -> (String, String) {
    let payload = fixtures::slash(ctx, "play", "reversi", json!([]));
    standin.register_interaction(&payload);
    (payload["id"].as_str().unwrap().to_string(), fixtures::token(&payload))
}

pub(crate) fn post() -> reqwest::Method {
    reqwest::Method::POST
}

pub(crate) fn patch() -> reqwest::Method {
    reqwest::Method::PATCH
}

pub(crate) fn get() -> reqwest::Method {
    reqwest::Method::GET
}

pub(crate) fn delete() -> reqwest::Method {
    reqwest::Method::DELETE
}

/// Discord drops an interaction whose first response comes after 3 seconds: the response is
/// refused (10062), so a bot that answers late fails the test that saw it.
#[tokio::test]
async fn a_first_response_after_three_seconds_is_refused() {
    let standin = StandIn::start().await;
    let (id, token) = dispatched(&standin, &Ctx::en());
    standin.age_interaction(&token, Duration::from_millis(3_100));
    let answer = json!({"type": 5});
    assert_eq!(
        call(&standin, post(), &format!("/interactions/{id}/{token}/callback"), answer.clone()).await.1,
        Some(10062)
    );
    // In time, the same response is taken.
    let (id, token) = dispatched(&standin, &Ctx::en());
    standin.age_interaction(&token, Duration::from_millis(2_500));
    assert_eq!(call(&standin, post(), &format!("/interactions/{id}/{token}/callback"), answer).await.0, 204);
}

/// A channel the stand-in never saw, or one deleted since, is unknown (10003).
#[tokio::test]
async fn a_channel_never_seen_or_deleted_is_unknown() {
    let standin = StandIn::start().await;
    let hello = json!({"content": "hello"});
    assert_eq!(call(&standin, post(), "/channels/not-a-channel/messages", hello.clone()).await.1, Some(10003));
    let path = format!("/channels/{}/messages", fixtures::CHANNEL_ID);
    assert_eq!(call(&standin, post(), &path, hello.clone()).await.1, Some(10003));
    dispatched(&standin, &Ctx::en());
    let (status, _, posted) = call(&standin, post(), &path, hello.clone()).await;
    assert_eq!(status, 200);
    standin.delete_channel(fixtures::CHANNEL_ID);
    let (status, code, _) = call(&standin, post(), &path, hello).await;
    assert_eq!((status, code), (404, Some(10003)));
    let edit = format!("{path}/{}", posted["id"].as_str().unwrap());
    assert_eq!(call(&standin, patch(), &edit, json!({"content": "again"})).await.1, Some(10003));
}

/// Without SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a thread) the bot may not post: 50013.
#[tokio::test]
async fn posting_without_the_permission_to_send_is_refused() {
    let standin = StandIn::start().await;
    let hello = json!({"content": "hello"});
    let ctx = Ctx::en();
    dispatched(&standin, &ctx);
    let path = format!("/channels/{}/messages", ctx.channel_id);
    assert_eq!(call(&standin, post(), &path, hello.clone()).await.0, 200);
    standin.withhold_permissions(ctx.channel_id, permission::SEND_MESSAGES);
    assert_eq!(call(&standin, post(), &path, hello.clone()).await.1, Some(50013));
    // A later interaction from the channel does not give it back.
    dispatched(&standin, &ctx);
    let (status, code, _) = call(&standin, post(), &path, hello.clone()).await;
    assert_eq!((status, code), (403, Some(50013)));

    // A thread asks for its own permission, whatever SEND_MESSAGES says.
    let thread = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID).in_thread(fixtures::THREAD_ID);
    dispatched(&standin, &thread);
    let path = format!("/channels/{}/messages", fixtures::THREAD_ID);
    assert_eq!(call(&standin, post(), &path, hello.clone()).await.0, 200);
    standin.withhold_permissions(fixtures::THREAD_ID, permission::SEND_MESSAGES_IN_THREADS);
    assert_eq!(call(&standin, post(), &path, hello).await.1, Some(50013));
}

/// A channel the bot cannot see is Missing Access (50001), for every call there; a message
/// there is read with READ_MESSAGE_HISTORY only (50013).
#[tokio::test]
async fn a_channel_the_bot_cannot_see_is_missing_access() {
    let standin = StandIn::start().await;
    let ctx = Ctx::en();
    dispatched(&standin, &ctx);
    let path = format!("/channels/{}/messages", ctx.channel_id);
    let (_, _, posted) = call(&standin, post(), &path, json!({"content": "hello"})).await;
    let message = format!("{path}/{}", posted["id"].as_str().unwrap());
    // Fetching a message needs READ_MESSAGE_HISTORY (50013); seeing the channel, VIEW_CHANNEL.
    standin.withhold_permissions(ctx.channel_id, permission::READ_MESSAGE_HISTORY);
    assert_eq!(call(&standin, get(), &message, Value::Null).await.1, Some(50013));
    standin.withhold_permissions(ctx.channel_id, permission::VIEW_CHANNEL);
    let (status, code, _) = call(&standin, post(), &path, json!({"content": "hello"})).await;
    assert_eq!((status, code), (403, Some(50001)));
    assert_eq!(call(&standin, get(), &message, Value::Null).await.1, Some(50001));
}

/// A permission taken away is missing from the `app_permissions` of later interactions from the
/// channel, as Discord computes them; given back, it is there again.
#[tokio::test]
async fn later_interactions_carry_the_permissions_the_channel_has_now() {
    let standin = StandIn::start().await;
    let ctx = Ctx::en();
    let app = |payload: &Value| -> u64 { payload["app_permissions"].as_str().unwrap().parse().unwrap() };
    let slash = || fixtures::slash(&ctx, "play", "reversi", json!([]));
    let before = app(&standin.register_interaction(&slash()));
    assert_eq!(before & permission::SEND_MESSAGES, permission::SEND_MESSAGES);
    standin.withhold_permissions(ctx.channel_id, permission::SEND_MESSAGES);
    let after = app(&standin.register_interaction(&slash()));
    assert_eq!(after, before & !permission::SEND_MESSAGES);
    standin.restore_permissions(ctx.channel_id, permission::SEND_MESSAGES);
    assert_eq!(app(&standin.register_interaction(&slash())), before);
}

/// Adding a file by an edit needs ATTACH_FILES as posting one does (50013); editing the text
/// does not.
#[tokio::test]
async fn adding_files_by_an_edit_needs_the_permission_to_attach() {
    use serenity::all::{ChannelId, CreateAttachment, CreateMessage, EditMessage};
    let standin = StandIn::start().await;
    let ctx = Ctx::en();
    dispatched(&standin, &ctx);
    let http = standin.http();
    let channel = ChannelId::new(ctx.channel_id);
    let posted = channel.send_message(&http, CreateMessage::new().content("text")).await.unwrap();
    standin.withhold_permissions(ctx.channel_id, permission::ATTACH_FILES);
    channel.edit_message(&http, posted.id, EditMessage::new().content("other text")).await.unwrap();
    let picture = EditMessage::new().new_attachment(CreateAttachment::bytes(vec![1, 2, 3], "board.png"));
    assert_eq!(refusal(channel.edit_message(&http, posted.id, picture).await), (403, 50013));
}

/// Files need ATTACH_FILES (50013); text alone does not.
#[tokio::test]
async fn files_without_the_permission_to_attach_are_refused() {
    use serenity::all::{ChannelId, CreateAttachment, CreateMessage};
    let standin = StandIn::start().await;
    let ctx = Ctx::en();
    dispatched(&standin, &ctx);
    standin.withhold_permissions(ctx.channel_id, permission::ATTACH_FILES);
    let http = standin.http();
    let channel = ChannelId::new(ctx.channel_id);
    channel.send_message(&http, CreateMessage::new().content("text")).await.unwrap();
    let picture = CreateMessage::new().add_file(CreateAttachment::bytes(vec![1, 2, 3], "board.png"));
    assert_eq!(refusal(channel.send_message(&http, picture).await), (403, 50013));
}

/// A message id that is not a message of the channel, or an ephemeral one (only its
/// interaction's webhook reaches it), is Unknown Message (10008) there.
#[tokio::test]
async fn a_message_of_another_channel_or_an_ephemeral_one_is_unknown_there() {
    let standin = StandIn::start().await;
    let here = Ctx::en();
    let there = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID);
    dispatched(&standin, &here);
    dispatched(&standin, &there);
    let (_, _, posted) =
        call(&standin, post(), &format!("/channels/{}/messages", here.channel_id), json!({"content": "hi"})).await;
    let id = posted["id"].as_str().unwrap();
    let elsewhere = format!("/channels/{}/messages/{id}", there.channel_id);
    assert_eq!(call(&standin, get(), &elsewhere, Value::Null).await.1, Some(10008));
    assert_eq!(call(&standin, patch(), &elsewhere, json!({"content": "x"})).await.1, Some(10008));
    assert_eq!(call(&standin, delete(), &elsewhere, Value::Null).await.1, Some(10008));
    let in_its_channel = format!("/channels/{}/messages/{id}", here.channel_id);
    assert_eq!(call(&standin, get(), &in_its_channel, Value::Null).await.0, 200);
    assert_eq!(call(&standin, delete(), &in_its_channel, Value::Null).await.0, 204);

    let (iid, token) = dispatched(&standin, &here);
    let private = json!({"type": 4, "data": {"content": "for you", "flags": 64}});
    assert_eq!(call(&standin, post(), &format!("/interactions/{iid}/{token}/callback"), private).await.0, 204);
    let original = standin.original_message(&token).unwrap();
    let path = format!("/channels/{}/messages/{}", here.channel_id, original["id"].as_str().unwrap());
    assert_eq!(call(&standin, get(), &path, Value::Null).await.1, Some(10008));
}

/// Another user's message: an edit is refused (50005); a deletion needs MANAGE_MESSAGES in a
/// server (50013) and is never allowed in a DM (50003).
#[tokio::test]
async fn another_users_message_may_be_neither_edited_nor_deleted() {
    let standin = StandIn::start().await;
    let ctx = Ctx::en();
    dispatched(&standin, &ctx);
    let theirs = standin.post_as(ctx.user_id, ctx.channel_id, "my move");
    let path = format!("/channels/{}/messages/{theirs}", ctx.channel_id);
    assert_eq!(call(&standin, get(), &path, Value::Null).await.0, 200);
    let (status, code, _) = call(&standin, patch(), &path, json!({"content": "x"})).await;
    assert_eq!((status, code), (403, Some(50005)));
    assert_eq!(call(&standin, delete(), &path, Value::Null).await.1, Some(50013));
    assert!(standin.message(theirs).is_some(), "a refused deletion deletes nothing");

    let dm = Ctx::en().dm();
    dispatched(&standin, &dm);
    let theirs = standin.post_as(dm.user_id, dm.channel_id, "hello bot");
    let path = format!("/channels/{}/messages/{theirs}", dm.channel_id);
    assert_eq!(call(&standin, delete(), &path, Value::Null).await.1, Some(50003));
}

/// An interaction's webhook reaches its own messages only: another interaction's follow-up is
/// Unknown Message (10008) through it, to fetch, edit or delete.
#[tokio::test]
async fn a_token_reaches_only_its_own_follow_ups() {
    let standin = StandIn::start().await;
    let app = StandIn::APP_ID;
    let mut answered = Vec::new();
    for _ in 0..2 {
        let (id, token) = dispatched(&standin, &Ctx::en());
        let answer = json!({"type": 4, "data": {"content": "hello"}});
        assert_eq!(call(&standin, post(), &format!("/interactions/{id}/{token}/callback"), answer).await.0, 204);
        answered.push(token);
    }
    let (mine, other) = (&answered[0], &answered[1]);
    let (status, _, follow_up) =
        call(&standin, post(), &format!("/webhooks/{app}/{mine}"), json!({"content": "more"})).await;
    assert_eq!(status, 200);
    let fid = follow_up["id"].as_str().unwrap();
    let through_other = format!("/webhooks/{app}/{other}/messages/{fid}");
    assert_eq!(call(&standin, get(), &through_other, Value::Null).await.1, Some(10008));
    assert_eq!(call(&standin, patch(), &through_other, json!({"content": "x"})).await.1, Some(10008));
    assert_eq!(call(&standin, delete(), &through_other, Value::Null).await.1, Some(10008));
    let through_mine = format!("/webhooks/{app}/{mine}/messages/{fid}");
    assert_eq!(call(&standin, get(), &through_mine, Value::Null).await.0, 200);
    assert_eq!(call(&standin, delete(), &through_mine, Value::Null).await.0, 204);
    // A token Discord never sent is an Unknown Webhook (10015).
    let unknown = format!("/webhooks/{app}/no-such-token/messages/{fid}");
    assert_eq!(call(&standin, delete(), &unknown, Value::Null).await.1, Some(10015));
}

/// EPHEMERAL belongs to an interaction's messages: on a channel message it is an invalid form
/// body (50035), as is a flag a bot may not set on a follow-up (LOADING).
#[tokio::test]
async fn flags_are_refused_where_discord_does_not_take_them() {
    let standin = StandIn::start().await;
    let ctx = Ctx::en();
    let (id, token) = dispatched(&standin, &ctx);
    let path = format!("/channels/{}/messages", ctx.channel_id);
    assert_eq!(call(&standin, post(), &path, json!({"content": "x", "flags": 64})).await.1, Some(50035));
    assert_eq!(call(&standin, post(), &path, json!({"content": "x", "flags": 4096 | 4})).await.0, 200);
    assert_eq!(
        call(
            &standin,
            post(),
            &format!("/interactions/{id}/{token}/callback"),
            json!({"type": 4, "data": {"content": "x", "flags": 64}})
        )
        .await
        .0,
        204
    );
    let follow_up = format!("/webhooks/{}/{token}", StandIn::APP_ID);
    assert_eq!(call(&standin, post(), &follow_up, json!({"content": "x", "flags": 64})).await.0, 200);
    assert_eq!(call(&standin, post(), &follow_up, json!({"content": "x", "flags": 128})).await.1, Some(50035));
}

/// At most 10 files a message (50035), none past the place's upload limit (413, 40005).
#[tokio::test]
async fn files_past_discords_limits_are_refused() {
    use serenity::all::{ChannelId, CreateAttachment, CreateMessage};
    let standin = StandIn::start().await;
    let ctx = Ctx::en();
    let payload = fixtures::slash(&ctx, "play", "reversi", json!([]));
    standin.register_interaction(&payload);
    let limit = payload["attachment_size_limit"].as_u64().unwrap() as usize;
    let http = standin.http();
    let channel = ChannelId::new(ctx.channel_id);
    let files =
        |n: usize| (0..n).map(|i| CreateAttachment::bytes(vec![0u8; 8], format!("f{i}.png"))).collect::<Vec<_>>();
    channel.send_message(&http, CreateMessage::new().files(files(10))).await.unwrap();
    assert_eq!(refusal(channel.send_message(&http, CreateMessage::new().files(files(11))).await), (400, 50035));
    let big = CreateAttachment::bytes(vec![0u8; limit + 1], "big.png");
    assert_eq!(refusal(channel.send_message(&http, CreateMessage::new().add_file(big)).await), (413, 40005));
}

/// After a deferred message (type 5), the first follow-up takes the "thinking…" message's place
/// and keeps the deferral's visibility: a flow that deferred privately and did not withdraw the
/// "thinking…" would show its public board privately, and the exchange says so. Withdrawn first,
/// the follow-up is a message of its own.
#[tokio::test]
async fn the_first_follow_up_after_a_deferral_replaces_the_thinking_message() {
    let standin = StandIn::start().await;
    let app = StandIn::APP_ID;
    let (id, token) = dispatched(&standin, &Ctx::en());
    let defer = json!({"type": 5, "data": {"flags": 64}});
    assert_eq!(call(&standin, post(), &format!("/interactions/{id}/{token}/callback"), defer.clone()).await.0, 204);
    let thinking = standin.original_message(&token).unwrap()["id"].clone();
    let (status, _, board) =
        call(&standin, post(), &format!("/webhooks/{app}/{token}"), json!({"content": "the board"})).await;
    assert_eq!(status, 200);
    assert_eq!(board["id"], thinking, "the follow-up is the deferral's message");
    assert_eq!(board["flags"].as_u64().unwrap() & (64 | 128), 64, "private, no longer thinking");
    let x = standin.exchange(&token);
    assert!(x.is_ephemeral(), "the board is seen by one player only:\n{x}");
    // The next follow-up is a message of its own, as public as it says.
    let (_, _, next) = call(&standin, post(), &format!("/webhooks/{app}/{token}"), json!({"content": "more"})).await;
    assert_ne!(next["id"], thinking);
    assert_eq!(next["flags"].as_u64().unwrap() & 64, 0);

    // The "thinking…" withdrawn first: the follow-up is new, and public.
    let (id, token) = dispatched(&standin, &Ctx::en());
    assert_eq!(call(&standin, post(), &format!("/interactions/{id}/{token}/callback"), defer).await.0, 204);
    let original = format!("/webhooks/{app}/{token}/messages/@original");
    assert_eq!(call(&standin, delete(), &original, Value::Null).await.0, 204);
    let (_, _, board) =
        call(&standin, post(), &format!("/webhooks/{app}/{token}"), json!({"content": "the board"})).await;
    assert_eq!(board["flags"].as_u64().unwrap() & 64, 0);
    assert!(!standin.exchange(&token).is_ephemeral());
}

/// A fault a test injects (`fail_calls`) answers every matching call with its status and
/// Discord's error body, whatever the call, until `heal_calls`; those calls are logged apart,
/// so a refused-call check never blames the bot for them. Other routes are untouched.
#[tokio::test]
async fn an_injected_fault_fails_its_calls_and_is_not_the_bots_refusal() {
    let standin = StandIn::start().await;
    let (id, token) = dispatched(&standin, &Ctx::en());
    let emojis = format!("/applications/{}/emojis", StandIn::APP_ID);
    standin.fail_calls("POST", "/emojis", 500);
    standin.fail_calls("GET", "/emojis", 403);
    let (status, code, body) = call(&standin, post(), &emojis, json!({"name": "lion", "image": "data:,"})).await;
    assert_eq!((status, code), (500, Some(0)));
    assert_eq!(body["message"], "500: Internal Server Error");
    assert_eq!(call(&standin, get(), &emojis, Value::Null).await.1, Some(50013));
    // Through serenity, as the bot meets it: an error with the status and Discord's code.
    let http = standin.http();
    http.set_application_id(StandIn::APP_ID.into());
    assert_eq!(refusal(http.get_application_emojis().await), (403, 50013));
    // A route the faults do not name answers as ever.
    let answer = json!({"type": 4, "data": {"content": "hello"}});
    assert_eq!(call(&standin, post(), &format!("/interactions/{id}/{token}/callback"), answer).await.0, 204);

    let faults = standin.wait_injected_faults(3, Duration::from_secs(5)).await;
    let seen: Vec<(&str, Option<u16>)> = faults.iter().map(|f| (f.method.as_str(), f.status())).collect();
    assert_eq!(seen, [("POST", Some(500)), ("GET", Some(403)), ("GET", Some(403))]);
    assert!(faults.iter().all(|f| f.path.ends_with(&emojis)), "{faults:?}");
    assert!(standin.all_calls().iter().all(|c| c.ok()), "an injected fault is not the bot's refused call");
    assert_eq!(standin.application_emoji_creates(), 1, "the failed create was still asked for");

    // Healed, the routes answer again (and the create is checked on its own merits).
    standin.heal_calls();
    assert_eq!(call(&standin, get(), &emojis, Value::Null).await.2, json!({"items": []}));
    assert_eq!(call(&standin, post(), &emojis, json!({"name": "lion", "image": "data:,"})).await.1, Some(50035));
    assert_eq!(standin.injected_faults().len(), 3);
    assert_eq!(standin.all_calls().iter().filter(|c| !c.ok()).count(), 1, "the bad create is refused");
}

/// Every call the stand-in refuses is recorded, whatever its method and route, and fails the
/// refused-call check every end-to-end test ends with: a fetch (GET), typing, opening a DM,
/// registering commands (PUT), an unknown route (404, whatever the method), a token Discord
/// does not know (401) and a body it cannot read (50109), beside the bot's messages.
#[tokio::test]
async fn every_refused_call_is_recorded_whatever_its_method() {
    let standin = StandIn::start().await;
    let app = StandIn::APP_ID;
    let never = "a-token-never-sent";
    let refused = [
        (get(), "/channels/7/messages/1".to_string(), json!(null), 404, 10003),
        (post(), "/channels/7/typing".to_string(), json!(null), 404, 10003),
        (get(), format!("/webhooks/{app}/{never}/messages/@original"), json!(null), 404, 10015),
        (post(), "/users/@me/channels".to_string(), json!({}), 400, 50035),
        (reqwest::Method::PUT, format!("/applications/{app}/commands"), json!([{"name": "Play!"}]), 400, 50035),
        (delete(), "/applications/1/commands/2".to_string(), json!(null), 404, 0),
        (patch(), "/channels/7/nowhere".to_string(), json!({}), 404, 0),
    ];
    for (method, path, body, status, code) in &refused {
        let answer = call(&standin, method.clone(), path, body.clone()).await;
        assert_eq!((answer.0, answer.1), (*status, Some(*code)), "{method} {path}: {}", answer.2);
    }
    let http = reqwest::Client::new();
    let base = format!("{}/api/v10", standin.base_url());
    let wrong =
        http.get(format!("{base}/users/@me")).header("authorization", "Bot not-the-token").send().await.unwrap();
    assert_eq!(wrong.status(), 401);
    let broken = http
        .post(format!("{base}/channels/7/messages"))
        .header("content-type", "application/json")
        .body("{\"content\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(broken.status(), 400);

    let recorded = standin.refused();
    let seen: Vec<(String, u16)> = recorded
        .iter()
        .map(|c| match &c.kind {
            ReplyKind::Other { method, path } => {
                (format!("{method} {}", path.trim_start_matches("/api/v10")), c.status)
            }
            other => panic!("a refusal no route recorded is `Other`: {other:?}"),
        })
        .collect();
    let mut want: Vec<(String, u16)> = refused.iter().map(|(m, p, _, s, _)| (format!("{m} {p}"), *s)).collect();
    want.push(("GET /users/@me".into(), 401));
    want.push(("POST /channels/7/messages".into(), 400));
    assert_eq!(seen, want);
    assert!(recorded.iter().all(|c| c.error.is_some()), "each says why: {recorded:?}");
    assert_eq!(standin.take_unknown_routes().len(), 2, "the unknown routes are also listed as such");

    // The check every end-to-end test ends with names them.
    let check = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| standin.assert_none_refused()));
    let message = check.expect_err("refused calls fail the check");
    let message = message.downcast_ref::<String>().expect("a formatted panic message");
    assert!(message.contains("/channels/7/typing") && message.contains("401"), "{message}");
    // A call the stand-in accepts is not among them.
    let fine = StandIn::start().await;
    assert_eq!(call(&fine, get(), "/users/@me", json!(null)).await.0, 200);
    fine.assert_none_refused();
}
