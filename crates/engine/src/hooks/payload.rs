//! What a hook reads on standard input (docs/hooks.md §4): one typed value per event. Every place that runs hooks
//! builds one of these, the hooks panel's samples are built from the same types, and the JSON Schema published in
//! `docs/hooks/schemas/` is generated from them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::settings::HookEvent;

/// The JSON object a hook command reads on standard input: the fields every event has, then the event's own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Hook input")]
pub struct HookPayload {
    /// The session's id.
    pub session_id: String,
    /// The session's transcript (JSON lines), or `""` when the call belongs to no session.
    pub transcript_path: String,
    /// The session's working directory.
    pub cwd: String,
    /// The permission mode in force: `default`, `acceptEdits`, `plan`, `dontAsk`, `bypassPermissions` or `auto`.
    pub permission_mode: String,
    /// The event and its own fields.
    #[serde(flatten)]
    pub event: EventInput,
}

/// The event a hook runs for (`hook_event_name`) with the fields only that event has.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "hook_event_name")]
pub enum EventInput {
    /// Before a tool call's permission decision, after its input was validated.
    PreToolUse(ToolCall),
    /// When a call would ask the person, before the dialog.
    PermissionRequest(ToolCall),
    /// After a call succeeded.
    PostToolUse(ToolSuccess),
    /// After a call failed with an error for the model.
    PostToolUseFailure(ToolFailure),
    /// When a prompt is sent, before the turn starts.
    UserPromptSubmit(PromptSubmit),
    /// When the agent's turn ends.
    Stop(StopInput),
    /// When a sub-agent starts, before its first request.
    SubagentStart(SubagentStart),
    /// When a sub-agent's turn ends.
    SubagentStop(SubagentStop),
    /// When the session starts, or starts again from a compaction's summary.
    SessionStart(SessionStart),
    /// When the session ends.
    SessionEnd(SessionEnd),
    /// When the agent waits for the person.
    Notification(Notification),
    /// Before the conversation is compacted.
    PreCompact(PreCompact),
}

/// A tool call: PreToolUse and PermissionRequest, and the start of PostToolUse and PostToolUseFailure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolCall {
    /// The tool's name (`Bash`, `Edit`, `mcp__<server>__<tool>`, …).
    pub tool_name: String,
    /// The call's input (`file_path`, `notebook_path` and `path` made absolute).
    pub tool_input: Value,
    /// The call's id.
    pub tool_use_id: String,
}

/// PostToolUse: a call that succeeded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolSuccess {
    #[serde(flatten)]
    pub call: ToolCall,
    /// The result as data in the tool's own shape (e.g. Write's `{type, filePath, content, structuredPatch,
    /// originalFile}`), or the result's text for a tool whose results carry no data.
    pub tool_response: serde_json::Value,
}

/// PostToolUseFailure: a call that failed with an error for the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolFailure {
    #[serde(flatten)]
    pub call: ToolCall,
    /// The error message.
    pub error: String,
}

/// UserPromptSubmit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PromptSubmit {
    /// The prompt's text.
    pub prompt: String,
}

/// Stop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StopInput {
    /// `true` when the agent is already going on because of a Stop hook.
    pub stop_hook_active: bool,
}

/// SubagentStart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SubagentStart {
    /// The sub-agent's id.
    pub agent_id: String,
    /// The sub-agent's type (`Explore`, `Plan`, a custom agent's name); what matchers see.
    pub agent_type: String,
}

/// SubagentStop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SubagentStop {
    #[serde(flatten)]
    pub agent: SubagentStart,
    /// `true` when the sub-agent is already going on because of a SubagentStop hook.
    pub stop_hook_active: bool,
    /// The sub-agent's own transcript (JSON lines), or `""`.
    pub agent_transcript_path: String,
}

/// SessionStart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionStart {
    /// Why the session starts: `startup`, `resume`, `clear` or `compact`; what matchers see.
    pub source: String,
    /// The session's model (not given when the session starts again after a compaction).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// SessionEnd.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionEnd {
    /// Why the session ends: `clear`, `prompt_input_exit` or `other`; what matchers see.
    pub reason: String,
}

/// Notification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Notification {
    /// What the person is told.
    pub message: String,
    /// The notification's title (`Tandem`).
    pub title: String,
    /// `permission_prompt` (a dialog waits) or `idle_prompt` (the agent waits for the next prompt); what matchers
    /// see.
    pub notification_type: String,
}

