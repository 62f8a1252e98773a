//! Faults a test injects: calls that Discord answers with an error however right they are (an
//! outage, a route refusing everything), to see the bot's fallback. They are logged apart from
//! the bot's calls, so that a refused-call check ([`super::Exchange::refused`], the test bot's
//! stop) never counts them as the bot's mistakes.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::json;

use super::rest::json_resp;
use super::state::Shared;

/// Calls to fail: `method` and the end of the path.
#[derive(Clone, Debug)]
pub(super) struct Fault {
    pub(super) method: String,
    pub(super) path_suffix: String,
    pub(super) status: u16,
}

/// A call answered by an injected fault instead of its route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InjectedFault {
    pub method: String,
    /// The request's path, `/api/v10/...` as the bot sent it.
    pub path: String,
    /// The status it was answered with.
    pub status: u16,
}

/// The answer of the first fault that matches the call, if any, logged.
pub(super) fn fault_response(shared: &Arc<Shared>, method: &Method, path: &str) -> Option<Response> {
    let mut inner = shared.lock();
    let fault = inner.faults.iter().find(|f| f.method == method.as_str() && path.ends_with(&f.path_suffix))?.clone();
    eprintln!("[stand-in] injected fault: {method} {path} -> {}", fault.status);
    inner.injected.push(InjectedFault { method: fault.method, path: path.to_string(), status: fault.status });
    Some(json_resp(fault.status, error_body(fault.status)))
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
