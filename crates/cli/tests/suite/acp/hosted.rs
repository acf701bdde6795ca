//! `tandem -p --agent NAME`: Tandem as the client of real ACP agents over stdio, each started from the settings'
//! `agentServers` behind a `tee` of both directions (so every line is checked against the protocol's schema):
//! `tandem acp` itself against the fake model (text, a command allowed by a saved rule and an edit denied by one,
//! nobody asked; the session stored), a scripted agent that uses the client's file system and terminals (writes go
//! through Tandem's checks and checkpoints, a read of `.env` is rejected by a deny rule), and Claude Code through its
//! published ACP adapter against the fake model.

use std::path::{Path, PathBuf};

use agent_client_protocol::LineDirection;
use serde_json::{Value, json};
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};

use super::super::commands::{project, run, tandem};
use super::schema;

const BIN: &str = env!("CARGO_BIN_EXE_tandem");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A home whose Tandem settings name `agents` and whose own settings (rules, hooks) are `settings`.
pub(super) fn home(agents: Value, settings: Value) -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("home");
    let config = home.path().join(".config/tandem");
    std::fs::create_dir_all(&config).expect("config");
    std::fs::write(
        config.join("settings.json"),
        json!({ "agentServers": agents }).to_string(),
    )
    .expect("settings");
    std::fs::create_dir_all(home.path().join(".claude")).expect("claude");
    std::fs::write(
        home.path().join(".claude/settings.json"),
        settings.to_string(),
    )
    .expect("rules");
    home
}

/// An agent entry running `command` with every line to it and from it copied into `logs`.
fn teed(command: &str, logs: &Path, env: Value) -> Value {
    let line = format!(
        "tee -a {} | {command} | tee -a {}",
        logs.join("in.jsonl").display(),
        logs.join("out.jsonl").display()
    );
    json!({ "command": "sh", "args": ["-c", line], "env": env })
}

/// The lines of a teed connection, as the client's wire (requests first, so each response finds its request).
fn wire(logs: &Path) -> Vec<(LineDirection, String)> {
    let read = |name: &str, direction: LineDirection| -> Vec<(LineDirection, String)> {
        std::fs::read_to_string(logs.join(name))
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| (direction, l.to_string()))
            .collect()
    };
    let all: Vec<(LineDirection, String)> = read("in.jsonl", LineDirection::Stdin)
        .into_iter()
        .chain(read("out.jsonl", LineDirection::Stdout))
        .collect();
    let is_call = |line: &str| line.contains("\"method\"");
    let (calls, answers): (Vec<_>, Vec<_>) = all.into_iter().partition(|(_, l)| is_call(l));
    calls.into_iter().chain(answers).collect()
}

/// The events of `--output-format stream-json` output.
fn events(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v.get("event").cloned())
        .collect()
}

fn decision_of<'a>(events: &'a [Value], id: &str) -> &'a Value {
    events
        .iter()
        .find(|e| e["type"] == "tool_call_decision" && e["tool_use_id"] == id)
        .map(|e| &e["decision"])
        .unwrap_or_else(|| panic!("no decision for {id} in {events:#?}"))
}

/// `tandem -p --agent NAME PROMPT --output-format stream-json` in `root`.
pub(super) async fn hosted(
    home: &Path,
    root: &Path,
    name: &str,
    prompt: &str,
    more: &[&str],
) -> super::super::commands::Output {
    let mut cmd = tandem(None, home);
    cmd.current_dir(root)
        .args([
            "-p",
            prompt,
            "--agent",
            name,
            "--output-format",
            "stream-json",
        ])
        .args(more);
    run(cmd).await
}

