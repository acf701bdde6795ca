//! The query loop against the fake model server: streaming, tool calls, results sent back, permissions.

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptBlock, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, SessionEvent, ToolDetail, ToolOutcome, TurnStopReason};

use super::common::{server, session};

fn deny_all() -> Arc<ScriptedApprover> {
    Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny))
}

/// The tool_result blocks at the start of the last user message of a recorded request body.
fn tool_results(body: &Value) -> Vec<Value> {
    let messages = body["messages"].as_array().expect("messages");
    let last = messages.last().expect("a message");
    assert_eq!(last["role"], "user");
    last["content"]
        .as_array()
        .expect("content")
        .iter()
        .filter(|b| b["type"] == "tool_result")
        .cloned()
        .collect()
}

fn result_outcomes(events: &[SessionEvent]) -> Vec<(String, ToolOutcome, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                outcome,
                content,
                ..
            } => Some((tool_use_id.clone(), *outcome, content.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn streams_text_into_events_and_the_final_answer() {
    let ws = Workspace::new(&[]).expect("workspace");
    let mut turn = ScriptedTurn::text("Hello there, this answer arrives in many small pieces.");
    turn.delta_chars = 3;
    turn.chunk_bytes = Some(5);
    turn.ping_every = Some(2);
    turn.unknown_event = true;
    let fake = server(Script::turns([turn])).await;
    let sink = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), sink.clone());

    let outcome = s.send("hi").await.expect("turn");

    assert_eq!(
        outcome.final_text,
        "Hello there, this answer arrives in many small pieces."
    );
    assert_eq!(outcome.stop_reason, TurnStopReason::EndTurn);
    let streamed: String = sink
        .events()
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TextDelta { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(streamed, outcome.final_text);
    assert!(
        sink.events()
            .iter()
            .filter(|e| matches!(e, SessionEvent::TextDelta { .. }))
            .count()
            > 10
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let body = &requests[0].body;
    assert_eq!(body["stream"], true);
    assert_eq!(body["model"], "fake-model");
    assert_eq!(requests[0].header("x-api-key"), Some("sk-test-key"));
    assert_eq!(requests[0].header("anthropic-version"), Some("2023-06-01"));
    // Cache breakpoints: last tool, system prompt, latest user turn.
    let tools = body["tools"].as_array().expect("tools");
    assert_eq!(
        tools.last().expect("a tool")["cache_control"]["type"],
        "ephemeral"
    );
    assert_eq!(
        body["system"]
            .as_array()
            .expect("system")
            .last()
            .expect("block")["cache_control"]["type"],
        "ephemeral"
    );
    assert_eq!(
        body["messages"][0]["content"][0]["cache_control"]["type"],
        "ephemeral"
    );
}

#[tokio::test]
async fn a_read_whose_input_arrives_in_pieces_runs_and_its_result_leads_the_next_request() {
    let ws = Workspace::new(&[("notes/todo.txt", "first line\nsecond line\n")]).expect("workspace");
    let path = ws.path("notes/todo.txt");
    let mut call = ScriptedTurn::new(vec![
        ScriptBlock::Text {
            text: "Reading.".into(),
        },
        ScriptBlock::ToolUse {
            id: "toolu_01".into(),
            name: "Read".into(),
            input: json!({"file_path": path}),
        },
    ]);
    call.delta_chars = 2;
    call.chunk_bytes = Some(7);
    let fake = server(Script::turns([
        call,
        ScriptedTurn::text("The file has two lines."),
    ]))
    .await;
    let sink = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), sink.clone());

    let outcome = s.send("what is in notes/todo.txt?").await.expect("turn");

    assert_eq!(outcome.final_text, "The file has two lines.");
    assert_eq!(outcome.requests, 2);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(
        requests.iter().all(|r| r.rejected.is_none()),
        "{:?}",
        requests.iter().map(|r| &r.rejected).collect::<Vec<_>>()
    );
    let results = tool_results(&requests[1].body);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["tool_use_id"], "toolu_01");
    assert!(results[0].get("is_error").is_none_or(|v| v == false));
    let content = results[0]["content"].as_str().expect("text content");
    assert!(
        content.contains("     1\tfirst line") && content.contains("     2\tsecond line"),
        "{content}"
    );
    // The assistant turn went back unchanged, before the results.
    let messages = requests[1].body["messages"]
        .as_array()
        .expect("messages")
        .clone();
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(messages[1]["content"][1]["input"]["file_path"], json!(path));
    let outcomes = result_outcomes(&sink.events());
    assert_eq!(outcomes.len(), 1);
    assert_eq!(outcomes[0].1, ToolOutcome::Success);
    // Usage is reported after each response, cumulative for the session.
    let session_inputs: Vec<u64> = sink
        .events()
        .iter()
        .filter_map(|e| match e {
            SessionEvent::UsageUpdated { session, .. } => Some(session.input_tokens),
            _ => None,
        })
        .collect();
    assert_eq!(session_inputs, vec![10, 20]);
    assert_eq!(s.usage().output_tokens, 20);
}

