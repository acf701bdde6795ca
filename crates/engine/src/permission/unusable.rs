//! Deny and ask rules that cannot be used (they do not parse): nothing can be matched against them, but they are
//! not dropped. The calls they might have been written for ask, naming the rule, until it is fixed.

use tandem_protocol::{DecisionBehavior, PermissionDecision};

use super::PermissionContext;
use super::rule::{READ_TOOLS, RuleBehavior, RuleSource, ToolPattern, WRITE_TOOLS};
use super::verdict::{Evaluation, file_of, scope_of};
use crate::tool::names;

/// A deny or ask rule that does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnusableRule {
    /// The text as written.
    pub text: String,
    pub behavior: RuleBehavior,
    pub source: RuleSource,
    /// The tools its text names; `None` when it names none that can be read, so it may be meant for any.
    pub tool: Option<ToolPattern>,
    /// Why it cannot be used.
    pub why: String,
}

impl UnusableRule {
    /// Whether the rule might have been written for a call of `tool`: the tool it names, and for a rule naming a
    /// tool that reads or writes files, every tool that does and the shell (path rules govern them all).
    pub fn might_cover(&self, tool: &str) -> bool {
        let Some(pattern) = &self.tool else {
            return true;
        };
        if pattern.matches(tool) {
            return true;
        }
        let path_tools = || READ_TOOLS.iter().chain(WRITE_TOOLS);
        path_tools().any(|t| pattern.matches(t))
            && (tool == names::BASH || path_tools().any(|t| *t == tool))
    }
}

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
    Evaluation {
        decision: PermissionDecision::by_rule(
            DecisionBehavior::Ask,
            reason,
            rule.text.clone(),
            scope_of(&rule.source),
            file_of(&rule.source),
        ),
        forced: true,
        suggestions: Vec::new(),
        converted_ask: false,
    }
}
