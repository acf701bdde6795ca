//! Approvers for tests: answer from a script and remember what was asked.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::{Map, Value};
use tandem_protocol::{
    ApprovalAnswer, ApprovalChoice, ApprovalRequest, ElicitationAction, ElicitationAnswer,
    ElicitationRequest, PlanAnswer, PlanChoice, PlanRequest, QuestionAnswer, QuestionOutcome,
    QuestionRequest,
};

use crate::approver::{Approver, NoAnswer};

/// Answers permission requests with scripted choices in order (then `fallback`), plan reviews, questions and MCP
/// servers' forms with their own scripts (once a script is used up: [`NoAnswer`]), and records every request.
#[derive(Debug, Clone)]
pub struct ScriptedApprover {
    answers: Arc<Mutex<VecDeque<ApprovalChoice>>>,
    fallback: ApprovalChoice,
    asked: Arc<Mutex<Vec<ApprovalRequest>>>,
    plans: Arc<Mutex<VecDeque<PlanChoice>>>,
    plans_asked: Arc<Mutex<Vec<PlanRequest>>>,
    questions: Arc<Mutex<VecDeque<QuestionOutcome>>>,
    questions_asked: Arc<Mutex<Vec<QuestionRequest>>>,
    forms: Arc<Mutex<VecDeque<FormReply>>>,
    forms_asked: Arc<Mutex<Vec<ElicitationRequest>>>,
}

/// A scripted answer to a server's form: what the person does, and the values sent with `accept`.
pub type FormReply = (ElicitationAction, Option<Map<String, Value>>);

fn pop<T>(queue: &Mutex<VecDeque<T>>) -> Option<T> {
    queue.lock().ok().and_then(|mut q| q.pop_front())
}

fn push<T>(list: &Mutex<Vec<T>>, item: T) {
    if let Ok(mut list) = list.lock() {
        list.push(item);
    }
}

fn copy<T: Clone>(list: &Mutex<Vec<T>>) -> Vec<T> {
    list.lock().map(|l| l.clone()).unwrap_or_default()
}

impl ScriptedApprover {
    /// Answers `answers` in order, then `fallback`.
    pub fn new(
        answers: impl IntoIterator<Item = ApprovalChoice>,
        fallback: ApprovalChoice,
    ) -> Self {
        super::isolate_app_data();
        Self {
            answers: Arc::new(Mutex::new(answers.into_iter().collect())),
            fallback,
            asked: Arc::new(Mutex::new(Vec::new())),
            plans: Arc::default(),
            plans_asked: Arc::default(),
            questions: Arc::default(),
            questions_asked: Arc::default(),
            forms: Arc::default(),
            forms_asked: Arc::default(),
        }
    }

    /// Answers MCP servers' forms with `replies` in order.
    pub fn with_form_answers(self, replies: impl IntoIterator<Item = FormReply>) -> Self {
        if let Ok(mut forms) = self.forms.lock() {
            forms.extend(replies);
        }
        self
    }

    /// The forms shown so far.
    pub fn forms_asked(&self) -> Vec<ElicitationRequest> {
        copy(&self.forms_asked)
    }

    /// Answers plan reviews with `choices` in order.
    pub fn with_plan_answers(self, choices: impl IntoIterator<Item = PlanChoice>) -> Self {
        if let Ok(mut plans) = self.plans.lock() {
            plans.extend(choices);
        }
        self
    }

    /// Answers questions with `outcomes` in order.
    pub fn with_question_answers(
        self,
        outcomes: impl IntoIterator<Item = QuestionOutcome>,
    ) -> Self {
        if let Ok(mut questions) = self.questions.lock() {
            questions.extend(outcomes);
        }
        self
    }

    /// The permission requests asked so far.
    pub fn asked(&self) -> Vec<ApprovalRequest> {
        copy(&self.asked)
    }

    /// The plans shown so far.
    pub fn plans_asked(&self) -> Vec<PlanRequest> {
        copy(&self.plans_asked)
    }

    /// The questions asked so far.
    pub fn questions_asked(&self) -> Vec<QuestionRequest> {
        copy(&self.questions_asked)
    }
}

impl Approver for ScriptedApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        let choice = pop(&self.answers).unwrap_or(self.fallback);
        let id = request.id.clone();
        push(&self.asked, request);
        Box::pin(async move { ApprovalAnswer::new(id, choice) })
    }

    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        let choice = pop(&self.plans);
        let request_id = request.id.clone();
        push(&self.plans_asked, request);
        Box::pin(async move {
            choice
                .map(|choice| PlanAnswer { request_id, choice })
                .ok_or_else(NoAnswer::nobody)
        })
    }

    fn ask_questions(
        &self,
        request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        let outcome = pop(&self.questions);
        let request_id = request.id.clone();
        push(&self.questions_asked, request);
        Box::pin(async move {
            outcome
                .map(|outcome| QuestionAnswer {
                    request_id,
                    outcome,
                })
                .ok_or_else(NoAnswer::nobody)
        })
    }

    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> BoxFuture<'_, Result<ElicitationAnswer, NoAnswer>> {
        let reply = pop(&self.forms);
        let request_id = request.id.clone();
        push(&self.forms_asked, request);
        Box::pin(async move {
            reply
                .map(|(action, content)| ElicitationAnswer {
                    request_id,
                    action,
                    content,
                })
                .ok_or_else(NoAnswer::nobody)
        })
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
        super::isolate_app_data();
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
