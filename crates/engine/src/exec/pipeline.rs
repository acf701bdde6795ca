//! The pipeline one tool call goes through: find → abort check → schema → validate → backfill → permission
//! decision → ask the person → call → result block.

use serde_json::Value;
use tandem_protocol::{
    ApprovalChoice, ApprovalRequest, DecisionBehavior, PermissionMode, RenderHints, RuleSuggestion,
    SessionEvent, ToolCallStatus, ToolKind, ToolOutcome,
};
use tokio_util::sync::CancellationToken;

use super::ToolRuntime;
use crate::hooks::{self, HookDecision, HookVerdict};
use crate::model::{ContentBlock, ToolResultContent};
use crate::permission::{
    CallView, ClassifierRequest, Evaluation, PermissionContext, evaluate, save_allow_rules,
};
use crate::tool::{ContextModifier, ProgressSink, ToolContext, ToolError};

/// How one call ended.
#[derive(Debug, Clone)]
pub struct ToolCallOutcome {
    /// The `tool_result` block for the model.
    pub block: ContentBlock,
    pub outcome: ToolOutcome,
    /// A context change the tool asked for (only honoured for calls that are not concurrency-safe).
    pub context_modifier: Option<ContextModifier>,
}

fn result_block(id: &str, content: ToolResultContent, is_error: bool) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: id.to_string(),
        content,
        is_error,
    }
}

/// Emits the final event and builds the outcome of a call that did not run (or failed).
fn finish_without_output(
    rt: &ToolRuntime,
    id: &str,
    outcome: ToolOutcome,
    message: String,
) -> ToolCallOutcome {
    rt.events.emit(SessionEvent::ToolCallResult {
        tool_use_id: id.to_string(),
        outcome,
        content: message.clone(),
        detail: None,
    });
    rt.events.emit(SessionEvent::ToolCallStatusChanged {
        tool_use_id: id.to_string(),
        status: ToolCallStatus::Completed,
    });
    ToolCallOutcome {
        block: result_block(id, ToolResultContent::Text(message), true),
        outcome,
        context_modifier: None,
    }
}

fn status(rt: &ToolRuntime, id: &str, status: ToolCallStatus) {
    rt.events.emit(SessionEvent::ToolCallStatusChanged {
        tool_use_id: id.to_string(),
        status,
    });
}

/// Shows hook errors and system messages to the user.
fn notify_hook_messages(rt: &ToolRuntime, verdict: &HookVerdict) {
    for message in verdict.errors.iter().chain(&verdict.system_messages) {
        rt.events.emit(SessionEvent::Notice {
            message: message.clone(),
        });
    }
}

/// Appends text for the model to a tool result.
fn append_text(content: ToolResultContent, extra: &str) -> ToolResultContent {
    match content {
        ToolResultContent::Text(mut t) => {
            t.push('\n');
            t.push_str(extra);
            ToolResultContent::Text(t)
        }
        ToolResultContent::Blocks(mut blocks) => {
            blocks.push(crate::model::ResultBlock::Text {
                text: extra.to_string(),
            });
            ToolResultContent::Blocks(blocks)
        }
    }
}

