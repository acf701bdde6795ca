//! The pipeline one tool call goes through: find → abort check → schema → validate → backfill → permission
//! decision → ask the person → call → result block.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;

use serde_json::Value;
use tandem_protocol::{RenderHints, SessionEvent, ToolCallStatus, ToolKind, ToolOutcome};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use super::ToolRuntime;
use super::authorize::{Authorized, Gate, authorize, post_tool_hooks};
use super::hook_gate;
use super::phase_times::{Phase, PhaseTimes};
use super::planned::PlannedCall;
use crate::model::{ContentBlock, ToolResultContent};
use crate::tool::{
    ContextChange, InnerCallResult, InnerCalls, PersonDoor, ProgressSink, ToolContext, ToolError,
    ViolationSink, names,
};

/// Why a call's cancellation token fired when it was not the person: set by whoever cancels before the token
/// fires, and told to the model and the window alike.
#[derive(Debug, Clone, Default)]
pub struct CancelReason(Arc<Mutex<Option<String>>>);

impl CancelReason {
    /// Records why the calls are being stopped (the first reason given stays).
    pub fn set(&self, why: impl Into<String>) {
        if let Ok(mut slot) = self.0.lock()
            && slot.is_none()
        {
            *slot = Some(why.into());
        }
    }

    /// The message for a call stopped by its token.
    pub fn message(&self) -> String {
        self.0
            .lock()
            .ok()
            .and_then(|slot| slot.clone())
            .unwrap_or_else(|| "The tool call was interrupted by the user.".to_string())
    }
}

/// How one call ended.
#[derive(Debug, Clone)]
pub struct ToolCallOutcome {
    /// The `tool_result` block for the model.
    pub block: ContentBlock,
    pub outcome: ToolOutcome,
    /// A context change the tool asked for (only honoured for calls that are not concurrency-safe).
    pub context_change: Option<ContextChange>,
    /// A hook's `continue: false` for this call: the turn ends after the call, with this reason for the person.
    pub ends_turn: Option<String>,
    /// Texts for the model after the step's results ([`crate::tool::ToolOutput::new_messages`]).
    pub new_messages: Vec<String>,
}

fn result_block(id: &str, content: ToolResultContent, is_error: bool) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: id.to_string(),
        content,
        is_error,
    }
}

/// Emits the final event and builds the outcome of a call that did not run (or failed).
pub(super) fn finish_without_output(
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
        context_change: None,
        ends_turn: None,
        new_messages: Vec::new(),
    }
}

fn status(rt: &ToolRuntime, id: &str, status: ToolCallStatus) {
    rt.events.emit(SessionEvent::ToolCallStatusChanged {
        tool_use_id: id.to_string(),
        status,
    });
}

/// Runs one tool_use through the whole pipeline. Every call gets exactly one result, whatever happens.
pub async fn run_tool_use(
    rt: &ToolRuntime,
    id: &str,
    name: &str,
    input: &Value,
    cancel: &CancellationToken,
) -> ToolCallOutcome {
    let planned = PlannedCall::new(rt, id.to_string(), name.to_string(), input.clone());
    run_planned(rt, planned, cancel).await
}

/// Runs a planned call through the rest of the pipeline (its tool was found and its input parsed when it was
/// planned), inside a `tool_call` span naming the tool and the call. Every call gets exactly one result, whatever
/// happens.
pub async fn run_planned(
    rt: &ToolRuntime,
    planned: PlannedCall,
    cancel: &CancellationToken,
) -> ToolCallOutcome {
    run_planned_explained(rt, planned, cancel, &CancelReason::default()).await
}

/// [`run_planned`] for a call whose token may fire for a reason other than the person's interrupt: a stopped call
/// is told `reason`'s message.
pub async fn run_planned_explained(
    rt: &ToolRuntime,
    planned: PlannedCall,
    cancel: &CancellationToken,
    reason: &CancelReason,
) -> ToolCallOutcome {
    let span = tracing::info_span!("tool_call", tool = %planned.name, id = %planned.id);
    run_steps(rt, planned, cancel, reason)
        .instrument(span)
        .await
}