/// The sessions `tandem sessions list` prints for `home`.
pub(super) async fn sessions(home: &Path) -> String {
    let mut cmd = tandem(None, home);
    cmd.args(["sessions", "list"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

#[tokio::test]
async fn tandem_acp_hosted_streams_its_calls_and_the_saved_rules_answer_its_requests() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::write(
        root.join("package.json"),
        r#"{"scripts": {"test": "echo tests pass"}}"#,
    )
    .expect("package");
    let secret = root.join("secret.txt");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "I'll run the tests.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_b1".into(),
                name: "Bash".into(),
                input: json!({"command": "npm test"}),
            },
        ]),
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_w1".into(),
            name: "Write".into(),
            input: json!({"file_path": secret.display().to_string(), "content": "x"}),
        }]),
        ScriptedTurn::text("The tests pass; the secret stays."),
        ScriptedTurn::text("Tandem carries on."),
    ]))
    .await
    .expect("server");
    let logs = tempfile::tempdir().expect("logs");
    // The hosted agent has a home of its own: its own store and settings, none of the client's rules.
    let agent_home = tempfile::tempdir().expect("agent home");
    let a = agent_home.path();
    let home = home(
        json!({"tandem": teed(&format!("{BIN} acp"), logs.path(), json!({
            "HOME": a, "XDG_CONFIG_HOME": a.join(".config"), "XDG_DATA_HOME": a.join(".local/share"),
            "ANTHROPIC_BASE_URL": server.url(), "ANTHROPIC_API_KEY": "sk-hosted", "NO_UPDATE_NOTIFIER": "1",
        }))}),
        json!({"permissions": {"allow": ["Bash(npm test)"], "deny": ["Edit(./secret.txt)"]}}),
    );
    let out = hosted(home.path(), &root, "tandem", "Run the tests", &[]).await;
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        !out.stderr.contains("permission asked"),
        "nobody is asked: {}",
        out.stderr
    );
    let result: Value =
        serde_json::from_str(out.stdout.lines().last().expect("result")).expect("json");
    assert_eq!(result["result"], "The tests pass; the secret stays.");
    assert_eq!(result["agent"], "tandem");
    let events = events(&out.stdout);
    // The agent's text and calls as Tandem's own events, in order.
    let text: String = events
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(text.starts_with("I'll run the tests."), "{text}");
    let at = |what: &dyn Fn(&Value) -> bool| {
        events
            .iter()
            .position(what)
            .unwrap_or_else(|| panic!("missing event in {events:#?}"))
    };
    let started = at(&|e| e["type"] == "tool_call_started" && e["tool_use_id"] == "toolu_b1");
    let input = at(&|e| {
        e["type"] == "tool_call_input"
            && e["tool_use_id"] == "toolu_b1"
            && e["input"]["command"] == "npm test"
    });
    let done = at(&|e| {
        e["type"] == "tool_call_result"
            && e["tool_use_id"] == "toolu_b1"
            && e["outcome"] == "success"
    });
    assert!(started < input && input < done);
    assert_eq!(events[started]["name"], "Bash");
    assert_eq!(events[input]["hints"]["kind"], "shell");
    assert!(
        events[done]["content"]
            .as_str()
            .unwrap_or("")
            .contains("tests pass")
    );
    // The saved rules answered: the command allowed, the edit denied.
    let allowed = decision_of(&events, "toolu_b1");
    assert_eq!(allowed["decision"], "allow");
    assert_eq!(allowed["rule"], "Bash(npm test)");
    let denied = decision_of(&events, "toolu_w1");
    assert_eq!(denied["decision"], "deny");
    assert_eq!(denied["rule"], "Edit(./secret.txt)");
    assert!(!secret.exists(), "the denied write happened");
    assert!(events.iter().any(|e| e["type"] == "usage_updated"));
    assert_eq!(events.last().expect("events")["type"], "turn_ended");
    // Every message both ways fits the protocol's schema.
    assert!(schema::validate(&wire(logs.path())) > 10);
    // Stored like any session: listed, with its prompt as the title and the agent as the model.
    let listed = sessions(home.path()).await;
    let id = result["session_id"].as_str().expect("id");
    assert!(
        listed.contains(id) && listed.contains("Run the tests"),
        "{listed}"
    );
    // Tandem's own agent can carry on with it: the prompt and the hosted agent's answer are its history.
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(&root)
        .args(["--resume", id, "-p", "and now?"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("Tandem carries on."), "{}", out.stdout);
    let sent = server.requests().pop().expect("request").body.to_string();
    assert!(
        sent.contains("Run the tests") && sent.contains("The tests pass; the secret stays."),
        "{sent}"
    );
}

