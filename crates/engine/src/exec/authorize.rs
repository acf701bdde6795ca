//! The permission stage of one tool call (docs/permissions.md §1): PreToolUse hooks (a rewritten input is validated and
//! checked again), the decision, auto mode's classifier, PermissionRequest hooks, the person's answer and "Yes, and
//! don't ask again"; and the PostToolUse / PostToolUseFailure hooks after the call.

use std::sync::Arc;

use serde_json::Value;
use tandem_protocol::{
    ApprovalChoice, ApprovalRequest, DecisionBehavior, DecisionTrace, PermissionDecision,
    RenderHints, RuleSuggestion, SessionEvent, ToolCallStatus, ToolOutcome, TraceStep,
};
use tokio_util::sync::CancellationToken;

use super::ToolRuntime;
use super::decision_log;
use super::hook_gate as hooks;
use super::revision::RevisedChange;
use crate::hooks::payload::{ToolCall, ToolFailure, ToolSuccess};
use crate::hooks::{EventInput, HookDecision, HookEvent, HookVerdict};
use crate::model::ToolResultContent;
use crate::permission::{
    CallView, EarlyVerdict, Evaluation, PermissionContext, classify_if_auto, evaluate, explain,
    save_allow_rules,
};
use crate::tool::{DynTool, PermissionSubject, PreparedCall, ToolContext, ToolError, ToolOutput};

/// What the permission stage decided.
pub(super) enum Authorized {
    /// Run this (possibly rewritten) call; `context` is what PreToolUse hooks added for the model, given with the
    /// result; `revised`: the person approved the file change in a revised form, written after the call.
    Run {
        prepared: Box<dyn PreparedCall>,
        observable: Value,
        context: Option<String>,
        revised: Option<Box<RevisedChange>>,
    },
    /// Do not run it: the outcome and the message for the model; `ends_turn` when a hook's `continue: false`
    /// stops the turn after this call (with the hook's reason).
    Stop {
        outcome: ToolOutcome,
        message: String,
        ends_turn: Option<String>,
    },
}

/// Why a call does not run: the outcome and the message for the model. A step returns it as its `Err`, so the
/// steps compose with `?`.
struct Stop(ToolOutcome, String);

/// A call's parsed input and the JSON form hooks and the UI observe, which a hook may rewrite.
struct CallInput {
    prepared: Box<dyn PreparedCall>,
    observable: Value,
}

/// What a PermissionRequest hook answered for a call that would ask.
enum HookAnswer {
    /// No hook decided: the person is asked; the steps of the hooks that ran, for the decision trace.
    Undecided(Vec<TraceStep>),
    /// A hook allowed the call, possibly with a rewritten input.
    Allowed(Option<Value>),
}

/// One call in the permission stage, with everything its steps share.
pub(super) struct Gate<'a> {
    pub rt: &'a ToolRuntime,
    pub tool: &'a Arc<dyn DynTool>,
    pub ctx: &'a ToolContext,
    pub id: &'a str,
    pub hints: &'a RenderHints,
    pub cancel: &'a CancellationToken,
}

fn status(rt: &ToolRuntime, id: &str, status: ToolCallStatus) {
    rt.events.emit(SessionEvent::ToolCallStatusChanged {
        tool_use_id: id.to_string(),
        status,
    });
}

/// Decides whether the call may run: PreToolUse hooks, then the rules, hooks' answer and auto mode's classifier,
/// then (for a call that would ask) PermissionRequest hooks and the person.
pub(super) async fn authorize(
    gate: &Gate<'_>,
    prepared: Box<dyn PreparedCall>,
    observable: Value,
) -> Authorized {
    let input = CallInput {
        prepared,
        observable,
    };
    let mut ends_turn = None;
    let mut context = None;
    let mut revised = None;
    match gate
        .run(input, &mut ends_turn, &mut context, &mut revised)
        .await
    {
        Ok(input) => Authorized::Run {
            prepared: input.prepared,
            observable: input.observable,
            context,
            revised,
        },
        Err(Stop(outcome, message)) => Authorized::Stop {
            outcome,
            message,
            ends_turn,
        },
    }
}

