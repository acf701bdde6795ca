//! MCP servers against the real test server (no mocks): tools named, described and called over stdio and streamable
//! HTTP; input checked before the call; results, errors and structured content; progress and cancellation; a crash
//! reported and restarted; `tools/list_changed`; misbehaving servers failing clearly while the others work; the
//! resource tools.

use std::time::Duration;

use serde_json::json;
use tandem_engine::exec::run_tool_use;
use tandem_engine::mcp::resource_tools;
use tandem_engine::testing::{Workspace, call};
use tandem_protocol::{McpServerState, SessionEvent, ToolDetail, ToolOutcome};
use tokio_util::sync::CancellationToken;

use super::mcp_support::*;

#[tokio::test]
async fn stdio_tools_are_offered_by_full_name_with_their_traits_and_answer() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (manager, events) = start(&ws.root(), json!({"t s": stdio(&[])}), patient());
    ready(&manager, "t s").await;
    let (rt, call_events) = runtime(&ws.root(), &manager);

    let names: Vec<String> = rt.pool.specs().into_iter().map(|s| s.name).collect();
    for want in ["mcp__t_s__echo", "mcp__t_s__add", "mcp__t_s__slow"] {
        assert!(names.contains(&want.to_string()), "{names:?}");
    }
    let echo = rt.pool.find("mcp__t_s__echo").expect("echo");
    assert!(echo.is_mcp());
    assert_eq!(echo.description(), "Returns the text it is given.");
    let prepared = echo.prepare(&json!({"text": "x"})).expect("valid");
    assert!(prepared.is_read_only() && prepared.is_concurrency_safe());
    let destroy = rt.pool.find("mcp__t_s__destroy").expect("destroy");
    assert!(destroy.prepare(&json!({})).expect("valid").is_destructive());

    let echoed = call(&rt, "mcp__t_s__echo", &json!({"text": "hello"})).await;
    assert!(echoed.ok, "{}", echoed.text);
    assert_eq!(echoed.text, "hello");

    let added = call(&rt, "mcp__t_s__add", &json!({"a": 2, "b": 1.5})).await;
    assert!(added.ok, "{}", added.text);
    assert_eq!(added.text, "3.5");
    let detail = call_events.events().into_iter().find_map(|e| match e {
        SessionEvent::ToolCallResult {
            detail:
                Some(ToolDetail::Mcp {
                    tool,
                    structured_content,
                    meta,
                    ..
                }),
            ..
        } if tool == "add" => Some((structured_content, meta)),
        _ => None,
    });
    assert_eq!(
        detail,
        Some((
            Some(json!({"sum": 3.5})),
            Some(json!({"ui/resourceUri": "ui://add/result"}))
        )),
        "structuredContent and _meta are kept together"
    );

    let status = manager.status("t s").expect("status");
    assert_eq!(status.transport, "stdio");
    assert!(status.tools.contains(&"mcp__t_s__echo".to_string()));
    assert!(events.events().iter().any(|e| matches!(e,
        SessionEvent::McpServerChanged { server } if server.state == McpServerState::Ready)));
}

#[tokio::test]
async fn input_errors_results_and_schemas_are_judged_before_and_after_the_call() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (manager, _) = start(&ws.root(), json!({"t": stdio(&[])}), patient());
    ready(&manager, "t").await;
    let (rt, _) = runtime(&ws.root(), &manager);

    let bad = call(&rt, "mcp__t__add", &json!({"a": "one", "b": 2})).await;
    assert!(!bad.ok);
    assert!(
        bad.text.contains("InputValidationError") && bad.text.contains("/a"),
        "{}",
        bad.text
    );

    let failed = call(&rt, "mcp__t__fail", &json!({})).await;
    assert!(!failed.ok);
    assert!(
        failed.text.contains("the tool failed on purpose"),
        "{}",
        failed.text
    );

    let broken = call(&rt, "mcp__t__bad_output", &json!({})).await;
    assert!(!broken.ok);
    assert!(
        broken.text.contains("does not fit the output schema"),
        "{}",
        broken.text
    );

    let image = call(&rt, "mcp__t__image", &json!({})).await;
    assert!(image.ok, "{}", image.text);
    assert!(image.text.contains("[image]"), "{}", image.text);
    assert!(
        image.text.contains("hello from a resource"),
        "{}",
        image.text
    );

    let unknown = call(&rt, "mcp__t__nope", &json!({})).await;
    assert!(
        !unknown.ok && unknown.text.contains("No such tool"),
        "{}",
        unknown.text
    );
}

