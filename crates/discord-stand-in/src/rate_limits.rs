//! Discord's rate limits, as the stand-in applies them to the REST API: per-route buckets keyed
//! by their top-level resource (channel id, or webhook id + token), and the global limit. A
//! request a bucket has room for is answered as usual, with the bucket's headers; one it has no
//! room for is answered 429, as Discord does (docs.discord.com, "Rate Limits"):
//!
//! * every limited response: `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds),
//!   `-Reset-After` (seconds) and `-Bucket` (one string per bucket, shared by the routes that
//!   share it);
//! * a 429: those, `X-RateLimit-Scope: user`, `Retry-After` (whole seconds, rounded up) and the
//!   body `{"message": "You are being rate limited.", "retry_after": SECONDS, "global": false}`;
//! * a 429 of the global limit: `X-RateLimit-Global: true`, `X-RateLimit-Scope: global`,
//!   `Retry-After` and the same body with `"global": true`.
//!
//! * a 429 of the webhook limit a channel's interactions share ([`RateLimits::shared_webhook`]):
//!   the bucket's headers, `X-RateLimit-Scope: shared`, `Retry-After` and the same body.
//!
//! Interaction callbacks and the interaction webhooks (`/webhooks/{application}/{token}/...`)
//! are not bound by the global limit (Discord's docs say so of interaction endpoints). A window
//! opens with a bucket's first request and holds `requests` of them for `per` (Discord's
//! buckets reset that way: `Reset-After` counts down from the first request).
//!
//! Where the numbers come from ([`RateLimits::discord`]): the global limit (50 per second) is
//! documented; Discord documents no per-route number ("should not be hard coded"), so these are
//! the ones bots observe in the headers Discord sends, as library authors reported them.
//! The tests mostly use [`RateLimits::roomy`]: the same rules with ten times the requests per
//! window, so that a test posting a dozen messages does not wait seconds for nothing.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::http::{HeaderMap, HeaderName, HeaderValue, Method};
use axum::response::Response;
use serde_json::json;

use super::rest::json_resp;
use super::StandIn;

/// So many requests per window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// The requests a window allows.
    pub requests: u32,
    /// The window.
    pub per: Duration,
}

impl Limit {
    const fn new(requests: u32, per_ms: u64) -> Limit {
        Limit { requests, per: Duration::from_millis(per_ms) }
    }

    fn times(self, n: u32) -> Limit {
        Limit { requests: self.requests * n, per: self.per }
    }
}

/// The numbers a stand-in limits with (the rules and the answers are always Discord's).
#[derive(Clone, Debug, PartialEq)]
pub struct RateLimits {
    /// All requests but the interactions' own: 50 per second, documented ("Global Rate Limit").
    pub global: Limit,
    /// `POST /channels/{channel}/messages`, per channel: 5 per 5 s, as observed (the headers
    /// bots log: "Limit: 5", waits of up to 5 s; eris, discord.js users).
    pub channel_messages: Limit,
    /// `PATCH /channels/{channel}/messages/{message}`, per channel: 5 per 5 s, as observed.
    pub message_edits: Limit,
    /// `DELETE /channels/{channel}/messages/{message}`, per channel: 5 per 5 s, the limit
    /// observed for the route (eris; its sub-limit for messages younger than 10 s is left out).
    pub message_deletes: Limit,
    /// Each route of an interaction's webhook (`/webhooks/{application}/{token}` and its
    /// messages, per method: follow-ups, the answer's edits, ...), one bucket per interaction
    /// token: 5 per 2 s, as measured and confirmed by Discord's staff (discord-api-docs issue
    /// 2701: "5/2s per interaction", the rate-limit key being the interaction).
    pub interaction_webhooks: Limit,
    /// The limit every interaction of one channel shares on its webhook's follow-ups and edits
    /// (`POST /webhooks/{application}/{token}`, `PATCH .../messages/{message}`), answered 429
    /// with `X-RateLimit-Scope: shared`: reported at about 30 a minute per channel (bots
    /// meeting it in lively channels; Discord documents neither the limit nor its number), so
    /// off (`None`) unless a test or a benchmark turns it on, with [`Self::SHARED_WEBHOOK`] or
    /// a number of its own.
    pub shared_webhook: Option<Limit>,
}

impl RateLimits {
    /// The shared webhook limit as reported: 30 a minute per channel.
    pub const SHARED_WEBHOOK: Limit = Limit::new(30, 60_000);

    /// These limits with the webhook limit a channel's interactions share, at `limit`.
    pub fn with_shared_webhook(self, limit: Limit) -> RateLimits {
        RateLimits { shared_webhook: Some(limit), ..self }
    }

