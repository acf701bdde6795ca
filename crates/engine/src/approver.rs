//! The approval door: how the engine asks the person and gets an answer — permission for a tool call, approval of a
//! plan, answers to the agent's questions, an MCP server's form (elicitation).

use futures::future::BoxFuture;
use tandem_protocol::{
    ApprovalAnswer, ApprovalChoice, ApprovalRequest, ElicitationAnswer, ElicitationRequest,
    PlanAnswer, PlanChoice, PlanRequest, QuestionAnswer, QuestionOutcome, QuestionReply,
    QuestionRequest,
};

/// Why nobody can answer a plan review or a question here (no window, a headless run); told to the agent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NoAnswer(pub String);

impl NoAnswer {
    /// The plain reason: this approver has no person behind it.
    pub fn nobody() -> Self {
        Self("nobody can answer here (no person is attached to this run)".into())
    }
}

/// Asks the person.
///
/// Contract: `ask` resolves with the person's answer to a permission request. If the question can no longer be
/// answered (the window closed, no terminal) it resolves with [`ApprovalChoice::Deny`].
///
/// `review_plan`, `ask_questions` and `elicit` resolve with the person's answer, or with [`NoAnswer`] when no person
/// can be asked at all (a headless run): the engine then tells the agent (or declines the server's form) instead of
/// waiting. Their defaults answer [`NoAnswer::nobody`], so an approver that only knows permission requests keeps
/// working. A window that closes while a plan, questions or a form wait answers [`PlanChoice::KeepPlanning`] /
/// [`QuestionOutcome::Declined`] / cancel.
///
/// The engine emits the matching event (`approval_requested`, `plan_review_requested`, `questions_asked`,
/// `elicitation_requested`) before it calls, and drops the future when the turn (or the server's request) is
/// cancelled; implementations must withdraw the question then (and not leave a dialog open). The values of an
/// accepted form are checked against it by the engine before they reach the server.
pub trait Approver: Send + Sync {
    /// May this tool call run?
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer>;

    /// Approve this plan (and leave plan mode), or keep planning with feedback?
    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        let _ = request;
        Box::pin(async { Err(NoAnswer::nobody()) })
    }

    /// The person's answers to the agent's questions.
    fn ask_questions(
        &self,
        request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        let _ = request;
        Box::pin(async { Err(NoAnswer::nobody()) })
    }

    /// The person's answer to an MCP server's form: accept with values, decline, or cancel.
    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> BoxFuture<'_, Result<ElicitationAnswer, NoAnswer>> {
        let _ = request;
        Box::pin(async { Err(NoAnswer::nobody()) })
    }
}

/// An approver for runs without a person: answers every question with the same choice. Allowing approves plans
/// (back into the mode before plan mode) and picks the first option of every question; denying keeps planning and
/// declines questions.
#[derive(Debug, Clone, Copy)]
pub struct FixedApprover(pub ApprovalChoice);

impl FixedApprover {
    fn allows(&self) -> bool {
        self.0 != ApprovalChoice::Deny
    }
}

impl Approver for FixedApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        let choice = self.0;
        Box::pin(async move { ApprovalAnswer::new(request.id, choice) })
    }

    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        let choice = if self.allows() {
            PlanChoice::Approve { mode: None }
        } else {
            PlanChoice::KeepPlanning {
                feedback: "The plan was not approved.".into(),
            }
        };
        Box::pin(async move {
            Ok(PlanAnswer {
                request_id: request.id,
                choice,
            })
        })
    }

    fn ask_questions(
        &self,
        request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        let outcome = if self.allows() {
            QuestionOutcome::Answered {
                replies: request
                    .questions
                    .iter()
                    .map(|q| QuestionReply {
                        selected: q.options.iter().take(1).map(|o| o.label.clone()).collect(),
                        other: None,
                    })
                    .collect(),
            }
        } else {
            QuestionOutcome::Declined { message: None }
        };
        Box::pin(async move {
            Ok(QuestionAnswer {
                request_id: request.id,
                outcome,
            })
        })
    }
}
