//! The Bash tool with real processes in a real PTY: output, exit codes, colour, long output, the persistent
//! working directory, timeouts and cancellation killing process trees, background tasks, classification, sibling
//! abort in a batch, and a whole turn from the fake model server through the permission engine.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::exec::run_tools;
use tandem_engine::model::ContentBlock;
use tandem_engine::registry::{ToolPool, builtin_tools_with};
use tandem_engine::testing::{
    Project, Script, ScriptedApprover, ScriptedTurn, TestRuntime, Workspace, call,
};
use tandem_engine::tool::{ProgressSink, Tool, ToolContext, ToolError, ToolOutput};
use tandem_engine::tools::bash::{
    BashInput, BashTool, ShellSession, TaskOutputInput, TaskOutputTool, TaskStopInput, TaskStopTool,
};
use tandem_protocol::{
    ApprovalChoice, PermissionMode, SessionEvent, TaskStatus, ToolDetail, ToolOutcome,
};
use tokio_util::sync::CancellationToken;

use super::common::{server, session};

fn shell() -> Arc<ShellSession> {
    Arc::new(ShellSession::temporary().without_sandbox())
}

fn input(command: &str) -> BashInput {
    serde_json::from_value(json!({ "command": command })).expect("input")
}

fn input_with(value: Value) -> BashInput {
    serde_json::from_value(value).expect("input")
}

fn text(out: &ToolOutput) -> String {
    out.content.as_text()
}

async fn run(tool: &BashTool, ctx: &ToolContext, command: &str) -> Result<ToolOutput, ToolError> {
    tool.call(&input(command), ctx).await
}

/// The id and status of the background task a result's detail names.
fn task(out: &ToolOutput) -> (String, TaskStatus, Option<u32>) {
    match &out.detail {
        Some(ToolDetail::BackgroundTask {
            task_id,
            status,
            exit_code,
            ..
        }) => (task_id.clone(), *status, *exit_code),
        other => panic!("not a background task: {other:?}"),
    }
}

fn task_id(out: &ToolOutput) -> String {
    task(out).0
}

fn model_error(result: Result<ToolOutput, ToolError>) -> String {
    match result {
        Err(ToolError::ToModel(message)) => message,
        other => panic!("expected an error for the model, got {other:?}"),
    }
}

/// Whether `pid` is a live process (a zombie counts as gone).
pub(super) fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// Waits up to 5 s for `pid` to be gone.
async fn gone(pid: u32) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if !alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// Waits up to 5 s for a pid written to `file`.
async fn pid_in(file: &Path) -> u32 {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no pid in {}", file.display());
}

#[tokio::test]
async fn output_and_exit_codes() {
    let ws = Workspace::new(&[("notes.txt", "alpha\nbeta\n")]).expect("workspace");
    let tool = BashTool::new(shell());
    let ctx = ToolContext::new(ws.root());

    let out = run(&tool, &ctx, "cat notes.txt; echo to-stderr >&2")
        .await
        .expect("runs");
    assert_eq!(text(&out), "alpha\nbeta\nto-stderr");
    assert!(matches!(
        out.detail,
        Some(ToolDetail::Shell {
            exit_code: Some(0),
            cwd_reset: false,
            ..
        })
    ));

    let out = run(&tool, &ctx, "true").await.expect("runs");
    assert_eq!(text(&out), "(no output)");

    let message = model_error(run(&tool, &ctx, "echo partial; exit 3").await);
    assert!(message.starts_with("Exit code 3"), "{message}");
    assert!(message.contains("partial"), "{message}");

    // A terminal, TERM set, standard input empty.
    let out = run(
        &tool,
        &ctx,
        "test -t 1 && echo tty; echo $TERM; cat; echo after-stdin",
    )
    .await
    .expect("runs");
    assert_eq!(text(&out), "tty\nxterm-256color\nafter-stdin");
}

#[tokio::test]
async fn colour_reaches_progress_but_not_the_result() {
    let ws = Workspace::new(&[]).expect("workspace");
    let tool = BashTool::new(shell());
    let seen = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&seen);
    let mut ctx = ToolContext::new(ws.root());
    ctx.progress = ProgressSink::new(move |chunk| sink.lock().expect("lock").push_str(&chunk));

    let out = run(&tool, &ctx, r"printf '\033[31mred\033[0m and plain\n'")
        .await
        .expect("runs");

    assert_eq!(text(&out), "red and plain");
    let progress = seen.lock().expect("lock").clone();
    assert!(progress.contains("\u{1b}[31mred\u{1b}[0m"), "{progress:?}");
}

