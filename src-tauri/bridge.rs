//! The bridge between engine and webview: engine events go to one `tauri::ipc::Channel` per session in batches (at
//! most one message every ~16 ms, since single messages arrive too slowly in WebKitGTK to keep up with streaming),
//! and the webview's answers to approval requests go back to the waiting engine.
//!
//! A session's events are numbered 0, 1, 2, … with no gaps, in the order they are sent, and the latest of them are
//! kept: the webview applies events strictly in that order, and when it sees a gap (or hears nothing while a turn
//! runs) it asks for what it missed ([`ChannelSink::since`]), so a batch that never arrives cannot lose a turn.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use tandem_engine::approver::{Approver, NoAnswer};
use tandem_engine::events::EventSink;
use tandem_protocol::{
    ApprovalAnswer, ApprovalChoice, ApprovalRequest, ElicitationAction, ElicitationAnswer,
    ElicitationRequest, EventBatch, EventEnvelope, PlanAnswer, PlanChoice, PlanRequest,
    QuestionAnswer, QuestionOutcome, QuestionRequest, SessionEvent,
};
use tauri::ipc::Channel;
use tokio::sync::{mpsc, oneshot};

/// How long events are gathered before they cross into the webview.
pub const FLUSH_INTERVAL: Duration = Duration::from_millis(16);

/// The most events one batch carries. A reopened session replays its whole log at once; in batches of this size
/// the webview parses and folds it piece by piece instead of holding one message of many megabytes (and its
/// parsed copy) at the same moment, which WebKit's allocator keeps long after.
pub const MAX_BATCH: usize = 500;

/// How many of a session's latest events are kept for a webview that missed some. A gap is noticed within a few
/// seconds, when a few hundred events have passed at most.
pub const KEPT_EVENTS: usize = 4096;

/// The events a webview asked for are no longer kept (the gap is older than [`KEPT_EVENTS`] events).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("events after {after} are no longer kept (the oldest kept is {oldest})")]
pub struct Missed {
    pub after: u64,
    pub oldest: u64,
}

/// The numbering of a session's events, the latest of them and where they are queued.
struct Sent {
    next_seq: u64,
    recent: VecDeque<EventEnvelope>,
    tx: mpsc::UnboundedSender<EventEnvelope>,
    /// The files the agent handed the person (SendUserFile), the only ones the window may open for this session.
    user_files: HashSet<String>,
}

/// An event sink that numbers a session's events, keeps the latest and sends them to the webview in batches.
pub struct ChannelSink {
    session_id: String,
    /// Numbering and queueing happen under this lock, so events emitted from several tasks at once are queued in
    /// the order of their numbers.
    sent: Mutex<Sent>,
}

/// Starts the batching task that delivers to `channel`; returns its input.
fn delivering_to(channel: Channel<EventBatch>) -> mpsc::UnboundedSender<EventEnvelope> {
    let (tx, rx) = mpsc::unbounded_channel();
    tauri::async_runtime::spawn(deliver(rx, move |batch| match channel.send(batch) {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!("a batch of events did not reach the window: {e}");
            false
        }
    }));
    tx
}

impl ChannelSink {
    /// A sink for `session_id` that delivers to `channel` (spawns the batching task).
    pub fn new(session_id: String, channel: Channel<EventBatch>) -> Self {
        Self::queued_to(session_id, delivering_to(channel))
    }

    /// A sink that queues its numbered events on `tx` (the batching task's input; tests read it directly).
    pub fn queued_to(session_id: String, tx: mpsc::UnboundedSender<EventEnvelope>) -> Self {
        Self {
            session_id,
            sent: Mutex::new(Sent {
                next_seq: 0,
                recent: VecDeque::new(),
                tx,
                user_files: HashSet::new(),
            }),
        }
    }

    /// Sends the session's events to `channel` from now on, all of them again first (a reloaded webview, while a
    /// turn runs in the session). Fails when the first events are no longer kept.
    pub fn reattach(&self, channel: Channel<EventBatch>) -> Result<(), Missed> {
        self.resend_to(delivering_to(channel))
    }

