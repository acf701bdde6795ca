//! The bridge between engine and webview: engine events go to one `tauri::ipc::Channel` per session in batches (at
//! most one message every ~16 ms, since single messages arrive too slowly in WebKitGTK to keep up with streaming),
//! and the webview's answers to approval requests go back to the waiting engine.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// An event sink that numbers a session's events and sends them to the webview in batches.
pub struct ChannelSink {
    session_id: String,
    seq: AtomicU64,
    tx: mpsc::UnboundedSender<EventEnvelope>,
}

impl ChannelSink {
    /// A sink for `session_id` that delivers to `channel` (spawns the batching task).
    pub fn new(session_id: String, channel: Channel<EventBatch>) -> Self {
        Self::starting_at(session_id, channel, 0)
    }

    /// Sends stored events with their own numbers (a reopened session's transcript), ahead of new ones.
    pub fn replay(&self, events: impl IntoIterator<Item = (u64, SessionEvent)>) {
        for (seq, event) in events {
            let _ = self.tx.send(EventEnvelope {
                session_id: self.session_id.clone(),
                seq,
                event,
            });
        }
    }

    /// A sink whose first new event is numbered `first_seq`.
    pub fn starting_at(session_id: String, channel: Channel<EventBatch>, first_seq: u64) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        tauri::async_runtime::spawn(deliver(rx, move |batch| channel.send(batch).is_ok()));
        Self {
            session_id,
            seq: AtomicU64::new(first_seq),
            tx,
        }
    }
}

/// Gathers events for [`FLUSH_INTERVAL`] after the first one arrives (or until [`MAX_BATCH`] are gathered), then
/// hands the batch to `send`. Ends when the sink is dropped or `send` fails (the webview is gone).
pub async fn deliver(
    mut rx: mpsc::UnboundedReceiver<EventEnvelope>,
    send: impl Fn(EventBatch) -> bool,
) {
    while let Some(first) = rx.recv().await {
        let mut events = vec![first];
        let deadline = tokio::time::Instant::now() + FLUSH_INTERVAL;
        while events.len() < MAX_BATCH {
            tokio::select! {
                next = rx.recv() => match next {
                    Some(event) => events.push(event),
                    None => break,
                },
                _ = tokio::time::sleep_until(deadline) => break,
            }
        }
        if !send(EventBatch { events }) {
            return;
        }
    }
}

impl EventSink for ChannelSink {
    fn emit(&self, event: SessionEvent) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let _ = self.tx.send(EventEnvelope {
            session_id: self.session_id.clone(),
            seq,
            event,
        });
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
