//! Answering one interaction. Discord drops an interaction that gets no first response within
//! three seconds, whatever the bot was waiting for (a busy database, a busy CPU): a
//! [`Responder`] acknowledges it by itself at [`ACK_DEADLINE`] when the handler has not
//! answered yet, and later answers go where that acknowledgement put them (edits, follow-ups),
//! so handlers are written as if the first response were always theirs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as SyncMutex, OnceLock};
use std::time::{Duration, Instant};

use serenity::all::{
    ChannelId, CreateActionRow, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, EditInteractionResponse, InteractionId, MessageId,
};
use serenity::builder::Builder;
use serenity::http::Http;
use tokio::sync::{oneshot, Mutex, Notify};

use super::calls::{discord_code, retried, within, Failed, Repeat, TIMED_OUT};
use super::channel_pace::ChannelPace;
use super::message::{allowed_mentions, Reply};

/// When a request still being worked on is acknowledged for the player: well inside Discord's
/// three seconds, leaving room for the round trip, and long enough that normal requests answer
/// directly (a refusal then stays a private message without a "thinking…" first).
pub const ACK_DEADLINE: Duration = Duration::from_millis(1000);

/// How an interaction is acknowledged before its answer is ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deferral {
    /// A component (menu, button): acknowledged with no visible change (type 6); the answer
    /// edits the message the component is on or follows up.
    Update,
    /// A slash command: "thinking…" (type 5), for everyone or only for the user.
    Thinking {
        /// Whether only the user sees it.
        ephemeral: bool,
    },
}

impl Deferral {
    fn response(self) -> CreateInteractionResponse {
        match self {
            Deferral::Update => CreateInteractionResponse::Acknowledge,
            Deferral::Thinking { ephemeral } => {
                CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(ephemeral))
            }
        }
    }
}

/// A first response: as serenity builds it, or written out where serenity cannot say it (an
/// update that keeps the message's attachments).
enum FirstResponse {
    Built(Box<CreateInteractionResponse>),
    Written(serde_json::Value),
}

/// Hands the first response, as the body of the answer to Discord's request, to the HTTP
/// endpoint, which says when it has gone out.
type InlineAnswer = oneshot::Sender<(serde_json::Value, oneshot::Sender<()>)>;

/// Where the answer to an interaction stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Nothing sent yet.
    Fresh,
    /// Acknowledged; the answer is still to come.
    Deferred,
    /// The first response carried an answer.
    Answered,
}

/// Sends the responses to one interaction (see the module docs).
pub struct Responder {
    /// The bot's shared client: the channels' calls.
    http: Arc<Http>,
    /// The interaction's own client: its answer, its original message and its follow-ups,
    /// in buckets of their own (`interaction_clients.rs`).
    own: Http,
    id: InteractionId,
    token: String,
    deferral: Deferral,
    stage: Mutex<Stage>,
    /// Wakes the deadline watch once the first response is out.
    settled: Notify,
    /// HTTP interactions mode: the first response is the body of the answer to Discord's
    /// request rather than a call of its own.
    inline: SyncMutex<Option<InlineAnswer>>,
    /// When the interaction arrived (the responder is made then).
    received: Instant,
    /// How long after that the first response went out.
    acknowledged: OnceLock<Duration>,
    /// Whether the first response went out as the answer to Discord's request (HTTP mode).
    answered_inline: AtomicBool,
    /// The pace of the interaction's channel, which its webhook calls count towards.
    pace: Option<(ChannelPace, ChannelId)>,
}

/// Discord's codes for an interaction's original message or webhook it does not know (yet).
const UNKNOWN_ORIGINAL: [isize; 2] = [UNKNOWN_MESSAGE, 10015];

/// Discord's code for a message it does not know.
const UNKNOWN_MESSAGE: isize = 10008;

/// The error of a first response the bot did not send because Discord's window had closed.
const WINDOW_CLOSED: &str = "Discord's window for the first response had closed";