#[tokio::test]
async fn a_long_output_keeps_its_head_and_tail() {
    let ws = Workspace::new(&[]).expect("workspace");
    let tool = BashTool::new(shell());
    let ctx = ToolContext::new(ws.root());

    let out = run(&tool, &ctx, "seq 1 200000").await.expect("runs");
    let out = text(&out);

    assert!(out.starts_with("1\n2\n3\n"), "{}", &out[..20]);
    assert!(out.ends_with("199999\n200000"));
    assert!(out.contains("output truncated"));
    assert!(out.chars().count() < 30_500, "{}", out.chars().count());
}

#[tokio::test]
async fn cd_persists_and_is_reset_when_it_leaves_the_project() {
    let ws = Workspace::new(&[("sub/deeper/f.txt", "x")]).expect("workspace");
    let tool = BashTool::new(shell());
    let ctx = ToolContext::new(ws.root());

    run(&tool, &ctx, "cd sub").await.expect("cd");
    let out = run(&tool, &ctx, "pwd").await.expect("pwd");
    assert_eq!(text(&out), ws.path("sub").display().to_string());
    run(&tool, &ctx, "cd deeper && ls")
        .await
        .expect("cd deeper");
    let out = run(&tool, &ctx, "cat f.txt")
        .await
        .expect("relative to the new cwd");
    assert_eq!(text(&out), "x");

    let out = run(&tool, &ctx, "cd / && echo moved").await.expect("cd /");
    let out = text(&out);
    assert!(out.starts_with("moved\n"), "{out}");
    assert!(out.contains("reset"), "{out}");
    let out = run(&tool, &ctx, "pwd").await.expect("pwd");
    assert_eq!(text(&out), ws.root().display().to_string());
}

#[tokio::test]
async fn a_timeout_kills_the_whole_process_tree() {
    let ws = Workspace::new(&[]).expect("workspace");
    let tool = BashTool::new(shell());
    let ctx = ToolContext::new(ws.root());
    let started = Instant::now();

    let result = tool
        .call(
            &input_with(json!({
                "command": "echo begun; sleep 300 & echo $! > child.pid; wait",
                "timeout": 1500
            })),
            &ctx,
        )
        .await;

    let message = model_error(result);
    assert!(message.contains("timed out after 1.5s"), "{message}");
    assert!(message.contains("begun"), "{message}");
    // Far below the 300 s the child would take: the timeout ended it, however busy the machine.
    assert!(started.elapsed() < Duration::from_secs(120));
    let pid = pid_in(&ws.path("child.pid")).await;
    assert!(
        gone(pid).await,
        "the child sleep {pid} survived the timeout"
    );
}

#[tokio::test]
async fn cancellation_kills_the_process_tree() {
    let ws = Workspace::new(&[]).expect("workspace");
    let tool = Arc::new(BashTool::new(shell()));
    let ctx = ToolContext::new(ws.root());
    let cancel = ctx.cancel.clone();
    let call = {
        let (tool, ctx) = (Arc::clone(&tool), ctx.clone());
        tokio::spawn(async move { run(&tool, &ctx, "sleep 300 & echo $! > child.pid; wait").await })
    };
    let pid = pid_in(&ws.path("child.pid")).await;
    assert!(alive(pid));

    cancel.cancel();
    let result = call.await.expect("joined");

    assert!(matches!(result, Err(ToolError::Cancelled)), "{result:?}");
    assert!(
        gone(pid).await,
        "the child sleep {pid} survived the cancellation"
    );
}

#[tokio::test]
async fn dropping_a_running_call_kills_its_process_tree() {
    let ws = Workspace::new(&[]).expect("workspace");
    let tool = BashTool::new(shell());
    let ctx = ToolContext::new(ws.root());

    let dropped = tokio::time::timeout(
        Duration::from_millis(1500),
        run(&tool, &ctx, "sleep 300 & echo $! > child.pid; wait"),
    )
    .await;

    assert!(dropped.is_err());
    let pid = pid_in(&ws.path("child.pid")).await;
    assert!(
        gone(pid).await,
        "the child sleep {pid} outlived the dropped call"
    );
}

