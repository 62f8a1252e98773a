//! Faults a test injects: calls that Discord fails however right they are (an outage, a route
//! refusing everything, a connection cut, an answer that never comes), to see the bot's
//! fallback. They are logged apart from the bot's calls, so that a refused-call check
//! ([`super::Exchange::refused`], the test bot's stop) never counts them as the bot's mistakes.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::json;

use super::rest::json_resp;
use super::state::Shared;

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
    pub method: String,
    /// The request's path, `/api/v10/...` as the bot sent it.
    pub path: String,
    /// What was done to it.
    pub kind: FaultKind,
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

/// What the first fault that matches the call does to it, if any, logged.
pub(super) fn injected(shared: &Arc<Shared>, method: &Method, path: &str) -> Option<Injected> {
    let mut inner = shared.lock();
    let mut met = None;
    for f in inner.faults.iter_mut().filter(|f| f.method == method.as_str() && path.ends_with(&f.path_suffix)) {
        f.seen += 1;
        if f.calls == Calls::Every || f.calls == Calls::Nth(f.seen) {
            met = Some(f.kind);
            break;
        }
    }
    let kind = met?;
    eprintln!("[stand-in] injected fault: {method} {path} -> {kind:?}");
    inner.injected.push(InjectedFault { method: method.to_string(), path: path.to_string(), kind });
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
fn error_body(status: u16) -> serde_json::Value {
    let reason = StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Error");
    match status {
        400 => json!({"code": 50035, "message": "Invalid Form Body"}),
        403 => json!({"code": 50013, "message": "Missing Permissions"}),
        _ => json!({"code": 0, "message": format!("{status}: {reason}")}),
    }
}