    /// [`Self::reattach`] to the batching input `tx`.
    pub fn resend_to(&self, tx: mpsc::UnboundedSender<EventEnvelope>) -> Result<(), Missed> {
        let mut sent = self.lock();
        let oldest = sent.recent.front().map_or(sent.next_seq, |e| e.seq);
        if oldest > 0 {
            return Err(Missed { after: 0, oldest });
        }
        for envelope in &sent.recent {
            let _ = tx.send(envelope.clone());
        }
        sent.tx = tx;
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Sent> {
        match self.sent.lock() {
            Ok(s) => s,
            Err(p) => p.into_inner(),
        }
    }

    /// Sends stored events (a reopened session's transcript) ahead of new ones, numbered like them.
    pub fn replay(&self, events: impl IntoIterator<Item = SessionEvent>) {
        for event in events {
            self.emit(event);
        }
    }

    /// Whether the agent handed the person the file at `path` in this session (stored events replayed included).
    pub fn handed_over(&self, path: &str) -> bool {
        self.lock().user_files.contains(path)
    }

    /// The kept events numbered after `after` (`None`: from the first), in order; empty when none is newer.
    pub fn since(&self, after: Option<u64>) -> Result<Vec<EventEnvelope>, Missed> {
        let sent = self.lock();
        let first = after.map_or(0, |a| a + 1);
        let oldest = sent.recent.front().map_or(sent.next_seq, |e| e.seq);
        if first < oldest {
            return Err(Missed {
                after: after.unwrap_or(0),
                oldest,
            });
        }
        let skip = usize::try_from(first - oldest).unwrap_or(usize::MAX);
        Ok(sent.recent.iter().skip(skip).cloned().collect())
    }
}

/// Gathers events for [`FLUSH_INTERVAL`] after the first one arrives (or until [`MAX_BATCH`] are gathered), then
/// hands the batch to `send`. Ends when the sink is dropped. A batch `send` could not deliver is not retried: the
/// webview finds the gap and asks for the missing events.
pub async fn deliver(
    mut rx: mpsc::UnboundedReceiver<EventEnvelope>,
    send: impl Fn(EventBatch) -> bool,
) {
    while let Some(first) = rx.recv().await {
        let mut events = vec![first];
        let deadline = tokio::time::Instant::now() + FLUSH_INTERVAL;
        while events.len() < MAX_BATCH {
            tokio::select! {
                // Events already queued join this batch even when the deadline has passed meanwhile (a busy
                // machine): the batch stays bounded by MAX_BATCH, and a flood crosses in as few messages as it can.
                biased;
                next = rx.recv() => match next {
                    Some(event) => events.push(event),
                    None => break,
                },
                _ = tokio::time::sleep_until(deadline) => break,
            }
        }
        send(EventBatch { events });
    }
}

impl EventSink for ChannelSink {
    fn emit(&self, event: SessionEvent) {
        let mut sent = self.lock();
        if let SessionEvent::UserFile { path, .. } = &event {
            sent.user_files.insert(path.clone());
        }
        let envelope = EventEnvelope {
            session_id: self.session_id.clone(),
            seq: sent.next_seq,
            event,
        };
        sent.next_seq += 1;
        if sent.recent.len() == KEPT_EVENTS {
            sent.recent.pop_front();
        }
        sent.recent.push_back(envelope.clone());
        let _ = sent.tx.send(envelope);
    }
}

/// The sinks of the open sessions, by session id (for a webview that asks for events it missed).
#[derive(Clone, Default)]
pub struct SessionSinks(Arc<Mutex<HashMap<String, Arc<ChannelSink>>>>);

impl SessionSinks {
    pub fn insert(&self, id: String, sink: Arc<ChannelSink>) {
        if let Ok(mut sinks) = self.0.lock() {
            sinks.insert(id, sink);
        }
    }

    pub fn get(&self, id: &str) -> Option<Arc<ChannelSink>> {
        self.0.lock().ok().and_then(|s| s.get(id).cloned())
    }

    /// Forgets the sink of the session `id` (closed).
    pub fn remove(&self, id: &str) {
        if let Ok(mut sinks) = self.0.lock() {
            sinks.remove(id);
        }
    }

    /// Forgets the sinks of sessions `keep` says no longer run.
    pub fn retain(&self, keep: impl Fn(&str) -> bool) {
        if let Ok(mut sinks) = self.0.lock() {
            sinks.retain(|id, _| keep(id));
        }
    }
}

/// A question waiting for the webview's answer: a permission request, a plan review, the agent's questions or an
/// MCP server's form.
enum Waiting {
    Permission(oneshot::Sender<ApprovalAnswer>),
    Plan(oneshot::Sender<PlanAnswer>),
    Questions(oneshot::Sender<QuestionAnswer>),
    Form(oneshot::Sender<ElicitationAnswer>),
}

/// Questions waiting for the webview's answer, by request id.
#[derive(Clone, Default)]
pub struct PendingApprovals(Arc<Mutex<HashMap<String, Waiting>>>);

impl PendingApprovals {
    fn take(&self, id: &str) -> Option<Waiting> {
        self.0.lock().ok().and_then(|mut p| p.remove(id))
    }

