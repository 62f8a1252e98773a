//! The application's own emojis in the stand-in, called directly: created, listed, read,
//! renamed and deleted as Discord does (and through serenity, as the bot calls them), each of
//! Discord's refusals with its status and code, and a button that shows a custom emoji the
//! application does not have refused (50035 Invalid emoji).

use serde_json::{json, Value};
use serenity::all::{CreateAttachment, EmojiId};

use crate::stand_in::{call, delete, get, patch, post, refusal};
use crate::support::discord::StandIn;
use crate::support::fixtures::{self, Ctx};

/// A small PNG (`n` pixels square).
fn png(n: u32) -> Vec<u8> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    image::RgbaImage::from_pixel(n, n, image::Rgba([250, 200, 80, 255]))
        .write_to(&mut bytes, image::ImageFormat::Png)
        .unwrap();
    bytes.into_inner()
}

/// `bytes` as the data URI of an emoji's image (serenity's, which says PNG).
fn data_uri(bytes: &[u8]) -> String {
    CreateAttachment::bytes(bytes.to_vec(), "emoji.png").to_base64()
}

fn emojis_path() -> String {
    format!("/applications/{}/emojis", StandIn::APP_ID)
}

/// Created through serenity as the bot does, an emoji is listed, read and kept with its
/// image, uploaded by the bot user; renamed and deleted as Discord does; an id the application
/// does not have is Unknown Emoji (10014).
#[tokio::test]
async fn an_application_emoji_is_kept_with_its_image() {
    let standin = StandIn::start().await;
    let http = standin.http();
    http.set_application_id(StandIn::APP_ID.into());
    let image = png(8);
    let made = http.create_application_emoji(&json!({"name": "lion_up", "image": data_uri(&image)})).await.unwrap();
    assert_eq!(made.name, "lion_up");
    assert_eq!(made.user.as_ref().map(|u| u.id.get()), Some(StandIn::BOT_USER_ID), "uploaded by the bot user");
    let listed = http.get_application_emojis().await.unwrap();
    assert_eq!(listed.iter().map(|e| (e.id, e.name.as_str())).collect::<Vec<_>>(), [(made.id, "lion_up")]);
    assert_eq!(http.get_application_emoji(made.id).await.unwrap().name, "lion_up");
    assert_eq!(standin.application_emojis(), [(made.id.get(), "lion_up".to_string(), image.clone())]);
    assert_eq!(standin.application_emoji_image(made.id.get()), Some(image));
    assert_eq!(standin.application_emoji_creates(), 1);

    let renamed = http.edit_application_emoji(made.id, &json!({"name": "lion_turned"})).await.unwrap();
    assert_eq!(renamed.name, "lion_turned");
    assert_eq!(refusal(http.get_application_emoji(EmojiId::new(made.id.get() + 1)).await), (404, 10014));
    assert_eq!(standin.application_emoji_deletes(), 0);
    http.delete_application_emoji(made.id).await.unwrap();
    assert_eq!(standin.application_emoji_deletes(), 1);
    assert!(http.get_application_emojis().await.unwrap().is_empty());
    let path = format!("{}/{}", emojis_path(), made.id);
    assert_eq!(call(&standin, delete(), &path, Value::Null).await.1, Some(10014));
    assert_eq!(call(&standin, patch(), &path, json!({"name": "again"})).await.1, Some(10014));
}

