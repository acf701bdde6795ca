//! Sub-agents on another machine (the Agent tool's `isolation: "remote"`): the session's side of the run — its
//! type, SubagentStart and SubagentStop hooks, its events tagged as a local sub-agent's, its questions bubbling to
//! the session's approver behind Tandem's rules — while a [`super::remote_door::RemoteAgents`] door (the hosted
//! layer's, `tandem acp` over SSH, given to the session's builder) carries its prompts to the far side.
//! docs/remote.md ("Remote sub-agents") describes it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use tandem_protocol::{SubAgentOrigin, Usage};
use tokio_util::sync::CancellationToken;

use super::child::{Child, SubAgentParts, agent_of, child_runtime};
use super::doors::TaggedSink;
use super::remote_door::RemoteConversation;
use super::side_conversation::{agent_transcript, start_sidechain};
use super::stop::Outcome;
use crate::events::EventSink;
use crate::exec::ToolRuntime;
use crate::exec::hook_gate as hooks;
use crate::hooks::EventInput;
use crate::hooks::payload::{SubagentStart, SubagentStop};
use crate::model::{ContentBlock, Message, Role};
use crate::session::changes::Attribution;
use crate::store::NewSidechain;
use crate::tool::{RemoteReport, SubAgentError, SubAgentReport, SubAgentRequest};

/// How many times SubagentStop hooks may send a remote sub-agent on before it ends anyway (as a local one).
const MAX_STOP_HOOK_ROUNDS: usize = 3;

/// Runs one sub-agent on the remote machine to its end (see [`crate::tool::SubAgentRunner::run`]).
pub(super) async fn run(
    parts: Arc<SubAgentParts>,
    request: SubAgentRequest,
    background: bool,
) -> Outcome {
    let Some(door) = parts.remote.clone() else {
        return Err(SubAgentError::Failed(format!(
            "no remote machine is configured for sub-agents: add \"{}\" to a settings file",
            crate::settings::REMOTE_AGENT_HOST_KEY
        )));
    };
    if request.fork.is_some() || request.worktree {
        return Err(SubAgentError::Failed(
            "a remote sub-agent cannot be a fork or run in a worktree".into(),
        ));
    }
    let started = Instant::now();
    let agent = agent_of(&parts.catalog, &request.agent_type)?;
    let agent_id = format!("{}", uuid::Uuid::new_v4().simple());
    let origin = SubAgentOrigin {
        agent_type: agent.name.clone(),
        description: request.description.clone(),
        parent_tool_use_id: request.parent_tool_use_id.clone(),
        agent_id: agent_id.clone(),
        name: None,
    };
    // Its files are on the far machine: recorded for its report, not in this session's changes view.
    let changed = Arc::new(Attribution::default());
    let sink = Arc::new(TaggedSink {
        parent: parts.runtime.events.clone(),
        origin: origin.clone(),
        tool_calls: AtomicU32::new(0),
        attribution: changed.clone(),
    });
    let cwd = parts.runtime.cwd.clone();
    let (_own_shells, context, runtime) = child_runtime(
        &parts,
        Child {
            agent: &agent,
            agent_id: &agent_id,
            origin,
            sink: sink.clone(),
            background,
            cwd: &cwd,
            member: None,
        },
    );
    let session_id = &parts.runtime.session_id;
    let hook_ids = SubagentStart {
        agent_id: agent_id.clone(),
        agent_type: agent.name.clone(),
    };
    let mut prompt = request.prompt.clone();
    start_sidechain(
        &context,
        session_id,
        &hook_ids,
        sink.parent.as_ref(),
        &mut prompt,
        parts.recorder.as_deref(),
        NewSidechain {
            agent_id: agent_id.clone(),
            parent_tool_use_id: request.parent_tool_use_id.clone(),
            agent_type: agent.name.clone(),
            description: request.description.clone(),
        },
    )
    .await;
    let cancel = &request.cancel;
    let opened = tokio::select! {
        opened = door.agents.open(&door.url, runtime.clone()) => opened,
        _ = cancel.cancelled() => return Err(SubAgentError::Cancelled),
    };
    let conversation = opened.map_err(SubAgentError::Failed)?;
    let mut history = Vec::new();
    let first = with_instructions(&agent.system_prompt, &prompt);
    let outcome = talk(&*conversation, &first, cancel, &mut history).await;
    let outcome = match outcome {
        Ok(text) => {
            stop_hooks(
                &*conversation,
                text,
                &runtime,
                &hook_ids,
                cancel,
                &mut history,
                sink.parent.as_ref(),
            )
            .await
        }
        Err(e) => Err(e),
    };
    conversation.close().await;
    if let Some(recorder) = &parts.recorder {
        recorder.sidechain_history(&agent_id, &history);
    }
    if cancel.is_cancelled() {
        return Err(SubAgentError::Cancelled);
    }
    let final_text = outcome.map_err(SubAgentError::Failed)?;
    Ok(SubAgentReport {
        agent_id,
        agent_type: agent.name,
        final_text,
        usage: Usage::default(),
        tool_calls: sink.tool_calls.load(Ordering::Relaxed),
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        worktree: None,
        remote: Some(RemoteReport {
            url: door.url,
            changed_files: changed.paths(),
        }),
    })
}

/// The first prompt: the agent type's instructions (the far Tandem has its own system prompt), then the task.
fn with_instructions(instructions: &str, task: &str) -> String {
    if instructions.trim().is_empty() {
        return task.to_string();
    }
    format!("<agent-instructions>\n{instructions}\n</agent-instructions>\n\n{task}")
}

/// One turn, kept in `history` (the prompt, and the answer when there is one).
async fn talk(
    conversation: &dyn RemoteConversation,
    prompt: &str,
    cancel: &CancellationToken,
    history: &mut Vec<Message>,
) -> Result<String, String> {
    history.push(Message::user_text(prompt));
    let answer = conversation.turn(prompt, cancel).await?;
    history.push(Message::new(
        Role::Assistant,
        vec![ContentBlock::Text {
            text: answer.clone(),
        }],
    ));
    Ok(answer)
}

/// The SubagentStop hooks after the first turn: they may send the agent on with their reason (a few times at most);
/// returns the last turn's text.
async fn stop_hooks(
    conversation: &dyn RemoteConversation,
    mut text: String,
    runtime: &ToolRuntime,
    hook_ids: &SubagentStart,
    cancel: &CancellationToken,
    history: &mut Vec<Message>,
    parent: &dyn EventSink,
) -> Result<String, String> {
    let transcript = agent_transcript(&runtime.session_id, &hook_ids.agent_id, &runtime.cwd);
    let mut active = false;
    for _ in 0..MAX_STOP_HOOK_ROUNDS {
        if cancel.is_cancelled() {
            break;
        }
        transcript.sync(history);
        let stop = SubagentStop {
            agent: hook_ids.clone(),
            stop_hook_active: active,
            agent_transcript_path: crate::hooks::given_path(transcript.path()),
        };
        let Some(verdict) = hooks::run_event(
            &runtime.permission_context(),
            &runtime.session_id,
            EventInput::SubagentStop(stop),
        )
        .await
        else {
            break;
        };
        for message in verdict.errors {
            parent.emit(tandem_protocol::SessionEvent::Notice { message });
        }
        match verdict.block {
            Some(reason) if verdict.stop.is_none() => {
                active = true;
                let prompt = format!("SubagentStop hook feedback: {reason}");
                text = talk(conversation, &prompt, cancel, history).await?;
            }
            _ => break,
        }
    }
    Ok(text)
}
