//! What the tests look at: each call the bot made ([`Reply`], [`ReplyKind`]), everything it did
//! for one interaction ([`Exchange`]), an exchange that did not finish ([`Incomplete`]), and an
//! interaction signed for an HTTP endpoint ([`Signed`]).

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::objects::{flatten_components, str_field, value_string};

/// What kind of REST call the bot made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyKind {
    /// `POST /interactions/{id}/{token}/callback`; `type_` is the interaction response type
    /// (4 message, 5 deferred message, 6 deferred update, 7 update message, 8 autocomplete,
    /// 9 modal).
    Callback { type_: u8 },
    /// `PATCH /webhooks/{app}/{token}/messages/@original`
    EditOriginal,
    /// `DELETE /webhooks/{app}/{token}/messages/@original`
    DeleteOriginal,
    /// `POST /webhooks/{app}/{token}`
    Followup,
    /// `PATCH /webhooks/{app}/{token}/messages/{id}` (the id is in [`Reply::message_id`])
    EditFollowup,
    /// `DELETE /webhooks/{app}/{token}/messages/{id}` (the id is in [`Reply::message_id`])
    DeleteFollowup,
    /// `POST /channels/{channel_id}/messages` (not tied to an interaction token)
    ChannelMessage { channel_id: u64 },
    /// `PATCH /channels/{channel_id}/messages/{message_id}`
    EditChannelMessage { channel_id: u64, message_id: u64 },
    /// `DELETE /channels/{channel_id}/messages/{message_id}`
    DeleteChannelMessage { channel_id: u64, message_id: u64 },
    /// `PATCH /channels/{channel_id}` (a thread unarchived, say)
    ModifyChannel { channel_id: u64 },
    /// `GET /applications/{app}/emojis`
    ListApplicationEmojis,
    /// `GET /applications/{app}/emojis/{emoji_id}`
    GetApplicationEmoji { emoji_id: u64 },
    /// `POST /applications/{app}/emojis` (the body holds the name and the image's data URI)
    CreateApplicationEmoji,
    /// `PATCH /applications/{app}/emojis/{emoji_id}`
    EditApplicationEmoji { emoji_id: u64 },
    /// `DELETE /applications/{app}/emojis/{emoji_id}`
    DeleteApplicationEmoji { emoji_id: u64 },
    /// Any other call the stand-in refused (only refusals are recorded so): a fetch, typing,
    /// opening a DM, registering commands, an unknown route, a wrong token, an unreadable body.
    Other { method: String, path: String },
}

/// One REST call the bot made, as the stand-in received and answered it.
#[derive(Clone, Debug)]
pub struct Reply {
    /// What the call was, by its route.
    pub kind: ReplyKind,
    /// The JSON body, or the `payload_json` part of a multipart body (`Value::Null` if none).
    pub json: Value,
    /// Uploaded files `(filename, bytes)`, in `files[n]` order.
    pub files: Vec<(String, Vec<u8>)>,
    /// HTTP status the stand-in answered (2xx = accepted).
    pub status: u16,
    /// Why the stand-in refused the call (Discord-like error), if it did.
    pub error: Option<String>,
    /// The interaction token the call was made with (None for channel messages).
    pub token: Option<String>,
    /// The message created / edited / deleted by this call, if any.
    pub message_id: Option<u64>,
    /// Position in the stand-in's global call log (see [`StandIn::cursor`](crate::StandIn::cursor)).
    pub seq: u64,
    /// Time since the interaction was dispatched (or since the stand-in started, for calls not
    /// tied to an interaction).
    pub after: Duration,
}

impl Reply {
    /// Whether the stand-in accepted the call.
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The message-like part of the body: `data` for callbacks, the body itself otherwise.
    pub fn message_json(&self) -> &Value {
        match self.kind {
            ReplyKind::Callback { .. } => self.json.get("data").unwrap_or(&Value::Null),
            _ => &self.json,
        }
    }

    /// `content` of this call, if the call set it.
    pub fn content(&self) -> Option<&str> {
        self.message_json().get("content").and_then(Value::as_str)
    }

