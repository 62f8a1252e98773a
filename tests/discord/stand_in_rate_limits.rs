//! The stand-in's rate limits, called directly: Discord's headers on every limited answer, a
//! 429 with how long to wait past a bucket's limit, buckets of their own per channel, the global
//! limit that spares interactions, and serenity's limiter waiting instead of meeting a 429.

use std::time::Duration;

use serde_json::{json, Value};

use crate::support::discord::{Limit, RateLimits, ReplyKind, StandIn};
use crate::support::fixtures::{self, Ctx};

/// A raw call: its status, its headers and its JSON body.
async fn call(method: reqwest::Method, url: String, body: Value) -> (u16, reqwest::header::HeaderMap, Value) {
    let answer = reqwest::Client::new().request(method, url).json(&body).send().await.unwrap();
    let (status, headers) = (answer.status().as_u16(), answer.headers().clone());
    (status, headers, answer.json().await.unwrap_or(Value::Null))
}

fn header<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> &'a str {
    headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_else(|| panic!("no {name} in {headers:?}"))
}

fn seconds(headers: &reqwest::header::HeaderMap, name: &str) -> f64 {
    header(headers, name).parse().unwrap_or_else(|_| panic!("{name} is not a number: {headers:?}"))
}

/// Discord's per-route limit, as the stand-in applies it: posting in a channel holds 5 messages
/// per 5 s; each answer says how many are left and when the bucket resets; the sixth is answered
/// 429 with how long to wait, and another channel's bucket is its own.
#[tokio::test]
async fn a_burst_in_one_channel_is_answered_429_with_discords_headers() {
    let standin = StandIn::start_with(RateLimits::discord()).await;
    for channel in [41, 42] {
        standin.add_channel(&Ctx::en().with_channel(channel));
    }
    let messages = |channel: u64| format!("{}/api/v10/channels/{channel}/messages", standin.base_url());
    let post = |channel: u64| call(reqwest::Method::POST, messages(channel), json!({"content": "hello"}));
    let mut buckets = Vec::new();
    for left in (0..5).rev() {
        let (status, headers, _) = post(41).await;
        assert_eq!(status, 200, "{headers:?}");
        assert_eq!(header(&headers, "x-ratelimit-limit"), "5");
        assert_eq!(header(&headers, "x-ratelimit-remaining"), left.to_string());
        let reset_after = seconds(&headers, "x-ratelimit-reset-after");
        assert!(reset_after > 0.0 && reset_after <= 5.0, "{headers:?}");
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs_f64();
        let reset = seconds(&headers, "x-ratelimit-reset");
        assert!((reset - (now + reset_after)).abs() < 1.0, "the reset is the epoch time of reset-after: {headers:?}");
        buckets.push(header(&headers, "x-ratelimit-bucket").to_string());
    }
    assert!(buckets.iter().all(|b| *b == buckets[0]), "one bucket: {buckets:?}");
    assert!(standin.rate_limited().is_empty());

    let (status, headers, body) = post(41).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(header(&headers, "x-ratelimit-remaining"), "0");
    assert_eq!(header(&headers, "x-ratelimit-scope"), "user");
    assert!(headers.get("x-ratelimit-global").is_none(), "{headers:?}");
    let retry_after = seconds(&headers, "retry-after");
    assert!((1.0..=5.0).contains(&retry_after) && retry_after.fract() == 0.0, "whole seconds: {headers:?}");
    assert_eq!(body["message"], "You are being rate limited.");
    assert_eq!(body["global"], false);
    let waited = body["retry_after"].as_f64().unwrap();
    assert!(waited > 0.0 && waited <= 5.0 && waited.ceil() == retry_after, "{body} {headers:?}");
    let refused = standin.rate_limited();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!((refused[0].resource.as_deref(), refused[0].global), (Some("41"), false));
    // Nothing was posted by the refused call.
    let posted = standin.all_calls().iter().filter(|c| c.kind == ReplyKind::ChannelMessage { channel_id: 41 }).count();
    assert_eq!(posted, 5);

    // Another channel: a bucket of its own, full.
    let (status, headers, _) = post(42).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "x-ratelimit-remaining"), "4");
}