    fn wait(&self, id: &str, waiting: Waiting) {
        if let Ok(mut pending) = self.0.lock() {
            pending.insert(id.to_string(), waiting);
        }
    }

    /// Delivers an answer to a permission request; false when no such request is waiting.
    pub fn answer(&self, answer: ApprovalAnswer) -> bool {
        match self.take(&answer.request_id) {
            Some(Waiting::Permission(tx)) => tx.send(answer).is_ok(),
            Some(other) => {
                self.wait(&answer.request_id, other);
                false
            }
            None => false,
        }
    }

    /// Delivers the person's decision about a plan; false when no such review is waiting.
    pub fn answer_plan(&self, answer: PlanAnswer) -> bool {
        match self.take(&answer.request_id) {
            Some(Waiting::Plan(tx)) => tx.send(answer).is_ok(),
            Some(other) => {
                self.wait(&answer.request_id, other);
                false
            }
            None => false,
        }
    }

    /// Delivers the person's answers to the agent's questions; false when no such request is waiting.
    pub fn answer_questions(&self, answer: QuestionAnswer) -> bool {
        match self.take(&answer.request_id) {
            Some(Waiting::Questions(tx)) => tx.send(answer).is_ok(),
            Some(other) => {
                self.wait(&answer.request_id, other);
                false
            }
            None => false,
        }
    }

    /// Delivers the person's answer to an MCP server's form; false when no such form is waiting.
    pub fn answer_form(&self, answer: ElicitationAnswer) -> bool {
        match self.take(&answer.request_id) {
            Some(Waiting::Form(tx)) => tx.send(answer).is_ok(),
            Some(other) => {
                self.wait(&answer.request_id, other);
                false
            }
            None => false,
        }
    }

    /// How many questions wait.
    pub fn len(&self) -> usize {
        self.0.lock().map(|p| p.len()).unwrap_or(0)
    }

    /// The ids of the questions waiting.
    pub fn waiting(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Whether no question waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Removes a question when its asker stops waiting (answered or cancelled).
struct Withdraw(PendingApprovals, String);

impl Drop for Withdraw {
    fn drop(&mut self) {
        if let Ok(mut pending) = self.0.0.lock() {
            pending.remove(&self.1);
        }
    }
}

/// The approver of a window session: the engine has already emitted `approval_requested` (the webview shows the
/// dialog); this waits for `answer_approval`. If the answer can never come, it is a refusal.
pub struct WindowApprover(pub PendingApprovals);

impl Approver for WindowApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        let (tx, rx) = oneshot::channel();
        self.0.wait(&request.id, Waiting::Permission(tx));
        let guard = Withdraw(self.0.clone(), request.id.clone());
        Box::pin(async move {
            let answer = rx
                .await
                .unwrap_or_else(|_| ApprovalAnswer::new(request.id.clone(), ApprovalChoice::Deny));
            drop(guard);
            answer
        })
    }

    /// Waits for `answer_plan`; a window that can no longer answer keeps planning.
    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        let (tx, rx) = oneshot::channel();
        self.0.wait(&request.id, Waiting::Plan(tx));
        let guard = Withdraw(self.0.clone(), request.id.clone());
        Box::pin(async move {
            let answer = rx.await.unwrap_or_else(|_| PlanAnswer {
                request_id: request.id.clone(),
                choice: PlanChoice::KeepPlanning {
                    feedback: "The window closed before the plan was reviewed.".into(),
                },
            });
            drop(guard);
            Ok(answer)
        })
    }

    /// Waits for `answer_questions`; a window that can no longer answer declines.
    fn ask_questions(
        &self,
        request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        let (tx, rx) = oneshot::channel();
        self.0.wait(&request.id, Waiting::Questions(tx));
        let guard = Withdraw(self.0.clone(), request.id.clone());
        Box::pin(async move {
            let answer = rx.await.unwrap_or_else(|_| QuestionAnswer {
                request_id: request.id.clone(),
                outcome: QuestionOutcome::Declined { message: None },
            });
            drop(guard);
            Ok(answer)
        })
    }

    /// Waits for `answer_elicitation`; a window that can no longer answer cancels.
    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> BoxFuture<'_, Result<ElicitationAnswer, NoAnswer>> {
        let (tx, rx) = oneshot::channel();
        self.0.wait(&request.id, Waiting::Form(tx));
        let guard = Withdraw(self.0.clone(), request.id.clone());
        Box::pin(async move {
            let answer = rx.await.unwrap_or_else(|_| {
                ElicitationAnswer::without_content(request.id.clone(), ElicitationAction::Cancel)
            });
            drop(guard);
            Ok(answer)
        })
    }
}
