//! What Discord refuses, with Discord's error codes (50035 Invalid Form Body, 50006 empty
//! message, ...): command registrations (names, descriptions, localisations, options, choices),
//! messages (content, embeds, components: a custom emoji must be one of the application's own, a
//! Unicode one fully qualified in Unicode's emoji data), autocomplete choices and modals.

use serde_json::{json, Value};

use super::emojis::AppEmojis;
use super::objects::{cmd_type, id_of, str_field};

/// Discord's limit on text content of a message.
const MAX_CONTENT: usize = 2000;

pub(super) struct ApiError {
    pub(super) status: u16,
    pub(super) code: u64,
    pub(super) message: String,
    /// Discord's `errors` object: per field of the body, `{"_errors": [{"code", "message"}]}`
    /// (serenity reads it into `DiscordJsonError::errors`, where a bot matches its codes).
    pub(super) errors: Option<Value>,
}

pub(super) fn api_err(status: u16, code: u64, message: impl Into<String>) -> ApiError {
    ApiError { status, code, message: message.into(), errors: None }
}

/// 50035 Invalid Form Body naming the field and the error's code, as Discord details it (e.g.
/// `name`, `APPLICATION_EMOJI_NAME_ALREADY_TAKEN`).
pub(super) fn invalid_field(field: &str, code: &str, message: &str) -> ApiError {
    let errors = json!({ field: {"_errors": [{"code": code, "message": message}]} });
    ApiError { errors: Some(errors), ..api_err(400, 50035, format!("Invalid Form Body ({field}: {code})")) }
}

pub(super) fn invalid(detail: impl Into<String>) -> ApiError {
    api_err(400, 50035, format!("Invalid Form Body ({})", detail.into()))
}

// ── command validation ──

/// Locales Discord accepts as keys of `name_localizations` / `description_localizations`.
const LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
];

fn check_name(path: &str, name: Option<&Value>, chat_input: bool) -> Result<(), ApiError> {
    let Some(name) = name.and_then(Value::as_str) else {
        return Err(invalid(format!("{path}.name: required")));
    };
    let n = name.chars().count();
    if !(1..=32).contains(&n) {
        return Err(invalid(format!("{path}.name: {name:?} must be 1-32 characters")));
    }
    if chat_input && !name.chars().all(|c| c == '-' || c == '_' || (c.is_alphanumeric() && !c.is_uppercase())) {
        return Err(invalid(format!("{path}.name: {name:?} must be lowercase letters, digits, '-' or '_'")));
    }
    Ok(())
}

fn check_len(path: &str, v: Option<&Value>, min: usize, max: usize) -> Result<(), ApiError> {
    let s = v.and_then(Value::as_str).unwrap_or_default();
    let n = s.chars().count();
    if n < min || n > max {
        return Err(invalid(format!("{path}: {s:?} must be {min}-{max} characters (is {n})")));
    }
    Ok(())
}

fn check_localizations(path: &str, obj: &Value, key: &str, chat_input: bool, is_name: bool) -> Result<(), ApiError> {
    let Some(map) = obj.get(key).and_then(Value::as_object) else { return Ok(()) };
    for (locale, v) in map {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(invalid(format!(
                "{path}.{key}: {locale:?} is not a valid Discord locale (valid: {LOCALES:?})"
            )));
        }
        if is_name {
            check_name(&format!("{path}.{key}.{locale}"), Some(v), chat_input)?;
        } else {
            check_len(&format!("{path}.{key}.{locale}"), Some(v), 1, 100)?;
        }
    }
    Ok(())
}

