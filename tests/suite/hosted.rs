//! The window's hosted tabs over IPC on Tauri's mock runtime, with a real ACP agent (the scripted stand-in of
//! tests/acp, started from the settings' `agentServers`): the agents are listed, a hosted session opens and its
//! turn runs through the window's approval dialogs and Tandem's tools, the session is stored and listed, an
//! interrupt withdraws the open question and ends the turn, closing the tab ends the agent's process, and an unknown
//! agent or a bad remote URL is a clear error.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tandem_app::state::AppState;
use tandem_engine::settings::{AppSettingsFile, CredentialStore};
use tandem_engine::store::SessionStore;
use tauri::Manager;
use tauri::test::MockRuntime;

use super::ipc::{invoke_on, mock_window};

pub(super) struct App {
    pub(super) app: tauri::App<MockRuntime>,
    pub(super) webview: tauri::WebviewWindow<MockRuntime>,
    pub(super) data: tempfile::TempDir,
}

/// The scripted ACP agent of tests/acp.
pub(super) fn scripted_agent() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/acp/scripted_agent.py")
}

/// The app with its own store and a settings file naming `agents` under `agentServers`.
pub(super) fn app(agents: Value) -> App {
    let data = tempfile::tempdir().expect("tempdir");
    let settings = data.path().join("settings.json");
    std::fs::write(&settings, json!({ "agentServers": agents }).to_string()).expect("settings");
    let mut state = AppState::new(None);
    state.recent_file = Some(data.path().join("recent.json"));
    state.store = Some(Arc::new(
        SessionStore::open(&data.path().join("sessions.db")).expect("store"),
    ));
    state.settings_file = Some(AppSettingsFile::new(
        settings,
        CredentialStore::in_file(data.path().join("credentials.json")),
    ));
    let (app, webview) = mock_window(state);
    App { app, webview, data }
}

/// The scripted agent, writing its process id to `pid_file` first.
fn scripted(pid_file: &Path) -> Value {
    let line = format!(
        "echo $$ > {} && exec python3 {}",
        pid_file.display(),
        scripted_agent().display()
    );
    json!({ "command": "sh", "args": ["-c", line] })
}

pub(super) fn invoke(app: &App, cmd: &str, body: Value) -> Result<Value, Value> {
    invoke_on(&app.webview, cmd, body)
}

pub(super) fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The session's events so far.
pub(super) fn events(app: &App, session_id: &str) -> Vec<Value> {
    invoke(
        app,
        "session_events",
        json!({"sessionId": session_id, "afterSeq": null}),
    )
    .expect("session_events")
    .as_array()
    .expect("events")
    .iter()
    .map(|envelope| envelope["event"].clone())
    .collect()
}

pub(super) fn has(events: &[Value], kind: &str) -> bool {
    events.iter().any(|e| e["type"] == kind)
}

/// All the text the agent said in the session.
pub(super) fn said(events: &[Value]) -> String {
    events
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect()
}

/// The `RESULTS {…}` line the scripted agent ends its answer with.
pub(super) fn results(events: &[Value]) -> Value {
    let text = said(events);
    let at = text.find("RESULTS ").expect("the agent's results");
    serde_json::from_str(&text[at + "RESULTS ".len()..]).expect("results json")
}

/// Whether the process `pid` has ended (gone, or a zombie waiting to be reaped).
pub(super) fn ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

fn open(app: &App, folder: &Path, agent: &str) -> Result<Value, Value> {
    invoke(
        app,
        "open_hosted_session",
        json!({"path": folder, "onEvent": "__CHANNEL__:7", "agent": agent, "remote": null}),
    )
}

