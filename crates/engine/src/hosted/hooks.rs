//! PreToolUse hooks on the hosted agent's permission requests: the hooks matching the call (as the Tandem tool it is
//! checked as, or by its title) run with its input, and their answer meets the rules' as for Tandem's own calls
//! (docs/hooks.md §7): a hook deny always refuses; a hook allow answers without asking, but never over a deny, an
//! ask rule or a safety check; a hook ask asks, unless the rules deny (and `dontAsk` turns it into a deny).

use crate::exec::ToolRuntime;
use crate::exec::hook_gate::{absolute_paths, notify, run_event, tool_call};
use crate::hooks::{EventInput, HookDecision, HookVerdict};
use crate::permission::CheckAnswer;
use serde_json::Value;
use tandem_protocol::{DecisionBehavior, DecisionSource, PermissionMode};

/// Runs the PreToolUse hooks matching `tool` for call `id` (none configured: `None`); their errors and messages
/// are shown as notices.
pub async fn pre_tool_use(
    rt: &ToolRuntime,
    tool: &str,
    input: &Value,
    id: &str,
) -> Option<HookVerdict> {
    let ctx = rt.permission_context();
    let input = absolute_paths(input, &ctx.cwd);
    let verdict = run_event(
        &ctx,
        &rt.session_id,
        EventInput::PreToolUse(tool_call(tool, &input, id)),
    )
    .await?;
    notify(rt.events.as_ref(), &verdict);
    Some(verdict)
}

/// The rules' answer (`None`: the rules cannot judge the call, so it asks) with the hooks' verdict applied.
pub fn with_hook(
    answer: Option<CheckAnswer>,
    hook: Option<&HookVerdict>,
    mode: PermissionMode,
) -> Option<CheckAnswer> {
    let Some(hook) = hook else { return answer };
    let Some(wanted) = hook.decision else {
        return answer;
    };
    let command = hook.decided_by.clone().unwrap_or_default();
    let reason = hook
        .reason
        .as_deref()
        .filter(|r| !r.trim().is_empty())
        .map(|r| format!(": {r}"))
        .unwrap_or_default();
    let by_hook = |decision: DecisionBehavior, text: String| CheckAnswer {
        decision,
        reason: text,
        rule: None,
        source: Some(format!("hook: {command}")),
        decided_by: Some(DecisionSource::Hook {
            command: command.clone(),
        }),
        suggestions: Vec::new(),
        trace: answer.as_ref().and_then(|a| a.trace.clone()),
        warnings: answer
            .as_ref()
            .map(|a| a.warnings.clone())
            .unwrap_or_default(),
    };
    let rules = answer.as_ref().map(|a| a.decision);
    match wanted {
        HookDecision::Deny => Some(by_hook(
            DecisionBehavior::Deny,
            format!("blocked by the hook `{command}`{reason}"),
        )),
        HookDecision::Allow => {
            let stops = answer.as_ref().is_some_and(|a| match a.decision {
                // dontAsk's refusal of what would ask is the one deny a hook's allow lifts.
                DecisionBehavior::Deny => {
                    !matches!(a.decided_by, Some(DecisionSource::Mode { .. }))
                }
                DecisionBehavior::Ask => matches!(
                    a.decided_by,
                    Some(DecisionSource::Rule { .. } | DecisionSource::SafetyCheck { .. })
                ),
                DecisionBehavior::Allow => false,
            });
            if stops {
                return answer;
            }
            Some(by_hook(
                DecisionBehavior::Allow,
                format!("allowed by the hook `{command}`{reason}"),
            ))
        }
        HookDecision::Ask => {
            if rules == Some(DecisionBehavior::Deny) {
                return answer;
            }
            let mut asked = by_hook(
                DecisionBehavior::Ask,
                format!("the hook `{command}` asks{reason}"),
            );
            if mode == PermissionMode::DontAsk {
                asked.decision = DecisionBehavior::Deny;
                asked.decided_by = Some(DecisionSource::Mode { mode });
                asked
                    .reason
                    .push_str(" — dontAsk mode denies what would ask");
            }
            Some(asked)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_protocol::{RuleScope, SafetyCheck};

    fn answer(decision: DecisionBehavior, by: Option<DecisionSource>) -> Option<CheckAnswer> {
        let mut a = CheckAnswer::error("rules".into());
        a.decision = decision;
        a.decided_by = by;
        Some(a)
    }

    fn hook(decision: HookDecision) -> HookVerdict {
        HookVerdict {
            decision: Some(decision),
            decided_by: Some("check.sh".into()),
            ..HookVerdict::default()
        }
    }

    #[test]
    fn a_hook_meets_the_rules_as_for_tandems_own_calls() {
        use DecisionBehavior::{Allow, Ask, Deny};
        let rule = |behavior| {
            Some(DecisionSource::Rule {
                rule: "Bash(x)".into(),
                behavior,
                scope: RuleScope::UserSettings,
                file: None,
            })
        };
        let mode = Some(DecisionSource::Mode {
            mode: PermissionMode::Default,
        });
        let safety = Some(DecisionSource::SafetyCheck {
            check: SafetyCheck::ProtectedPath,
        });
        let table: Vec<(
            Option<CheckAnswer>,
            HookDecision,
            Option<DecisionBehavior>,
            bool,
        )> = vec![
            // (rules, hook, result, decided by the hook)
            (
                answer(Allow, rule(Allow)),
                HookDecision::Deny,
                Some(Deny),
                true,
            ),
            (None, HookDecision::Deny, Some(Deny), true),
            (
                answer(Deny, rule(Deny)),
                HookDecision::Allow,
                Some(Deny),
                false,
            ),
            (
                answer(Deny, mode.clone()),
                HookDecision::Allow,
                Some(Allow),
                true,
            ),
            (
                answer(Ask, rule(Ask)),
                HookDecision::Allow,
                Some(Ask),
                false,
            ),
            (answer(Ask, safety), HookDecision::Allow, Some(Ask), false),
            (
                answer(Ask, mode.clone()),
                HookDecision::Allow,
                Some(Allow),
                true,
            ),
            (None, HookDecision::Allow, Some(Allow), true),
            (answer(Allow, mode), HookDecision::Ask, Some(Ask), true),
            (
                answer(Deny, rule(Deny)),
                HookDecision::Ask,
                Some(Deny),
                false,
            ),
        ];
        for (rules, decision, expected, by_hook) in table {
            let got = with_hook(
                rules.clone(),
                Some(&hook(decision)),
                PermissionMode::Default,
            );
            assert_eq!(
                got.as_ref().map(|a| a.decision),
                expected,
                "{rules:?} {decision:?}"
            );
            let hooked = got
                .as_ref()
                .is_some_and(|a| matches!(a.decided_by, Some(DecisionSource::Hook { .. })));
            assert_eq!(hooked, by_hook, "{rules:?} {decision:?}");
        }
        let denied = with_hook(
            None,
            Some(&hook(HookDecision::Ask)),
            PermissionMode::DontAsk,
        );
        assert_eq!(denied.map(|a| a.decision), Some(Deny));
        assert!(with_hook(None, None, PermissionMode::Default).is_none());
    }
}
