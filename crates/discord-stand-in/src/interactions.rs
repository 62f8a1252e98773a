//! Interactions sent to the bot (through the gateway, or signed to its HTTP endpoint), and the
//! waits for its answers: an exchange is done when it says so (`Exchange::answered` by default).

use std::time::Duration;

use serde_json::{json, Value};

use crate::channels::as_discord_sends;
use crate::exchange::{Exchange, Incomplete, Reply, Signed};
use crate::gateway::text;
use crate::objects::id_of;
use crate::replies::callback;
use crate::rest::Body;
use crate::state::{exchange_of, register};
use crate::StandIn;

impl StandIn {
    /// Dispatches `INTERACTION_CREATE` with `payload` to the connected session (the most recent
    /// one), waiting up to 10 s for one to be connected. Panics if there is none.
    pub async fn send_interaction(&self, payload: Value) {
        let guild_id = id_of(payload.get("guild_id"));
        let idx = self.shared.wait_for(Duration::from_secs(10), |i| i.session_for(guild_id)).await;
        let Some(idx) = idx else {
            panic!("stand-in: no connected bot to send the interaction to (sessions so far: {})", self.sessions());
        };
        let mut inner = self.shared.lock();
        let payload = as_discord_sends(&inner, payload);
        let number = inner.sessions[idx].number;
        register(&mut inner, &payload, number);
        let session = &mut inner.sessions[idx];
        session.seq += 1;
        let frame = json!({"op": 0, "s": session.seq, "t": "INTERACTION_CREATE", "d": payload});
        let sent = session.tx.as_ref().map(|tx| tx.send(text(&frame)).is_ok()).unwrap_or(false);
        drop(inner);
        self.shared.bump();
        if !sent {
            panic!("stand-in: the bot's gateway connection closed while sending an interaction");
        }
    }

    /// Takes `payload` (an interaction) as dispatched, without a bot to send it to: for the
    /// stand-in's own tests, which then answer it themselves. Returns it as Discord would have
    /// sent it (`app_permissions` without what a test withheld).
    pub fn register_interaction(&self, payload: &Value) -> Value {
        let mut inner = self.shared.lock();
        let payload = as_discord_sends(&inner, payload.clone());
        register(&mut inner, &payload, 0);
        payload
    }

    /// Dispatches the gateway event `name` (e.g. `GUILD_DELETE`) with `payload` to the session
    /// whose shard serves `guild_id`, as Discord does; waits up to 10 s for one. Panics if there
    /// is none.
    pub async fn send_event(&self, name: &str, guild_id: Option<u64>, payload: Value) {
        let idx = self.shared.wait_for(Duration::from_secs(10), |i| i.session_for(guild_id)).await;
        let Some(idx) = idx else {
            panic!("stand-in: no connected bot to send {name} to (sessions so far: {})", self.sessions());
        };
        let mut inner = self.shared.lock();
        let session = &mut inner.sessions[idx];
        session.seq += 1;
        let frame = json!({"op": 0, "s": session.seq, "t": name, "d": payload});
        let sent = session.tx.as_ref().map(|tx| tx.send(text(&frame)).is_ok()).unwrap_or(false);
        drop(inner);
        self.shared.bump();
        if !sent {
            panic!("stand-in: the bot's gateway connection closed while sending {name}");
        }
    }

    /// Delivers the interaction the way Discord does to an HTTP interactions endpoint: a POST
    /// of the payload to `url`, signed with `key` at the current time. A 200 answer's JSON
    /// body counts as the interaction's first response (checked like a callback call); then
    /// waits like [`Self::try_interact`]. Another status is an [`Incomplete`] naming it.
    pub async fn try_interact_http(
        &self,
        url: &str,
        key: &ed25519_dalek::SigningKey,
        payload: Value,
    ) -> Result<Exchange, Incomplete> {
        self.try_interact_http_until(url, key, payload, Exchange::answered).await
    }

    /// [`Self::try_interact_http`], waiting until the exchange satisfies `done` (see
    /// [`Self::interact_until`]).
    pub async fn try_interact_http_until(
        &self,
        url: &str,
        key: &ed25519_dalek::SigningKey,
        payload: Value,
        done: impl Fn(&Exchange) -> bool + Sync,
    ) -> Result<Exchange, Incomplete> {
        let signed = Signed::new(key, &payload);
        self.try_interact_http_signed(url, &signed, payload, done).await
    }

    /// [`Self::try_interact_http_until`] with a request signed beforehand (a test may send the
    /// very same request again, as a replay).
    pub async fn try_interact_http_signed(
        &self,
        url: &str,
        signed: &Signed,
        payload: Value,
        done: impl Fn(&Exchange) -> bool + Sync,
    ) -> Result<Exchange, Incomplete> {
        let token = payload.get("token").and_then(Value::as_str).unwrap_or_default().to_string();
        let id = id_of(payload.get("id")).unwrap_or(0).to_string();
        {
            let mut inner = self.shared.lock();
            register(&mut inner, &payload, 0);
            inner.answers_on_their_way.insert(token.clone());
        }
        self.shared.bump();
        let answer = signed.post(url).await;
        let answered = match answer {
            Ok(a) if a.status().as_u16() == 200 => match a.json::<Value>().await {
                Ok(json) => {
                    let _ = callback(&self.shared, &id, &token, Body { json, files: Vec::new() });
                    Ok(())
                }
                Err(e) => Err(format!("the endpoint's answer is not JSON: {e}")),
            },
            Ok(a) => Err(format!("the endpoint answered {}", a.status())),
            Err(e) => Err(format!("the endpoint could not be reached: {e}")),
        };
        // The bot's calls that waited for this answer go on (`rest::answer_first`).
        self.shared.lock().answers_on_their_way.remove(&token);
        self.shared.bump();
        match answered {
            Ok(()) => self.wait_done(&token, &done).await,
            Err(reason) => Err(Incomplete { reason, partial: self.exchange(&token) }),
        }
    }