/// The global limit counts every request but the interactions' own (their callbacks and
/// webhooks), whatever its route; past it, a 429 says it is the global one.
#[tokio::test]
async fn the_global_limit_spares_interaction_callbacks_and_webhooks() {
    // Discord's 50 requests, in a window long enough that a loaded machine cannot let it reset
    // in the middle of the test.
    let limits = RateLimits { global: Limit { requests: 50, per: Duration::from_secs(60) }, ..RateLimits::discord() };
    let standin = StandIn::start_with(limits).await;
    let base = format!("{}/api/v10", standin.base_url());
    for _ in 0..25 {
        assert_eq!(call(reqwest::Method::GET, format!("{base}/users/@me"), Value::Null).await.0, 200);
        assert_eq!(call(reqwest::Method::GET, format!("{base}/gateway/bot"), Value::Null).await.0, 200);
    }
    let (status, headers, body) = call(reqwest::Method::GET, format!("{base}/applications/@me"), Value::Null).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(header(&headers, "x-ratelimit-global"), "true");
    assert_eq!(header(&headers, "x-ratelimit-scope"), "global");
    let retry_after = seconds(&headers, "retry-after");
    assert!(retry_after > 0.0 && retry_after <= 60.0, "{headers:?}");
    assert_eq!(body["global"], true);
    assert!(body["retry_after"].as_f64().is_some_and(|s| s > 0.0 && s <= 60.0), "{body}");
    assert!(standin.rate_limited().iter().all(|r| r.global && r.bucket == "global"));

    // An interaction is answered and its answer edited all the same, with its own bucket's
    // headers.
    let payload = fixtures::slash(&Ctx::en(), "play", "reversi", json!([]));
    let (id, token) = (payload["id"].as_str().unwrap(), payload["token"].as_str().unwrap());
    standin.register_interaction(&payload);
    let answer = json!({"type": 4, "data": {"content": "hello"}});
    let (status, _, _) =
        call(reqwest::Method::POST, format!("{base}/interactions/{id}/{token}/callback"), answer).await;
    assert_eq!(status, 204);
    let original = format!("{base}/webhooks/{}/{token}/messages/@original", StandIn::APP_ID);
    let (status, headers, _) = call(reqwest::Method::PATCH, original, json!({"content": "edited"})).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "x-ratelimit-limit"), "5");
    assert_eq!(header(&headers, "x-ratelimit-remaining"), "4");
    let followup = format!("{base}/webhooks/{}/{token}", StandIn::APP_ID);
    assert_eq!(call(reqwest::Method::POST, followup, json!({"content": "more"})).await.0, 200);
    // Any other route still waits for the global window.
    let (status, _, _) = call(reqwest::Method::GET, format!("{base}/users/@me"), Value::Null).await;
    assert_eq!(status, 429);
    assert_eq!(standin.rate_limited().len(), 2);
}

/// The bot reaches the stand-in as `https://discord.com` over TLS, with serenity's rate limiter
/// on: a bucket it has learnt is full is waited for instead of met with a 429.
#[tokio::test]
async fn serenity_waits_for_a_full_bucket_instead_of_meeting_429() {
    let limits =
        RateLimits { channel_messages: Limit { requests: 2, per: Duration::from_secs(1) }, ..RateLimits::discord() };
    let standin = StandIn::start_with(limits).await;
    let http = standin.http();
    let ctx = Ctx::en().with_channel(43);
    standin.add_channel(&ctx);
    let channel = serenity::all::ChannelId::new(ctx.channel_id);
    let started = std::time::Instant::now();
    for n in 0..5 {
        let message = serenity::all::CreateMessage::new().content(format!("message {n}"));
        channel.send_message(&http, message).await.expect("posted after waiting for room");
    }
    // Five messages at two a second: two windows waited out, and no 429 met.
    assert!(started.elapsed() >= Duration::from_millis(1_900), "{:?}", started.elapsed());
    assert!(standin.rate_limited().is_empty(), "{:?}", standin.rate_limited());
    let posted = standin.all_calls().iter().filter(|c| c.kind == ReplyKind::ChannelMessage { channel_id: 43 }).count();
    assert_eq!(posted, 5);
}
