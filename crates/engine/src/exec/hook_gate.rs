//! Where hooks meet the permission decision (docs/hooks.md §7, docs/permissions.md §1): a hook deny always blocks; a
//! hook allow skips the prompt but never a deny rule, an ask rule or a safety check; a hook ask never overrides a deny.
//! Also the helpers the pipeline calls to run each tool event's hooks.

use std::path::Path;

use serde_json::Value;
use tandem_protocol::{DecisionBehavior, DecisionSource, PermissionDecision, PermissionMode};
use tracing::Instrument;

use crate::hooks::payload::ToolCall;
use crate::hooks::{
    EventInput, HookDecision, HookInput, HookVerdict, combine, run_hooks, trace_step,
};
use crate::permission::{Evaluation, PermissionContext};

/// Runs the hooks of `input`'s event that match it (if any are configured) with `input` on their stdin, and
/// combines their answers. They run in a `hooks` span naming the event and what its matchers saw.
pub async fn run_event(
    ctx: &PermissionContext,
    session_id: &str,
    input: EventInput,
) -> Option<HookVerdict> {
    run_event_except(ctx, session_id, input, &[]).await
}

/// As [`run_event`], leaving out the hooks whose commands are in `ran` (those that already saw the call).
pub async fn run_event_except(
    ctx: &PermissionContext,
    session_id: &str,
    input: EventInput,
    ran: &[crate::settings::HookCommand],
) -> Option<HookVerdict> {
    let event = input.event();
    let mut commands = ctx.hooks.commands_for(event, input.matched());
    commands.retain(|hook| !ran.iter().any(|r| r.command == hook.command));
    if commands.is_empty() {
        return None;
    }
    let base = HookInput {
        session_id: session_id.to_string(),
        transcript_path: crate::hooks::given_path(&crate::hooks::transcript_path(session_id)),
        cwd: ctx.cwd.clone(),
        permission_mode: ctx.mode.as_str().to_string(),
        project_dir: ctx.project_root.clone(),
    };
    let span = tracing::info_span!("hooks", event = %event, matched = input.matched());
    let input = base.payload(input);
    let runs = run_hooks(&commands, &input, &ctx.cwd, &ctx.project_root)
        .instrument(span)
        .await;
    let mut verdict = combine(event, &runs);
    verdict.steps = runs
        .iter()
        .zip(&commands)
        .map(|(run, hook)| trace_step(event, run, hook.source.label()))
        .collect();
    Some(verdict)
}

/// Whether PreToolUse hooks are configured for calls of `tool`.
pub fn has_pre_tool_use(ctx: &PermissionContext, tool: &str) -> bool {
    !ctx.hooks
        .commands_for(crate::hooks::HookEvent::PreToolUse, Some(tool))
        .is_empty()
}

/// Whether PostToolUse hooks are configured for calls of `tool` (they read the result's data).
pub fn has_post_tool_use(ctx: &PermissionContext, tool: &str) -> bool {
    !ctx.hooks
        .commands_for(crate::hooks::HookEvent::PostToolUse, Some(tool))
        .is_empty()
}

/// `own` (the call's own PreToolUse verdict) with `shell` (the verdict of the hooks on Bash, which saw the call's
/// shell command as a Bash call) joined in: the stronger decision wins (deny, then ask, then allow) with its reason;
/// their context, messages, errors and trace steps add up; a rewritten input only ever comes from `own` (a Bash
/// input does not fit another tool).
pub fn join_shell_verdict(own: Option<HookVerdict>, shell: HookVerdict) -> HookVerdict {
    let rank = |d: Option<HookDecision>| match d {
        Some(HookDecision::Deny) => 3,
        Some(HookDecision::Ask) => 2,
        Some(HookDecision::Allow) => 1,
        None => 0,
    };
    let mut out = own.unwrap_or_default();
    if rank(shell.decision) > rank(out.decision) {
        out.decision = shell.decision;
        out.reason = shell.reason;
        out.decided_by = shell.decided_by;
    }
    out.additional_context.extend(shell.additional_context);
    out.system_messages.extend(shell.system_messages);
    out.errors.extend(shell.errors);
    out.steps.extend(shell.steps);
    if out.stop.is_none() {
        out.stop = shell.stop;
    }
    out
}

/// The tool call a tool event's hooks read.
pub fn tool_call(tool: &str, input: &Value, tool_use_id: &str) -> ToolCall {
    ToolCall {
        tool_name: tool.to_string(),
        tool_input: input.clone(),
        tool_use_id: tool_use_id.to_string(),
    }
}