    /// `flags` of this call (0 if absent).
    pub fn flags(&self) -> u64 {
        self.message_json().get("flags").and_then(Value::as_u64).unwrap_or(0)
    }

    /// Whether this call creates or changes a visible message.
    pub fn is_message(&self) -> bool {
        matches!(
            self.kind,
            ReplyKind::Callback { type_: 4 | 7 }
                | ReplyKind::EditOriginal
                | ReplyKind::Followup
                | ReplyKind::EditFollowup
                | ReplyKind::ChannelMessage { .. }
                | ReplyKind::EditChannelMessage { .. }
        )
    }

    /// Top-level components (action rows) this call set, if it set them.
    pub fn components(&self) -> Option<Vec<Value>> {
        self.message_json().get("components").and_then(Value::as_array).cloned()
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {:?} after {:?} -> {}", self.seq, self.kind, self.after, self.status)?;
        if let Some(e) = &self.error {
            write!(f, " REFUSED: {e}")?;
        }
        let mut body = self.json.to_string();
        if body.len() > 1500 {
            let mut cut = 1500;
            while !body.is_char_boundary(cut) {
                cut -= 1;
            }
            body.truncate(cut);
            body.push('…');
        }
        write!(f, "\n      body: {body}")?;
        for (name, bytes) in &self.files {
            write!(f, "\n      file: {name} ({} bytes)", bytes.len())?;
        }
        Ok(())
    }
}

/// Everything the bot did in reply to one interaction, in order.
#[derive(Clone, Debug)]
pub struct Exchange {
    /// The interaction's token.
    pub token: String,
    /// The interaction's id.
    pub interaction_id: u64,
    /// The bot's calls for it, in order.
    pub calls: Vec<Reply>,
    /// State of the `@original` response message at the end of the exchange, as the stand-in
    /// keeps it (edits merged, attachments with ids/urls), if there is one.
    pub original: Option<Value>,
}

impl Exchange {
    fn ok_calls(&self) -> impl Iterator<Item = &Reply> {
        self.calls.iter().filter(|c| c.ok())
    }

    /// Whether the bot has answered: a call that shows the player its answer, i.e. a message
    /// (callback 4, or 7 updating the component's message), autocomplete choices (8) or a modal
    /// (9); after a deferral (5/6), an edit or a follow-up that carries text, or an edit that
    /// gives the message new components (a board of buttons changed in place). Taking the
    /// buttons off the old board (an edit that empties them) or withdrawing a public
    /// "thinking…" (a private follow-up comes next) is not an answer yet.
    pub fn answered(&self) -> bool {
        let mut deferred = false;
        for c in self.ok_calls() {
            match c.kind {
                // A board frozen in place while the bot answers the move tapped on it (every
                // button disabled) shows the tap at once; the answer is the board that follows.
                ReplyKind::Callback { type_: 7 } if c.components().is_some_and(|rows| all_disabled(&rows)) => {
                    deferred = true
                }
                ReplyKind::Callback { type_: 4 | 7 | 8 | 9 } => return true,
                ReplyKind::Callback { type_: 5 | 6 } => deferred = true,
                ReplyKind::EditOriginal | ReplyKind::Followup | ReplyKind::EditFollowup
                    if deferred && c.content().is_some() =>
                {
                    return true
                }
                // A component's message changed in place after its acknowledgement (an animal
                // chosen on a board of buttons, when the answer came late).
                ReplyKind::EditOriginal
                    if deferred && c.components().is_some_and(|rows| !rows.is_empty() && !all_disabled(&rows)) =>
                {
                    return true
                }
                _ => {}
            }
        }
        false
    }

    /// Type of the (first accepted) interaction callback, if any.
    pub fn callback_type(&self) -> Option<u8> {
        self.ok_calls().find_map(|c| match c.kind {
            ReplyKind::Callback { type_ } => Some(type_),
            _ => None,
        })
    }

    /// Whether the bot deferred (callback type 5 or 6).
    pub fn deferred(&self) -> bool {
        matches!(self.callback_type(), Some(5 | 6))
    }