#[tokio::test]
async fn progress_is_forwarded_and_an_interrupt_cancels_the_call_on_the_server() {
    let ws = Workspace::new(&[]).expect("workspace");
    let log = ws.root().join("server.log");
    let (manager, _) = start(&ws.root(), json!({"t": stdio_logged(&[], &log)}), patient());
    ready(&manager, "t").await;
    let (rt, events) = runtime(&ws.root(), &manager);

    let done = run_tool_use(
        &rt,
        "p1",
        "mcp__t__slow",
        &json!({"steps": 3, "delay_ms": 10}),
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(done.outcome, ToolOutcome::Success);
    assert_eq!(
        progress_of(&events, "p1"),
        vec!["step 1 (1/3)", "step 2 (2/3)", "step 3 (3/3)"]
    );

    let cancel = CancellationToken::new();
    let running = {
        let rt = rt.clone();
        let cancel = cancel.clone();
        tokio::spawn(async move {
            run_tool_use(
                &rt,
                "p2",
                "mcp__t__slow",
                &json!({"steps": 100_000, "delay_ms": 50}),
                &cancel,
            )
            .await
        })
    };
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while progress_of(&events, "p2").is_empty() && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        !progress_of(&events, "p2").is_empty(),
        "the slow call reports progress"
    );
    cancel.cancel();
    let outcome = running.await.expect("join");
    assert_eq!(outcome.outcome, ToolOutcome::Cancelled);
    assert!(
        file_mentions(&log, "cancelled slow").await,
        "the server heard notifications/cancelled"
    );
    let after = call(&rt, "mcp__t__echo", &json!({"text": "still here"})).await;
    assert!(after.ok && after.text == "still here", "{}", after.text);
}

#[tokio::test]
async fn a_crash_fails_the_call_in_flight_is_reported_and_the_server_restarts() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (manager, events) = start(&ws.root(), json!({"t": stdio(&[])}), patient());
    ready(&manager, "t").await;
    let (rt, _) = runtime(&ws.root(), &manager);

    let crashed = call(&rt, "mcp__t__crash", &json!({})).await;
    assert!(!crashed.ok);
    assert!(
        crashed.text.contains("MCP server `t`") && crashed.text.contains("closed"),
        "{}",
        crashed.text
    );
    let crash_reported = || {
        events.events().iter().any(|e| {
            matches!(e, SessionEvent::McpServerChanged { server } if matches!(&server.state,
                McpServerState::Failed { error, stderr_tail }
                    if error.contains("stopped")
                        && stderr_tail.as_deref().is_some_and(|t| t.contains("crashing on purpose"))))
        })
    };
    let reported = manager.wait_until(PATIENCE, |_| crash_reported()).await;
    assert!(reported, "the crash is reported with the server's stderr");
    ready(&manager, "t").await;
    let again = call(&rt, "mcp__t__echo", &json!({"text": "back"})).await;
    assert!(again.ok && again.text == "back", "{}", again.text);
}

#[tokio::test]
async fn tools_list_changed_updates_the_pool() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (manager, _) = start(&ws.root(), json!({"t": stdio(&[])}), patient());
    ready(&manager, "t").await;
    let (rt, _) = runtime(&ws.root(), &manager);
    assert!(rt.pool.find("mcp__t__extra").is_none());
    let added = call(&rt, "mcp__t__add_tool", &json!({})).await;
    assert!(added.ok, "{}", added.text);
    let listed = manager
        .wait_until(PATIENCE, |all| {
            all.iter()
                .any(|s| s.tools.contains(&"mcp__t__extra".to_string()))
        })
        .await;
    assert!(listed, "{:?}", manager.status("t"));
    let extra = call(&rt, "mcp__t__extra", &json!({})).await;
    assert!(extra.ok && extra.text == "extra works", "{}", extra.text);
}

#[tokio::test]
async fn misbehaving_servers_fail_clearly_and_the_others_still_work() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (manager, _) = start(
        &ws.root(),
        json!({
            "missing": {"command": "tandem-no-such-mcp-server-binary"},
            "exits": stdio(&["--exit-at-once"]),
            "garbage": stdio(&["--garbage"]),
            "silent": stdio(&["--silent"]),
            "badvar": {"command": TEST_SERVER, "env": {"TOKEN": "${TANDEM_TEST_SURELY_UNSET_VAR}"}},
            "good": stdio(&[]),
        }),
        quick(),
    );
    let (missing, _) = failure(&manager, "missing").await;
    assert!(missing.contains("was not found"), "{missing}");
    let (exits, _) = failure(&manager, "exits").await;
    assert!(exits.contains("exiting at once on purpose"), "{exits}");
    let (garbage, _) = failure(&manager, "garbage").await;
    assert!(
        garbage.contains("failed to start") || garbage.contains("did not answer"),
        "{garbage}"
    );
    let (silent, _) = failure(&manager, "silent").await;
    assert!(silent.contains("did not answer `initialize`"), "{silent}");
    let (badvar, _) = failure(&manager, "badvar").await;
    assert!(
        badvar.contains("`badvar`")
            && badvar.contains("${TANDEM_TEST_SURELY_UNSET_VAR}")
            && badvar.contains("env.TOKEN"),
        "{badvar}"
    );
    ready(&manager, "good").await;
    let (rt, _) = runtime(&ws.root(), &manager);
    let ok = call(&rt, "mcp__good__echo", &json!({"text": "fine"})).await;
    assert!(ok.ok && ok.text == "fine", "{}", ok.text);
}