/// PreCompact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PreCompact {
    /// `auto` or `manual` (`/compact`); what matchers see.
    pub trigger: String,
    /// What `/compact` was given, or `""`.
    pub custom_instructions: String,
}

impl EventInput {
    /// The event this is.
    pub fn event(&self) -> HookEvent {
        match self {
            Self::PreToolUse(_) => HookEvent::PreToolUse,
            Self::PermissionRequest(_) => HookEvent::PermissionRequest,
            Self::PostToolUse(_) => HookEvent::PostToolUse,
            Self::PostToolUseFailure(_) => HookEvent::PostToolUseFailure,
            Self::UserPromptSubmit(_) => HookEvent::UserPromptSubmit,
            Self::Stop(_) => HookEvent::Stop,
            Self::SubagentStart(_) => HookEvent::SubagentStart,
            Self::SubagentStop(_) => HookEvent::SubagentStop,
            Self::SessionStart(_) => HookEvent::SessionStart,
            Self::SessionEnd(_) => HookEvent::SessionEnd,
            Self::Notification(_) => HookEvent::Notification,
            Self::PreCompact(_) => HookEvent::PreCompact,
        }
    }

    /// What the event's matchers are matched against (see [`HookEvent::has_matcher`]): the tool name, the agent
    /// type, the start source, the end reason, the notification type or the compaction trigger.
    pub fn matched(&self) -> Option<&str> {
        match self {
            Self::PreToolUse(c) | Self::PermissionRequest(c) => Some(&c.tool_name),
            Self::PostToolUse(s) => Some(&s.call.tool_name),
            Self::PostToolUseFailure(f) => Some(&f.call.tool_name),
            Self::UserPromptSubmit(_) | Self::Stop(_) => None,
            Self::SubagentStart(a) => Some(&a.agent_type),
            Self::SubagentStop(s) => Some(&s.agent.agent_type),
            Self::SessionStart(s) => Some(&s.source),
            Self::SessionEnd(e) => Some(&e.reason),
            Self::Notification(n) => Some(&n.notification_type),
            Self::PreCompact(p) => Some(&p.trigger),
        }
    }
}

/// The JSON Schema of [`HookPayload`], as published for hook authors.
pub fn input_schema() -> Value {
    schemars::schema_for!(HookPayload).to_value()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn payload(event: EventInput) -> HookPayload {
        HookPayload {
            session_id: "s1".into(),
            transcript_path: String::new(),
            cwd: "/p".into(),
            permission_mode: "default".into(),
            event,
        }
    }

    #[test]
    fn a_payload_is_one_flat_object_with_the_event_name_after_the_common_fields() {
        let p = payload(EventInput::PostToolUse(ToolSuccess {
            call: ToolCall {
                tool_name: "Bash".into(),
                tool_input: json!({"command": "ls"}),
                tool_use_id: "t1".into(),
            },
            tool_response: serde_json::Value::String("ok".into()),
        }));
        let text = serde_json::to_string(&p).expect("serialise");
        assert_eq!(
            text,
            r#"{"session_id":"s1","transcript_path":"","cwd":"/p","permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1","tool_response":"ok"}"#
        );
        let back: HookPayload = serde_json::from_str(&text).expect("parse");
        assert_eq!(back, p);
        assert_eq!(back.event.event(), HookEvent::PostToolUse);
        assert_eq!(back.event.matched(), Some("Bash"));
    }

    #[test]
    fn the_schema_names_every_event_and_requires_its_fields() {
        let schema = input_schema();
        let text = schema.to_string();
        for event in HookEvent::ALL {
            assert!(text.contains(&format!("\"{event}\"")), "{event} missing");
        }
        let validator = jsonschema::validator_for(&schema).expect("a valid schema");
        let good = serde_json::to_value(payload(EventInput::SubagentStop(SubagentStop {
            agent: SubagentStart {
                agent_id: "a1".into(),
                agent_type: "Plan".into(),
            },
            stop_hook_active: false,
            agent_transcript_path: String::new(),
        })))
        .expect("value");
        assert!(validator.is_valid(&good));
        let mut missing = good.clone();
        missing.as_object_mut().map(|o| o.remove("agent_id"));
        assert!(!validator.is_valid(&missing), "agent_id is required");
        let mut wrong = good;
        wrong["hook_event_name"] = json!("Stopp");
        assert!(!validator.is_valid(&wrong), "an unknown event is refused");
    }
}
