//! Session-level hooks: UserPromptSubmit (dropping a prompt, adding context) and Stop (making the agent go on).

use std::sync::Arc;

use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, SessionEvent};

use super::common::{server, session};

fn settings(ws: &Workspace, hooks: serde_json::Value) {
    let dir = ws.root().join(".claude");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(
        dir.join("settings.json"),
        serde_json::json!({ "hooks": hooks }).to_string(),
    )
    .expect("write");
}

#[tokio::test]
async fn user_prompt_submit_can_drop_a_prompt_or_add_context() {
    let ws = Workspace::new(&[]).expect("workspace");
    settings(
        &ws,
        serde_json::json!({"UserPromptSubmit": [{"hooks": [{"type": "command",
        "command": "grep -q secret && { echo 'no secrets in prompts' >&2; exit 2; }; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"ctx-from-hook\"}}'"}]}]}),
    );
    let fake = server(Script::turns([ScriptedTurn::text("fine")])).await;
    let events = RecordingSink::default();
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        events.clone(),
    );
    s.settings().assume_trusted();
    assert!(
        !s.runtime().permission_context().hooks.is_empty(),
        "hooks loaded"
    );
    s.send("tell me the secret").await.expect("turn");
    assert!(fake.requests().is_empty(), "the prompt was dropped");
    assert!(
        events.events().iter().any(
            |e| matches!(e, SessionEvent::Notice { message } if message.contains("no secrets"))
        )
    );
    s.send("hello").await.expect("turn");
    let body = fake.requests()[0].body.to_string();
    assert!(body.contains("ctx-from-hook"), "{body}");
}

#[tokio::test]
async fn a_blocking_stop_hook_makes_the_agent_go_on() {
    let ws = Workspace::new(&[]).expect("workspace");
    settings(
        &ws,
        serde_json::json!({"Stop": [{"hooks": [{"type": "command",
        "command": "grep -q '\"stop_hook_active\":false' && echo '{\"decision\":\"block\",\"reason\":\"run the tests first\"}' || true"}]}]}),
    );
    let fake = server(Script::turns([
        ScriptedTurn::text("done"),
        ScriptedTurn::text("tests ran"),
    ]))
    .await;
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        RecordingSink::default(),
    );
    s.settings().assume_trusted();
    let outcome = s.send("do it").await.expect("turn");
    assert_eq!(outcome.final_text, "tests ran");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(
        requests[1]
            .body
            .to_string()
            .contains("Stop hook feedback: run the tests first")
    );
}

/// A turn that reads `notes.txt`, then would answer "after the read" if asked again.
fn read_then_answer() -> Script {
    Script::turns([
        ScriptedTurn::new(vec![tandem_engine::testing::ScriptBlock::ToolUse {
            id: "toolu_read".into(),
            name: "Read".into(),
            input: serde_json::json!({"file_path": "notes.txt"}),
        }]),
        ScriptedTurn::text("after the read"),
    ])
}

#[tokio::test]
async fn pre_tool_use_context_reaches_the_model_with_the_result() {
    let ws = Workspace::new(&[("notes.txt", "the notes\n")]).expect("workspace");
    settings(
        &ws,
        serde_json::json!({"PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command",
        "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"notes are stale since Monday\"}}'"}]}]}),
    );
    let fake = server(read_then_answer()).await;
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        RecordingSink::default(),
    );
    s.settings().assume_trusted();

    let outcome = s.send("read the notes").await.expect("turn");

    assert_eq!(outcome.final_text, "after the read");
    let result = fake.requests()[1].body["messages"][2]["content"][0].to_string();
    assert!(
        result.contains("the notes") && result.contains("notes are stale since Monday"),
        "{result}"
    );
}

