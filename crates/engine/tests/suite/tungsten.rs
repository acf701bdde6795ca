//! Tungsten, the interactive terminal (`USER_TYPE=ant`): a python3 REPL answering a sum typed into it, a
//! full-screen repaint read at its row and column, `<C-c>` interrupting a program, `stop` and the end of the tool
//! killing the program; `start` judged by Bash rules (a deny rule refuses it, an allow rule approves it, an
//! interpreter reading stdin asks as in Bash, the sandbox never approves it) and `send` asking; and the tool offered
//! only with the switch on.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::exec::ToolRuntime;
use tandem_engine::model::{AnthropicModel, Model};
use tandem_engine::permission::check_call;
use tandem_engine::session::Session;
use tandem_engine::testing::{
    CallResult, Project, ScriptedApprover, TestRuntime, Workspace, call, check,
};
use tandem_engine::tool::SandboxConfig;
use tandem_engine::tools::features::Features;
use tandem_engine::tools::tungsten;
use tandem_protocol::{ApprovalChoice, DecisionBehavior, PermissionMode};

use super::common::fake_config;

fn runtime(root: &Path) -> ToolRuntime {
    TestRuntime::new(root).tools(vec![tungsten::tool()]).build()
}

async fn tungsten(rt: &ToolRuntime, input: Value) -> CallResult {
    call(rt, "Tungsten", &input).await
}

