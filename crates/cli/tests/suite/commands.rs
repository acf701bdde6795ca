//! The headless commands through the real binary: `tandem -p` against the fake model server, `tandem tool`,
//! `tandem permissions check` and `tandem rewind`.

use std::process::Stdio;

use serde_json::{Value, json};
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedReply, ScriptedTurn};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tandem");

/// A command for the binary with a clean environment pointing at `url`.
pub(super) fn tandem(url: Option<&str>, home: &std::path::Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_remove("ANTHROPIC_API_KEY")
        .env_remove("ANTHROPIC_BASE_URL")
        .env_remove("ANTHROPIC_MODEL")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .stdin(Stdio::null());
    if let Some(url) = url {
        cmd.env("ANTHROPIC_BASE_URL", url)
            .env("ANTHROPIC_API_KEY", "sk-cli-test");
    }
    cmd
}

pub(super) struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub(super) async fn run(mut cmd: Command) -> Output {
    let out = cmd.output().await.expect("tandem runs");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A `tandem tool --calls -` process on `dir` (with `args` added), its stdin and its stdout's lines.
pub(super) fn calls_session(
    home: &std::path::Path,
    dir: &std::path::Path,
    args: &[&str],
) -> (
    tokio::process::Child,
    tokio::process::ChildStdin,
    tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
) {
    let mut cmd = tandem(None, home);
    cmd.args(["tool", "--calls", "-"])
        .args(args)
        .arg("--cwd")
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    let stdin = child.stdin.take().expect("stdin");
    let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    (child, stdin, lines)
}

pub(super) fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("README.md"), "# Demo\nThe answer is 42.\n").expect("write");
    dir
}

#[tokio::test]
async fn print_mode_answers_after_a_read() {
    let dir = project();
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "Looking.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_p1".into(),
                name: "Read".into(),
                input: json!({"file_path": "README.md"}),
            },
        ]),
        ScriptedTurn::text("The README says the answer is 42."),
    ]))
    .await
    .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .args(["-p", "What does the README say?"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stdout.trim(), "The README says the answer is 42.");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let result = &requests[1].body["messages"][2]["content"][0];
    assert_eq!(result["tool_use_id"], "toolu_p1");
    assert!(
        result["content"]
            .as_str()
            .expect("text")
            .contains("The answer is 42.")
    );
}