    /// Sends the interaction and returns as soon as the bot has answered
    /// ([`Exchange::answered`]): a refusal, a command's board, the new board after a tapped move
    /// (the old board's menu is taken off before it), autocomplete choices. Calls the flow makes
    /// after its answer are not waited for: use [`Self::interact_until`] to say what the
    /// exchange ends with, or [`Self::next_reply`]. Panics after [`Self::interact_timeout`] with
    /// what was received so far, and if the stand-in refused one of the bot's calls (use
    /// [`Self::try_interact`] to inspect refusals).
    pub async fn interact(&self, payload: Value) -> Exchange {
        self.interact_until(payload, Exchange::answered).await
    }

    /// Sends the interaction and returns as soon as the exchange satisfies `done`, e.g. the
    /// public board a confirmed resignation follows its answer with:
    /// `|x| !x.followups().is_empty()`. `done` is checked each time a call for this interaction
    /// arrives; a call the stand-in refused ends the exchange at once. Panics like
    /// [`Self::interact`].
    pub async fn interact_until(&self, payload: Value, done: impl Fn(&Exchange) -> bool + Sync) -> Exchange {
        match self.try_interact_until(payload, done).await {
            Ok(x) => {
                if !x.refused().is_empty() {
                    panic!("stand-in: the bot made a call Discord would refuse\n{x}");
                }
                x
            }
            Err(e) => panic!("stand-in: {e}"),
        }
    }

    /// Like [`Self::interact`] without panicking: refused calls are in the returned exchange,
    /// and a timeout is an [`Incomplete`] with what was received so far.
    pub async fn try_interact(&self, payload: Value) -> Result<Exchange, Incomplete> {
        self.try_interact_until(payload, Exchange::answered).await
    }

    /// Like [`Self::interact_until`] without panicking (see [`Self::try_interact`]).
    pub async fn try_interact_until(
        &self,
        payload: Value,
        done: impl Fn(&Exchange) -> bool + Sync,
    ) -> Result<Exchange, Incomplete> {
        let token =
            payload.get("token").and_then(Value::as_str).expect("interaction payload without a token").to_string();
        self.send_interaction(payload).await;
        self.wait_done(&token, &done).await
    }

    /// Waits until the exchange of an interaction sent with [`Self::send_interaction`] satisfies
    /// `done` (e.g. [`Exchange::answered`]), like [`Self::try_interact_until`].
    pub async fn wait_exchange(
        &self,
        token: &str,
        done: impl Fn(&Exchange) -> bool + Sync,
    ) -> Result<Exchange, Incomplete> {
        self.wait_done(token, &done).await
    }

    /// Waits until the calls made with `token` satisfy `done` or one of them was refused, up to
    /// [`Self::interact_timeout`].
    async fn wait_done(&self, token: &str, done: &(dyn Fn(&Exchange) -> bool + Sync)) -> Result<Exchange, Incomplete> {
        // Checked when this token's calls change only: hundreds of exchanges may wait at once,
        // each woken by every call of the others.
        let mut seen = None;
        let finished = self
            .shared
            .wait_for(self.interact_timeout, |i| {
                let n = i.calls_by_token.get(token).map_or(0, Vec::len);
                if seen == Some(n) {
                    return None;
                }
                seen = Some(n);
                let x = exchange_of(i, token);
                (x.calls.iter().any(|c| !c.ok()) || done(&x)).then_some(x)
            })
            .await;
        if let Some(x) = finished {
            return Ok(x);
        }
        let partial = self.exchange(token);
        let reason = if partial.calls.is_empty() {
            format!(
                "the bot made no call for this interaction within {:?} (did it receive it? a payload serenity cannot \
                 deserialize is dropped silently; run fixtures::assert_fixtures_deserialize)",
                self.interact_timeout
            )
        } else if partial.answered() {
            format!(
                "the bot answered, but the exchange did not end as the test expects within {:?}",
                self.interact_timeout
            )
        } else {
            format!(
                "the bot did not answer within {:?} (no message callback 4/7, autocomplete 8 or modal 9, nor an edit or \
                 follow-up with text after a deferral)",
                self.interact_timeout
            )
        };
        Err(Incomplete { reason, partial })
    }

    /// The session (1-based, in order of IDENTIFY) an interaction was sent to, and the shard
    /// `[id, total]` that session identified as.
    pub fn dispatched_to(&self, token: &str) -> Option<(usize, Value)> {
        let inner = self.shared.lock();
        let number = inner.interactions.get(token)?.session;
        let shard = inner.sessions.iter().find(|s| s.number == number)?.identify.get("shard").cloned();
        Some((number, shard.unwrap_or(Value::Null)))
    }

    /// Everything recorded for this token so far, as an exchange.
    pub fn exchange(&self, token: &str) -> Exchange {
        exchange_of(&self.shared.lock(), token)
    }

    /// Every call made with this interaction token, in order.
    pub async fn calls_for(&self, token: &str) -> Vec<Reply> {
        self.shared.lock().calls_of(token).cloned().collect()
    }
}
