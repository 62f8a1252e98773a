//! Play by touch (docs/design/touch.md): the board of buttons of a message as a client shows it,
//! read back by the tests and benchmarks that tap it.

use serde_json::Value;

/// Every button of a message, row by row.
pub fn buttons_of(message: &Value) -> Vec<Value> {
    let rows = message["components"].as_array().cloned().unwrap_or_default();
    rows.iter()
        .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["type"].as_u64() == Some(2))
        .collect()
}

/// The custom id of the touch button of `message` whose tap is `tap` (`p.f5`, `c.B3`, `x`).
pub fn touch_id(message: &Value, tap: &str) -> Option<String> {
    buttons_of(message)
        .into_iter()
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .find(|id| id.starts_with("t:") && id.rsplit(':').next() == Some(tap))
}

/// The taps of the enabled touch buttons of `message` that do `kind` (`p` plays, `c` chooses).
pub fn touch_taps(message: &Value, kind: &str) -> Vec<String> {
    buttons_of(message)
        .into_iter()
        .filter(|b| b["disabled"].as_bool() != Some(true))
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .filter(|id| id.starts_with("t:"))
        .filter_map(|id| id.rsplit(':').next().and_then(|t| t.strip_prefix(&format!("{kind}."))).map(str::to_string))
        .collect()
}
