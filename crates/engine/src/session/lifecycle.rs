//! The session's own hook events: SessionStart when it starts (`source`: startup, resume, clear; compact is fired
//! by the compaction), its `additionalContext` given to the model with the next prompt; SessionEnd when it ends
//! (`reason`); Notification when a dialog waits for the person and when the model has waited idle for the next
//! prompt (only where a person follows the session).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use futures::future::BoxFuture;
use tandem_protocol::{
    ApprovalAnswer, ApprovalRequest, PlanAnswer, PlanRequest, QuestionAnswer, QuestionRequest,
};
use tokio_util::sync::CancellationToken;

use super::Session;
use crate::approver::{Approver, NoAnswer};
use crate::events::EventSink;
use crate::exec::hook_gate;
use crate::hooks::EventInput;
use crate::hooks::payload;
use crate::permission::PermissionContext;

/// How long the model waits for the next prompt before Notification hooks are told (`idle_prompt`).
pub const IDLE_NOTIFICATION_AFTER: Duration = Duration::from_secs(60);

/// How long a session's end waits for a running (interrupted) turn to end and store its history.
const TURN_END_WAIT: Duration = Duration::from_secs(10);

/// Why a session starts (SessionStart's `source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartSource {
    /// A new session.
    Startup,
    /// A stored session reopened.
    Resume,
    /// A new session in place of the one the person cleared.
    Clear,
}

impl StartSource {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Startup => "startup",
            Self::Resume => "resume",
            Self::Clear => "clear",
        }
    }
}

/// Why a session ends (SessionEnd's `reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// The person cleared it (a new session in its folder replaces it).
    Clear,
    /// The person closed the window.
    PromptInputExit,
    /// Anything else (another session opened, a one-shot run over).
    Other,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Clear => "clear",
            Self::PromptInputExit => "prompt_input_exit",
            Self::Other => "other",
        }
    }
}

/// Where the session is in its life, for its hooks.
pub(super) struct Lifecycle {
    pub source: StartSource,
    started: tokio::sync::OnceCell<()>,
    /// SessionStart's context, waiting for the next prompt.
    pending_context: Mutex<Vec<String>>,
    ended: AtomicBool,
    /// Counts turns, so an idle timer knows whether a new turn came.
    turns: Arc<AtomicU64>,
    /// Stops the idle timer with the session.
    idle_stop: CancellationToken,
    /// How long the model waits idle before Notification hooks are told; `None`: never (nobody follows the session).
    pub idle_after: Option<Duration>,
    /// The scheduled prompts the window was last shown (`None`: none shown yet).
    pub scheduled_shown: Mutex<Option<Vec<tandem_protocol::ScheduledPrompt>>>,
}

impl Lifecycle {
    pub fn new(source: StartSource, idle_after: Option<Duration>) -> Self {
        Self {
            source,
            started: tokio::sync::OnceCell::new(),
            pending_context: Mutex::new(Vec::new()),
            ended: AtomicBool::new(false),
            turns: Arc::new(AtomicU64::new(0)),
            idle_stop: CancellationToken::new(),
            idle_after,
            scheduled_shown: Mutex::new(None),
        }
    }
}

impl Drop for Lifecycle {
    fn drop(&mut self) {
        self.idle_stop.cancel();
    }
}

impl Session {
    /// Fires the SessionStart hooks once (with the session's start source); their `additionalContext` goes to the
    /// model with the next prompt. [`Session::send`] calls it before the first prompt; a face that opens sessions
    /// before anyone types (the window) calls it at once.
    pub async fn begin(&self) {
        self.lifecycle
            .started
            .get_or_init(|| async {
                let start = EventInput::SessionStart(payload::SessionStart {
                    source: self.lifecycle.source.as_str().into(),
                    model: Some(self.models.conversation.model_name().to_string()),
                });
                let permissions = self.runtime.permission_context();
                let verdict = hook_gate::run_event(&permissions, &self.id, start).await;
                if let Some(verdict) = verdict {
                    hook_gate::notify(self.runtime.events.as_ref(), &verdict);
                    if let Ok(mut pending) = self.lifecycle.pending_context.lock() {
                        pending.extend(verdict.additional_context);
                    }
                }
            })
            .await;
    }

    /// SessionStart's context not yet given to the model (taken: it goes with one prompt).
    pub(super) fn take_start_context(&self) -> Vec<String> {
        self.lifecycle
            .pending_context
            .lock()
            .map(|mut p| std::mem::take(&mut *p))
            .unwrap_or_default()
    }

    /// Fires the SessionEnd hooks once, with `reason`, and closes the terminal panel (its shell killed); the
    /// session should not be used for turns afterwards.
    pub async fn end(&self, reason: EndReason) {
        if self.lifecycle.ended.swap(true, Ordering::SeqCst) {
            return;
        }
        self.lifecycle.idle_stop.cancel();
        // The terminal panel's shell and its jobs end with the session.
        self.terminal_panel.close();
        // A turn still running holds the history; its own end brings the transcript up to date.
        if let Ok(history) = self.turn.history.try_lock() {
            self.transcript.sync(&history);
        }
        let end = EventInput::SessionEnd(payload::SessionEnd {
            reason: reason.as_str().into(),
        });
        let permissions = self.runtime.permission_context();
        if let Some(verdict) = hook_gate::run_event(&permissions, &self.id, end).await {
            hook_gate::notify(self.runtime.events.as_ref(), &verdict);
        }
        self.close_recording().await;
    }