#[tokio::test]
async fn print_mode_answers_no_to_a_question_and_says_why_on_stderr() {
    let dir = project();
    let outside = tempfile::tempdir().expect("outside");
    std::fs::write(outside.path().join("secret.txt"), "classified").expect("write");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use(
            "toolu_o",
            "Read",
            json!({"file_path": outside.path().join("secret.txt")}),
        ),
        ScriptedTurn::text("I could not read it."),
    ]))
    .await
    .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.args(["--output-format", "json", "--cwd"])
        .arg(dir.path())
        .args(["-p", "read the secret"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert!(
        out.stderr.contains("answered no")
            && out.stderr.contains("outside the working directories"),
        "{}",
        out.stderr
    );
    let result: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    assert_eq!(result["result"], "I could not read it.");
    assert_eq!(result["is_error"], false);
    assert_eq!(result["num_turns"], 2);
    let tool_result = &server.requests()[1].body["messages"][2]["content"][0];
    assert_eq!(tool_result["is_error"], true);
    assert!(
        !tool_result["content"]
            .as_str()
            .expect("text")
            .contains("classified")
    );
}

#[tokio::test]
async fn stream_json_prints_every_event_as_a_line() {
    let dir = project();
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("streamed")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .args(["-p", "hi", "--output-format", "stream-json"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let init = lines.first().expect("first");
    assert_eq!(
        (&init["type"], &init["subtype"]),
        (&json!("system"), &json!("init"))
    );
    assert_eq!(init["permission_mode"], "default");
    let tools = init["tools"].to_string();
    assert!(
        tools.contains("\"Read\"") && tools.contains("\"Bash\""),
        "{tools}"
    );
    assert_eq!(lines[1]["event"]["type"], "turn_started");
    assert_eq!(lines[1]["session_id"], init["session_id"]);
    assert!(lines.iter().any(|l| l["event"]["type"] == "text_delta"));
    assert_eq!(lines.last().expect("last")["type"], "result");
}

#[tokio::test]
async fn a_plugin_turned_on_is_named_in_the_init_line_and_its_command_runs() {
    let dir = project();
    let root = dir.path().join(".claude/plugins/cache/market/kit/1.0.0");
    for (rel, text) in [
        (
            ".claude-plugin/plugin.json",
            r#"{"name": "kit", "version": "1.0.0"}"#,
        ),
        ("commands/hello.md", "KIT-HELLO-4 to $ARGUMENTS"),
    ] {
        std::fs::create_dir_all(root.join(rel).parent().expect("parent")).expect("mkdir");
        std::fs::write(root.join(rel), text).expect("write");
    }
    std::fs::write(
        dir.path().join(".claude/plugins/installed_plugins.json"),
        json!({"version": 2, "plugins": {"kit@market": [{"scope": "user", "installPath": root}]}})
            .to_string(),
    )
    .expect("records");
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        json!({"enabledPlugins": {"kit@market": true}}).to_string(),
    )
    .expect("settings");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("said")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path()).args([
        "-p",
        "/kit:hello the team",
        "--output-format",
        "stream-json",
    ]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "{}", out.stderr);
    let init: Value =
        serde_json::from_str(out.stdout.lines().next().expect("init")).expect("JSON line");
    assert_eq!(
        init["plugins"],
        json!([{"name": "kit", "id": "kit@market", "path": root}])
    );
    let sent = server.requests()[0].body["messages"].to_string();
    assert!(sent.contains("KIT-HELLO-4 to the team"), "{sent}");
}

/// The tools `tandem -p --output-format stream-json` says it offers, with `env` set.
async fn offered_tools(env: &[(&str, &str)]) -> Vec<String> {
    let dir = project();
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("ok")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path()).envs(env.iter().copied()).args([
        "-p",
        "hi",
        "--output-format",
        "stream-json",
    ]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let init: Value =
        serde_json::from_str(out.stdout.lines().next().expect("a line")).expect("JSON");
    init["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect()
}

#[tokio::test]
async fn each_gated_tool_is_listed_when_its_gate_is_on_and_not_otherwise() {
    // (gate, value, the tools it offers)
    let gates: &[(&str, &str, &[&str])] = &[
        (
            "AGENT_TRIGGERS",
            "1",
            &["CronCreate", "CronDelete", "CronList"],
        ),
        ("CONTEXT_COLLAPSE", "1", &["CtxInspect"]),
        ("HISTORY_SNIP", "true", &["Snip"]),
        (
            "USER_TYPE",
            "ant",
            &["Tungsten", "Config", "SuggestBackgroundPR"],
        ),
        ("CLAUDE_CODE_VERIFY_PLAN", "true", &["VerifyPlanExecution"]),
        ("ENABLE_LSP_TOOL", "1", &["LSP"]),
        ("MONITOR_TOOL", "1", &["Monitor"]),
        ("OVERFLOW_TEST_TOOL", "1", &["OverflowTest"]),
        ("KAIROS", "1", &["SendUserFile", "PushNotification"]),
        ("WEB_BROWSER_TOOL", "1", &["WebBrowser"]),
        ("WORKFLOW_SCRIPTS", "1", &["Workflow"]),
        ("KAIROS_GITHUB_WEBHOOKS", "1", &["SubscribePR"]),
        ("AGENT_TRIGGERS_REMOTE", "1", &["RemoteTrigger"]),
        ("TERMINAL_PANEL", "1", &["TerminalCapture"]),
    ];
    let off = offered_tools(&[]).await;
    let on = offered_tools(&gates.iter().map(|(k, v, _)| (*k, *v)).collect::<Vec<_>>()).await;
    for (gate, _, tools) in gates {
        for tool in *tools {
            assert!(
                on.contains(&tool.to_string()),
                "{gate} on: {tool} missing from {on:?}"
            );
            assert!(
                !off.contains(&tool.to_string()),
                "{gate} off: {tool} listed in {off:?}"
            );
        }
    }
}

#[tokio::test]
async fn print_mode_model_errors_go_to_stderr_with_a_failing_exit_code() {
    let dir = project();
    let server = FakeServer::start(Script {
        replies: vec![ScriptedReply::http_error(
            401,
            "authentication_error",
            "invalid x-api-key",
        )],
    })
    .await
    .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path()).args(["-p", "hi"]);

    let out = run(cmd).await;

    assert_ne!(out.code, 0);
    assert!(
        out.stderr.contains("authentication failed"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.trim().is_empty());
}

#[tokio::test]
async fn print_mode_without_a_key_or_folder_fails_clearly() {
    let dir = project();
    let mut no_key = tandem(None, dir.path());
    no_key.current_dir(dir.path()).args(["-p", "hi"]);
    let out = run(no_key).await;
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("no API key"), "{}", out.stderr);

    let mut no_folder = tandem(Some("http://127.0.0.1:9"), dir.path());
    no_folder.args(["--cwd", "/no/such/folder", "-p", "hi"]);
    let out = run(no_folder).await;
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("does not exist"), "{}", out.stderr);
}