#[tokio::test]
async fn a_scripted_agent_writes_reads_and_runs_commands_through_tandems_checks() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::write(root.join(".env"), "SECRET=1\n").expect("env");
    let logs = tempfile::tempdir().expect("logs");
    let agent = repo().join("tests/acp/scripted_agent.py");
    let home = home(
        json!({"scripted": teed(&format!("python3 {}", agent.display()), logs.path(), json!({}))}),
        json!({"permissions": {"allow": ["Edit(./notes.txt)"], "deny": ["Read(./.env)", "Edit(./locked.txt)"]}}),
    );
    // A server named for this run is passed to the agent (Tandem does not start it: the agent would).
    let servers =
        json!({"mcpServers": {"notes": {"command": "notes-server", "args": ["--stdio"]}}});
    let out = hosted(
        home.path(),
        &root,
        "scripted",
        "Take notes",
        &["--mcp-config", &servers.to_string()],
    )
    .await;
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        !out.stderr.contains("permission asked"),
        "nobody is asked: {}",
        out.stderr
    );
    let result: Value =
        serde_json::from_str(out.stdout.lines().last().expect("result")).expect("json");
    let answer = result["result"].as_str().expect("answer");
    let results: Value = serde_json::from_str(
        answer
            .split_once("RESULTS ")
            .map(|(_, r)| r)
            .unwrap_or_else(|| panic!("no results in {answer}")),
    )
    .expect("results");
    assert_eq!(results["mcp"], json!(["notes"]), "{results}");
    // The edit's request allowed by the rule, the write landed (whole, as the agent sent it).
    assert_eq!(results["edit"], "yes", "{results}");
    assert_eq!(results["write"], "ok", "{results}");
    assert_eq!(
        std::fs::read_to_string(root.join("notes.txt")).expect("notes"),
        "hello\n"
    );
    // A write the deny rule covers is refused, saying why; nothing is written.
    assert!(
        results["locked"]["data"]
            .as_str()
            .unwrap_or("")
            .contains("Edit(./locked.txt)"),
        "{results}"
    );
    assert!(!root.join("locked.txt").exists());
    // The read of .env is rejected by the deny rule; the file read through Tandem has what was written.
    assert_eq!(results["env"], "no", "{results}");
    assert_eq!(results["read"], "hello\n", "{results}");
    // The terminal ran through Tandem's shell.
    assert_eq!(results["exit"], 0, "{results}");
    assert_eq!(results["output"], "hi there\n", "{results}");
    let events = events(&out.stdout);
    assert_eq!(decision_of(&events, "c2")["rule"], "Read(./.env)");
    assert!(
        events.iter().any(|e| e["type"] == "tool_call_started"
            && e["tool_use_id"] == "c2"
            && e["name"] == "Read"),
        "a call asked about before it was announced is shown from the request: {events:#?}"
    );
    let write = events
        .iter()
        .find(|e| e["type"] == "tool_call_result" && e["tool_use_id"] == "acp_write_1")
        .unwrap_or_else(|| panic!("the write is not a Write call: {events:#?}"));
    assert_eq!(write["outcome"], "success");
    assert!(
        events.iter().any(|e| e["type"] == "tool_call_result"
            && e["tool_use_id"] == "c1"
            && e["detail"]["type"] == "file_change"),
        "the agent's diff is a file change: {events:#?}"
    );
    assert!(schema::validate(&wire(logs.path())) > 15);
    // The write was checkpointed: rewinding the prompt's files removes the new file.
    let mut cmd = tandem(None, home.path());
    cmd.current_dir(&root).args(["rewind"]);
    let listed = run(cmd).await;
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let prompts: Value = serde_json::from_str(listed.stdout.trim()).expect("prompts");
    let prompt = &prompts["prompts"][0];
    assert_eq!(prompt["prompt"], "Take notes", "{prompts}");
    let id = prompt["prompt_id"].as_str().expect("prompt id").to_string();
    let mut cmd = tandem(None, home.path());
    cmd.current_dir(&root)
        .args(["rewind", "--to", &id, "--scope", "files"]);
    let rewound = run(cmd).await;
    assert_eq!(rewound.code, 0, "{}", rewound.stderr);
    assert!(!root.join("notes.txt").exists(), "{}", rewound.stdout);
}

/// Claude Code's published ACP adapter's entry point; the test fails loudly when it (or node) is missing.
fn claude_adapter() -> PathBuf {
    let entry =
        repo().join("tests/acp/node_modules/@zed-industries/claude-agent-acp/dist/index.js");
    assert!(
        entry.is_file(),
        "{} is missing: run scripts/install-deps (it installs tests/acp's npm packages)",
        entry.display()
    );
    entry
}

