//! Compaction: when the conversation nears the context window, the older turns are summarised by the model and
//! replaced by the summary; the most recent turns are kept as they are. The PreCompact hook runs first.

use futures::StreamExt;
use tandem_protocol::SessionEvent;

pub use super::config::CompactionPolicy;
use super::config::QueryConfig;
use crate::exec::ToolRuntime;
use crate::hooks::EventInput;
use crate::hooks::payload::{PreCompact, SessionStart};
use crate::model::{
    ContentBlock, Message, MessageMarks, Model, ModelError, ModelEvent, ModelRequest, Role,
};

/// The text a compaction's summary opens with.
pub const SUMMARY_OPENING: &str = "<conversation-summary>";

/// What the summary request asks for.
const SUMMARY_REQUEST: &str = "The conversation so far is about to be compacted to save context. Write a \
    summary of it that lets you continue the work without the earlier messages: the user's requests and \
    intentions, what was done (files read and changed, commands run and their results), decisions made, errors \
    met and how they were solved, and what remains to do. Be specific: keep file paths, names and values.";

/// A rough token count of a history (the engine's one estimate, shared with CtxInspect).
pub use crate::model::estimate_tokens;

/// Whether a conversation of `tokens` should be compacted.
pub fn needs_compaction(policy: &CompactionPolicy, tokens: u64) -> bool {
    tokens * 100 >= policy.context_window * policy.threshold_percent
}

/// Whether `message` is a prompt of the person (a user message with text, not only tool results).
fn is_prompt(message: &Message) -> bool {
    message.role == Role::User
        && message
            .content
            .iter()
            .any(|b| matches!(b, ContentBlock::Text { .. }))
}

/// The index where the kept tail starts: the `keep`-th prompt from the end. `None` when nothing before it would be
/// summarised.
pub fn split_point(history: &[Message], keep: usize) -> Option<usize> {
    let prompts: Vec<usize> = (0..history.len())
        .filter(|i| is_prompt(&history[*i]))
        .collect();
    let index = *prompts.iter().rev().nth(keep.max(1) - 1)?;
    (index > 0).then_some(index)
}

/// Why a compaction runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompactTrigger<'a> {
    /// The conversation neared the context window; the latest prompts are kept as the policy says.
    Auto,
    /// The person typed `/compact [instructions]`: everything before the latest prompt is summarised, with the
    /// person's instructions (what the summary should focus on) added to the summary request. `id` names the
    /// `/compact` for a rewind or a fork (see [`crate::model::MessageMarks`]).
    Manual { instructions: &'a str, id: &'a str },
}

/// Summarises the messages before the kept tail and replaces them with the summary. Returns how many messages were
/// summarised (0 when there was nothing to compact). The history is unchanged on error.
pub async fn compact(
    model: &dyn Model,
    runtime: &ToolRuntime,
    config: &QueryConfig,
    history: &mut Vec<Message>,
) -> Result<usize, ModelError> {
    compact_with(model, runtime, config, history, CompactTrigger::Auto).await
}