#[tokio::test]
async fn tool_runs_one_call_and_prints_a_json_line() {
    let dir = project();
    let mut cmd = tandem(None, dir.path());
    cmd.args([
        "tool",
        "Read",
        "--input",
        r#"{"file_path": "README.md", "offset": 2}"#,
        "--cwd",
    ])
    .arg(dir.path());
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line: Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(line["tool"], "Read");
    assert_eq!(line["is_error"], false);
    assert_eq!(line["content"], "     2\tThe answer is 42.\n");

    let mut bad = tandem(None, dir.path());
    bad.args(["tool", "Read", "--input", r#"{"file_path": 7}"#, "--cwd"])
        .arg(dir.path());
    let out = run(bad).await;
    let line: Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(line["is_error"], true);
    assert!(
        line["content"]
            .as_str()
            .expect("text")
            .contains("InputValidationError")
    );
}

#[tokio::test]
async fn tool_calls_from_stdin_are_answered_one_at_a_time() {
    let dir = project();
    let outside = tempfile::tempdir().expect("outside");
    std::fs::write(outside.path().join("o.txt"), "o").expect("write");
    let mut cmd = tandem(None, dir.path());
    cmd.args(["tool", "--calls", "-", "--cwd"])
        .arg(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();

    stdin
        .write_all(b"{\"tool\": \"Read\", \"input\": {\"file_path\": \"README.md\"}}\n")
        .await
        .expect("write");
    let first: Value =
        serde_json::from_str(&lines.next_line().await.expect("read").expect("line")).expect("JSON");
    assert_eq!(first["is_error"], false);
    // The script acts between calls: the file changes before the second read.
    std::fs::write(dir.path().join("README.md"), "changed\n").expect("write");
    stdin
        .write_all(b"{\"tool\": \"Read\", \"input\": {\"file_path\": \"README.md\"}}\n")
        .await
        .expect("write");
    let second: Value =
        serde_json::from_str(&lines.next_line().await.expect("read").expect("line")).expect("JSON");
    assert_eq!(second["content"], "     1\tchanged\n");
    let call = json!({"tool": "Read", "input": {"file_path": outside.path().join("o.txt")}});
    stdin
        .write_all(format!("{call}\n").as_bytes())
        .await
        .expect("write");
    let third: Value =
        serde_json::from_str(&lines.next_line().await.expect("read").expect("line")).expect("JSON");
    assert_eq!(
        third["is_error"], true,
        "an ask is answered no without --yes"
    );
    stdin.write_all(b"not json\n").await.expect("write");
    let fourth: Value =
        serde_json::from_str(&lines.next_line().await.expect("read").expect("line")).expect("JSON");
    assert_eq!(fourth["is_error"], true);
    drop(stdin);
    assert!(child.wait().await.expect("exit").success());
}

#[tokio::test]
async fn continue_and_resume_carry_the_conversation_on() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::text("first answer"),
        ScriptedTurn::text("second answer"),
        ScriptedTurn::text("third answer"),
    ]))
    .await
    .expect("server");
    let prompt = |args: &[&str]| {
        let mut cmd = tandem(Some(&server.url()), home.path());
        cmd.current_dir(dir.path())
            .args(["--output-format", "json"])
            .args(args);
        cmd
    };

    let first = run(prompt(&["-p", "one"])).await;
    assert_eq!(first.code, 0, "{}", first.stderr);
    let id =
        serde_json::from_str::<Value>(first.stdout.trim()).expect("json")["session_id"].clone();

    let second = run(prompt(&["--continue", "-p", "two"])).await;
    assert_eq!(second.code, 0, "{}", second.stderr);
    let texts = |n: usize| -> Vec<Value> {
        server.requests()[n].body["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| m["content"][0]["text"].clone())
            .collect()
    };
    assert_eq!(
        texts(1),
        vec![json!("one"), json!("first answer"), json!("two")]
    );

    let third = run(prompt(&[
        "--resume",
        id.as_str().expect("id"),
        "-p",
        "three",
    ]))
    .await;
    assert_eq!(third.code, 0, "{}", third.stderr);
    assert_eq!(texts(2).len(), 5);
    assert_eq!(
        serde_json::from_str::<Value>(third.stdout.trim()).expect("json")["session_id"],
        id
    );

    let unknown = run(prompt(&["--resume", "no-such-session", "-p", "x"])).await;
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains("no stored session"),
        "{}",
        unknown.stderr
    );
}