#[tokio::test]
async fn claude_code_through_its_acp_adapter_answers_and_a_saved_rule_allows_its_command() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::write(
        root.join("package.json"),
        r#"{"scripts": {"test": "echo tests pass"}}"#,
    )
    .expect("package");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "I'll run the tests.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_c1".into(),
                name: "Bash".into(),
                input: json!({"command": "npm test", "description": "Run the tests"}),
            },
        ]),
        ScriptedTurn::text("The tests pass."),
    ]))
    .await
    .expect("server");
    let logs = tempfile::tempdir().expect("logs");
    let agent_home = tempfile::tempdir().expect("agent home");
    // Claude Code refuses to run as root unless told it is in a sandbox (test machines often run as root).
    let home = home(
        json!({"claude": teed(&format!("node {}", claude_adapter().display()), logs.path(), json!({
            "HOME": agent_home.path(), "IS_SANDBOX": "1", "NO_UPDATE_NOTIFIER": "1",
            "ANTHROPIC_BASE_URL": server.url(), "ANTHROPIC_API_KEY": "sk-hosted",
        }))}),
        json!({"permissions": {"allow": ["Bash(npm test)"]}}),
    );
    let out = hosted(home.path(), &root, "claude", "Run the tests", &[]).await;
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        !out.stderr.contains("permission asked"),
        "nobody is asked: {}",
        out.stderr
    );
    let result: Value =
        serde_json::from_str(out.stdout.lines().last().expect("result")).expect("json");
    assert_eq!(result["result"], "The tests pass.");
    let events = events(&out.stdout);
    assert_eq!(decision_of(&events, "toolu_c1")["rule"], "Bash(npm test)");
    let done = events
        .iter()
        .find(|e| e["type"] == "tool_call_result" && e["tool_use_id"] == "toolu_c1")
        .unwrap_or_else(|| panic!("no result for the command: {events:#?}"));
    assert_eq!(done["outcome"], "success");
    assert!(
        done["content"]
            .as_str()
            .unwrap_or("")
            .contains("tests pass"),
        "{done}"
    );
    assert_eq!(server.requests().len(), 2, "one request per reply");
    schema::validate(&wire(logs.path()));
    assert!(sessions(home.path()).await.contains("Run the tests"));
}

/// The hosted `tandem acp` entry, with a home of its own, against `url`, teed into `logs`.
fn hosted_tandem(url: &str, agent_home: &Path, logs: &Path) -> Value {
    let a = agent_home;
    json!({"tandem": teed(&format!("{BIN} acp"), logs, json!({
        "HOME": a, "XDG_CONFIG_HOME": a.join(".config"), "XDG_DATA_HOME": a.join(".local/share"),
        "ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "sk-hosted",
    }))})
}