/// [`compact`] for a given trigger (the PreCompact hook is told which, with the person's instructions).
pub async fn compact_with(
    model: &dyn Model,
    runtime: &ToolRuntime,
    config: &QueryConfig,
    history: &mut Vec<Message>,
    trigger: CompactTrigger<'_>,
) -> Result<usize, ModelError> {
    let (keep, trigger_name, instructions) = match trigger {
        CompactTrigger::Auto => (config.compaction.keep_recent_prompts, "auto", ""),
        CompactTrigger::Manual { instructions, .. } => (1, "manual", instructions.trim()),
    };
    let Some(split) = split_point(history, keep) else {
        return Ok(0);
    };
    let permissions = runtime.permission_context();
    if let Some(verdict) = crate::exec::hook_gate::run_event(
        &permissions,
        &runtime.session_id,
        EventInput::PreCompact(PreCompact {
            trigger: trigger_name.into(),
            custom_instructions: instructions.to_string(),
        }),
    )
    .await
    {
        for message in verdict.errors.iter().chain(verdict.system_messages.iter()) {
            runtime.events.emit(SessionEvent::Notice {
                message: message.clone(),
            });
        }
    }
    let mut messages: Vec<Message> = history[..split].to_vec();
    let request_text = if instructions.is_empty() {
        SUMMARY_REQUEST.to_string()
    } else {
        format!("{SUMMARY_REQUEST}\n\nThe user asks the summary to focus on: {instructions}")
    };
    match messages.last_mut() {
        Some(last) if last.role == Role::User => {
            last.content.push(ContentBlock::Text { text: request_text });
        }
        _ => messages.push(Message::user_text(&request_text)),
    }
    let request = ModelRequest {
        model: model.model_name().to_string(),
        max_tokens: config.max_tokens,
        system: config.system.clone(),
        messages,
        tools: runtime.offered_specs(),
        thinking: None,
    };
    let mut stream = model.stream(request);
    let mut summary = None;
    while let Some(event) = stream.next().await {
        if let ModelEvent::MessageComplete { message, .. } = event? {
            summary = Some(message.text());
        }
    }
    let summary = summary
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| ModelError::Protocol("the summary for compaction was empty".into()))?;
    let mut tail = history.split_off(split);
    // The summary opens the first message kept, which keeps its prompt ids: a rewind to that prompt keeps the
    // summary (the conversation before it), and a rewind to the `/compact` keeps all that was compacted.
    let kept = std::mem::replace(&mut tail[0], Message::new(Role::User, Vec::new()));
    let mut first = Message::new(
        Role::User,
        vec![ContentBlock::Text {
            text: format!(
                "{SUMMARY_OPENING}\nThis session continues an earlier conversation, summarised here:\n\n{summary}\n</conversation-summary>"
            ),
        }],
    );
    first.content.extend(kept.content);
    first.marks = MessageMarks {
        summary_before: Some(kept.marks.prompts.first().cloned().unwrap_or_default()),
        prompts: kept.marks.prompts,
        compaction: match trigger {
            CompactTrigger::Manual { id, .. } => Some(id.to_string()),
            CompactTrigger::Auto => None,
        },
    };
    tail[0] = first;
    *history = tail;
    // The conversation starts again from the summary: SessionStart hooks (source `compact`) may add to it.
    if let Some(verdict) = crate::exec::hook_gate::run_event(
        &permissions,
        &runtime.session_id,
        EventInput::SessionStart(SessionStart {
            source: "compact".into(),
            model: None,
        }),
    )
    .await
    {
        crate::exec::hook_gate::notify(runtime.events.as_ref(), &verdict);
        history[0].content.extend(
            verdict
                .additional_context
                .into_iter()
                .map(|text| ContentBlock::Text { text }),
        );
    }
    if trigger == CompactTrigger::Auto {
        // `/compact` says what it did itself.
        runtime.events.emit(SessionEvent::Notice {
            message: format!(
                "The conversation was compacted: {split} earlier messages were replaced by a summary."
            ),
        });
    }
    Ok(split)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assistant(text: &str) -> Message {
        Message::new(
            Role::Assistant,
            vec![ContentBlock::Text { text: text.into() }],
        )
    }

    fn tool_results() -> Message {
        Message::new(
            Role::User,
            vec![ContentBlock::ToolResult {
                tool_use_id: "t".into(),
                content: crate::model::ToolResultContent::Text("r".into()),
                is_error: false,
            }],
        )
    }

    #[test]
    fn the_split_keeps_whole_recent_turns_and_never_starts_at_tool_results() {
        let history = vec![
            Message::user_text("one"),
            assistant("a"),
            tool_results(),
            assistant("b"),
            Message::user_text("two"),
            assistant("c"),
            Message::user_text("three"),
            assistant("d"),
        ];
        assert_eq!(split_point(&history, 2), Some(4));
        assert_eq!(split_point(&history, 1), Some(6));
        assert_eq!(
            split_point(&history, 3),
            None,
            "nothing before the first prompt"
        );
    }

    #[test]
    fn the_threshold() {
        let policy = CompactionPolicy {
            context_window: 1000,
            threshold_percent: 80,
            keep_recent_prompts: 2,
        };
        assert!(!needs_compaction(&policy, 799));
        assert!(needs_compaction(&policy, 800));
    }
}
