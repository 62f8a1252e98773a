//! HTTP interactions mode (`settai serve --http ADDR`): Discord POSTs each interaction to this
//! endpoint instead of sending it over a gateway connection. Nothing is kept between requests
//! (games live in Postgres), so any number of processes can run behind a load balancer.
//!
//! Every request must carry Discord's Ed25519 signature of its timestamp and body, made with
//! the application's key; anything unsigned, forged or older than [`MAX_AGE`] is refused with
//! 401 before it is read. A well-signed request that comes again within that window (a replay)
//! is answered "already done" without being handled twice. The first response is the body of
//! the HTTP answer (JSON only, so a reply with files is acknowledged there and then posted by
//! editing the original response).

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serenity::all::Interaction;
use serenity::http::Http;
use serenity::interactions_endpoint::Verifier;
use tokio::sync::oneshot;

use super::handler::Bot;
use super::readiness::Front;
use super::Connection;
use crate::service::Service;

/// Requests signed longer ago than this (or this far in the future) are refused as replays.
pub const MAX_AGE: Duration = Duration::from_secs(300);

/// The application's public key (64 hex digits, "Public Key" on the developer portal's
/// General Information page) is not a valid Ed25519 key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("DISCORD_PUBLIC_KEY must be the 64 hex digits of the application's public key (developer portal -> General Information)")]
pub struct BadPublicKey;

/// Checks requests against the application's public key.
#[derive(Clone)]
pub struct Signatures(Verifier);

impl Signatures {
    /// From the key as the developer portal shows it.
    pub fn new(public_key_hex: &str) -> Result<Signatures, BadPublicKey> {
        let hex = public_key_hex.trim();
        if hex.len() != 64 || !hex.is_ascii() {
            return Err(BadPublicKey);
        }
        let mut key = [0u8; 32];
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|_| BadPublicKey)?;
        }
        Verifier::try_new(key).map(Signatures).map_err(|_| BadPublicKey)
    }

    /// Whether `body` was signed by Discord at `timestamp` (Unix seconds), not longer ago
    /// than [`MAX_AGE`] before `now`.
    pub fn accepts(&self, signature: &str, timestamp: &str, body: &[u8], now: SystemTime) -> bool {
        let Ok(signed_at) = timestamp.parse::<u64>() else { return false };
        let now = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        now.abs_diff(signed_at) <= MAX_AGE.as_secs() && self.0.verify(signature, timestamp, body).is_ok()
    }
}

/// How many interaction ids are remembered at most (a few MB): far more than one process
/// answers in [`SEEN_FOR`]. Past it the oldest are forgotten first.
pub const MAX_SEEN: usize = 100_000;

/// How long an interaction id is remembered after it arrived: a request is accepted while its
/// signature is at most [`MAX_AGE`] old or ahead, so a copy can come up to twice that later.
pub const SEEN_FOR: Duration = Duration::from_secs(2 * MAX_AGE.as_secs());

/// The interaction ids answered lately, oldest first (bounded by [`MAX_SEEN`] and [`SEEN_FOR`]).
#[derive(Default)]
pub struct AnsweredIds {
    ids: HashSet<u64>,
    order: VecDeque<(Instant, u64)>,
}

impl AnsweredIds {
    /// Records `id` arriving at `now`; false when it was already seen (a replay).
    pub fn first_time(&mut self, id: u64, now: Instant) -> bool {
        while let Some(&(at, old)) = self.order.front() {
            if now.duration_since(at) <= SEEN_FOR && self.order.len() < MAX_SEEN {
                break;
            }
            self.order.pop_front();
            self.ids.remove(&old);
        }
        if !self.ids.insert(id) {
            return false;
        }
        self.order.push_back((now, id));
        true
    }

