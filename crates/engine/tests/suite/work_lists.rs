//! The agent's checklist against the fake model server: TodoWrite validation and replacement, the task tools with
//! ids and dependencies, the whole list announced on every change, and both lists restored when a stored session
//! is reopened.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::model::AnthropicModel;
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{FakeServer, Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_engine::tools::work_list::WorkListFamily;
use tandem_protocol::{
    ApprovalChoice, PermissionMode, SessionEvent, TaskItem, TodoItem, TodoStatus, ToolOutcome,
};

use super::common::{fake_config, offered, server};

fn result_of(events: &[SessionEvent], id: &str) -> (ToolOutcome, String) {
    events
        .iter()
        .find_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                outcome,
                content,
                ..
            } if tool_use_id == id => Some((*outcome, content.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no result for {id}"))
}

fn todo_lists(events: &[SessionEvent]) -> Vec<Vec<TodoItem>> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TodosChanged { todos } => Some(todos.clone()),
            _ => None,
        })
        .collect()
}

fn task_lists(events: &[SessionEvent]) -> Vec<Vec<TaskItem>> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TasksChanged { tasks } => Some(tasks.clone()),
            _ => None,
        })
        .collect()
}

fn options(fake: &FakeServer, sink: &RecordingSink, store: &Arc<SessionStore>) -> SessionOptions {
    SessionOptions {
        id: None,
        cwd: "/ignored".into(),
        model: fake_config(&fake.url()),
        mode: PermissionMode::Default,
        approver: Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        events: Arc::new(sink.clone()),
        store: Some(store.clone()),
        watch_settings: false,
    }
}

fn open(
    root: &Path,
    fake: &FakeServer,
    sink: &RecordingSink,
    store: &Arc<SessionStore>,
    family: WorkListFamily,
) -> Session {
    let model = Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    Session::builder(root)
        .expect("folder")
        .options(options(fake, sink, store))
        .model_client(model)
        .work_list(family)
        .build()
        .expect("session")
}

fn reopen(
    id: &str,
    fake: &FakeServer,
    store: &Arc<SessionStore>,
    family: WorkListFamily,
) -> Session {
    let model = Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    Session::resuming(store.clone(), id)
        .expect("stored")
        .options(options(fake, &RecordingSink::default(), store))
        .model_client(model)
        .work_list(family)
        .build()
        .expect("session")
}

fn todo(content: &str, status: &str) -> Value {
    json!({"content": content, "status": status, "activeForm": format!("Doing {content}")})
}

#[tokio::test]
async fn todo_write_replaces_the_list_refuses_two_items_in_progress_and_survives_reopening() {
    let ws = Workspace::new(&[]).expect("workspace");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SessionStore::open(&dir.path().join("sessions.db")).expect("store"));
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "t1",
            "TodoWrite",
            json!({"todos": [todo("a", "in_progress"), todo("b", "in_progress")]}),
        ),
        ScriptedTurn::tool_use(
            "t2",
            "TodoWrite",
            json!({"todos": [todo("a", "in_progress"), todo("b", "pending")]}),
        ),
        ScriptedTurn::tool_use(
            "t3",
            "TodoWrite",
            json!({"todos": [todo("a", "completed"), todo("b", "in_progress")]}),
        ),
        ScriptedTurn::text("Working on b."),
        ScriptedTurn::text("Still here."),
    ]))
    .await;
    let sink = RecordingSink::default();
    let s = open(&ws.root(), &fake, &sink, &store, WorkListFamily::Todos);
    s.send("plan the work").await.expect("turn");
    let events = sink.events();
    let (outcome, text) = result_of(&events, "t1");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(text.contains("one item may be in progress"), "{text}");
    assert_eq!(result_of(&events, "t3").0, ToolOutcome::Success);
    // One announcement per accepted call, each with the whole list.
    let lists = todo_lists(&events);
    assert_eq!(lists.len(), 2);
    assert_eq!(lists[1].len(), 2);
    assert_eq!(lists[1][0].status, TodoStatus::Completed);
    assert_eq!(lists[1][1].active_form, "Doing b");
    // TodoWrite is offered, the task tools are not.
    let tools = offered(&fake.requests()[0].body);
    assert!(tools.contains(&"TodoWrite".to_string()));
    assert!(!tools.contains(&"TaskCreate".to_string()));

    let id = s.id().to_string();
    drop(s);
    tandem_engine::testing::wait_released(&store, &id).await;
    let again = reopen(&id, &fake, &store, WorkListFamily::Todos);
    assert_eq!(again.panels().todos(), lists[1]);
}

#[tokio::test]
async fn the_task_tools_keep_ids_dependencies_and_owners_and_survive_reopening() {
    let ws = Workspace::new(&[]).expect("workspace");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SessionStore::open(&dir.path().join("sessions.db")).expect("store"));
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "c1",
            "TaskCreate",
            json!({"subject": "Write the parser", "description": "in src/"}),
        ),
        ScriptedTurn::tool_use(
            "c2",
            "TaskCreate",
            json!({"subject": "Test the parser", "description": ""}),
        ),
        ScriptedTurn::tool_use(
            "u1",
            "TaskUpdate",
            json!({"taskId": "2", "addBlockedBy": ["1"], "owner": "tester"}),
        ),
        ScriptedTurn::tool_use(
            "u2",
            "TaskUpdate",
            json!({"taskId": "2", "status": "in_progress"}),
        ),
        ScriptedTurn::tool_use("g1", "TaskGet", json!({"taskId": "2"})),
        ScriptedTurn::tool_use("l1", "TaskList", json!({})),
        ScriptedTurn::text("Planned."),
        ScriptedTurn::tool_use(
            "c3",
            "TaskCreate",
            json!({"subject": "Ship it", "description": ""}),
        ),
        ScriptedTurn::text("Added."),
    ]))
    .await;
    let sink = RecordingSink::default();
    let s = open(&ws.root(), &fake, &sink, &store, WorkListFamily::Tasks);
    s.send("plan the parser").await.expect("turn");
    let events = sink.events();
    assert!(result_of(&events, "c1").1.contains("#1"));
    assert!(result_of(&events, "c2").1.contains("#2"));
    // #2 waits for #1.
    let (outcome, text) = result_of(&events, "u2");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(text.contains("waits for #1"), "{text}");
    let (_, text) = result_of(&events, "g1");
    assert!(
        text.contains("Blocked by: #1") && text.contains("Owner: tester"),
        "{text}"
    );
    let (_, text) = result_of(&events, "l1");
    assert!(text.contains("#1 [pending] Write the parser"), "{text}");
    assert!(
        text.contains("#2 [pending] Test the parser (owner: tester) [blocked by #1]"),
        "{text}"
    );
    let lists = task_lists(&events);
    assert_eq!(lists.len(), 3, "creates and the accepted update");
    assert_eq!(lists[2][0].blocks, ["2"]);
    let tools = offered(&fake.requests()[0].body);
    for name in ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"] {
        assert!(tools.contains(&name.to_string()), "{tools:?}");
    }
    assert!(!tools.contains(&"TodoWrite".to_string()));

    let id = s.id().to_string();
    drop(s);
    tandem_engine::testing::wait_released(&store, &id).await;
    let again = reopen(&id, &fake, &store, WorkListFamily::Tasks);
    assert_eq!(again.panels().tasks(), lists[2]);
    // New ids go on after the restored ones.
    again.send("one more").await.expect("turn");
    let tasks = again.panels().tasks();
    assert_eq!(tasks.last().map(|t| t.id.as_str()), Some("3"));
}