#[tokio::test]
async fn allowed_tools_on_the_command_line_approve_what_would_ask() {
    let dir = project();
    let outside = tempfile::tempdir().expect("outside");
    let folder = std::fs::canonicalize(outside.path()).expect("canonical");
    let file = folder.join("notes.txt");
    std::fs::write(&file, "visible with the flag").expect("write");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use("toolu_f", "Read", json!({"file_path": file})),
        ScriptedTurn::text("ok"),
    ]))
    .await
    .expect("server");
    let rule = format!("Read(/{}/**)", folder.display());
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .args(["-p", "read it", "--allowedTools", &rule]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("answered no"), "{}", out.stderr);
    let result = &server.requests()[1].body["messages"][2]["content"][0];
    assert!(
        result["content"]
            .as_str()
            .expect("text")
            .contains("visible with the flag"),
        "{result}"
    );
}

#[tokio::test]
async fn permissions_check_answers_from_the_project_settings_with_the_deciding_rule() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("mkdir");
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        r#"{"permissions": {"allow": ["Bash(aws s3 ls)"], "deny": ["Bash(aws *)"]}}"#,
    )
    .expect("write");
    let check = |command: &str| {
        let mut cmd = tandem(None, home.path());
        cmd.args(["permissions", "check", "Bash", "--input"])
            .arg(json!({"command": command}).to_string())
            .arg("--cwd")
            .arg(dir.path());
        cmd
    };

    let denied = run(check("aws s3 ls")).await;
    assert_eq!(denied.code, 0, "{}", denied.stderr);
    let answer: Value = serde_json::from_str(denied.stdout.trim()).expect("one JSON line");
    assert_eq!(answer["decision"], "deny");
    assert_eq!(answer["rule"], "Bash(aws *)");
    assert!(
        answer["source"]
            .as_str()
            .expect("source")
            .ends_with(".claude/settings.json")
    );
    let decided_by = &answer["decided_by"];
    assert_eq!(decided_by["type"], "rule", "{answer}");
    assert_eq!(decided_by["rule"], "Bash(aws *)");
    assert_eq!(decided_by["behavior"], "deny");
    assert_eq!(decided_by["scope"], "projectSettings");
    assert_eq!(decided_by["file"], answer["source"]);

    let read_only = run(check("ls -la && cat README.md")).await;
    let answer: Value = serde_json::from_str(read_only.stdout.trim()).expect("one JSON line");
    assert_eq!(answer["decision"], "allow");
    assert_eq!(answer["decided_by"]["type"], "working_directories");

    let mut batch = tandem(None, home.path());
    batch
        .args(["permissions", "check", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = batch.spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let line =
        json!({"tool": "Bash", "input": {"command": "aws ec2 run-instances"}, "cwd": dir.path()});
    stdin
        .write_all(format!("{line}\n{line}\n").as_bytes())
        .await
        .expect("write");
    drop(stdin);
    let out = child.wait_with_output().await.expect("output");
    let answers: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(answers.len(), 2);
    assert!(answers.iter().all(|a| a["decision"] == "deny"));
}

#[tokio::test]
async fn rewind_restores_files_and_cuts_the_conversation_but_never_silently_overwrites() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let readme = std::fs::canonicalize(dir.path())
        .expect("canonical")
        .join("README.md");
    let original = std::fs::read_to_string(&readme).expect("read");
    let edit = |id: &str, old: &str, new: &str| {
        ScriptedTurn::tool_use(
            id,
            "Edit",
            json!({"file_path": readme, "old_string": old, "new_string": new}),
        )
    };
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use("toolu_r", "Read", json!({"file_path": readme})),
        edit("toolu_e1", "42", "43"),
        ScriptedTurn::text("changed to 43"),
        // A new process knows of no earlier read: the file is read again before the next edit.
        ScriptedTurn::tool_use("toolu_r2", "Read", json!({"file_path": readme})),
        edit("toolu_e2", "43", "44"),
        ScriptedTurn::text("changed to 44"),
        ScriptedTurn::text("after the rewind"),
    ]))
    .await
    .expect("server");
    let cmd = |args: &[&str]| {
        let mut cmd = tandem(Some(&server.url()), home.path());
        cmd.current_dir(dir.path()).args(args);
        cmd
    };
    let first = run(cmd(&[
        "-p",
        "make it 43",
        "--permission-mode",
        "acceptEdits",
    ]))
    .await;
    assert_eq!(first.code, 0, "{}", first.stderr);
    let second = run(cmd(&[
        "--continue",
        "-p",
        "make it 44",
        "--permission-mode",
        "acceptEdits",
    ]))
    .await;
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(
        std::fs::read_to_string(&readme)
            .expect("read")
            .contains("44")
    );

    let listed = run(cmd(&["rewind"])).await;
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let prompts =
        serde_json::from_str::<Value>(listed.stdout.trim()).expect("json")["prompts"].clone();
    assert_eq!(prompts.as_array().expect("prompts").len(), 2);
    assert_eq!(prompts[0]["prompt"], "make it 43");
    let first_prompt = prompts[0]["prompt_id"].as_str().expect("id").to_string();

    // A change made outside Tandem stops the rewind.
    std::fs::write(&readme, "changed by hand\n").expect("write");
    let refused = run(cmd(&["rewind", "--to", &first_prompt])).await;
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("changed outside Tandem"),
        "{}",
        refused.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&readme).expect("read"),
        "changed by hand\n"
    );

    let forced = run(cmd(&["rewind", "--to", &first_prompt, "--force"])).await;
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(std::fs::read_to_string(&readme).expect("read"), original);

    let after = run(cmd(&["--continue", "-p", "what now?"])).await;
    assert_eq!(after.code, 0, "{}", after.stderr);
    let messages = server.requests().last().expect("request").body["messages"].clone();
    assert_eq!(
        messages.as_array().expect("messages").len(),
        1,
        "the conversation starts again before the first prompt"
    );
    assert_eq!(messages[0]["content"][0]["text"], "what now?");
}