/// Each create Discord refuses, with its answer: the name (2-32 letters, digits or
/// underscores; one the application already has: `APPLICATION_EMOJI_NAME_ALREADY_TAKEN`, which
/// serenity hands the bot among the error's details), the image (a data URI of PNG, JPEG, GIF,
/// WebP or AVIF bytes, at most 256 KiB), another application's id, and the 2,001st emoji.
#[tokio::test]
async fn creating_an_emoji_is_refused_as_discord_refuses_it() {
    let standin = StandIn::start().await;
    let image = data_uri(&png(4));
    let path = emojis_path();
    let create = |name: Value, image: Value| json!({"name": name, "image": image});
    let refused = |answer: (u16, Option<u64>, Value)| {
        let field = answer.2["errors"].as_object().and_then(|e| e.keys().next().cloned()).unwrap_or_default();
        let detail = answer.2.pointer(&format!("/errors/{field}/_errors/0/code")).and_then(Value::as_str);
        (answer.0, answer.1, field, detail.unwrap_or_default().to_string())
    };
    let field_error = |field: &str, code: &str| (400, Some(50035), field.to_string(), code.to_string());

    // Names.
    for (name, code) in [
        (json!("a"), "BASE_TYPE_BAD_LENGTH"),
        (json!("x".repeat(33)), "BASE_TYPE_BAD_LENGTH"),
        (json!("lion-up"), "STRING_TYPE_REGEX"),
        (json!("ライオン"), "STRING_TYPE_REGEX"),
        (json!("lion up"), "STRING_TYPE_REGEX"),
        (Value::Null, "BASE_TYPE_REQUIRED"),
    ] {
        let answer = call(&standin, post(), &path, create(name.clone(), json!(image))).await;
        assert_eq!(refused(answer), field_error("name", code), "{name}");
    }
    assert_eq!(call(&standin, post(), &path, create(json!("ok"), json!(image))).await.0, 201);
    assert_eq!(call(&standin, post(), &path, create(json!("x".repeat(32)), json!(image))).await.0, 201);
    // A name taken, as serenity hands it to the bot.
    let http = standin.http();
    http.set_application_id(StandIn::APP_ID.into());
    match http.create_application_emoji(&create(json!("ok"), json!(image))).await {
        Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r))) => {
            assert_eq!((r.status_code.as_u16(), r.error.code), (400, 50035));
            assert_eq!(r.error.errors[0].code, "APPLICATION_EMOJI_NAME_ALREADY_TAKEN");
            assert_eq!(r.error.errors[0].path, "name");
        }
        other => panic!("expected the name refused as taken, got {other:?}"),
    }

    // Images.
    let png_bytes = png(4);
    for image in [
        json!(null),
        json!("https://example.com/lion.png"),
        json!(format!("data:image/svg+xml;base64,{}", &data_uri(&png_bytes)[22..])),
        json!(format!("data:image/jpeg;base64,{}", &data_uri(&png_bytes)[22..])),
        json!("data:image/png;base64,not base64!"),
        json!(data_uri(b"GIF89a, not a png")),
    ] {
        let answer = call(&standin, post(), &path, create(json!("pic"), image.clone())).await;
        assert_eq!(refused(answer), field_error("image", "IMAGE_INVALID"), "{image}");
    }
    let gif = format!("data:image/gif;base64,{}", &data_uri(b"GIF89a\x01\x00\x01\x00")[22..]);
    let (status, _, made) = call(&standin, post(), &path, create(json!("moving"), json!(gif))).await;
    assert_eq!((status, made["animated"].as_bool()), (201, Some(true)));
    let mut big = png_bytes.clone();
    big.resize(256 * 1024, 0);
    assert_eq!(call(&standin, post(), &path, create(json!("big_ok"), json!(data_uri(&big)))).await.0, 201);
    big.push(0);
    let answer = call(&standin, post(), &path, create(json!("too_big"), json!(data_uri(&big)))).await;
    assert_eq!((answer.0, answer.1), (400, Some(0)), "past 256 KiB: no JSON code, as the docs say");

    // Another application's emojis.
    let other = format!("/applications/{}/emojis", StandIn::APP_ID + 1);
    assert_eq!(call(&standin, get(), &other, Value::Null).await.1, Some(20012));
    assert_eq!(call(&standin, post(), &other, create(json!("lion"), json!(image))).await.1, Some(20012));

    // 2,000 at most.
    for n in standin.application_emojis().len()..2000 {
        standin.add_application_emoji(&format!("e{n}"), &png_bytes);
    }
    let answer = call(&standin, post(), &path, create(json!("one_more"), json!(image))).await;
    assert_eq!((answer.0, answer.1), (400, Some(30008)));
    assert_eq!(standin.application_emojis().len(), 2000);
    assert_eq!(standin.application_emoji_creates(), 20, "every create asked, refused or not");
}

