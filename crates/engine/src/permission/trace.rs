//! The decision trace of one call ([`explain`]): the mode, the rule that decided and the rules it shadowed (found by
//! answering again without the deciding rule), the checks that fired, an ask turned into a deny where no one may be
//! asked, and what finally decided. Built only where a person or a script reads it (an approval dialog,
//! `permissions check`, the rules panel), never on the allow path.

use std::path::Path;

use tandem_protocol::{
    DecisionBehavior, DecisionSource, DecisionTrace, PermissionDecision, RuleRole, SafetyCheck,
    TraceCheck, TraceStep,
};

use super::bash_check::{trace_notes, unanalysable_reason};
use super::decide::{CallView, evaluate_asking, rule_beneath_check};
use super::path_forms::PathForms;
use super::rule::RuleBehavior;
use super::rule::canonical_tool_name;
use super::safety::protected;
use super::unreadable::accepted_steps;
use super::verdict::no_one_to_ask;
use super::walk::{Covered, covered_under};
use super::{PermissionContext, PermissionSubject};
use crate::tool::names;

/// How many matching rules a trace names at most (the deciding one and those it shadows).
const MAX_RULES: usize = 6;

/// The trace check naming a safety check.
pub fn trace_check(check: SafetyCheck) -> TraceCheck {
    match check {
        SafetyCheck::ProtectedPath => TraceCheck::ProtectedPath,
        SafetyCheck::CriticalRemoval => TraceCheck::CriticalRemoval,
        SafetyCheck::NetworkPath => TraceCheck::NetworkPath,
        SafetyCheck::PrivateAddress => TraceCheck::PrivateAddress,
        SafetyCheck::UnreadableSettings => TraceCheck::UnreadableSettings,
    }
}

fn rule_behavior(b: DecisionBehavior) -> RuleBehavior {
    match b {
        DecisionBehavior::Allow => RuleBehavior::Allow,
        DecisionBehavior::Ask => RuleBehavior::Ask,
        DecisionBehavior::Deny => RuleBehavior::Deny,
    }
}

/// The steps of the decision `decided` (the rules' answer for `call`, possibly changed by hooks or the classifier)
/// in `ctx`. Hook steps are added by whoever ran the hooks.
pub fn explain(
    ctx: &PermissionContext,
    call: &CallView<'_>,
    decided: &PermissionDecision,
) -> DecisionTrace {
    let mut steps = vec![TraceStep::Mode { mode: ctx.mode }];
    // An ask turned into a deny because no one may be asked: the steps name what asked, then the conversion.
    let converted = no_one_to_ask(ctx).filter(|(_, by)| {
        decided.decision == DecisionBehavior::Deny && decided.decided_by.as_ref() == Some(by)
    });
    let asked = converted
        .is_some()
        .then(|| evaluate_asking(ctx, call).decision)
        .filter(|d| d.decision == DecisionBehavior::Ask);
    let deciding = asked.as_ref().unwrap_or(decided);
    rule_steps(ctx, call, deciding, &mut steps);
    check_steps(ctx, call, deciding, &mut steps);
    steps.extend(accepted_steps(ctx, |without| {
        evaluate_asking(without, call).decision.decided_by
    }));
    if let Some(DecisionSource::Classifier { reason }) = &decided.decided_by {
        steps.push(TraceStep::Classifier {
            decision: decided.decision,
            reason: reason.clone(),
        });
    }
    if let Some((why, by)) = converted {
        steps.push(TraceStep::AskConverted {
            by,
            detail: why.to_string(),
        });
    }
    DecisionTrace {
        steps,
        decided_by: decided.decided_by.clone(),
    }
}

/// The rule that decided the rules' answer, then each rule that would have decided without the ones before it.
fn rule_steps(
    ctx: &PermissionContext,
    call: &CallView<'_>,
    decided: &PermissionDecision,
    steps: &mut Vec<TraceStep>,
) {
    let mut current = evaluate_asking(ctx, call).decision;
    if matches!(current.decided_by, Some(DecisionSource::SafetyCheck { .. }))
        && let Some(beneath) = rule_beneath_check(ctx, call)
    {
        // The check answered first; the rule it overrode is shown as shadowed, then the rules beneath that one.
        current = beneath.decision;
    }
    let mut view: Option<PermissionContext> = None;
    for _ in 0..MAX_RULES {
        let Some(
            source @ DecisionSource::Rule {
                rule,
                behavior,
                scope,
                file,
            },
        ) = current.decided_by.as_ref()
        else {
            break;
        };
        let role = if decided.decided_by.as_ref() == Some(source) {
            RuleRole::Decided
        } else {
            RuleRole::Shadowed
        };
        steps.push(TraceStep::Rule {
            rule: rule.clone(),
            behavior: *behavior,
            scope: *scope,
            file: file.clone(),
            role,
        });
        let base = view.as_ref().unwrap_or(ctx);
        let (b, text) = (rule_behavior(*behavior), rule.as_str());
        let entries: Vec<_> = base
            .entries
            .iter()
            .filter(|e| !(e.behavior == b && e.text.trim() == text))
            .cloned()
            .collect();
        let next = base.with_entries(entries);
        current = evaluate_asking(&next, call).decision;
        view = Some(next);
    }
}

/// The checks that fired for this call.
fn check_steps(
    ctx: &PermissionContext,
    call: &CallView<'_>,
    decided: &PermissionDecision,
    steps: &mut Vec<TraceStep>,
) {
    let fired = match &decided.decided_by {
        Some(DecisionSource::SafetyCheck { check }) => Some(trace_check(*check)),
        _ => None,
    };
    if let Some(check) = fired {
        steps.push(TraceStep::Check {
            check,
            detail: decided.reason.clone(),
        });
    }
    let mut push = |check: TraceCheck, detail: String| {
        if fired != Some(check) {
            steps.push(TraceStep::Check { check, detail });
        }
    };
    match call.subject {
        PermissionSubject::ReadPath(path) => {
            outside(ctx, path, &mut push);
            let tool = canonical_tool_name(call.tool_name);
            if matches!(tool, names::GLOB | names::GREP)
                && let Some(Covered::Path(id, found)) =
                    covered_under(ctx, RuleBehavior::Deny, tool, &PathForms::of(path), true)
            {
                push(
                    TraceCheck::WalksCoveredFiles,
                    format!(
                        "{tool} searches {}; the deny rule `{}` covers {}, which it leaves out",
                        path.display(),
                        ctx.rules.rule(id).text,
                        found.display()
                    ),
                );
            }
        }
        PermissionSubject::WritePath(path) => {
            if let Some((_, what)) = protected(path) {
                push(
                    TraceCheck::ProtectedPath,
                    format!("{} is a protected path ({what})", path.display()),
                );
            }
            outside(ctx, path, &mut push);
        }
        PermissionSubject::Shell { command } => {
            if let Some(why) = unanalysable_reason(command) {
                push(
                    TraceCheck::UnanalysableCommand,
                    format!("the command cannot be analysed ({why})"),
                );
            }
            for (check, detail) in trace_notes(ctx, command) {
                push(check, detail);
            }
        }
        _ => {}
    }
}

fn outside(ctx: &PermissionContext, path: &Path, push: &mut impl FnMut(TraceCheck, String)) {
    if !ctx.inside_working_dirs(&PathForms::of(path)) {
        push(
            TraceCheck::OutsideWorkingDirectories,
            format!("{} is outside the working directories", path.display()),
        );
    }
}