#[tokio::test]
async fn settings_files_are_read_as_editors_write_them_and_a_broken_one_is_refused() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("mkdir");
    // Comments and trailing commas are read; an invalid rule is reported and the rest applies.
    std::fs::write(
        dir.path().join(".claude/settings.local.json"),
        "{\"permissions\": {\"allow\": [\"Bash(ls\",], // not closed\n}}",
    )
    .expect("write");
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        r#"{"permissions": {"allow": ["Read"], "deny": ["Bash(rm *)"]}}"#,
    )
    .expect("write");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("fine")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(dir.path()).args(["-p", "hi"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.trim(), "fine");
    assert!(out.stderr.contains("`allow: Bash(ls`"), "{}", out.stderr);

    let check = || {
        let mut check = tandem(None, home.path());
        check
            .args([
                "permissions",
                "check",
                "Bash",
                "--input",
                r#"{"command": "rm -rf x"}"#,
                "--cwd",
            ])
            .arg(dir.path());
        check
    };
    let answer: Value = serde_json::from_str(run(check()).await.stdout.trim()).expect("json");
    assert_eq!(
        answer["decision"], "deny",
        "the valid rules of the files apply"
    );

    // A file cut off: the command line refuses, naming the file and the parse error.
    let local = dir.path().join(".claude/settings.local.json");
    std::fs::write(&local, "{\"permissions\": {\"deny\": [\"Read(.en").expect("write");
    let refused = run(check()).await;
    assert_eq!(refused.code, 1, "{}", refused.stdout);
    assert!(refused.stdout.trim().is_empty(), "{}", refused.stdout);
    assert!(
        refused.stderr.contains("settings.local.json") && refused.stderr.contains("line 1"),
        "{}",
        refused.stderr
    );
    let mut print = tandem(Some(&server.url()), home.path());
    print.current_dir(dir.path()).args(["-p", "hi"]);
    let refused = run(print).await;
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("settings.local.json"),
        "{}",
        refused.stderr
    );
}

