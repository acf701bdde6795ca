//! The door from tools to the person, for calls that are a conversation with them (a plan to approve, questions to
//! answer): the call's [`PersonDoor`] announces the request as an event, waits for the session's approver (or the
//! call's cancellation) and announces that it is resolved.

use std::sync::Arc;

use tandem_protocol::{
    PlanChoice, PlanRequest, Question, QuestionOutcome, QuestionRequest, SessionEvent,
};
use tokio_util::sync::CancellationToken;

use crate::approver::{Approver, NoAnswer};
use crate::events::EventSink;

/// Why a question to the person got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PersonError {
    /// Nobody can answer here (a headless run); the reason is for the agent.
    #[error("{0}")]
    NoAnswer(String),
    /// The call was cancelled while the question waited.
    #[error("the question was withdrawn: the call was cancelled")]
    Cancelled,
}

impl From<NoAnswer> for PersonError {
    fn from(e: NoAnswer) -> Self {
        Self::NoAnswer(e.0)
    }
}

/// The session's person, as a tool call reaches them.
#[derive(Clone)]
pub struct PersonDoor {
    approver: Arc<dyn Approver>,
    events: Arc<dyn EventSink>,
    session_id: String,
}

impl std::fmt::Debug for PersonDoor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PersonDoor")
            .field("session_id", &self.session_id)
            .finish()
    }
}

impl PersonDoor {
    pub fn new(
        approver: Arc<dyn Approver>,
        events: Arc<dyn EventSink>,
        session_id: impl Into<String>,
    ) -> Self {
        Self {
            approver,
            events,
            session_id: session_id.into(),
        }
    }

    /// Shows `plan` (markdown) for approval; resolves with the person's choice.
    pub async fn review_plan(
        &self,
        tool_use_id: &str,
        plan: &str,
        cancel: &CancellationToken,
    ) -> Result<PlanChoice, PersonError> {
        let request = PlanRequest {
            id: uuid::Uuid::new_v4().to_string(),
            session_id: self.session_id.clone(),
            tool_use_id: tool_use_id.to_string(),
            plan: plan.to_string(),
        };
        let id = request.id.clone();
        self.events.emit(SessionEvent::PlanReviewRequested {
            request: request.clone(),
        });
        let answer = tokio::select! {
            answer = self.approver.review_plan(request) => Some(answer),
            _ = cancel.cancelled() => None,
        };
        self.resolved(id);
        Ok(answer.ok_or(PersonError::Cancelled)??.choice)
    }

    /// Asks `questions`; resolves with what the person did.
    pub async fn ask_questions(
        &self,
        tool_use_id: &str,
        questions: Vec<Question>,
        cancel: &CancellationToken,
    ) -> Result<QuestionOutcome, PersonError> {
        let request = QuestionRequest {
            id: uuid::Uuid::new_v4().to_string(),
            session_id: self.session_id.clone(),
            tool_use_id: tool_use_id.to_string(),
            questions,
        };
        let id = request.id.clone();
        self.events.emit(SessionEvent::QuestionsAsked {
            request: request.clone(),
        });
        let answer = tokio::select! {
            answer = self.approver.ask_questions(request) => Some(answer),
            _ = cancel.cancelled() => None,
        };
        self.resolved(id);
        Ok(answer.ok_or(PersonError::Cancelled)??.outcome)
    }

    /// Shows the person the agent's brief (it waits for nothing).
    pub fn brief(&self, message: &str, status: tandem_protocol::BriefStatus) {
        self.events.emit(SessionEvent::Brief {
            message: message.to_string(),
            status,
        });
    }

    /// Hands the person the file at `path` (absolute, `bytes` long) with the agent's `caption`.
    pub fn send_file(&self, path: &std::path::Path, bytes: u64, caption: Option<&str>) {
        self.events.emit(SessionEvent::UserFile {
            path: path.display().to_string(),
            bytes,
            caption: caption.map(str::to_string),
        });
    }

    /// Asks the window for a desktop notification with `title` and `message`.
    pub fn push_notification(&self, title: &str, message: &str) {
        self.events.emit(SessionEvent::PushNotification {
            title: title.to_string(),
            message: message.to_string(),
        });
    }

    fn resolved(&self, request_id: String) {
        self.events
            .emit(SessionEvent::ApprovalResolved { request_id });
    }
}
