//! The approval door: how the engine asks the person and gets an answer.

use futures::future::BoxFuture;
use tandem_protocol::{ApprovalAnswer, ApprovalChoice, ApprovalRequest};

/// Asks the person whether a tool call may run.
///
/// Contract: `ask` resolves with the person's answer. If the question can no longer be answered (the window closed,
/// no terminal) it resolves with [`ApprovalChoice::Deny`]. The engine drops the future when the turn is cancelled;
/// implementations must withdraw the question then (and not leave a dialog open).
pub trait Approver: Send + Sync {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer>;
}

/// An approver for runs without a person: answers every question with the same choice.
#[derive(Debug, Clone, Copy)]
pub struct FixedApprover(pub ApprovalChoice);

impl Approver for FixedApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        let choice = self.0;
        Box::pin(async move { ApprovalAnswer::new(request.id, choice) })
    }
}
