//! Prompt ids and compaction: every prompt and `/compact` row has an id of its own that a compaction never changes,
//! so a rewind after one finds the right row and the right file checkpoint; going back to the prompt a compaction
//! kept keeps the summary, going back to (or forking at) a `/compact` row keeps what it compacted, a prompt the
//! summary replaced can only have its files rewound; sessions stored before the ids were kept get the ids they had.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Message};
use tandem_engine::session::fork::fork;
use tandem_engine::session::rewind::RewindError;
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{FakeServer, Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, PermissionMode, RewindScope, SessionEvent};

use super::super::common::{fake_config, server};
use super::{assistant, new_session, resumed_session, stored_session, temp_store, text};

/// The rows of the transcript: each prompt as typed with its rewind id.
fn rows(events: &[SessionEvent]) -> Vec<(String, Option<String>)> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TurnStarted { prompt, prompt_id } => {
                Some((prompt.clone(), prompt_id.clone()))
            }
            _ => None,
        })
        .collect()
}

fn row(prompt: &str, id: Option<&str>) -> (String, Option<String>) {
    (prompt.to_string(), id.map(str::to_string))
}

/// A recorded session on `root` whose edits run without asking.
fn editing_session(
    root: &Path,
    fake: &FakeServer,
    store: &Arc<SessionStore>,
    sink: RecordingSink,
) -> Session {
    let config = fake_config(&fake.url());
    let model = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    Session::builder(root)
        .expect("folder")
        .options(SessionOptions {
            id: None,
            cwd: root.to_path_buf(),
            model: config,
            mode: PermissionMode::AcceptEdits,
            approver: Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
            events: Arc::new(sink),
            store: Some(store.clone()),
            watch_settings: false,
        })
        .model_client(model)
        .build()
        .expect("session")
}

/// A turn writing `content` to `path`, then saying `done`.
fn write_turn(id: &str, path: &Path, content: &str, done: &str) -> [ScriptedTurn; 2] {
    [
        ScriptedTurn::tool_use(
            id,
            "Write",
            json!({"file_path": path.display().to_string(), "content": content}),
        ),
        ScriptedTurn::text(done),
    ]
}

#[tokio::test]
async fn prompt_ids_survive_a_compaction_for_rewinds_of_files_and_conversation() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (_dir, store) = temp_store();
    let file = ws.root().join("a.txt");
    let mut turns = Vec::new();
    turns.extend(write_turn("w1", &file, "1", "one"));
    turns.extend(write_turn("w2", &file, "2", "two"));
    turns.push(ScriptedTurn::text("SUMMARY-4471"));
    turns.extend(write_turn("w3", &file, "3", "three"));
    turns.push(ScriptedTurn::text("fresh"));
    let fake = server(Script::turns(turns)).await;
    let sink = RecordingSink::default();
    let s = editing_session(&ws.root(), &fake, &store, sink.clone());

    s.send("/compact").await.expect("nothing to compact");
    s.send("first").await.expect("turn");
    s.send("second").await.expect("turn");
    let compacted = s.send("/compact keep names").await.expect("compact");
    assert!(
        compacted.final_text.starts_with("Compacted"),
        "{}",
        compacted.final_text
    );
    s.send("third").await.expect("turn");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "3");

    let events = sink.events();
    assert_eq!(
        rows(&events),
        [
            row("/compact", None),
            row("first", Some("1")),
            row("second", Some("2")),
            row("/compact keep names", Some("3")),
            row("third", Some("4")),
        ],
        "every row has an id of its own, and a /compact that compacted nothing names no point"
    );
    let at = |wanted: &dyn Fn(&SessionEvent) -> bool| events.iter().position(wanted);
    let compact_row = at(
        &|e| matches!(e, SessionEvent::TurnStarted { prompt, .. } if prompt == "/compact keep names"),
    );
    let compact_notice =
        at(&|e| matches!(e, SessionEvent::Notice { message } if message.starts_with("Compacted")));
    assert!(
        compact_row.is_some() && compact_row < compact_notice,
        "the row comes before what it did: {events:?}"
    );

    let points = s.checkpoints().rewind_points().await;
    let ids: Vec<&str> = points.iter().map(|p| p.prompt_id.as_str()).collect();
    assert_eq!(
        ids,
        ["2", "3", "4"],
        "the first prompt is only in the summary now"
    );
    assert_eq!(points[0].prompt, "second", "the summary is not the prompt");
    assert_eq!(points[1].prompt, "/compact");

    // The files from before the third prompt: what the second left, not what the first did.
    let files = s
        .checkpoints()
        .rewind("4", RewindScope::Files, false)
        .await
        .expect("rewind the files");
    assert!(files.files_rewound);
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "2");

    // Back to the /compact row: all it compacted stays, the third prompt goes.
    let outcome = s
        .checkpoints()
        .rewind("3", RewindScope::Conversation, false)
        .await
        .expect("rewind to the /compact row");
    let history = s.history().await;
    assert_eq!(
        outcome.messages_removed, 4,
        "the third prompt, its call, result and answer"
    );
    assert_eq!(
        history.len(),
        4,
        "summary with the second prompt, its call, result and answer"
    );
    assert!(history[0].text().contains("SUMMARY-4471") && history[0].text().contains("second"));

    // Back to before the prompt the compaction kept: the summary alone.
    s.checkpoints()
        .rewind("2", RewindScope::Conversation, false)
        .await
        .expect("rewind to the kept prompt");
    let history = s.history().await;
    assert_eq!(history.len(), 1);
    assert!(history[0].text().contains("SUMMARY-4471"));
    assert!(!history[0].text().contains("second"));

    // The first prompt is only in the summary: its conversation cannot come back, its files can.
    assert!(matches!(
        s.checkpoints().rewind("1", RewindScope::Both, false).await,
        Err(RewindError::Summarised(id)) if id == "1"
    ));
    assert!(file.exists(), "a refused rewind touches no file");
    let files = s
        .checkpoints()
        .rewind("1", RewindScope::Files, false)
        .await
        .expect("rewind the files of a summarised prompt");
    assert!(files.files_rewound);
    assert!(
        !file.exists(),
        "the file did not exist before the first prompt"
    );

    s.send("again").await.expect("turn");
    let requests = fake.requests();
    let last = requests.last().expect("a request");
    let sent = last.body["messages"].to_string();
    assert_eq!(
        last.body["messages"].as_array().map(Vec::len),
        Some(1),
        "{sent}"
    );
    assert!(
        sent.contains("SUMMARY-4471") && sent.contains("again"),
        "{sent}"
    );
    assert!(
        !sent.contains("second") && !sent.contains("marks"),
        "{sent}"
    );
    assert_eq!(
        rows(&sink.events()).last(),
        Some(&row("again", Some("5"))),
        "a new prompt never takes an id a rewind freed"
    );

    // The ids are stored with the messages.
    let stored = store.load_session(s.id()).expect("load").expect("stored");
    assert_eq!(stored.messages[0].marks.prompts, ["5"]);
    assert_eq!(
        stored.messages[0].marks.summary_before.as_deref(),
        Some("2")
    );
    assert!(stored.events.iter().any(|e| e.event
        == SessionEvent::ConversationRewound {
            prompt_id: "3".into()
        }));
}