    /// Discord's numbers (see each field for where it comes from).
    pub fn discord() -> RateLimits {
        RateLimits {
            global: Limit::new(50, 1_000),
            channel_messages: Limit::new(5, 5_000),
            message_edits: Limit::new(5, 5_000),
            message_deletes: Limit::new(5, 5_000),
            interaction_webhooks: Limit::new(5, 2_000),
            shared_webhook: None,
        }
    }

    /// Discord's rules with ten times the requests per window: what the tests run with unless
    /// they are about the limits themselves.
    pub fn roomy() -> RateLimits {
        let d = RateLimits::discord();
        RateLimits {
            global: d.global.times(10),
            channel_messages: d.channel_messages.times(10),
            message_edits: d.message_edits.times(10),
            message_deletes: d.message_deletes.times(10),
            interaction_webhooks: d.interaction_webhooks.times(10),
            shared_webhook: None,
        }
    }
}

/// A request the stand-in answered 429.
#[derive(Clone, Debug, PartialEq)]
pub struct RateLimited {
    /// `"METHOD /path"` as requested.
    pub request: String,
    /// The bucket (`X-RateLimit-Bucket`), or `"global"`.
    pub bucket: String,
    /// The top-level resource the bucket was kept for (a channel id, `webhook/token`), if any.
    pub resource: Option<String>,
    /// Whether it was the global limit.
    pub global: bool,
    /// The `retry_after` answered.
    pub retry_after: Duration,
}

/// One bucket's window.
#[derive(Default)]
struct Window {
    used: u32,
    resets_at: Option<Instant>,
}

impl Window {
    /// Takes a request if the window has room: `Ok(remaining)`, or `Err(retry_after)`.
    fn take(&mut self, limit: Limit, now: Instant) -> Result<u32, Duration> {
        if self.resets_at.is_none_or(|at| at <= now) {
            self.used = 0;
            self.resets_at = Some(now + limit.per);
        }
        let left = self.resets_at.map_or(Duration::ZERO, |at| at - now);
        if self.used >= limit.requests {
            return Err(left);
        }
        self.used += 1;
        Ok(limit.requests - self.used)
    }

    fn reset_after(&self, now: Instant) -> Duration {
        self.resets_at.map_or(Duration::ZERO, |at| at.saturating_duration_since(now))
    }
}

/// The stand-in's buckets and the 429s it answered.
pub(super) struct Limiter {
    limits: RateLimits,
    global: Window,
    buckets: HashMap<(&'static str, String), Window>,
    refused: Vec<RateLimited>,
}

/// What a request was admitted with: the headers its answer carries.
pub(super) struct Admitted(HeaderMap);

impl Admitted {
    /// `response` with the bucket's headers.
    pub(super) fn stamp(self, mut response: Response) -> Response {
        response.headers_mut().extend(self.0);
        response
    }
}

impl Limiter {
    pub(super) fn new(limits: RateLimits) -> Limiter {
        Limiter { limits, global: Window::default(), buckets: HashMap::new(), refused: Vec::new() }
    }

    /// The 429s answered so far, in order.
    pub(super) fn refused(&self) -> &[RateLimited] {
        &self.refused
    }

    /// Logs a 429 answered elsewhere (slowmode's, in `channel_rules`).
    pub(super) fn note(&mut self, limited: RateLimited) {
        self.refused.push(limited);
    }

    /// Admits the request (`segs`: its path after `/api/vN`; `channel`: the channel of the
    /// interaction whose webhook it calls, if it does) or answers it 429.
    pub(super) fn admit(
        &mut self,
        method: &Method,
        path: &str,
        segs: &[&str],
        channel: Option<u64>,
    ) -> Result<Admitted, Box<Response>> {
        let now = Instant::now();
        let route = self.route_of(method, segs);
        let request = format!("{method} {path}");
        if !exempt_from_global(segs) {
            if let Err(wait) = self.global.take(self.limits.global, now) {
                return Err(Box::new(self.refuse(
                    request,
                    "global".into(),
                    None,
                    wait,
                    HeaderMap::new(),
                    Scope::Global,
                )));
            }
        }
        if let (Some(limit), Some(channel), Some(bucket)) =
            (self.limits.shared_webhook, channel, shared_route(method, segs))
        {
            let window = self.buckets.entry((bucket, channel.to_string())).or_default();
            if let Err(wait) = window.take(limit, now) {
                let headers = bucket_headers(limit, 0, window.reset_after(now), bucket);
                let resource = Some(channel.to_string());
                return Err(Box::new(self.refuse(request, bucket.into(), resource, wait, headers, Scope::Shared)));
            }
        }
        let Some((bucket, resource, limit)) = route else {
            return Ok(Admitted(HeaderMap::new()));
        };
        let window = self.buckets.entry((bucket, resource.clone())).or_default();
        let taken = window.take(limit, now);
        let reset_after = window.reset_after(now);
        let remaining = taken.unwrap_or(0);
        let headers = bucket_headers(limit, remaining, reset_after, bucket);
        match taken {
            Ok(_) => Ok(Admitted(headers)),
            Err(wait) => Err(Box::new(self.refuse(request, bucket.into(), Some(resource), wait, headers, Scope::User))),
        }
    }

