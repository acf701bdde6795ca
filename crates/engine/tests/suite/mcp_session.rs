//! MCP tools inside sessions: permission rules (`mcp__server`, `mcp__server__*`, `mcp__server__tool`) deciding real
//! calls in every mode, hooks seeing the full names, and a whole session with the fake model calling a server's tools
//! — slow servers not holding up the first prompt, project servers waiting for approval, long results persisted.

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::mcp::McpCliConfig;
use tandem_engine::session::Session;
use tandem_engine::testing::{
    Project, Script, ScriptedApprover, ScriptedTurn, TestRuntime, Workspace,
};
use tandem_protocol::{ApprovalChoice, McpServerState, PermissionMode, ToolOutcome};
use tokio_util::sync::CancellationToken;

use super::common::{fake_config, server};
use super::mcp_support::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The call ran without a question.
    Ran,
    /// The person was asked (and said no).
    Asked,
    /// Refused without a question.
    Denied,
}

/// A row: the mode, the rules (behavior, rule), the tool of server `t`, and what must happen.
type Row<'a> = (PermissionMode, &'a [(&'a str, &'a str)], &'a str, Expect);

#[tokio::test]
async fn permission_rules_decide_mcp_calls_in_every_mode() {
    use Expect::*;
    use PermissionMode::*;
    let project = Project::new().expect("project");
    let (manager, _) = start(&project.root, json!({"t": stdio(&[])}), patient());
    ready(&manager, "t").await;
    let rows: &[Row<'_>] = &[
        // The server's readOnlyHint does not approve a call; destructive or not, a tool asks by default.
        (Default, &[], "echo", Asked),
        (Default, &[], "destroy", Asked),
        (Default, &[("allow", "mcp__t")], "echo", Ran),
        (Default, &[("allow", "mcp__t")], "destroy", Ran),
        (Default, &[("allow", "mcp__t__*")], "destroy", Ran),
        (Default, &[("allow", "mcp__t__echo")], "echo", Ran),
        (Default, &[("allow", "mcp__t__echo")], "destroy", Asked),
        (Default, &[("allow", "mcp__other")], "echo", Asked),
        (Default, &[("deny", "mcp__t")], "echo", Denied),
        (
            Default,
            &[("allow", "mcp__t"), ("deny", "mcp__t__destroy")],
            "destroy",
            Denied,
        ),
        (
            Default,
            &[("allow", "mcp__t"), ("ask", "mcp__t__destroy")],
            "destroy",
            Asked,
        ),
        (AcceptEdits, &[], "destroy", Asked),
        (DontAsk, &[], "destroy", Denied),
        (DontAsk, &[("allow", "mcp__t__destroy")], "destroy", Ran),
        (Plan, &[("allow", "mcp__t__echo")], "echo", Ran),
        (Plan, &[("allow", "mcp__t__destroy")], "destroy", Asked),
        (BypassPermissions, &[], "destroy", Ran),
        (
            BypassPermissions,
            &[("deny", "mcp__t__destroy")],
            "destroy",
            Denied,
        ),
        (BypassPermissions, &[("deny", "mcp__t__*")], "echo", Denied),
        (BypassPermissions, &[("ask", "mcp__t__echo")], "echo", Asked),
    ];
    let mut failures = Vec::new();
    for (i, (mode, rules, tool, want)) in rows.iter().enumerate() {
        let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
        let mut rt = TestRuntime::new(&project.root)
            .permissions(project.ctx(rules, *mode))
            .approver(approver.clone())
            .build();
        rt.pool = rt.pool.clone().with_live_mcp(manager.tools());
        let name = format!("mcp__t__{tool}");
        let input = if *tool == "echo" {
            json!({"text": "x"})
        } else {
            json!({})
        };
        let outcome =
            tandem_engine::exec::run_tool_use(&rt, "id", &name, &input, &CancellationToken::new())
                .await;
        let asked = !approver.asked().is_empty();
        let got = match (outcome.outcome, asked) {
            (ToolOutcome::Success, false) => Ran,
            (_, true) => Asked,
            (ToolOutcome::Denied, false) => Denied,
            (other, _) => {
                failures.push(format!(
                    "row {i}: {mode:?} {rules:?} {name}: outcome {other:?}"
                ));
                continue;
            }
        };
        if got != *want {
            failures.push(format!(
                "row {i}: {mode:?} {rules:?} {name}: want {want:?}, got {got:?}"
            ));
        }
        // A deny rule naming the server or the tool also keeps the tool from the model.
        let offered = rt.offered_specs().iter().any(|s| s.name == name);
        let denied_by_rule = rules
            .iter()
            .any(|(b, r)| *b == "deny" && (*r == "mcp__t" || *r == name || *r == "mcp__t__*"));
        if offered == denied_by_rule {
            failures.push(format!(
                "row {i}: {name} offered={offered} though denied_by_rule={denied_by_rule}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test]
async fn hooks_see_mcp_calls_by_their_full_names() {
    let project = Project::new().expect("project");
    let (manager, _) = start(&project.root, json!({"t": stdio(&[])}), patient());
    ready(&manager, "t").await;
    let seen = project.root.join("hook-input.json");
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "mcp__t__echo", "hooks": [{"type": "command",
        "command": format!("cat > '{}'; echo 'no echoing' >&2; exit 2", seen.display())}]}]}});
    let mut rt = TestRuntime::new(&project.root)
        .permissions(project.ctx_with(settings, PermissionMode::BypassPermissions))
        .build();
    rt.pool = rt.pool.clone().with_live_mcp(manager.tools());
    let blocked = tandem_engine::testing::call(&rt, "mcp__t__echo", &json!({"text": "x"})).await;
    assert!(
        !blocked.ok && blocked.text.contains("no echoing"),
        "{}",
        blocked.text
    );
    let input: Value =
        serde_json::from_str(&std::fs::read_to_string(&seen).expect("the hook ran")).expect("json");
    assert_eq!(input["tool_name"], "mcp__t__echo");
    assert_eq!(input["tool_input"], json!({"text": "x"}));
    let other = tandem_engine::testing::call(&rt, "mcp__t__add", &json!({"a": 1, "b": 1})).await;
    assert!(other.ok, "the matcher names one tool: {}", other.text);
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_session_calls_mcp_tools_without_waiting_for_slow_servers_and_project_servers_wait_for_approval()
 {
    let ws = Workspace::new(&[]).expect("workspace");
    ws.write(
        ".mcp.json",
        &json!({"mcpServers": {"proj": stdio(&[])}}).to_string(),
    )
    .expect("write");
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![
            tandem_engine::testing::ScriptBlock::ToolUse {
                id: "toolu_echo".into(),
                name: "mcp__cli__echo".into(),
                input: json!({"text": "echoed by MCP"}),
            },
            tandem_engine::testing::ScriptBlock::ToolUse {
                id: "toolu_big".into(),
                name: "mcp__cli__big".into(),
                input: json!({"bytes": 150_000}),
            },
        ]),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let events = RecordingSink::default();
    let config = fake_config(&fake.url());
    let cli = McpCliConfig {
        configs: vec![
            json!({"mcpServers": {
                "cli": stdio(&[]),
                "slowpoke": stdio(&["--start-delay-ms", "120000"]),
            }})
            .to_string(),
        ],
        strict: false,
    };
    let session = Session::builder(&ws.root())
        .expect("builder")
        .model(config)
        .mode(PermissionMode::BypassPermissions)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)))
        .events(Arc::new(events.clone()))
        .mcp_config(cli)
        .build()
        .expect("session");
    let proj = session
        .mcp()
        .manager()
        .status("proj")
        .expect("proj is listed");
    assert_eq!(proj.state, McpServerState::NeedsApproval);
    assert_eq!(proj.transport, "stdio");
    assert!(proj.source.ends_with(".mcp.json"), "{}", proj.source);

    ready(session.mcp().manager(), "cli").await;
    let outcome = session.send("use the tools").await.expect("turn");
    assert_eq!(outcome.final_text, "done");
    assert_eq!(
        session
            .mcp()
            .manager()
            .status("slowpoke")
            .expect("slowpoke")
            .state,
        McpServerState::Connecting,
        "the turn ran while the slow server was still starting"
    );
    let requests = fake.requests();
    let first = tool_names(&requests[0].body);
    assert!(first.contains(&"mcp__cli__echo".to_string()), "{first:?}");
    assert!(
        first.contains(&"ListMcpResourcesTool".to_string()),
        "{first:?}"
    );
    assert!(
        !first
            .iter()
            .any(|n| n.starts_with("mcp__slowpoke__") || n.starts_with("mcp__proj__")),
        "{first:?}"
    );
    let second = requests[1].body.to_string();
    assert!(second.contains("echoed by MCP"), "{second}");
    assert!(
        second.contains("persisted-output"),
        "a 150,000-character result is persisted with a preview"
    );

    session
        .mcp()
        .approve("proj", true)
        .expect("record the approval");
    ready(session.mcp().manager(), "proj").await;
    assert!(
        session
            .runtime()
            .offered_specs()
            .iter()
            .any(|s| s.name == "mcp__proj__echo")
    );
    session
        .mcp()
        .approve("proj", false)
        .expect("record the refusal");
    assert_eq!(
        session.mcp().manager().status("proj").expect("proj").state,
        McpServerState::Disabled
    );
    assert!(
        !session
            .runtime()
            .offered_specs()
            .iter()
            .any(|s| s.name.starts_with("mcp__proj__"))
    );
}