/// Discord's code for a second first response to one interaction.
const ALREADY_ACKNOWLEDGED: isize = 40060;

/// Discord's window for an interaction's first response, from when it sends the interaction:
/// a later one is refused, so no try of it outlives the window.
pub const ANSWER_WINDOW: Duration = Duration::from_secs(3);

/// How many times a call after an inline first response is tried again while Discord does
/// not know that response yet, waiting twice as long each time from the first wait.
const INLINE_RETRIES: u32 = 8;
const INLINE_FIRST_WAIT: Duration = Duration::from_millis(20);

/// The longest an inline first response is waited for to be written (a request Discord gave
/// up on is never written).
const INLINE_WRITE_WAIT: Duration = Duration::from_secs(3);

impl Responder {
    /// Answers interaction `id` with `token` through `own`, its own client, deferring as
    /// `deferral` says; `http` is the bot's shared client, for the channels.
    pub fn new(http: Arc<Http>, own: Http, id: InteractionId, token: String, deferral: Deferral) -> Responder {
        Responder {
            http,
            own,
            id,
            token,
            deferral,
            stage: Mutex::new(Stage::Fresh),
            settled: Notify::new(),
            inline: SyncMutex::new(None),
            received: Instant::now(),
            acknowledged: OnceLock::new(),
            answered_inline: AtomicBool::new(false),
            pace: None,
        }
    }

    /// The same, its webhook calls counted towards `channel`'s pace in `pace`.
    pub fn paced(mut self, pace: ChannelPace, channel: ChannelId) -> Responder {
        self.pace = Some((pace, channel));
        self
    }

    /// Whether the interaction's channel is lively: its interactions' webhook calls near the
    /// limit they share (`channel_pace.rs`).
    pub fn channel_lively(&self) -> bool {
        self.pace.as_ref().is_some_and(|(pace, channel)| pace.lively(*channel))
    }

    /// Counts a webhook call of the interaction towards its channel's pace.
    fn note_call(&self) {
        if let Some((pace, channel)) = &self.pace {
            pace.note(*channel);
        }
    }

    /// How long after the interaction arrived its first response went out (an answer or an
    /// acknowledgement), if one did: the figure Discord's three seconds are about.
    pub fn acknowledged_after(&self) -> Option<Duration> {
        self.acknowledged.get().copied()
    }

    /// The same, with the first response handed to `first` (HTTP interactions mode).
    pub fn inline(mut self, first: InlineAnswer) -> Responder {
        self.inline = SyncMutex::new(Some(first));
        self
    }

    /// Whether this answers a component (a menu or a button) rather than a command.
    pub fn is_component(&self) -> bool {
        self.deferral == Deferral::Update
    }

    /// Runs the handler's `work`, acknowledging the interaction at [`ACK_DEADLINE`] if `work`
    /// has not sent a first response by then.
    pub async fn within_deadline<F: std::future::Future>(&self, work: F) -> F::Output {
        let watch = async {
            tokio::select! {
                _ = tokio::time::sleep(ACK_DEADLINE) => {
                    if let Err(e) = self.defer().await {
                        tracing::warn!(error = %e, "could not acknowledge an interaction");
                    }
                }
                _ = self.settled.notified() => {}
            }
        };
        let work = async {
            let out = work.await;
            self.settled.notify_one();
            out
        };
        // Both run in this task (no lock is ever awaited by a future that is not polled).
        tokio::join!(work, watch).0
    }

    /// The first response itself: a call to Discord, or in HTTP mode the request's answer.
    pub async fn initial(&self, response: CreateInteractionResponse) -> serenity::Result<()> {
        self.first_response(FirstResponse::Built(Box::new(response))).await
    }

