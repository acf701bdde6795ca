//! How a sub-agent's conversation reaches the session: its events wrapped as [`SessionEvent::SubAgent`] (its file
//! changes naming it), and its questions passed to the session's approver naming it (bubble mode).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use futures::future::BoxFuture;
use tandem_protocol::{
    ApprovalAnswer, ApprovalRequest, PlanAnswer, PlanRequest, QuestionAnswer, QuestionRequest,
    SessionEvent, SubAgentOrigin, ToolDetail,
};

use crate::approver::{Approver, NoAnswer};
use crate::events::EventSink;
use crate::session::changes::Attribution;

/// Forwards a sub-agent's events to the session's sink wrapped as [`SessionEvent::SubAgent`]; its approval
/// requests go unwrapped (the person must see them), naming the sub-agent. Counts the tool calls.
pub(super) struct TaggedSink {
    pub parent: Arc<dyn EventSink>,
    pub origin: SubAgentOrigin,
    pub tool_calls: AtomicU32,
    /// Where the files it changes are recorded as its.
    pub attribution: Arc<Attribution>,
}

impl EventSink for TaggedSink {
    fn emit(&self, event: SessionEvent) {
        match event {
            SessionEvent::ApprovalRequested { mut request } => {
                request.sub_agent = Some(Box::new(self.origin.clone()));
                self.parent
                    .emit(SessionEvent::ApprovalRequested { request });
            }
            event @ (SessionEvent::ApprovalResolved { .. }
            | SessionEvent::PlanReviewRequested { .. }
            | SessionEvent::QuestionsAsked { .. }) => self.parent.emit(event),
            mut event => {
                if let SessionEvent::ToolCallResult { detail, .. } = &mut event {
                    self.tool_calls.fetch_add(1, Ordering::Relaxed);
                    if let Some(ToolDetail::FileChange {
                        path, changed_by, ..
                    }) = detail
                    {
                        self.attribution.record(path, &self.origin);
                        *changed_by = Some(Box::new(self.origin.clone()));
                    }
                }
                self.parent.emit(SessionEvent::SubAgent {
                    parent_tool_use_id: self.origin.parent_tool_use_id.clone(),
                    agent_id: self.origin.agent_id.clone(),
                    event: Box::new(event),
                });
            }
        }
    }
}

/// Passes a sub-agent's questions to the session's approver, naming the sub-agent (bubble mode).
pub(super) struct Bubble {
    pub parent: Arc<dyn Approver>,
    pub origin: SubAgentOrigin,
}

impl Approver for Bubble {
    fn ask(&self, mut request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        request.sub_agent = Some(Box::new(self.origin.clone()));
        self.parent.ask(request)
    }

    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        self.parent.review_plan(request)
    }

    fn ask_questions(
        &self,
        request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        self.parent.ask_questions(request)
    }
}