#[tokio::test]
async fn an_unknown_tool_and_a_bad_input_get_error_results_and_the_turn_goes_on() {
    let ws = Workspace::new(&[]).expect("workspace");
    let turn = ScriptedTurn::new(vec![
        ScriptBlock::ToolUse {
            id: "toolu_a".into(),
            name: "Teleport".into(),
            input: json!({"to": "mars"}),
        },
        ScriptBlock::ToolUse {
            id: "toolu_b".into(),
            name: "Read".into(),
            input: json!({"file_path": 42}),
        },
        ScriptBlock::ToolUse {
            id: "toolu_c".into(),
            name: "Read".into(),
            input: json!({"path": "x"}),
        },
    ]);
    let fake = server(Script::turns([turn, ScriptedTurn::text("ok")])).await;
    let sink = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), sink.clone());

    s.send("go").await.expect("turn");

    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[1].rejected.is_none());
    let results = tool_results(&requests[1].body);
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["tool_use_id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["toolu_a", "toolu_b", "toolu_c"]);
    assert!(results.iter().all(|r| r["is_error"] == true));
    assert!(
        results[0]["content"]
            .as_str()
            .expect("text")
            .contains("No such tool available: Teleport")
    );
    let schema_error = results[1]["content"].as_str().expect("text");
    assert!(
        schema_error.contains("InputValidationError") && schema_error.contains("file_path"),
        "{schema_error}"
    );
    let missing = results[2]["content"].as_str().expect("text");
    assert!(missing.contains("file_path"), "{missing}");
}

#[tokio::test]
async fn a_read_outside_the_folder_asks_and_a_no_is_sent_back_as_a_rejection() {
    let ws = Workspace::new(&[("inside.txt", "inside\n")]).expect("workspace");
    let outside = Workspace::new(&[("secret.txt", "outside\n")]).expect("workspace");
    let turn = ScriptedTurn::new(vec![
        ScriptBlock::ToolUse {
            id: "toolu_in".into(),
            name: "Read".into(),
            input: json!({"file_path": ws.path("inside.txt")}),
        },
        ScriptBlock::ToolUse {
            id: "toolu_out".into(),
            name: "Read".into(),
            input: json!({"file_path": outside.path("secret.txt")}),
        },
    ]);
    let fake = server(Script::turns([turn, ScriptedTurn::text("done")])).await;
    let approver = Arc::new(ScriptedApprover::new(
        [ApprovalChoice::Deny],
        ApprovalChoice::Deny,
    ));
    let sink = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), sink.clone());

    s.send("read both").await.expect("turn");

    let asked = approver.asked();
    assert_eq!(asked.len(), 1, "only the outside read asks");
    assert_eq!(asked[0].tool_use_id, "toolu_out");
    assert!(asked[0].reason.contains("outside"), "{}", asked[0].reason);
    let results = tool_results(&fake.requests()[1].body);
    assert!(
        results[0]["content"]
            .as_str()
            .expect("text")
            .contains("inside")
    );
    assert_eq!(results[1]["is_error"], true);
    assert!(
        results[1]["content"]
            .as_str()
            .expect("text")
            .contains("rejected")
    );
    assert!(
        !results[1]["content"]
            .as_str()
            .expect("text")
            .contains("outside\n")
    );
    let outcomes = result_outcomes(&sink.events());
    let outside = outcomes
        .iter()
        .find(|o| o.0 == "toolu_out")
        .expect("a result for the outside read");
    assert_eq!(outside.1, ToolOutcome::Denied);
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_of_a_tool_call_is_an_error_and_runs_nothing() {
    let ws = Workspace::new(&[("a.txt", "a\n")]).expect("workspace");
    let mut turn = ScriptedTurn::new(vec![
        ScriptBlock::Text {
            text: "Let me read it.".into(),
        },
        ScriptBlock::ToolUse {
            id: "toolu_cut".into(),
            name: "Read".into(),
            input: json!({"file_path": ws.path("a.txt")}),
        },
    ]);
    turn.delta_chars = 4;
    turn.chunk_bytes = Some(64);
    turn.cut_after_bytes = Some(900);
    turn.chunk_delay_ms = 5;
    let fake = server(Script::turns([turn])).await;
    let sink = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), sink.clone());

    let err = s.send("read a").await.expect_err("the turn fails");

    assert!(
        err.to_string().contains("connection") || err.to_string().contains("stream"),
        "{err}"
    );
    let events = sink.events();
    assert!(result_outcomes(&events).is_empty(), "no tool ran");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, SessionEvent::Error { .. }))
    );
    assert!(events.iter().any(|e| matches!(
        e,
        SessionEvent::TurnEnded {
            stop_reason: TurnStopReason::Error
        }
    )));
    // The next prompt makes a valid request (no dangling tool_use).
    fake.push(tandem_engine::testing::ScriptedReply::Stream(
        ScriptedTurn::text("recovered"),
    ));
    let outcome = s.send("again").await.expect("next turn");
    assert_eq!(outcome.final_text, "recovered");
    assert!(fake.requests().last().expect("request").rejected.is_none());
}

