//! The permission stage of one tool call (seed §4.1, §4.2): PreToolUse hooks (a rewritten input is validated and
//! checked again), the decision, auto mode's classifier, PermissionRequest hooks, the person's answer and
//! "Yes, and don't ask again"; and the PostToolUse / PostToolUseFailure hooks after the call.

use std::sync::Arc;

use serde_json::Value;
use tandem_protocol::{
    ApprovalChoice, ApprovalRequest, DecisionBehavior, RenderHints, RuleSuggestion, SessionEvent,
    ToolCallStatus, ToolOutcome,
};
use tokio_util::sync::CancellationToken;

use super::ToolRuntime;
use super::hook_gate as hooks;
use crate::hooks::{HookDecision, HookEvent};
use crate::model::ToolResultContent;
use crate::permission::{CallView, classify_if_auto, evaluate, save_allow_rules};
use crate::tool::{DynTool, PreparedCall, ToolContext, ToolError, ToolOutput};

/// What the permission stage decided.
pub(super) enum Authorized {
    /// Run this (possibly rewritten) call.
    Run(Box<dyn PreparedCall>, Value),
    /// Do not run it: the outcome and the message for the model.
    Stop(ToolOutcome, String),
}

fn status(rt: &ToolRuntime, id: &str, status: ToolCallStatus) {
    rt.events.emit(SessionEvent::ToolCallStatusChanged {
        tool_use_id: id.to_string(),
        status,
    });
}

/// Decides whether the call may run, asking hooks, the rules, the classifier and the person as needed.
#[allow(clippy::too_many_arguments)]
pub(super) async fn authorize(
    rt: &ToolRuntime,
    tool: &Arc<dyn DynTool>,
    mut prepared: Box<dyn PreparedCall>,
    mut observable: Value,
    ctx: &ToolContext,
    id: &str,
    hints: &RenderHints,
    cancel: &CancellationToken,
) -> Authorized {
    let permissions = rt.permission_context();
    let pre = hooks::run_event(
        &permissions,
        &rt.session_id,
        HookEvent::PreToolUse,
        Some(tool.name()),
        hooks::tool_fields(
            tool.name(),
            &hooks::absolute_paths(&observable, &ctx.cwd),
            id,
        ),
    )
    .await;
    if let Some(verdict) = &pre {
        hooks::notify(rt.events.as_ref(), verdict);
        if let Some(stop) = &verdict.stop {
            return Authorized::Stop(
                ToolOutcome::Denied,
                format!("A hook stopped the turn: {stop}"),
            );
        }
        if verdict.decision != Some(HookDecision::Deny)
            && let Some(updated) = &verdict.updated_input
        {
            // A rewritten input is validated and checked against the rules again.
            match tool.prepare(updated) {
                Ok(p) => {
                    prepared = p;
                    observable = updated.clone();
                    tool.backfill_observable_input(&mut observable, ctx);
                }
                Err(message) => {
                    return Authorized::Stop(
                        ToolOutcome::Error,
                        format!(
                            "A PreToolUse hook rewrote the input into an invalid one: {message}"
                        ),
                    );
                }
            }
        }
    }
    let subject = prepared.permission_subject(ctx);
    let evaluation = evaluate(
        &permissions,
        &CallView {
            tool_name: tool.name(),
            input: &observable,
            subject: &subject,
            read_only: prepared.is_read_only(),
        },
    );
    let evaluation = hooks::resolve(pre.as_ref(), evaluation, permissions.mode);
    let evaluation = classify_if_auto(&permissions, tool.name(), &observable, evaluation).await;
    let decision = evaluation.decision.clone();
    rt.events.emit(SessionEvent::ToolCallDecision {
        tool_use_id: id.to_string(),
        decision: decision.clone(),
    });
    match decision.decision {
        DecisionBehavior::Allow => {}
        DecisionBehavior::Deny => {
            return Authorized::Stop(
                ToolOutcome::Denied,
                format!(
                    "Permission to use {} was denied: {}",
                    tool.name(),
                    decision.reason
                ),
            );
        }
        DecisionBehavior::Ask => {
            // PermissionRequest hooks answer before a dialog is shown.
            let answered = hooks::run_event(
                &permissions,
                &rt.session_id,
                HookEvent::PermissionRequest,
                Some(tool.name()),
                hooks::tool_fields(
                    tool.name(),
                    &hooks::absolute_paths(&observable, &ctx.cwd),
                    id,
                ),
            )
            .await;
            if let Some(verdict) = &answered {
                hooks::notify(rt.events.as_ref(), verdict);
            }
            match answered.as_ref().and_then(|v| v.decision) {
                Some(HookDecision::Deny) => {
                    let why = answered.and_then(|v| v.reason).unwrap_or_default();
                    return Authorized::Stop(
                        ToolOutcome::Denied,
                        format!(
                            "Permission to use {} was denied by a PermissionRequest hook. {why}",
                            tool.name()
                        ),
                    );
                }
                Some(HookDecision::Allow) => {
                    if let Some(updated) = answered.and_then(|v| v.updated_input) {
                        match tool.prepare(&updated) {
                            Ok(p) => prepared = p,
                            Err(message) => {
                                return Authorized::Stop(ToolOutcome::Error, message);
                            }
                        }
                    }
                }
                _ => {
                    status(rt, id, ToolCallStatus::WaitingForApproval);
                    let suggestion = (!evaluation.suggestions.is_empty()).then(|| RuleSuggestion {
                        rules: evaluation.suggestions.clone(),
                        destination: permissions.local_settings_file.display().to_string(),
                    });
                    let request = ApprovalRequest {
                        id: uuid::Uuid::new_v4().to_string(),
                        session_id: rt.session_id.clone(),
                        tool_use_id: id.to_string(),
                        tool_name: tool.name().to_string(),
                        kind: hints.kind,
                        input: observable.clone(),
                        title: hints.title.clone(),
                        reason: decision.reason.clone(),
                        decided_by: decision.decided_by.clone(),
                        suggestion: suggestion.clone(),
                        diff: prepared.approval_preview(ctx),
                    };
                    let request_id = request.id.clone();
                    rt.events.emit(SessionEvent::ApprovalRequested {
                        request: request.clone(),
                    });
                    let answer = tokio::select! {
                        answer = rt.approver.ask(request) => Some(answer),
                        _ = cancel.cancelled() => None,
                    };
                    rt.events
                        .emit(SessionEvent::ApprovalResolved { request_id });
                    match answer {
                        None => {
                            return Authorized::Stop(
                                ToolOutcome::Cancelled,
                                "The user interrupted before answering the permission request."
                                    .into(),
                            );
                        }
                        Some(answer) if answer.choice == ApprovalChoice::Deny => {
                            let mut message = format!(
                                "The user doesn't want to proceed with this tool use. The tool use was rejected ({}).",
                                decision.reason
                            );
                            if let Some(note) = answer.message.filter(|m| !m.trim().is_empty()) {
                                message.push_str(&format!(" The user said: {note}"));
                            }
                            return Authorized::Stop(ToolOutcome::Denied, message);
                        }
                        Some(answer) if answer.choice == ApprovalChoice::AllowAlways => {
                            if let Some(s) = suggestion {
                                remember_rules(rt, &s);
                            }
                        }
                        Some(_) => {}
                    }
                }
            }
        }
    }

    Authorized::Run(prepared, observable)
}

