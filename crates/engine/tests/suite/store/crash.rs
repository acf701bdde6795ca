//! The crash test: a child process (this test binary, re-run on one ignored test) streams a turn from the fake model
//! server into a store-backed session and is killed with SIGKILL mid-turn. The parent then checks that every event
//! the child had emitted is stored, in order, that the file is sound, and that the resumed session's next request
//! passes the fake server's validation.

#![cfg(unix)]

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::json;
use tandem_engine::approver::Approver;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, ContentBlock, Role, ToolResultContent};
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::store::{INTERRUPTED_RESULT, SessionStore};
use tandem_engine::testing::{Script, ScriptBlock, ScriptedTurn, Workspace};
use tandem_protocol::{
    ApprovalAnswer, ApprovalRequest, DecisionBehavior, PermissionMode, SessionEvent, ToolOutcome,
};
use tokio::io::{AsyncBufReadExt, BufReader};

use super::super::common::{fake_config, server};
use super::resumed_session;

const CHILD_TEST: &str = "suite::store::crash::crash_child";

/// Never answers: the child waits on the permission dialog until it is killed.
struct NeverAnswers;

impl Approver for NeverAnswers {
    fn ask(&self, _request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        Box::pin(futures::future::pending())
    }
}

/// Prints each event (after the store has queued it) for the parent.
fn print_event(event: SessionEvent) {
    println!(
        "EVENT {}",
        serde_json::to_string(&event).expect("event JSON")
    );
}

/// The child: runs one turn into the store, then waits to be killed. Does nothing outside the crash test.
#[test]
#[ignore = "run by the crash tests in a child process"]
fn crash_child() {
    let Ok(db) = std::env::var("TANDEM_CRASH_DB") else {
        return;
    };
    tandem_engine::testing::isolate_app_data();
    let var = |name: &str| std::env::var(name).expect(name);
    let (url, cwd, id, prompt) = (
        var("TANDEM_CRASH_URL"),
        PathBuf::from(var("TANDEM_CRASH_CWD")),
        var("TANDEM_CRASH_ID"),
        var("TANDEM_CRASH_PROMPT"),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let store = Arc::new(SessionStore::open(Path::new(&db)).expect("store"));
        let config = fake_config(&url);
        let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
        let session = Session::builder(&cwd.clone())
            .expect("folder")
            .options(SessionOptions {
                id: Some(id),
                cwd,
                model: config,
                mode: PermissionMode::Default,
                approver: Arc::new(NeverAnswers),
                events: Arc::new(print_event),
                store: Some(store),
                watch_settings: true,
            })
            .model_client(model)
            .build()
            .expect("session");
        let _ = session.send(&prompt).await;
        println!("TURN-ENDED");
        futures::future::pending::<()>().await;
    });
}

/// Runs the child until `kill_when` holds for the events it printed, kills it with SIGKILL and returns every event
/// it printed before it died.
async fn run_child_and_kill(
    db: &Path,
    url: &str,
    cwd: &Path,
    id: &str,
    prompt: &str,
    kill_when: impl Fn(&[SessionEvent]) -> bool,
) -> Vec<SessionEvent> {
    let exe = std::env::current_exe().expect("test binary");
    let mut child = tokio::process::Command::new(exe)
        .args([
            CHILD_TEST,
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("TANDEM_CRASH_DB", db)
        .env("TANDEM_CRASH_URL", url)
        .env("TANDEM_CRASH_CWD", cwd)
        .env("TANDEM_CRASH_ID", id)
        .env("TANDEM_CRASH_PROMPT", prompt)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn the child");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut printed = Vec::new();
    let parse = |line: &str| {
        // libtest may print "test <name> ... " on the same line before the first event.
        line.find("EVENT ")
            .map(|at| serde_json::from_str::<SessionEvent>(&line[at + 6..]).expect("printed event"))
    };
    let waited = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let line = lines
                .next_line()
                .await
                .expect("read")
                .expect("child ended early");
            assert!(
                !line.contains("TURN-ENDED"),
                "the turn ended before the kill: {printed:?}"
            );
            if let Some(event) = parse(&line) {
                printed.push(event);
                if kill_when(&printed) {
                    return;
                }
            }
        }
    })
    .await;
    assert!(waited.is_ok(), "the child never reached the kill point");
    // Let what is in flight land, then kill -9 between two chunks of the stream.
    tokio::time::sleep(Duration::from_millis(100)).await;
    child.start_kill().expect("SIGKILL");
    let status = child.wait().await.expect("wait");
    assert_eq!(status.signal(), Some(9), "killed by SIGKILL: {status:?}");
    while let Some(line) = lines.next_line().await.expect("read the rest") {
        assert!(
            !line.contains("TURN-ENDED"),
            "the turn ended before the kill"
        );
        if let Some(event) = parse(&line) {
            printed.push(event);
        }
    }
    printed
}