pub(super) fn validate_commands(list: &[Value]) -> Result<(), ApiError> {
    if list.len() > 100 {
        return Err(invalid("more than 100 commands"));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, cmd) in list.iter().enumerate() {
        let path = format!("commands[{i}]");
        let ty = cmd_type(cmd);
        let chat = ty == 1;
        check_name(&path, cmd.get("name"), chat)?;
        if !seen.insert((ty, cmd.get("name").and_then(Value::as_str).unwrap_or_default().to_string())) {
            return Err(invalid(format!("{path}.name: duplicate command name")));
        }
        if chat {
            check_len(&format!("{path}.description"), cmd.get("description"), 1, 100)?;
        }
        // Installation contexts: 0 a server, 1 a user's account; interaction contexts: 0 a
        // server, 1 the bot's DM, 2 other DMs and group DMs.
        check_enum_list(&format!("{path}.integration_types"), cmd.get("integration_types"), &[0, 1])?;
        check_enum_list(&format!("{path}.contexts"), cmd.get("contexts"), &[0, 1, 2])?;
        check_localizations(&path, cmd, "name_localizations", chat, true)?;
        check_localizations(&path, cmd, "description_localizations", chat, false)?;
        if let Some(opts) = cmd.get("options").and_then(Value::as_array) {
            validate_options(&format!("{path}.options"), opts, 0)?;
        }
    }
    Ok(())
}

/// A list of enum values (absent or null: Discord's default), each known and none twice.
fn check_enum_list(path: &str, list: Option<&Value>, known: &[u64]) -> Result<(), ApiError> {
    let Some(list) = list.filter(|l| !l.is_null()) else { return Ok(()) };
    let Some(items) = list.as_array() else { return Err(invalid(format!("{path}: must be an array"))) };
    let mut seen = Vec::new();
    for item in items {
        match item.as_u64() {
            Some(v) if known.contains(&v) && !seen.contains(&v) => seen.push(v),
            _ => return Err(invalid(format!("{path}: value {item} is not a valid enum value"))),
        }
    }
    Ok(())
}

fn validate_options(path: &str, opts: &[Value], depth: usize) -> Result<(), ApiError> {
    if opts.len() > 25 {
        return Err(invalid(format!("{path}: more than 25 options")));
    }
    let kinds: Vec<u64> = opts.iter().map(|o| o.get("type").and_then(Value::as_u64).unwrap_or(0)).collect();
    let subs = kinds.iter().filter(|k| **k == 1 || **k == 2).count();
    if subs > 0 && subs != kinds.len() {
        return Err(invalid(format!("{path}: sub-commands cannot be mixed with other options")));
    }
    let mut optional_seen = false;
    let mut names = std::collections::HashSet::new();
    for (j, o) in opts.iter().enumerate() {
        let p = format!("{path}[{j}]");
        let k = kinds[j];
        if !(1..=11).contains(&k) {
            return Err(invalid(format!("{p}.type: invalid option type {k}")));
        }
        check_name(&p, o.get("name"), true)?;
        if !names.insert(o.get("name").and_then(Value::as_str).unwrap_or_default().to_string()) {
            return Err(invalid(format!("{p}.name: duplicate option name")));
        }
        check_len(&format!("{p}.description"), o.get("description"), 1, 100)?;
        check_localizations(&p, o, "name_localizations", true, true)?;
        check_localizations(&p, o, "description_localizations", true, false)?;
        let required = o.get("required").and_then(Value::as_bool).unwrap_or(false);
        if required && optional_seen {
            return Err(invalid(format!("{p}.required: required options must be placed before optional options")));
        }
        optional_seen |= !required && k > 2;
        match k {
            1 | 2 => {
                if k == 2 && depth > 0 || k == 1 && depth > 1 {
                    return Err(invalid(format!("{p}: sub-command nested too deeply")));
                }
                let inner = o.get("options").and_then(Value::as_array).cloned().unwrap_or_default();
                if k == 2 && inner.iter().any(|x| x.get("type").and_then(Value::as_u64) != Some(1)) {
                    return Err(invalid(format!("{p}.options: a sub-command group may only contain sub-commands")));
                }
                validate_options(&format!("{p}.options"), &inner, depth + 1)?;
            }
            _ => {
                let choices = o.get("choices").and_then(Value::as_array).map(Vec::len).unwrap_or(0);
                if choices > 25 {
                    return Err(invalid(format!("{p}.choices: more than 25 choices")));
                }
                if choices > 0 && o.get("autocomplete").and_then(Value::as_bool) == Some(true) {
                    return Err(invalid(format!("{p}.autocomplete: cannot be set with choices")));
                }
                for (c, ch) in o.get("choices").and_then(Value::as_array).into_iter().flatten().enumerate() {
                    check_len(&format!("{p}.choices[{c}].name"), ch.get("name"), 1, 100)?;
                    check_localizations(&format!("{p}.choices[{c}]"), ch, "name_localizations", false, false)?;
                }
            }
        }
    }
    Ok(())
}

