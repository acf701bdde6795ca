//! `tandem -p` fires the session's own hook events: SessionStart (`startup`, its context reaching the model) before
//! the prompt and SessionEnd (`other`) when the run is over, each given the run's transcript file.

use serde_json::{Value, json};
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::commands::{project, run, tandem};

#[tokio::test]
async fn print_mode_fires_session_start_and_session_end_with_the_transcript() {
    let dir = project();
    let start = dir.path().join("start.json");
    let end = dir.path().join("end.json");
    let context = json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx-for-print"}});
    std::fs::create_dir_all(dir.path().join(".claude")).expect("mkdir");
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        json!({"hooks": {
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command",
                "command": format!("cat > '{}'; echo '{context}'", start.display())}]}],
            "SessionEnd": [{"hooks": [{"type": "command", "command": format!("cat > '{}'", end.display())}]}],
        }})
        .to_string(),
    )
    .expect("settings");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("hi there")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path()).args(["-p", "hello"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let read = |p: &std::path::Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(p).expect("the hook ran")).expect("json")
    };
    let start = read(&start);
    assert_eq!(start["source"], "startup");
    let body = server.requests()[0].body.to_string();
    assert!(body.contains("ctx-for-print"), "{body}");
    let end = read(&end);
    assert_eq!(end["hook_event_name"], "SessionEnd");
    assert_eq!(end["reason"], "other");
    // The transcript holds the run's prompt and answer.
    let path = end["transcript_path"].as_str().expect("a path");
    assert!(
        path.starts_with(
            &dir.path()
                .join(".local/share/tandem/sessions")
                .display()
                .to_string()
        ),
        "{path}"
    );
    let lines: Vec<Value> = std::fs::read_to_string(path)
        .expect("the transcript")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["type"], "user");
    assert!(lines[0]["message"]["content"].to_string().contains("hello"));
    assert_eq!(lines[1]["message"]["content"][0]["text"], "hi there");
}