#[tokio::test]
async fn malformed_tool_input_json_is_an_error_result_and_the_turn_goes_on() {
    let ws = Workspace::new(&[]).expect("workspace");
    let malformed = ScriptedTurn::new(vec![ScriptBlock::RawToolUse {
        id: "toolu_bad".into(),
        name: "Read".into(),
        json: "{\"file_path\": \"/etc/hostname\"".into(),
    }]);
    let fake = server(Script::turns([
        malformed,
        ScriptedTurn::text("retrying differently"),
    ]))
    .await;
    let sink = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), sink.clone());

    let outcome = s.send("go").await.expect("the turn goes on");

    assert_eq!(outcome.final_text, "retrying differently");
    let outcomes = result_outcomes(&sink.events());
    assert_eq!(outcomes.len(), 1, "{outcomes:?}");
    assert_eq!(outcomes[0].0, "toolu_bad");
    assert_eq!(outcomes[0].1, ToolOutcome::Error);
    assert!(
        outcomes[0].2.contains("not valid JSON"),
        "{}",
        outcomes[0].2
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let results = tool_results(&requests[1].body);
    assert_eq!(results[0]["tool_use_id"], "toolu_bad");
    assert_eq!(results[0]["is_error"], true);
    let call = &requests[1].body["messages"][1]["content"][0];
    assert_eq!(call["type"], "tool_use");
    assert_eq!(
        call["input"],
        serde_json::json!({}),
        "the call is recorded with an empty input"
    );
}

#[tokio::test]
async fn a_full_context_is_compacted_keeping_the_recent_turns() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("answer one"),
        ScriptedTurn::text("answer two"),
        ScriptedTurn::text("SUMMARY: the user asked two things."),
        ScriptedTurn::text("answer three"),
    ]))
    .await;
    let sink = RecordingSink::default();
    let mut s = session(&ws.root(), &fake, deny_all(), sink.clone());
    s.set_compaction_policy(tandem_engine::query::compact::CompactionPolicy {
        context_window: 10,
        threshold_percent: 80,
        keep_recent_prompts: 2,
    });

    s.send("one").await.expect("turn 1");
    s.send("two").await.expect("turn 2");
    let outcome = s.send("three").await.expect("turn 3");

    assert_eq!(outcome.final_text, "answer three");
    let requests = fake.requests();
    assert_eq!(
        requests.len(),
        4,
        "turns one and two had nothing old enough to compact"
    );
    let summary_request = requests[2].body["messages"]
        .as_array()
        .expect("messages")
        .clone();
    assert_eq!(summary_request.len(), 3);
    let ask = summary_request[2]["content"][0]["text"]
        .as_str()
        .expect("text");
    assert!(ask.contains("compacted"), "{ask}");
    let after = requests[3].body["messages"]
        .as_array()
        .expect("messages")
        .clone();
    assert_eq!(
        after.len(),
        3,
        "summary + prompt two, answer two, prompt three"
    );
    assert!(
        after[0]["content"][0]["text"]
            .as_str()
            .expect("text")
            .contains("SUMMARY: the user asked two things.")
    );
    assert_eq!(after[0]["content"][1]["text"], "two");
    assert_eq!(after[1]["content"][0]["text"], "answer two");
    assert!(requests.iter().all(|r| r.rejected.is_none()));
    assert!(
        sink.events().iter().any(
            |e| matches!(e, SessionEvent::Notice { message } if message.contains("compacted"))
        )
    );
    let history = s.history().await;
    assert_eq!(history.len(), 4);
}