#[tokio::test]
async fn print_mode_has_no_terminal_panel_for_terminal_capture_to_read() {
    let dir = project();
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use("t1", "TerminalCapture", json!({"lines": 20})),
        ScriptedTurn::text("no panel here"),
    ]))
    .await
    .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .env("TERMINAL_PANEL", "1")
        .args([
            "-p",
            "what is in my terminal?",
            "--allowedTools",
            "TerminalCapture",
        ]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let requests = server.requests();
    let result = requests[1].body["messages"].to_string();
    assert!(
        result.contains("there is no terminal panel in a command-line run"),
        "{result}"
    );
}

#[tokio::test]
async fn print_mode_never_offers_the_model_a_disallowed_tool() {
    let dir = project();
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("ok")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .args(["-p", "hi", "--disallowedTools", "Bash", "Write"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let requests = server.requests();
    let offered: Vec<&str> = requests[0].body["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(offered.contains(&"Read"), "{offered:?}");
    assert!(
        !offered.contains(&"Bash") && !offered.contains(&"Write"),
        "{offered:?}"
    );
}

#[tokio::test]
async fn print_mode_stops_cleanly_on_ctrl_c_with_the_shells_code() {
    let dir = project();
    let mut slow = ScriptedTurn::text("never seen");
    slow.delay_before_ms = 600_000;
    let server = FakeServer::start(Script::turns([slow]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .args(["-p", "wait for ever"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().expect("tandem runs");
    let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while server.requests().is_empty() && std::time::Instant::now() < until {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(server.requests().len(), 1, "the model was asked");

    let pid = child.id().expect("pid").to_string();
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = tokio::time::timeout(
        std::time::Duration::from_secs(120),
        child.wait_with_output(),
    )
    .await
    .expect("the turn stops after one Ctrl-C")
    .expect("output");

    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
}

#[tokio::test]
async fn print_mode_tells_the_model_that_nobody_can_answer_questions_or_approve_plans() {
    let dir = project();
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use(
            "toolu_q1",
            "AskUserQuestion",
            json!({"questions": [{"question": "Which?", "header": "Pick", "options": [
                {"label": "A", "description": ""}, {"label": "B", "description": ""}]}]}),
        ),
        ScriptedTurn::tool_use("toolu_x1", "ExitPlanMode", json!({"plan": "1. Do it"})),
        ScriptedTurn::text("Going on with A."),
    ]))
    .await
    .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .args(["-p", "Ask me first", "--permission-mode", "plan"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    let question = &requests[1].body["messages"][2]["content"][0];
    assert_eq!(question["tool_use_id"], "toolu_q1");
    assert_eq!(question["is_error"], true);
    assert!(
        question["content"]
            .to_string()
            .contains("Nobody can answer questions here"),
        "{question}"
    );
    assert!(
        question["content"].to_string().contains("headless"),
        "{question}"
    );
    let plan = &requests[2].body["messages"][4]["content"][0];
    assert_eq!(plan["tool_use_id"], "toolu_x1");
    assert!(
        plan["content"]
            .to_string()
            .contains("Nobody can approve it"),
        "{plan}"
    );
}

#[tokio::test]
async fn tool_refuses_to_run_while_a_settings_file_cannot_be_read() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("mkdir");
    let settings = dir.path().join(".claude/settings.json");
    let call = || {
        let mut cmd = tandem(None, home.path());
        cmd.args([
            "tool",
            "Bash",
            "--permission-mode",
            "bypassPermissions",
            "--input",
            r#"{"command": "rm README.md"}"#,
            "--cwd",
        ])
        .arg(dir.path());
        cmd
    };
    // A trailing comma is what editors write: the deny rule is read and holds.
    std::fs::write(
        &settings,
        "{\"permissions\": {\"deny\": [\"Bash(rm *)\",]}}",
    )
    .expect("write");
    let out = run(call()).await;
    let line: Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(line["is_error"], true, "{line}");
    assert!(dir.path().join("README.md").exists(), "the file was kept");
    // Cut off: nothing runs, and the file and the parse error are named.
    std::fs::write(&settings, "{\"permissions\": {\"deny\": [\"Bash(rm *").expect("write");
    let out = run(call()).await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains(".claude/settings.json") && out.stderr.contains("line 1"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.trim().is_empty(), "{}", out.stdout);
    assert!(dir.path().join("README.md").exists(), "the file was kept");
}

#[tokio::test]
async fn arguments_that_are_not_utf8_are_paths_or_a_clear_error_never_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let home = tempfile::tempdir().expect("home");
    let parent = tempfile::tempdir().expect("parent");
    let odd = parent
        .path()
        .join(std::ffi::OsStr::from_bytes(b"odd-\xff-name"));
    std::fs::create_dir(&odd).expect("mkdir");
    std::fs::write(odd.join("notes.txt"), "in an odd folder\n").expect("write");
    let calls = odd.join(std::ffi::OsStr::from_bytes(b"calls-\xfe.jsonl"));
    std::fs::write(
        &calls,
        "{\"tool\": \"Read\", \"input\": {\"file_path\": \"notes.txt\"}}\n",
    )
    .expect("write");

    // A folder and a calls file whose names are not UTF-8 are used as they are.
    let mut cmd = tandem(None, home.path());
    cmd.args([
        "tool",
        "Read",
        "--input",
        r#"{"file_path": "notes.txt"}"#,
        "--cwd",
    ])
    .arg(&odd);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("in an odd folder"), "{}", out.stdout);
    let mut cmd = tandem(None, home.path());
    cmd.args(["tool", "--calls"])
        .arg(&calls)
        .arg("--cwd")
        .arg(&odd);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("in an odd folder"), "{}", out.stdout);

    // Text that must be UTF-8 (a prompt) is refused with a message, not a panic.
    let mut cmd = tandem(None, home.path());
    cmd.arg("-p")
        .arg(std::ffi::OsStr::from_bytes(b"bad \xff prompt"));
    let out = run(cmd).await;
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("UTF-8"), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
}

#[tokio::test]
async fn tool_calls_on_a_line_without_end_are_refused_and_the_next_line_still_runs() {
    let dir = project();
    let mut cmd = tandem(None, dir.path());
    cmd.args(["tool", "--calls", "-", "--cwd"])
        .arg(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    // 80 MiB without a line break, then a call.
    let block = vec![b'x'; 1 << 20];
    for _ in 0..80 {
        stdin.write_all(&block).await.expect("write");
    }
    stdin
        .write_all(b"\n{\"tool\": \"Read\", \"input\": {\"file_path\": \"README.md\"}}\n")
        .await
        .expect("write");
    drop(stdin);
    let first: Value =
        serde_json::from_str(&lines.next_line().await.expect("read").expect("line")).expect("JSON");
    assert_eq!(first["is_error"], true);
    assert!(
        first["content"]
            .as_str()
            .is_some_and(|c| c.contains("line 1") && c.contains("longer than 64 MiB")),
        "{first}"
    );
    let second: Value =
        serde_json::from_str(&lines.next_line().await.expect("read").expect("line")).expect("JSON");
    assert_eq!(second["is_error"], false, "{second}");
    assert!(child.wait().await.expect("exit").success());
}

#[tokio::test]
async fn an_oversized_settings_file_is_reported_not_read() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("mkdir");
    // 2 MiB of path rules: read whole, each would become a compiled glob (gigabytes for a few megabytes).
    let rules: Vec<String> = (0..70_000)
        .map(|i| format!("Read(src/**/generated-{i}-*.rs)"))
        .collect();
    let text = json!({"permissions": {"allow": rules}}).to_string();
    assert!(text.len() > 2 << 20);
    std::fs::write(dir.path().join(".claude/settings.json"), text).expect("write");

    // An oversized file is an unreadable one: it may hold deny rules, so the command refuses, naming it.
    let mut cmd = tandem(None, home.path());
    cmd.args(["permissions", "list", "--cwd"]).arg(dir.path());
    let out = run(cmd).await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains(".claude/settings.json")
            && out
                .stderr
                .contains("settings files over 1 MiB are not read"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.trim().is_empty(), "{}", out.stdout);

    let mut cmd = tandem(None, home.path());
    cmd.args([
        "tool",
        "Read",
        "--input",
        r#"{"file_path": "README.md"}"#,
        "--cwd",
    ])
    .arg(dir.path());
    let out = run(cmd).await;
    assert!(
        out.stderr
            .contains("settings files over 1 MiB are not read"),
        "{}",
        out.stderr
    );
}

#[tokio::test]
async fn a_key_of_the_wrong_type_in_tandems_own_settings_is_named_on_stderr() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let config = home.path().join(".config/tandem");
    std::fs::create_dir_all(&config).expect("mkdir");
    std::fs::write(config.join("settings.json"), r#"{"maxTokens": "8000"}"#).expect("write");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("fine")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(dir.path()).args(["-p", "hello"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("settings.json")
            && out
                .stderr
                .contains("`maxTokens` must be a positive whole number, not a string (\"8000\")"),
        "{}",
        out.stderr
    );
}

#[tokio::test]
async fn a_log_written_to_a_file_or_pipe_has_no_colour_codes() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("fine")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(dir.path())
        .env("TANDEM_LOG", "debug")
        .args(["-p", "hello"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("DEBUG"),
        "the log is there: {}",
        out.stderr
    );
    assert!(
        !out.stderr.contains('\u{1b}'),
        "{:?}",
        &out.stderr[..out.stderr.len().min(300)]
    );
}

/// The processes whose command line mentions `text` (a zombie's is empty).
fn processes_mentioning(text: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|raw| String::from_utf8_lossy(&raw).replace('\0', " "))
        .filter(|line| line.contains(text))
        .collect()
}

#[tokio::test]
async fn the_web_browser_of_a_print_run_ends_with_it() {
    if tandem_engine::tools::web_browser::find_chromium(None).is_err() {
        eprintln!("no Chromium installed: skipped");
        return;
    }
    let dir = project();
    let tmp = tempfile::tempdir().expect("tmp");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use("toolu_b", "WebBrowser", json!({"action": "read"})),
        ScriptedTurn::text("ok"),
    ]))
    .await
    .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .env("WEB_BROWSER_TOOL", "1")
        .env("TMPDIR", tmp.path())
        .args(["-p", "look"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "{}", out.stderr);
    let result = server.requests()[1].body["messages"][2]["content"][0].clone();
    assert!(result.to_string().contains("about:blank"), "{result}");
    // The browser (its profile is under this TMPDIR) is gone with the run, and its profile with it.
    let marker = tmp.path().display().to_string();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !processes_mentioning(&marker).is_empty() && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(processes_mentioning(&marker), Vec::<String>::new());
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("tmp")
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n.to_string_lossy().starts_with("tandem-browser-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
