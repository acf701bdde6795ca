//! IPC round trips on Tauri's mock runtime: open a session, send a prompt, answer an approval.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tandem_app::state::AppState;
use tandem_engine::model::{ModelConfig, RetryPolicy};
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};
use tauri::Manager;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{
    INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets,
};
use tauri::webview::InvokeRequest;

struct App {
    app: tauri::App<MockRuntime>,
    webview: tauri::WebviewWindow<MockRuntime>,
    _data: tempfile::TempDir,
}

fn app(model: ModelConfig) -> App {
    let data = tempfile::tempdir().expect("tempdir");
    let mut state = AppState::new(None);
    state.model_override = Some(model);
    state.recent_file = Some(data.path().join("recent.json"));
    state.store = Some(Arc::new(
        SessionStore::open(&data.path().join("sessions.db")).expect("store"),
    ));
    let (app, webview) = mock_window(state);
    App {
        app,
        webview,
        _data: data,
    }
}

/// The app built on Tauri's mock runtime with `state`, and its main window.
pub(super) fn mock_window(
    state: AppState,
) -> (tauri::App<MockRuntime>, tauri::WebviewWindow<MockRuntime>) {
    let app = tandem_app::build_app(mock_builder(), state)
        .build(mock_context(noop_assets()))
        .expect("app builds");
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .expect("window");
    (app, webview)
}

fn invoke(app: &App, cmd: &str, body: Value) -> Result<Value, Value> {
    invoke_on(&app.webview, cmd, body)
}

/// Invokes the command `cmd` from `webview` as the page would, with the arguments `body`.
pub(super) fn invoke_on(
    webview: &tauri::WebviewWindow<MockRuntime>,
    cmd: &str,
    body: Value,
) -> Result<Value, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().expect("url"),
        body: InvokeBody::Json(body),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(webview, request).map(|b| b.deserialize::<Value>().expect("json response"))
}

/// The model settings of a session on `server` (no retries).
pub(super) fn model_for(server: &FakeServer) -> ModelConfig {
    ModelConfig {
        base_url: server.url(),
        api_key: Some("sk-test".into()),
        model: "fake-model".into(),
        retry: RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        },
        ..ModelConfig::default()
    }
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_prompt_runs_a_turn_whose_approval_is_answered_over_ipc() {
    let project = tempfile::tempdir().expect("project");
    let outside = tempfile::tempdir().expect("outside");
    let secret = outside.path().join("notes.txt");
    std::fs::write(&secret, "outside notes\n").expect("write");
    let script = Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_ipc".into(),
            name: "Read".into(),
            input: json!({"file_path": secret}),
        }]),
        ScriptedTurn::text("Read it."),
    ]);
    let server = tauri::async_runtime::block_on(FakeServer::start(script)).expect("fake server");
    let app = app(model_for(&server));

    let state = invoke(&app, "app_state", json!({})).expect("app_state");
    assert_eq!(state["folder"], Value::Null);

    let info = invoke(
        &app,
        "open_session",
        json!({"path": project.path(), "onEvent": "__CHANNEL__:7"}),
    )
    .expect("open_session");
    let session_id = info["session_id"].as_str().expect("id").to_string();
    assert_eq!(
        info["folder_name"],
        json!(project.path().file_name().expect("name").to_string_lossy())
    );
    assert_eq!(info["setup_hint"], Value::Null);

    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": session_id, "prompt": "read the notes"}),
    )
    .expect("send_prompt");
    let approvals = app.app.state::<AppState>().approvals.clone();
    wait_until("the approval request", || approvals.waiting().len() == 1);
    let request_id = approvals.waiting().remove(0);
    invoke(
        &app,
        "answer_approval",
        json!({"answer": {"request_id": request_id, "choice": "allow", "message": null}}),
    )
    .expect("answer_approval");

    wait_until("the second model request", || server.requests().len() == 2);
    let body = &server.requests()[1].body;
    let result = &body["messages"][2]["content"][0];
    assert_eq!(result["tool_use_id"], "toolu_ipc");
    assert!(
        result["content"]
            .as_str()
            .expect("text")
            .contains("outside notes"),
        "{result}"
    );

    // An answer to a question that no longer waits is an error, not a panic.
    let stale = invoke(
        &app,
        "answer_approval",
        json!({"answer": {"request_id": "gone", "choice": "deny", "message": null}}),
    );
    assert_eq!(stale.expect_err("stale")["code"], "no_request");
}

