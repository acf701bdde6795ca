//! A `tandem -p` run killed (SIGKILL) while the model streams: resuming the session gives the model back what it had
//! already said.

use std::time::Duration;

use serde_json::Value;
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};
use tandem_protocol::SessionEvent;

use super::commands::{project, run, tandem};

const STREAMED: &str = "Part one of the answer. ";

#[tokio::test]
async fn a_run_killed_mid_stream_resumes_with_the_text_that_had_streamed() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let mut cut = ScriptedTurn::text(format!("{STREAMED}Part two never arrives."));
    cut.delta_chars = 8;
    // message_start, content_block_start, then the three deltas of STREAMED; the rest is held back.
    cut.stall_after_chunks = Some(5);
    let server = FakeServer::start(Script::turns([cut, ScriptedTurn::text("Going on.")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(dir.path()).args(["-p", "Tell me a story"]);
    let mut child = cmd.spawn().expect("spawn");

    let db = home.path().join(".local/share/tandem/sessions.db");
    let folder = std::fs::canonicalize(dir.path()).expect("folder");
    // Wait until every streamed delta is stored (the writer commits each within moments of its arrival).
    let mut store = None;
    let id = loop {
        if store.is_none() && db.exists() {
            store = SessionStore::open(&db).ok();
        }
        if let Some(id) = store.as_ref().and_then(|s| streamed_session(s, &folder)) {
            break id;
        }
        assert!(
            child.try_wait().expect("poll").is_none(),
            "the run ended before it was killed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    child.kill().await.expect("SIGKILL");

    let mut resume = tandem(Some(&server.url()), home.path());
    resume
        .current_dir(dir.path())
        .args(["--resume", &id, "-p", "Go on"]);
    let out = run(resume).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.trim(), "Going on.");
    let requests = server.requests();
    let messages = requests.last().expect("the resumed request").body["messages"]
        .as_array()
        .expect("messages")
        .clone();
    let texts: Vec<(String, String)> = messages
        .iter()
        .map(|m| {
            (
                m["role"].as_str().unwrap_or_default().to_string(),
                text_of(m),
            )
        })
        .collect();
    assert_eq!(
        texts,
        vec![
            ("user".to_string(), "Tell me a story".to_string()),
            ("assistant".to_string(), STREAMED.to_string()),
            ("user".to_string(), "Go on".to_string()),
        ],
        "{messages:?}"
    );
}

/// The session of `folder` once all of STREAMED is in its stored events.
fn streamed_session(store: &SessionStore, folder: &std::path::Path) -> Option<String> {
    let session = store.list_sessions(folder).ok()?.into_iter().next()?;
    let loaded = store.load_session(&session.record.id).ok()??;
    let text: String = loaded
        .events
        .iter()
        .filter_map(|e| match &e.event {
            SessionEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    (text == STREAMED).then_some(session.record.id)
}

fn text_of(message: &Value) -> String {
    match &message["content"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}
