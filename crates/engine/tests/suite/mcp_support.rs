//! Helpers for the MCP suites: the workspace's test MCP server (stdio, or streamable HTTP on loopback), a manager
//! started on a set of servers, a tool runtime whose pool follows the manager, and waiting for server states.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::exec::ToolRuntime;
use tandem_engine::mcp::{Limits, McpCliConfig, McpManager, plan};
use tandem_engine::settings::McpSettings;
use tandem_engine::testing::TestRuntime;
use tandem_protocol::{McpServerState, PermissionMode, SessionEvent};

/// The test MCP server built with the suite.
pub const TEST_SERVER: &str = env!("CARGO_BIN_EXE_tandem-test-mcp");

/// How long a state may take to arrive before a test fails (generous: CI machines are slow).
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A stdio server entry running the test server with `args`.
pub fn stdio(args: &[&str]) -> Value {
    json!({"command": TEST_SERVER, "args": args})
}

/// A stdio server entry running the test server with `args`, logging notable events to `log`.
pub fn stdio_logged(args: &[&str], log: &Path) -> Value {
    json!({"command": TEST_SERVER, "args": args, "env": {"TANDEM_TEST_MCP_LOG": log.display().to_string()}})
}

/// The test server over streamable HTTP on loopback; killed when dropped.
pub struct HttpServer {
    child: Child,
    pub url: String,
}

impl HttpServer {
    pub fn start() -> Self {
        Self::start_with(&["--http", "127.0.0.1:0"])
    }

    /// The test server started with `args` (a remote transport on loopback and its options), once it says where it
    /// listens.
    pub fn start_with(args: &[&str]) -> Self {
        let mut child = Command::new(TEST_SERVER)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the HTTP test server");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the address");
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .expect("the server says where it listens")
            .to_string();
        Self { child, url }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a manager on `servers` (an `mcpServers` object given as `--mcp-config`, strict) in `folder`.
pub fn start(folder: &Path, servers: Value, limits: Limits) -> (McpManager, RecordingSink) {
    let cli = McpCliConfig {
        configs: vec![json!({ "mcpServers": servers }).to_string()],
        strict: true,
    };
    let plan = plan(folder, &McpSettings::default(), &cli, None, &|n| {
        std::env::var(n).ok()
    });
    let events = RecordingSink::default();
    let manager = McpManager::start(folder, plan, limits, Arc::new(events.clone()));
    (manager, events)
}

/// Quick start-up limits for tests of servers that never answer.
pub fn quick() -> Limits {
    Limits {
        startup: Duration::from_secs(2),
        ..Limits::default()
    }
}

/// Limits patient enough for a slow machine.
pub fn patient() -> Limits {
    Limits {
        startup: PATIENCE,
        ..Limits::default()
    }
}

/// Waits until server `name` is ready.
pub async fn ready(manager: &McpManager, name: &str) {
    let ok = manager
        .wait_until(PATIENCE, |all| {
            all.iter()
                .any(|s| s.name == name && s.state == McpServerState::Ready)
        })
        .await;
    assert!(ok, "{name} never became ready: {:?}", manager.status(name));
}

/// Waits until server `name` has failed and returns its error and stderr tail.
pub async fn failure(manager: &McpManager, name: &str) -> (String, Option<String>) {
    let ok = manager
        .wait_until(PATIENCE, |all| {
            all.iter()
                .any(|s| s.name == name && matches!(s.state, McpServerState::Failed { .. }))
        })
        .await;
    assert!(ok, "{name} never failed: {:?}", manager.status(name));
    match manager.status(name).map(|s| s.state) {
        Some(McpServerState::Failed { error, stderr_tail }) => (error, stderr_tail),
        other => panic!("{name}: {other:?}"),
    }
}

/// A runtime in bypass mode whose pool includes the manager's live tools.
pub fn runtime(folder: &Path, manager: &McpManager) -> (ToolRuntime, RecordingSink) {
    let (mut rt, events) = TestRuntime::new(folder)
        .mode(PermissionMode::BypassPermissions)
        .recorded();
    rt.pool = rt.pool.clone().with_live_mcp(manager.tools());
    (rt, events)
}

/// The progress texts of call `id`.
pub fn progress_of(events: &RecordingSink, id: &str) -> Vec<String> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::ToolCallProgress { tool_use_id, text } if tool_use_id == id => Some(text),
            _ => None,
        })
        .collect()
}

/// Waits (polling, bounded) until `path` contains `needle`.
pub async fn file_mentions(path: &PathBuf, needle: &str) -> bool {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while tokio::time::Instant::now() < deadline {
        if std::fs::read_to_string(path).is_ok_and(|t| t.contains(needle)) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}