async fn run_steps(
    rt: &ToolRuntime,
    planned: PlannedCall,
    cancel: &CancellationToken,
    reason: &CancelReason,
) -> ToolCallOutcome {
    let mut times = PhaseTimes::start();
    let PlannedCall {
        id,
        name,
        input,
        tool,
        prepared,
        ..
    } = planned;
    let (id, name, input) = (id.as_str(), name.as_str(), &input);
    let generic_hints = RenderHints {
        kind: ToolKind::Other,
        title: name.to_string(),
        collapsible: false,
    };
    let Some(tool) = tool else {
        rt.events.emit(SessionEvent::ToolCallInput {
            tool_use_id: id.to_string(),
            name: name.to_string(),
            input: input.clone(),
            hints: generic_hints,
        });
        let message = prepared
            .err()
            .unwrap_or_else(|| format!("Error: No such tool available: {name}"));
        return finish_without_output(rt, id, ToolOutcome::Error, message);
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
    let permissions = rt.permission_context();
    let ctx = ToolContext {
        cwd: permissions.tool_cwd(&rt.cwd),
        working_dirs: permissions.working_dirs.clone(),
        file_state: rt.file_state.clone(),
        cancel: cancel.child_token(),
        progress: ProgressSink::new(move |text| {
            events.emit(SessionEvent::ToolCallProgress {
                tool_use_id: progress_id.clone(),
                text,
            })
        }),
        tool_use_id: id.to_string(),
        sub_agents: rt.sub_agents.clone(),
        completer: rt.completer.clone(),
        read_denied: permissions.read_denier(tool.name()),
        person: Some(PersonDoor::new(
            rt.approver.clone(),
            rt.events.clone(),
            rt.session_id.clone(),
        )),
        mode: permissions.mode,
        sandbox: permissions.sandbox.clone(),
        violations: {
            let events = rt.events.clone();
            let id = id.to_string();
            ViolationSink::new(move |violation| {
                events.emit(SessionEvent::SandboxViolation {
                    tool_use_id: id.clone(),
                    violation,
                })
            })
        },
        team: rt.team.clone(),
        mailbox: rt.mailbox.clone(),
        conversation: rt.conversation.clone(),
        inner_calls: [names::REPL, names::WORKFLOW]
            .contains(&tool.name())
            .then(|| {
                Arc::new(PipelineInnerCalls::new(rt.clone())) as Arc<dyn crate::tool::InnerCalls>
            }),
        result_data_wanted: hook_gate::has_post_tool_use(&permissions, tool.name()),
    };
    let prepared = match prepared {
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

    times.enter(Phase::Authorize);
    let (prepared, observable, context, revised) = match authorize(
        &Gate {
            rt,
            tool: &tool,
            ctx: &ctx,
            id,
            hints: &hints,
            cancel,
        },
        prepared,
        observable,
    )
    .await
    {
        Authorized::Run {
            prepared,
            observable,
            context,
            revised,
        } => (prepared, observable, context, revised),
        Authorized::Stop {
            outcome,
            message,
            ends_turn,
        } => {
            let mut stopped = finish_without_output(rt, id, outcome, message);
            stopped.ends_turn = ends_turn;
            return stopped;
        }
    };
    status(rt, id, ToolCallStatus::Executing);
    times.enter(Phase::Call);
    let result = tokio::select! {
        result = prepared.call(&ctx) => result,
        _ = ctx.cancel.cancelled(), if tool.interrupt_behavior() == crate::tool::InterruptBehavior::Cancel => Err(ToolError::Cancelled),
    };
    times.enter(Phase::Finish);
    // A change the person revised is written as they left it once the proposal is in place.
    let result = match (result, revised) {
        (Ok(output), Some(revised)) => super::revision::apply(&rt.file_state, &revised, output),
        (result, _) => result,
    };
    // What PreToolUse hooks added for the model comes with the result.
    let result = match (result, context) {
        (Ok(mut output), Some(extra)) => {
            output.content = hook_gate::append_text(output.content, &extra);
            Ok(output)
        }
        (result, _) => result,
    };
    let (result, ends_turn) = post_tool_hooks(rt, &tool, &observable, id, result).await;
    let mut outcome = match result {
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
                context_change: output.context_change,
                ends_turn: None,
                new_messages: output.new_messages,
            }
        }
        Err(ToolError::Cancelled) => {
            finish_without_output(rt, id, ToolOutcome::Cancelled, reason.message())
        }
        Err(ToolError::ToModel(message)) => {
            finish_without_output(rt, id, ToolOutcome::Error, message)
        }
    };
    outcome.ends_turn = ends_turn;
    outcome
}

/// Runs the calls a tool makes of other tools (the REPL's functions) on the session's runtime, through the same
/// pipeline as the model's own calls (see [`InnerCalls`] for the contract). A tool kept for inner calls only (a
/// primitive the REPL mode hides from the model) is found as well as an offered one.
#[derive(Clone)]
pub struct PipelineInnerCalls {
    rt: ToolRuntime,
}

impl PipelineInnerCalls {
    pub fn new(rt: ToolRuntime) -> Self {
        Self { rt }
    }
}

impl std::fmt::Debug for PipelineInnerCalls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PipelineInnerCalls")
    }
}

impl InnerCalls for PipelineInnerCalls {
    fn call(
        &self,
        name: String,
        id: String,
        input: Value,
        cancel: CancellationToken,
    ) -> BoxFuture<'_, InnerCallResult> {
        Box::pin(async move {
            let Some(tool) = self.rt.pool.find_with_inner(&name) else {
                return InnerCallResult {
                    ok: false,
                    text: format!("Error: No such tool available: {name}"),
                };
            };
            let mut unfinished = Unfinished {
                rt: &self.rt,
                id: Some(id.clone()),
            };
            let planned = PlannedCall::for_tool(tool, id, input);
            let outcome = run_planned(&self.rt, planned, &cancel).await;
            unfinished.id = None;
            let text = match &outcome.block {
                ContentBlock::ToolResult { content, .. } => content.as_text(),
                _ => String::new(),
            };
            InnerCallResult {
                ok: outcome.outcome == ToolOutcome::Success,
                text,
            }
        })
    }
}

/// Tells the window an inner call ended when its future is dropped before it did (the REPL's own call was
/// stopped at once): the call is shown as cancelled rather than running for ever.
struct Unfinished<'a> {
    rt: &'a ToolRuntime,
    id: Option<String>,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            finish_without_output(
                self.rt,
                &id,
                ToolOutcome::Cancelled,
                "The tool call was interrupted.".into(),
            );
        }
    }
}