/// A button may show a custom emoji only if the application has it: any other id is Discord's
/// 50035 Invalid emoji; the same button with the application's own emoji is taken.
#[tokio::test]
async fn a_button_shows_only_the_applications_own_custom_emojis() {
    let standin = StandIn::start().await;
    let ours = standin.add_application_emoji("lion_up", &png(4));
    let button = |id: u64| {
        json!({"type": 4, "data": {"content": "your move", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "custom_id": "t:1:0:c.B4", "emoji": {"id": id.to_string(), "name": "lion_up"}}
        ]}]}})
    };
    let ctx = Ctx::en();
    let payload = fixtures::slash(&ctx, "play", "doubutsu", json!([]));
    standin.register_interaction(&payload);
    let (id, token) = (payload["id"].as_str().unwrap().to_string(), fixtures::token(&payload));
    let callback = format!("/interactions/{id}/{token}/callback");
    let (status, code, body) = call(&standin, post(), &callback, button(ours + 1)).await;
    assert_eq!((status, code), (400, Some(50035)));
    assert!(body["message"].as_str().unwrap().contains("Invalid emoji"), "{body}");
    assert_eq!(call(&standin, post(), &callback, button(ours)).await.0, 204);
    let shown = standin.original_message(&token).unwrap();
    assert_eq!(shown.pointer("/components/0/components/0/emoji/id"), Some(&json!(ours.to_string())));
}

/// A Unicode emoji on a button or a menu option must be one Unicode's emoji data lists, fully
/// qualified as it lists it (Discord's own list): a bare 🏳, ↩ or ⏭ without its variation
/// selector, or text, is refused with 50035 and Discord's error at the field; 🏳️ is taken.
#[tokio::test]
async fn a_unicode_emoji_must_be_fully_qualified() {
    let standin = StandIn::start().await;
    let button = |emoji: &str| {
        json!([{"type": 1, "components": [
            {"type": 2, "style": 2, "custom_id": "rs:1", "emoji": {"name": emoji}}
        ]}])
    };
    let option = |emoji: &str| {
        json!([{"type": 1, "components": [{"type": 3, "custom_id": "mv:1", "options": [
            {"label": "pass", "value": "pass", "emoji": {"name": emoji}}
        ]}]}])
    };
    let ctx = Ctx::en();
    let answer = |components: Value| {
        let payload = fixtures::slash(&ctx, "play", "reversi", json!([]));
        standin.register_interaction(&payload);
        let path = format!("/interactions/{}/{}/callback", payload["id"].as_str().unwrap(), fixtures::token(&payload));
        (path, json!({"type": 4, "data": {"content": "x", "components": components}}))
    };
    let refused = [
        ("a bare white flag", button("\u{1f3f3}"), "/components/0/components/0/emoji/name"),
        ("a bare arrow", button("\u{21a9}"), "/components/0/components/0/emoji/name"),
        ("a bare pass on an option", option("\u{23ed}"), "/components/0/components/0/options/0/emoji/name"),
        ("text", button("B3"), "/components/0/components/0/emoji/name"),
        ("two emoji", button("🦁🐥"), "/components/0/components/0/emoji/name"),
    ];
    for (what, components, field) in refused {
        let (path, body) = answer(components);
        let (status, code, body) = call(&standin, post(), &path, body).await;
        assert_eq!((status, code), (400, Some(50035)), "{what}: {body}");
        let error = body["errors"].pointer(&format!("{field}/_errors/0")).unwrap_or_else(|| panic!("{what}: {body}"));
        assert_eq!(error["code"], "BUTTON_COMPONENT_INVALID_EMOJI", "{what}: {body}");
    }
    for (what, components) in [
        ("a white flag", button("\u{1f3f3}\u{fe0f}")),
        ("an arrow", button("\u{21a9}\u{fe0f}")),
        ("a pass on an option", option("\u{23ed}\u{fe0f}")),
        ("an emoji that needs no selector", button("🦁")),
    ] {
        let (path, body) = answer(components);
        assert_eq!(call(&standin, post(), &path, body).await.0, 204, "{what}");
    }
}
