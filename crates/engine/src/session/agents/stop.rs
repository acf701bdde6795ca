//! What stops one sub-agent (the person, TaskStop, the parent's interrupt) and what is kept of a background
//! sub-agent: its outcome, and how the parent and the person are told it ended.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tandem_protocol::BackgroundAgentStatus;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::tool::{SubAgentError, SubAgentReport};

pub(super) type Outcome = Result<SubAgentReport, SubAgentError>;

/// A background sub-agent: its outcome once it ended, and what stops it.
pub(super) struct Background {
    pub outcome: watch::Receiver<Option<Outcome>>,
    pub stop: Stop,
    pub parent_tool_use_id: String,
}

/// What stops one running sub-agent, and whether the person asked for it.
#[derive(Clone)]
pub(super) struct Stop {
    pub cancel: CancellationToken,
    by_person: Arc<AtomicBool>,
}

impl Stop {
    /// Stops when `parent` does (an interrupt of the parent's call, the session going away) or when told to.
    pub fn child_of(parent: &CancellationToken) -> Self {
        Self {
            cancel: parent.child_token(),
            by_person: Arc::default(),
        }
    }

    /// Stops the sub-agent because the person asked.
    pub fn by_person(&self) {
        self.by_person.store(true, Ordering::SeqCst);
        self.cancel.cancel();
    }

    /// The outcome as the parent sees it: a cancellation the person asked for says so.
    pub fn explain(&self, outcome: Outcome) -> Outcome {
        match outcome {
            Err(SubAgentError::Cancelled) if self.by_person.load(Ordering::SeqCst) => {
                Err(SubAgentError::StoppedByPerson)
            }
            other => other,
        }
    }
}

/// Locks `mutex`, going on with the data of a holder that panicked (the maps stay usable).
pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// How the model and the person are told a background agent ended.
pub(super) fn status_word(status: BackgroundAgentStatus) -> &'static str {
    match status {
        BackgroundAgentStatus::Running => "running",
        BackgroundAgentStatus::Completed => "completed",
        BackgroundAgentStatus::Failed => "failed",
        BackgroundAgentStatus::Stopped => "stopped",
    }
}

/// What the parent's next request is told about a background sub-agent that ended.
pub(super) fn notification(task_id: &str, description: &str, status: &str, text: &str) -> String {
    let result = if text.trim().is_empty() {
        String::new()
    } else {
        format!("\n<result>\n{text}\n</result>")
    };
    format!(
        "<task-notification>\n<task-id>{task_id}</task-id>\n<status>{status}</status>\n<summary>Background agent \
         \"{description}\" {status}. TaskOutput reads the same answer.</summary>{result}\n</task-notification>"
    )
}