#[tokio::test]
async fn a_background_run_is_read_and_stopped() {
    let ws = Workspace::new(&[]).expect("workspace");
    let shell = shell();
    let bash = BashTool::new(Arc::clone(&shell));
    let output = TaskOutputTool::new(Arc::clone(&shell));
    let stop = TaskStopTool::new(Arc::clone(&shell));
    let ctx = ToolContext::new(ws.root());

    let started = Instant::now();
    let out = bash
        .call(
            &input_with(json!({
                "command": "echo started; sleep 300 & echo $! > bg.pid; wait",
                "run_in_background": true
            })),
            &ctx,
        )
        .await
        .expect("starts");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "it returns without waiting for the 300 s command"
    );
    let (id, status, _) = task(&out);
    assert_eq!(status, TaskStatus::Running);
    assert!(text(&out).contains(&id));
    let pid = pid_in(&ws.path("bg.pid")).await;

    let read = |block: bool| {
        let input: TaskOutputInput =
            serde_json::from_value(json!({"task_id": id, "block": block, "timeout": 300}))
                .expect("input");
        input
    };
    let first = output.call(&read(true), &ctx).await.expect("reads");
    let first = text(&first);
    assert!(first.contains("is running"), "{first}");
    assert!(first.contains("started"), "{first}");
    let again = text(&output.call(&read(false), &ctx).await.expect("reads"));
    assert!(
        again.contains("(no new output)"),
        "only new output: {again}"
    );

    let stop_input: TaskStopInput = serde_json::from_value(json!({"task_id": id})).expect("input");
    let stopped = stop.call(&stop_input, &ctx).await.expect("stops");
    assert_eq!(task(&stopped), (id.clone(), TaskStatus::Killed, None));
    let stopped = text(&stopped);
    assert!(stopped.starts_with("Stopped task"), "{stopped}");
    assert!(
        gone(pid).await,
        "the background sleep {pid} survived TaskStop"
    );
    let after = text(&output.call(&read(false), &ctx).await.expect("reads"));
    assert!(after.contains("is killed"), "{after}");

    // A background run that ends on its own reports its exit code.
    let out = bash
        .call(
            &input_with(json!({"command": "echo bye; exit 3", "run_in_background": true})),
            &ctx,
        )
        .await
        .expect("starts");
    let id2 = task_id(&out);
    assert_ne!(id, id2);
    let waited: TaskOutputInput =
        serde_json::from_value(json!({"task_id": id2, "block": true, "timeout": 5000}))
            .expect("input");
    let done = output.call(&waited, &ctx).await.expect("reads");
    assert_eq!(task(&done), (id2.clone(), TaskStatus::Exited, Some(3)));
    let done = text(&done);
    assert!(done.contains("exited with code 3"), "{done}");
    assert!(done.contains("bye"), "{done}");

    let unknown: TaskStopInput = serde_json::from_value(json!({"task_id": "nope"})).expect("input");
    assert!(matches!(
        stop.call(&unknown, &ctx).await,
        Err(ToolError::ToModel(_))
    ));
}

#[tokio::test]
async fn read_only_commands_are_concurrency_safe_and_collapse() {
    let ws = Workspace::new(&[]).expect("workspace");
    let pool = ToolPool::assemble(&builtin_tools_with(shell()), &[], |_| false);
    let bash = pool.find("Bash").expect("registered");
    assert!(pool.find("TaskOutput").is_some() && pool.find("BashOutput").is_some());
    assert!(pool.find("TaskStop").is_some() && pool.find("KillShell").is_some());
    let ctx = ToolContext::new(ws.root());
    let prepared = |command: &str| bash.prepare(&json!({ "command": command })).expect("valid");

    let read = prepared("ls && cat x");
    assert!(read.is_concurrency_safe());
    assert!(read.is_read_only());
    assert!(!read.is_destructive());
    let hints = read.render_hints(&ctx);
    assert!(hints.collapsible);
    assert_eq!(hints.title, "$ ls && cat x");

    let rm = prepared("rm x");
    assert!(!rm.is_concurrency_safe());
    assert!(!rm.is_read_only());
    assert!(rm.is_destructive());
    assert!(!rm.render_hints(&ctx).collapsible);
    assert!(prepared("git reset --hard").is_destructive());
    assert!(!prepared("cargo build").is_destructive());

    let background = bash
        .prepare(&json!({"command": "ls", "run_in_background": true}))
        .expect("valid");
    assert!(!background.is_concurrency_safe());
    assert!(
        bash.prepare(&json!({"command": "ls", "dangerouslyDisableSandbox": true}))
            .is_ok()
    );
    assert!(
        bash.prepare(&json!({"command": "ls", "timeout": 600_001}))
            .is_err()
    );
}

fn result_text(block: &ContentBlock) -> (String, bool) {
    match block {
        ContentBlock::ToolResult {
            content, is_error, ..
        } => (content.as_text(), *is_error),
        other => panic!("not a result: {other:?}"),
    }
}

