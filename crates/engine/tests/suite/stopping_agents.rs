//! The person stops one sub-agent: a synchronous one (its Agent call ends saying so, the turn and the other
//! sub-agents go on) and a background one (listed as stopped, the parent told so), while the session's turn is not
//! interrupted.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Model, ModelRequest, ModelStream};
use tandem_engine::testing::{Script, ScriptBlock, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{
    ApprovalChoice, BackgroundAgentStatus, SessionEvent, ToolOutcome, TurnStopReason,
};

use super::common::{fake_config, server, session_with};

/// The fake server's model, except that a conversation whose first prompt contains `marker` never gets an answer.
struct HangsOn {
    inner: AnthropicModel,
    marker: &'static str,
}

impl Model for HangsOn {
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }
    fn stream(&self, request: ModelRequest) -> ModelStream {
        if request
            .messages
            .first()
            .is_some_and(|m| m.text().contains(self.marker))
        {
            return futures::stream::pending().boxed();
        }
        self.inner.stream(request)
    }
}

fn explore(id: &str, prompt: &str, background: bool) -> ScriptBlock {
    ScriptBlock::ToolUse {
        id: id.into(),
        name: "Agent".into(),
        input: json!({"description": format!("Task {id}"), "prompt": prompt, "subagent_type": "Explore", "run_in_background": background}),
    }
}

fn result_of(events: &[SessionEvent], id: &str) -> Option<(ToolOutcome, String)> {
    events.iter().find_map(|e| match e {
        SessionEvent::ToolCallResult {
            tool_use_id,
            outcome,
            content,
            ..
        } if tool_use_id == id => Some((*outcome, content.clone())),
        _ => None,
    })
}

fn started(events: &RecordingSink, parent: &str) -> bool {
    events.events().iter().any(|e| matches!(e,
        SessionEvent::SubAgent { parent_tool_use_id, event, .. }
            if parent_tool_use_id == parent && matches!(event.as_ref(), SessionEvent::TurnStarted { .. })))
}

/// Waits until `condition` holds.
async fn until(condition: impl Fn() -> bool) {
    while !condition() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn last_user_text(body: &Value) -> String {
    body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"].to_string())
        .unwrap_or_default()
}

fn hanging_session(
    ws: &Workspace,
    url: &str,
    events: &RecordingSink,
) -> tandem_engine::session::Session {
    let config = fake_config(url);
    let model = Arc::new(HangsOn {
        inner: AnthropicModel::new(config.clone()).expect("client"),
        marker: "never answered",
    });
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    session_with(&ws.root(), model, config, approver, events.clone())
}

#[tokio::test]
async fn the_person_stops_one_running_sub_agent_and_the_turn_goes_on() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![
            explore("a1", "never answered", false),
            explore("a2", "answer quickly", false),
        ]),
        ScriptedTurn::text("Nothing to see."),
        ScriptedTurn::text("One agent was stopped."),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = hanging_session(&ws, &fake.url(), &events);
    let (outcome, stopped) = tokio::join!(s.send("look twice"), async {
        until(|| started(&events, "a1")).await;
        s.agents().stop("a1")
    });
    assert!(stopped, "a1 was running");
    let outcome = outcome.expect("turn");
    assert_eq!(outcome.stop_reason, TurnStopReason::EndTurn);
    assert_eq!(outcome.final_text, "One agent was stopped.");

    let all = events.events();
    let (stopped_outcome, text) = result_of(&all, "a1").expect("a1's result");
    assert_eq!(stopped_outcome, ToolOutcome::Error, "{text}");
    assert!(
        text.contains("The user stopped the Explore agent"),
        "{text}"
    );
    let (other, answer) = result_of(&all, "a2").expect("a2's result");
    assert_eq!(other, ToolOutcome::Success, "{answer}");
    assert!(answer.contains("Nothing to see."), "{answer}");
    // The parent's next request carries both results.
    let told = last_user_text(&fake.requests()[2].body);
    assert!(told.contains("The user stopped"), "{told}");
    // Once ended there is nothing to stop.
    assert!(!s.agents().stop("a1"));
    assert!(!s.agents().stop("nothing-like-it"));
}

#[tokio::test]
async fn the_person_stops_a_background_agent_listed_as_running() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![explore("b1", "never answered", true)]),
        ScriptedTurn::text("It runs."),
        ScriptedTurn::text("Noted."),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = hanging_session(&ws, &fake.url(), &events);
    s.send("start it").await.expect("turn");
    let status_of = |task: &str| {
        events.events().iter().rev().find_map(|e| match e {
            SessionEvent::BackgroundAgentChanged { agent } if agent.task_id == task => {
                Some(agent.clone())
            }
            _ => None,
        })
    };
    let listed = status_of("agent-b1").expect("listed");
    assert_eq!(listed.status, BackgroundAgentStatus::Running);
    assert_eq!(listed.parent_tool_use_id, "b1");
    assert_eq!(listed.agent_type, "Explore");
    assert_eq!(listed.description, "Task b1");

    until(|| started(&events, "b1")).await;
    // By the Agent call that started it, as the window's row does.
    assert!(s.agents().stop("b1"));
    until(|| status_of("agent-b1").is_some_and(|a| a.status != BackgroundAgentStatus::Running))
        .await;
    assert_eq!(
        status_of("agent-b1").map(|a| a.status),
        Some(BackgroundAgentStatus::Stopped)
    );
    assert!(!s.agents().stop("agent-b1"), "already ended");

    s.send("anything new?").await.expect("turn");
    let told = last_user_text(&fake.requests()[2].body);
    assert!(told.contains("<status>stopped</status>"), "{told}");
    assert!(told.contains("the user stopped the sub-agent"), "{told}");
}
