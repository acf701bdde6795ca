//! Auto mode's step of a decision: an evaluation that would ask goes to the context's classifier, whose verdict and
//! reason replace the answer; the question may be put ahead, while the call's hooks run ([`EarlyVerdict`]). Apart
//! from the classifier itself, which the context holds.

use super::classifier::{ClassifierHandle, ClassifierRequest, ClassifierVerdict};
use super::context::PermissionContext;
use super::verdict::Evaluation;

/// Auto mode: a would-be ask that no rule or safety check forced goes to the classifier; its reason is shown. With
/// `early`, a question put ahead (see [`EarlyVerdict`]) is used when it is the same question; otherwise it is dropped
/// (stopped) and the classifier is asked now.
pub async fn classify_if_auto(
    permissions: &PermissionContext,
    tool: &str,
    input: &serde_json::Value,
    evaluation: Evaluation,
    early: Option<EarlyVerdict>,
) -> Evaluation {
    let Some((classifier, request)) = question(permissions, tool, input, &evaluation) else {
        return evaluation;
    };
    let verdict = match early {
        Some(early) if early.request == request => match early.verdict().await {
            Some(verdict) => verdict,
            None => classifier.0.classify(request).await,
        },
        _ => classifier.0.classify(request).await,
    };
    let mut out = evaluation;
    out.decision.source = Some("classifier".into());
    out.decision.decided_by = Some(tandem_protocol::DecisionSource::Classifier {
        reason: verdict.reason.clone(),
    });
    if verdict.safe {
        out.decision.decision = tandem_protocol::DecisionBehavior::Allow;
        out.decision.reason = format!(
            "auto mode: the classifier judged it safe ({})",
            verdict.reason
        );
    } else {
        out.decision.reason = format!(
            "{}; the classifier asks: {}",
            out.decision.reason, verdict.reason
        );
    }
    out
}

/// The classifier and its question for a call, when auto mode puts the call to it: an ask that no rule or safety
/// check forced.
fn question(
    permissions: &PermissionContext,
    tool: &str,
    input: &serde_json::Value,
    evaluation: &Evaluation,
) -> Option<(ClassifierHandle, ClassifierRequest)> {
    if permissions.mode != tandem_protocol::PermissionMode::Auto
        || evaluation.forced
        || evaluation.decision.decision != tandem_protocol::DecisionBehavior::Ask
    {
        return None;
    }
    let classifier = permissions.classifier.clone()?;
    Some((
        classifier,
        ClassifierRequest {
            tool: tool.to_string(),
            input: input.clone(),
            reason: evaluation.decision.reason.clone(),
            cwd: permissions.cwd.clone(),
        },
    ))
}

/// The classifier's answer to a call's question, asked ahead — while the call's PreToolUse hooks run — so that a
/// call the rules would put to it waits for the slower of the two instead of both in turn. It is used only when
/// the question after the hooks is the same (the hooks neither rewrote the input nor changed the answer); dropped,
/// it stops the classifier's request.
pub struct EarlyVerdict {
    request: ClassifierRequest,
    task: tokio::task::JoinHandle<ClassifierVerdict>,
}

impl EarlyVerdict {
    /// Puts the call's question to the classifier now, on the current runtime, when auto mode would put it there
    /// (`evaluation` is the rules' answer before any hook); `None` otherwise.
    pub fn start(
        permissions: &PermissionContext,
        tool: &str,
        input: &serde_json::Value,
        evaluation: &Evaluation,
    ) -> Option<Self> {
        let (classifier, request) = question(permissions, tool, input, evaluation)?;
        let asked = request.clone();
        let task = tokio::spawn(async move { classifier.0.classify(asked).await });
        Some(Self { request, task })
    }

    /// The classifier's answer; `None` when its task failed (the caller asks again).
    async fn verdict(mut self) -> Option<ClassifierVerdict> {
        (&mut self.task).await.ok()
    }
}

impl Drop for EarlyVerdict {
    fn drop(&mut self) {
        self.task.abort();
    }
}
