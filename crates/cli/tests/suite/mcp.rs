//! `tandem -p` with MCP servers: the published reference server (`@modelcontextprotocol/server-everything`, installed
//! by scripts/install-deps under tests/mcp) over stdio, called end to end by the fake model, and a broken
//! `--mcp-config` reported without stopping the run.

use std::path::PathBuf;
use std::process::Stdio;

use serde_json::{Value, json};
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tandem");

/// The reference server's entry point; the test fails loudly when it (or node) is missing.
fn everything_server() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let entry =
        root.join("tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        entry.is_file(),
        "{} is missing: run scripts/install-deps (it installs tests/mcp's npm packages)",
        entry.display()
    );
    let node = std::process::Command::new("node").arg("--version").output();
    assert!(
        node.is_ok_and(|o| o.status.success()),
        "node is not on PATH: install Node.js 20 or newer (scripts/install-deps checks it)"
    );
    entry
}

fn tandem(url: &str, home: &std::path::Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_remove("ANTHROPIC_MODEL")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("ANTHROPIC_BASE_URL", url)
        .env("ANTHROPIC_API_KEY", "sk-cli-test")
        .stdin(Stdio::null());
    cmd
}

#[tokio::test]
async fn print_mode_calls_the_reference_servers_tools() {
    let entry = everything_server();
    let dir = tempfile::tempdir().expect("tempdir");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::ToolUse {
                id: "toolu_echo".into(),
                name: "mcp__everything__echo".into(),
                input: json!({"message": "hello from tandem"}),
            },
            ScriptBlock::ToolUse {
                id: "toolu_sum".into(),
                name: "mcp__everything__get-sum".into(),
                input: json!({"a": 20, "b": 22}),
            },
        ]),
        ScriptedTurn::text("All done."),
    ]))
    .await
    .expect("fake model");
    let config = json!({"mcpServers": {"everything": {
        "command": "node", "args": [entry.display().to_string(), "stdio"]}}});
    let mut cmd = tandem(&server.url(), dir.path());
    cmd.current_dir(dir.path())
        .arg("--mcp-config")
        .arg(config.to_string())
        .args(["--strict-mcp-config", "--allowedTools", "mcp__everything"])
        .args(["-p", "use the reference server"]);
    let out = cmd.output().await.expect("tandem runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "All done.");
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "stderr: {stderr}");
    let offered: Vec<&str> = requests[0].body["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(offered.contains(&"mcp__everything__get-sum"), "{offered:?}");
    let results: Vec<&Value> = requests[1].body["messages"][2]["content"]
        .as_array()
        .expect("results")
        .iter()
        .collect();
    let text_of = |id: &str| {
        results
            .iter()
            .find(|r| r["tool_use_id"] == id)
            .map(|r| r["content"].to_string())
            .unwrap_or_default()
    };
    assert!(
        text_of("toolu_echo").contains("hello from tandem"),
        "{results:?}"
    );
    assert!(text_of("toolu_sum").contains("42"), "{results:?}");
    assert!(results.iter().all(|r| r["is_error"] != true), "{results:?}");
}

#[tokio::test]
async fn print_mode_declines_a_servers_form_and_says_so() {
    let entry = everything_server();
    let dir = tempfile::tempdir().expect("tempdir");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use(
            "toolu_form",
            "mcp__everything__trigger-elicitation-request",
            json!({}),
        ),
        ScriptedTurn::text("Asked."),
    ]))
    .await
    .expect("fake model");
    let config = json!({"mcpServers": {"everything": {
        "command": "node", "args": [entry.display().to_string(), "stdio"]}}});
    let mut cmd = tandem(&server.url(), dir.path());
    cmd.current_dir(dir.path())
        .arg("--mcp-config")
        .arg(config.to_string())
        .args(["--strict-mcp-config", "--allowedTools", "mcp__everything"])
        .args(["-p", "ask me something"]);
    let out = cmd.output().await.expect("tandem runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "stderr: {stderr}");
    // The tool exists only for clients that take forms; nobody is here to fill it in, so it is declined.
    let result = requests[1].body["messages"][2]["content"][0].to_string();
    assert!(result.contains("declined"), "{result}");
    assert!(
        stderr.contains("MCP server everything") && stderr.contains("declined"),
        "stderr: {stderr}"
    );
}

/// The reference server over streamable HTTP on a free loopback port; killed when dropped.
struct HttpEverything(tokio::process::Child);

impl Drop for HttpEverything {
    fn drop(&mut self) {
        let _ = self.0.start_kill();
    }
}

async fn http_everything(entry: &std::path::Path) -> (HttpEverything, String) {
    use tokio::io::AsyncBufReadExt;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut child = Command::new("node")
        .arg(entry)
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start the reference server");
    let mut lines = tokio::io::BufReader::new(child.stderr.take().expect("stderr")).lines();
    let listening = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("listening on port") {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(
        listening,
        Ok(true),
        "the reference server did not start on port {port}"
    );
    (
        HttpEverything(child),
        format!("http://127.0.0.1:{port}/mcp"),
    )
}

#[tokio::test]
async fn print_mode_calls_the_reference_server_over_streamable_http() {
    let entry = everything_server();
    let (_server_process, url) = http_everything(&entry).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use(
            "toolu_echo",
            "mcp__everything__echo",
            json!({"message": "hello over http"}),
        ),
        ScriptedTurn::text("Done over HTTP."),
    ]))
    .await
    .expect("fake model");
    let config = json!({"mcpServers": {"everything": {"type": "http", "url": url}}});
    let mut cmd = tandem(&server.url(), dir.path());
    cmd.current_dir(dir.path())
        .arg("--mcp-config")
        .arg(config.to_string())
        .args([
            "--strict-mcp-config",
            "--allowedTools",
            "mcp__everything__echo",
        ])
        .args(["-p", "echo over http"]);
    let out = cmd.output().await.expect("tandem runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Done over HTTP."
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "stderr: {stderr}");
    let result = &requests[1].body["messages"][2]["content"][0];
    assert_eq!(result["tool_use_id"], "toolu_echo");
    assert!(
        result["content"].to_string().contains("hello over http"),
        "{result}"
    );
    assert_ne!(result["is_error"], true, "{result}");
}

