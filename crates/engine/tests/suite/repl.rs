//! The REPL mode (`USER_TYPE=ant` with `CLAUDE_CODE_REPL`): REPL offered and the primitives it wraps hidden; a
//! program reading, searching and writing through the wrapped functions, each call checked on its own (a refused
//! write throws and leaves the file alone, a deny rule makes a read throw); output and last value; a syntax error;
//! a PreToolUse hook seeing and blocking a wrapped call; a timeout and a cancellation killing node; and a whole turn
//! through the fake model server.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::exec::{ToolRuntime, run_tool_use};
use tandem_engine::model::{AnthropicModel, Model};
use tandem_engine::permission::PermissionContext;
use tandem_engine::registry::builtin_tools;
use tandem_engine::session::Session;
use tandem_engine::testing::{
    CallResult, Project, RecordingSink, Script, ScriptedApprover, ScriptedTurn, TestRuntime, call,
};
use tandem_engine::tool::{DynTool, erase};
use tandem_engine::tools::features::Features;
use tandem_engine::tools::repl::{ReplTool, find_node};
use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent, ToolCallStatus, ToolOutcome};
use tokio_util::sync::CancellationToken;

use super::common::{fake_config, offered, server, session_answered_by};

const WRAPPED: [&str; 7] = [
    "Read",
    "Write",
    "Edit",
    "Glob",
    "Grep",
    "Bash",
    "NotebookEdit",
];

fn node() -> std::path::PathBuf {
    find_node(std::env::var_os("PATH").as_deref()).expect("node is installed")
}

fn tools() -> Vec<Arc<dyn DynTool>> {
    let mut tools = builtin_tools();
    let repl = ReplTool::new(node(), &tools);
    tools.push(erase(repl));
    tools
}

fn runtime(
    root: &Path,
    approver: ScriptedApprover,
    permissions: Option<PermissionContext>,
) -> (ToolRuntime, RecordingSink) {
    let rt = TestRuntime::new(root).tools(tools()).approver(approver);
    match permissions {
        Some(ctx) => rt.permissions(ctx),
        None => rt,
    }
    .recorded()
}

async fn repl(rt: &ToolRuntime, code: &str) -> CallResult {
    call(rt, "REPL", &json!({ "code": code })).await
}

/// Whether the process `pid` is gone (or only a zombie waiting to be reaped).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

async fn until(condition: impl Fn() -> bool) {
    while !condition() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

async fn pid_in(path: &Path) -> u32 {
    let mut pid = None;
    while pid.is_none() {
        pid = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| t.trim().parse().ok());
        if pid.is_none() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    pid.unwrap_or_default()
}

fn session(root: &Path, features: Features) -> Session {
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config("http://127.0.0.1:9")).expect("client"));
    Session::builder(root)
        .expect("builder")
        .model_client(model)
        .features(features)
        .build()
        .expect("session")
}

fn offered_names(session: &Session) -> Vec<String> {
    session
        .runtime()
        .offered_specs()
        .into_iter()
        .map(|spec| spec.name)
        .collect()
}