#[tokio::test]
async fn a_failing_call_in_a_batch_aborts_its_running_sibling() {
    let p = Project::new().expect("project");
    std::fs::write(p.root.join("log.txt"), "line\n").expect("write");
    let rt = TestRuntime::new(&p.root)
        .session_id("s-bash")
        .permissions(p.ctx(&[], PermissionMode::Default))
        .approver(ScriptedApprover::new([], ApprovalChoice::Deny))
        .tools(builtin_tools_with(shell()))
        .build();
    // Both are read-only, so they run together; the failing `cat` aborts the endless `tail -f`.
    let calls = vec![
        (
            "t_follow".to_string(),
            "Bash".to_string(),
            json!({"command": "tail -f log.txt"}),
        ),
        (
            "t_fail".to_string(),
            "Bash".to_string(),
            json!({"command": "cat missing.txt"}),
        ),
    ];
    let started = Instant::now();

    let outcomes = run_tools(&rt, calls, &CancellationToken::new(), 10).await;

    assert!(
        started.elapsed() < Duration::from_secs(120),
        "the follower was stopped"
    );
    assert_eq!(outcomes.len(), 2);
    let (follow, follow_error) = result_text(&outcomes[0].block);
    assert_eq!(outcomes[0].outcome, ToolOutcome::Cancelled, "{follow}");
    assert!(follow_error);
    assert!(follow.contains("Aborted"), "{follow}");
    let (fail, fail_error) = result_text(&outcomes[1].block);
    assert_eq!(outcomes[1].outcome, ToolOutcome::Error);
    assert!(fail_error);
    assert!(fail.starts_with("Exit code 1"), "{fail}");
    assert!(fail.contains("missing.txt"), "{fail}");
}

#[tokio::test]
async fn a_turn_runs_echo_without_asking_and_asks_before_touch() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("t_echo", "Bash", json!({"command": "echo hello-from-bash"})),
        ScriptedTurn::tool_use("t_touch", "Bash", json!({"command": "touch made.txt"})),
        ScriptedTurn::text("All done."),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new(
        [ApprovalChoice::Allow],
        ApprovalChoice::Deny,
    ));
    let sink = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), sink.clone());

    let outcome = s.send("run things").await.expect("turn");

    assert_eq!(outcome.final_text, "All done.");
    let asked = approver.asked();
    assert_eq!(asked.len(), 1, "only touch asks: {asked:?}");
    assert_eq!(asked[0].tool_use_id, "t_touch");
    assert!(ws.path("made.txt").exists());
    let requests = fake.requests();
    assert_eq!(requests.len(), 3);
    let first_result = &requests[1].body["messages"]
        .as_array()
        .expect("messages")
        .last()
        .expect("message")["content"][0];
    assert_eq!(first_result["tool_use_id"], "t_echo");
    assert_eq!(first_result["content"], "hello-from-bash");
    let progress: String = sink
        .events()
        .iter()
        .filter_map(|e| match e {
            SessionEvent::ToolCallProgress { tool_use_id, text } if tool_use_id == "t_echo" => {
                Some(text.clone())
            }
            _ => None,
        })
        .collect();
    assert!(progress.contains("hello-from-bash"), "{progress:?}");
}

