//! The switchable Monitor and OverflowTest tools with real parts: a Monitor on a real background shell or on a file
//! the test appends to wakes the idle session with a turn carrying the matching line (the fake model server sees
//! it); a bad pattern and a path a deny rule covers are refused; with their switches off (in the environment or
//! a settings file) the model is not offered them; a large OverflowTest result reaches the model as the saved
//! file's preview.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::approver::FixedApprover;
use tandem_engine::events::RecordingSink;
use tandem_engine::exec::ToolRuntime;
use tandem_engine::model::{AnthropicModel, Model};
use tandem_engine::session::Session;
use tandem_engine::testing::{
    FakeServer, Project, Script, ScriptedTurn, TestRuntime, Workspace, call,
};
use tandem_engine::tool::{Mailbox, erase};
use tandem_engine::tools::bash::ShellSession;
use tandem_engine::tools::features::Features;
use tandem_engine::tools::monitor::MonitorTool;
use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent};

use super::common::{fake_config, offered, server};

/// Monitor and OverflowTest on, nothing else.
fn on() -> Features {
    Features {
        monitor: true,
        overflow_test: true,
        ..Features::default()
    }
}

fn open(
    root: &Path,
    fake: &FakeServer,
    events: &RecordingSink,
    features: Option<Features>,
) -> Session {
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    let builder = Session::builder(root)
        .expect("folder")
        .model_client(model)
        .model(fake_config(&fake.url()))
        .mode(PermissionMode::Default)
        .approver(Arc::new(FixedApprover(ApprovalChoice::Allow)))
        .events(Arc::new(events.clone()));
    match features {
        Some(features) => builder.features(features),
        None => builder,
    }
    .build()
    .expect("session")
}

async fn until(condition: impl Fn() -> bool) {
    while !condition() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Whether a request after the first `skip` carries `text` in its messages.
fn asked_with(fake: &FakeServer, skip: usize, text: &str) -> bool {
    fake.requests()
        .iter()
        .skip(skip)
        .any(|r| r.body["messages"].to_string().contains(text))
}

/// The turns the session started, by their prompt.
fn turn_prompts(events: &RecordingSink) -> Vec<String> {
    events
        .events()
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TurnStarted { prompt, .. } => Some(prompt.clone()),
            _ => None,
        })
        .collect()
}

/// A named pipe at `path`: a command reading it waits until the test writes.
fn fifo(path: &Path) -> PathBuf {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    path.to_path_buf()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_monitor_on_a_background_shell_wakes_the_idle_session_with_the_matching_line() {
    let ws = Workspace::new(&[]).expect("workspace");
    let gate = fifo(&ws.path("gate"));
    let command = format!(
        "echo starting; read line < {}; echo 'noise'; echo \"server READY-$line\"; read never < {}",
        gate.display(),
        gate.display()
    );
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "b1",
            "Bash",
            json!({"command": command, "run_in_background": true, "description": "start the server"}),
        ),
        ScriptedTurn::tool_use(
            "m1",
            "Monitor",
            json!({"shell_id": "shell_1", "pattern": "READY-\\d+"}),
        ),
        ScriptedTurn::text("waiting for the server"),
        ScriptedTurn::text("the server is ready"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = Arc::new(open(&ws.root(), &fake, &events, Some(on())));
    let waker = tokio::spawn(tandem_engine::session::wake_for_mail(Arc::downgrade(&s)));
    s.send("start the server and tell me when it is ready")
        .await
        .expect("turn");
    assert!(asked_with(
        &fake,
        0,
        "Monitor monitor_1 is watching background shell shell_1"
    ));
    let before = fake.requests().len();

    // The shell prints the line only now; nobody prompts again.
    tokio::task::spawn_blocking(move || std::fs::write(gate, "4242\n"))
        .await
        .expect("writer")
        .expect("open the gate");
    until(|| asked_with(&fake, before, "server READY-4242")).await;
    let woken = fake
        .requests()
        .into_iter()
        .skip(before)
        .find(|r| r.body["messages"].to_string().contains("READY-4242"))
        .expect("the waking request");
    let messages = woken.body["messages"].to_string();
    assert!(messages.contains("monitor_1"), "{messages}");
    assert!(messages.contains("shell_1"), "{messages}");
    // The lines reported follow "matched /…/:" (the shell's command, quoted before it, holds the other lines).
    let reported = messages
        .rsplit("matched /READY-")
        .next()
        .expect("the matched lines");
    assert!(
        reported.contains("server READY-4242") && !reported.contains("noise"),
        "only matching lines: {messages}"
    );
    until(|| turn_prompts(&events).len() >= 2).await;
    assert!(
        turn_prompts(&events)[1].contains("<monitor-notification>"),
        "{:?}",
        turn_prompts(&events)
    );
    drop(s);
    waker.await.expect("the waker ends with the session");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_monitor_on_a_file_reports_appended_matching_lines_and_keeps_watching_when_persistent() {
    let ws = Workspace::new(&[("app.log", "ERROR old, before the monitor\n")]).expect("workspace");
    let log = ws.path("app.log");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "m1",
            "Monitor",
            json!({"path": "app.log", "pattern": "^ERROR", "persistent": true}),
        ),
        ScriptedTurn::text("watching the log"),
        ScriptedTurn::text("first error seen"),
        ScriptedTurn::text("second error seen"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = Arc::new(open(&ws.root(), &fake, &events, Some(on())));
    let waker = tokio::spawn(tandem_engine::session::wake_for_mail(Arc::downgrade(&s)));
    s.send("watch the log").await.expect("turn");
    assert!(asked_with(&fake, 0, "Monitor monitor_1 is watching file"));
    let before = fake.requests().len();

    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&log)
        .expect("open the log");
    file.write_all(b"INFO all good\nERROR disk full on /var\n")
        .expect("append");
    until(|| asked_with(&fake, before, "ERROR disk full on /var")).await;
    until(|| turn_prompts(&events).len() >= 2).await;
    let second = fake.requests().len();
    file.write_all(b"ERROR disk still full\n").expect("append");
    until(|| asked_with(&fake, second, "ERROR disk still full")).await;

    let all = fake
        .requests()
        .iter()
        .map(|r| r.body["messages"].to_string())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        !all.contains("ERROR old"),
        "lines before the monitor are not reported"
    );
    assert!(!all.contains("INFO all good"), "only matching lines");
    assert!(all.contains("It keeps watching."), "{all}");
    drop(s);
    waker.await.expect("the waker ends with the session");
}

