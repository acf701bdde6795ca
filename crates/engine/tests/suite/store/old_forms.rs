//! Sessions stored before tool details and decision sources were typed: their rows, written here as raw JSON in the
//! old forms, still load — no event is skipped, old details read into the typed form (or `Other`), and old decisions
//! and questions read without a typed source.

use serde_json::json;
use tandem_engine::store::SessionStore;
use tandem_protocol::{SessionEvent, TaskStatus, ToolDetail, ToolKind};

use super::new_session;
use tandem_engine::testing::Workspace;

/// The events of one turn as an older Tandem wrote them.
fn old_events() -> Vec<serde_json::Value> {
    vec![
        json!({"type": "turn_started", "prompt": "change it"}),
        json!({"type": "tool_call_input", "tool_use_id": "e", "name": "Edit", "input": {"file_path": "a.rs"},
               "hints": {"kind": "edit", "title": "Edit a.rs", "collapsible": false}}),
        json!({"type": "tool_call_decision", "tool_use_id": "e", "decision": {
            "decision": "ask", "reason": "writing a.rs needs approval", "rule": null, "source": null}}),
        json!({"type": "approval_requested", "request": {
            "id": "q1", "session_id": "s", "tool_use_id": "e", "tool_name": "Edit", "input": {"file_path": "a.rs"},
            "title": "Edit a.rs", "reason": "writing a.rs needs approval", "suggestion": null, "diff": null}}),
        json!({"type": "approval_resolved", "request_id": "q1"}),
        json!({"type": "tool_call_result", "tool_use_id": "e", "outcome": "success", "content": "updated",
               "detail": {"type": "patch", "path": "/p/a.rs", "created": false, "replacements": 1, "hunks": [],
                          "diff": {"path": "/p/a.rs", "old_text": "a\n", "new_text": "b\n", "is_new_file": false}}}),
        json!({"type": "tool_call_result", "tool_use_id": "b", "outcome": "success", "content": "ok",
               "detail": {"exit_code": 0, "cwd": "/p", "cwd_reset": false}}),
        json!({"type": "tool_call_result", "tool_use_id": "t", "outcome": "success", "content": "started",
               "detail": {"background_task_id": "shell_1", "log": "/tmp/shell_1.log"}}),
        json!({"type": "tool_call_result", "tool_use_id": "x", "outcome": "success", "content": "?",
               "detail": {"lines": 1}}),
        json!({"type": "turn_ended", "stop_reason": "end_turn"}),
    ]
}

#[test]
fn a_session_stored_in_the_old_forms_still_loads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let folder = Workspace::new(&[]).expect("workspace");
    {
        let store = SessionStore::open(&path).expect("open");
        store
            .create_session(&new_session("s", &folder.root()))
            .expect("create");
    }
    {
        let conn = rusqlite::Connection::open(&path).expect("raw connection");
        for (seq, event) in old_events().iter().enumerate() {
            conn.execute(
                "INSERT INTO events (session_id, seq, event, created_at) VALUES ('s', ?1, ?2, ?3)",
                rusqlite::params![seq as i64, event.to_string(), 1_000_i64],
            )
            .expect("insert event");
        }
        let old_decision = json!({"decision": "allow", "reason": "allowed by the rule `Edit`",
                                  "rule": "Edit", "source": "session"});
        conn.execute(
            "INSERT INTO tool_calls (session_id, tool_use_id, name, input, decision, reason, outcome, started_at) \
             VALUES ('s', 'e', 'Edit', '{}', ?1, 'allowed', 'success', ?2)",
            rusqlite::params![old_decision.to_string(), 1_000_i64],
        )
        .expect("insert call");
    }

    let store = SessionStore::open(&path).expect("reopen");
    let loaded = store.load_session("s").expect("load").expect("exists");
    assert_eq!(
        loaded.events.len(),
        old_events().len(),
        "no event is skipped"
    );
    let event = |seq: usize| &loaded.events[seq].event;

    match event(2) {
        SessionEvent::ToolCallDecision { decision, .. } => {
            assert_eq!(decision.reason, "writing a.rs needs approval");
            assert_eq!(decision.decided_by, None);
        }
        other => panic!("not a decision: {other:?}"),
    }
    match event(3) {
        SessionEvent::ApprovalRequested { request } => {
            assert_eq!(request.kind, ToolKind::Other);
            assert_eq!(request.decided_by, None);
        }
        other => panic!("not a question: {other:?}"),
    }
    let detail = |seq: usize| match event(seq) {
        SessionEvent::ToolCallResult { detail, .. } => detail.clone().expect("has a detail"),
        other => panic!("not a result: {other:?}"),
    };
    match detail(5) {
        ToolDetail::FileChange { diff, .. } => {
            assert_eq!(diff.expect("the old diff is kept").new_text, "b\n")
        }
        other => panic!("not a file change: {other:?}"),
    }
    assert!(matches!(
        detail(6),
        ToolDetail::Shell {
            exit_code: Some(0),
            ..
        }
    ));
    assert!(matches!(
        detail(7),
        ToolDetail::BackgroundTask {
            status: TaskStatus::Running,
            ..
        }
    ));
    assert_eq!(
        detail(8),
        ToolDetail::Other {
            data: json!({"lines": 1})
        }
    );

    let call = &loaded.tool_calls[0];
    let decision = call.decision.as_ref().expect("the old decision reads");
    assert_eq!(decision.rule.as_deref(), Some("Edit"));
    assert_eq!(decision.decided_by, None);
}