// ── message validation ──

/// Checks a message body; `emojis` are the application's own, the only custom emojis its
/// components may show.
pub(super) fn validate_message(m: &Value, n_files: usize, creating: bool, emojis: &AppEmojis) -> Result<(), ApiError> {
    if m.is_null() {
        return if creating { Err(api_err(400, 50006, "Cannot send an empty message")) } else { Ok(()) };
    }
    let content = m.get("content").and_then(Value::as_str).unwrap_or_default();
    let n = content.chars().count();
    if n > MAX_CONTENT {
        return Err(invalid(format!("content: must be {MAX_CONTENT} or fewer in length (is {n})")));
    }
    let embeds = m.get("embeds").and_then(Value::as_array).cloned().unwrap_or_default();
    if embeds.len() > 10 {
        return Err(invalid("embeds: must be 10 or fewer in length"));
    }
    for (i, e) in embeds.iter().enumerate() {
        check_len(&format!("embeds[{i}].title"), e.get("title").or(Some(&json!(""))), 0, 256)?;
        check_len(&format!("embeds[{i}].description"), e.get("description").or(Some(&json!(""))), 0, 4096)?;
        if e.get("fields").and_then(Value::as_array).map(Vec::len).unwrap_or(0) > 25 {
            return Err(invalid(format!("embeds[{i}].fields: must be 25 or fewer in length")));
        }
    }
    let comps = m.get("components").and_then(Value::as_array).cloned().unwrap_or_default();
    validate_components(&comps, emojis)?;
    let has_attachments = m.get("attachments").and_then(Value::as_array).is_some_and(|a| !a.is_empty());
    if creating
        && content.is_empty()
        && embeds.is_empty()
        && comps.is_empty()
        && n_files == 0
        && !has_attachments
        && m.get("poll").is_none()
    {
        return Err(api_err(400, 50006, "Cannot send an empty message"));
    }
    Ok(())
}

