//! Running the engine's own slash commands: `/compact [instructions]` summarises the conversation now through the
//! same compaction as the automatic one, and `/model [name]` shows the session's model with the choices or switches
//! it. Each shows as a turn of its own (the typed command, then what happened) and never reaches the model as a
//! prompt.

use tandem_protocol::{SessionEvent, TurnStopReason, Usage};

use super::Session;
use super::slash::{ANTHROPIC_MODELS, Builtin};
use crate::model::Provider;
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
        events.emit(SessionEvent::TurnStarted {
            prompt: typed.trim().to_string(),
            prompt_id: None,
        });
        let result = match command {
            Builtin::Compact { instructions } => self.compact_now(instructions).await,
            Builtin::Model { name: None } => Ok(self.model_choices()),
            Builtin::Model { name: Some(name) } => self.switch_model(name),
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
        result?;
        Ok(TurnOutcome {
            stop_reason,
            final_text,
            usage: Usage::default(),
            requests: 0,
        })
    }

    async fn compact_now(&self, instructions: &str) -> Result<String, QueryError> {
        let mut history = self.history.lock().await;
        let summarised = compact_with(
            self.model.as_ref(),
            &self.runtime,
            &self.config,
            &mut history,
            CompactTrigger::Manual { instructions },
        )
        .await?;
        if let Some(recorder) = &self.recorder {
            recorder.sync_history(&history);
            if let Err(err) = recorder.flush().await {
                tracing::warn!("session {}: {err}", self.id);
            }
        }
        Ok(if summarised == 0 {
            "Nothing to compact: the conversation has no earlier turns before the latest prompt."
                .into()
        } else {
            format!(
                "Compacted: {summarised} earlier messages were replaced by a summary; the latest prompt and its answer are kept."
            )
        })
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

    fn switch_model(&self, name: &str) -> Result<String, QueryError> {
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
