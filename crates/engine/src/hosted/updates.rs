//! The hosted agent's `session/update` notifications as Tandem's session events, so that they are stored and shown
//! like the calls of Tandem's own agent: message and thought chunks as text and thinking, `tool_call` and
//! `tool_call_update` as a call's start, input (with its kind, title and the file it names), status, output and
//! result (a diff as a file change), the plan as the to-do list, usage as a usage update. Updates Tandem does not
//! keep (the agent's commands, modes, config options, replayed user chunks) give no event.

use std::collections::HashMap;

use serde_json::{Map, Value, json};
use tandem_protocol::{
    FileDiff, RenderHints, SessionEvent, TodoItem, TodoStatus, ToolCallStatus, ToolDetail,
    ToolKind, ToolOutcome, Usage,
};

/// What Tandem knows of one of the agent's calls.
#[derive(Debug, Clone, Default)]
struct Call {
    /// The Tandem tool it is shown as, fixed when it starts (unless nothing said what it is then).
    name: String,
    title: String,
    kind: String,
    input: Map<String, Value>,
    locations: Vec<String>,
    /// The output shown so far (its content as text).
    output: String,
    ended: bool,
}

/// Turns updates into events. Keeps what one update alone does not say: the calls seen so far, and the answer.
#[derive(Debug, Default)]
pub struct Translator {
    calls: HashMap<String, Call>,
    /// Every text chunk of the turn.
    answer: String,
    /// The text since the last tool call (what `-p` prints, as it does for Tandem's own agent).
    final_text: String,
}

impl Translator {
    /// Starts a new turn's answer (the calls seen are kept: an update may come late).
    pub fn begin_turn(&mut self) {
        self.answer.clear();
        self.final_text.clear();
    }

    /// Whether the call `id` was announced.
    pub fn knows(&self, id: &str) -> bool {
        self.calls.contains_key(id)
    }

    /// The whole answer of the turn so far.
    pub fn answer(&self) -> &str {
        &self.answer
    }

    /// The text after the last tool call.
    pub fn final_text(&self) -> &str {
        &self.final_text
    }

    /// The events of one update (its JSON form, `{"sessionUpdate": …}`).
    pub fn events(&mut self, update: &Value) -> Vec<SessionEvent> {
        match update["sessionUpdate"].as_str().unwrap_or("") {
            "agent_message_chunk" => match update["content"]["text"].as_str() {
                Some(text) if !text.is_empty() => {
                    self.answer.push_str(text);
                    self.final_text.push_str(text);
                    vec![SessionEvent::TextDelta {
                        text: text.to_string(),
                    }]
                }
                _ => Vec::new(),
            },
            "agent_thought_chunk" => match update["content"]["text"].as_str() {
                Some(text) if !text.is_empty() => vec![SessionEvent::ThinkingDelta {
                    text: text.to_string(),
                }],
                _ => Vec::new(),
            },
            "tool_call" | "tool_call_update" => self.call(update),
            "plan" => vec![SessionEvent::TodosChanged {
                todos: plan(update),
            }],
            "usage_update" => usage(update).into_iter().collect(),
            _ => Vec::new(),
        }
    }

    /// A call's start or change.
    fn call(&mut self, update: &Value) -> Vec<SessionEvent> {
        let Some(id) = update["toolCallId"].as_str().map(str::to_string) else {
            return Vec::new();
        };
        let mut events = Vec::new();
        let known = self.calls.contains_key(&id);
        let call = self.calls.entry(id.clone()).or_default();
        if call.ended {
            return events;
        }
        if !known {
            self.final_text.clear();
        }
        let mut described = !known;
        if let Some(title) = update["title"].as_str().filter(|t| !t.is_empty()) {
            described |= call.title != title;
            call.title = title.to_string();
        }
        if let Some(kind) = update["kind"].as_str() {
            described |= call.kind != kind;
            call.kind = kind.to_string();
        }
        if let Some(Value::Object(input)) = update.get("rawInput") {
            described = true;
            call.input = input.clone();
        }
        if let Some(Value::Array(locations)) = update.get("locations") {
            let paths: Vec<String> = locations
                .iter()
                .filter_map(|l| l["path"].as_str().map(str::to_string))
                .collect();
            described |= paths != call.locations;
            call.locations = paths;
        }
        if call.name.is_empty() || call.name == FALLBACK_NAME {
            call.name = tool_name(&call.kind, &call.title);
        }
        let name = call.name.clone();
        if !known {
            events.push(SessionEvent::ToolCallStarted {
                tool_use_id: id.clone(),
                name: name.clone(),
            });
        }
        if described {
            events.push(SessionEvent::ToolCallInput {
                tool_use_id: id.clone(),
                name: name.clone(),
                input: shown_input(call),
                hints: RenderHints {
                    kind: tool_kind(&call.kind),
                    title: if call.title.is_empty() {
                        name.clone()
                    } else {
                        call.title.clone()
                    },
                    collapsible: matches!(call.kind.as_str(), "read" | "search"),
                },
            });
        }
        let status = update["status"].as_str();
        let content = update.get("content").and_then(Value::as_array);
        match status {
            Some("completed" | "failed") => {
                call.ended = true;
                let text = content.map(|c| content_text(c)).unwrap_or_default();
                let text = if text.is_empty() {
                    raw_output(update).unwrap_or_else(|| call.output.clone())
                } else {
                    text
                };
                let detail = content.and_then(|c| c.iter().find_map(diff_detail));
                events.push(SessionEvent::ToolCallResult {
                    tool_use_id: id,
                    outcome: if status == Some("completed") {
                        ToolOutcome::Success
                    } else {
                        ToolOutcome::Error
                    },
                    content: text,
                    detail,
                });
            }
            _ => {
                if let Some(status) = status {
                    events.push(SessionEvent::ToolCallStatusChanged {
                        tool_use_id: id.clone(),
                        status: match status {
                            "in_progress" => ToolCallStatus::Executing,
                            _ => ToolCallStatus::Queued,
                        },
                    });
                }
                if let Some(content) = content {
                    let text = content_text(content);
                    let added = match text.strip_prefix(call.output.as_str()) {
                        Some(rest) => rest.to_string(),
                        None => text.clone(),
                    };
                    call.output = text;
                    if !added.is_empty() {
                        events.push(SessionEvent::ToolCallProgress {
                            tool_use_id: id,
                            text: added,
                        });
                    }
                }
            }
        }
        events
    }