#[tokio::test]
async fn the_sandbox_keeps_writes_inside_the_project_and_has_no_network() {
    let Some(sandbox) = tandem_engine::sandbox::Sandbox::find() else {
        assert_eq!(
            std::env::var("TANDEM_TEST_NO_BWRAP").as_deref(),
            Ok("1"),
            "bwrap (bubblewrap) is not installed: run scripts/install-deps, or set TANDEM_TEST_NO_BWRAP=1 to skip"
        );
        eprintln!("skipped: bwrap is not installed and TANDEM_TEST_NO_BWRAP=1");
        return;
    };
    let ws = Workspace::new(&[("sub/f.txt", "x")]).expect("workspace");
    let outside = tempfile::tempdir().expect("tempdir");
    let outside_file = outside.path().join("escaped.txt");
    let tool = BashTool::new(Arc::new(
        ShellSession::temporary().with_sandbox(Some(sandbox)),
    ));
    let ctx = ToolContext::new(ws.root());
    let probe = run(&tool, &ctx, "true").await;
    assert!(
        probe.is_ok(),
        "bwrap cannot create namespaces here (user namespaces disabled?): {probe:?}"
    );

    run(&tool, &ctx, "touch inside.txt && cd sub")
        .await
        .expect("writes inside");
    assert!(ws.path("inside.txt").exists());
    let out = run(&tool, &ctx, "pwd").await.expect("pwd");
    assert_eq!(
        text(&out),
        ws.path("sub").display().to_string(),
        "cd is tracked in the sandbox"
    );
    let command = format!("touch {}", outside_file.display());
    // /tmp is private in the sandbox, so the folder is not even there; the rest of the system is read-only.
    model_error(run(&tool, &ctx, &command).await);
    assert!(!outside_file.exists());
    let message = model_error(run(&tool, &ctx, "touch /usr/tandem-sandbox-probe").await);
    assert!(message.contains("Read-only file system"), "{message}");
    assert!(!Path::new("/usr/tandem-sandbox-probe").exists());
    let out = run(&tool, &ctx, "grep -c : /proc/net/dev")
        .await
        .expect("reads");
    assert_eq!(text(&out), "1", "only the loopback interface");

    tool.call(
        &input_with(json!({"command": command, "dangerouslyDisableSandbox": true})),
        &ctx,
    )
    .await
    .expect("runs outside the sandbox");
    assert!(outside_file.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_shell_takes_its_old_shell_id_field() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rt = TestRuntime::new(dir.path()).build();

    let old = call(&rt, "KillShell", &json!({"shell_id": "bash_9"})).await;
    assert!(!old.ok);
    assert!(
        old.text.contains("No background task with ID bash_9"),
        "the id under its old name is looked up: {}",
        old.text
    );
    let neither = call(&rt, "TaskStop", &json!({})).await;
    assert!(
        neither.text.contains("task_id is required"),
        "{}",
        neither.text
    );
    let both = call(&rt, "TaskStop", &json!({"task_id": "a", "shell_id": "b"})).await;
    assert!(both.text.contains("not both"), "{}", both.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_over_the_systems_argument_limit_is_refused_with_a_way_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rt = TestRuntime::new(dir.path()).build();
    let long = format!("echo {}", "x".repeat(200 * 1024));

    let r = call(&rt, "Bash", &json!({"command": long})).await;

    assert!(!r.ok);
    assert!(
        r.text.contains("at most 120 KiB") && r.text.contains("file"),
        "{}",
        r.text
    );
}

#[tokio::test]
async fn a_grep_finding_nothing_answers_and_leaves_its_running_sibling_alone() {
    let p = Project::new().expect("project");
    std::fs::create_dir_all(p.root.join("src")).expect("src");
    std::fs::write(p.root.join("src/a.txt"), "alpha\n").expect("write");
    let fifo = p.root.join("gate");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let (rt, sink) = TestRuntime::new(&p.root)
        .session_id("s-bash")
        .permissions(p.ctx(&[], PermissionMode::Default))
        .approver(ScriptedApprover::new([], ApprovalChoice::Deny))
        .tools(builtin_tools_with(shell()))
        .recorded();
    // Both are read-only, so they run together: `cat` waits for the gate, which opens only once grep has answered.
    let calls = vec![
        (
            "t_wait".to_string(),
            "Bash".to_string(),
            json!({"command": "cat gate"}),
        ),
        (
            "t_grep".to_string(),
            "Bash".to_string(),
            json!({"command": "grep -r nothing-here src"}),
        ),
    ];
    let running =
        tokio::spawn(async move { run_tools(&rt, calls, &CancellationToken::new(), 10).await });
    let grep_answered = || {
        sink.events().iter().any(|e| {
            matches!(e, SessionEvent::ToolCallResult { tool_use_id, .. } if tool_use_id == "t_grep")
        })
    };
    while !grep_answered() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Open the gate for writing once `cat` reads it (no reader yet: ENXIO); give up if the calls are over.
    loop {
        use std::os::unix::fs::OpenOptionsExt;
        let opened = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
            .open(&fifo);
        if let Ok(mut gate) = opened {
            use std::io::Write;
            gate.write_all(b"opened\n").expect("write the gate");
            break;
        }
        if running.is_finished() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let outcomes = running.await.expect("the calls end");

    let (grep, grep_error) = result_text(&outcomes[1].block);
    assert_eq!(outcomes[1].outcome, ToolOutcome::Success, "{grep}");
    assert!(!grep_error);
    assert_eq!(grep, "(exit code 1: no matches found)");
    let (wait, wait_error) = result_text(&outcomes[0].block);
    assert_eq!(outcomes[0].outcome, ToolOutcome::Success, "{wait}");
    assert!(!wait_error);
    assert_eq!(wait, "opened");
}
