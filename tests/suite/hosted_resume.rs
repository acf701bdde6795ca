//! A hosted tab with Tandem's own `tandem acp` as the agent (against the fake model, in a home of its own), over IPC
//! on Tauri's mock runtime: a prompt's `@file` mention reaches the agent's model as the file's text and a pasted
//! image as an image (the agent takes embedded context and images); the session, closed and reopened from the
//! history, goes on with the same agent — started again, its own session loaded — so the next turn's request holds
//! the first one; and once the agent is no longer configured, the reopen says so and Tandem's own model can take the
//! session on. Skipped (with the reason) without a built `tandem` (`cargo build -p tandem-cli`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::hosted::{App, app, ended, events, has, invoke, wait_until};

/// A 1×1 PNG.
const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/// The command line's `tandem`, built beside this test (`None`, said why, when it is not).
fn built_tandem() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join("tandem");
    if bin.is_file() {
        Some(bin)
    } else {
        eprintln!(
            "skipped: {} is not built (cargo build -p tandem-cli)",
            bin.display()
        );
        None
    }
}

/// `tandem acp` as an agent entry: its process id written to `pid_file`, its home (settings, store) under `home`,
/// its model the fake server at `url`.
fn tandem_acp(bin: &Path, home: &Path, url: &str, pid_file: &Path) -> Value {
    let line = format!(
        "echo $$ > '{}' && exec '{}' acp",
        pid_file.display(),
        bin.display()
    );
    json!({
        "command": "sh",
        "args": ["-c", line],
        "env": {
            "HOME": home,
            "XDG_CONFIG_HOME": home.join(".config"),
            "XDG_DATA_HOME": home.join(".local/share"),
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "sk-test",
        },
    })
}

/// Every request body the fake model was sent, as text.
fn bodies(server: &FakeServer) -> Vec<String> {
    server
        .requests()
        .iter()
        .map(|r| r.body.to_string())
        .collect()
}

fn turns_ended(app: &App, session_id: &str) -> usize {
    events(app, session_id)
        .iter()
        .filter(|e| e["type"] == "turn_ended")
        .count()
}

#[test]
fn a_hosted_tandem_gets_mentions_and_images_and_goes_on_with_its_session_when_reopened() {
    let Some(bin) = built_tandem() else {
        return;
    };
    let server = tauri::async_runtime::block_on(FakeServer::start(Script::turns(
        (0..8).map(|n| ScriptedTurn::text(format!("Answer {n}."))),
    )))
    .expect("server");
    let project = tempfile::tempdir().expect("project");
    let root = std::fs::canonicalize(project.path()).expect("canonical");
    std::fs::write(root.join("plan.md"), "PLAN-CONTENT-42: ship on Friday\n").expect("plan");
    let agent_home = tempfile::tempdir().expect("agent home");
    let pid_file = agent_home.path().join("agent.pid");
    let entry = tandem_acp(&bin, agent_home.path(), &server.url(), &pid_file);
    let app = app(json!({ "tandem": entry }));

    let info = invoke(
        &app,
        "open_hosted_session",
        json!({"path": root, "onEvent": "__CHANNEL__:7", "agent": "tandem", "remote": null}),
    )
    .expect("open_hosted_session");
    let session_id = info["session_id"].as_str().expect("id").to_string();
    invoke(
        &app,
        "send_prompt",
        json!({
            "sessionId": session_id,
            "prompt": "Summarise @plan.md and this picture",
            "images": [{"media_type": "image/png", "data": PIXEL}],
        }),
    )
    .expect("send_prompt");
    wait_until("the first turn's end", || {
        turns_ended(&app, &session_id) == 1
    });
    let first = bodies(&server);
    assert!(
        first.iter().any(|b| b.contains("PLAN-CONTENT-42")),
        "the mentioned file's text reached the agent's model: {first:#?}"
    );
    assert!(
        first
            .iter()
            .any(|b| b.contains("\"type\":\"image\"") && b.contains("image/png")),
        "the image reached the agent's model: {first:#?}"
    );
    assert!(
        has(&events(&app, &session_id), "prompt_images"),
        "the image shows under the prompt"
    );
    assert!(events(&app, &session_id).iter().any(|e| {
        e["type"] == "text_delta" && e["text"].as_str().is_some_and(|t| t.starts_with("Answer"))
    }));

    let pid = std::fs::read_to_string(&pid_file).expect("pid");
    invoke(&app, "close_session", json!({"sessionId": session_id})).expect("close");
    wait_until("the agent's process to end", || ended(pid.trim()));
    let _ = std::fs::remove_file(&pid_file);

    // Reopened from the history: the window is told to go on with the agent, which loads its own session.
    let hosted = invoke(
        &app,
        "open_session",
        json!({"path": root, "onEvent": "__CHANNEL__:8", "resume": session_id}),
    )
    .expect_err("a hosted session reopens with its agent");
    assert_eq!(hosted["code"], "hosted_session", "{hosted}");
    let reopened = invoke(
        &app,
        "open_hosted_session",
        json!({"path": null, "onEvent": "__CHANNEL__:9", "agent": null, "remote": null, "resume": session_id}),
    )
    .expect("reopened with its agent");
    assert_eq!(reopened["session_id"], session_id.as_str());
    assert_eq!(reopened["model"], "acp:tandem");
    let replayed = events(&app, &session_id);
    assert!(
        replayed.iter().any(|e| e["type"] == "turn_started"
            && e["prompt"]
                .as_str()
                .is_some_and(|p| p.starts_with("Summarise"))),
        "the history is shown again: {replayed:#?}"
    );
    let before = server.requests().len();
    invoke(
        &app,
        "send_prompt",
        json!({"sessionId": session_id, "prompt": "And what comes after that?"}),
    )
    .expect("send_prompt");
    wait_until("the second turn's end", || {
        turns_ended(&app, &session_id) == 2
    });
    let later = bodies(&server)[before..].to_vec();
    assert!(
        later
            .iter()
            .any(|b| b.contains("And what comes after that?") && b.contains("PLAN-CONTENT-42")),
        "the agent went on with its own session, the first turn in it: {later:#?}"
    );
    assert!(!has(&events(&app, &session_id), "error"));
    let pid = std::fs::read_to_string(&pid_file).expect("pid");
    invoke(&app, "close_session", json!({"sessionId": session_id})).expect("close");
    wait_until("the agent's process to end", || ended(pid.trim()));

    // Once the agent is no longer configured, reopening says so; Tandem's own model can take the session on.
    let settings = app.data.path().join("settings.json");
    std::fs::write(&settings, json!({"agentServers": {}}).to_string()).expect("settings");
    let gone = invoke(
        &app,
        "open_hosted_session",
        json!({"path": null, "onEvent": "__CHANNEL__:10", "agent": null, "remote": null, "resume": session_id}),
    )
    .expect_err("the agent is gone");
    assert_eq!(gone["code"], "agent");
    assert!(
        gone["message"]
            .as_str()
            .is_some_and(|m| m.contains("`tandem` that ran this session is no longer configured")),
        "{gone}"
    );
    invoke(
        &app,
        "open_session",
        json!({"path": root, "onEvent": "__CHANNEL__:11", "resume": session_id, "ownAgent": true}),
    )
    .expect("Tandem's own model takes it on");
    invoke(&app, "close_session", json!({"sessionId": session_id})).expect("close");
}