fn hook_source(v: &HookVerdict) -> Option<String> {
    v.decided_by.as_ref().map(|c| format!("hook: {c}"))
}

/// Combines a PreToolUse verdict with the rules' evaluation of the (possibly rewritten) input.
pub fn resolve(hook: Option<&HookVerdict>, eval: Evaluation, mode: PermissionMode) -> Evaluation {
    let Some(hook) = hook else { return eval };
    let reason = hook
        .reason
        .as_deref()
        .filter(|r| !r.trim().is_empty())
        .map(|r| format!(": {r}"))
        .unwrap_or_default();
    let command = hook.decided_by.clone().unwrap_or_default();
    let decision = |d: DecisionBehavior, text: String| PermissionDecision {
        decision: d,
        reason: text,
        rule: None,
        source: hook_source(hook),
        decided_by: Some(DecisionSource::Hook {
            command: command.clone(),
        }),
    };
    match hook.decision {
        None => eval,
        Some(HookDecision::Deny) => Evaluation {
            decision: decision(
                DecisionBehavior::Deny,
                format!("blocked by the hook `{command}`{reason}"),
            ),
            forced: false,
            suggestions: Vec::new(),
            converted_ask: false,
        },
        Some(HookDecision::Allow) => {
            let rules_stop = match eval.behavior() {
                DecisionBehavior::Deny => !eval.converted_ask || eval.forced,
                DecisionBehavior::Ask => eval.forced,
                DecisionBehavior::Allow => false,
            };
            if rules_stop {
                return eval;
            }
            Evaluation {
                decision: decision(
                    DecisionBehavior::Allow,
                    format!("allowed by the hook `{command}`{reason}"),
                ),
                forced: false,
                suggestions: Vec::new(),
                converted_ask: false,
            }
        }
        Some(HookDecision::Ask) => {
            if eval.behavior() == DecisionBehavior::Deny {
                return eval;
            }
            let mut e = Evaluation {
                decision: decision(
                    DecisionBehavior::Ask,
                    format!("the hook `{command}` asks{reason}"),
                ),
                forced: true,
                suggestions: Vec::new(),
                converted_ask: false,
            };
            if mode == PermissionMode::DontAsk {
                e.decision.decision = DecisionBehavior::Deny;
                e.decision.decided_by = Some(DecisionSource::Mode { mode });
                e.decision
                    .reason
                    .push_str(" — dontAsk mode denies what would ask");
                e.converted_ask = true;
            }
            e
        }
    }
}

/// Whether a path is inside the project (for hook inputs, which get absolute file paths).
pub fn absolute_paths(input: &Value, cwd: &Path) -> Value {
    let mut out = input.clone();
    if let Some(obj) = out.as_object_mut() {
        for key in ["file_path", "notebook_path", "path"] {
            if let Some(Value::String(p)) = obj.get(key)
                && !Path::new(p).is_absolute()
                && !p.starts_with('~')
            {
                let abs = cwd.join(p).display().to_string();
                obj.insert(key.into(), Value::String(abs));
            }
        }
    }
    out
}

/// What PostToolUse hooks tell the model: a block reason and every additional context, in order.
pub fn feedback_for_model(v: &HookVerdict) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(reason) = &v.block {
        parts.push(format!("PostToolUse hook feedback: {reason}"));
    }
    parts.extend(v.additional_context.iter().cloned());
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// Shows hook errors and system messages to the user.
pub fn notify(events: &dyn crate::events::EventSink, verdict: &HookVerdict) {
    for message in verdict.errors.iter().chain(&verdict.system_messages) {
        events.emit(tandem_protocol::SessionEvent::Notice {
            message: message.clone(),
        });
    }
}

/// Appends text for the model to a tool result.
pub fn append_text(
    content: crate::model::ToolResultContent,
    extra: &str,
) -> crate::model::ToolResultContent {
    match content {
        crate::model::ToolResultContent::Text(mut t) => {
            t.push('\n');
            t.push_str(extra);
            crate::model::ToolResultContent::Text(t)
        }
        crate::model::ToolResultContent::Blocks(mut blocks) => {
            blocks.push(crate::model::ResultBlock::Text {
                text: extra.to_string(),
            });
            crate::model::ToolResultContent::Blocks(blocks)
        }
    }
}