    /// How many ids are remembered.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

struct Endpoint {
    bot: Arc<Bot>,
    http: Arc<Http>,
    signatures: Signatures,
    seen: Mutex<AnsweredIds>,
}

/// Serves interactions on `listener` until the process stops: registers the commands, pays
/// the bot's turns owed from before a restart, then answers each request.
pub async fn serve(
    listener: tokio::net::TcpListener,
    connection: Connection,
    signatures: Signatures,
    service: Service,
) -> anyhow::Result<()> {
    serve_until(listener, connection, signatures, service, std::future::pending()).await
}

/// [`serve`] until `stop` completes; requests being answered then are finished first. Also
/// answers `GET /healthz` (200 once Discord was reached and while the database answers, 503
/// otherwise) for load balancers and orchestrators.
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    connection: Connection,
    signatures: Signatures,
    service: Service,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let mut stop = Box::pin(stop);
    let (http, interactions) = super::rest_clients(&connection)?;
    let http = Arc::new(http);
    tokio::select! {
        reached = super::reach_discord(&http) => reached?,
        () = &mut stop => return Ok(()),
    }
    // Without a gateway READY the application id must be asked for (commands and webhook
    // edits are addressed by it).
    let app = http.get_current_application_info().await.context("could not reach Discord with DISCORD_TOKEN")?;
    http.set_application_id(app.id);
    let front = Front::http(service.clone());
    let bot =
        Arc::new(Bot::new(service, connection.guild_id, connection.idle_sweep, interactions).watched_as(front.clone()));
    bot.register(&http).await;
    {
        let (bot, http) = (bot.clone(), http.clone());
        // Every process plays owed turns; the version check lets only one of them post each.
        tokio::spawn(async move { bot.on_connected(&http, (0, 1)).await });
    }
    let endpoint = Arc::new(Endpoint { bot, http, signatures, seen: Mutex::default() });
    let app = Router::new()
        .route("/", post(interaction))
        .route("/interactions", post(interaction))
        .route("/healthz", get(healthz))
        .with_state(endpoint);
    tracing::info!(address = %listener.local_addr()?, "answering Discord interactions over HTTP");
    // Ready from here: the listener is bound and its requests are answered.
    front.listening();
    axum::serve(listener, app).with_graceful_shutdown(stop).await.context("the HTTP interactions endpoint stopped")
}

/// `GET /healthz`: ready when the database answers (Discord was reached before the route exists).
async fn healthz(State(endpoint): State<Arc<Endpoint>>) -> Response {
    match endpoint.bot.service().ping().await {
        Ok(()) => (StatusCode::OK, "ok\n").into_response(),
        Err(e) => {
            tracing::warn!("readiness check: {}", crate::report::one_line(&e));
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n").into_response()
        }
    }
}