    /// The calls that began and did not end (a turn that ends leaves none running).
    pub fn unfinished(&mut self) -> Vec<SessionEvent> {
        let mut events = Vec::new();
        for (id, call) in &mut self.calls {
            if !call.ended {
                call.ended = true;
                events.push(SessionEvent::ToolCallResult {
                    tool_use_id: id.clone(),
                    outcome: ToolOutcome::Cancelled,
                    content: "The agent's turn ended before this call did.".into(),
                    detail: None,
                });
            }
        }
        events
    }
}

/// The name of a call nothing named yet.
const FALLBACK_NAME: &str = "Tool";

/// The Tandem tool a call of this ACP kind is shown as (its title otherwise).
pub fn tool_name(kind: &str, title: &str) -> String {
    match kind {
        "read" => "Read",
        "edit" | "delete" | "move" => "Edit",
        "execute" => "Bash",
        "search" => "Grep",
        "fetch" => "WebFetch",
        _ if title.is_empty() => FALLBACK_NAME,
        _ => title,
    }
    .to_string()
}

/// Tandem's kind for an ACP kind.
pub fn tool_kind(kind: &str) -> ToolKind {
    match kind {
        "read" => ToolKind::Read,
        "edit" | "delete" | "move" => ToolKind::Edit,
        "search" => ToolKind::Search,
        "execute" => ToolKind::Shell,
        "fetch" => ToolKind::Fetch,
        "think" => ToolKind::Agent,
        _ => ToolKind::Other,
    }
}

/// The input as stored and shown: the agent's own, with the file it names as `file_path` when it gives none.
fn shown_input(call: &Call) -> Value {
    let mut input = call.input.clone();
    if let Some(path) = call.locations.first()
        && !input.contains_key("file_path")
    {
        input.insert("file_path".into(), Value::String(path.clone()));
    }
    Value::Object(input)
}