#[tokio::test]
async fn a_fork_at_a_compact_row_holds_the_conversation_the_compaction_left() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (_dir, store) = temp_store();
    let fake = server(Script::turns([
        ScriptedTurn::text("one"),
        ScriptedTurn::text("two"),
        ScriptedTurn::text("SUMMARY-9182"),
        ScriptedTurn::text("three"),
        ScriptedTurn::text("the fork goes on"),
    ]))
    .await;
    let sink = RecordingSink::default();
    let original = {
        let s = stored_session(&ws.root(), &fake, &store, sink.clone());
        s.send("first").await.expect("turn");
        s.send("second").await.expect("turn");
        s.send("/compact").await.expect("compact");
        s.send("third").await.expect("turn");
        s.id().to_string()
    };
    let compact_id = rows(&sink.events())
        .into_iter()
        .find(|(prompt, _)| prompt == "/compact")
        .and_then(|(_, id)| id)
        .expect("the /compact row has an id");

    let forked = fork(&store, &original, Some(&compact_id)).expect("fork");
    let copy = store.load_session(&forked).expect("load").expect("stored");
    assert_eq!(
        copy.messages.len(),
        2,
        "the summary with the kept prompt, and its answer"
    );
    assert!(copy.messages[0].text().contains("SUMMARY-9182"));
    assert!(copy.messages[0].text().contains("second"));
    assert!(!copy.messages.iter().any(|m| m.text().contains("third")));
    let prompts: Vec<String> = copy
        .events
        .iter()
        .filter_map(|e| match &e.event {
            SessionEvent::TurnStarted { prompt, .. } => Some(prompt.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        prompts,
        ["first", "second", "/compact"],
        "the row stays in the fork"
    );

    let s = resumed_session(&forked, &fake, &store, RecordingSink::default()).await;
    s.send("onwards").await.expect("turn");
    let sent = fake.requests().last().expect("request").body["messages"].to_string();
    assert!(
        sent.contains("SUMMARY-9182") && sent.contains("onwards"),
        "{sent}"
    );
    assert!(!sent.contains("third"), "{sent}");
}

#[tokio::test]
async fn a_session_stored_before_ids_were_kept_keeps_the_ids_it_had() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (_dir, store) = temp_store();
    store
        .create_session(&new_session("old", &ws.root()))
        .expect("create");
    // As an older Tandem stored it: no marks, prompts named by their place.
    for message in [
        Message::user_text("first"),
        assistant(vec![text("one")]),
        Message::user_text("second"),
        assistant(vec![text("two")]),
    ] {
        store.append_message("old", &message);
    }
    for (seq, (prompt, id)) in [("first", "0"), ("second", "2")].into_iter().enumerate() {
        store.record_event(
            "old",
            seq as u64,
            SessionEvent::TurnStarted {
                prompt: prompt.into(),
                prompt_id: Some(id.into()),
            },
        );
    }
    store.flush().expect("flush");
    let points = tandem_engine::session::rewind::rewind_points(&store, "old").expect("points");
    let ids: Vec<&str> = points.iter().map(|p| p.prompt_id.as_str()).collect();
    assert_eq!(ids, ["0", "2"]);

    let fake = server(Script::turns([ScriptedTurn::text("three")])).await;
    let sink = RecordingSink::default();
    let s = resumed_session("old", &fake, &store, sink.clone()).await;
    s.send("third").await.expect("turn");
    assert_eq!(rows(&sink.events()), [row("third", Some("4"))]);
    drop(s);
    let stored = store.load_session("old").expect("load").expect("stored");
    let marks: Vec<Vec<String>> = stored
        .messages
        .iter()
        .map(|m| m.marks.prompts.clone())
        .collect();
    assert_eq!(
        marks,
        [
            vec!["0".to_string()],
            vec![],
            vec!["2".to_string()],
            vec![],
            vec!["4".to_string()],
            vec![]
        ],
        "the old ids are stored with the new one"
    );
    let s = resumed_session("old", &fake, &store, RecordingSink::default()).await;
    s.checkpoints()
        .rewind("2", RewindScope::Conversation, false)
        .await
        .expect("rewind by an old id");
    assert_eq!(s.history().await.len(), 2);
}
