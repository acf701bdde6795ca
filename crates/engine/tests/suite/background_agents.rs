//! Background sub-agents reporting back: when one ends, the parent's next model request carries a notification
//! with its answer (once), the window is told with a notice, and TaskStop stops a background agent.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Model, ModelRequest, ModelStream};
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, SessionEvent};

use super::common::{fake_config, offered, server, session_with};

/// The fake server's model, except that sub-agents' requests never get an answer.
struct ChildrenHang(AnthropicModel);

impl Model for ChildrenHang {
    fn model_name(&self) -> &str {
        self.0.model_name()
    }
    fn stream(&self, request: ModelRequest) -> ModelStream {
        if request
            .system
            .iter()
            .any(|s| s.contains("file search specialist"))
        {
            return futures::stream::pending().boxed();
        }
        self.0.stream(request)
    }
}

/// The text of the last user message of a request.
fn last_user_text(body: &Value) -> String {
    body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"].to_string())
        .unwrap_or_default()
}

fn background_call(id: &str) -> ScriptedTurn {
    ScriptedTurn::tool_use(
        id,
        "Agent",
        json!({"description": "Look around", "prompt": "summarise", "subagent_type": "Explore", "run_in_background": true}),
    )
}

/// Waits until a notice containing `text` was emitted.
async fn notice(events: &RecordingSink, text: &str) {
    let seen = || {
        events
            .events()
            .iter()
            .any(|e| matches!(e, SessionEvent::Notice { message } if message.contains(text)))
    };
    while !seen() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn a_finished_background_agent_is_reported_in_the_parents_next_request_once() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        background_call("a1"),
        // The parent's next request and the child's first race: both get the same answer.
        ScriptedTurn::text("all quiet"),
        ScriptedTurn::text("all quiet"),
        ScriptedTurn::text("noted"),
        ScriptedTurn::text("fine"),
    ]))
    .await;
    let config = fake_config(&fake.url());
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = session_with(&ws.root(), model, config, approver, events.clone());
    s.send("start it").await.expect("turn");
    notice(&events, "Background agent agent-a1 (Look around) completed").await;

    s.send("anything new?").await.expect("turn");
    s.send("and now?").await.expect("turn");
    let requests = fake.requests();
    let told = last_user_text(&requests[3].body);
    assert!(told.contains("anything new?"), "{told}");
    assert!(told.contains("<task-id>agent-a1</task-id>"), "{told}");
    assert!(told.contains("<status>completed</status>"), "{told}");
    assert!(told.contains("all quiet"), "{told}");
    // Handed out once.
    let later = last_user_text(&requests[4].body);
    assert!(!later.contains("task-notification"), "{later}");
}

#[tokio::test]
async fn task_stop_stops_a_background_agent_and_the_parent_is_told() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        background_call("a1"),
        ScriptedTurn::text("started"),
        ScriptedTurn::tool_use("s1", "TaskStop", json!({"task_id": "agent-a1"})),
        ScriptedTurn::text("stopped it"),
        ScriptedTurn::tool_use("s2", "TaskStop", json!({"task_id": "agent-a1"})),
        ScriptedTurn::text("ok"),
    ]))
    .await;
    let config = fake_config(&fake.url());
    let model = Arc::new(ChildrenHang(
        AnthropicModel::new(config.clone()).expect("client"),
    ));
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = session_with(&ws.root(), model, config, approver, events.clone());
    s.send("start it").await.expect("turn");
    s.send("stop it").await.expect("turn");
    notice(&events, "Background agent agent-a1 (Look around) stopped").await;
    s.send("again").await.expect("turn");

    let results: Vec<(String, String)> = events
        .events()
        .iter()
        .filter_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                content,
                ..
            } => Some((tool_use_id.clone(), content.clone())),
            _ => None,
        })
        .collect();
    let of = |id: &str| {
        results
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, c)| c.clone())
            .unwrap_or_default()
    };
    assert!(of("s1").contains("Stopped task agent-a1"), "{}", of("s1"));
    assert!(of("s2").contains("was not running"), "{}", of("s2"));
    // The stop reached the parent as a notification (in the request after the second TaskStop at the latest).
    let told: String = fake.requests()[3..]
        .iter()
        .map(|r| last_user_text(&r.body))
        .collect();
    assert!(told.contains("<status>stopped</status>"), "{told}");
}

#[tokio::test]
async fn a_background_agents_tools_are_those_of_its_type_fit_for_a_run_nobody_watches() {
    let ws = Workspace::new(&[]).expect("workspace");
    let call = |id: &str, background: bool| {
        ScriptedTurn::tool_use(
            id,
            "Agent",
            json!({"description": "Work", "prompt": "work", "run_in_background": background}),
        )
    };
    let fake = server(Script::turns([
        call("fg", false),
        ScriptedTurn::text("child done"),
        ScriptedTurn::text("parent done"),
        call("bg", true),
        ScriptedTurn::text("any"),
        ScriptedTurn::text("any"),
    ]))
    .await;
    let config = fake_config(&fake.url());
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = session_with(&ws.root(), model, config, approver, events.clone());
    s.send("work in front").await.expect("turn");
    s.send("work behind").await.expect("turn");
    notice(&events, "Background agent agent-bg (Work)").await;

    let children: Vec<Vec<String>> = fake
        .requests()
        .iter()
        .filter(|r| {
            r.body["system"]
                .to_string()
                .contains("You are an agent for a coding assistant")
        })
        .map(|r| offered(&r.body))
        .collect();
    assert_eq!(children.len(), 2, "{children:?}");
    let (front, behind) = (&children[0], &children[1]);
    let fit = tandem_engine::registry::BACKGROUND_AGENT_TOOLS;
    let expected: Vec<&String> = front.iter().filter(|t| fit.contains(&t.as_str())).collect();
    assert_eq!(
        behind.iter().collect::<Vec<_>>(),
        expected,
        "front: {front:?}"
    );
    assert!(behind.contains(&"Read".to_string()) && behind.contains(&"Bash".to_string()));
}
