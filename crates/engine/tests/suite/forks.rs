//! Forking a stored session before one of its prompts: the fork holds the conversation and transcript up to
//! there, goes on with its own prompts, and the original stays as it was.

use std::sync::Arc;

use tandem_engine::session::fork::fork;
use tandem_engine::session::rewind::RewindError;
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{Script, ScriptedTurn, Workspace};
use tandem_protocol::SessionEvent;

use super::common::{server, stored_session};

fn prompts_of(events: &[tandem_engine::store::StoredEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            SessionEvent::TurnStarted { prompt, .. } => Some(prompt.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_fork_before_a_prompt_keeps_what_came_before_and_goes_its_own_way() {
    let ws = Workspace::new(&[]).expect("workspace");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SessionStore::open(&dir.path().join("sessions.db")).expect("store"));
    let fake = server(Script::turns([
        ScriptedTurn::text("first answer"),
        ScriptedTurn::text("second answer"),
        ScriptedTurn::text("the fork's answer"),
    ]))
    .await;
    let original = {
        let s = stored_session(ws.root(), store.clone(), &fake, None);
        s.send("first question").await.expect("turn");
        s.send("second question").await.expect("turn");
        s.id().to_string()
    };
    let points = tandem_engine::session::rewind::rewind_points(&store, &original).expect("points");
    assert_eq!(points.len(), 2);

    let forked = fork(&store, &original, Some(&points[1].prompt_id)).expect("fork");

    let copy = store.load_session(&forked).expect("load").expect("stored");
    assert_eq!(prompts_of(&copy.events), ["first question"]);
    assert_eq!(copy.messages.len(), 2, "the first exchange only");
    assert!(
        copy.record.title.starts_with("Fork of"),
        "{}",
        copy.record.title
    );
    let kept = store
        .load_session(&original)
        .expect("load")
        .expect("stored");
    assert_eq!(
        prompts_of(&kept.events),
        ["first question", "second question"]
    );
    assert_eq!(kept.messages.len(), 4);

    {
        tandem_engine::testing::wait_released(&store, &forked).await;
        let s = stored_session(ws.root(), store.clone(), &fake, Some(&forked));
        let outcome = s.send("another way").await.expect("turn");
        assert_eq!(outcome.final_text, "the fork's answer");
    }
    let sent = fake.requests().last().expect("request").body["messages"].to_string();
    assert!(
        sent.contains("first question") && sent.contains("another way"),
        "{sent}"
    );
    assert!(!sent.contains("second question"), "{sent}");
    let listed = store.list_sessions(&ws.root()).expect("list");
    assert_eq!(listed.len(), 2);

    let whole = fork(&store, &original, None).expect("fork all");
    let all = store.load_session(&whole).expect("load").expect("stored");
    assert_eq!(all.messages.len(), 4);
    assert!(matches!(
        fork(&store, &original, Some("7")),
        Err(RewindError::UnknownPrompt(_))
    ));
    assert!(matches!(
        fork(&store, "no-such-session", None),
        Err(RewindError::UnknownSession(_))
    ));
}
