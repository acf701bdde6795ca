//! The terminal panel's commands over IPC on Tauri's mock runtime: a session whose settings switch TERMINAL_PANEL on
//! offers the panel; `open_terminal` starts a shell in the session's folder, `terminal_input` types into it (its
//! screen, kept in the engine, shows the command's output), `resize_terminal` resizes it and `close_terminal` ends
//! it; closing the session's tab ends a shell still open.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tandem_app::state::AppState;
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};
use tauri::Manager;

use super::ipc::{invoke_on, mock_window, model_for};

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_window_opens_types_into_resizes_and_closes_the_terminal_panel() {
    let project = tempfile::tempdir().expect("project");
    std::fs::create_dir_all(project.path().join(".claude")).expect("mkdir");
    std::fs::write(
        project.path().join(".claude/settings.json"),
        r#"{"env": {"TERMINAL_PANEL": "1"}}"#,
    )
    .expect("settings");
    let data = tempfile::tempdir().expect("data");
    let server =
        tauri::async_runtime::block_on(FakeServer::start(Script::turns([ScriptedTurn::text(
            "ok",
        )])))
        .expect("fake server");
    let mut state = AppState::new(None);
    state.model_override = Some(model_for(&server));
    state.recent_file = Some(data.path().join("recent.json"));
    state.store = Some(Arc::new(
        SessionStore::open(&data.path().join("sessions.db")).expect("store"),
    ));
    let (app, webview) = mock_window(state);
    let invoke = |cmd: &str, body: Value| invoke_on(&webview, cmd, body);

    let info = invoke(
        "open_session",
        json!({"path": project.path(), "onEvent": "__CHANNEL__:7"}),
    )
    .expect("open_session");
    assert_eq!(info["terminal_panel"], true, "{info}");
    let id = info["session_id"].as_str().expect("id").to_string();
    let session = app.state::<AppState>().session(&id).expect("open");

    // Typing before the panel is open is refused with the reason.
    let refused = invoke("terminal_input", json!({"sessionId": id, "data": "ls\r"}))
        .expect_err("no panel yet");
    assert_eq!(refused["code"], "terminal", "{refused}");

    let opened = invoke(
        "open_terminal",
        json!({"sessionId": id, "rows": 20, "cols": 70, "onOutput": "__CHANNEL__:8"}),
    )
    .expect("open_terminal");
    assert_eq!(opened["started"], true, "{opened}");
    let panel = session
        .terminal_panel()
        .current()
        .expect("the panel is open");
    invoke(
        "terminal_input",
        json!({"sessionId": id, "data": "echo from-the-window-$((6*7)) && pwd\r"}),
    )
    .expect("terminal_input");
    let folder = std::fs::canonicalize(project.path()).expect("canonical");
    wait_until("the command's output", || {
        let rows = panel.snapshot().rows;
        rows.iter().any(|r| r == "from-the-window-42")
            && rows.iter().any(|r| Some(r.as_str()) == folder.to_str())
    });

    invoke(
        "resize_terminal",
        json!({"sessionId": id, "rows": 30, "cols": 100}),
    )
    .expect("resize_terminal");
    assert_eq!(panel.snapshot().size, (30, 100));

    let shell = panel.pid();
    drop(panel);
    invoke("close_terminal", json!({"sessionId": id})).expect("close_terminal");
    assert!(session.terminal_panel().current().is_err());
    wait_until("the shell's end", || {
        std::fs::read_to_string(format!("/proc/{shell}/stat")).map_or(true, |s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        })
    });

    // A shell still open when the tab closes ends with the session.
    invoke(
        "open_terminal",
        json!({"sessionId": id, "rows": 20, "cols": 70, "onOutput": "__CHANNEL__:9"}),
    )
    .expect("open_terminal again");
    let again = session
        .terminal_panel()
        .current()
        .expect("open again")
        .pid();
    invoke("close_session", json!({"sessionId": id})).expect("close_session");
    wait_until("the shell's end with the session", || {
        std::fs::read_to_string(format!("/proc/{again}/stat")).map_or(true, |s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        })
    });
}