#[tokio::test]
async fn what_the_rules_leave_open_is_answered_as_in_any_headless_run() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let notes = root.join("notes.txt");
    let write = || {
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_w1".into(),
            name: "Write".into(),
            input: json!({"file_path": notes.display().to_string(), "content": "hello\n"}),
        }])
    };
    let server = FakeServer::start(Script::turns([
        write(),
        ScriptedTurn::text("Not written."),
        write(),
        ScriptedTurn::text("Written."),
    ]))
    .await
    .expect("server");
    let logs = tempfile::tempdir().expect("logs");
    let agent_home = tempfile::tempdir().expect("agent home");
    let home = home(
        hosted_tandem(&server.url(), agent_home.path(), logs.path()),
        json!({}),
    );
    // Nobody to ask: no.
    let out = hosted(home.path(), &root, "tandem", "Write the notes", &[]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("permission asked for"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("answered no"), "{}", out.stderr);
    assert!(!notes.exists());
    let asked = events(&out.stdout);
    assert_eq!(decision_of(&asked, "toolu_w1")["decision"], "deny");
    assert!(
        asked
            .iter()
            .any(|e| e["tool_use_id"] == "toolu_w1" && e["status"] == "waiting_for_approval"),
        "{asked:#?}"
    );
    // --yes: yes.
    let out = hosted(home.path(), &root, "tandem", "Write the notes", &["--yes"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("answered yes (--yes)"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read_to_string(&notes).expect("notes"), "hello\n");
    assert_eq!(
        decision_of(&events(&out.stdout), "toolu_w1")["decision"],
        "allow"
    );
    schema::validate(&wire(logs.path()));
}

#[tokio::test]
async fn ctrl_c_cancels_the_hosted_agents_turn_and_the_session_is_stored_as_it_is() {
    use tokio::io::{AsyncBufReadExt, BufReader};

    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    // About a minute of answer: the cancel comes long before its end, however busy the machine.
    let mut slow = ScriptedTurn::text("tick ".repeat(240) + "THE END");
    slow.delta_chars = 4;
    slow.chunk_delay_ms = 200;
    let server = FakeServer::start(Script::turns([slow]))
        .await
        .expect("server");
    let logs = tempfile::tempdir().expect("logs");
    let agent_home = tempfile::tempdir().expect("agent home");
    let home = home(
        hosted_tandem(&server.url(), agent_home.path(), logs.path()),
        json!({}),
    );
    let mut cmd = tandem(None, home.path());
    cmd.current_dir(&root)
        .args([
            "-p",
            "count",
            "--agent",
            "tandem",
            "--output-format",
            "stream-json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut seen = Vec::new();
    // The answer has begun streaming: Ctrl-C.
    while let Some(line) = lines.next_line().await.expect("line") {
        let streaming = line.contains("\"text_delta\"");
        seen.push(line);
        if streaming {
            break;
        }
    }
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().expect("pid").to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    while let Some(line) = lines.next_line().await.expect("line") {
        seen.push(line);
    }
    let status = child.wait().await.expect("exit");
    assert_eq!(status.code(), Some(130));
    let events = events(&seen.join("\n"));
    assert_eq!(
        events.last().expect("events"),
        &json!({"type": "turn_ended", "stop_reason": "interrupted"})
    );
    let text: String = events.iter().filter_map(|e| e["text"].as_str()).collect();
    assert!(!text.contains("THE END"));
    let lines = wire(logs.path());
    assert!(
        lines.iter().any(|(_, l)| l.contains("\"session/cancel\"")),
        "no cancel was sent"
    );
    assert!(
        lines
            .iter()
            .any(|(_, l)| l.contains("\"stopReason\":\"cancelled\""))
    );
    schema::validate(&lines);
    assert!(sessions(home.path()).await.contains("count"));
}

#[tokio::test]
async fn a_pre_tool_use_hook_refuses_what_a_rule_allows() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let ran = root.join("ran.txt");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_b1".into(),
            name: "Bash".into(),
            input: json!({"command": "touch ran.txt"}),
        }]),
        ScriptedTurn::text("It was refused."),
    ]))
    .await
    .expect("server");
    let logs = tempfile::tempdir().expect("logs");
    let agent_home = tempfile::tempdir().expect("agent home");
    let home = home(
        hosted_tandem(&server.url(), agent_home.path(), logs.path()),
        json!({
            "permissions": {"allow": ["Bash(touch ran.txt)"]},
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo 'not today' >&2; exit 2"}]}]},
        }),
    );
    let out = hosted(home.path(), &root, "tandem", "Touch it", &[]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let decision = decision_of(&events(&out.stdout), "toolu_b1").clone();
    assert_eq!(decision["decision"], "deny", "{decision}");
    assert_eq!(decision["decided_by"]["type"], "hook", "{decision}");
    assert!(
        decision["reason"]
            .as_str()
            .unwrap_or("")
            .contains("not today"),
        "{decision}"
    );
    assert!(!ran.exists(), "the refused command ran");
    schema::validate(&wire(logs.path()));
}

/// Answers every question yes (the engine's API test below).
struct Yes;

impl tandem_engine::approver::Approver for Yes {
    fn ask(
        &self,
        request: tandem_protocol::ApprovalRequest,
    ) -> futures::future::BoxFuture<'_, tandem_protocol::ApprovalAnswer> {
        Box::pin(async move {
            tandem_protocol::ApprovalAnswer::new(request.id, tandem_protocol::ApprovalChoice::Allow)
        })
    }
}