/// Auto mode: a would-be ask that no rule or safety check forced goes to the classifier; its reason is shown.
async fn auto_mode(
    permissions: &PermissionContext,
    tool: &str,
    input: &serde_json::Value,
    evaluation: Evaluation,
) -> Evaluation {
    if permissions.mode != PermissionMode::Auto
        || evaluation.forced
        || evaluation.decision.decision != DecisionBehavior::Ask
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
    if verdict.safe {
        out.decision.decision = DecisionBehavior::Allow;
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

/// Runs one tool_use through the whole pipeline. Every call gets exactly one result, whatever happens.
pub async fn run_tool_use(
    rt: &ToolRuntime,
    id: &str,
    name: &str,
    input: &Value,
    cancel: &CancellationToken,
) -> ToolCallOutcome {
    let generic_hints = RenderHints {
        kind: ToolKind::Other,
        title: name.to_string(),
        collapsible: false,
    };
    let Some(tool) = rt.pool.find(name) else {
        rt.events.emit(SessionEvent::ToolCallInput {
            tool_use_id: id.to_string(),
            name: name.to_string(),
            input: input.clone(),
            hints: generic_hints,
        });
        return finish_without_output(
            rt,
            id,
            ToolOutcome::Error,
            format!("Error: No such tool available: {name}"),
        );
    };
    if cancel.is_cancelled() {
        return finish_without_output(
            rt,
            id,
            ToolOutcome::Cancelled,
            "The tool call was cancelled before it started.".into(),
        );
    }
    let events = rt.events.clone();
    let progress_id = id.to_string();
    let ctx = ToolContext {
        cwd: rt.cwd.clone(),
        working_dirs: rt.permission_context().working_dirs.clone(),
        file_state: rt.file_state.clone(),
        cancel: cancel.child_token(),
        progress: ProgressSink::new(move |text| {
            events.emit(SessionEvent::ToolCallProgress {
                tool_use_id: progress_id.clone(),
                text,
            })
        }),
        tool_use_id: id.to_string(),
    };
    let mut prepared = match tool.prepare(input) {
        Ok(p) => p,
        Err(message) => {
            rt.events.emit(SessionEvent::ToolCallInput {
                tool_use_id: id.to_string(),
                name: name.to_string(),
                input: input.clone(),
                hints: generic_hints,
            });
            return finish_without_output(rt, id, ToolOutcome::Error, message);
        }
    };
    let mut observable = input.clone();
    tool.backfill_observable_input(&mut observable, &ctx);
    let hints = prepared.render_hints(&ctx);
    rt.events.emit(SessionEvent::ToolCallInput {
        tool_use_id: id.to_string(),
        name: tool.name().to_string(),
        input: observable.clone(),
        hints: hints.clone(),
    });
    if let Err(message) = prepared.validate(&ctx).await {
        return finish_without_output(rt, id, ToolOutcome::Error, message);
    }

    let permissions = rt.permission_context();
    let pre = hooks::run_event(
        &permissions,
        &rt.session_id,
        "PreToolUse",
        Some(tool.name()),
        hooks::tool_fields(
            tool.name(),
            &hooks::absolute_paths(&observable, &ctx.cwd),
            id,
        ),
    )
    .await;
    if let Some(verdict) = &pre {
        notify_hook_messages(rt, verdict);
        if let Some(stop) = &verdict.stop {
            return finish_without_output(
                rt,
                id,
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
                    tool.backfill_observable_input(&mut observable, &ctx);
                }
                Err(message) => {
                    return finish_without_output(
                        rt,
                        id,
                        ToolOutcome::Error,
                        format!(
                            "A PreToolUse hook rewrote the input into an invalid one: {message}"
                        ),
                    );
                }
            }
        }
    }
    let subject = prepared.permission_subject(&ctx);
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
    let evaluation = auto_mode(&permissions, tool.name(), &observable, evaluation).await;
    let decision = evaluation.decision.clone();
    rt.events.emit(SessionEvent::ToolCallDecision {
        tool_use_id: id.to_string(),
        decision: decision.clone(),
    });
    match decision.decision {
        DecisionBehavior::Allow => {}
        DecisionBehavior::Deny => {
            return finish_without_output(
                rt,
                id,
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
                "PermissionRequest",
                Some(tool.name()),
                hooks::tool_fields(
                    tool.name(),
                    &hooks::absolute_paths(&observable, &ctx.cwd),
                    id,
                ),
            )
            .await;
            if let Some(verdict) = &answered {
                notify_hook_messages(rt, verdict);
            }
            match answered.as_ref().and_then(|v| v.decision) {
                Some(HookDecision::Deny) => {
                    let why = answered.and_then(|v| v.reason).unwrap_or_default();
                    return finish_without_output(
                        rt,
                        id,
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
                                return finish_without_output(rt, id, ToolOutcome::Error, message);
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
                        input: observable.clone(),
                        title: hints.title.clone(),
                        reason: decision.reason.clone(),
                        suggestion: suggestion.clone(),
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
                            return finish_without_output(
                                rt,
                                id,
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
                            return finish_without_output(rt, id, ToolOutcome::Denied, message);
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

    status(rt, id, ToolCallStatus::Executing);
    let result = tokio::select! {
        result = prepared.call(&ctx) => result,
        _ = ctx.cancel.cancelled(), if tool.interrupt_behavior() == crate::tool::InterruptBehavior::Cancel => Err(ToolError::Cancelled),
    };
    let result = match result {
        Ok(mut output) => {
            let post = hooks::run_event(
                &permissions,
                &rt.session_id,
                "PostToolUse",
                Some(tool.name()),
                {
                    let mut f = hooks::tool_fields(tool.name(), &observable, id);
                    f.insert(
                        "tool_response".into(),
                        serde_json::Value::String(output.content.as_text()),
                    );
                    f
                },
            )
            .await;
            if let Some(verdict) = &post {
                notify_hook_messages(rt, verdict);
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
                    output.content = append_text(output.content, &extra);
                }
            }
            Ok(output)
        }
        Err(ToolError::ToModel(message)) => {
            let post = hooks::run_event(
                &permissions,
                &rt.session_id,
                "PostToolUseFailure",
                Some(tool.name()),
                {
                    let mut f = hooks::tool_fields(tool.name(), &observable, id);
                    f.insert("error".into(), serde_json::Value::String(message.clone()));
                    f
                },
            )
            .await;
            let mut message = message;
            if let Some(verdict) = &post {
                notify_hook_messages(rt, verdict);
                if let Some(extra) = hooks::feedback_for_model(verdict) {
                    message.push('\n');
                    message.push_str(&extra);
                }
            }
            Err(ToolError::ToModel(message))
        }
        Err(other) => Err(other),
    };
    match result {
        Ok(output) => {
            rt.events.emit(SessionEvent::ToolCallResult {
                tool_use_id: id.to_string(),
                outcome: ToolOutcome::Success,
                content: output.content.as_text(),
                detail: output.detail.clone(),
            });
            status(rt, id, ToolCallStatus::Completed);
            ToolCallOutcome {
                block: result_block(id, output.content, false),
                outcome: ToolOutcome::Success,
                context_modifier: output.context_modifier,
            }
        }
        Err(ToolError::Cancelled) => finish_without_output(
            rt,
            id,
            ToolOutcome::Cancelled,
            "The tool call was interrupted by the user.".into(),
        ),
        Err(ToolError::ToModel(message)) => {
            finish_without_output(rt, id, ToolOutcome::Error, message)
        }
    }
}