const REPL_MODE: Features = Features {
    tungsten: true,
    config: true,
    repl: true,
    ..Features::OFF
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_repl_mode_offers_repl_and_hides_the_primitives_it_wraps() {
    let p = Project::new().expect("project");
    let mode = session(&p.root, REPL_MODE);
    let names = offered_names(&mode);
    assert!(names.iter().any(|n| n == "REPL"), "{names:?}");
    for name in WRAPPED {
        assert!(!names.iter().any(|n| n == name), "{name} hidden: {names:?}");
        let listed = mode.tool_list();
        let entry = listed
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} listed"));
        assert!(!entry.offered, "{entry:?}");
        assert!(
            entry
                .reason
                .as_deref()
                .is_some_and(|r| r.contains("CLAUDE_CODE_REPL")),
            "{entry:?}"
        );
    }
    let spec = mode
        .runtime()
        .offered_specs()
        .into_iter()
        .find(|s| s.name == "REPL")
        .expect("REPL");
    assert!(
        spec.description.contains("await Read({"),
        "{}",
        spec.description
    );

    // USER_TYPE=ant alone: Tungsten and Config, no REPL, the primitives offered.
    let ant = session(
        &p.root,
        Features {
            repl: false,
            ..REPL_MODE
        },
    );
    let names = offered_names(&ant);
    assert!(!names.iter().any(|n| n == "REPL"), "{names:?}");
    for name in WRAPPED {
        assert!(names.iter().any(|n| n == name), "{name} offered: {names:?}");
    }
    let listed = ant.tool_list();
    let repl = listed
        .iter()
        .find(|t| t.name == "REPL")
        .expect("REPL listed");
    assert!(
        repl.reason
            .as_deref()
            .is_some_and(|r| r.contains("CLAUDE_CODE_REPL")),
        "{repl:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_wrapped_call_is_checked_on_its_own_and_a_refused_write_throws() {
    let p = Project::new().expect("project");
    std::fs::write(p.root.join("notes.txt"), "alpha\nbeta-7731\n").expect("write");
    let out = p.root.join("out.txt");
    let code = format!(
        r#"const text = await Read({{file_path: {notes}}});
const hits = await Grep({{pattern: "beta-\\d+", output_mode: "content", path: {root}}});
let wrote;
try {{
  await Write({{file_path: {out}, content: "found\n"}});
  wrote = "written";
}} catch (e) {{
  wrote = "refused: " + e.message;
}}
console.log("read:", text.includes("alpha"), "grep:", hits.includes("beta-7731"));
wrote"#,
        notes = json!(p.path("notes.txt")),
        root = json!(p.path("")),
        out = json!(out.display().to_string()),
    );

    // The REPL call itself asks (allowed), and so does the write inside it (refused).
    let approver = ScriptedApprover::new(
        [ApprovalChoice::Allow, ApprovalChoice::Deny],
        ApprovalChoice::Deny,
    );
    let (rt, events) = runtime(&p.root, approver.clone(), None);
    let refused = repl(&rt, &code).await;
    assert!(refused.ok, "{refused:?}");
    assert!(
        refused.text.contains("read: true grep: true"),
        "{}",
        refused.text
    );
    assert!(refused.text.contains("=> refused: "), "{}", refused.text);
    assert!(!out.exists(), "a refused write left the file alone");
    let asked: Vec<String> = approver
        .asked()
        .iter()
        .map(|a| a.tool_name.clone())
        .collect();
    assert_eq!(asked, ["REPL", "Write"]);
    // The inner calls are shown as calls of their own.
    let shown: Vec<(String, String)> = events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::ToolCallInput {
                tool_use_id, name, ..
            } => Some((tool_use_id, name)),
            _ => None,
        })
        .collect();
    for (id, name) in [("call/1", "Read"), ("call/2", "Grep"), ("call/3", "Write")] {
        assert!(
            shown.contains(&(id.to_string(), name.to_string())),
            "{id} {name} in {shown:?}"
        );
    }

    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let (rt, _) = runtime(&p.root, approver, None);
    let allowed = repl(&rt, &code).await;
    assert!(allowed.text.contains("=> written"), "{}", allowed.text);
    assert_eq!(std::fs::read_to_string(&out).expect("out"), "found\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deny_rule_makes_the_wrapped_read_throw() {
    let p = Project::new().expect("project");
    std::fs::write(p.root.join("secret.txt"), "TOKEN-5521\n").expect("write");
    let ctx = p.ctx(
        &[("deny", "Read(./secret.txt)"), ("allow", "REPL")],
        PermissionMode::Default,
    );
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let (rt, _) = runtime(&p.root, approver.clone(), Some(ctx));
    let code = format!(
        r#"let r; try {{ r = await Read({{file_path: {}}}) }} catch (e) {{ r = "threw: " + e.message }} r"#,
        json!(p.path("secret.txt"))
    );
    let r = repl(&rt, &code).await;
    assert!(r.ok, "{r:?}");
    assert!(r.text.contains("=> threw: "), "{}", r.text);
    assert!(r.text.contains("denied"), "{}", r.text);
    assert!(!r.text.contains("TOKEN-5521"), "{}", r.text);
    assert!(approver.asked().is_empty(), "the allow rule covers REPL");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_last_value_and_errors_come_back() {
    let p = Project::new().expect("project");
    let (rt, _) = runtime(
        &p.root,
        ScriptedApprover::new([], ApprovalChoice::Allow),
        None,
    );
    let cases: &[(&str, bool, &[&str])] = &[
        (
            "console.log('hello', 1 + 1); ({a: [1, 2]})",
            true,
            &["hello 2\n", "=> { a: [ 1, 2 ] }"],
        ),
        (
            "const x = await Promise.resolve(40); x + 2",
            true,
            &["=> 42"],
        ),
        ("console.log('only output')", true, &["only output"]),
        ("let = = 1", false, &["The program failed", "SyntaxError"]),
        (
            "console.log('before'); throw new Error('boom-4411')",
            false,
            &[
                "Error: boom-4411",
                "repl.js",
                "Output before the error:\nbefore",
            ],
        ),
        (
            "await Read('not an object')",
            false,
            &["Read takes an object"],
        ),
        ("console.log('bye'); process.exit(0)", true, &["bye"]),
        (
            "console.log('bye'); process.exit(3)",
            false,
            &["process.exit(3)", "Output before the error:\nbye"],
        ),
        (
            "const [a, b] = await Promise.all([Glob({pattern: '*.md'}), Glob({pattern: 'src/*'})]); a + '|' + typeof b",
            true,
            &["README.md", "|string"],
        ),
        ("'x'.repeat(60000)", true, &["truncated"]),
    ];
    for (code, ok, wants) in cases {
        let r = repl(&rt, code).await;
        assert_eq!(r.ok, *ok, "{code}: {}", r.text);
        for want in *wants {
            assert!(r.text.contains(want), "{code}: {want:?} in {}", r.text);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_kills_node() {
    let p = Project::new().expect("project");
    let (rt, _) = runtime(
        &p.root,
        ScriptedApprover::new([], ApprovalChoice::Allow),
        None,
    );
    let pid_file = p.root.join("node.pid");
    let code = format!(
        "require('fs').writeFileSync({}, String(process.pid)); for (;;) {{}}",
        json!(pid_file.display().to_string())
    );
    let r = call(&rt, "REPL", &json!({"code": code, "timeout": 1000})).await;
    assert!(!r.ok, "{r:?}");
    assert!(
        r.text.contains("did not finish within 1000 ms"),
        "{}",
        r.text
    );
    let pid = pid_in(&pid_file).await;
    until(|| gone(pid)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_mid_call_stops_the_inner_call_and_kills_node() {
    let p = Project::new().expect("project");
    let (rt, events) = runtime(
        &p.root,
        ScriptedApprover::new([], ApprovalChoice::Allow),
        None,
    );
    let pid_file = p.root.join("node.pid");
    let code = format!(
        "require('fs').writeFileSync({}, String(process.pid)); await Bash({{command: 'sleep 300'}})",
        json!(pid_file.display().to_string())
    );
    let cancel = CancellationToken::new();
    let running = {
        let (rt, cancel) = (rt.clone(), cancel.clone());
        tokio::spawn(async move {
            run_tool_use(&rt, "r1", "REPL", &json!({ "code": code }), &cancel).await
        })
    };
    let executing = |events: &RecordingSink| {
        events.events().iter().any(|e| {
            matches!(e, SessionEvent::ToolCallStatusChanged { tool_use_id, status: ToolCallStatus::Executing } if tool_use_id == "r1/1")
        })
    };
    until(|| executing(&events)).await;
    let pid = pid_in(&pid_file).await;

    cancel.cancel();
    let outcome = running.await.expect("joined");
    assert_eq!(
        outcome.outcome,
        ToolOutcome::Cancelled,
        "{:?}",
        outcome.block
    );
    until(|| gone(pid)).await;
    let inner_ended = events.events().iter().any(|e| {
        matches!(e, SessionEvent::ToolCallResult { tool_use_id, outcome: ToolOutcome::Cancelled, .. } if tool_use_id == "r1/1")
    });
    assert!(inner_ended, "the inner Bash call is shown as cancelled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_in_the_repl_mode_reads_and_writes_through_repl() {
    let p = Project::new().expect("project");
    std::fs::write(p.root.join("in.txt"), "REPL-TURN-3318\n").expect("write");
    let code = format!(
        "const t = await Read({{file_path: {}}}); await Write({{file_path: {}, content: t.includes('REPL-TURN-3318') ? 'seen' : 'missed'}}); 'ok'",
        json!(p.path("in.txt")),
        json!(p.path("copy.txt")),
    );
    let fake = server(Script::turns([
        // A primitive the mode hides cannot be called directly.
        ScriptedTurn::tool_use("d1", "Read", json!({ "file_path": p.path("in.txt") })),
        ScriptedTurn::tool_use("r1", "REPL", json!({ "code": code })),
        ScriptedTurn::text("Copied."),
    ]))
    .await;
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = session_answered_by(&p.root, &fake, approver.clone(), &events, REPL_MODE);
    let outcome = s.send("copy it").await.expect("turn");
    assert_eq!(outcome.final_text, "Copied.");
    assert_eq!(
        std::fs::read_to_string(p.root.join("copy.txt")).expect("copy"),
        "seen"
    );
    let requests = fake.requests();
    let tools = offered(&requests[0].body);
    assert!(tools.iter().any(|t| t == "REPL"), "{tools:?}");
    assert!(
        !tools.iter().any(|t| t == "Read" || t == "Write"),
        "{tools:?}"
    );
    let refused = events.events().iter().any(|e| {
        matches!(e, SessionEvent::ToolCallResult { tool_use_id, outcome: ToolOutcome::Error, content, .. } if tool_use_id == "d1" && content.contains("No such tool"))
    });
    assert!(refused, "a direct Read is no tool in the REPL mode");
    let result: Value = requests[2].body["messages"].clone();
    assert!(result.to_string().contains("=> ok"), "{result}");
    let asked: Vec<String> = approver
        .asked()
        .iter()
        .map(|a| a.tool_name.clone())
        .collect();
    assert_eq!(asked, ["REPL", "Write"]);
    let shown = events.events().iter().any(|e| {
        matches!(e, SessionEvent::ToolCallInput { tool_use_id, name, .. } if tool_use_id == "r1/2" && name == "Write")
    });
    assert!(shown, "the inner Write is shown in the window");
    // The write is in the prompt's checkpoint: rewinding the files removes it.
    let points = s.checkpoints().list();
    let first = points.first().expect("a checkpoint");
    assert!(
        first.files.iter().any(|f| f.ends_with("copy.txt")),
        "{points:?}"
    );
    s.checkpoints()
        .rewind_files(&first.prompt_id, false)
        .expect("rewind");
    assert!(!p.root.join("copy.txt").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pre_tool_use_hook_sees_and_blocks_the_wrapped_call() {
    let p = Project::new().expect("project");
    let hook = p.root.join("block.sh");
    std::fs::write(
        &hook,
        "#!/bin/sh\ncat > \"$(dirname \"$0\")/hook-input.json\"\necho blocked-by-hook-9921 >&2\nexit 2\n",
    )
    .expect("hook");
    let mut perms = std::fs::metadata(&hook).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&hook, perms).expect("chmod");
    let ctx = p.ctx_with(
        json!({
            "permissions": {"allow": ["REPL", "Write"]},
            "hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
                {"type": "command", "command": hook.display().to_string(), "timeout": 30}
            ]}]},
        }),
        PermissionMode::Default,
    );
    let (rt, _) = runtime(
        &p.root,
        ScriptedApprover::new([], ApprovalChoice::Deny),
        Some(ctx),
    );
    let target = p.root.join("blocked.txt");
    let code = format!(
        r#"let r; try {{ await Write({{file_path: {}, content: "x"}}); r = "written" }} catch (e) {{ r = "threw: " + e.message }} r"#,
        json!(target.display().to_string())
    );
    let r = repl(&rt, &code).await;
    assert!(r.ok, "{r:?}");
    assert!(r.text.contains("=> threw: "), "{}", r.text);
    assert!(r.text.contains("blocked-by-hook-9921"), "{}", r.text);
    assert!(!target.exists());
    let seen: Value = serde_json::from_str(
        &std::fs::read_to_string(p.root.join("hook-input.json")).expect("the hook ran"),
    )
    .expect("json");
    assert_eq!(seen["tool_name"], "Write");
    assert_eq!(seen["tool_use_id"], "call/1");
}