impl Gate<'_> {
    async fn run(
        &self,
        input: CallInput,
        ends_turn: &mut Option<String>,
        context: &mut Option<String>,
        revised: &mut Option<Box<RevisedChange>>,
    ) -> Result<CallInput, Stop> {
        let permissions = self.rt.permission_context();
        // Auto mode: the classifier hears the call while its PreToolUse hooks run.
        let early = self.early_verdict(&permissions, &input);
        let (pre, input) = self.pre_tool_hooks(&permissions, input, ends_turn).await?;
        if let Some(verdict) = &pre
            && !verdict.additional_context.is_empty()
        {
            *context = Some(verdict.additional_context.join("\n"));
        }
        let evaluation = self
            .evaluate(&permissions, pre.as_ref(), &input, early)
            .await;
        match evaluation.behavior() {
            DecisionBehavior::Allow => Ok(input),
            DecisionBehavior::Deny => Err(Stop(
                ToolOutcome::Denied,
                format!(
                    "Permission to use {} was denied: {}",
                    self.tool.name(),
                    evaluation.decision.reason
                ),
            )),
            // The call's own dialog is the question.
            DecisionBehavior::Ask if self.tool.asks_person_itself() => Ok(input),
            DecisionBehavior::Ask => {
                match self.permission_request_hooks(&permissions, &input).await? {
                    HookAnswer::Allowed(None) => Ok(input),
                    HookAnswer::Allowed(Some(updated)) => self.reprepare(&updated, input, false),
                    HookAnswer::Undecided(asked) => {
                        let hooks: Vec<TraceStep> = pre
                            .iter()
                            .flat_map(|v| v.steps.iter().cloned())
                            .chain(asked)
                            .collect();
                        let answered = self
                            .ask_person(&permissions, &evaluation, &input, hooks)
                            .await?;
                        *revised = answered.revised;
                        match answered.updated_input {
                            Some(updated) => self.answered_input(&permissions, &updated).await,
                            None => Ok(input),
                        }
                    }
                }
            }
        }
    }

    /// The call a tool event's hooks read, with paths made absolute.
    fn hook_call(&self, input: &CallInput) -> ToolCall {
        hooks::tool_call(
            self.tool.name(),
            &hooks::absolute_paths(&input.observable, &self.ctx.cwd),
            self.id,
        )
    }

    /// Parses a hook's rewritten input (it is validated like the model's; `observe`: it also replaces what hooks
    /// and the UI see from now on).
    fn reprepare(
        &self,
        updated: &Value,
        input: CallInput,
        observe: bool,
    ) -> Result<CallInput, Stop> {
        let prepared = self.tool.prepare(updated).map_err(|message| {
            let message = if observe {
                format!("A PreToolUse hook rewrote the input into an invalid one: {message}")
            } else {
                message
            };
            Stop(ToolOutcome::Error, message)
        })?;
        let observable = if observe {
            let mut observable = updated.clone();
            self.tool
                .backfill_observable_input(&mut observable, self.ctx);
            observable
        } else {
            input.observable
        };
        Ok(CallInput {
            prepared,
            observable,
        })
    }

    /// The input an allowing answer replaced the proposed one with: validated like the model's, shown from now on,
    /// and refused when the rules deny it (an answer may allow what would ask, not what the rules forbid).
    async fn answered_input(
        &self,
        permissions: &PermissionContext,
        updated: &Value,
    ) -> Result<CallInput, Stop> {
        let prepared = self.tool.prepare(updated).map_err(|message| {
            Stop(
                ToolOutcome::Error,
                format!("The permission answer replaced the input with an invalid one: {message}"),
            )
        })?;
        let mut observable = updated.clone();
        self.tool
            .backfill_observable_input(&mut observable, self.ctx);
        let input = CallInput {
            prepared,
            observable,
        };
        let evaluation = self.evaluate(permissions, None, &input, None).await;
        if evaluation.behavior() == DecisionBehavior::Deny {
            return Err(Stop(
                ToolOutcome::Denied,
                format!(
                    "Permission to use {} with the input the permission answer gave was denied: {}",
                    self.tool.name(),
                    evaluation.decision.reason
                ),
            ));
        }
        Ok(input)
    }

    /// PreToolUse hooks: they may stop the turn or rewrite the input (checked against the rules again, below).
    async fn pre_tool_hooks(
        &self,
        permissions: &PermissionContext,
        input: CallInput,
        ends_turn: &mut Option<String>,
    ) -> Result<(Option<HookVerdict>, CallInput), Stop> {
        let pre = hooks::run_event(
            permissions,
            &self.rt.session_id,
            EventInput::PreToolUse(self.hook_call(&input)),
        )
        .await;
        let input = match &pre {
            None => input,
            Some(verdict) => {
                hooks::notify(self.rt.events.as_ref(), verdict);
                stopped(verdict, ends_turn)?;
                match &verdict.updated_input {
                    Some(updated) if verdict.decision != Some(HookDecision::Deny) => {
                        self.reprepare(updated, input, true)?
                    }
                    _ => input,
                }
            }
        };
        // A shell command another tool starts (Tungsten's) meets the hooks on Bash as well.
        let pre = match self.shell_hooks(permissions, &input).await {
            None => pre,
            Some(shell) => {
                hooks::notify(self.rt.events.as_ref(), &shell);
                stopped(&shell, ends_turn)?;
                Some(hooks::join_shell_verdict(pre, shell))
            }
        };
        Ok((pre, input))
    }

    /// For a tool other than Bash whose call runs a shell command: the PreToolUse hooks on Bash that did not see the
    /// call already, run as if the command were a Bash call (`tool_name` "Bash", `tool_input` `{command}`, the
    /// call's own id), so that a hook guarding shell commands cannot be gone round.
    async fn shell_hooks(
        &self,
        permissions: &PermissionContext,
        input: &CallInput,
    ) -> Option<HookVerdict> {
        if self.tool.name() == crate::tool::names::BASH {
            return None;
        }
        let PermissionSubject::Shell { command } = input.prepared.permission_subject(self.ctx)
        else {
            return None;
        };
        let ran = permissions
            .hooks
            .commands_for(HookEvent::PreToolUse, Some(self.tool.name()));
        let call = hooks::tool_call(
            crate::tool::names::BASH,
            &serde_json::json!({ "command": command }),
            self.id,
        );
        hooks::run_event_except(
            permissions,
            &self.rt.session_id,
            EventInput::PreToolUse(call),
            &ran,
        )
        .await
    }

    /// The rules' answer, before any hook.
    fn rules_answer(&self, permissions: &PermissionContext, input: &CallInput) -> Evaluation {
        let subject = input.prepared.permission_subject(self.ctx);
        evaluate(
            permissions,
            &CallView {
                tool_name: self.tool.name(),
                input: &input.observable,
                subject: &subject,
                read_only: input.prepared.is_read_only(),
            },
        )
    }

    /// In auto mode, the classifier's question for the call as it stands, put now (see [`EarlyVerdict`]); `None`
    /// in the other modes, when the call has no PreToolUse hook to wait for, or when the rules would not ask it.
    fn early_verdict(
        &self,
        permissions: &PermissionContext,
        input: &CallInput,
    ) -> Option<EarlyVerdict> {
        if permissions.mode != tandem_protocol::PermissionMode::Auto
            || permissions.classifier.is_none()
            || !hooks::has_pre_tool_use(permissions, self.tool.name())
        {
            return None;
        }
        let evaluation = hooks::resolve(
            None,
            self.rules_answer(permissions, input),
            permissions.mode,
        );
        EarlyVerdict::start(
            permissions,
            self.tool.name(),
            &classifier_view(input),
            &evaluation,
        )
    }

    /// The rules' answer, as PreToolUse hooks and auto mode's classifier leave it (using `early`, the classifier's
    /// answer to the same question put ahead); announced to the UI.
    async fn evaluate(
        &self,
        permissions: &PermissionContext,
        pre: Option<&HookVerdict>,
        input: &CallInput,
        early: Option<EarlyVerdict>,
    ) -> Evaluation {
        let evaluation = self.rules_answer(permissions, input);
        let evaluation = hooks::resolve(pre, evaluation, permissions.mode);
        let evaluation = classify_if_auto(
            permissions,
            self.tool.name(),
            &classifier_view(input),
            evaluation,
            early,
        )
        .await;
        decision_log::decided(&evaluation.decision);
        self.rt.events.emit(SessionEvent::ToolCallDecision {
            tool_use_id: self.id.to_string(),
            decision: evaluation.decision.clone(),
        });
        evaluation
    }

    /// PermissionRequest hooks answer a call that would ask before any dialog is shown.
    async fn permission_request_hooks(
        &self,
        permissions: &PermissionContext,
        input: &CallInput,
    ) -> Result<HookAnswer, Stop> {
        let answered = hooks::run_event(
            permissions,
            &self.rt.session_id,
            EventInput::PermissionRequest(self.hook_call(input)),
        )
        .await;
        let Some(verdict) = answered else {
            return Ok(HookAnswer::Undecided(Vec::new()));
        };
        hooks::notify(self.rt.events.as_ref(), &verdict);
        match verdict.decision {
            Some(HookDecision::Deny) => Err(Stop(
                ToolOutcome::Denied,
                format!(
                    "Permission to use {} was denied by a PermissionRequest hook. {}",
                    self.tool.name(),
                    verdict.reason.unwrap_or_default()
                ),
            )),
            Some(HookDecision::Allow) => Ok(HookAnswer::Allowed(verdict.updated_input)),
            _ => Ok(HookAnswer::Undecided(verdict.steps)),
        }
    }

    /// The decision trace the dialog shows: the mode, the hooks that ran (`hooks`), then the rules and checks.
    fn trace(
        &self,
        permissions: &PermissionContext,
        decision: &PermissionDecision,
        input: &CallInput,
        hooks: Vec<TraceStep>,
    ) -> DecisionTrace {
        let subject = input.prepared.permission_subject(self.ctx);
        let view = CallView {
            tool_name: self.tool.name(),
            input: &input.observable,
            subject: &subject,
            read_only: input.prepared.is_read_only(),
        };
        let mut trace = explain(permissions, &view, decision);
        let at = trace.steps.len().min(1);
        trace.steps.splice(at..at, hooks);
        trace
    }

    /// Asks the person (the approval dialog, with the change's diff and the rules "don't ask again" would save).
    /// `Ok` means they allowed it, with their revision of a file change if they made one and the input to run with
    /// if the answer replaced it; an interrupt while waiting cancels the call.
    async fn ask_person(
        &self,
        permissions: &PermissionContext,
        evaluation: &Evaluation,
        input: &CallInput,
        hooks: Vec<TraceStep>,
    ) -> Result<Allowed, Stop> {
        let decision = &evaluation.decision;
        let trace = self.trace(permissions, decision, input, hooks);
        status(self.rt, self.id, ToolCallStatus::WaitingForApproval);
        let suggestion = (!evaluation.suggestions.is_empty()).then(|| RuleSuggestion {
            rules: evaluation.suggestions.clone(),
            destination: permissions.local_settings_file.display().to_string(),
        });
        let request = ApprovalRequest {
            id: uuid::Uuid::new_v4().to_string(),
            session_id: self.rt.session_id.clone(),
            tool_use_id: self.id.to_string(),
            tool_name: self.tool.name().to_string(),
            kind: self.hints.kind,
            input: input.observable.clone(),
            title: self.hints.title.clone(),
            reason: decision.reason.clone(),
            decided_by: decision.decided_by.clone(),
            trace: Some(Box::new(trace)),
            suggestion: suggestion.clone(),
            diff: input.prepared.approval_preview(self.ctx),
            sub_agent: None,
            warnings: input.prepared.approval_warnings(self.ctx),
            previews: input.prepared.approval_previews(self.ctx),
        };
        let proposal = request.diff.clone();
        let request_id = request.id.clone();
        self.rt.events.emit(SessionEvent::ApprovalRequested {
            request: Box::new(request.clone()),
        });
        let answer = tokio::select! {
            answer = self.rt.approver.ask(request) => Some(answer),
            _ = self.cancel.cancelled() => None,
        };
        self.rt
            .events
            .emit(SessionEvent::ApprovalResolved { request_id });
        decision_log::answered(answer.as_ref().map(|a| &a.choice));
        let Some(answer) = answer else {
            return Err(Stop(
                ToolOutcome::Cancelled,
                "The user interrupted before answering the permission request.".into(),
            ));
        };
        match answer.choice {
            ApprovalChoice::Deny => {
                let mut message = format!(
                    "The user doesn't want to proceed with this tool use. The tool use was rejected ({}).",
                    decision.reason
                );
                if let Some(note) = answer.message.filter(|m| !m.trim().is_empty()) {
                    message.push_str(&format!(" The user said: {note}"));
                }
                Err(Stop(ToolOutcome::Denied, message))
            }
            choice => {
                if choice == ApprovalChoice::AllowAlways
                    && let Some(s) = suggestion
                {
                    remember_rules(self.rt, &s);
                }
                let updated_input = answer
                    .updated_input
                    .filter(|updated| *updated != input.observable);
                Ok(Allowed {
                    revised: revised_change(proposal, answer.revision, answer.message),
                    updated_input,
                })
            }
        }
    }
}

