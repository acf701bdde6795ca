//! A prompt sent while a turn runs waits for it without touching it: an interrupt stops the running turn (not the
//! waiting prompt), and the model a waiting custom command asks for is used by its own turn only.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, TurnStopReason};

use super::common::{server, session};

/// Lets a spawned prompt run until it waits (the suite's runtime has one thread: a yield runs the other tasks).
async fn let_others_run() {
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn an_interrupt_stops_the_running_turn_and_the_waiting_prompt_runs_after_it() {
    let ws = Workspace::new(&[]).expect("workspace");
    let mut slow = ScriptedTurn::text("the first turn's answer, never seen");
    slow.delay_before_ms = 120_000;
    let fake = Arc::new(server(Script::turns([slow, ScriptedTurn::text("second answer")])).await);
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = Arc::new(session(
        &ws.root(),
        &fake,
        approver,
        RecordingSink::default(),
    ));
    let first = {
        let s = s.clone();
        tokio::spawn(async move { s.send("first").await })
    };
    while fake.requests().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let second = {
        let s = s.clone();
        tokio::spawn(async move { s.send("second").await })
    };
    let_others_run().await;
    s.interrupt();
    let first = first.await.expect("join").expect("first turn");
    assert_eq!(first.stop_reason, TurnStopReason::Interrupted);
    let second = second.await.expect("join").expect("second turn");
    assert_eq!(second.stop_reason, TurnStopReason::EndTurn);
    assert_eq!(second.final_text, "second answer");
}

#[tokio::test]
async fn a_waiting_commands_model_is_not_used_by_the_running_turn_and_is_used_by_its_own() {
    let ws = Workspace::new(&[(
        ".claude/commands/quick.md",
        "---\nmodel: quick-model\n---\nAnswer quickly.\n",
    )])
    .expect("workspace");
    let gate = ws.root().join("go");
    let wait_for_gate = format!("while [ ! -e '{}' ]; do sleep 0.05; done", gate.display());
    let fake = Arc::new(
        server(Script::turns([
            ScriptedTurn::tool_use("b1", "Bash", json!({"command": wait_for_gate})),
            ScriptedTurn::text("first done"),
            ScriptedTurn::text("quick done"),
        ]))
        .await,
    );
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = Arc::new(session(
        &ws.root(),
        &fake,
        approver,
        RecordingSink::default(),
    ));
    let first = {
        let s = s.clone();
        tokio::spawn(async move { s.send("first").await })
    };
    while fake.requests().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let second = {
        let s = s.clone();
        tokio::spawn(async move { s.send("/quick").await })
    };
    let_others_run().await;
    std::fs::write(&gate, "").expect("open the gate");
    let first = first.await.expect("join").expect("first turn");
    assert_eq!(first.final_text, "first done");
    let second = second.await.expect("join").expect("second turn");
    assert_eq!(second.final_text, "quick done");
    let models: Vec<String> = fake
        .requests()
        .iter()
        .map(|r| r.body["model"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(models, ["fake-model", "fake-model", "quick-model"]);
}