async fn interaction(State(endpoint): State<Arc<Endpoint>>, headers: HeaderMap, body: Bytes) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let (signature, timestamp) = (header("x-signature-ed25519"), header("x-signature-timestamp"));
    if !endpoint.signatures.accepts(signature, timestamp, &body, SystemTime::now()) {
        tracing::warn!("refused an interaction request with a missing, invalid or stale signature");
        return (StatusCode::UNAUTHORIZED, "invalid request signature").into_response();
    }
    let interaction: Interaction = match serde_json::from_slice(&body) {
        Ok(i) => i,
        Err(e) => {
            tracing::warn!(error = %e, "a signed interaction could not be read");
            return (StatusCode::BAD_REQUEST, "unreadable interaction").into_response();
        }
    };
    if let Interaction::Ping(_) = interaction {
        return Json(serde_json::json!({ "type": 1 })).into_response();
    }
    let first_time =
        endpoint.seen.lock().unwrap_or_else(|e| e.into_inner()).first_time(interaction.id().get(), Instant::now());
    if !first_time {
        tracing::warn!(interaction = %interaction.id(), "a signed interaction came again; not handled twice");
        return Json(already_done(&interaction)).into_response();
    }
    let Some(responder) = endpoint.bot.responder_for(endpoint.http.clone(), &interaction) else {
        return StatusCode::NOT_IMPLEMENTED.into_response();
    };
    let (first, answer) = oneshot::channel::<(serde_json::Value, oneshot::Sender<()>)>();
    let responder = responder.inline(first);
    // The handler outlives this request: after the first response come edits and follow-ups.
    let bot = endpoint.bot.clone();
    tokio::spawn(async move { bot.handle(&responder, &interaction).await });
    match answer.await {
        Ok((response, written)) => written_then_told(&response, written),
        // The handler ended without answering (a request it does not know).
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// The first response as the answer to Discord's request, its body telling `written` once
/// hyper has taken all of it to send: the handler's next calls about the interaction wait for
/// that, so they do not overtake the answer they follow (docs/design/bot-reliability.md).
fn written_then_told(response: &serde_json::Value, written: oneshot::Sender<()>) -> Response {
    let body = match serde_json::to_vec(response) {
        Ok(body) => Bytes::from(body),
        Err(e) => {
            tracing::error!(error = %e, "a first response that does not serialize");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    // Yields the body, then, asked for more, tells and ends.
    let stream = futures_util::stream::unfold((Some(body), Some(written)), |(body, written)| async move {
        match body {
            Some(body) => Some((Ok::<_, std::convert::Infallible>(body), (None, written))),
            None => {
                if let Some(written) = written {
                    let _ = written.send(());
                }
                None
            }
        }
    });
    ([(axum::http::header::CONTENT_TYPE, "application/json")], axum::body::Body::from_stream(stream)).into_response()
}

/// The answer to a replayed interaction: no choices for autocomplete, else a private
/// "already done" (Discord refuses it when the first answer went out, as it should).
fn already_done(interaction: &Interaction) -> serde_json::Value {
    let locale = match interaction {
        Interaction::Command(c) | Interaction::Autocomplete(c) => c.locale.as_str(),
        Interaction::Component(c) => c.locale.as_str(),
        _ => "",
    };
    if let Interaction::Autocomplete(_) = interaction {
        return serde_json::json!({ "type": 8, "data": { "choices": [] } });
    }
    let text = crate::i18n::Msg::AlreadyHandled.text(crate::i18n::Lang::from_locale(locale));
    serde_json::json!({
        "type": 4,
        "data": { "content": text, "flags": 64, "allowed_mentions": { "parse": [], "users": [], "roles": [] } },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interaction_ids_are_remembered_for_the_window_and_no_more_than_the_bound() {
        let mut seen = AnsweredIds::default();
        let t0 = Instant::now();
        assert!(seen.first_time(1, t0));
        assert!(!seen.first_time(1, t0 + SEEN_FOR), "a replay within the window");
        assert!(seen.first_time(2, t0 + SEEN_FOR));
        // Past the window the first id is forgotten (a copy that late has a stale signature).
        assert!(seen.first_time(3, t0 + SEEN_FOR + Duration::from_secs(1)));
        assert_eq!(seen.len(), 2);
        assert!(!seen.first_time(2, t0 + SEEN_FOR + Duration::from_secs(2)));
        // However many arrive at once, memory stays bounded, the oldest forgotten first.
        let later = t0 + 3 * SEEN_FOR;
        for id in 10..10 + MAX_SEEN as u64 + 5 {
            assert!(seen.first_time(id, later));
        }
        assert_eq!(seen.len(), MAX_SEEN);
        assert!(!seen.first_time(10 + MAX_SEEN as u64 + 4, later), "the newest are remembered");
        assert!(seen.first_time(10, later), "the oldest were let go");
    }

    #[test]
    fn public_keys_must_be_64_hex_digits_of_a_valid_key() {
        for bad in ["", "abc", &"g".repeat(64), &"0".repeat(63), &"é".repeat(32)] {
            assert_eq!(Signatures::new(bad).err(), Some(BadPublicKey), "{bad:?}");
        }
        // The Ed25519 base point's encoding is a valid key.
        assert!(Signatures::new("5866666666666666666666666666666666666666666666666666666666666666").is_ok());
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn only_fresh_requests_signed_with_the_applications_key_are_accepted() {
        use ed25519_dalek::Signer as _;
        let key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
        let signatures = Signatures::new(&hex(key.verifying_key().as_bytes())).unwrap();
        let now = SystemTime::now();
        let at = |secs_ago: i64| (now.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64 - secs_ago).to_string();
        let body = br#"{"type":1}"#;
        let sign = |key: &ed25519_dalek::SigningKey, ts: &str, body: &[u8]| {
            hex(&key.sign(&[ts.as_bytes(), body].concat()).to_bytes())
        };
        let ts = at(2);
        assert!(signatures.accepts(&sign(&key, &ts, body), &ts, body, now));
        // A changed body, another timestamp, another key, or no signature at all.
        assert!(!signatures.accepts(&sign(&key, &ts, body), &ts, br#"{"type":2}"#, now));
        assert!(!signatures.accepts(&sign(&key, &ts, body), &at(3), body, now));
        let forger = ed25519_dalek::SigningKey::from_bytes(&[8; 32]);
        assert!(!signatures.accepts(&sign(&forger, &ts, body), &ts, body, now));
        assert!(!signatures.accepts("", &ts, body, now));
        assert!(!signatures.accepts(&sign(&key, "soon", body), "soon", body, now));
        // Well signed but replayed later, or dated in the future.
        for stale in [at(MAX_AGE.as_secs() as i64 + 1), at(-(MAX_AGE.as_secs() as i64) - 1)] {
            assert!(!signatures.accepts(&sign(&key, &stale, body), &stale, body, now), "{stale}");
        }
        let edge = at(MAX_AGE.as_secs() as i64 - 1);
        assert!(signatures.accepts(&sign(&key, &edge, body), &edge, body, now));
    }
}