fn validate_components(rows: &[Value], emojis: &AppEmojis) -> Result<(), ApiError> {
    if rows.len() > 5 {
        return Err(invalid(format!("components: must be 5 or fewer in length (is {})", rows.len())));
    }
    let mut ids = std::collections::HashSet::new();
    for (r, row) in rows.iter().enumerate() {
        let p = format!("components[{r}]");
        if row.get("type").and_then(Value::as_u64) != Some(1) {
            return Err(invalid(format!("{p}.type: top-level components must be action rows (type 1)")));
        }
        let inner = row.get("components").and_then(Value::as_array).cloned().unwrap_or_default();
        if inner.is_empty() || inner.len() > 5 {
            return Err(invalid(format!("{p}.components: must be 1-5 components (is {})", inner.len())));
        }
        let selects = inner.iter().filter(|c| matches!(c.get("type").and_then(Value::as_u64), Some(3 | 5..=8))).count();
        if selects > 0 && inner.len() > 1 {
            return Err(invalid(format!("{p}.components: a select menu must be alone in its action row")));
        }
        for (i, c) in inner.iter().enumerate() {
            let cp = format!("{p}.components[{i}]");
            let ty = c.get("type").and_then(Value::as_u64).unwrap_or(0);
            let style = c.get("style").and_then(Value::as_u64).unwrap_or(0);
            let link = ty == 2 && (style == 5 || style == 6);
            if !link {
                check_len(&format!("{cp}.custom_id"), c.get("custom_id"), 1, 100)?;
                let id = c.get("custom_id").and_then(Value::as_str).unwrap_or_default().to_string();
                if !ids.insert(id.clone()) {
                    return Err(invalid(format!("{cp}.custom_id: {id:?} is duplicated in this message")));
                }
            }
            match ty {
                2 => {
                    if !(1..=6).contains(&style) {
                        return Err(invalid(format!("{cp}.style: invalid button style {style}")));
                    }
                    if c.get("label").is_some() {
                        check_len(&format!("{cp}.label"), c.get("label"), 0, 80)?;
                    }
                    if c.get("label").is_none() && c.get("emoji").is_none() {
                        return Err(invalid(format!("{cp}: a button needs a label or an emoji")));
                    }
                    if let Some(emoji) = c.get("emoji") {
                        check_emoji(&format!("{cp}.emoji"), emoji, emojis)?;
                    }
                    if c.get("disabled").is_some_and(|d| !d.is_boolean()) {
                        return Err(invalid(format!("{cp}.disabled: must be a boolean")));
                    }
                    // Link buttons carry a url and no custom id; the others a custom id and no url.
                    if link != c.get("url").is_some_and(|u| !u.is_null()) {
                        return Err(invalid(format!("{cp}.url: a link button has a url, no other button does")));
                    }
                }
                3 => {
                    let opts = c.get("options").and_then(Value::as_array).cloned().unwrap_or_default();
                    if opts.is_empty() || opts.len() > 25 {
                        return Err(invalid(format!("{cp}.options: must be 1-25 options (is {})", opts.len())));
                    }
                    let mut values = std::collections::HashSet::new();
                    for (o, opt) in opts.iter().enumerate() {
                        check_len(&format!("{cp}.options[{o}].label"), opt.get("label"), 1, 100)?;
                        check_len(&format!("{cp}.options[{o}].value"), opt.get("value"), 1, 100)?;
                        if opt.get("description").is_some_and(|d| !d.is_null()) {
                            check_len(&format!("{cp}.options[{o}].description"), opt.get("description"), 0, 100)?;
                        }
                        if let Some(emoji) = opt.get("emoji").filter(|e| !e.is_null()) {
                            check_emoji(&format!("{cp}.options[{o}].emoji"), emoji, emojis)?;
                        }
                        if !values.insert(str_field(opt, "value")) {
                            return Err(invalid(format!("{cp}.options[{o}].value: duplicated value")));
                        }
                    }
                    let max = c.get("max_values").and_then(Value::as_u64).unwrap_or(1);
                    let min = c.get("min_values").and_then(Value::as_u64).unwrap_or(1);
                    if max as usize > opts.len() || min > max || max > 25 {
                        return Err(invalid(format!(
                            "{cp}: min_values {min} / max_values {max} invalid for {} options",
                            opts.len()
                        )));
                    }
                }
                5..=8 => {}
                _ => return Err(invalid(format!("{cp}.type: invalid component type {ty} in a message action row"))),
            }
            if c.get("placeholder").is_some_and(|v| !v.is_null()) {
                check_len(&format!("{cp}.placeholder"), c.get("placeholder"), 0, 150)?;
            }
        }
    }
    Ok(())
}