    /// The call that carries the last visible text (the last accepted message call with a
    /// `content` field).
    pub fn text_call(&self) -> Option<&Reply> {
        self.ok_calls().filter(|c| c.is_message() && c.content().is_some()).last()
    }

    /// Last visible text ("" if the bot sent none).
    pub fn content(&self) -> String {
        self.text_call().and_then(Reply::content).unwrap_or_default().to_string()
    }

    /// Every text the bot showed, in order (callback, edits, follow-ups).
    pub fn contents(&self) -> Vec<String> {
        self.ok_calls().filter(|c| c.is_message()).filter_map(|c| c.content().map(str::to_string)).collect()
    }

    /// Whether the text is only visible to the user: flags & 64 on the response that carries the
    /// text; for an edit of the original response, on the callback that created it (a deferral
    /// decides ephemerality).
    pub fn is_ephemeral(&self) -> bool {
        let Some(call) = self.text_call().or_else(|| self.ok_calls().find(|c| c.is_message())) else {
            // Only a deferral: ephemeral if the deferral was.
            return self
                .ok_calls()
                .find(|c| matches!(c.kind, ReplyKind::Callback { type_: 5 }))
                .is_some_and(|c| c.flags() & 64 != 0);
        };
        let deferral = self.ok_calls().find(|c| matches!(c.kind, ReplyKind::Callback { type_: 5 }));
        match call.kind {
            // The first follow-up after a deferral takes the "thinking…" message's place, and
            // its visibility.
            ReplyKind::Followup
                if deferral.is_some_and(|d| d.message_id.is_some() && d.message_id == call.message_id) =>
            {
                deferral.is_some_and(|d| d.flags() & 64 != 0)
            }
            ReplyKind::EditOriginal => self
                .ok_calls()
                .find(|c| matches!(c.kind, ReplyKind::Callback { type_: 4 | 5 }))
                .is_some_and(|c| c.flags() & 64 != 0),
            ReplyKind::Callback { type_: 7 } => false,
            _ => call.flags() & 64 != 0,
        }
    }

    /// All files uploaded during the exchange, in order.
    pub fn files(&self) -> Vec<&(String, Vec<u8>)> {
        self.ok_calls().flat_map(|c| c.files.iter()).collect()
    }

    /// Bytes of the first uploaded file whose name ends with `suffix` (e.g. ".png").
    pub fn file(&self, suffix: &str) -> Option<&[u8]> {
        self.files().into_iter().find(|(n, _)| n.ends_with(suffix)).map(|(_, b)| b.as_slice())
    }

    /// Top-level components (action rows) of the message carrying the text ([`Self::text_call`]),
    /// else the last set during the exchange (taking the menu off an old board after posting the
    /// new one does not hide the new board's menu).
    pub fn components(&self) -> Vec<Value> {
        self.text_call().and_then(Reply::components).unwrap_or_else(|| {
            self.ok_calls().filter(|c| c.is_message()).filter_map(Reply::components).last().unwrap_or_default()
        })
    }

    /// The components inside the action rows of [`Self::components`], flattened.
    pub fn component_list(&self) -> Vec<Value> {
        flatten_components(&self.components())
    }

    /// `custom_id`s of [`Self::component_list`].
    pub fn custom_ids(&self) -> Vec<String> {
        self.component_list()
            .iter()
            .filter_map(|c| c.get("custom_id").and_then(Value::as_str).map(str::to_string))
            .collect()
    }

    /// The component with this `custom_id`.
    pub fn component(&self, custom_id: &str) -> Option<Value> {
        self.component_list().into_iter().find(|c| c.get("custom_id").and_then(Value::as_str) == Some(custom_id))
    }

