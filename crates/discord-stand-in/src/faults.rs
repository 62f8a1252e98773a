//! Faults a test injects: calls that Discord fails however right they are (an outage, a route
//! refusing everything, a connection cut, an answer that never comes), to see the bot's
//! fallback; or, for a long run, Discord's weather ([`Weather`]): a share of every call failing
//! at random. They are logged apart from the bot's calls, so that a refused-call check
//! ([`super::Exchange::refused`], the test bot's stop) never counts them as the bot's mistakes.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use axum::body::Body;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};

use super::rest::json_resp;
use super::state::Shared;
use super::StandIn;

/// What an injected fault does to a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// Answered with this status and Discord's JSON error body, the call not applied; with a
    /// `Retry-After` header (seconds) when given, as Discord's edge may send with a 503.
    Status { status: u16, retry_after: Option<u32> },
    /// The connection is cut before the answer is whole, the call not applied.
    Reset,
    /// No answer ever comes, the call not applied: the caller's deadline is all that ends it.
    Hang,
    /// The call is applied, and no answer ever comes: the caller cannot know it was.
    AppliedHang,
}

/// Which of the calls a fault matches it meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Calls {
    /// Every one, until healed.
    Every,
    /// Only the nth (from 1), counting the matching calls from when the fault was injected.
    Nth(usize),
}

/// Faults met at random by every call, as a long run meets Discord's bad days: a share of the
/// calls answered 500, 502 or 503 or cut (not applied), and now and then a call that hangs
/// (every second one applied first, so that the caller can never know).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weather {
    /// The share of calls that fail, half with a 5xx and half with a reset connection.
    pub failing: f64,
    /// Every this many calls, one hangs.
    pub hang_every: u64,
    /// The seed of the draws, so that a run can be repeated.
    pub seed: u64,
}

impl Weather {
    /// The soak's and the load's weather (docs/design/bot-reliability.md#when-discord-fails):
    /// 1% of the calls failing, one call in 1,000 hanging.
    pub fn rough(seed: u64) -> Weather {
        Weather { failing: 0.01, hang_every: 1000, seed }
    }
}

/// The weather in force and its draws so far.
struct Storm {
    weather: Weather,
    rng: StdRng,
    /// Calls it has met.
    calls: u64,
    /// Hangs it has sent.
    hangs: u64,
}

impl Storm {
    /// What the weather does to the next call, if anything.
    fn roll(&mut self) -> Option<FaultKind> {
        self.calls += 1;
        if self.weather.hang_every > 0 && self.calls.is_multiple_of(self.weather.hang_every) {
            self.hangs += 1;
            return Some(if self.hangs.is_multiple_of(2) { FaultKind::AppliedHang } else { FaultKind::Hang });
        }
        if !self.rng.gen_bool(self.weather.failing) {
            return None;
        }
        Some(if self.rng.gen_bool(0.5) {
            FaultKind::Status { status: [500, 502, 503][self.rng.gen_range(0..3)], retry_after: None }
        } else {
            FaultKind::Reset
        })
    }
}

/// The faults in force, the calls they met, and the calls sent again after one.
#[derive(Default)]
pub(super) struct Faults {
    /// The faults a test injected, matched in order.
    list: Vec<Fault>,
    weather: Option<Storm>,
    /// The calls that met a fault, in order.
    pub(super) injected: Vec<InjectedFault>,
    /// Fingerprints (method, path, body) of the calls a fault met.
    met: HashSet<u64>,
    /// Calls that were the same as one a fault had met: the bot trying again.
    repeated: usize,
}

/// Calls to fail: `method` and the end of the path.
#[derive(Clone, Debug)]
pub(super) struct Fault {
    pub(super) method: String,
    pub(super) path_suffix: String,
    pub(super) kind: FaultKind,
    pub(super) calls: Calls,
    /// How many matching calls it has met.
    pub(super) seen: usize,
}

impl Fault {
    pub(super) fn new(method: &str, path_suffix: &str, kind: FaultKind, calls: Calls) -> Fault {
        if let FaultKind::Status { status, .. } = kind {
            assert!(
                status >= 400 && status != 429,
                "a fault: {status} is no fault to inject (a 429 is the rate limiter's)"
            );
        }
        Fault { method: method.to_ascii_uppercase(), path_suffix: path_suffix.into(), kind, calls, seen: 0 }
    }
}

/// A call met by an injected fault instead of its route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InjectedFault {
    /// The request's method.
    pub method: String,
    /// The request's path, `/api/v10/...` as the bot sent it.
    pub path: String,
    /// What was done to it.
    pub kind: FaultKind,
    /// The message a call applied without an answer made ([`FaultKind::AppliedHang`]): one
    /// the bot cannot know of.
    pub made: Option<u64>,
}

impl InjectedFault {
    /// The status it was answered with, if an answer came.
    pub fn status(&self) -> Option<u16> {
        match self.kind {
            FaultKind::Status { status, .. } => Some(status),
            _ => None,
        }
    }
}

/// What the REST handler does with a call a fault met.
pub(super) enum Injected {
    /// Answers this instead of the route.
    Answer(Response),
    /// Cuts the connection (answers a body that fails).
    Reset,
    /// Never answers.
    Hang,
    /// Runs the route, then never answers.
    AppliedHang,
}