/// The text of tool call content: its text blocks, a terminal named by its id.
fn content_text(content: &[Value]) -> String {
    content
        .iter()
        .filter_map(|c| match c["type"].as_str() {
            Some("content") => c["content"]["text"].as_str().map(str::to_string),
            Some("terminal") => c["terminalId"]
                .as_str()
                .map(|id| format!("[terminal {id}]")),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn raw_output(update: &Value) -> Option<String> {
    match update.get("rawOutput")? {
        Value::Null => None,
        Value::String(text) => Some(text.clone()),
        other => Some(other.to_string()),
    }
}

/// A `diff` content block as a file change.
fn diff_detail(content: &Value) -> Option<ToolDetail> {
    if content["type"] != "diff" {
        return None;
    }
    let path = content["path"].as_str()?.to_string();
    let new_text = content["newText"].as_str()?.to_string();
    let old_text = content["oldText"].as_str().map(str::to_string);
    let created = old_text.is_none();
    Some(ToolDetail::FileChange {
        path: path.clone(),
        created,
        replacements: None,
        hunks: Vec::new(),
        diff: Some(FileDiff {
            path,
            old_text: old_text.unwrap_or_default(),
            new_text,
            is_new_file: created,
        }),
        cell: None,
        changed_by: None,
        diagnostics: None,
        revised: None,
    })
}

fn plan(update: &Value) -> Vec<TodoItem> {
    update["entries"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .map(|e| {
                    let content = e["content"].as_str().unwrap_or_default().to_string();
                    TodoItem {
                        active_form: content.clone(),
                        content,
                        status: match e["status"].as_str() {
                            Some("in_progress") => TodoStatus::InProgress,
                            Some("completed") => TodoStatus::Completed,
                            _ => TodoStatus::Pending,
                        },
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The context the agent filled (as input tokens) and what the session cost, when it says in USD.
fn usage(update: &Value) -> Option<SessionEvent> {
    let used = update["used"].as_u64()?;
    let cost_usd = match update.get("cost") {
        Some(cost) if cost["currency"] == "USD" => cost["amount"].as_f64().unwrap_or(0.0),
        _ => 0.0,
    };
    let usage = Usage {
        input_tokens: used,
        ..Usage::default()
    };
    Some(SessionEvent::UsageUpdated {
        turn: usage,
        session: usage,
        cost_usd,
    })
}

/// A call as a permission request names it, for the decision: its kind, title, input and the files it names.
pub fn call_of(tool_call: &Value) -> (String, String, Value, Vec<String>) {
    let kind = tool_call["kind"].as_str().unwrap_or("other").to_string();
    let title = tool_call["title"].as_str().unwrap_or_default().to_string();
    let input = tool_call
        .get("rawInput")
        .cloned()
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    let locations = tool_call["locations"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|l| l["path"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (kind, title, input, locations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_streams_as_tandem_events_and_its_diff_is_a_file_change() {
        let mut t = Translator::default();
        let start = t.events(&json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "I'll edit."}}));
        assert!(matches!(&start[0], SessionEvent::TextDelta { text } if text == "I'll edit."));
        let call = t.events(&json!({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Edit a.txt",
            "kind": "edit", "status": "pending", "locations": [{"path": "/p/a.txt"}], "rawInput": {"x": 1}}));
        assert!(matches!(&call[0], SessionEvent::ToolCallStarted { name, .. } if name == "Edit"));
        match &call[1] {
            SessionEvent::ToolCallInput { input, hints, .. } => {
                assert_eq!(input["file_path"], "/p/a.txt");
                assert_eq!(hints.kind, ToolKind::Edit);
                assert_eq!(hints.title, "Edit a.txt");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            call[2],
            SessionEvent::ToolCallStatusChanged {
                status: ToolCallStatus::Queued,
                ..
            }
        ));
        let done = t.events(
            &json!({"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed",
            "content": [{"type": "diff", "path": "/p/a.txt", "oldText": "a", "newText": "b"}]}),
        );
        match &done[0] {
            SessionEvent::ToolCallResult {
                outcome,
                detail: Some(ToolDetail::FileChange { created, diff, .. }),
                ..
            } => {
                assert_eq!(*outcome, ToolOutcome::Success);
                assert!(!created);
                assert_eq!(diff.as_ref().map(|d| d.new_text.as_str()), Some("b"));
            }
            other => panic!("{other:?}"),
        }
        t.events(&json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Done."}}));
        assert_eq!(t.final_text(), "Done.");
        assert_eq!(t.answer(), "I'll edit.Done.");
        assert!(t.unfinished().is_empty());
    }

    #[test]
    fn output_streams_as_progress_and_an_unended_call_is_cancelled() {
        let mut t = Translator::default();
        t.events(&json!({"sessionUpdate": "tool_call", "toolCallId": "c2", "title": "npm test", "kind": "execute",
            "status": "in_progress", "rawInput": {"command": "npm test"}}));
        let first = t.events(
            &json!({"sessionUpdate": "tool_call_update", "toolCallId": "c2",
            "content": [{"type": "content", "content": {"type": "text", "text": "ok 1"}}]}),
        );
        let second = t.events(
            &json!({"sessionUpdate": "tool_call_update", "toolCallId": "c2",
            "content": [{"type": "content", "content": {"type": "text", "text": "ok 1\nok 2"}}]}),
        );
        assert!(matches!(&first[0], SessionEvent::ToolCallProgress { text, .. } if text == "ok 1"));
        assert!(
            matches!(&second[0], SessionEvent::ToolCallProgress { text, .. } if text == "\nok 2")
        );
        let left = t.unfinished();
        assert!(matches!(
            &left[0],
            SessionEvent::ToolCallResult {
                outcome: ToolOutcome::Cancelled,
                ..
            }
        ));
        let plan = t.events(&json!({"sessionUpdate": "plan", "entries": [
            {"content": "Run the tests", "priority": "high", "status": "in_progress"}]}));
        assert!(
            matches!(&plan[0], SessionEvent::TodosChanged { todos } if todos[0].status == TodoStatus::InProgress)
        );
        let usage = t.events(
            &json!({"sessionUpdate": "usage_update", "used": 12, "size": 100,
            "cost": {"amount": 0.5, "currency": "USD"}}),
        );
        assert!(
            matches!(&usage[0], SessionEvent::UsageUpdated { cost_usd, .. } if *cost_usd == 0.5)
        );
    }
}
