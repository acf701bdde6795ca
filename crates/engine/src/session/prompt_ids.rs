//! Prompt ids: every prompt of a session (and every `/compact`) gets a number never used before in that session,
//! kept on its message (see [`MessageMarks`]) and in its `TurnStarted` event, and naming its file checkpoint. The
//! numbers grow, so "the checkpoints from this prompt on" is "the checkpoints with a number at least this one", and
//! they survive what rewrites the history: a compaction moves the marks with the messages, a rewind never gives a
//! removed prompt's number to a new one.
//!
//! Sessions stored before the marks were kept named a prompt by the place of its message; such a history gets those
//! places as its marks when it is read ([`mark_legacy`]).

use std::sync::atomic::{AtomicU64, Ordering};

use tandem_protocol::SessionEvent;

use crate::model::{ContentBlock, Message, Role};
use crate::query::compact::SUMMARY_OPENING;
use crate::store::StoredEvent;

/// Hands out a session's prompt ids.
#[derive(Debug)]
pub struct PromptIds {
    next: AtomicU64,
}

impl PromptIds {
    /// Ids from `first` on.
    pub fn starting_at(first: u64) -> Self {
        Self {
            next: AtomicU64::new(first),
        }
    }

    /// A new id.
    pub fn next(&self) -> String {
        self.next.fetch_add(1, Ordering::Relaxed).to_string()
    }
}

/// The first id a stored session may give out: above every id its history and its transcript used, and above
/// every place in its history (the ids of sessions stored before marks were kept).
pub fn first_free(history: &[Message], events: &[StoredEvent]) -> u64 {
    let marked = history.iter().flat_map(|m| {
        m.marks
            .prompts
            .iter()
            .chain(m.marks.compaction.iter())
            .filter_map(|id| id.parse::<u64>().ok())
    });
    let started = events.iter().filter_map(|e| match &e.event {
        SessionEvent::TurnStarted {
            prompt_id: Some(id),
            ..
        } => id.parse::<u64>().ok(),
        _ => None,
    });
    let used = marked.chain(started).max().map_or(0, |n| n + 1);
    used.max(history.len() as u64)
}

/// Whether `message` is a prompt of the person (a user message with text, not only tool results).
fn is_prompt(message: &Message) -> bool {
    message.role == Role::User
        && message
            .content
            .iter()
            .any(|b| matches!(b, ContentBlock::Text { text } if !text.is_empty()))
}

/// Whether the message opens with a compaction's summary.
fn opens_with_summary(message: &Message) -> bool {
    matches!(message.content.first(), Some(ContentBlock::Text { text }) if text.starts_with(SUMMARY_OPENING))
}

/// Gives a history stored before marks were kept the ids it had then: each prompt the place of its message, and
/// the summary mark to a message opening with a compaction's summary. A history with any mark is left alone.
/// Returns whether it marked anything.
pub fn mark_legacy(messages: &mut [Message]) -> bool {
    if messages.iter().any(|m| !m.marks.is_empty()) {
        return false;
    }
    let mut marked = false;
    for (place, message) in messages.iter_mut().enumerate() {
        if is_prompt(message) {
            message.marks.prompts.push(place.to_string());
            if opens_with_summary(message) {
                message.marks.summary_before = Some(place.to_string());
            }
            marked = true;
        }
    }
    marked
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

    #[test]
    fn a_legacy_history_gets_the_places_it_was_named_by() {
        let mut history = vec![
            Message::user_text(format!(
                "{SUMMARY_OPENING}\nsummary\n</conversation-summary>"
            )),
            assistant("a"),
            Message::user_text("two"),
            assistant("b"),
        ];
        assert!(mark_legacy(&mut history));
        assert_eq!(history[0].marks.prompts, ["0"]);
        assert_eq!(history[0].marks.summary_before.as_deref(), Some("0"));
        assert_eq!(history[2].marks.prompts, ["2"]);
        assert!(!history[2].marks.has_summary());
        assert!(history[1].marks.is_empty());
        // Marked once: a second pass changes nothing.
        let before = history.clone();
        assert!(!mark_legacy(&mut history));
        assert_eq!(history, before);
        assert_eq!(first_free(&history, &[]), 4);
    }

    #[test]
    fn new_ids_are_above_every_id_used() {
        let mut first = Message::user_text("one");
        first.marks.prompts.push("17".into());
        let events = vec![StoredEvent {
            seq: 0,
            at: 0,
            event: SessionEvent::TurnStarted {
                prompt: "rewound away".into(),
                prompt_id: Some("23".into()),
            },
        }];
        assert_eq!(first_free(&[first.clone()], &[]), 18);
        assert_eq!(first_free(&[first], &events), 24);
        let ids = PromptIds::starting_at(24);
        assert_eq!(
            (ids.next(), ids.next()),
            ("24".to_string(), "25".to_string())
        );
    }
}