/// "Yes, and don't ask again": saves the rules to the local settings file and grants them for this session.
fn remember_rules(rt: &ToolRuntime, suggestion: &RuleSuggestion) {
    let file = std::path::Path::new(&suggestion.destination);
    if let Err(e) = save_allow_rules(file, &suggestion.rules) {
        rt.events.emit(SessionEvent::Notice {
            message: format!("The rules could not be saved: {e}"),
        });
    }
    let next = rt
        .permission_context()
        .with_session_rules(&suggestion.rules);
    rt.set_permission_context(next);
}

/// Runs the PostToolUse hooks after a success, PostToolUseFailure after an error; their feedback reaches the model.
pub(super) async fn post_tool_hooks(
    rt: &ToolRuntime,
    tool: &Arc<dyn DynTool>,
    observable: &Value,
    id: &str,
    result: Result<ToolOutput, ToolError>,
) -> Result<ToolOutput, ToolError> {
    let permissions = rt.permission_context();
    match result {
        Ok(mut output) => {
            let post = hooks::run_event(
                &permissions,
                &rt.session_id,
                HookEvent::PostToolUse,
                Some(tool.name()),
                {
                    let mut f = hooks::tool_fields(tool.name(), observable, id);
                    f.insert(
                        "tool_response".into(),
                        serde_json::Value::String(output.content.as_text()),
                    );
                    f
                },
            )
            .await;
            if let Some(verdict) = &post {
                hooks::notify(rt.events.as_ref(), verdict);
                if tool.is_mcp()
                    && let Some(replaced) = &verdict.updated_mcp_output
                {
                    let text = replaced
                        .as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| replaced.to_string());
                    output.content = ToolResultContent::Text(text);
                }
                if let Some(extra) = hooks::feedback_for_model(verdict) {
                    output.content = hooks::append_text(output.content, &extra);
                }
            }
            Ok(output)
        }
        Err(ToolError::ToModel(message)) => {
            let post = hooks::run_event(
                &permissions,
                &rt.session_id,
                HookEvent::PostToolUseFailure,
                Some(tool.name()),
                {
                    let mut f = hooks::tool_fields(tool.name(), observable, id);
                    f.insert("error".into(), serde_json::Value::String(message.clone()));
                    f
                },
            )
            .await;
            let mut message = message;
            if let Some(verdict) = &post {
                hooks::notify(rt.events.as_ref(), verdict);
                if let Some(extra) = hooks::feedback_for_model(verdict) {
                    message.push('\n');
                    message.push_str(&extra);
                }
            }
            Err(ToolError::ToModel(message))
        }
        Err(other) => Err(other),
    }
}
