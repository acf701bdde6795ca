//! Recovery of the text of an assistant message that streamed but never completed (the process was killed, or
//! stopped before the history was stored again): the history holds only completed messages, the events hold every
//! text delta, so the text streamed since the last request is put back as the assistant's message — as a turn
//! stopped in a running process keeps it.

use tandem_protocol::SessionEvent;

use super::types::StoredEvent;
use crate::model::{ContentBlock, Message, Role};

/// Appends the assistant text that streamed after the last stored request to `history`, when the history ends with
/// that request (a user message, so the answer never completed). Returns whether text was recovered.
///
/// The answer's deltas are the session's own `TextDelta` events after the last point where a request's answer was
/// complete or the conversation was set anew: a prompt (`TurnStarted`), a completed response (`UsageUpdated`), a
/// rewind. Sub-agents' text is not the session's.
pub fn recover_streamed_text(history: &mut Vec<Message>, events: &[StoredEvent]) -> bool {
    if history.last().is_none_or(|m| m.role != Role::User) {
        return false;
    }
    let mut text = String::new();
    for stored in events {
        match &stored.event {
            SessionEvent::TurnStarted { .. }
            | SessionEvent::UsageUpdated { .. }
            | SessionEvent::ConversationRewound { .. } => text.clear(),
            SessionEvent::TextDelta { text: delta } => text.push_str(delta),
            _ => {}
        }
    }
    if text.is_empty() {
        return false;
    }
    history.push(Message {
        role: Role::Assistant,
        content: vec![ContentBlock::Text { text }],
        marks: Default::default(),
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_protocol::{TurnStopReason, Usage};

    fn stored(events: Vec<SessionEvent>) -> Vec<StoredEvent> {
        StoredEvent::numbered(events)
    }

    fn delta(text: &str) -> SessionEvent {
        SessionEvent::TextDelta { text: text.into() }
    }

    fn started() -> SessionEvent {
        SessionEvent::TurnStarted {
            prompt: "p".into(),
            prompt_id: None,
        }
    }

    fn usage() -> SessionEvent {
        SessionEvent::UsageUpdated {
            turn: Usage::default(),
            session: Usage::default(),
            cost_usd: 0.0,
        }
    }

    fn assistant(text: &str) -> Message {
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Text { text: text.into() }],
            marks: Default::default(),
        }
    }

    #[test]
    fn only_the_text_of_the_answer_that_never_completed_comes_back() {
        // (events, history ends with the request?, recovered text)
        let cases: Vec<(Vec<SessionEvent>, bool, Option<&str>)> = vec![
            // Killed while the first answer streamed.
            (
                vec![started(), delta("Part "), delta("one")],
                true,
                Some("Part one"),
            ),
            // Killed while the second answer streamed (after a completed one with tools).
            (
                vec![
                    started(),
                    delta("first"),
                    usage(),
                    delta("sec"),
                    delta("ond"),
                ],
                true,
                Some("second"),
            ),
            // The answer completed and was stored: the history ends with it.
            (vec![started(), delta("done")], false, None),
            // Nothing streamed after the request.
            (vec![started(), delta("first"), usage()], true, None),
            // A new prompt after a cut-off turn: the old deltas are not this request's.
            (
                vec![
                    started(),
                    delta("old"),
                    SessionEvent::TurnEnded {
                        stop_reason: TurnStopReason::Interrupted,
                    },
                    started(),
                ],
                true,
                None,
            ),
            // A sub-agent's text is not the session's.
            (
                vec![
                    started(),
                    SessionEvent::SubAgent {
                        parent_tool_use_id: "t".into(),
                        agent_id: "a".into(),
                        event: Box::new(delta("inner")),
                    },
                ],
                true,
                None,
            ),
        ];
        for (events, ends_with_request, want) in cases {
            let mut history = vec![Message::user_text("p")];
            if !ends_with_request {
                history.push(assistant("done"));
            }
            let before = history.len();
            let recovered = recover_streamed_text(&mut history, &stored(events.clone()));
            match want {
                Some(text) => {
                    assert!(recovered, "{events:?}");
                    assert_eq!(history.len(), before + 1);
                    assert_eq!(history.last(), Some(&assistant(text)));
                }
                None => {
                    assert!(!recovered, "{events:?}");
                    assert_eq!(history.len(), before);
                }
            }
        }
    }
}