/// A runtime whose pool holds a Monitor tool and whose agent has a mailbox, with `rules` in force.
fn monitor_runtime(p: &Project, rules: &[(&str, &str)]) -> (ToolRuntime, Arc<Mailbox>) {
    let shell = Arc::new(ShellSession::temporary().without_sandbox());
    let mailbox = Arc::new(Mailbox::default());
    let rt = TestRuntime::new(&p.root)
        .permissions(p.ctx(rules, PermissionMode::Default))
        .tools(vec![erase(MonitorTool::new(shell))])
        .build();
    (
        ToolRuntime {
            mailbox: Some(mailbox.clone()),
            ..rt
        },
        mailbox,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_monitor_with_a_bad_pattern_or_no_source_is_refused_with_a_clear_error() {
    let p = Project::new().expect("project");
    std::fs::write(p.root.join("app.log"), "").expect("write");
    let (rt, _mailbox) = monitor_runtime(&p, &[]);
    let cases: &[(Value, &str)] = &[
        (
            json!({"path": "app.log", "pattern": "ERROR(unclosed"}),
            "pattern is not a valid regular expression",
        ),
        (
            json!({"path": "app.log", "pattern": ""}),
            "pattern is empty",
        ),
        (json!({"pattern": "x"}), "give shell_id"),
        (
            json!({"path": "app.log", "shell_id": "shell_1", "pattern": "x"}),
            "not both",
        ),
        (
            json!({"shell_id": "shell_9", "pattern": "x"}),
            "No background task with ID shell_9",
        ),
        (
            json!({"path": "missing.log", "pattern": "x"}),
            "cannot watch",
        ),
        (
            json!({"path": "app.log", "pattern": "x", "timeout_ms": 0}),
            "timeout_ms",
        ),
    ];
    for (input, want) in cases {
        let r = call(&rt, "Monitor", input).await;
        assert!(!r.ok, "{input}: {}", r.text);
        assert!(r.text.contains(want), "{input}: {}", r.text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_monitor_on_a_path_a_read_deny_rule_covers_is_denied_and_watches_nothing() {
    let p = Project::new().expect("project");
    std::fs::create_dir_all(p.root.join("secrets")).expect("mkdir");
    std::fs::write(p.root.join("secrets/prod.log"), "").expect("write");
    std::fs::write(p.root.join("app.log"), "").expect("write");
    let (rt, mailbox) = monitor_runtime(&p, &[("deny", "Read(secrets/**)")]);

    let denied = call(
        &rt,
        "Monitor",
        &json!({"path": "secrets/prod.log", "pattern": "token"}),
    )
    .await;
    assert!(!denied.ok, "{}", denied.text);
    assert!(!denied.text.contains("is watching"), "{}", denied.text);

    let allowed = call(
        &rt,
        "Monitor",
        &json!({"path": "app.log", "pattern": "token", "timeout_ms": 60000}),
    )
    .await;
    assert!(allowed.ok, "{}", allowed.text);
    std::fs::write(p.root.join("secrets/prod.log"), "token=hunter2\n").expect("write");
    std::fs::write(p.root.join("app.log"), "token refreshed\n").expect("write");
    until(|| mailbox.has_mail()).await;
    let mail = mailbox.take().join("\n");
    assert!(mail.contains("token refreshed"), "{mail}");
    assert!(!mail.contains("hunter2"), "{mail}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_monitor_that_times_out_says_so() {
    let p = Project::new().expect("project");
    std::fs::write(p.root.join("app.log"), "").expect("write");
    let (rt, mailbox) = monitor_runtime(&p, &[]);
    let r = call(
        &rt,
        "Monitor",
        &json!({"path": "app.log", "pattern": "never", "timeout_ms": 1}),
    )
    .await;
    assert!(r.ok, "{}", r.text);
    until(|| mailbox.has_mail()).await;
    let mail = mailbox.take().join("\n");
    assert!(mail.contains("monitor_1"), "{mail}");
    assert!(mail.contains("timeout of 1 ms passed"), "{mail}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn monitor_and_overflow_test_are_not_offered_unless_switched_on() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("off"),
        ScriptedTurn::text("on"),
        ScriptedTurn::text("from the settings file"),
    ]))
    .await;
    let events = RecordingSink::default();

    let off = open(&ws.root(), &fake, &events, Some(Features::default()));
    off.send("hello").await.expect("turn");
    let body = fake.requests()[0].body.clone();
    let names = offered(&body);
    assert!(
        !names.iter().any(|n| n == "Monitor" || n == "OverflowTest"),
        "{names:?}"
    );
    let sent = body.to_string();
    for word in [
        "Monitor",
        "OverflowTest",
        "MONITOR_TOOL",
        "OVERFLOW_TEST_TOOL",
    ] {
        assert!(!sent.contains(word), "the model is told of {word}");
    }
    // The person's tool list says how to switch them on.
    let listing = off.tool_list();
    for (name, env) in [
        ("Monitor", "MONITOR_TOOL"),
        ("OverflowTest", "OVERFLOW_TEST_TOOL"),
    ] {
        let entry = listing
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} listed: {listing:?}"));
        assert!(!entry.offered, "{entry:?}");
        assert!(
            entry.reason.as_deref().is_some_and(|r| r.contains(env)),
            "{entry:?}"
        );
    }

    let on = open(&ws.root(), &fake, &events, Some(on()));
    on.send("hello").await.expect("turn");
    let names = offered(&fake.requests()[1].body);
    assert!(names.iter().any(|n| n == "Monitor"), "{names:?}");
    assert!(names.iter().any(|n| n == "OverflowTest"), "{names:?}");

    // The same switch under `env` in the project's settings file.
    ws.write(
        ".claude/settings.json",
        r#"{"env": {"MONITOR_TOOL": "1", "OVERFLOW_TEST_TOOL": "0"}}"#,
    )
    .expect("settings");
    let from_settings = open(&ws.root(), &fake, &events, None);
    from_settings.send("hello").await.expect("turn");
    let names = offered(&fake.requests()[2].body);
    assert!(names.iter().any(|n| n == "Monitor"), "{names:?}");
    assert!(!names.iter().any(|n| n == "OverflowTest"), "{names:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_overflow_test_result_reaches_the_model_as_the_saved_files_preview() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("o1", "OverflowTest", json!({"bytes": 150000})),
        ScriptedTurn::text("seen the preview"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = open(&ws.root(), &fake, &events, Some(on()));
    s.send("make a large result").await.expect("turn");

    let requests = fake.requests();
    let result = requests[1].body["messages"]
        .as_array()
        .and_then(|messages| {
            messages.iter().find_map(|m| {
                m["content"].as_array()?.iter().find_map(|block| {
                    (block["type"] == "tool_result" && block["tool_use_id"] == "o1")
                        .then(|| block["content"].clone())
                })
            })
        })
        .expect("the OverflowTest result");
    let text = match &result {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    };
    assert!(text.starts_with("<persisted-output>"), "{text}");
    assert!(
        text.contains("Output too large (150000 characters)"),
        "{text}"
    );
    assert!(text.contains("overflow test line        1"), "{text}");
    assert!(text.len() < 3_000, "only a preview: {} bytes", text.len());
    let saved = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("Output too large (150000 characters). Full output saved to: ")
        })
        .expect("the saved file's path");
    let full = std::fs::read_to_string(saved).expect("the saved result");
    assert_eq!(full.len(), 150_000);
}
