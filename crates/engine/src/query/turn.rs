//! One turn of the query loop: request, stream (starting tools as their blocks complete), feed the results back,
//! until the model stops, the request limit is reached, or the user interrupts.

use tandem_protocol::{PromptImage, SessionEvent, TurnStopReason, Usage};
use tokio_util::sync::CancellationToken;

use super::compact::{compact, estimate_tokens, needs_compaction};
use super::config::QueryConfig;
use super::step::{StepEnd, stream_and_execute};
use crate::exec::ToolRuntime;
use crate::model::{
    ContentBlock, ImageSource, Message, Model, ModelError, ModelRequest, Role, StopReason, pricing,
    text_of,
};

/// How a turn ended.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    pub stop_reason: TurnStopReason,
    /// The assistant's text of the last message.
    pub final_text: String,
    pub usage: Usage,
    /// Model requests made.
    pub requests: u32,
}

/// A turn that could not finish.
#[derive(Debug, Clone, thiserror::Error)]
pub enum QueryError {
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The prompt could not be built (a slash command that failed); nothing was sent to the model.
    #[error("{0}")]
    Prompt(String),
}

/// What the person sends in one turn: the text the transcript shows for it and the content the model gets (the
/// same text, or what a slash command expanded to, with any attached resources).
#[derive(Debug, Clone, PartialEq)]
pub struct UserPrompt {
    pub shown: String,
    pub content: Vec<ContentBlock>,
    /// The prompt's id for rewinds and forks, kept on its message (see [`crate::model::MessageMarks`]); without
    /// one (a sub-agent's prompt) the turn is named by the place of its message.
    pub id: Option<String>,
    /// The images the person sent with the prompt (already sized for the model), shown in the transcript; they
    /// are image blocks at the start of `content` (see [`UserPrompt::with_images`]).
    pub images: Vec<PromptImage>,
}

impl UserPrompt {
    /// The text of the content (its text blocks, one after the other), as hooks see the prompt.
    pub fn text(&self) -> String {
        text_of(&self.content, "\n\n")
    }

    /// The prompt with `images` before its text (as the model reads best); an empty text block is left out, so
    /// that a prompt of images alone is valid.
    pub fn with_images(mut self, images: Vec<PromptImage>) -> Self {
        if images.is_empty() {
            return self;
        }
        self.content
            .retain(|b| !matches!(b, ContentBlock::Text { text } if text.trim().is_empty()));
        let mut content: Vec<ContentBlock> = images
            .iter()
            .map(|image| ContentBlock::Image {
                source: ImageSource::Base64 {
                    media_type: image.media_type.clone(),
                    data: image.data.clone(),
                },
            })
            .collect();
        content.append(&mut self.content);
        self.content = content;
        self.images = images;
        self
    }
}

impl From<&str> for UserPrompt {
    fn from(text: &str) -> Self {
        Self {
            shown: text.to_string(),
            content: vec![ContentBlock::Text {
                text: text.to_string(),
            }],
            id: None,
            images: Vec::new(),
        }
    }
}

impl From<&String> for UserPrompt {
    fn from(text: &String) -> Self {
        Self::from(text.as_str())
    }
}

/// Appends a user prompt's content, merging it into a trailing user message (left by a turn that failed) so that
/// roles keep alternating.
fn push_user_content(history: &mut Vec<Message>, content: Vec<ContentBlock>) {
    match history.last_mut() {
        Some(last) if last.role == Role::User => last.content.extend(content),
        _ => history.push(Message::new(Role::User, content)),
    }
}

/// Appends a user prompt, merging it into a trailing user message (left by a turn that failed) so that roles keep
/// alternating.
fn push_user_text(history: &mut Vec<Message>, prompt: &str) {
    match history.last_mut() {
        Some(last) if last.role == Role::User => last.content.push(ContentBlock::Text {
            text: prompt.to_string(),
        }),
        _ => history.push(Message::user_text(prompt)),
    }
}

/// Adds the notifications of background work that ended (sub-agents' answers) and the messages other agents sent
/// (SendMessage) to the last user message, so the next request tells the model.
fn deliver_notifications(runtime: &ToolRuntime, history: &mut Vec<Message>) {
    if let Some(runner) = &runtime.sub_agents {
        for text in runner.take_notifications() {
            push_user_text(history, &text);
        }
    }
    if let Some(mailbox) = &runtime.mailbox {
        for text in mailbox.take() {
            push_user_text(history, &text);
        }
    }
}

