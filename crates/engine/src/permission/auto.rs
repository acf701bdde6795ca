//! Auto mode's step of a decision: an evaluation that would ask goes to the context's classifier, whose verdict and
//! reason replace the answer. Apart from the classifier itself, which the context holds.

use super::classifier::ClassifierRequest;
use super::context::PermissionContext;
use super::verdict::Evaluation;

/// Auto mode: a would-be ask that no rule or safety check forced goes to the classifier; its reason is shown.
pub async fn classify_if_auto(
    permissions: &PermissionContext,
    tool: &str,
    input: &serde_json::Value,
    evaluation: Evaluation,
) -> Evaluation {
    if permissions.mode != tandem_protocol::PermissionMode::Auto
        || evaluation.forced
        || evaluation.decision.decision != tandem_protocol::DecisionBehavior::Ask
    {
        return evaluation;
    }
    let Some(classifier) = &permissions.classifier else {
        return evaluation;
    };
    let verdict = classifier
        .0
        .classify(ClassifierRequest {
            tool: tool.to_string(),
            input: input.clone(),
            reason: evaluation.decision.reason.clone(),
            cwd: permissions.cwd.clone(),
        })
        .await;
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
