//! The stand-in itself: what it refuses, as Discord does, and how a test hears of it. The bot's
//! own flows are tested against it in the files beside this one; here it is called directly.

use serde_json::{json, Value};

use crate::support::discord::StandIn;
use crate::support::fixtures::{self, Ctx};

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