/// A partial emoji: a custom one by id, or a Unicode emoji by itself as its name. A custom emoji
/// must be one the bot may use: here, one of its application's own (the stand-in knows no
/// server's emojis); any other id is Discord's "Invalid emoji". A Unicode emoji must be one of
/// Unicode's emoji data, fully qualified as that data lists it (the `emojis` crate's list: 🏳️
/// with its variation selector, not a bare 🏳 or ↩), which is the list Discord's emoji picker
/// sends; anything else, text included, is "Invalid emoji" too.
fn check_emoji(path: &str, emoji: &Value, emojis: &AppEmojis) -> Result<(), ApiError> {
    if let Some(id) = emoji.get("id").filter(|id| !id.is_null()) {
        return match id_of(Some(id)) {
            Some(id) if emojis.owns(id) => Ok(()),
            _ => Err(invalid_at(
                path,
                "id",
                "BUTTON_COMPONENT_INVALID_EMOJI",
                &format!("Invalid emoji (custom emoji {id} is not one of the application's)"),
            )),
        };
    }
    let name = emoji.get("name").and_then(Value::as_str).unwrap_or_default();
    // `get` also finds an emoji by its unqualified or minimally qualified forms, and answers
    // with the fully qualified one: only that one is what Discord lists.
    if emojis::get(name).is_some_and(|known| known.as_str() == name) {
        return Ok(());
    }
    let why = match emojis::get(name) {
        Some(known) => format!("Invalid emoji {name:?} (not fully qualified: Unicode lists {:?})", known.as_str()),
        None => format!("Invalid emoji {name:?}"),
    };
    Err(invalid_at(path, "name", "BUTTON_COMPONENT_INVALID_EMOJI", &why))
}

/// 50035 Invalid Form Body with Discord's `errors` object for the field at `path`
/// (`components[0].components[2].emoji`) and its `leaf` (`name`): nested by each name and
/// index as Discord nests them, the message naming the field too. (Discord says
/// `BUTTON_COMPONENT_INVALID_EMOJI` for a select option's emoji as well.)
fn invalid_at(path: &str, leaf: &str, code: &str, message: &str) -> ApiError {
    let mut errors = json!({ leaf: {"_errors": [{"code": code, "message": message}]} });
    for key in path.split(['.', '[', ']']).filter(|k| !k.is_empty()).collect::<Vec<_>>().into_iter().rev() {
        errors = json!({ key: errors });
    }
    ApiError { errors: Some(errors), ..invalid(format!("{path}.{leaf}: {message}")) }
}

pub(super) fn validate_choices(data: &Value) -> Result<(), ApiError> {
    let choices = data.get("choices").and_then(Value::as_array).cloned().unwrap_or_default();
    if choices.len() > 25 {
        return Err(invalid(format!("data.choices: must be 25 or fewer in length (is {})", choices.len())));
    }
    for (i, ch) in choices.iter().enumerate() {
        check_len(&format!("data.choices[{i}].name"), ch.get("name"), 1, 100)?;
        match ch.get("value") {
            Some(Value::String(s)) if s.chars().count() > 100 => {
                return Err(invalid(format!("data.choices[{i}].value: must be 100 or fewer in length")))
            }
            Some(Value::String(_) | Value::Number(_)) => {}
            _ => return Err(invalid(format!("data.choices[{i}].value: must be a string or a number"))),
        }
    }
    Ok(())
}

pub(super) fn validate_modal(data: &Value) -> Result<(), ApiError> {
    check_len("data.custom_id", data.get("custom_id"), 1, 100)?;
    check_len("data.title", data.get("title"), 1, 45)?;
    let rows = data.get("components").and_then(Value::as_array).cloned().unwrap_or_default();
    if rows.is_empty() || rows.len() > 5 {
        return Err(invalid("data.components: must be 1-5 action rows"));
    }
    for (r, row) in rows.iter().enumerate() {
        for (i, c) in row.get("components").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let p = format!("data.components[{r}].components[{i}]");
            check_len(&format!("{p}.custom_id"), c.get("custom_id"), 1, 100)?;
            if c.get("type").and_then(Value::as_u64) == Some(4) {
                check_len(&format!("{p}.label"), c.get("label"), 1, 45)?;
            }
        }
    }
    Ok(())
}