#[tokio::test]
async fn one_hosted_agent_runs_several_turns_of_a_stored_session() {
    use std::sync::Arc;
    use tandem_engine::hosted::{Host, HostedAgent, HostedApprover, TerminalTap, Terminals};
    use tandem_engine::session::Session;
    use tandem_engine::settings::AgentServer;
    use tandem_engine::store::SessionStore;

    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::text("The first answer."),
        ScriptedTurn::text("The second answer."),
    ]))
    .await
    .expect("server");
    let agent_home = tempfile::tempdir().expect("agent home");
    let a = agent_home.path();
    let server_entry = AgentServer {
        command: BIN.into(),
        args: vec!["acp".into()],
        env: [
            ("HOME", a.to_path_buf()),
            ("XDG_CONFIG_HOME", a.join(".config")),
            ("XDG_DATA_HOME", a.join(".local/share")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.display().to_string()))
        .chain([
            ("ANTHROPIC_BASE_URL".to_string(), server.url()),
            ("ANTHROPIC_API_KEY".to_string(), "sk-hosted".to_string()),
        ])
        .collect(),
    };
    let data = tempfile::tempdir().expect("data");
    let store = Arc::new(SessionStore::open(&data.path().join("sessions.db")).expect("store"));
    let recorded = tandem_engine::events::RecordingSink::default();
    let terminals = Arc::new(Terminals::default());
    let approver = Arc::new(HostedApprover::new(Arc::new(Yes)));
    let session = Arc::new(
        Session::builder(&root)
            .expect("builder")
            .approver(approver.clone())
            .events(Arc::new(TerminalTap {
                terminals: terminals.clone(),
                inner: Arc::new(recorded.clone()),
            }))
            .store(Some(store.clone()))
            .assume_trusted()
            .build()
            .expect("session"),
    );
    let host = Host::new(session.clone(), approver, terminals);
    let agent = HostedAgent::start(host, "tandem", &server_entry, &[])
        .await
        .expect("the agent starts");
    let cancel = tokio_util::sync::CancellationToken::new();
    let first = agent
        .prompt("Say one thing", &cancel)
        .await
        .expect("turn 1");
    assert_eq!(first.final_text, "The first answer.");
    let second = agent.prompt("And another", &cancel).await.expect("turn 2");
    assert_eq!(second.answer, "The second answer.");
    drop(agent);
    // One agent session: the second request carries the first turn.
    let sent = server.requests().pop().expect("request").body.to_string();
    assert!(
        sent.contains("The first answer.") && sent.contains("And another"),
        "{sent}"
    );
    // One Tandem session with both turns, their prompts and answers stored.
    let stored = store
        .load_session(session.id())
        .expect("load")
        .expect("stored");
    let texts: Vec<String> = stored.messages.iter().map(|m| m.text()).collect();
    assert_eq!(
        texts,
        [
            "Say one thing",
            "The first answer.",
            "And another",
            "The second answer."
        ]
    );
    let ended = recorded
        .events()
        .iter()
        .filter(|e| matches!(e, tandem_protocol::SessionEvent::TurnEnded { .. }))
        .count();
    assert_eq!(ended, 2);
}

#[tokio::test]
async fn a_permission_prompt_tool_answers_what_the_rules_leave_open() {
    let entry =
        repo().join("tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        entry.is_file(),
        "{} is missing: run scripts/install-deps (it installs tests/mcp's npm packages)",
        entry.display()
    );
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let notes = root.join("notes.txt");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_w1".into(),
            name: "Write".into(),
            input: json!({"file_path": notes.display().to_string(), "content": "hello\n"}),
        }]),
        ScriptedTurn::text("Not written."),
    ]))
    .await
    .expect("server");
    let logs = tempfile::tempdir().expect("logs");
    let agent_home = tempfile::tempdir().expect("agent home");
    let home = home(
        hosted_tandem(&server.url(), agent_home.path(), logs.path()),
        json!({}),
    );
    // The reference server's echo answers with text that is no permission answer: the call is refused, saying why.
    let config = json!({"mcpServers": {"everything": {
        "command": "node", "args": [entry.display().to_string(), "stdio"]}}});
    let out = hosted(
        home.path(),
        &root,
        "tandem",
        "Write the notes",
        &[
            "--mcp-config",
            &config.to_string(),
            "--permission-prompt-tool",
            "mcp__everything__echo",
        ],
    )
    .await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let decision = decision_of(&events(&out.stdout), "toolu_w1").clone();
    assert_eq!(decision["decision"], "deny", "{decision}");
    assert!(
        decision["reason"]
            .as_str()
            .unwrap_or("")
            .contains("mcp__everything__echo"),
        "the prompt tool was not asked: {decision}"
    );
    assert!(!notes.exists());
    schema::validate(&wire(logs.path()));
}