#[tokio::test]
async fn huge_results_are_errors_not_hangs_and_long_ones_are_marked_for_persisting() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (manager, _) = start(&ws.root(), json!({"t": stdio(&[])}), patient());
    ready(&manager, "t").await;
    let (rt, _) = runtime(&ws.root(), &manager);
    let tool = rt.pool.find("mcp__t__big").expect("big");
    assert_eq!(tool.max_result_size_chars(), 100_000, "25,000 tokens");
    let long = call(&rt, "mcp__t__big", &json!({"bytes": 150_000})).await;
    assert!(long.ok && long.text.len() == 150_000);
    let huge = call(&rt, "mcp__t__big", &json!({"bytes": 50_000_000})).await;
    assert!(!huge.ok, "a 50 MB result is refused");
    assert!(
        huge.text.contains("MCP server `t`"),
        "{}",
        &huge.text[..huge.text.len().min(300)]
    );
    ready(&manager, "t").await;
    let after = call(&rt, "mcp__t__echo", &json!({"text": "after"})).await;
    assert!(after.ok && after.text == "after", "{}", after.text);
}

#[tokio::test]
async fn streamable_http_servers_work_like_stdio_ones() {
    let ws = Workspace::new(&[]).expect("workspace");
    let http = HttpServer::start();
    let (manager, _) = start(
        &ws.root(),
        json!({"web": {"type": "http", "url": http.url, "headers": {"X-Test": "${TANDEM_TEST_UNSET_HEADER:-yes}"}}}),
        patient(),
    );
    ready(&manager, "web").await;
    assert_eq!(manager.status("web").expect("status").transport, "http");
    let (rt, events) = runtime(&ws.root(), &manager);
    let echoed = call(&rt, "mcp__web__echo", &json!({"text": "over http"})).await;
    assert!(echoed.ok && echoed.text == "over http", "{}", echoed.text);
    let done = run_tool_use(
        &rt,
        "h1",
        "mcp__web__slow",
        &json!({"steps": 2, "delay_ms": 10}),
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(done.outcome, ToolOutcome::Success);
    assert_eq!(
        progress_of(&events, "h1"),
        vec!["step 1 (1/2)", "step 2 (2/2)"]
    );
    let huge = call(&rt, "mcp__web__big", &json!({"bytes": 50_000_000})).await;
    assert!(!huge.ok, "a 50 MB result is refused over HTTP too");
}

#[tokio::test]
async fn resources_are_listed_and_read() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (manager, _) = start(&ws.root(), json!({"t": stdio(&[])}), patient());
    ready(&manager, "t").await;
    let (mut rt, _) = runtime(&ws.root(), &manager);
    let mut tools = rt.pool.tools().to_vec();
    tools.extend(resource_tools(&manager));
    rt.pool = tandem_engine::registry::ToolPool::assemble(&tools, &[], |_| false)
        .with_live_mcp(manager.tools());

    let listed = call(&rt, "ListMcpResourcesTool", &json!({})).await;
    assert!(listed.ok, "{}", listed.text);
    assert!(
        listed.text.contains("test://greeting") && listed.text.contains("\"server\": \"t\""),
        "{}",
        listed.text
    );
    let read = call(
        &rt,
        "ReadMcpResourceTool",
        &json!({"server": "t", "uri": "test://greeting"}),
    )
    .await;
    assert!(
        read.ok && read.text.contains("hello from a resource"),
        "{}",
        read.text
    );
    let pixel = call(
        &rt,
        "ReadMcpResourceTool",
        &json!({"server": "t", "uri": "test://pixel"}),
    )
    .await;
    assert!(pixel.ok && pixel.text.contains("[image]"), "{}", pixel.text);
    let missing = call(
        &rt,
        "ReadMcpResourceTool",
        &json!({"server": "nope", "uri": "x"}),
    )
    .await;
    assert!(
        !missing.ok && missing.text.contains("connected: t"),
        "{}",
        missing.text
    );
    let unknown = call(
        &rt,
        "ReadMcpResourceTool",
        &json!({"server": "t", "uri": "test://none"}),
    )
    .await;
    assert!(!unknown.ok, "{}", unknown.text);
}