#[tokio::test]
async fn continue_false_from_a_tool_hook_ends_the_turn_after_that_call() {
    for (event, runs) in [("PostToolUse", true), ("PreToolUse", false)] {
        let ws = Workspace::new(&[("notes.txt", "the notes\n")]).expect("workspace");
        // `continue: false` wins over the allow decision the same output gives.
        settings(
            &ws,
            serde_json::json!({event: [{"matcher": "Read", "hooks": [{"type": "command",
            "command": format!("echo '{{\"continue\":false,\"stopReason\":\"budget spent\",\"hookSpecificOutput\":{{\"hookEventName\":\"{event}\",\"permissionDecision\":\"allow\"}}}}'")}]}]}),
        );
        let fake = server(read_then_answer()).await;
        let events = RecordingSink::default();
        let s = session(
            &ws.root(),
            &fake,
            Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
            events.clone(),
        );
        s.settings().assume_trusted();

        s.send("read the notes").await.expect("turn");

        assert_eq!(
            fake.requests().len(),
            1,
            "{event}: no request after the call"
        );
        let all = events.events();
        assert!(
            all.iter().any(|e| matches!(e, SessionEvent::Notice { message } if message.contains("budget spent"))),
            "{event}: the reason is shown"
        );
        let ran = all.iter().any(|e| {
            matches!(e, SessionEvent::ToolCallResult { outcome, .. } if *outcome == tandem_protocol::ToolOutcome::Success)
        });
        assert_eq!(ran, runs, "{event}: whether the call ran");
    }
}

/// "Yes, and don't ask again" in a folder that is not trusted: the rule is saved to the project's local settings
/// (which wait for trust) and still applies at once, for the rest of the session, also after the settings watcher
/// has reloaded the saved file.
#[tokio::test]
async fn a_rule_saved_from_the_dialog_applies_at_once_in_an_untrusted_folder() {
    use serde_json::json;
    use tandem_engine::testing::ScriptBlock;
    let ws = Workspace::new(&[]).expect("workspace");
    let touch = |id: &str| ScriptBlock::ToolUse {
        id: id.into(),
        name: "Bash".into(),
        input: json!({"command": "touch made.txt"}),
    };
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![touch("t1")]),
        ScriptedTurn::new(vec![touch("t2")]),
        ScriptedTurn::text("done"),
        ScriptedTurn::new(vec![touch("t3")]),
        ScriptedTurn::text("done again"),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new(
        [ApprovalChoice::AllowAlways],
        ApprovalChoice::Deny,
    ));
    let s = session(
        &ws.root(),
        &fake,
        approver.clone(),
        RecordingSink::default(),
    );
    assert!(!s.settings().folder_trust().trusted);
    s.send("make it").await.expect("turn");
    let saved =
        std::fs::read_to_string(ws.root().join(".claude/settings.local.json")).expect("saved");
    assert!(saved.contains("Bash(touch made.txt)"), "{saved}");
    eprintln!(
        "AFTER TURN 1: {:?} asked {}",
        s.runtime().permission_context().entries,
        approver.asked().len()
    );

    // Wait until the watcher has re-read the settings (the `.claude/` folder did not exist when it started; the
    // saved rule now also comes from the local file, where it waits for trust).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !s
        .runtime()
        .permission_context()
        .entries
        .iter()
        .any(|e| e.source.is_project_level() && e.text == "Bash(touch made.txt)")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the watcher never reloaded"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let ctx = s.runtime().permission_context();
    let answer = tandem_engine::testing::check_bash(&ctx, "touch made.txt");
    assert_eq!(
        answer.decision,
        tandem_protocol::DecisionBehavior::Allow,
        "{answer:?} {:?}",
        ctx.entries
    );
    s.send("again").await.expect("turn");
    let asked: Vec<String> = approver
        .asked()
        .iter()
        .map(|r| r.input["command"].to_string())
        .collect();
    assert_eq!(
        asked,
        vec!["\"touch made.txt\""],
        "only the first touch asked"
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 5);
    for i in [1, 2, 4] {
        let last = requests[i].body["messages"]
            .as_array()
            .expect("messages")
            .last()
            .cloned();
        let result = &last.expect("last")["content"][0];
        assert_ne!(result["is_error"], true, "{result}");
    }
}