/// What the first fault that matches the call (`body` its JSON) does to it, if any, else the
/// weather's draw; logged. A call the same as one a fault met is counted as sent again.
pub(super) fn injected(shared: &Arc<Shared>, method: &Method, path: &str, body: &Value) -> Option<Injected> {
    let mut inner = shared.lock();
    let faults = &mut inner.faults;
    let print = fingerprint(method, path, body);
    if faults.met.contains(&print) {
        faults.repeated += 1;
    }
    let mut met = None;
    for f in faults.list.iter_mut().filter(|f| f.method == method.as_str() && path.ends_with(&f.path_suffix)) {
        f.seen += 1;
        if f.calls == Calls::Every || f.calls == Calls::Nth(f.seen) {
            met = Some(f.kind);
            break;
        }
    }
    let kind = met.or_else(|| faults.weather.as_mut().and_then(Storm::roll))?;
    if faults.weather.is_none() {
        // A long run's hundreds of draws would drown its log.
        eprintln!("[stand-in] injected fault: {method} {path} -> {kind:?}");
    }
    faults.met.insert(print);
    faults.injected.push(InjectedFault { method: method.to_string(), path: path.to_string(), kind, made: None });
    Some(match kind {
        FaultKind::Status { status, retry_after } => {
            let mut answer = json_resp(status, error_body(status));
            if let Some(secs) = retry_after {
                answer.headers_mut().insert("retry-after", secs.into());
            }
            Injected::Answer(answer)
        }
        FaultKind::Reset => Injected::Reset,
        FaultKind::Hang => Injected::Hang,
        FaultKind::AppliedHang => Injected::AppliedHang,
    })
}

/// Notes the message `answer` (the route's answer to a call applied without an answer, at
/// `path`) made, if it made one.
pub(super) async fn applied_unanswered(shared: &Arc<Shared>, path: &str, answer: Response) {
    let Ok(bytes) = axum::body::to_bytes(answer.into_body(), usize::MAX).await else { return };
    let made = serde_json::from_slice::<Value>(&bytes).ok().and_then(|m| m["id"].as_str()?.parse().ok());
    let mut inner = shared.lock();
    let hung = inner.faults.injected.iter_mut().rev().find(|f| f.kind == FaultKind::AppliedHang && f.path == path);
    if let Some(hung) = hung.filter(|f| f.made.is_none()) {
        hung.made = made;
    }
}

/// The call's fingerprint: the same method, path and body is the same call sent again.
fn fingerprint(method: &Method, path: &str, body: &Value) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (method.as_str(), path, body.to_string()).hash(&mut h);
    h.finish()
}

/// A response whose body fails at once: the server drops the connection with the answer
/// unfinished, as a reset does.
pub(super) fn reset() -> Response {
    let cut = futures::stream::once(async {
        Err::<axum::body::Bytes, _>(std::io::Error::new(std::io::ErrorKind::ConnectionReset, "injected reset"))
    });
    Response::new(Body::from_stream(cut))
}

/// Discord's JSON error body for a status: its JSON code where Discord has one for the status
/// alone (50035 for 400, 50013 for 403), else 0 with the status in the message, as Discord
/// answers a 401, a 404 route or a 5xx.
fn error_body(status: u16) -> Value {
    let reason = StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Error");
    match status {
        400 => json!({"code": 50035, "message": "Invalid Form Body"}),
        403 => json!({"code": 50013, "message": "Missing Permissions"}),
        _ => json!({"code": 0, "message": format!("{status}: {reason}")}),
    }
}

impl StandIn {
    /// From now on, every call whose method is `method` (`"POST"`) and whose path ends with
    /// `path_suffix` (`"/emojis"`) is answered `status` with Discord's JSON error body, before
    /// its route sees it (the rate limits still apply first). Such calls are logged in
    /// [`Self::injected_faults`], not among the bot's calls: they never fail a refused-call
    /// check. A 429 is the rate limiter's to answer (it needs its headers): use
    /// [`Self::start_with`] for that.
    pub fn fail_calls(&self, method: &str, path_suffix: &str, status: u16) {
        self.inject_fault(method, path_suffix, FaultKind::Status { status, retry_after: None }, Calls::Every);
    }

    /// From now on, the `calls` of `method` whose path ends with `path_suffix` meet `kind`
    /// instead of their route (the rate limits still apply first), logged as
    /// [`Self::fail_calls`] logs them. Faults are matched in the order injected; a call meets
    /// the first that takes it.
    pub fn inject_fault(&self, method: &str, path_suffix: &str, kind: FaultKind, calls: Calls) {
        self.shared.lock().faults.list.push(Fault::new(method, path_suffix, kind, calls));
    }

    /// From now on, every call no injected fault takes meets `weather`'s draws, logged as
    /// [`Self::fail_calls`] logs them (`None`: fair weather again).
    pub fn set_weather(&self, weather: Option<Weather>) {
        self.shared.lock().faults.weather =
            weather.map(|weather| Storm { weather, rng: StdRng::seed_from_u64(weather.seed), calls: 0, hangs: 0 });
    }

    /// Takes every fault of [`Self::fail_calls`] away: calls reach their routes again.
    pub fn heal_calls(&self) {
        self.shared.lock().faults.list.clear();
    }

    /// The calls answered by an injected fault, in order.
    pub fn injected_faults(&self) -> Vec<InjectedFault> {
        self.shared.lock().faults.injected.clone()
    }

    /// How many calls were the same (method, path and body) as an earlier one a fault met: the
    /// bot trying a call again.
    pub fn repeated_calls(&self) -> usize {
        self.shared.lock().faults.repeated
    }

    /// Waits until at least `n` calls were answered by an injected fault; returns them. Panics
    /// after `timeout`.
    pub async fn wait_injected_faults(&self, n: usize, timeout: Duration) -> Vec<InjectedFault> {
        let got =
            self.shared.wait_for(timeout, |i| (i.faults.injected.len() >= n).then(|| i.faults.injected.clone())).await;
        match got {
            Some(faults) => faults,
            None => panic!(
                "stand-in: {} call(s) met an injected fault, not {n}, after {timeout:?}",
                self.injected_faults().len()
            ),
        }
    }
}