#[tokio::test]
async fn a_tool_turned_off_is_not_offered_and_stays_off_in_later_sessions() {
    let ws = Workspace::new(&[]).expect("workspace");
    let open = || {
        Session::builder(&ws.root())
            .expect("builder")
            .model(fake_config("http://127.0.0.1:9"))
            .mode(PermissionMode::BypassPermissions)
            .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)))
            .events(Arc::new(RecordingSink::default()))
            .mcp_config(McpCliConfig {
                configs: vec![json!({"mcpServers": {"t": stdio(&[])}}).to_string()],
                strict: true,
            })
            .build()
            .expect("session")
    };
    let offered = |s: &Session, name: &str| {
        s.runtime()
            .offered_specs()
            .iter()
            .any(|spec| spec.name == name)
    };
    let session = open();
    ready(session.mcp().manager(), "t").await;
    assert!(offered(&session, "mcp__t__destroy"));
    session
        .mcp()
        .set_tool_enabled("mcp__t__destroy", false)
        .expect("turn it off");
    assert!(!offered(&session, "mcp__t__destroy"));
    assert!(offered(&session, "mcp__t__echo"), "the others stay");
    let status = session.mcp().manager().status("t").expect("t");
    assert_eq!(status.disabled_tools, ["mcp__t__destroy"]);
    assert!(status.tools.contains(&"mcp__t__destroy".to_string()));
    let saved =
        std::fs::read_to_string(ws.root().join(".claude/settings.local.json")).expect("saved");
    assert!(saved.contains("disabledMcpTools"), "{saved}");
    drop(session);

    let later = open();
    ready(later.mcp().manager(), "t").await;
    assert!(!offered(&later, "mcp__t__destroy"), "still off");
    later
        .mcp()
        .set_tool_enabled("mcp__t__destroy", true)
        .expect("turn it on");
    assert!(offered(&later, "mcp__t__destroy"));
    assert!(
        later
            .mcp()
            .manager()
            .status("t")
            .expect("t")
            .disabled_tools
            .is_empty()
    );
}