/// The terminal id and pid a `start` reports.
fn started(result: &CallResult) -> (String, u32) {
    assert!(result.ok, "{result:?}");
    let text = &result.text;
    let id = text
        .split("Started terminal ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("an id");
    let pid = text
        .split("(pid ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|p| p.parse().ok())
        .expect("a pid");
    (id.to_string(), pid)
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tungsten_drives_a_python_repl() {
    let ws = Workspace::new(&[]).expect("workspace");
    let rt = runtime(&ws.root());
    let start = tungsten(
        &rt,
        json!({"action": "start", "command": "python3 -q", "wait_for": ">>> $", "timeout_ms": 120000}),
    )
    .await;
    let (id, _) = started(&start);
    assert!(start.text.contains("│>>>"), "{}", start.text);

    let sum = tungsten(
        &rt,
        json!({"action": "send", "id": id, "keys": "1+41<Enter>", "wait_for": "(?m)^42\n>>>", "timeout_ms": 120000}),
    )
    .await;
    assert!(sum.ok, "{sum:?}");
    assert!(sum.text.contains("│>>> 1+41\n"), "{}", sum.text);
    assert!(sum.text.contains("│42\n"), "{}", sum.text);

    let screen = tungsten(&rt, json!({"action": "screen", "id": id})).await;
    assert!(screen.ok && screen.text.contains("│42\n"), "{screen:?}");
    assert!(screen.text.contains("running"), "{}", screen.text);

    let quit = tungsten(
        &rt,
        json!({"action": "send", "id": id, "keys": "<C-d>", "wait_for": "NEVER SHOWN", "timeout_ms": 120000}),
    )
    .await;
    assert!(quit.text.contains("has exited (exit code 0)"), "{quit:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tungsten_reads_a_full_screen_repaint_at_its_row_and_column() {
    let ws = Workspace::new(&[]).expect("workspace");
    let rt = runtime(&ws.root());
    let start = tungsten(
        &rt,
        json!({
            "action": "start",
            "command": "sh -c \"printf '\\033[2J\\033[5;10Hhello'; sleep 100\"",
            "wait_for": "hello",
            "timeout_ms": 120000,
        }),
    )
    .await;
    let (id, _) = started(&start);
    let rows: Vec<&str> = start.text.lines().filter(|l| l.contains('│')).collect();
    let fifth = rows
        .iter()
        .find(|l| l.starts_with(" 5│"))
        .unwrap_or_else(|| panic!("row 5 in {}", start.text));
    let text = fifth.split('│').nth(1).unwrap_or("");
    assert_eq!(text.find("hello"), Some(9), "column 10: {fifth:?}");
    assert!(
        start.text.contains("cursor at row 5, column 15"),
        "{}",
        start.text
    );
    let stop = tungsten(&rt, json!({"action": "stop", "id": id})).await;
    assert!(stop.ok, "{stop:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tungsten_interrupts_with_control_c_and_stop_kills() {
    let ws = Workspace::new(&[]).expect("workspace");
    let rt = runtime(&ws.root());
    let (id, _) = started(&tungsten(&rt, json!({"action": "start", "command": "sleep 100"})).await);
    let interrupted = tungsten(
        &rt,
        json!({"action": "send", "id": id, "keys": "<C-c>", "wait_for": "NEVER SHOWN", "timeout_ms": 120000}),
    )
    .await;
    assert!(
        interrupted.text.contains("has exited (ended by signal"),
        "{interrupted:?}"
    );

    let (id, pid) =
        started(&tungsten(&rt, json!({"action": "start", "command": "sleep 100"})).await);
    assert!(!gone(pid));
    let stop = tungsten(&rt, json!({"action": "stop", "id": id})).await;
    assert!(stop.ok && stop.text.contains("has exited"), "{stop:?}");
    assert!(gone(pid), "pid {pid} still runs");
    let again = tungsten(&rt, json!({"action": "screen", "id": id})).await;
    assert!(!again.ok && again.text.contains("no terminal"), "{again:?}");

    // The terminals still open die with the tool (the session's end).
    let (_, pid) =
        started(&tungsten(&rt, json!({"action": "start", "command": "sleep 100"})).await);
    drop(rt);
    tokio::time::timeout(Duration::from_secs(30), async {
        while !gone(pid) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("pid {pid} outlived the tool"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tungsten_start_is_judged_by_bash_rules_and_send_asks() {
    let project = Project::new().expect("project");
    let runtime = |rules: &[(&str, &str)], approver: ScriptedApprover| {
        TestRuntime::new(&project.root)
            .permissions(project.ctx(rules, PermissionMode::Default))
            .approver(approver)
            .tools(vec![tungsten::tool()])
            .build()
    };
    let start = json!({"action": "start", "command": "python3 -q", "wait_for": ">>> $", "timeout_ms": 120000});

    // A deny rule refuses, even where the person would allow.
    let allows = ScriptedApprover::new([], ApprovalChoice::Allow);
    let rt = runtime(&[("deny", "Bash(python3 *)")], allows.clone());
    let denied = tungsten(&rt, start.clone()).await;
    assert!(!denied.ok, "{denied:?}");
    assert!(denied.text.contains("Bash(python3 *)"), "{}", denied.text);
    assert!(allows.asked().is_empty());

    // An allow rule approves without asking; keys typed into the terminal ask; reading the screen does not.
    let refuses = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(&[("allow", "Bash(vi *)")], refuses.clone());
    let cat = json!({"action": "start", "command": "vi -u NONE"});
    let (id, _) = started(&tungsten(&rt, cat.clone()).await);
    assert!(refuses.asked().is_empty());
    let sent = tungsten(
        &rt,
        json!({"action": "send", "id": id, "keys": "hi<Enter>"}),
    )
    .await;
    assert!(!sent.ok, "{sent:?}");
    assert_eq!(refuses.asked().len(), 1);
    let screen = tungsten(&rt, json!({"action": "screen", "id": id})).await;
    assert!(screen.ok, "{screen:?}");
    assert_eq!(refuses.asked().len(), 1, "reading the screen does not ask");

    // As with Bash, an interpreter reading its code from its standard input cannot be approved by a rule: starting
    // it asks (what is typed into it asks again, call by call).
    let rt = runtime(&[("allow", "Bash(python3 *)")], refuses.clone());
    let asked = tungsten(&rt, start).await;
    assert!(!asked.ok, "{asked:?}");
    assert_eq!(refuses.asked().len(), 2);

    // Without a rule, starting asks.
    let rt = runtime(&[], refuses.clone());
    let asked = tungsten(&rt, cat).await;
    assert!(!asked.ok, "{asked:?}");
    assert_eq!(refuses.asked().len(), 3);
}

#[test]
fn tungsten_start_is_never_approved_by_the_sandbox() {
    let project = Project::new().expect("project");
    let ctx = project
        .ctx(&[], PermissionMode::Default)
        .with_sandbox(SandboxConfig {
            enabled: true,
            auto_allow: true,
            allow_unsandboxed: true,
            bwrap: Some("/usr/bin/bwrap".into()),
            ..SandboxConfig::default()
        });
    let tools = vec![tungsten::tool()];
    let bash = check(&ctx, "Bash", json!({"command": "npm install"}));
    assert_eq!(bash.decision, DecisionBehavior::Allow, "{bash:?}");
    let start = check_call(
        &ctx,
        &tools,
        "Tungsten",
        &json!({"action": "start", "command": "npm install"}),
    );
    assert_eq!(start.decision, DecisionBehavior::Ask, "{start:?}");
    let denied = check_call(
        &project.ctx(&[("deny", "Bash(npm *)")], PermissionMode::Default),
        &tools,
        "Tungsten",
        &json!({"action": "start", "command": "npm install"}),
    );
    assert_eq!(denied.decision, DecisionBehavior::Deny, "{denied:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tungsten_is_offered_only_with_the_switch_on() {
    let ws = Workspace::new(&[]).expect("workspace");
    let session = |features: Features| {
        let model: Arc<dyn Model> =
            Arc::new(AnthropicModel::new(fake_config("http://127.0.0.1:9")).expect("client"));
        Session::builder(&ws.root())
            .expect("builder")
            .model_client(model)
            .features(features)
            .build()
            .expect("session")
    };
    let entry = |session: &Session| {
        session
            .tool_list()
            .into_iter()
            .find(|t| t.name == "Tungsten")
            .expect("Tungsten is listed")
    };
    let off = session(Features::default());
    let listed = entry(&off);
    assert!(!listed.offered, "{listed:?}");
    assert!(
        listed
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("USER_TYPE=ant")),
        "{listed:?}"
    );
    let on = session(Features {
        tungsten: true,
        ..Features::default()
    });
    assert!(entry(&on).offered, "{:?}", entry(&on));

    // The same key under `env` in a settings file (the environment, when it sets the key, decides instead).
    if std::env::var_os("USER_TYPE").is_none() {
        let ws = Workspace::new(&[(".claude/settings.json", r#"{"env": {"USER_TYPE": "ant"}}"#)])
            .expect("workspace");
        let model: Arc<dyn Model> =
            Arc::new(AnthropicModel::new(fake_config("http://127.0.0.1:9")).expect("client"));
        let from_file = Session::builder(&ws.root())
            .expect("builder")
            .model_client(model)
            .features(Features::default())
            .build()
            .expect("session");
        assert!(entry(&from_file).offered, "{:?}", entry(&from_file));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hooks_on_bash_see_the_command_a_start_runs() {
    let project = Project::new().expect("project");
    let seen = project.root.join("bash-hook.seen");
    let script = project.root.join("guard.sh");
    std::fs::write(
        &script,
        format!(
            "input=$(cat)\nprintf '%s\\n' \"$input\" >> {seen}\ncase \"$input\" in *rm-me*) echo 'no removing here' >&2; exit 2;; esac\nexit 0\n",
            seen = seen.display()
        ),
    )
    .expect("hook script");
    let settings = json!({
        "permissions": {"allow": ["Tungsten", "Bash(printf:*)", "Bash(touch:*)"]},
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("sh {}", script.display())}
        ]}]}
    });
    let rt = TestRuntime::new(&project.root)
        .tools(vec![tungsten::tool()])
        .permissions(project.ctx_with(settings, PermissionMode::Default))
        .approver(ScriptedApprover::new([], ApprovalChoice::Deny))
        .build();
    let refused = tungsten(
        &rt,
        json!({"action": "start", "command": "touch rm-me.txt"}),
    )
    .await;
    assert!(!refused.ok, "{refused:?}");
    assert!(
        refused.text.contains("no removing here"),
        "{}",
        refused.text
    );
    assert!(!project.root.join("rm-me.txt").exists());
    let log = std::fs::read_to_string(&seen).expect("the Bash hook ran");
    let payload: Value = serde_json::from_str(log.lines().next().expect("a line")).expect("JSON");
    assert_eq!(payload["tool_name"], "Bash");
    assert_eq!(payload["tool_input"]["command"], "touch rm-me.txt");

    let allowed = tungsten(&rt, json!({"action": "start", "command": "printf ok"})).await;
    let (id, _) = started(&allowed);
    assert_eq!(
        std::fs::read_to_string(&seen).expect("log").lines().count(),
        2
    );
    tungsten(&rt, json!({"action": "stop", "id": id})).await;
}