/// What an allowing answer brings besides the permission.
struct Allowed {
    /// The person's revision of a proposed file change.
    revised: Option<Box<RevisedChange>>,
    /// The input to run with instead of the proposed one.
    updated_input: Option<Value>,
}

/// `continue: false` from a PreToolUse hook: it wins over any decision; the call does not run and the turn ends after
/// it.
fn stopped(verdict: &HookVerdict, ends_turn: &mut Option<String>) -> Result<(), Stop> {
    match &verdict.stop {
        Some(stop) => {
            *ends_turn = Some(stop.clone());
            Err(Stop(
                ToolOutcome::Denied,
                format!("A hook stopped the turn: {stop}"),
            ))
        }
        None => Ok(()),
    }
}

/// What auto mode's classifier is shown of a call: the tool's own form, or its input with long texts cut.
fn classifier_view(input: &CallInput) -> Value {
    input
        .prepared
        .classifier_input()
        .unwrap_or_else(|| crate::permission::compact_input(&input.observable))
}

/// The person's revision of the proposed change, when they made one that differs from the proposal.
fn revised_change(
    proposal: Option<tandem_protocol::FileDiff>,
    revision: Option<tandem_protocol::Revision>,
    message: Option<String>,
) -> Option<Box<RevisedChange>> {
    let (proposal, revision) = proposal.zip(revision)?;
    (revision.text != proposal.new_text).then(|| {
        Box::new(RevisedChange {
            path: proposal.path.into(),
            original: proposal.old_text,
            created: proposal.is_new_file,
            proposed: proposal.new_text,
            revision,
            message,
        })
    })
}