#[test]
fn opening_a_missing_folder_is_a_clear_error() {
    let app = app(ModelConfig::default());
    let err = invoke(
        &app,
        "open_session",
        json!({"path": "/no/such/folder", "onEvent": "__CHANNEL__:1"}),
    )
    .expect_err("missing folder");
    assert_eq!(err["code"], "folder_missing");
    assert!(
        err["message"]
            .as_str()
            .expect("message")
            .contains("/no/such/folder")
    );
}

#[test]
fn a_session_without_an_api_key_opens_and_says_how_to_add_one() {
    let project = tempfile::tempdir().expect("project");
    let app = app(ModelConfig {
        api_key: None,
        ..ModelConfig::default()
    });
    let info = invoke(
        &app,
        "open_session",
        json!({"path": project.path(), "onEvent": "__CHANNEL__:2"}),
    )
    .expect("opens");
    assert!(
        info["setup_hint"]
            .as_str()
            .expect("hint")
            .contains("ANTHROPIC_API_KEY")
    );
}

#[test]
fn sessions_are_listed_and_a_stored_session_reopens_with_its_history() {
    let project = tempfile::tempdir().expect("project");
    let script = Script::turns([
        ScriptedTurn::text("hi there"),
        ScriptedTurn::text("welcome back"),
    ]);
    let server = tauri::async_runtime::block_on(FakeServer::start(script)).expect("fake server");
    let app = app(model_for(&server));
    let path = project.path().display().to_string();
    assert_eq!(
        invoke(&app, "list_sessions", json!({"path": path})).expect("list"),
        json!([])
    );

    let info = invoke(
        &app,
        "open_session",
        json!({"path": path, "onEvent": "__CHANNEL__:3"}),
    )
    .expect("open");
    let id = info["session_id"].as_str().expect("id").to_string();
    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": id, "prompt": "hello"}),
    )
    .expect("send");
    wait_until("the session to be stored", || {
        invoke(&app, "list_sessions", json!({"path": path}))
            .map(|l| l[0]["message_count"] == 2)
            .unwrap_or(false)
    });
    let listed = invoke(&app, "list_sessions", json!({"path": path})).expect("list");
    assert_eq!(listed[0]["session_id"], json!(id));
    assert_eq!(listed[0]["title"], "hello");

    // The turn's task lets go of the session just after it is stored; until then it is busy.
    let mut reopened = Value::Null;
    wait_until("the session to reopen", || {
        match invoke(
            &app,
            "open_session",
            json!({"path": path, "onEvent": "__CHANNEL__:4", "resume": id}),
        ) {
            Ok(info) => {
                reopened = info;
                true
            }
            Err(e) => {
                assert!(e.to_string().contains("session_busy"), "{e}");
                false
            }
        }
    });
    assert_eq!(reopened["session_id"], json!(id));
    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": id, "prompt": "again"}),
    )
    .expect("send");
    wait_until("the second request", || server.requests().len() == 2);
    let messages = server.requests()[1].body["messages"].clone();
    assert_eq!(messages[0]["content"][0]["text"], "hello");
    assert_eq!(messages[1]["content"][0]["text"], "hi there");
    assert_eq!(messages[2]["content"][0]["text"], "again");

    let missing = invoke(
        &app,
        "open_session",
        json!({"path": path, "onEvent": "__CHANNEL__:5", "resume": "nope"}),
    );
    assert_eq!(missing.expect_err("unknown")["code"], "unknown_session");
}

