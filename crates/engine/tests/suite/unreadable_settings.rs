//! A settings file that cannot be parsed makes every call ask until it is fixed or the person accepts running
//! without it: after the acceptance calls are decided as if the file were absent (and the decision trace says what
//! let them past the check), until the file changes on disk again. Each change is announced as an event.

use std::sync::Arc;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{
    ApprovalChoice, DecisionBehavior, DecisionSource, SafetyCheck, SessionEvent, ToolOutcome,
    TraceCheck, TraceStep, UnreadableSettingsFile,
};

use super::common::{server, session, stored_session};

const BROKEN: &str = "{\"permissions\": {\"deny\": [\"Bash(rm *)\",";

fn announced(events: &RecordingSink) -> Vec<Vec<UnreadableSettingsFile>> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::UnreadableSettings { files } => Some(files),
            _ => None,
        })
        .collect()
}

fn outcome(events: &RecordingSink, id: &str) -> ToolOutcome {
    events
        .events()
        .iter()
        .find_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                outcome,
                ..
            } if tool_use_id == id => Some(*outcome),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no result for {id}"))
}

#[tokio::test]
async fn accepting_an_unreadable_settings_file_holds_until_it_changes() {
    let ws = Workspace::new(&[
        ("README.md", "hello\n"),
        (".claude/settings.local.json", BROKEN),
        (
            ".claude/settings.json",
            "{\"permissions\": {\"deny\": [\"Bash(rm *)\"]}}",
        ),
    ])
    .expect("workspace");
    let broken = ws.path(".claude/settings.local.json").display().to_string();
    let readme = ws.path("README.md").display().to_string();
    let read = || ScriptedTurn::tool_use("r", "Read", json!({"file_path": readme}));
    let fake = server(Script::turns([
        read(),
        ScriptedTurn::text("asked"),
        ScriptedTurn::tool_use("r2", "Read", json!({"file_path": readme})),
        ScriptedTurn::text("read"),
        ScriptedTurn::tool_use("r3", "Read", json!({"file_path": readme})),
        ScriptedTurn::text("asked again"),
    ]))
    .await;
    // Whatever asks is refused: a call that runs was not asked about.
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver, events.clone());

    // Before the first turn the window is told which file cannot be read and why.
    let first = announced(&events);
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0].len(), 1);
    assert_eq!(first[0][0].file, broken);
    assert!(first[0][0].problem.contains("not valid JSON"), "{first:?}");
    assert!(!first[0][0].accepted);
    let check = s.panels().check_call("Read", &json!({"file_path": readme}));
    assert_eq!(check.decision, DecisionBehavior::Ask, "{}", check.reason);
    s.send("read it").await.expect("turn");
    assert_eq!(outcome(&events, "r"), ToolOutcome::Denied);

    // Only a file that could not be read can be accepted.
    assert!(s.settings().accept_unreadable_settings(&readme).is_err());
    let files = s
        .settings()
        .accept_unreadable_settings(&broken)
        .expect("accepted");
    assert!(files[0].accepted);
    assert_eq!(announced(&events).last(), Some(&files));
    let check = s.panels().check_call("Read", &json!({"file_path": readme}));
    assert_eq!(check.decision, DecisionBehavior::Allow, "{}", check.reason);
    assert_eq!(
        check.trace.decided_by,
        Some(DecisionSource::WorkingDirectories)
    );
    let past = check.trace.steps.iter().find_map(|step| match step {
        TraceStep::Check {
            check: TraceCheck::UnreadableSettingsAccepted,
            detail,
        } => Some(detail.clone()),
        _ => None,
    });
    assert!(
        past.as_deref().is_some_and(|d| d.contains(&broken)),
        "{:?}",
        check.trace
    );
    // The other files' rules still apply.
    let rm = s
        .panels()
        .check_call("Bash", &json!({"command": "rm -rf build"}));
    assert_eq!(rm.decision, DecisionBehavior::Deny, "{}", rm.reason);
    s.send("read it again").await.expect("turn");
    assert_eq!(outcome(&events, "r2"), ToolOutcome::Success);

    // Changed on disk (still broken): the acceptance no longer holds.
    std::fs::write(ws.path(".claude/settings.local.json"), format!("{BROKEN} ")).expect("write");
    let check = s.panels().check_call("Read", &json!({"file_path": readme}));
    assert_eq!(check.decision, DecisionBehavior::Ask, "{}", check.reason);
    assert_eq!(
        check.trace.decided_by,
        Some(DecisionSource::SafetyCheck {
            check: SafetyCheck::UnreadableSettings
        })
    );
    assert!(!s.settings().unreadable_settings()[0].accepted);
    s.send("and again").await.expect("turn");
    assert_eq!(outcome(&events, "r3"), ToolOutcome::Denied);
    assert!(
        s.settings()
            .unreadable_settings_text(&broken)
            .expect("text")
            .contains("Bash(rm *)")
    );
    assert!(s.settings().unreadable_settings_text(&readme).is_err());
}

/// The files a stored session's events last announced as unreadable.
fn stored_announcement(store: &SessionStore, id: &str) -> Option<Vec<UnreadableSettingsFile>> {
    let loaded = store.load_session(id).expect("load").expect("stored");
    loaded.events.into_iter().rev().find_map(|e| match e.event {
        SessionEvent::UnreadableSettings { files } => Some(files),
        _ => None,
    })
}

#[tokio::test]
async fn a_reopened_session_says_when_its_unreadable_settings_file_was_fixed() {
    let ws = Workspace::new(&[(".claude/settings.local.json", BROKEN)]).expect("workspace");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SessionStore::open(&dir.path().join("sessions.db")).expect("store"));
    let fake = server(Script::turns([ScriptedTurn::text("first")])).await;
    let id = {
        let s = stored_session(ws.root(), store.clone(), &fake, None);
        s.send("hello").await.expect("turn");
        s.id().to_string()
    };
    let before = stored_announcement(&store, &id).expect("announced");
    assert_eq!(before.len(), 1, "{before:?}");

    // Still broken when reopened: announced again, as it is now.
    tandem_engine::testing::wait_released(&store, &id).await;
    drop(stored_session(ws.root(), store.clone(), &fake, Some(&id)));
    assert_eq!(stored_announcement(&store, &id).map(|f| f.len()), Some(1));

    // Fixed since: the window, replaying the stored events, is told there is none now.
    std::fs::write(ws.path(".claude/settings.local.json"), "{}").expect("write");
    tandem_engine::testing::wait_released(&store, &id).await;
    drop(stored_session(ws.root(), store.clone(), &fake, Some(&id)));
    assert_eq!(stored_announcement(&store, &id), Some(Vec::new()));
}