#[tokio::test]
async fn dropping_the_manager_kills_the_servers() {
    let ws = Workspace::new(&[]).expect("workspace");
    let log = ws.root().join("server.log");
    let (manager, _) = start(&ws.root(), json!({"t": stdio_logged(&[], &log)}), patient());
    ready(&manager, "t").await;
    assert!(file_mentions(&log, "pid ").await);
    let text = std::fs::read_to_string(&log).expect("log");
    let pid: u32 = text
        .lines()
        .find_map(|l| l.strip_prefix("pid "))
        .and_then(|p| p.trim().parse().ok())
        .expect("the server logged its pid");
    let proc_dir = std::path::PathBuf::from(format!("/proc/{pid}"));
    let alive = |dir: &std::path::Path| {
        std::fs::read_to_string(dir.join("stat"))
            .is_ok_and(|stat| stat.split_whitespace().nth(2).is_none_or(|s| s != "Z"))
    };
    assert!(alive(&proc_dir), "the server runs while the manager lives");
    drop(manager);
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while alive(&proc_dir) && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(!alive(&proc_dir), "the server was killed with the manager");
}

#[tokio::test]
async fn a_call_over_the_tool_timeout_fails_and_is_cancelled_on_the_server() {
    let ws = Workspace::new(&[]).expect("workspace");
    let log = ws.root().join("server.log");
    let limits = tandem_engine::mcp::Limits {
        tool_call: Some(Duration::from_millis(300)),
        ..patient()
    };
    let (manager, _) = start(&ws.root(), json!({"t": stdio_logged(&[], &log)}), limits);
    ready(&manager, "t").await;
    let (rt, _) = runtime(&ws.root(), &manager);
    let slow = call(
        &rt,
        "mcp__t__slow",
        &json!({"steps": 100_000, "delay_ms": 50}),
    )
    .await;
    assert!(!slow.ok);
    assert!(slow.text.contains("did not answer within"), "{}", slow.text);
    assert!(
        file_mentions(&log, "cancelled slow").await,
        "the server was told"
    );
    let quick = call(&rt, "mcp__t__echo", &json!({"text": "quick"})).await;
    assert!(quick.ok && quick.text == "quick", "{}", quick.text);
}

#[tokio::test]
async fn a_server_seen_before_offers_its_tools_while_it_starts_and_a_call_waits_for_it() {
    use std::sync::Arc;
    use tandem_engine::mcp::{KnownTools, McpCliConfig, McpManager, plan};
    use tandem_engine::testing::Project;
    let project = Project::new().expect("project");
    let known = KnownTools::at(project.root.join("known-tools.json"));
    let go = project.root.join("go");
    std::fs::write(&go, "").expect("write");
    let servers = json!({"t": stdio(&["--wait-for-file", &go.display().to_string()])});
    let start = || {
        let cli = McpCliConfig {
            configs: vec![json!({ "mcpServers": servers }).to_string()],
            strict: true,
        };
        let planned = plan(
            &project.root,
            &tandem_engine::settings::McpSettings::default(),
            &cli,
            None,
            &|n| std::env::var(n).ok(),
        );
        McpManager::start_with(
            &project.root,
            planned,
            patient(),
            Arc::new(tandem_engine::events::RecordingSink::default()),
            Some(known.clone()),
        )
    };
    let first = start();
    assert!(
        first.status("t").expect("t").tools.is_empty(),
        "never seen: no tools before it is ready"
    );
    ready(&first, "t").await;
    drop(first);

    // The server now waits for `go`: the second session has its tools at once, from the first.
    std::fs::remove_file(&go).expect("remove");
    let second = start();
    assert!(second.usable(PATIENCE).await);
    let status = second.status("t").expect("t");
    assert_eq!(status.state, McpServerState::Connecting);
    assert!(
        status.tools.contains(&"mcp__t__echo".to_string()),
        "{status:?}"
    );
    let (rt, _) = runtime(&project.root, &second);
    let call = tokio::spawn(async move {
        tandem_engine::testing::call(&rt, "mcp__t__echo", &json!({"text": "waited"})).await
    });
    std::fs::write(&go, "").expect("write");
    let result = call.await.expect("the call ends");
    assert!(result.ok && result.text == "waited", "{}", result.text);
}