#[test]
fn a_hosted_agent_runs_a_tab_turn_through_the_windows_dialogs_and_closing_the_tab_ends_it() {
    let project = tempfile::tempdir().expect("project");
    let root = std::fs::canonicalize(project.path()).expect("canonical");
    let pid_file = root.join("..").join(format!(
        "{}.pid",
        root.file_name().expect("name").to_string_lossy()
    ));
    let app = app(json!({ "scripted": scripted(&pid_file) }));

    let listed = invoke(&app, "agent_servers", json!({})).expect("agent_servers");
    assert_eq!(listed["names"], json!(["scripted"]));
    assert_eq!(listed["problem"], Value::Null);

    let info = open(&app, &root, "scripted").expect("open_hosted_session");
    let session_id = info["session_id"].as_str().expect("id").to_string();
    assert_eq!(info["model"], "acp:scripted");
    assert_eq!(info["setup_hint"], Value::Null, "no model key is needed");
    let pid = std::fs::read_to_string(&pid_file).expect("pid");
    let pid = pid.trim().to_string();

    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": session_id, "prompt": "Take notes"}),
    )
    .expect("send_prompt");
    // The agent's edit opens the window's dialog (allowed); every later question is refused.
    let approvals = app.app.state::<AppState>().approvals.clone();
    let mut answered = 0;
    wait_until("the turn's end", || {
        for request_id in approvals.waiting() {
            let choice = if answered == 0 { "allow" } else { "deny" };
            answered += 1;
            let _ = invoke(
                &app,
                "answer_approval",
                json!({"answer": {"request_id": request_id, "choice": choice, "message": null}}),
            );
        }
        has(&events(&app, &session_id), "turn_ended")
    });
    let seen = events(&app, &session_id);
    assert!(answered >= 1, "the edit asked the person");
    assert!(has(&seen, "approval_requested") && has(&seen, "approval_resolved"));
    let results = results(&seen);
    assert_eq!(results["edit"], "yes", "{results}");
    assert_eq!(results["write"], "ok", "{results}");
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).expect("notes"),
        "hello\n"
    );
    assert!(
        results["output"]
            .as_str()
            .is_some_and(|o| o.contains("hi there")),
        "{results}"
    );
    // Its calls arrive as the session's ordinary events (the components render them).
    assert!(
        seen.iter()
            .any(|e| e["type"] == "tool_call_started" && e["tool_use_id"] == "c1"),
        "{seen:#?}"
    );

    // The session is stored like any other.
    let listed = invoke(&app, "list_sessions", json!({"path": root})).expect("list_sessions");
    assert!(
        listed
            .as_array()
            .expect("sessions")
            .iter()
            .any(|s| s["session_id"] == session_id.as_str()),
        "{listed:#}"
    );

    invoke(&app, "close_session", json!({"sessionId": session_id})).expect("close");
    wait_until("the agent's process to end", || ended(&pid));
    let _ = std::fs::remove_file(&pid_file);

    // Reopened from the history, it goes on with its agent; this one cannot load sessions, which is said, and
    // Tandem's own model can take it on instead.
    let hosted = invoke(
        &app,
        "open_session",
        json!({"path": root, "onEvent": "__CHANNEL__:8", "resume": session_id}),
    )
    .expect_err("a hosted session reopens with its agent");
    assert_eq!(hosted["code"], "hosted_session", "{hosted}");
    let refused = invoke(
        &app,
        "open_hosted_session",
        json!({"path": null, "onEvent": "__CHANNEL__:8", "agent": null, "remote": null, "resume": session_id}),
    )
    .expect_err("the scripted agent cannot load sessions");
    assert_eq!(refused["code"], "agent");
    assert!(
        refused["message"]
            .as_str()
            .is_some_and(|m| m.contains("does not offer `session/load`")),
        "{refused}"
    );
    invoke(
        &app,
        "open_session",
        json!({"path": root, "onEvent": "__CHANNEL__:9", "resume": session_id, "ownAgent": true}),
    )
    .expect("reopen with Tandem's own model");
    let notices: Vec<String> = events(&app, &session_id)
        .into_iter()
        .filter(|e| e["type"] == "notice")
        .filter_map(|e| e["message"].as_str().map(str::to_string))
        .collect();
    assert!(
        notices.iter().any(|m| m.contains("was run by scripted")
            && m.contains("Tandem's own model")
            && !m.contains("tandem -p")),
        "{notices:?}"
    );
    invoke(&app, "close_session", json!({"sessionId": session_id})).expect("close");
    drop(app.data);
}

#[test]
fn an_interrupt_withdraws_the_agents_question_and_ends_its_turn() {
    let project = tempfile::tempdir().expect("project");
    let root = std::fs::canonicalize(project.path()).expect("canonical");
    let agent = json!({ "command": "python3", "args": [scripted_agent()] });
    let app = app(json!({ "scripted": agent }));
    let info = open(&app, &root, "scripted").expect("open_hosted_session");
    let session_id = info["session_id"].as_str().expect("id").to_string();
    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": session_id, "prompt": "Take notes"}),
    )
    .expect("send_prompt");
    let approvals = app.app.state::<AppState>().approvals.clone();
    wait_until("the agent's question", || {
        has(&events(&app, &session_id), "approval_requested")
    });
    invoke(&app, "interrupt", json!({"sessionId": session_id})).expect("interrupt");
    // The interrupt withdraws the open question (on its own time): only then may later questions be answered, or
    // the answer below could reach the first one before the interrupt does.
    wait_until("the question withdrawn", || {
        has(&events(&app, &session_id), "approval_resolved")
    });
    // The scripted agent goes on after a cancelled answer; questions of the cancelled turn are not asked.
    wait_until("the turn's end", || {
        for request_id in approvals.waiting() {
            let _ = invoke(
                &app,
                "answer_approval",
                json!({"answer": {"request_id": request_id, "choice": "deny", "message": null}}),
            );
        }
        has(&events(&app, &session_id), "turn_ended")
    });
    let seen = events(&app, &session_id);
    assert!(has(&seen, "approval_resolved"), "the dialog is withdrawn");
    let results = results(&seen);
    assert_eq!(
        results["edit"],
        Value::Null,
        "the agent heard `cancelled`: {results}"
    );
    invoke(&app, "close_session", json!({"sessionId": session_id})).expect("close");
}

#[test]
fn an_unknown_agent_or_a_bad_remote_url_is_a_clear_error_and_none_configured_lists_none() {
    let project = tempfile::tempdir().expect("project");
    let app = app(json!({ "scripted": { "command": "python3", "args": [scripted_agent()] } }));
    let unknown = open(&app, project.path(), "nobody").expect_err("unknown agent");
    assert_eq!(unknown["code"], "agent");
    let message = unknown["message"].as_str().expect("message");
    assert!(
        message.contains("nobody") && message.contains("scripted"),
        "{message}"
    );

    let bad = invoke(
        &app,
        "open_hosted_session",
        json!({"path": null, "onEvent": "__CHANNEL__:7", "agent": null, "remote": "sftp://box/p"}),
    )
    .expect_err("bad url");
    assert_eq!(bad["code"], "agent");
    assert!(
        bad["message"]
            .as_str()
            .is_some_and(|m| m.contains("only ssh://")),
        "{bad}"
    );

    let missing = open(&app, &project.path().join("missing"), "scripted").expect_err("no folder");
    assert_eq!(missing["code"], "folder_missing");

    let empty = self::app(json!({}));
    let listed = invoke(&empty, "agent_servers", json!({})).expect("agent_servers");
    assert_eq!(listed["names"], json!([]));
    assert!(
        listed["settings_file"]
            .as_str()
            .is_some_and(|f| f.ends_with("settings.json")),
        "{listed}"
    );
}
