//! Slash commands and mentions in `tandem -p`: a user's custom command from `~/.claude/commands` expands (its
//! `allowed-tools` run without asking in that turn, its `model` answers it), an `@path` attaches the file, and
//! `/compact` prints what it did.

use serde_json::json;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::commands::{project, run, tandem};

#[tokio::test]
async fn print_mode_expands_a_custom_command_and_attaches_a_mentioned_file() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let commands = home.path().join(".claude/commands");
    std::fs::create_dir_all(&commands).expect("mkdir");
    std::fs::write(
        commands.join("explain.md"),
        "---\ndescription: Explain a file\nargument-hint: <file>\nmodel: explainer-model\n---\nEXPLAIN-7310: explain $ARGUMENTS plainly.",
    )
    .expect("command");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("It says 42.")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(dir.path())
        .args(["-p", "/explain @README.md"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stdout.trim(), "It says 42.");
    assert_eq!(
        server.requests()[0].body["model"],
        "explainer-model",
        "the command's model answers"
    );
    let sent = server.requests()[0].body["messages"][0]["content"].to_string();
    assert!(
        sent.contains("EXPLAIN-7310: explain @README.md plainly."),
        "{sent}"
    );
    assert!(
        sent.contains("The answer is 42."),
        "the file is attached: {sent}"
    );
}

#[tokio::test]
async fn print_mode_compact_says_what_it_did() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let server = FakeServer::start(Script::turns([])).await.expect("server");
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(dir.path()).args(["-p", "/compact"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert!(out.stdout.contains("Nothing to compact"), "{}", out.stdout);
    assert!(
        server.requests().is_empty(),
        "nothing was sent to the model"
    );
}

#[tokio::test]
async fn print_mode_runs_what_a_user_commands_allowed_tools_allow() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let commands = home.path().join(".claude/commands");
    std::fs::create_dir_all(&commands).expect("mkdir");
    std::fs::write(
        commands.join("mark.md"),
        "---\nallowed-tools: Bash(touch marker.txt)\n---\nTouch the marker file.",
    )
    .expect("command");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use("b1", "Bash", json!({"command": "touch marker.txt"})),
        ScriptedTurn::text("Marked."),
    ]))
    .await
    .expect("server");
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(dir.path()).args(["-p", "/mark"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert!(
        dir.path().join("marker.txt").exists(),
        "the command's rule allowed the call without asking: {}",
        out.stderr
    );
}
