//! Deny and ask rules that cannot be used (they do not parse): nothing can be matched against them, but they are
//! not dropped. The calls they might have been written for ask, naming the rule, until it is fixed.

use tandem_protocol::DecisionBehavior;

use super::PermissionContext;
use super::verdict::Evaluation;

/// Turns an answer that is neither a deny nor a forced ask into a forced ask when a deny or ask rule that cannot be
/// used might cover a call of `tool`: the decision names that rule.
pub(crate) fn unusable_rules(ctx: &PermissionContext, tool: &str, eval: Evaluation) -> Evaluation {
    if eval.behavior() == DecisionBehavior::Deny
        || (eval.forced && eval.behavior() == DecisionBehavior::Ask)
    {
        return eval;
    }
    let Some(rule) = ctx.rules.unusable().iter().find(|r| r.might_cover(tool)) else {
        return eval;
    };
    let reason = format!(
        "the {} rule `{}` ({}) cannot be used ({}); it might be meant for this call, so the call asks until the \
         rule is fixed (without it: {})",
        rule.behavior.as_str(),
        rule.text,
        rule.source.label(),
        rule.why,
        eval.decision.reason
    );
    Evaluation::named_rule(
        DecisionBehavior::Ask,
        reason,
        &rule.text,
        &rule.source,
        true,
    )
}