#[tokio::test]
async fn an_agent_that_goes_away_mid_turn_ends_it_as_an_error_and_one_that_cannot_start_stores_nothing()
 {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    // Opens a session, then exits when prompted.
    let quitter = r#"
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {"protocolVersion": 1}}), flush=True)
    elif m.get("method") == "session/new":
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {"sessionId": "q"}}), flush=True)
    elif m.get("method") == "session/prompt":
        print(json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "q",
            "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Bye"}}}}),
            flush=True)
        sys.exit(3)
"#;
    let home = home(
        json!({
            "quitter": {"command": "python3", "args": ["-c", quitter]},
            "missing": {"command": root.join("no-such-agent").display().to_string()},
        }),
        json!({}),
    );
    let out = hosted(home.path(), &root, "quitter", "Stay a while", &[]).await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("the agent `quitter` failed"),
        "{}",
        out.stderr
    );
    let events = events(&out.stdout);
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "text_delta" && e["text"] == "Bye")
    );
    assert_eq!(
        events.last().expect("events"),
        &json!({"type": "turn_ended", "stop_reason": "error"})
    );
    assert!(sessions(home.path()).await.contains("Stay a while"));

    let out = hosted(home.path(), &root, "missing", "Anyone there?", &[]).await;
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("cannot be started"), "{}", out.stderr);
    let out = hosted(home.path(), &root, "nobody", "Anyone there?", &[]).await;
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("known: missing, quitter"),
        "{}",
        out.stderr
    );
    assert!(!sessions(home.path()).await.contains("Anyone there?"));
}

#[tokio::test]
async fn resume_with_the_agent_continues_its_own_session_and_is_refused_where_it_cannot() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::text("Noted: quokka."),
        ScriptedTurn::text("The word was quokka."),
    ]))
    .await
    .expect("server");
    let agent_home = tempfile::tempdir().expect("agent home");
    let a = agent_home.path();
    let scripted = repo().join("tests/acp/scripted_agent.py");
    let home = home(
        json!({
            "tandem": {"command": BIN, "args": ["acp"], "env": {
                "HOME": a, "XDG_CONFIG_HOME": a.join(".config"), "XDG_DATA_HOME": a.join(".local/share"),
                "ANTHROPIC_BASE_URL": server.url(), "ANTHROPIC_API_KEY": "sk-hosted",
            }},
            "scripted": {"command": "python3", "args": [scripted]},
        }),
        json!({}),
    );
    let first = hosted(
        home.path(),
        &root,
        "tandem",
        "Remember the word quokka",
        &[],
    )
    .await;
    assert_eq!(first.code, 0, "{}\n{}", first.stdout, first.stderr);
    let result: Value =
        serde_json::from_str(first.stdout.lines().last().expect("result")).expect("json");
    let id = result["session_id"].as_str().expect("id").to_string();

    // The agent is started again and loads its own session: the model sees the first turn.
    let second = hosted(
        home.path(),
        &root,
        "tandem",
        "What was the word?",
        &["--resume", &id],
    )
    .await;
    assert_eq!(second.code, 0, "{}\n{}", second.stdout, second.stderr);
    let result: Value =
        serde_json::from_str(second.stdout.lines().last().expect("result")).expect("json");
    assert_eq!(result["result"], "The word was quokka.");
    assert_eq!(result["session_id"], id.as_str(), "the same stored session");
    let sent = server.requests().pop().expect("request").body.to_string();
    assert!(
        sent.contains("Remember the word quokka") && sent.contains("Noted: quokka."),
        "the agent's own conversation went on: {sent}"
    );
    // What it replayed while loading is not shown again: this run tells one turn.
    let told = events(&second.stdout);
    assert_eq!(
        told.iter().filter(|e| e["type"] == "turn_started").count(),
        1,
        "{told:#?}"
    );
    assert!(
        !told
            .iter()
            .any(|e| e["type"] == "text_delta" && e["text"] == "Noted: quokka."),
        "{told:#?}"
    );

    // Another agent is refused, naming the one that ran it.
    let other = hosted(home.path(), &root, "scripted", "Go on", &["--resume", &id]).await;
    assert_eq!(other.code, 2, "{}", other.stderr);
    assert!(
        other.stderr.contains("was run by the agent `tandem`"),
        "{}",
        other.stderr
    );

    // An agent without session/load cannot continue its session: refused, saying why.
    let scripted_run = hosted(home.path(), &root, "scripted", "Take notes", &[]).await;
    let result: Value =
        serde_json::from_str(scripted_run.stdout.lines().last().expect("result")).expect("json");
    let scripted_id = result["session_id"].as_str().expect("id").to_string();
    let refused = hosted(
        home.path(),
        &root,
        "scripted",
        "Go on",
        &["--resume", &scripted_id],
    )
    .await;
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("does not offer `session/load`"),
        "{}",
        refused.stderr
    );
}

