//! Approvers for tests: answer from a script and remember what was asked.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use tandem_protocol::{ApprovalAnswer, ApprovalChoice, ApprovalRequest};

use crate::approver::Approver;

/// Answers questions with scripted choices in order (then `fallback`) and records every request.
#[derive(Debug, Clone)]
pub struct ScriptedApprover {
    answers: Arc<Mutex<VecDeque<ApprovalChoice>>>,
    fallback: ApprovalChoice,
    asked: Arc<Mutex<Vec<ApprovalRequest>>>,
}

impl ScriptedApprover {
    /// Answers `answers` in order, then `fallback`.
    pub fn new(
        answers: impl IntoIterator<Item = ApprovalChoice>,
        fallback: ApprovalChoice,
    ) -> Self {
        Self {
            answers: Arc::new(Mutex::new(answers.into_iter().collect())),
            fallback,
            asked: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// The requests asked so far.
    pub fn asked(&self) -> Vec<ApprovalRequest> {
        self.asked.lock().map(|a| a.clone()).unwrap_or_default()
    }
}

impl Approver for ScriptedApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        let choice = self
            .answers
            .lock()
            .ok()
            .and_then(|mut a| a.pop_front())
            .unwrap_or(self.fallback);
        let id = request.id.clone();
        if let Ok(mut asked) = self.asked.lock() {
            asked.push(request);
        }
        Box::pin(async move { ApprovalAnswer::new(id, choice) })
    }
}

/// Answers each request with what a function makes of it (e.g. a revision built from the request's diff), and
/// records every request.
#[derive(Clone)]
pub struct FnApprover {
    answer: Arc<dyn Fn(&ApprovalRequest) -> ApprovalAnswer + Send + Sync>,
    asked: Arc<Mutex<Vec<ApprovalRequest>>>,
}

impl std::fmt::Debug for FnApprover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FnApprover")
    }
}

impl FnApprover {
    pub fn new(
        answer: impl Fn(&ApprovalRequest) -> ApprovalAnswer + Send + Sync + 'static,
    ) -> Self {
        Self {
            answer: Arc::new(answer),
            asked: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// The requests asked so far.
    pub fn asked(&self) -> Vec<ApprovalRequest> {
        self.asked.lock().map(|a| a.clone()).unwrap_or_default()
    }
}

impl Approver for FnApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        let answer = (self.answer)(&request);
        if let Ok(mut asked) = self.asked.lock() {
            asked.push(request);
        }
        Box::pin(async move { answer })
    }
}
