//! A sub-agent's work as ACP updates: its tool calls become calls of their own (ids `AGENT/CALL`, so they never meet
//! the parent's), carrying in `_meta.tandem` the parent's call (`parentToolCallId`) and the sub-agent's id, so a
//! client can nest them; its text streams as the content of the parent's Agent call. Nested sub-agents nest on.

use agent_client_protocol::v1::schema::{Meta, SessionUpdate, ToolCallUpdateFields};
use serde_json::json;
use tandem_protocol::SessionEvent;

use super::{Translator, text_content};

impl Translator {
    /// The updates for `event`, which happened in the sub-agent `agent` started by the call `parent`.
    pub(super) fn sub_agent_updates(
        &mut self,
        parent: &str,
        agent: &str,
        event: SessionEvent,
    ) -> Vec<SessionUpdate> {
        let inner = |id: &str| format!("{agent}/{id}");
        let event = match event {
            SessionEvent::TextDelta { text } => {
                let output = self.output.entry(parent.to_string()).or_default();
                output.push_str(&text);
                let content = vec![text_content(output.clone())];
                return vec![self.call_update(
                    parent.to_string(),
                    ToolCallUpdateFields::new().content(content),
                )];
            }
            SessionEvent::SubAgent {
                parent_tool_use_id,
                agent_id,
                event,
            } => return self.sub_agent_updates(&inner(&parent_tool_use_id), &agent_id, *event),
            SessionEvent::ToolCallStarted { tool_use_id, name } => SessionEvent::ToolCallStarted {
                tool_use_id: inner(&tool_use_id),
                name,
            },
            SessionEvent::ToolCallInput {
                tool_use_id,
                name,
                input,
                hints,
            } => SessionEvent::ToolCallInput {
                tool_use_id: inner(&tool_use_id),
                name,
                input,
                hints,
            },
            SessionEvent::ToolCallStatusChanged {
                tool_use_id,
                status,
            } => SessionEvent::ToolCallStatusChanged {
                tool_use_id: inner(&tool_use_id),
                status,
            },
            SessionEvent::ToolCallProgress { tool_use_id, text } => {
                SessionEvent::ToolCallProgress {
                    tool_use_id: inner(&tool_use_id),
                    text,
                }
            }
            SessionEvent::ToolCallResult {
                tool_use_id,
                outcome,
                content,
                detail,
            } => SessionEvent::ToolCallResult {
                tool_use_id: inner(&tool_use_id),
                outcome,
                content,
                detail,
            },
            // Its plan, usage, thinking and the rest stay its own.
            _ => return Vec::new(),
        };
        let meta = nesting(parent, agent);
        self.updates(event, false)
            .into_iter()
            .map(|update| match update {
                SessionUpdate::ToolCall(call) => SessionUpdate::ToolCall(call.meta(meta.clone())),
                SessionUpdate::ToolCallUpdate(update) => {
                    SessionUpdate::ToolCallUpdate(update.meta(meta.clone()))
                }
                other => other,
            })
            .collect()
    }
}

/// `_meta` of a sub-agent's call: `{"tandem": {"parentToolCallId", "agentId"}}`.
fn nesting(parent: &str, agent: &str) -> Meta {
    let mut meta = Meta::new();
    meta.insert(
        "tandem".into(),
        json!({"parentToolCallId": parent, "agentId": agent}),
    );
    meta
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tandem_protocol::{RenderHints, ToolKind, ToolOutcome};

    use super::*;

    fn within(parent: &str, agent: &str, event: SessionEvent) -> SessionEvent {
        SessionEvent::SubAgent {
            parent_tool_use_id: parent.into(),
            agent_id: agent.into(),
            event: Box::new(event),
        }
    }

    fn json_of(updates: Vec<SessionUpdate>) -> Vec<Value> {
        updates
            .iter()
            .map(|u| serde_json::to_value(u).expect("serialises"))
            .collect()
    }

    #[test]
    fn a_sub_agents_calls_nest_under_its_agent_call_and_its_text_is_that_calls_content() {
        let mut t = Translator::default();
        let agent_call = t.updates(
            SessionEvent::ToolCallStarted {
                tool_use_id: "a1".into(),
                name: "Agent".into(),
            },
            false,
        );
        assert_eq!(json_of(agent_call)[0]["toolCallId"], "a1");
        let text = json_of(t.updates(
            within(
                "a1",
                "ag-1",
                SessionEvent::TextDelta {
                    text: "Looking".into(),
                },
            ),
            false,
        ));
        assert_eq!(text[0]["sessionUpdate"], "tool_call_update");
        assert_eq!(text[0]["toolCallId"], "a1");
        assert_eq!(text[0]["content"][0]["content"]["text"], "Looking");

        let mut inner = Vec::new();
        for event in [
            SessionEvent::ToolCallStarted {
                tool_use_id: "r1".into(),
                name: "Read".into(),
            },
            SessionEvent::ToolCallInput {
                tool_use_id: "r1".into(),
                name: "Read".into(),
                input: json!({"file_path": "/p/a.txt"}),
                hints: RenderHints {
                    kind: ToolKind::Read,
                    title: "Read a.txt".into(),
                    collapsible: true,
                },
            },
            SessionEvent::ToolCallResult {
                tool_use_id: "r1".into(),
                outcome: ToolOutcome::Success,
                content: "hello".into(),
                detail: None,
            },
        ] {
            inner.extend(json_of(t.updates(within("a1", "ag-1", event), false)));
        }
        assert_eq!(inner[0]["sessionUpdate"], "tool_call");
        assert_eq!(inner.last().expect("a result")["status"], "completed");
        for update in &inner {
            assert_eq!(update["toolCallId"], "ag-1/r1", "{update}");
            assert_eq!(
                update["_meta"]["tandem"],
                json!({"parentToolCallId": "a1", "agentId": "ag-1"})
            );
        }

        // A sub-agent of the sub-agent nests under the call that started it.
        let nested = json_of(t.updates(
            within(
                "a1",
                "ag-1",
                within(
                    "t2",
                    "ag-2",
                    SessionEvent::ToolCallStarted {
                        tool_use_id: "g1".into(),
                        name: "Grep".into(),
                    },
                ),
            ),
            false,
        ));
        assert_eq!(nested[0]["toolCallId"], "ag-2/g1");
        assert_eq!(nested[0]["_meta"]["tandem"]["parentToolCallId"], "ag-1/t2");
        // Its thinking stays its own.
        assert!(
            t.updates(
                within(
                    "a1",
                    "ag-1",
                    SessionEvent::ThinkingDelta { text: "hm".into() }
                ),
                false
            )
            .is_empty()
        );
    }
}