    /// Sends the first response, built by serenity or written out (see [`FirstResponse`]).
    async fn first_response(&self, response: FirstResponse) -> serenity::Result<()> {
        let inline = self.inline.lock().unwrap_or_else(|e| e.into_inner()).take();
        let sent = match inline {
            // A dropped receiver means Discord's request is gone; nothing else would reach it.
            Some(first) => {
                // Files never ride on the answer to Discord's request (`carries`).
                let body = match response {
                    FirstResponse::Built(built) => serde_json::to_value(&*built)?,
                    FirstResponse::Written(written) => written,
                };
                // The calls that follow wait until the answer is on its way to Discord (or
                // the request is gone), so that they do not overtake it.
                let (written, on_its_way) = oneshot::channel();
                if first.send((body, written)).is_ok() {
                    let _ = tokio::time::timeout(INLINE_WRITE_WAIT, on_its_way).await;
                }
                self.answered_inline.store(true, Ordering::Release);
                Ok(())
            }
            None => self.first_call(&response).await,
        };
        if sent.is_ok() {
            let _ = self.acknowledged.set(self.received.elapsed());
        }
        sent
    }

    /// The first response as a call of its own: tried again while Discord's window is open
    /// (a second first response is refused with 40060, which then says the first one was
    /// applied), each try cut off where the window closes (calls.rs).
    async fn first_call(&self, response: &FirstResponse) -> serenity::Result<()> {
        let tries = std::sync::atomic::AtomicU32::new(0);
        let unknown = AtomicBool::new(false);
        let sent = retried("answer an interaction", Repeat::Safe, || async {
            let again = tries.fetch_add(1, Ordering::Relaxed) > 0;
            let window = ANSWER_WINDOW.saturating_sub(self.received.elapsed());
            if window.is_zero() {
                // Discord would refuse it (10062): not sent, not tried again.
                return Err(serenity::Error::Other(WINDOW_CLOSED));
            }
            let sent = within(window, async {
                match response {
                    FirstResponse::Built(built) => (**built).clone().execute(&self.own, (self.id, &self.token)).await,
                    FirstResponse::Written(written) => {
                        self.own.create_interaction_response(self.id, &self.token, written, Vec::new()).await
                    }
                }
            })
            .await;
            match sent {
                Err(e) if again && discord_code(&e) == Some(ALREADY_ACKNOWLEDGED) => Ok(()),
                sent => {
                    if sent.as_ref().is_err_and(|e| Failed::of(e) == Failed::Unknown) {
                        unknown.store(true, Ordering::Relaxed);
                    }
                    sent
                }
            }
        })
        .await;
        match sent {
            // The window closed on a try whose fate is unknown: so is the answer's.
            Err(serenity::Error::Other(WINDOW_CLOSED)) if unknown.into_inner() => {
                Err(serenity::Error::Other(TIMED_OUT))
            }
            sent => sent,
        }
    }

    /// Acknowledges the interaction if nothing was sent yet.
    pub async fn defer(&self) -> serenity::Result<()> {
        let mut stage = self.stage.lock().await;
        if *stage == Stage::Fresh {
            self.first(&mut stage, self.deferral.response(), Stage::Deferred).await?;
        }
        Ok(())
    }

    /// Shows `reply`: as the first response when possible, else where the acknowledgement
    /// left room for it (an ephemeral answer after a public "thinking…" replaces it with a
    /// private follow-up).
    /// A reply that pings someone (a turn notice) is always a new message: Discord notifies
    /// nobody of a mention added by an edit, so after a "thinking…" it is replaced by a
    /// follow-up rather than edited.
    pub async fn answer(&self, reply: Reply) -> serenity::Result<()> {
        self.deliver(reply, false).await.map(drop)
    }

    /// [`Self::answer`], returning the id of the message that shows `reply` (a board is
    /// remembered by it) when Discord tells it.
    pub async fn post(&self, reply: Reply) -> serenity::Result<Option<MessageId>> {
        self.deliver(reply, true).await
    }