/// Runs `f` on a plain thread, outside any async runtime (as a window's command handlers run).
fn off_runtime<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().expect("the thread ends")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_built_and_driven_outside_a_runtime_starts_its_servers_on_the_one_given() {
    let ws = Workspace::new(&[]).expect("workspace");
    ws.write(
        ".mcp.json",
        &json!({"mcpServers": {"proj": stdio(&[])}}).to_string(),
    )
    .expect("write");
    let root = ws.root();
    let handle = tokio::runtime::Handle::current();
    let session = Arc::new(off_runtime(move || {
        Session::builder(&root)
            .expect("builder")
            .model(fake_config("http://127.0.0.1:9"))
            .mcp_config(McpCliConfig {
                configs: vec![json!({"mcpServers": {"cli": stdio(&[])}}).to_string()],
                strict: false,
            })
            .runtime(handle)
            .build()
            .expect("session")
    }));
    ready(session.mcp().manager(), "cli").await;

    // Approving and reconnecting from outside the runtime start the servers on it too.
    let approving = session.clone();
    off_runtime(move || approving.mcp().approve("proj", true)).expect("approved");
    ready(session.mcp().manager(), "proj").await;
    let reconnecting = session.clone();
    off_runtime(move || reconnecting.mcp().reconnect("cli"));
    // A reconnect is connecting as soon as it returns, so this waits for the new connection.
    for name in ["cli", "proj"] {
        ready(session.mcp().manager(), name).await;
    }
    off_runtime(move || drop(session));
}
