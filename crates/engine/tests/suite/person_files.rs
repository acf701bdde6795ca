//! SendUserFile and PushNotification (`KAIROS`): a file inside the project reaches the window as a `user_file`
//! event with its absolute path and size; a file outside the working directories is judged as a Read (refused here,
//! nothing sent); a folder or a missing file is refused; a notification reaches the window as a
//! `push_notification` event; and both tools are offered with the switch on only.

use std::path::Path;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::session::Session;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn, Workspace};
use tandem_engine::tools::features::Features;
use tandem_protocol::{SessionEvent, ToolOutcome};

use super::common::{fake_model, offered, server, session_featuring};

fn open(root: &Path, fake: &FakeServer, events: &RecordingSink, features: Features) -> Session {
    session_featuring(root, fake_model(fake), events, features)
}

const KAIROS: Features = Features {
    sleep: true,
    assistant: true,
    ..Features::OFF
};

fn outcome_of(events: &[SessionEvent], id: &str) -> Option<(ToolOutcome, String)> {
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

#[tokio::test]
async fn a_file_is_handed_to_the_person_and_one_outside_the_project_is_not() {
    let ws = Workspace::new(&[("out/report.md", "# Report\nall green\n")]).expect("workspace");
    let outside = tempfile::NamedTempFile::new().expect("outside file");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "f1",
            "SendUserFile",
            json!({"path": "out/report.md", "caption": "  The test report.  "}),
        ),
        ScriptedTurn::tool_use(
            "f2",
            "SendUserFile",
            json!({"path": outside.path().display().to_string()}),
        ),
        ScriptedTurn::tool_use("f3", "SendUserFile", json!({"path": "out"})),
        ScriptedTurn::tool_use("f4", "SendUserFile", json!({"path": "missing.txt"})),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = open(&ws.root(), &fake, &events, KAIROS);
    s.send("hand me the report").await.expect("turn");
    let all = events.events();
    let sent: Vec<_> = all
        .iter()
        .filter_map(|e| match e {
            SessionEvent::UserFile {
                path,
                bytes,
                caption,
            } => Some((path.clone(), *bytes, caption.clone())),
            _ => None,
        })
        .collect();
    let report = ws.root().join("out/report.md");
    assert_eq!(
        sent,
        [(
            report.display().to_string(),
            "# Report\nall green\n".len() as u64,
            Some("The test report.".to_string())
        )]
    );
    let (ok, _) = outcome_of(&all, "f1").expect("f1");
    assert_eq!(ok, ToolOutcome::Success);
    for id in ["f2", "f3", "f4"] {
        let (outcome, content) = outcome_of(&all, id).expect(id);
        assert_ne!(outcome, ToolOutcome::Success, "{id}: {content}");
    }
    let (_, folder) = outcome_of(&all, "f3").expect("f3");
    assert!(folder.contains("not a regular file"), "{folder}");
}

#[tokio::test]
async fn a_notification_reaches_the_window() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "n1",
            "PushNotification",
            json!({"message": "The nightly build finished.", "title": "Build"}),
        ),
        ScriptedTurn::tool_use("n2", "PushNotification", json!({"message": "  "})),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = open(&ws.root(), &fake, &events, KAIROS);
    s.send("tell me when done").await.expect("turn");
    let all = events.events();
    let pushed: Vec<_> = all
        .iter()
        .filter_map(|e| match e {
            SessionEvent::PushNotification { title, message } => {
                Some((title.clone(), message.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        pushed,
        [(
            "Build".to_string(),
            "The nightly build finished.".to_string()
        )]
    );
    let (blank, _) = outcome_of(&all, "n2").expect("n2");
    assert_ne!(blank, ToolOutcome::Success);
}

#[tokio::test]
async fn both_are_offered_with_the_switch_on_only() {
    let ws = Workspace::new(&[]).expect("workspace");
    for (features, want) in [(Features::OFF, false), (KAIROS, true)] {
        let fake = server(Script::turns([ScriptedTurn::text("hi")])).await;
        let s = open(&ws.root(), &fake, &RecordingSink::default(), features);
        s.send("hi").await.expect("turn");
        let names = offered(&fake.requests()[0].body);
        for tool in ["SendUserFile", "PushNotification"] {
            assert_eq!(names.iter().any(|n| n == tool), want, "{tool}: {names:?}");
        }
    }
}
