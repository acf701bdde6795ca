//! A sub-agent's conversation once its runtime is built: its turns (each kept in the store as the sidechain), the
//! SubagentStart hooks that add to its prompt, the SubagentStop hooks that may send it on, and a team member's
//! turns on its mail until it is stopped.

use std::path::Path;
use std::sync::Arc;

use tandem_protocol::{SessionEvent, Usage};
use tokio_util::sync::CancellationToken;

use super::team_member::MemberRole;
use crate::events::EventSink;
use crate::exec::ToolRuntime;
use crate::exec::hook_gate as hooks;
use crate::hooks::EventInput;
use crate::hooks::payload::{SubagentStart, SubagentStop};
use crate::model::{Message, Model};
use crate::permission::PermissionContext;
use crate::query::{QueryConfig, TurnOutcome, run_turn};
use crate::session::transcript::TranscriptFile;
use crate::store::{NewSidechain, SessionRecorder};
use crate::tool::SubAgentError;

/// How many times SubagentStop hooks may send a sub-agent on before it ends anyway.
const MAX_STOP_HOOK_ROUNDS: usize = 3;

/// A sub-agent's conversation: its model, runtime and settings, the history so far and what it used.
pub(super) struct SideConversation<'a> {
    pub model: Arc<dyn Model>,
    pub runtime: &'a ToolRuntime,
    pub config: &'a QueryConfig,
    pub cancel: &'a CancellationToken,
    /// Where each turn's history is kept as the sidechain (`None`: not stored).
    pub recorder: Option<&'a Arc<SessionRecorder>>,
    pub agent_id: &'a str,
    pub history: Vec<Message>,
    pub usage: Usage,
}

impl SideConversation<'_> {
    /// Runs one turn for `prompt` and keeps the history it left (also when the turn failed).
    pub async fn turn(&mut self, prompt: &str) -> Result<TurnOutcome, SubAgentError> {
        let result = run_turn(
            self.model.as_ref(),
            self.runtime,
            self.config,
            &mut self.history,
            &mut self.usage,
            prompt,
            self.cancel,
        )
        .await;
        if let Some(recorder) = self.recorder {
            recorder.sidechain_history(self.agent_id, &self.history);
        }
        result.map_err(|e| SubAgentError::Failed(e.to_string()))
    }

    /// After the first turn: the SubagentStop hooks may send the sub-agent on with their reason (a few times at
    /// most); returns the last turn's outcome.
    pub async fn through_stop_hooks(
        &mut self,
        mut outcome: TurnOutcome,
        hook_ids: &SubagentStart,
        transcript: &TranscriptFile,
        parent: &dyn EventSink,
    ) -> Result<TurnOutcome, SubAgentError> {
        let mut active = false;
        for _ in 0..MAX_STOP_HOOK_ROUNDS {
            if self.cancel.is_cancelled() {
                break;
            }
            transcript.sync(&self.history);
            let stop = SubagentStop {
                agent: hook_ids.clone(),
                stop_hook_active: active,
                agent_transcript_path: crate::hooks::given_path(transcript.path()),
            };
            let Some(v) = hooks::run_event(
                &self.runtime.permission_context(),
                &self.runtime.session_id,
                EventInput::SubagentStop(stop),
            )
            .await
            else {
                break;
            };
            notify_all(parent, v.errors);
            match v.block {
                Some(reason) if v.stop.is_none() => {
                    active = true;
                    outcome = self
                        .turn(&format!("SubagentStop hook feedback: {reason}"))
                        .await?;
                }
                _ => break,
            }
        }
        Ok(outcome)
    }

    /// A team member reports each turn's end to the lead, then waits for messages and answers them until it is
    /// stopped; returns the last turn's outcome.
    pub async fn as_member(
        &mut self,
        mut outcome: TurnOutcome,
        role: &MemberRole,
    ) -> Result<TurnOutcome, SubAgentError> {
        loop {
            role.report(&outcome.final_text);
            (role.status)(tandem_protocol::TeamMemberStatus::Idle);
            if !role.mailbox.wait_for_mail(self.cancel).await {
                return Ok(outcome);
            }
            (role.status)(tandem_protocol::TeamMemberStatus::Working);
            let mail = role.mailbox.take().join("\n\n");
            outcome = self.turn(&mail).await?;
        }
    }
}

/// The start of a sub-agent's conversation: its SubagentStart hooks run (their errors and messages told to the
/// person, their context added to `prompt`), then its sidechain is recorded with the session (`recorder`: none
/// without a store).
pub(super) async fn start_sidechain(
    context: &PermissionContext,
    session_id: &str,
    hook_ids: &SubagentStart,
    parent: &dyn EventSink,
    prompt: &mut String,
    recorder: Option<&SessionRecorder>,
    sidechain: NewSidechain,
) {
    let start = EventInput::SubagentStart(hook_ids.clone());
    if let Some(v) = hooks::run_event(context, session_id, start).await {
        notify_all(parent, v.errors.into_iter().chain(v.system_messages));
        for extra in v.additional_context {
            prompt.push_str("\n\n");
            prompt.push_str(&extra);
        }
    }
    if let Some(recorder) = recorder {
        recorder.record_sidechain(sidechain);
    }
}

fn notify_all(parent: &dyn EventSink, messages: impl IntoIterator<Item = String>) {
    for message in messages {
        parent.emit(SessionEvent::Notice { message });
    }
}

/// The transcript file of a sub-agent, for hooks (`agent_transcript_path`).
pub(super) fn agent_transcript(
    session_id: &str,
    agent_id: &str,
    cwd: &Path,
) -> Arc<TranscriptFile> {
    Arc::new(TranscriptFile::open(
        crate::hooks::agent_transcript_path(session_id, agent_id),
        crate::session::transcript::TranscriptOwner {
            session_id: session_id.to_string(),
            cwd: cwd.to_path_buf(),
            agent_id: Some(agent_id.to_string()),
        },
        &[],
    ))
}