/// "Yes, and don't ask again": saves the rules to the local settings file and grants them for this session.
fn remember_rules(rt: &ToolRuntime, suggestion: &RuleSuggestion) {
    let file = std::path::Path::new(&suggestion.destination);
    if let Err(e) = save_allow_rules(file, &suggestion.rules) {
        rt.events.emit(SessionEvent::Notice {
            message: format!("The rules could not be saved: {e}"),
        });
    }
    rt.update_permission_context(|current| current.with_session_rules(&suggestion.rules));
}

/// Runs the PostToolUse hooks after a success, PostToolUseFailure after an error; their feedback reaches the model.
pub(super) async fn post_tool_hooks(
    rt: &ToolRuntime,
    tool: &Arc<dyn DynTool>,
    observable: &Value,
    id: &str,
    result: Result<ToolOutput, ToolError>,
) -> (Result<ToolOutput, ToolError>, Option<String>) {
    let permissions = rt.permission_context();
    match result {
        Ok(mut output) => {
            let post = hooks::run_event(
                &permissions,
                &rt.session_id,
                EventInput::PostToolUse(ToolSuccess {
                    call: hooks::tool_call(tool.name(), observable, id),
                    tool_response: output
                        .structured
                        .clone()
                        .unwrap_or_else(|| Value::String(output.content.as_text())),
                }),
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
            (Ok(output), post.and_then(|v| v.stop))
        }
        Err(ToolError::ToModel(message)) => {
            let post = hooks::run_event(
                &permissions,
                &rt.session_id,
                EventInput::PostToolUseFailure(ToolFailure {
                    call: hooks::tool_call(tool.name(), observable, id),
                    error: message.clone(),
                }),
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
            (Err(ToolError::ToModel(message)), post.and_then(|v| v.stop))
        }
        Err(other) => (Err(other), None),
    }
}