#[test]
fn a_session_rewinds_its_files_and_conversation_over_ipc() {
    let project = tempfile::tempdir().expect("project");
    let file = std::fs::canonicalize(project.path())
        .expect("canonical")
        .join("notes.txt");
    std::fs::write(&file, "before\n").expect("write");
    let script = Script::turns([
        ScriptedTurn::tool_use("toolu_r", "Read", json!({"file_path": file})),
        ScriptedTurn::tool_use(
            "toolu_w",
            "Write",
            json!({"file_path": file, "content": "after\n"}),
        ),
        ScriptedTurn::text("written"),
        ScriptedTurn::text("fresh start"),
    ]);
    let server = tauri::async_runtime::block_on(FakeServer::start(script)).expect("fake server");
    let app = app(model_for(&server));
    let path = project.path().display().to_string();
    let info = invoke(
        &app,
        "open_session",
        json!({"path": path, "onEvent": "__CHANNEL__:9"}),
    )
    .expect("open");
    let id = info["session_id"].as_str().expect("id").to_string();
    invoke(
        &app,
        "set_mode",
        json!({"sessionId": id, "mode": "acceptEdits"}),
    )
    .expect("mode");
    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": id, "prompt": "rewrite the notes"}),
    )
    .expect("send");
    wait_until("the turn to finish", || server.requests().len() == 3);
    wait_until("the write", || {
        std::fs::read_to_string(&file)
            .map(|t| t == "after\n")
            .unwrap_or(false)
    });

    let points = invoke(&app, "rewind_points", json!({"sessionId": id})).expect("points");
    assert_eq!(points[0]["prompt"], "rewrite the notes");
    assert_eq!(
        points[0]["files_changed_since"],
        json!([file.display().to_string()])
    );
    let outcome = invoke(
        &app,
        "rewind",
        json!({"sessionId": id, "promptId": points[0]["prompt_id"], "scope": "both", "force": false}),
    )
    .expect("rewind");
    assert_eq!(outcome["files_rewound"], true);
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "before\n");

    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": id, "prompt": "again"}),
    )
    .expect("send");
    wait_until("the next request", || server.requests().len() == 4);
    let messages = server.requests()[3].body["messages"].clone();
    assert_eq!(messages.as_array().expect("messages").len(), 1);
    assert_eq!(messages[0]["content"][0]["text"], "again");
}

#[test]
fn an_unreadable_settings_file_is_listed_shown_and_accepted_over_ipc() {
    let project = tempfile::tempdir().expect("project");
    let root = std::fs::canonicalize(project.path()).expect("canonical");
    let broken = root.join(".claude/settings.local.json");
    std::fs::create_dir_all(broken.parent().expect("parent")).expect("mkdir");
    std::fs::write(&broken, "{\"permissions\": {\"deny\": [\"Read(.env)\",").expect("write");
    std::fs::write(root.join("README.md"), "hello\n").expect("write");
    let app = app(ModelConfig::default());
    let info = invoke(
        &app,
        "open_session",
        json!({"path": root, "onEvent": "__CHANNEL__:3"}),
    )
    .expect("opens");
    let session_id = info["session_id"].as_str().expect("id").to_string();
    let file = broken.display().to_string();
    let read = json!({"sessionId": session_id, "tool": "Read", "input": {"file_path": root.join("README.md")}});

    let listed = invoke(
        &app,
        "unreadable_settings",
        json!({"sessionId": session_id}),
    )
    .expect("unreadable_settings");
    assert_eq!(listed[0]["file"], json!(file));
    assert_eq!(listed[0]["accepted"], json!(false));
    assert_eq!(
        invoke(&app, "check_call", read.clone()).expect("check")["decision"],
        "ask"
    );
    let text = invoke(
        &app,
        "unreadable_settings_text",
        json!({"sessionId": session_id, "file": file}),
    )
    .expect("text");
    assert!(
        text.as_str().is_some_and(|t| t.contains("Read(.env)")),
        "{text}"
    );

    let refused = invoke(
        &app,
        "accept_unreadable_settings",
        json!({"sessionId": session_id, "file": root.join("README.md")}),
    )
    .expect_err("not a broken settings file");
    assert_eq!(refused["code"], "settings");
    let accepted = invoke(
        &app,
        "accept_unreadable_settings",
        json!({"sessionId": session_id, "file": file}),
    )
    .expect("accepted");
    assert_eq!(accepted[0]["accepted"], json!(true));
    assert_eq!(
        invoke(&app, "check_call", read).expect("check")["decision"],
        "allow"
    );
}

#[test]
fn a_prompt_with_images_sends_them_and_a_bad_one_is_refused_with_nothing_sent() {
    // A one-pixel PNG.
    const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    let project = tempfile::tempdir().expect("project");
    let server =
        tauri::async_runtime::block_on(FakeServer::start(Script::turns([ScriptedTurn::text(
            "One pixel.",
        )])))
        .expect("server");
    let app = app(model_for(&server));
    let info = invoke(
        &app,
        "open_session",
        json!({"path": project.path(), "onEvent": "__CHANNEL__:9"}),
    )
    .expect("open_session");
    let session_id = info["session_id"].as_str().expect("id").to_string();

    let err = invoke(
        &app,
        "send_prompt",
        json!({"sessionId": session_id, "prompt": "look",
               "images": [{"media_type": "image/png", "data": PIXEL},
                          {"media_type": "image/png", "data": "aGVsbG8="}]}),
    )
    .expect_err("the second image is not one");
    assert_eq!(err["code"], "image");
    assert!(
        err["message"]
            .as_str()
            .expect("message")
            .starts_with("image 2 is not an image that can be sent"),
        "{err}"
    );
    assert!(server.requests().is_empty());

    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": session_id, "prompt": "look",
               "images": [{"media_type": "image/png", "data": PIXEL}]}),
    )
    .expect("send_prompt");
    wait_until("the model request", || server.requests().len() == 1);
    let content = &server.requests()[0].body["messages"][0]["content"];
    assert_eq!(content[0]["source"]["data"], PIXEL, "{content}");
    assert_eq!(content[1]["text"], "look");
}

