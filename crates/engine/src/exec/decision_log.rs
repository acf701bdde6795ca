//! The log lines of the permission stage: each decision with what decided it, and the person's answer.

use tandem_protocol::{ApprovalChoice, DecisionBehavior, DecisionSource, PermissionDecision};

/// The decision's answer as the log writes it.
fn behavior(b: DecisionBehavior) -> &'static str {
    match b {
        DecisionBehavior::Allow => "allow",
        DecisionBehavior::Ask => "ask",
        DecisionBehavior::Deny => "deny",
    }
}

/// What kind of thing decided, as the log writes it.
fn decided_by(source: Option<&DecisionSource>) -> &'static str {
    match source {
        None => "unknown",
        Some(DecisionSource::Rule { .. }) => "rule",
        Some(DecisionSource::Hook { .. }) => "hook",
        Some(DecisionSource::Mode { .. }) => "mode",
        Some(DecisionSource::SafetyCheck { .. }) => "safety_check",
        Some(DecisionSource::Classifier { .. }) => "classifier",
        Some(DecisionSource::Tool { .. }) => "tool",
        Some(DecisionSource::WorkingDirectories) => "working_directories",
        Some(DecisionSource::NoPrompt) => "no_prompt",
        Some(DecisionSource::Sandbox) => "sandbox",
    }
}

/// Logs (at debug, in the call's span) the decision of the rules, hooks and classifier for a call: the answer,
/// what decided it, the rule and the file it is written in when a rule did, and the reason.
pub(super) fn decided(decision: &PermissionDecision) {
    tracing::debug!(
        decision = %behavior(decision.decision),
        decided_by = %decided_by(decision.decided_by.as_ref()),
        rule = decision.rule.as_deref(),
        source = decision.source.as_deref(),
        reason = decision.reason.as_str(),
        "permission decided"
    );
}

/// Logs (at debug, in the call's span) the person's answer to a permission request (`None`: interrupted first).
pub(super) fn answered(choice: Option<&ApprovalChoice>) {
    let answer = match choice {
        None => "interrupted",
        Some(ApprovalChoice::Allow) => "allow",
        Some(ApprovalChoice::AllowAlways) => "allow_always",
        Some(ApprovalChoice::Deny) => "deny",
    };
    tracing::debug!(answer = %answer, "permission answered by the person");
}
