//! Running the engine's own slash commands: `/compact [instructions]` summarises the conversation now through the
//! same compaction as the automatic one, and `/model [name]` shows the session's model with the choices or switches
//! it. Each shows as a turn of its own (the typed command, then what happened) and never reaches the model as a
//! prompt; a `/compact` row is named for a rewind by an id marked on the summary it wrote.

use tandem_protocol::{SessionEvent, TurnStopReason, Usage};

use super::Session;
use super::slash::{ANTHROPIC_MODELS, Builtin};
use crate::model::{Message, Provider};
use crate::query::compact::{CompactTrigger, compact_with};
use crate::query::{QueryError, TurnOutcome};

impl Session {
    /// Runs `command` (typed as `typed`); the outcome's final text says what was done.
    pub(super) async fn run_builtin(
        &self,
        typed: &str,
        command: Builtin<'_>,
    ) -> Result<TurnOutcome, QueryError> {
        let events = self.runtime.events.clone();
        let started = |prompt_id: Option<String>| {
            events.emit(SessionEvent::TurnStarted {
                prompt: typed.trim().to_string(),
                prompt_id,
            });
        };
        // `/compact` holds the history until its turn has ended, so a prompt sent meanwhile shows after it.
        let mut held = None;
        let result = match command {
            Builtin::Compact { instructions } => {
                let mut history = self.turn.history.lock().await;
                let (result, prompt_id) = self.compact_now(&mut history, instructions).await;
                held = Some(history);
                started(prompt_id);
                result
            }
            Builtin::Model { name } => {
                started(None);
                match name {
                    None => Ok(self.model_choices()),
                    Some(name) => self.switch_model(name),
                }
            }
        };
        let (stop_reason, final_text) = match &result {
            Ok(text) => {
                events.emit(SessionEvent::Notice {
                    message: text.clone(),
                });
                (TurnStopReason::EndTurn, text.clone())
            }
            Err(why) => {
                events.emit(SessionEvent::Error {
                    message: why.to_string(),
                });
                (TurnStopReason::Error, String::new())
            }
        };
        events.emit(SessionEvent::TurnEnded { stop_reason });
        drop(held);
        result?;
        Ok(TurnOutcome {
            stop_reason,
            final_text,
            usage: Usage::default(),
            requests: 0,
        })
    }

    /// Compacts the conversation now; with what it did, the id of the `/compact` row (its row shows once the
    /// compaction is done, since only then is it known whether there is a point to name).
    ///
    /// A compaction replaces the messages before the latest prompt by a summary opening that prompt's message, and
    /// those messages are kept nowhere else (not in the store either), so the conversation from just before
    /// `/compact` cannot come back. The row's id, a new prompt id marked on the summary, therefore names the
    /// conversation as the compaction left it: rewinding or forking there keeps the summary, the prompt it kept and
    /// that prompt's answer, and drops what came after; with the files, they go back to how they were when
    /// `/compact` ran. A `/compact` that compacted nothing, or failed, changed nothing to rewind to and names no
    /// point.
    async fn compact_now(
        &self,
        history: &mut Vec<Message>,
        instructions: &str,
    ) -> (Result<String, QueryError>, Option<String>) {
        let id = self.turn.prompt_ids.next();
        let summarised = match compact_with(
            self.models.conversation.as_ref(),
            &self.runtime,
            &self.turn.config,
            history,
            CompactTrigger::Manual {
                instructions,
                id: &id,
            },
        )
        .await
        {
            Ok(summarised) => summarised,
            Err(err) => return (Err(err.into()), None),
        };
        self.transcript.sync(history);
        if let Some(recorder) = &self.recorder {
            recorder.sync_history(history);
            if let Err(err) = recorder.flush().await {
                tracing::warn!("session {}: {err}", self.id);
            }
        }
        if summarised == 0 {
            return (
                Ok("Nothing to compact: the conversation has no earlier turns before the latest prompt.".into()),
                None,
            );
        }
        (
            Ok(format!(
                "Compacted: {summarised} earlier messages were replaced by a summary; the latest prompt and its answer are kept."
            )),
            Some(id),
        )
    }

    fn model_choices(&self) -> String {
        let config = self.model_config();
        let choices = match config.provider {
            Provider::Anthropic => format!(
                "Choices: {} (or any other model name the endpoint serves).",
                ANTHROPIC_MODELS.join(", ")
            ),
            Provider::OpenAiCompatible => format!(
                "Choices: any model the server at {} serves (e.g. a name `ollama list` shows).",
                config.base_url
            ),
        };
        format!(
            "Model: {}. {choices} Type /model <name> to switch this session.",
            config.model
        )
    }

    /// Switches this session's model to `name` (the settings keep their default) and tells the session's faces
    /// (`ModelChanged`); the answer says what changed. A name with spaces, or a configuration the model cannot be
    /// made from, is refused and nothing changes.
    pub fn switch_model(&self, name: &str) -> Result<String, QueryError> {
        if name.contains(char::is_whitespace) {
            return Err(QueryError::Prompt(format!(
                "`{name}` is not a model name (it has spaces)"
            )));
        }
        let mut config = self.model_config();
        let before = std::mem::replace(&mut config.model, name.to_string());
        self.set_model_config(config)
            .map_err(|e| QueryError::Prompt(format!("the model was not changed: {e}")))?;
        self.runtime.events.emit(SessionEvent::ModelChanged {
            model: name.to_string(),
        });
        Ok(format!(
            "Model switched from {before} to {name} for this session (the settings keep their default)."
        ))
    }
}
