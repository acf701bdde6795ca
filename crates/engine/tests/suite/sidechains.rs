//! Sub-agents' conversations stored as sidechains of their session: linked to the Agent call that started them, and
//! readable again after the store is closed and reopened.

use std::sync::Arc;

use serde_json::json;
use tandem_engine::model::Role;
use tandem_engine::session::Session;
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{Script, ScriptedTurn, Workspace};
use tandem_protocol::SessionEvent;

use super::common::{server, stored_session};

/// A session whose Explore sub-agent read a file and answered, stored in a fresh database; the workspace and the
/// folder holding the database (kept alive by the caller), the database's path and the session's id.
async fn a_stored_sub_agent_run() -> (Workspace, tempfile::TempDir, std::path::PathBuf, String) {
    let ws = Workspace::new(&[("notes.txt", "the code is 4321\n")]).expect("workspace");
    let notes = ws.path("notes.txt").display().to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("sessions.db");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "a1",
            "Agent",
            json!({"description": "Find the code", "prompt": "What is the code?", "subagent_type": "Explore"}),
        ),
        ScriptedTurn::tool_use("r1", "Read", json!({"file_path": notes})),
        ScriptedTurn::text("The code is 4321."),
        ScriptedTurn::text("It is 4321."),
    ]))
    .await;
    let store = Arc::new(SessionStore::open(&db).expect("store"));
    let s = stored_session(ws.root(), store, &fake, None);
    s.send("find the code").await.expect("turn");
    let id = s.id().to_string();
    (ws, dir, db, id)
}

#[tokio::test]
async fn a_sub_agents_messages_are_a_sidechain_of_the_session_after_a_restart() {
    let (_ws, _dir, db, id) = a_stored_sub_agent_run().await;
    // A new process: the store opened afresh.
    let store = SessionStore::open(&db).expect("reopen");
    let loaded = store.load_session(&id).expect("load").expect("stored");
    assert_eq!(loaded.sidechains.len(), 1);
    let chain = &loaded.sidechains[0];
    assert_eq!(chain.parent_tool_use_id, "a1");
    assert_eq!(chain.agent_type, "Explore");
    assert_eq!(chain.description, "Find the code");
    let roles: Vec<Role> = chain.messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [Role::User, Role::Assistant, Role::User, Role::Assistant]
    );
    assert!(format!("{:?}", chain.messages[2]).contains("4321"));
    assert!(format!("{:?}", chain.messages[3]).contains("The code is 4321."));
    // The parent's own history does not contain the child's messages.
    assert_eq!(loaded.messages.len(), 4);
    assert_eq!(store.sidechains(&id).expect("read"), loaded.sidechains);
}

/// Reopens stored session `id` once the run's session has let go of its store lock.
async fn resume_when_released(
    store: Arc<SessionStore>,
    id: &str,
) -> tandem_engine::session::SessionBuilder {
    tandem_engine::testing::wait_released(&store, id).await;
    Session::resuming(store, id).expect("resume")
}

#[tokio::test]
async fn a_reopened_session_replays_each_sub_agents_events_under_its_agent_call() {
    let (_ws, _dir, db, id) = a_stored_sub_agent_run().await;
    // A new process reopens the session the way the window does: the builder's stored events are replayed.
    let store = Arc::new(SessionStore::open(&db).expect("reopen"));
    let builder = resume_when_released(store, &id).await;
    let replay: Vec<SessionEvent> = builder
        .stored()
        .expect("stored")
        .events
        .iter()
        .map(|e| e.event.clone())
        .collect();
    let agent_call = replay
        .iter()
        .position(|e| matches!(e, SessionEvent::ToolCallStarted { tool_use_id, .. } if tool_use_id == "a1"))
        .expect("the Agent call");
    let nested: Vec<(usize, &SessionEvent)> = replay
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            SessionEvent::SubAgent {
                parent_tool_use_id,
                event,
                ..
            } if parent_tool_use_id == "a1" => Some((i, event.as_ref())),
            _ => None,
        })
        .collect();
    assert!(nested.iter().all(|(i, _)| *i > agent_call));
    assert!(nested.iter().any(|(_, e)| matches!(e,
        SessionEvent::ToolCallResult { tool_use_id, content, .. } if tool_use_id == "r1" && content.contains("4321"))));
    let text: String = nested
        .iter()
        .filter_map(|(_, e)| match e {
            SessionEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(text, "The code is 4321.");
    assert!(
        nested
            .iter()
            .any(|(_, e)| matches!(e, SessionEvent::TurnEnded { .. }))
    );
}

#[tokio::test]
async fn a_sub_agents_checklist_is_stored_with_it_and_comes_back_with_the_session() {
    let ws = Workspace::new(&[]).expect("workspace");
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("sessions.db");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "a1",
            "Agent",
            json!({"description": "Plan", "prompt": "Plan it."}),
        ),
        ScriptedTurn::tool_use(
            "t1",
            "TodoWrite",
            json!({"todos": [{"content": "Read the code", "status": "in_progress", "activeForm": "Reading the code"}]}),
        ),
        ScriptedTurn::text("Planned."),
        ScriptedTurn::text("Done."),
    ]))
    .await;
    let store = Arc::new(SessionStore::open(&db).expect("store"));
    let id = {
        let s = stored_session(ws.root(), store.clone(), &fake, None);
        s.send("plan").await.expect("turn");
        s.id().to_string()
    };
    drop(store);
    // A new process.
    let store = Arc::new(SessionStore::open(&db).expect("reopen"));
    let loaded = store.load_session(&id).expect("load").expect("stored");
    assert_eq!(loaded.sidechains.len(), 1);
    let todos: Vec<&str> = loaded.sidechains[0]
        .todos
        .iter()
        .map(|t| t.content.as_str())
        .collect();
    assert_eq!(todos, ["Read the code"], "kept with the sub-agent");
    assert!(
        loaded.todos.is_empty(),
        "the sub-agent's list is not the session's"
    );
    // The window rebuilds the nested checklist from the replayed events, under the Agent call.
    let builder = resume_when_released(store, &id).await;
    assert!(builder.stored().expect("stored").events.iter().any(|e| matches!(&e.event,
        SessionEvent::SubAgent { parent_tool_use_id, event, .. }
            if parent_tool_use_id == "a1" && matches!(event.as_ref(), SessionEvent::TodosChanged { todos } if todos.len() == 1))));
}