#[tokio::test]
async fn session_start_context_goes_ahead_of_the_prompt_its_mentions_are_links_and_session_end_runs()
 {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::write(root.join("plan.md"), "ship on Friday\n").expect("plan");
    let marks = tempfile::tempdir().expect("marks");
    let ended = marks.path().join("end.json");
    let agent = repo().join("tests/acp/scripted_agent.py");
    let context = json!({"hookSpecificOutput": {
        "hookEventName": "SessionStart", "additionalContext": "The release is on Friday."}});
    let home = home(
        json!({"scripted": {"command": "python3", "args": [agent]}}),
        json!({
            "permissions": {"allow": ["Edit(./notes.txt)"]},
            "hooks": {
                "SessionStart": [{"hooks": [{"type": "command", "command": format!("echo '{context}'")}]}],
                "SessionEnd": [{"hooks": [{"type": "command", "command": format!("cat > '{}'", ended.display())}]}],
            },
        }),
    );
    let out = hosted(
        home.path(),
        &root,
        "scripted",
        "Take notes from @plan.md please",
        &[],
    )
    .await;
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let result: Value =
        serde_json::from_str(out.stdout.lines().last().expect("result")).expect("json");
    let answer = result["result"].as_str().expect("answer");
    let results: Value = serde_json::from_str(
        answer
            .split_once("RESULTS ")
            .map(|(_, r)| r)
            .unwrap_or_else(|| panic!("no results in {answer}")),
    )
    .expect("results");
    // The agent takes neither images nor embedded context: the mention is a link in its place.
    let uri = format!("file://{}", root.join("plan.md").display());
    assert_eq!(
        results["prompt"],
        json!([
            {"type": "text", "text": "The release is on Friday.\n\n"},
            {"type": "text", "text": "Take notes from "},
            {"type": "resource_link", "name": "plan.md", "uri": uri},
            {"type": "text", "text": " please"},
        ]),
        "{results}"
    );
    let end: Value =
        serde_json::from_str(&std::fs::read_to_string(&ended).expect("SessionEnd ran"))
            .expect("json");
    assert_eq!(end["hook_event_name"], "SessionEnd", "{end}");
}

#[tokio::test]
async fn image_files_go_to_an_agent_that_takes_images_and_are_refused_for_one_that_does_not() {
    use base64::Engine;
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let pixel = root.join("pixel.png");
    std::fs::write(
        &pixel,
        base64::engine::general_purpose::STANDARD
            .decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
            .expect("png"),
    )
    .expect("write");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("A single pixel.")]))
        .await
        .expect("server");
    let agent_home = tempfile::tempdir().expect("agent home");
    let a = agent_home.path();
    let scripted = repo().join("tests/acp/scripted_agent.py");
    let home = home(
        json!({
            "tandem": {"command": BIN, "args": ["acp"], "env": {
                "HOME": a, "XDG_CONFIG_HOME": a.join(".config"), "XDG_DATA_HOME": a.join(".local/share"),
                "ANTHROPIC_BASE_URL": server.url(), "ANTHROPIC_API_KEY": "sk-hosted",
            }},
            "scripted": {"command": "python3", "args": [scripted]},
        }),
        json!({}),
    );
    let image = pixel.display().to_string();
    let out = hosted(
        home.path(),
        &root,
        "tandem",
        "What is this?",
        &["--image", &image],
    )
    .await;
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let requests = server.requests();
    assert!(
        requests.iter().any(|r| {
            let body = r.body.to_string();
            body.contains("\"type\":\"image\"") && body.contains("What is this?")
        }),
        "the image reached the agent's model: {requests:#?}"
    );

    let refused = hosted(
        home.path(),
        &root,
        "scripted",
        "What is this?",
        &["--image", &image],
    )
    .await;
    assert_eq!(refused.code, 2, "{}\n{}", refused.stdout, refused.stderr);
    assert!(
        refused.stderr.contains("scripted does not take images"),
        "{}",
        refused.stderr
    );
}
