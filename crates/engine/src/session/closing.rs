//! What a reopened session must close that its last, cut-off turn left open: calls without a result, questions
//! without an answer, a turn without an end. The events are sent once on resume, so the window shows the turn as
//! interrupted rather than running forever.

use std::collections::BTreeSet;

use tandem_protocol::{SessionEvent, ToolCallStatus, ToolOutcome, TurnStopReason};

use crate::store::StoredEvent;

/// The result text of a call that was cut off.
pub const INTERRUPTED: &str = "The tool call was interrupted (Tandem stopped before it finished).";

/// The events that close what `events` left open, in order: results for unfinished calls, resolutions for
/// unanswered questions, then the end of the turn.
pub fn closing_events(events: &[StoredEvent]) -> Vec<SessionEvent> {
    let mut calls: Vec<String> = Vec::new();
    let mut finished: BTreeSet<String> = BTreeSet::new();
    let mut questions: Vec<String> = Vec::new();
    let mut answered: BTreeSet<String> = BTreeSet::new();
    let mut turn_open = false;
    for stored in events {
        match &stored.event {
            SessionEvent::TurnStarted { .. } => turn_open = true,
            SessionEvent::TurnEnded { .. } => turn_open = false,
            SessionEvent::ToolCallStarted { tool_use_id, .. }
            | SessionEvent::ToolCallInput { tool_use_id, .. }
                if !calls.contains(tool_use_id) =>
            {
                calls.push(tool_use_id.clone());
            }
            SessionEvent::ToolCallResult { tool_use_id, .. } => {
                finished.insert(tool_use_id.clone());
            }
            SessionEvent::ApprovalRequested { request } => questions.push(request.id.clone()),
            SessionEvent::ApprovalResolved { request_id } => {
                answered.insert(request_id.clone());
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for id in calls.into_iter().filter(|id| !finished.contains(id)) {
        out.push(SessionEvent::ToolCallResult {
            tool_use_id: id.clone(),
            outcome: ToolOutcome::Cancelled,
            content: INTERRUPTED.to_string(),
            detail: None,
        });
        out.push(SessionEvent::ToolCallStatusChanged {
            tool_use_id: id,
            status: ToolCallStatus::Completed,
        });
    }
    for id in questions.into_iter().filter(|id| !answered.contains(id)) {
        out.push(SessionEvent::ApprovalResolved { request_id: id });
    }
    if turn_open {
        out.push(SessionEvent::TurnEnded {
            stop_reason: TurnStopReason::Interrupted,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tandem_protocol::{ApprovalRequest, RenderHints, ToolKind};

    fn stored(events: Vec<SessionEvent>) -> Vec<StoredEvent> {
        events
            .into_iter()
            .enumerate()
            .map(|(i, event)| StoredEvent {
                seq: i as u64,
                at: 0,
                event,
            })
            .collect()
    }

    fn input(id: &str) -> SessionEvent {
        SessionEvent::ToolCallInput {
            tool_use_id: id.into(),
            name: "Read".into(),
            input: json!({}),
            hints: RenderHints {
                kind: ToolKind::Read,
                title: "Read".into(),
                collapsible: true,
            },
        }
    }

    #[test]
    fn a_finished_session_needs_nothing() {
        let events = stored(vec![
            SessionEvent::TurnStarted {
                prompt: "p".into(),
                prompt_id: None,
            },
            input("a"),
            SessionEvent::ToolCallResult {
                tool_use_id: "a".into(),
                outcome: ToolOutcome::Success,
                content: String::new(),
                detail: None,
            },
            SessionEvent::TurnEnded {
                stop_reason: TurnStopReason::EndTurn,
            },
        ]);
        assert!(closing_events(&events).is_empty());
    }

    #[test]
    fn a_cut_off_turn_is_closed_with_its_calls_and_questions() {
        let request = ApprovalRequest {
            trace: None,
            id: "q1".into(),
            session_id: "s".into(),
            tool_use_id: "b".into(),
            tool_name: "Read".into(),
            kind: ToolKind::Read,
            input: json!({}),
            title: "t".into(),
            reason: "r".into(),
            decided_by: None,
            suggestion: None,
            diff: None,
            warnings: Vec::new(),
            previews: Vec::new(),
        };
        let events = stored(vec![
            SessionEvent::TurnStarted {
                prompt: "p".into(),
                prompt_id: None,
            },
            input("a"),
            SessionEvent::ToolCallResult {
                tool_use_id: "a".into(),
                outcome: ToolOutcome::Success,
                content: String::new(),
                detail: None,
            },
            input("b"),
            SessionEvent::ApprovalRequested {
                request: Box::new(request),
            },
        ]);
        let closing = closing_events(&events);
        assert_eq!(closing.len(), 4);
        assert!(
            matches!(&closing[0], SessionEvent::ToolCallResult { tool_use_id, outcome: ToolOutcome::Cancelled, .. } if tool_use_id == "b")
        );
        assert!(
            matches!(&closing[2], SessionEvent::ApprovalResolved { request_id } if request_id == "q1")
        );
        assert!(matches!(
            closing[3],
            SessionEvent::TurnEnded {
                stop_reason: TurnStopReason::Interrupted
            }
        ));
    }
}