    /// Stores the last of the session and lets its store lock go, so it can be reopened at once even while tasks of
    /// it are still finishing (what they record is no longer written). A turn stopped by an interrupt ends first and
    /// stores its history; one that does not end within [`TURN_END_WAIT`] loses what it has not stored yet.
    async fn close_recording(&self) {
        match tokio::time::timeout(TURN_END_WAIT, self.turn.history.lock()).await {
            Ok(history) => {
                self.transcript.sync(&history);
                if let Some(recorder) = &self.recorder {
                    recorder.sync_history(&history);
                }
            }
            Err(_) => tracing::warn!(
                "session {}: its turn did not end within {TURN_END_WAIT:?} of the session's end; its last part is not stored",
                self.id
            ),
        }
        if let Some(recorder) = &self.recorder
            && let Err(e) = recorder.close().await
        {
            tracing::warn!("session {}: {e}", self.id);
        }
    }

    /// Whether the session has ended ([`Self::end`] ran): nothing new starts in it.
    pub(super) fn has_ended(&self) -> bool {
        self.lifecycle.ended.load(Ordering::SeqCst)
    }

    /// Marks the start of a turn (an idle timer waiting from the last one will not fire).
    pub(super) fn turn_begins(&self) {
        self.lifecycle.turns.fetch_add(1, Ordering::SeqCst);
    }

    /// After a turn: where a person follows the session, tells the Notification hooks once the model has waited
    /// [`IDLE_NOTIFICATION_AFTER`] for the next prompt without one coming.
    pub(super) fn wait_idle(&self) {
        let Some(after) = self.lifecycle.idle_after else {
            return;
        };
        let turns = self.lifecycle.turns.clone();
        let seen = turns.load(Ordering::SeqCst);
        let stop = self.lifecycle.idle_stop.clone();
        let permissions = self.runtime.permissions.clone();
        let events = self.runtime.events.clone();
        let session_id = self.id.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = tokio::time::sleep(after) => {}
                _ = stop.cancelled() => return,
            }
            if turns.load(Ordering::SeqCst) != seen {
                return;
            }
            notify(
                &read(&permissions),
                &session_id,
                events.as_ref(),
                "idle_prompt",
                "Tandem is waiting for your input",
            )
            .await;
        });
    }
}

fn read(permissions: &RwLock<Arc<PermissionContext>>) -> Arc<PermissionContext> {
    match permissions.read() {
        Ok(ctx) => Arc::clone(&ctx),
        Err(poisoned) => Arc::clone(&poisoned.into_inner()),
    }
}

/// Runs the Notification hooks of `kind` with `message`.
async fn notify(
    permissions: &PermissionContext,
    session_id: &str,
    events: &dyn EventSink,
    kind: &str,
    message: &str,
) {
    let notification = EventInput::Notification(payload::Notification {
        message: message.into(),
        title: "Tandem".into(),
        notification_type: kind.into(),
    });
    if let Some(verdict) = hook_gate::run_event(permissions, session_id, notification).await {
        hook_gate::notify(events, &verdict);
    }
}

/// The session's approver, telling the Notification hooks (`permission_prompt`) whenever a dialog is about to wait
/// for the person. The hooks run beside the dialog; the answer does not wait for them.
pub(super) struct NotifyingApprover {
    pub inner: Arc<dyn Approver>,
    pub permissions: Arc<RwLock<Arc<PermissionContext>>>,
    pub events: Arc<dyn EventSink>,
    pub session_id: String,
}

impl NotifyingApprover {
    /// `inner`, with the Notification hooks of the session `session_id` told when it asks the person.
    pub(super) fn wrap(
        inner: Arc<dyn Approver>,
        permissions: &Arc<RwLock<Arc<PermissionContext>>>,
        events: &Arc<dyn EventSink>,
        session_id: &str,
    ) -> Arc<dyn Approver> {
        Arc::new(Self {
            inner,
            permissions: permissions.clone(),
            events: events.clone(),
            session_id: session_id.to_string(),
        })
    }

    fn tell(&self, message: String) {
        let permissions = read(&self.permissions);
        let events = self.events.clone();
        let session_id = self.session_id.clone();
        tokio::spawn(async move {
            notify(
                &permissions,
                &session_id,
                events.as_ref(),
                "permission_prompt",
                &message,
            )
            .await;
        });
    }
}

impl Approver for NotifyingApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        self.tell(format!(
            "Tandem needs your permission to use {}",
            request.tool_name
        ));
        self.inner.ask(request)
    }

    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        self.tell("Tandem needs your approval of its plan".into());
        self.inner.review_plan(request)
    }

    fn ask_questions(
        &self,
        request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        self.tell("Tandem has questions for you".into());
        self.inner.ask_questions(request)
    }
}