#[tokio::test]
async fn an_edit_asks_with_the_diff_it_would_make_and_its_result_carries_it() {
    let ws = Workspace::new(&[("src/lib.rs", "fn main() {\n    println!(\"old\");\n}\n")])
        .expect("workspace");
    let path = ws.path("src/lib.rs");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("toolu_r", "Read", json!({"file_path": path})),
        ScriptedTurn::tool_use(
            "toolu_e",
            "Edit",
            json!({"file_path": path, "old_string": "\"old\"", "new_string": "\"new\""}),
        ),
        ScriptedTurn::text("changed"),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new(
        [ApprovalChoice::Allow],
        ApprovalChoice::Deny,
    ));
    let sink = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), sink.clone());

    s.send("change it").await.expect("turn");

    let asked = approver.asked();
    assert_eq!(asked.len(), 1, "only the edit asks");
    let diff = asked[0].diff.as_ref().expect("the edit shows its diff");
    assert_eq!(diff.path, path.display().to_string());
    assert_eq!(diff.old_text, "fn main() {\n    println!(\"old\");\n}\n");
    assert_eq!(diff.new_text, "fn main() {\n    println!(\"new\");\n}\n");
    assert!(!diff.is_new_file);
    assert_eq!(std::fs::read_to_string(&path).expect("read"), diff.new_text);
    let detail = sink
        .events()
        .into_iter()
        .find_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                detail,
                ..
            } if tool_use_id == "toolu_e" => detail,
            _ => None,
        })
        .expect("the edit's result has a detail");
    let ToolDetail::FileChange {
        diff: Some(shown), ..
    } = detail
    else {
        panic!("the edit's detail has no diff: {detail:?}");
    };
    assert_eq!(&shown, diff);
}

#[tokio::test]
async fn a_deny_rule_added_while_the_session_runs_removes_the_tool_from_the_next_request() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("first"),
        ScriptedTurn::text("second"),
    ]))
    .await;
    let s = session(&ws.root(), &fake, deny_all(), RecordingSink::default());
    let offered = |body: &Value| -> Vec<String> {
        body["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .filter_map(|t| t["name"].as_str().map(str::to_string))
            .collect()
    };

    s.send("one").await.expect("turn 1");
    s.settings()
        .apply_command_line_flags(tandem_engine::permission::CliSettings {
            disallowed_tools: vec!["Bash".into()],
            ..Default::default()
        });
    s.send("two").await.expect("turn 2");

    let requests = fake.requests();
    assert!(offered(&requests[0].body).contains(&"Bash".to_string()));
    let second = offered(&requests[1].body);
    assert!(!second.contains(&"Bash".to_string()), "{second:?}");
    assert!(second.contains(&"Read".to_string()), "{second:?}");
}

#[tokio::test]
async fn a_deny_rule_removed_while_the_session_runs_gives_the_tool_back() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("first"),
        ScriptedTurn::text("second"),
    ]))
    .await;
    let s = session(&ws.root(), &fake, deny_all(), RecordingSink::default());
    let offers_bash = |body: &Value| {
        body["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .any(|t| t["name"] == "Bash")
    };
    s.settings()
        .apply_command_line_flags(tandem_engine::permission::CliSettings {
            disallowed_tools: vec!["Bash".into()],
            ..Default::default()
        });
    s.send("one").await.expect("turn 1");
    s.settings()
        .apply_command_line_flags(tandem_engine::permission::CliSettings::default());
    s.send("two").await.expect("turn 2");

    let requests = fake.requests();
    assert!(!offers_bash(&requests[0].body), "hidden while denied");
    assert!(
        offers_bash(&requests[1].body),
        "offered again once the rule is gone"
    );
}