    fn refuse(
        &mut self,
        request: String,
        bucket: String,
        resource: Option<String>,
        retry_after: Duration,
        mut headers: HeaderMap,
        scope: Scope,
    ) -> Response {
        let global = scope == Scope::Global;
        eprintln!("[stand-in] 429 {request} ({bucket}, retry after {retry_after:?})");
        self.refused.push(RateLimited { request, bucket, resource, global, retry_after });
        let secs = retry_after.as_secs_f64();
        // Discord's header is whole seconds, its body to the millisecond.
        set(&mut headers, "retry-after", (secs.ceil() as u64).to_string());
        let scope = match scope {
            Scope::Global => "global",
            Scope::User => "user",
            Scope::Shared => "shared",
        };
        set(&mut headers, "x-ratelimit-scope", scope.into());
        if global {
            set(&mut headers, "x-ratelimit-global", "true".into());
        }
        let body = json!({
            "message": "You are being rate limited.",
            "retry_after": up_to_ms(retry_after),
            "global": global,
        });
        let mut response = json_resp(429, body);
        response.headers_mut().extend(headers);
        response
    }

    /// The bucket a request falls in: its name, its top-level resource and its limit.
    fn route_of(&self, method: &Method, segs: &[&str]) -> Option<(&'static str, String, Limit)> {
        let l = &self.limits;
        let app = StandIn::APP_ID.to_string();
        Some(match (method.as_str(), segs) {
            ("POST", ["channels", c, "messages"]) => ("channel-messages", c.to_string(), l.channel_messages),
            ("PATCH", ["channels", c, "messages", _]) => ("channel-message-edits", c.to_string(), l.message_edits),
            ("DELETE", ["channels", c, "messages", _]) => ("channel-message-deletes", c.to_string(), l.message_deletes),
            (m, ["webhooks", a, token, rest @ ..]) if *a == app => {
                let bucket = match (m, rest) {
                    ("POST", []) => "interaction-followups",
                    ("GET", ["messages", _]) => "interaction-message-reads",
                    ("PATCH", ["messages", _]) => "interaction-message-edits",
                    ("DELETE", ["messages", _]) => "interaction-message-deletes",
                    _ => "interaction-webhook",
                };
                (bucket, format!("{a}/{token}"), l.interaction_webhooks)
            }
            _ => return None,
        })
    }
}

/// Whom a limit is kept for (`X-RateLimit-Scope`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// The bot's own: the global limit.
    Global,
    /// The bot's own: a route's bucket.
    User,
    /// A resource's, shared with others: the webhook limit of a channel's interactions.
    Shared,
}

/// The bucket of the webhook limit a channel's interactions share, for the routes it counts:
/// an interaction's follow-ups and the edits of its messages.
fn shared_route(method: &Method, segs: &[&str]) -> Option<&'static str> {
    let app = StandIn::APP_ID.to_string();
    match (method.as_str(), segs) {
        ("POST", ["webhooks", a, _]) | ("PATCH", ["webhooks", a, _, "messages", _]) if *a == app => {
            Some("shared-webhook")
        }
        _ => None,
    }
}

/// Interaction callbacks and interaction webhooks are not bound by the global limit.
fn exempt_from_global(segs: &[&str]) -> bool {
    let app = StandIn::APP_ID.to_string();
    matches!(segs, ["interactions", _, _, "callback"]) || matches!(segs, ["webhooks", a, _, ..] if *a == app)
}

fn bucket_headers(limit: Limit, remaining: u32, reset_after: Duration, bucket: &str) -> HeaderMap {
    let reset = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default() + reset_after;
    let mut headers = HeaderMap::new();
    set(&mut headers, "x-ratelimit-limit", limit.requests.to_string());
    set(&mut headers, "x-ratelimit-remaining", remaining.to_string());
    // Rounded up to the millisecond: a client waiting that long finds the window reset.
    set(&mut headers, "x-ratelimit-reset", format!("{:.3}", up_to_ms(reset)));
    set(&mut headers, "x-ratelimit-reset-after", format!("{:.3}", up_to_ms(reset_after)));
    set(&mut headers, "x-ratelimit-bucket", bucket.into());
    headers
}

fn up_to_ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0).ceil() / 1000.0
}

fn set(headers: &mut HeaderMap, name: &'static str, value: String) {
    let value = HeaderValue::from_str(&value).expect("a header value of digits and letters");
    headers.insert(HeaderName::from_static(name), value);
}
