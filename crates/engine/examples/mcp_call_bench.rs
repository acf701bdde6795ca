//! MCP call round trips: the test MCP server's `echo` called N times through Tandem's client (the whole tool-call
//! pipeline: lookup, schema check, permission decision, hooks, the call, result conversion) and through a minimal
//! `rmcp` client (`peer.call_tool`) on the same server, over stdio and over streamable HTTP, interleaved in one run.
//! Prints p50 / p99 of each and the ratio Tandem / minimal. Usage: `mcp_call_bench SERVER_BIN [CALLS]`.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use tandem_engine::events::NullSink;
use tandem_engine::exec::run_tool_use;
use tandem_engine::mcp::{Limits, McpCliConfig, McpManager, plan};
use tandem_engine::settings::McpSettings;
use tandem_engine::testing::TestRuntime;
use tandem_protocol::{McpServerState, PermissionMode, ToolOutcome};
use tokio::io::AsyncBufReadExt;
use tokio_util::sync::CancellationToken;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

async fn start_http(server: &str) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(server)
        .args(["--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start the HTTP server");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    tokio::io::BufReader::new(stdout)
        .read_line(&mut line)
        .await
        .expect("address");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .expect("address line")
        .to_string();
    (child, url)
}

async fn tandem_side(config: serde_json::Value) -> (McpManager, tandem_engine::exec::ToolRuntime) {
    let folder = std::env::temp_dir();
    let cli = McpCliConfig {
        configs: vec![json!({ "mcpServers": { "b": config } }).to_string()],
        strict: true,
    };
    let plan = plan(&folder, &McpSettings::default(), &cli, None, &|n| {
        std::env::var(n).ok()
    });
    let manager = McpManager::start(&folder, plan, Limits::default(), Arc::new(NullSink));
    let ready = manager
        .wait_until(Duration::from_secs(60), |all| {
            all.iter().all(|s| s.state == McpServerState::Ready)
        })
        .await;
    assert!(ready, "the server did not start: {:?}", manager.statuses());
    let mut rt = TestRuntime::new(&folder)
        .mode(PermissionMode::BypassPermissions)
        .build();
    rt.pool = rt.pool.clone().with_live_mcp(manager.tools());
    (manager, rt)
}

async fn compare(
    label: &str,
    calls: usize,
    rt: &tandem_engine::exec::ToolRuntime,
    minimal: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
) {
    let input = json!({"text": "ping"});
    let mut args = serde_json::Map::new();
    args.insert("text".into(), json!("ping"));
    let cancel = CancellationToken::new();
    let (mut ours, mut theirs) = (Vec::with_capacity(calls), Vec::with_capacity(calls));
    // Warm both paths up.
    for _ in 0..20 {
        let _ = run_tool_use(rt, "w", "mcp__b__echo", &input, &cancel).await;
        let _ = minimal
            .call_tool(CallToolRequestParams::new("echo").with_arguments(args.clone()))
            .await;
    }
    for i in 0..calls {
        let id = format!("c{i}");
        let t = Instant::now();
        let outcome = run_tool_use(rt, &id, "mcp__b__echo", &input, &cancel).await;
        ours.push(t.elapsed());
        assert_eq!(outcome.outcome, ToolOutcome::Success);
        let t = Instant::now();
        let result = minimal
            .call_tool(CallToolRequestParams::new("echo").with_arguments(args.clone()))
            .await
            .expect("minimal call");
        theirs.push(t.elapsed());
        assert!(result.is_error != Some(true));
    }
    ours.sort();
    theirs.sort();
    let (o50, o99) = (percentile(&ours, 0.5), percentile(&ours, 0.99));
    let (t50, t99) = (percentile(&theirs, 0.5), percentile(&theirs, 0.99));
    println!(
        "{label:5} | Tandem p50 {:7.0} µs p99 {:7.0} µs | minimal rmcp p50 {:7.0} µs p99 {:7.0} µs | ratio p50 {:.2}x p99 {:.2}x",
        micros(o50),
        micros(o99),
        micros(t50),
        micros(t99),
        micros(o50) / micros(t50),
        micros(o99) / micros(t99)
    );
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let server = args
        .next()
        .expect("usage: mcp_call_bench SERVER_BIN [CALLS]");
    let calls: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(500);
    println!("{calls} calls of `echo` per path, interleaved (one server process per client)");

    let (_manager, rt) = tandem_side(json!({"command": server})).await;
    let mut child = tokio::process::Command::new(&server)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn");
    let pipes = (
        child.stdout.take().expect("stdout"),
        child.stdin.take().expect("stdin"),
    );
    let minimal = ().serve(pipes).await.expect("minimal stdio client");
    compare("stdio", calls, &rt, &minimal).await;
    drop(minimal);
    drop(child);

    let (_http_ours, url_ours) = start_http(&server).await;
    let (_http_theirs, url_theirs) = start_http(&server).await;
    let (_manager_http, rt_http) = tandem_side(json!({"type": "http", "url": url_ours})).await;
    let minimal_http =
        ().serve(StreamableHttpClientTransport::from_uri(url_theirs))
            .await
            .expect("minimal HTTP client");
    compare("http", calls, &rt_http, &minimal_http).await;
}