fn text_deltas_after_result(events: &[SessionEvent]) -> String {
    let start = events
        .iter()
        .position(|e| matches!(e, SessionEvent::ToolCallResult { .. }))
        .map_or(events.len(), |i| i + 1);
    events[start..]
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

const SLOW_ANSWER: &str = "The notes list two words, alpha and beta, one per line; \
    nothing else is in the file, and this sentence keeps streaming slowly so that the test can kill the process \
    while it is still arriving.";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_mid_stream_loses_no_streamed_event_and_the_session_resumes() {
    let ws = Workspace::new(&[("notes.txt", "alpha\nbeta\n")]).expect("workspace");
    let data = tempfile::tempdir().expect("tempdir");
    let db = data.path().join("sessions.db");
    let mut slow = ScriptedTurn::text(SLOW_ANSWER);
    slow.delta_chars = 4;
    slow.chunk_bytes = Some(120);
    slow.chunk_delay_ms = 300;
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "Reading the notes.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_1".into(),
                name: "Read".into(),
                input: json!({"file_path": ws.path("notes.txt")}),
            },
        ]),
        slow,
        ScriptedTurn::text("Resumed."),
    ]))
    .await;

    let printed = run_child_and_kill(
        &db,
        &fake.url(),
        &ws.root(),
        "crash-a",
        "What is in notes.txt?",
        |events| text_deltas_after_result(events).len() >= 16,
    )
    .await;

    let store = Arc::new(SessionStore::open(&db).expect("reopen after the kill"));
    store.check_integrity().expect("the file is sound");
    let loaded = store
        .load_session("crash-a")
        .expect("load")
        .expect("stored");
    // Every event the child emitted is there, in order, nothing more, nothing garbled.
    let stored: Vec<SessionEvent> = loaded.events.iter().map(|e| e.event.clone()).collect();
    assert_eq!(stored, printed);
    assert!(
        loaded
            .events
            .iter()
            .enumerate()
            .all(|(i, e)| e.seq == i as u64)
    );
    assert!(matches!(
        stored.last(),
        Some(SessionEvent::TextDelta { .. })
    ));
    assert!(
        !stored
            .iter()
            .any(|e| matches!(e, SessionEvent::TurnEnded { .. }))
    );
    let partial = text_deltas_after_result(&stored);
    assert!(partial.len() >= 16 && partial.len() < SLOW_ANSWER.len());
    assert!(SLOW_ANSWER.starts_with(&partial), "{partial}");

    // The history holds the completed messages only: prompt, the call, its result.
    assert_eq!(loaded.messages.len(), 3, "{:?}", loaded.messages);
    assert_eq!(loaded.messages[1].role, Role::Assistant);
    assert!(matches!(
        &loaded.messages[2].content[..],
        [ContentBlock::ToolResult { tool_use_id, is_error: false, .. }] if tool_use_id == "toolu_1"
    ));
    // The history to go on with adds what the model had said of its cut-off answer.
    assert_eq!(loaded.history.len(), 4, "{:?}", loaded.history);
    assert_eq!(loaded.history[..3], loaded.messages[..]);
    assert_eq!(loaded.history[3].role, Role::Assistant);
    assert_eq!(loaded.history[3].text(), partial);
    assert_eq!(loaded.record.title, "What is in notes.txt?");
    assert_eq!(loaded.tool_calls.len(), 1);
    assert_eq!(loaded.tool_calls[0].outcome, Some(ToolOutcome::Success));

    let sink = RecordingSink::default();
    let resumed = resumed_session("crash-a", &fake, &store, sink).await;
    let outcome = resumed.send("Go on.").await.expect("turn after resume");
    assert_eq!(outcome.final_text, "Resumed.");
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    let last = &requests[2];
    assert!(last.rejected.is_none(), "{:?}", last.rejected);
    let messages = last.body["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 5);
    let content = messages[2]["content"].as_array().expect("content");
    assert_eq!(content[0]["type"], "tool_result");
    assert_eq!(messages[3]["role"], "assistant");
    assert_eq!(messages[3]["content"][0]["text"], partial.as_str());
    assert_eq!(messages[4]["content"][0]["text"], "Go on.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_while_a_call_waits_for_approval_resumes_with_an_interrupted_result() {
    let ws = Workspace::new(&[]).expect("workspace");
    let outside = Workspace::new(&[("secret.txt", "outside the project\n")]).expect("workspace");
    let data = tempfile::tempdir().expect("tempdir");
    let db = data.path().join("sessions.db");
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "Checking that file.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_out".into(),
                name: "Read".into(),
                input: json!({"file_path": outside.path("secret.txt")}),
            },
        ]),
        ScriptedTurn::text("Resumed."),
    ]))
    .await;

    let printed = run_child_and_kill(
        &db,
        &fake.url(),
        &ws.root(),
        "crash-b",
        "Read the secret file",
        |events| {
            events
                .iter()
                .any(|e| matches!(e, SessionEvent::ApprovalRequested { .. }))
        },
    )
    .await;

    let store = Arc::new(SessionStore::open(&db).expect("reopen after the kill"));
    store.check_integrity().expect("the file is sound");
    let loaded = store
        .load_session("crash-b")
        .expect("load")
        .expect("stored");
    let stored: Vec<SessionEvent> = loaded.events.iter().map(|e| e.event.clone()).collect();
    assert_eq!(stored, printed);
    assert_eq!(loaded.messages.len(), 2, "the prompt and the call");
    assert_eq!(loaded.history.len(), 3, "repaired");
    assert_eq!(
        loaded.history[2].content,
        vec![ContentBlock::ToolResult {
            tool_use_id: "toolu_out".into(),
            content: ToolResultContent::Text(INTERRUPTED_RESULT.into()),
            is_error: true,
        }]
    );
    let call = &loaded.tool_calls[0];
    assert_eq!(
        call.decision.as_ref().map(|d| d.decision),
        Some(DecisionBehavior::Ask)
    );
    assert_eq!((call.outcome, call.ended_at), (None, None));

    let resumed = resumed_session("crash-b", &fake, &store, RecordingSink::default()).await;
    let outcome = resumed
        .send("Never mind.")
        .await
        .expect("turn after resume");
    assert_eq!(outcome.final_text, "Resumed.");
    let requests = fake.requests();
    let last = requests.last().expect("request");
    assert!(last.rejected.is_none(), "{:?}", last.rejected);
    let content = last.body["messages"][2]["content"]
        .as_array()
        .expect("content")
        .clone();
    assert_eq!(content[0]["tool_use_id"], "toolu_out");
    assert_eq!(content[0]["is_error"], true);
    assert_eq!(content[1]["text"], "Never mind.");
    // The repair is stored with the next turn.
    let after = store
        .load_session("crash-b")
        .expect("load")
        .expect("stored");
    assert_eq!(after.messages, resumed.history().await);
}