    /// Shows `reply`; with `want_id`, also learns the id of its message when the callback
    /// itself carried it (which costs a request).
    async fn deliver(&self, reply: Reply, want_id: bool) -> serenity::Result<Option<MessageId>> {
        let mut stage = self.stage.lock().await;
        if *stage == Stage::Fresh && !self.carries(&reply) {
            self.first(&mut stage, self.deferral.response(), Stage::Deferred).await?;
        }
        match *stage {
            Stage::Fresh => {
                self.first(&mut stage, CreateInteractionResponse::Message(reply.message()), Stage::Answered).await?;
                if !want_id {
                    return Ok(None);
                }
                // The callback does not say which message it made; the original response is it.
                match self.after_first(Repeat::Safe, || self.own.get_original_interaction_response(&self.token)).await {
                    Ok(message) => Ok(Some(message.id)),
                    Err(e) => {
                        tracing::debug!(error = %e, "the answer's message id is unknown");
                        Ok(None)
                    }
                }
            }
            Stage::Deferred => match self.deferral {
                Deferral::Update => self.follow_up_posted(reply.follow_up()).await.map(Some),
                Deferral::Thinking { ephemeral } if (reply.ephemeral && !ephemeral) || !reply.mentions.is_empty() => {
                    *stage = Stage::Answered;
                    self.delete_original().await?;
                    self.follow_up_posted(reply.follow_up()).await.map(Some)
                }
                Deferral::Thinking { .. } => {
                    *stage = Stage::Answered;
                    let edit = reply.edit();
                    self.after_first(Repeat::of_edit(&edit), || edit.clone().execute(&self.own, &self.token))
                        .await
                        .map(|m| Some(m.id))
                }
            },
            Stage::Answered => self.follow_up_posted(reply.follow_up()).await.map(Some),
        }
    }

    /// Deletes the original response (a "thinking…" a private answer replaces), tried again as
    /// every deletion is. Where a try's fate was unknown and a later one is told the message is
    /// unknown (10008), the first one deleted it: done.
    async fn delete_original(&self) -> serenity::Result<()> {
        let unknown_fate = AtomicBool::new(false);
        self.after_first(Repeat::Safe, || async {
            match self.own.delete_original_interaction_response(&self.token).await {
                Err(e) if unknown_fate.load(Ordering::Relaxed) && discord_code(&e) == Some(UNKNOWN_MESSAGE) => Ok(()),
                Err(e) => {
                    if Failed::of(&e) == Failed::Unknown {
                        unknown_fate.store(true, Ordering::Relaxed);
                    }
                    Err(e)
                }
                done => done,
            }
        })
        .await
    }

    /// Replaces the message the component is on with `reply` (components only).
    pub async fn update(&self, reply: Reply) -> serenity::Result<()> {
        let mut stage = self.stage.lock().await;
        if *stage == Stage::Fresh && self.carries(&reply) {
            let update = CreateInteractionResponse::UpdateMessage(reply.message());
            return self.first(&mut stage, update, Stage::Answered).await;
        }
        if *stage == Stage::Fresh {
            self.first(&mut stage, self.deferral.response(), Stage::Deferred).await?;
        }
        self.edit(reply.edit()).await
    }

    /// Replaces only the components of the message the component is on, keeping its text and
    /// its files: the board picture stays and is not sent again (components only). One call:
    /// the first response when it is still to be sent, else an edit of that message.
    pub async fn update_components(&self, components: Vec<CreateActionRow>) -> serenity::Result<()> {
        let mut stage = self.stage.lock().await;
        if *stage == Stage::Fresh {
            // serenity's update always lists the message's attachments to keep, as none
            // (Discord would then drop the picture): written out without that list, Discord
            // keeps them.
            let mentions = serde_json::to_value(allowed_mentions(&[]))?;
            let update =
                serde_json::json!({ "type": 7, "data": { "components": components, "allowed_mentions": mentions } });
            self.first_raw(&mut stage, update, Stage::Answered).await
        } else {
            drop(stage);
            // An edit without an attachments list keeps them too.
            self.edit(EditInteractionResponse::new().components(components)).await
        }
    }

