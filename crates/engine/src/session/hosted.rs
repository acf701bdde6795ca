//! Turns of a session whose agent runs elsewhere (an external agent Tandem hosts over the Agent Client Protocol):
//! the session names the prompt, starts its file checkpoint and tells the turn's start; the caller turns the agent's
//! updates into events on the session's sink; at the end the prompt and the answer join the stored history, so the
//! session lists, reopens and rewinds like any other.

use tandem_protocol::{SessionEvent, TurnStopReason};

use super::Session;
use crate::model::{ContentBlock, Message, Role};

/// The prefix of the model name a hosted session is stored with (`acp:NAME`, `acp:ssh://HOST/PATH`): its turns are
/// run by that agent, not by a model of Tandem's.
pub const HOSTED_MODEL_PREFIX: &str = "acp:";

/// Whether a session stored with the model `model` is hosted (its turns were run by an external agent).
pub fn is_hosted_model(model: &str) -> bool {
    model.starts_with(HOSTED_MODEL_PREFIX)
}

impl Session {
    /// Whether an external agent runs this session's turns (its model name says so, [`HOSTED_MODEL_PREFIX`]).
    pub fn is_hosted(&self) -> bool {
        is_hosted_model(self.models.conversation.model_name())
    }

    /// Starts a turn that an external agent runs: the prompt gets its id (returned), the file checkpoint of the
    /// prompt begins (file changes made through the session's tools from now on rewind to before it), and
    /// `TurnStarted` is told. A checkpoint that cannot begin is logged; the turn goes on.
    pub fn begin_hosted_turn(&self, prompt: &str) -> String {
        let prompt_id = self.turn.prompt_ids.next();
        if let Some(checkpoints) = &self.checkpoints
            && let Err(e) = checkpoints.begin_prompt(&prompt_id)
        {
            tracing::warn!("checkpoints: {e}");
        }
        self.runtime.events.emit(SessionEvent::TurnStarted {
            prompt: prompt.to_string(),
            prompt_id: Some(prompt_id.clone()),
        });
        prompt_id
    }

    /// Ends a turn begun with [`Session::begin_hosted_turn`]: the prompt (marked with its id) and the agent's answer
    /// (when it said anything) are added to the history and stored, then `TurnEnded` is told. Waits for the store's
    /// commit; a store that fails is logged (the store reports it as its failure).
    pub async fn end_hosted_turn(
        &self,
        prompt_id: &str,
        prompt: &str,
        answer: &str,
        stop_reason: TurnStopReason,
    ) {
        let mut history = self.turn.history.lock().await;
        let mut asked = Message::user_text(prompt);
        asked.marks.prompts.push(prompt_id.to_string());
        history.push(asked);
        if !answer.is_empty() {
            history.push(Message::new(
                Role::Assistant,
                vec![ContentBlock::Text {
                    text: answer.to_string(),
                }],
            ));
        }
        self.transcript.sync(&history);
        if let Some(recorder) = &self.recorder {
            recorder.sync_history(&history);
        }
        drop(history);
        self.runtime
            .events
            .emit(SessionEvent::TurnEnded { stop_reason });
        if let Some(recorder) = &self.recorder
            && let Err(e) = recorder.flush().await
        {
            tracing::warn!("session {}: {e}", self.id);
        }
    }
}

/// A file an `@path` mention of a hosted turn's prompt names.
#[derive(Debug, Clone)]
pub struct HostedMention {
    /// As typed after the `@`.
    pub mention: String,
    /// Where the mention (its `@`, the path and any quotes) stands in the prompt.
    pub span: std::ops::Range<usize>,
    /// The file, absolute.
    pub path: std::path::PathBuf,
    /// `Ok` when Read of it would run without asking (so its content may go with the prompt); `Err` says why not.
    pub readable: Result<(), String>,
}

impl Session {
    /// The files the `@path` mentions of `prompt` name (existing files; folders and words that name nothing are
    /// left out), in order and repeats included, each with whether it may be read without asking — as the window's
    /// mentions are judged for Tandem's own turns.
    pub fn hosted_mentions(&self, prompt: &str) -> Vec<HostedMention> {
        let permissions = self.runtime.permission_context();
        let tools = self.runtime.pool.all();
        let reader = super::file_mentions::MentionReader {
            cwd: &self.cwd,
            permissions: &permissions,
            tools: &tools,
            file_state: self.runtime.file_state.clone(),
        };
        super::file_mentions::file_mention_spans(prompt, &[])
            .into_iter()
            .filter_map(|(span, mention)| {
                let path = reader.resolve(&mention);
                path.is_file().then(|| HostedMention {
                    readable: reader.may_read(&path),
                    mention,
                    span,
                    path,
                })
            })
            .collect()
    }

    /// What SessionStart hooks gave for the model and no turn has taken yet (taken: it goes with one prompt).
    pub fn take_hosted_start_context(&self) -> Vec<String> {
        self.take_start_context()
    }
}