    /// `(label, value)` of the options of the select menu with this `custom_id`.
    pub fn select_options(&self, custom_id: &str) -> Vec<(String, String)> {
        let Some(menu) = self.component(custom_id) else { return vec![] };
        menu.get("options")
            .and_then(Value::as_array)
            .map(|opts| {
                opts.iter()
                    .map(|o| (str_field(o, "label"), value_string(o.get("value").unwrap_or(&Value::Null))))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Embeds last set during the exchange.
    pub fn embeds(&self) -> Vec<Value> {
        self.ok_calls()
            .filter(|c| c.is_message())
            .filter_map(|c| c.message_json().get("embeds").and_then(Value::as_array).cloned())
            .last()
            .unwrap_or_default()
    }

    /// `(name, value)` of the autocomplete choices (callback type 8); values rendered as strings.
    pub fn autocomplete_choices(&self) -> Vec<(String, String)> {
        self.ok_calls()
            .filter(|c| c.kind == ReplyKind::Callback { type_: 8 })
            .filter_map(|c| c.json.pointer("/data/choices").and_then(Value::as_array))
            .last()
            .map(|choices| {
                choices
                    .iter()
                    .map(|ch| (str_field(ch, "name"), value_string(ch.get("value").unwrap_or(&Value::Null))))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The modal the bot opened (callback type 9), if any: `data` of the callback.
    pub fn modal(&self) -> Option<Value> {
        self.ok_calls().find(|c| c.kind == ReplyKind::Callback { type_: 9 }).and_then(|c| c.json.get("data").cloned())
    }

    /// Follow-up messages (POST /webhooks/{app}/{token}).
    pub fn followups(&self) -> Vec<&Reply> {
        self.ok_calls().filter(|c| c.kind == ReplyKind::Followup).collect()
    }

    /// Id of the message carrying the text (the `@original` response, a follow-up, or the updated
    /// component message), e.g. to click on it with `fixtures::select(.., message_id)`.
    pub fn message_id(&self) -> Option<u64> {
        self.text_call().and_then(|c| c.message_id).or_else(|| self.ok_calls().filter_map(|c| c.message_id).last())
    }

    /// Calls the stand-in refused.
    pub fn refused(&self) -> Vec<&Reply> {
        self.calls.iter().filter(|c| !c.ok()).collect()
    }
}

/// Whether every component of `rows` is disabled (and there is one): a board frozen while the
/// bot answers.
pub fn all_disabled(rows: &[Value]) -> bool {
    let components = flatten_components(rows);
    !components.is_empty() && components.iter().all(|c| c.get("disabled").and_then(Value::as_bool) == Some(true))
}

impl fmt::Display for Exchange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "exchange for interaction {} (token {}): {} call(s)",
            self.interaction_id,
            self.token,
            self.calls.len()
        )?;
        for c in &self.calls {
            writeln!(f, "    {c}")?;
        }
        Ok(())
    }
}

/// [`StandIn::try_interact`](crate::StandIn::try_interact) did not see the bot finish.
#[derive(Clone, Debug)]
pub struct Incomplete {
    /// Why the exchange is not whole (a timeout, a refused call).
    pub reason: String,
    /// What was received so far.
    pub partial: Exchange,
}

impl fmt::Display for Incomplete {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n{}", self.reason, self.partial)
    }
}

impl std::error::Error for Incomplete {}

/// An interaction request as Discord sends it to an HTTP endpoint: the body, and its Ed25519
/// signature of the timestamp and body.
#[derive(Clone, Debug)]
pub struct Signed {
    /// The request's body, as sent.
    pub body: Vec<u8>,
    /// `X-Signature-Ed25519`, hex.
    pub signature: String,
    /// `X-Signature-Timestamp`.
    pub timestamp: String,
}

impl Signed {
    /// `payload` signed by `key` now.
    pub fn new(key: &ed25519_dalek::SigningKey, payload: &Value) -> Signed {
        use ed25519_dalek::Signer as _;
        let body = serde_json::to_vec(payload).expect("payload serializes");
        let timestamp = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs().to_string();
        let signature = key.sign(&[timestamp.as_bytes(), &body].concat());
        let signature = signature.to_bytes().iter().map(|b| format!("{b:02x}")).collect();
        Signed { body, signature, timestamp }
    }

    /// POSTs the request to `url`.
    pub async fn post(&self, url: &str) -> reqwest::Result<reqwest::Response> {
        reqwest::Client::new()
            .post(url)
            .header("content-type", "application/json")
            .header("x-signature-ed25519", &self.signature)
            .header("x-signature-timestamp", &self.timestamp)
            .body(self.body.clone())
            .send()
            .await
    }
}