/// Runs one turn: `prompt` is added to `history`, usage is added to `session_usage`, and the assistant's messages
/// and tool results are appended as they complete. On an error or an interrupt the history keeps what happened (a
/// cut-off message keeps its completed blocks) and every tool_use in it has its result, so the next request is valid.
///
/// The turn runs in a `turn` span naming the session and the prompt, so that what its requests, tool calls and hooks
/// log can be told apart from another turn's (a sub-agent's, a team member's) running at the same time.
#[tracing::instrument(
    name = "turn",
    skip_all,
    fields(session = %runtime.session_id, prompt = tracing::field::Empty)
)]
pub async fn run_turn(
    model: &dyn Model,
    runtime: &ToolRuntime,
    config: &QueryConfig,
    history: &mut Vec<Message>,
    session_usage: &mut Usage,
    prompt: impl Into<UserPrompt>,
    cancel: &CancellationToken,
) -> Result<TurnOutcome, QueryError> {
    let prompt: UserPrompt = prompt.into();
    let events = runtime.events.clone();
    // Without an id of its own, the prompt is named by the place of the user message that holds it.
    let prompt_id = prompt.id.clone().unwrap_or_else(|| {
        match history.last() {
            Some(last) if last.role == Role::User => history.len() - 1,
            _ => history.len(),
        }
        .to_string()
    });
    tracing::Span::current().record("prompt", tracing::field::display(&prompt_id));
    events.emit(SessionEvent::TurnStarted {
        prompt: prompt.shown.clone(),
        prompt_id: Some(prompt_id),
    });
    if !prompt.images.is_empty() {
        events.emit(SessionEvent::PromptImages {
            images: prompt.images,
        });
    }
    push_user_content(history, prompt.content);
    if let (Some(id), Some(message)) = (prompt.id, history.last_mut()) {
        message.marks.prompts.push(id);
    }
    let mut usage = Usage::default();
    let mut requests = 0u32;
    let mut final_text = String::new();
    // The context size the last response of this turn reported (0 before the first).
    let mut context_tokens = 0u64;
    // How many messages the last request carried (what `context_tokens` covers).
    let mut counted_messages = 0usize;
    let finish = |reason: TurnStopReason, final_text: String, usage: Usage, requests: u32| {
        tracing::debug!(stop_reason = ?reason, requests, "turn ended");
        events.emit(SessionEvent::TurnEnded {
            stop_reason: reason,
        });
        TurnOutcome {
            stop_reason: reason,
            final_text,
            usage,
            requests,
        }
    };

    loop {
        if requests >= config.max_turns {
            return Ok(finish(
                TurnStopReason::MaxTurns,
                final_text,
                usage,
                requests,
            ));
        }
        if let Some(gate) = &config.budget.0
            && let Some(reason) = gate.before_request().await
        {
            // Before compaction or the request: the history is as the last step left it, every call answered.
            events.emit(SessionEvent::Notice { message: reason });
            return Ok(finish(
                TurnStopReason::BudgetReached,
                final_text,
                usage,
                requests,
            ));
        }
        // The cuts Snip asked for, before the size is judged: the stored history keeps them (the events keep all).
        if let Some(ledger) = &runtime.conversation {
            ledger.apply_snips(history);
        }
        // The model's own count of what it saw last, plus an estimate of what was added since; a full estimate
        // only before the first response (estimating serialises messages, so the turn's hot path avoids it).
        let tokens = match history.get(counted_messages..) {
            Some(added) if context_tokens > 0 => context_tokens + estimate_tokens(added),
            _ => estimate_tokens(history),
        };
        if needs_compaction(&config.compaction, tokens)
            && let Err(err) = compact(model, runtime, config, history).await
        {
            events.emit(SessionEvent::Notice {
                message: format!("The conversation could not be compacted: {err}"),
            });
        }
        deliver_notifications(runtime, history);
        if let Some(note) = runtime
            .mode_notes
            .as_ref()
            .and_then(|notes| notes.note(runtime.permission_context().mode, requests == 0))
        {
            push_user_text(history, &note);
        }
        counted_messages = history.len();
        requests += 1;
        let request = ModelRequest {
            model: model.model_name().to_string(),
            max_tokens: config.max_tokens,
            system: config.system.clone(),
            messages: history.clone(),
            tools: runtime.offered_specs(),
            thinking: None,
        };
        if let Some(ledger) = &runtime.conversation {
            ledger.request_sent(&request, config.compaction.context_window);
        }
        let step = stream_and_execute(model, runtime, config, request, cancel).await;
        let called_tools = !step.results.is_empty();
        let ends_turn = step.ends_turn;
        if !step.assistant.content.is_empty() {
            final_text = step.assistant.text();
            history.push(step.assistant);
        }
        if called_tools {
            history.push(Message::new(Role::User, step.results));
        }
        match step.end {
            StepEnd::Failed(err) => {
                tracing::debug!(error = %err, requests, "turn failed");
                events.emit(SessionEvent::Error {
                    message: err.to_string(),
                });
                events.emit(SessionEvent::TurnEnded {
                    stop_reason: TurnStopReason::Error,
                });
                return Err(err.into());
            }
            StepEnd::Interrupted => {
                return Ok(finish(
                    TurnStopReason::Interrupted,
                    final_text,
                    usage,
                    requests,
                ));
            }
            StepEnd::Complete {
                stop_reason,
                usage: step_usage,
            } => {
                usage.add(&step_usage);
                if let Some(ledger) = &runtime.conversation {
                    ledger.response_counted(&step_usage);
                }
                context_tokens = step_usage.input_tokens
                    + step_usage.cache_read_input_tokens
                    + step_usage.cache_creation_input_tokens
                    + step_usage.output_tokens;
                session_usage.add(&step_usage);
                events.emit(SessionEvent::UsageUpdated {
                    turn: step_usage,
                    session: *session_usage,
                    cost_usd: pricing::cost_usd(model.model_name(), session_usage),
                });
                if let Some(gate) = &config.budget.0 {
                    gate.after_response().await;
                }
                if let Some(reason) = ends_turn {
                    // A hook's `continue: false`: no further request, whatever the model wanted.
                    events.emit(SessionEvent::Notice {
                        message: format!("A hook stopped the turn: {reason}"),
                    });
                    return Ok(finish(TurnStopReason::EndTurn, final_text, usage, requests));
                }
                if called_tools || stop_reason == StopReason::PauseTurn {
                    continue;
                }
                let reason = match stop_reason {
                    StopReason::MaxTokens => TurnStopReason::MaxTokens,
                    StopReason::Refusal => TurnStopReason::Refusal,
                    _ => TurnStopReason::EndTurn,
                };
                return Ok(finish(reason, final_text, usage, requests));
            }
        }
    }
}