#[test]
fn two_sessions_of_two_folders_run_turns_at_the_same_time_and_close_on_their_own() {
    let first = tempfile::tempdir().expect("first project");
    let second = tempfile::tempdir().expect("second project");
    let outside = tempfile::tempdir().expect("outside");
    let notes = outside.path().join("notes.txt");
    std::fs::write(&notes, "outside notes\n").expect("write");
    // The replies go to whichever session asks first: the same call for both, then an answer for both.
    let read = || ScriptedTurn::tool_use("toolu_read", "Read", json!({"file_path": notes}));
    let script = Script::turns([
        read(),
        read(),
        ScriptedTurn::text("done"),
        ScriptedTurn::text("done"),
    ]);
    let server = tauri::async_runtime::block_on(FakeServer::start(script)).expect("fake server");
    let app = app(model_for(&server));
    let open = |path: &std::path::Path, channel: u32| {
        invoke(
            &app,
            "open_session",
            json!({"path": path, "onEvent": format!("__CHANNEL__:{channel}")}),
        )
        .expect("open_session")["session_id"]
            .as_str()
            .expect("id")
            .to_string()
    };
    let one = open(first.path(), 21);
    let two = open(second.path(), 22);
    assert_ne!(one, two);

    // Both turns run and both wait for the person at the same moment.
    for (id, prompt) in [
        (&one, "in the first folder"),
        (&two, "in the second folder"),
    ] {
        invoke(
            &app,
            "send_prompt",
            json!({"sessionId": id, "prompt": prompt}),
        )
        .expect("send_prompt");
    }
    let approvals = app.app.state::<AppState>().approvals.clone();
    wait_until("both approval requests", || approvals.waiting().len() == 2);
    for request_id in approvals.waiting() {
        invoke(
            &app,
            "answer_approval",
            json!({"answer": {"request_id": request_id, "choice": "allow", "message": null}}),
        )
        .expect("answer_approval");
    }
    wait_until("both follow-up requests", || server.requests().len() == 4);
    let mut follow_ups: Vec<(String, String)> = server.requests()[2..]
        .iter()
        .map(|request| {
            let messages = &request.body["messages"];
            (
                messages[0]["content"][0]["text"]
                    .as_str()
                    .expect("prompt")
                    .to_string(),
                messages[2]["content"][0]["content"]
                    .as_str()
                    .expect("result")
                    .to_string(),
            )
        })
        .collect();
    follow_ups.sort();
    assert_eq!(follow_ups[0].0, "in the first folder");
    assert_eq!(follow_ups[1].0, "in the second folder");
    assert!(
        follow_ups
            .iter()
            .all(|(_, result)| result.contains("outside notes"))
    );

    // Closing one session leaves the other open; the closed one can be reopened once it has ended.
    invoke(&app, "close_session", json!({"sessionId": one})).expect("close_session");
    let closed = invoke(
        &app,
        "send_prompt",
        json!({"sessionId": one, "prompt": "still there?"}),
    );
    assert_eq!(closed.expect_err("closed")["code"], "no_session");
    assert!(
        invoke(&app, "background_shells", json!({"sessionId": two})).is_ok(),
        "the other session is still open"
    );
    invoke(&app, "close_session", json!({"sessionId": "never-opened"})).expect("closing nothing");
    let reopened = invoke(
        &app,
        "open_session",
        json!({"path": first.path(), "onEvent": "__CHANNEL__:23", "resume": one}),
    )
    .expect("reopen the closed session");
    assert_eq!(reopened["session_id"], json!(one));
    // A session open already (a reloaded window) is attached to the new channel, not opened twice.
    let again = invoke(
        &app,
        "open_session",
        json!({"path": second.path(), "onEvent": "__CHANNEL__:24", "resume": two}),
    )
    .expect("reattach the open session");
    assert_eq!(again["session_id"], json!(two));
}
