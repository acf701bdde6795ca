//! A whole query-loop turn through a session whose model is the OpenAI-compatible client: the model reads two
//! files in parallel calls (all at `index: 0`, as some servers send them), the results go back as `tool` messages in
//! call order, and the fake server accepts the conversation.

use std::sync::Arc;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::connect;
use tandem_engine::testing::{Script, ScriptBlock, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, SessionEvent, ToolOutcome};

use super::common::{openai_config, server, session_with};

#[tokio::test]
async fn the_read_tool_runs_and_its_results_go_back_as_tool_messages_in_order() {
    let ws = Workspace::new(&[
        ("notes/todo.txt", "first line\nsecond line\n"),
        ("notes/done.txt", "shipped\n"),
    ])
    .expect("workspace");
    let mut call = ScriptedTurn::new(vec![
        ScriptBlock::Text {
            text: "Let me read both.".into(),
        },
        ScriptBlock::ToolUse {
            id: "call_todo".into(),
            name: "Read".into(),
            input: json!({"file_path": ws.path("notes/todo.txt")}),
        },
        ScriptBlock::ToolUse {
            id: "call_done".into(),
            name: "Read".into(),
            input: json!({"file_path": ws.path("notes/done.txt")}),
        },
    ]);
    call.delta_chars = 5;
    call.chunk_bytes = Some(9);
    call.openai.index_zero = true;
    let fake = server(Script::turns([
        call,
        ScriptedTurn::text("Two lines to do, one thing shipped."),
    ]))
    .await;
    let config = openai_config(&fake.url());
    let model = connect(config.clone()).expect("client");
    let sink = RecordingSink::default();
    let s = session_with(
        &ws.root(),
        model,
        config,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        sink.clone(),
    );

    let outcome = s.send("what is in notes/?").await.expect("turn");

    assert_eq!(outcome.final_text, "Two lines to do, one thing shipped.");
    assert_eq!(outcome.requests, 2);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(
        requests
            .iter()
            .all(|r| r.rejected.is_none() && r.path == "/v1/chat/completions"),
        "{:?}",
        requests.iter().map(|r| &r.rejected).collect::<Vec<_>>()
    );
    let messages = requests[1].body["messages"].as_array().expect("messages");
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().expect("role"))
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool", "tool"]);
    let assistant = &messages[2];
    assert_eq!(assistant["content"], "Let me read both.");
    assert_eq!(assistant["tool_calls"][0]["id"], "call_todo");
    assert_eq!(assistant["tool_calls"][1]["id"], "call_done");
    let arguments: serde_json::Value = serde_json::from_str(
        assistant["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .expect("arguments are a string"),
    )
    .expect("arguments are JSON");
    assert_eq!(arguments, json!({"file_path": ws.path("notes/todo.txt")}));
    assert_eq!(messages[3]["tool_call_id"], "call_todo");
    let first = messages[3]["content"].as_str().expect("text");
    assert!(
        first.contains("     1\tfirst line") && first.contains("     2\tsecond line"),
        "{first}"
    );
    assert_eq!(messages[4]["tool_call_id"], "call_done");
    assert!(
        messages[4]["content"]
            .as_str()
            .expect("text")
            .contains("shipped")
    );

    let events = sink.events();
    // The two reads run together, so their results may be reported in either order.
    let mut outcomes: Vec<(String, ToolOutcome)> = events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                outcome,
                ..
            } => Some((tool_use_id.clone(), *outcome)),
            _ => None,
        })
        .collect();
    outcomes.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        outcomes,
        vec![
            ("call_done".to_string(), ToolOutcome::Success),
            ("call_todo".to_string(), ToolOutcome::Success)
        ]
    );
    assert_eq!(s.usage().input_tokens, 20);
    assert_eq!(s.usage().output_tokens, 20);
}