    /// Sends the first response and records where that leaves the interaction (which also
    /// ends the deadline watch).
    async fn first(&self, stage: &mut Stage, response: CreateInteractionResponse, next: Stage) -> serenity::Result<()> {
        self.first_response(FirstResponse::Built(Box::new(response))).await?;
        *stage = next;
        self.settled.notify_one();
        Ok(())
    }

    /// [`Self::first`] with a first response written out.
    async fn first_raw(&self, stage: &mut Stage, response: serde_json::Value, next: Stage) -> serenity::Result<()> {
        self.first_response(FirstResponse::Written(response)).await?;
        *stage = next;
        self.settled.notify_one();
        Ok(())
    }

    /// Whether `reply` can be the first response itself: in HTTP mode, files cannot ride on
    /// the answer to Discord's request (it is acknowledged there, then edited).
    fn carries(&self, reply: &Reply) -> bool {
        reply.files.is_empty() || !self.inline_pending()
    }

    /// Whether the first response, still to be sent, can carry files (not in HTTP mode, where
    /// it is the answer to Discord's request).
    pub fn first_carries_files(&self) -> bool {
        !self.inline_pending()
    }

    /// Edits the original response (after a deferral: the message a component is on, or the
    /// command's "thinking…"), sent again as [`Repeat::of_edit`] allows.
    pub async fn edit(&self, edit: EditInteractionResponse) -> serenity::Result<()> {
        self.after_first(Repeat::of_edit(&edit), || edit.clone().execute(&self.own, &self.token)).await.map(drop)
    }

    /// Sends a follow-up message.
    pub async fn follow_up(&self, follow_up: CreateInteractionResponseFollowup) -> serenity::Result<()> {
        self.follow_up_posted(follow_up).await.map(drop)
    }

    /// Sends a follow-up message; returns its id. Tried again only when it surely never
    /// reached Discord: a second try could post it twice.
    pub async fn follow_up_posted(&self, follow_up: CreateInteractionResponseFollowup) -> serenity::Result<MessageId> {
        self.after_first(Repeat::OnlyIfUnsent, || follow_up.clone().execute(&self.own, (None, &self.token)))
            .await
            .map(|m| m.id)
    }

    /// Runs `call`, a call about this interaction after its first response. In HTTP mode that
    /// response is the answer to Discord's request, and the call may reach Discord before
    /// Discord has taken the answer in (it then says it knows no such message or webhook):
    /// tried again, waiting a little longer each time, until Discord knows it. A call that
    /// failed otherwise is tried again as `repeat` allows (calls.rs).
    async fn after_first<T, F, Fut>(&self, repeat: Repeat, call: F) -> serenity::Result<T>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = serenity::Result<T>>,
    {
        retried("answer after the first response", repeat, || {
            self.note_call();
            self.once_known(&call)
        })
        .await
    }

    /// Runs `call` until Discord knows the inline first response (see [`Self::after_first`]).
    async fn once_known<T, F, Fut>(&self, call: &F) -> serenity::Result<T>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = serenity::Result<T>>,
    {
        let mut wait = INLINE_FIRST_WAIT;
        for _ in 0..INLINE_RETRIES {
            match call().await {
                Err(e) if self.answered_inline.load(Ordering::Acquire) && unknown_original(&e) => {
                    tracing::debug!(error = %e, "Discord does not know the first response yet; trying again");
                    tokio::time::sleep(wait).await;
                    wait *= 2;
                }
                done => return done,
            }
        }
        call().await
    }

    /// The bot's shared REST client, for the channels' calls.
    pub fn http(&self) -> &Http {
        &self.http
    }

    fn inline_pending(&self) -> bool {
        self.inline.lock().unwrap_or_else(|e| e.into_inner()).is_some()
    }
}

/// Whether Discord refused a call because it knows no such original message or webhook.
fn unknown_original(e: &serenity::Error) -> bool {
    discord_code(e).is_some_and(|code| UNKNOWN_ORIGINAL.contains(&code))
}