#[tokio::test]
async fn a_broken_mcp_config_is_reported_and_the_run_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("bad.json"),
        "{\n  \"mcpServers\": {\n    oops\n}",
    )
    .expect("write");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("Still here.")]))
        .await
        .expect("fake model");
    let mut cmd = tandem(&server.url(), dir.path());
    cmd.current_dir(dir.path())
        .args(["--mcp-config", "bad.json"])
        .arg("--mcp-config")
        .arg(json!({"mcpServers": {"ghost": {"command": "tandem-no-such-mcp-binary"}}}).to_string())
        .args(["-p", "hello"]);
    let out = cmd.output().await.expect("tandem runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "Still here.");
    assert!(stderr.contains("bad.json: line 3"), "{stderr}");
    assert!(
        stderr.contains("MCP server ghost failed") && stderr.contains("was not found"),
        "{stderr}"
    );
}

#[tokio::test]
async fn print_mode_runs_the_reference_servers_prompts_and_attaches_its_resources() {
    let entry = everything_server();
    let dir = tempfile::tempdir().expect("tempdir");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::text("Sunny."),
        ScriptedTurn::text("Analysed."),
        ScriptedTurn::text("Read it."),
    ]))
    .await
    .expect("fake model");
    let config = json!({"mcpServers": {"everything": {
        "command": "node", "args": [entry.display().to_string(), "stdio"]}}});
    let run = |prompt: &str| {
        let mut cmd = tandem(&server.url(), dir.path());
        cmd.current_dir(dir.path())
            .arg("--mcp-config")
            .arg(config.to_string())
            .arg("--strict-mcp-config")
            .args(["-p", prompt]);
        cmd
    };
    let last_user_content = |i: usize| {
        let requests = server.requests();
        let messages = requests[i].body["messages"]
            .as_array()
            .expect("messages")
            .clone();
        messages.last().expect("a message")["content"].to_string()
    };

    let out = run("/mcp__everything__args-prompt Paris state=Texas")
        .output()
        .await
        .expect("tandem runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "Sunny.");
    assert!(
        last_user_content(0).contains("What's weather in Paris, Texas?"),
        "{}",
        last_user_content(0)
    );

    let out = run("/mcp__everything__resource-prompt Text 3")
        .output()
        .await
        .expect("tandem runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let content = last_user_content(1);
    assert!(
        content.contains("Resource 3: This is a plaintext resource"),
        "{content}"
    );

    let out = run("what is in @everything:demo://resource/dynamic/blob/2 ?")
        .output()
        .await
        .expect("tandem runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let content = last_user_content(2);
    assert!(
        content.contains("Resource 2: This is a base64 blob"),
        "{content}"
    );

    let out = run("/mcp__everything__args-prompt")
        .output()
        .await
        .expect("tandem runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a missing argument fails the run: {stderr}"
    );
    assert!(stderr.contains("needs `city`"), "{stderr}");
    assert_eq!(server.requests().len(), 3, "nothing went to the model");
}

#[tokio::test]
async fn a_permission_prompt_tool_that_does_not_answer_refuses_the_call_and_a_bad_name_stops_the_run()
 {
    let entry = everything_server();
    let dir = tempfile::tempdir().expect("tempdir");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use(
            "toolu_write",
            "Bash",
            json!({"command": "echo hi > asked.txt"}),
        ),
        ScriptedTurn::text("Refused."),
    ]))
    .await
    .expect("fake model");
    let config = json!({"mcpServers": {"everything": {
        "command": "node", "args": [entry.display().to_string(), "stdio"]}}});
    // The reference server's echo answers with text that is no permission answer: the call is refused with why.
    let mut cmd = tandem(&server.url(), dir.path());
    cmd.current_dir(dir.path())
        .arg("--mcp-config")
        .arg(config.to_string())
        .args([
            "--strict-mcp-config",
            "--permission-prompt-tool",
            "mcp__everything__echo",
        ])
        .args(["-p", "write a file"]);
    let out = cmd.output().await.expect("tandem runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "stderr: {stderr}");
    let result = requests[1].body["messages"][2]["content"][0].to_string();
    assert!(
        result.contains("the permission prompt tool could not answer")
            && result.contains("mcp__everything__echo"),
        "{result}"
    );
    assert!(!dir.path().join("asked.txt").exists());

    let mut cmd = tandem(&server.url(), dir.path());
    cmd.current_dir(dir.path())
        .args(["--permission-prompt-tool", "approve", "-p", "hello"]);
    let out = cmd.output().await.expect("tandem runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(
        stderr.contains("is not an MCP tool's name"),
        "stderr: {stderr}"
    );
}
