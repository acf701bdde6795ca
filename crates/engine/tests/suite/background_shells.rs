//! Running commands moved to the background, with real processes: by the person (one call or all), at the timeout
//! where a person follows the session, after the assistant mode's budget (the session's own agent only); their
//! output kept for TaskOutput, their start and end announced, a sub-agent's shells ending with it, and the
//! session's doors the window uses (move, list, read, stop).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::approver::FixedApprover;
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptedTurn, Workspace};
use tandem_engine::tool::{ProgressSink, Tool, ToolContext, ToolError, ToolOutput};
use tandem_engine::tools::bash::{
    BashInput, BashTool, ShellSession, TaskOutputInput, TaskOutputTool,
};
use tandem_protocol::{
    ApprovalChoice, BackgroundReason, BackgroundShell, SessionEvent, TaskStatus, ToolDetail,
    ToolOutcome,
};

use super::bash::alive;
use super::common::{server, session};

/// A named pipe at `path`: a command reading it waits until the test writes.
fn fifo(path: &Path) -> PathBuf {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    path.to_path_buf()
}

/// Writes `text` into the pipe once its reader has opened it.
async fn open_gate(gate: PathBuf, text: &'static str) {
    tokio::task::spawn_blocking(move || std::fs::write(gate, text))
        .await
        .expect("writer")
        .expect("write the gate");
}

fn input(value: Value) -> BashInput {
    serde_json::from_value(value).expect("input")
}

/// Shell state without a sandbox whose background shells are announced to `events`.
fn shell_with(events: &RecordingSink) -> ShellSession {
    ShellSession::temporary()
        .without_sandbox()
        .with_events(Arc::new(events.clone()))
}

/// A context for call `id` in `root` whose progress is collected in the returned buffer.
fn context(root: &Path, id: &str) -> (ToolContext, Arc<Mutex<String>>) {
    let seen = Arc::new(Mutex::new(String::new()));
    let mut ctx = ToolContext::new(root);
    ctx.tool_use_id = id.to_string();
    let sink = seen.clone();
    ctx.progress = ProgressSink::new(move |text| sink.lock().expect("progress").push_str(&text));
    (ctx, seen)
}

async fn wait_for(what: impl Fn() -> bool) {
    while !what() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The id and status of the background task a result's detail names.
fn task(out: &ToolOutput) -> (String, TaskStatus) {
    match &out.detail {
        Some(ToolDetail::BackgroundTask {
            task_id, status, ..
        }) => (task_id.clone(), *status),
        other => panic!("not a background task: {other:?}"),
    }
}

fn listed(events: &RecordingSink) -> Vec<BackgroundShell> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::BackgroundShellChanged { shell } => Some(shell),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn the_person_moves_a_running_command_to_the_background_and_taskoutput_reads_the_rest() {
    let ws = Workspace::new(&[]).expect("workspace");
    let gate = fifo(&ws.path("gate"));
    let events = RecordingSink::default();
    let shell = Arc::new(shell_with(&events));
    let tool = BashTool::new(shell.clone());
    let (ctx, seen) = context(&ws.root(), "b1");
    let running = tokio::spawn(async move {
        let call =
            input(json!({"command": "echo first; cat gate; echo done", "description": "Serve"}));
        tool.call(&call, &ctx).await
    });
    wait_for(|| seen.lock().expect("progress").contains("first")).await;
    assert_eq!(shell.running_foreground(), vec!["b1".to_string()]);

    assert_eq!(shell.send_to_background(Some("other-call")), 0);
    assert_eq!(shell.send_to_background(Some("b1")), 1);
    let out = running.await.expect("the call ends").expect("moved");

    let text = out.content.as_text();
    assert!(
        text.starts_with("The user moved the command to the background"),
        "{text}"
    );
    assert!(text.ends_with("Output so far:\nfirst"), "{text}");
    let (id, status) = task(&out);
    assert_eq!(status, TaskStatus::Running);
    assert!(shell.running_foreground().is_empty());

    // The command goes on in the background: what it prints next is TaskOutput's, not what the model already has.
    open_gate(gate, "second\n").await;
    let reader = TaskOutputTool::new(shell.clone());
    let read: TaskOutputInput =
        serde_json::from_value(json!({"task_id": id, "block": true, "timeout": 600000}))
            .expect("input");
    let out = reader
        .call(&read, &ToolContext::new(ws.root()))
        .await
        .expect("output");
    let text = out.content.as_text();
    assert_eq!(
        text,
        format!("Task {id} is exited with code 0.\nsecond\ndone")
    );

    wait_for(|| listed(&events).len() == 2).await;
    let shells = listed(&events);
    assert_eq!(shells[0].task_id, id);
    assert_eq!(shells[0].tool_use_id, "b1");
    assert_eq!(shells[0].description.as_deref(), Some("Serve"));
    assert_eq!(shells[0].reason, BackgroundReason::ByPerson);
    assert_eq!(shells[0].status, TaskStatus::Running);
    assert_eq!(shells[1].status, TaskStatus::Exited);
    assert_eq!(shells[1].exit_code, Some(0));
}

#[tokio::test]
async fn at_its_timeout_a_command_moves_to_the_background_where_a_person_follows_except_a_sleep() {
    let ws = Workspace::new(&[]).expect("workspace");
    fifo(&ws.path("gate"));
    let events = RecordingSink::default();
    let shell = Arc::new(shell_with(&events).background_at_timeout(true));
    let tool = BashTool::new(shell.clone());
    let (ctx, _) = context(&ws.root(), "b1");

    let call = input(json!({"command": "echo started; cat gate", "timeout": 500}));
    let out = tool.call(&call, &ctx).await.expect("moved");
    let text = out.content.as_text();
    assert!(
        text.starts_with(
            "The command did not finish within its 0.5s timeout and was moved to the background, where it is \
             still running with ID: shell_1."
        ),
        "{text}"
    );
    assert!(text.ends_with("Output so far:\nstarted"), "{text}");
    let (id, status) = task(&out);
    assert_eq!(status, TaskStatus::Running);
    let shells = shell.tasks.listings();
    assert_eq!(shells.len(), 1);
    assert_eq!(shells[0].reason, BackgroundReason::Timeout);
    let pid = shell.tasks.get(&id).expect("task").pid;
    assert!(shell.tasks.get(&id).expect("task").stop());
    wait_for(|| !alive(pid)).await;

    // A wait that is the point of the command is not kept running.
    let (ctx, _) = context(&ws.root(), "b2");
    let call = input(json!({"command": "sleep 30", "timeout": 300}));
    match tool.call(&call, &ctx).await {
        Err(ToolError::ToModel(message)) => {
            assert!(
                message.starts_with("Command timed out after 0.3s"),
                "{message}"
            )
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert_eq!(shell.tasks.listings().len(), 1);
}

#[tokio::test]
async fn the_assistant_budget_moves_the_sessions_own_command_but_not_a_sub_agents() {
    let ws = Workspace::new(&[]).expect("workspace");
    fifo(&ws.path("gate"));
    fifo(&ws.path("gate2"));
    let events = RecordingSink::default();
    let shell =
        Arc::new(shell_with(&events).with_blocking_budget(Some(Duration::from_millis(200))));

    let own = BashTool::new(shell.clone());
    let (ctx, _) = context(&ws.root(), "b1");
    let out = own
        .call(&input(json!({"command": "echo started; cat gate"})), &ctx)
        .await
        .expect("moved");
    let text = out.content.as_text();
    assert!(
        text.starts_with(
            "The command ran longer than 0.2s, the most a command may hold the conversation"
        ),
        "{text}"
    );
    assert_eq!(shell.tasks.listings()[0].reason, BackgroundReason::Budget);

    // A sub-agent's command runs to its end.
    let sub = BashTool::for_agent(shell.clone(), "agent-1");
    let (ctx, _) = context(&ws.root(), "b2");
    let out = sub
        .call(
            &input(json!({"command": "timeout 1 cat gate2; echo finished"})),
            &ctx,
        )
        .await
        .expect("runs to its end");
    assert_eq!(out.content.as_text(), "finished");
    assert_eq!(shell.tasks.listings().len(), 1);
}

#[tokio::test]
async fn a_sub_agents_background_shells_end_with_it() {
    let ws = Workspace::new(&[]).expect("workspace");
    fifo(&ws.path("gate"));
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "a1",
            "Agent",
            json!({"description": "Start the server", "prompt": "start it", "subagent_type": "general-purpose"}),
        ),
        ScriptedTurn::tool_use(
            "b1",
            "Bash",
            json!({"command": "echo up; cat gate", "run_in_background": true}),
        ),
        ScriptedTurn::text("started"),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(FixedApprover(ApprovalChoice::Allow)),
        events.clone(),
    );
    s.send("go").await.expect("turn");

    let shells = s.shells().background_shells();
    assert_eq!(shells.len(), 1, "{shells:?}");
    assert_eq!(shells[0].tool_use_id, "b1");
    assert_eq!(shells[0].reason, BackgroundReason::Requested);
    assert!(shells[0].agent_id.is_some());
    assert_eq!(shells[0].status, TaskStatus::Killed);
    let announced = listed(&events);
    assert_eq!(announced.last().map(|s| s.status), Some(TaskStatus::Killed));
}

#[tokio::test]
async fn the_window_moves_every_running_command_then_lists_reads_and_stops_it() {
    let ws = Workspace::new(&[]).expect("workspace");
    fifo(&ws.path("gate"));
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("b1", "Bash", json!({"command": "echo ready; cat gate"})),
        ScriptedTurn::text("it runs"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(FixedApprover(ApprovalChoice::Allow)),
        events.clone(),
    );
    let ready = || {
        events.events().iter().any(|e| {
            matches!(e, SessionEvent::ToolCallProgress { tool_use_id, text } if tool_use_id == "b1" && text.contains("ready"))
        })
    };
    let (outcome, moved) = tokio::join!(s.send("serve"), async {
        wait_for(ready).await;
        s.shells().send_to_background(None)
    });
    assert_eq!(moved, 1);
    assert_eq!(outcome.expect("turn").final_text, "it runs");
    let result = events.events().into_iter().find_map(|e| match e {
        SessionEvent::ToolCallResult {
            tool_use_id,
            outcome,
            content,
            ..
        } if tool_use_id == "b1" => Some((outcome, content)),
        _ => None,
    });
    let (outcome, content) = result.expect("a result");
    assert_eq!(outcome, ToolOutcome::Success);
    assert!(
        content.contains("moved the command to the background"),
        "{content}"
    );

    let shells = s.shells().background_shells();
    assert_eq!(shells.len(), 1);
    assert_eq!(shells[0].status, TaskStatus::Running);
    let id = shells[0].task_id.clone();
    let output = s.shells().background_shell_output(&id).expect("its output");
    assert!(output.contains("ready"), "{output:?}");
    assert!(s.shells().background_shell_output("shell_99").is_none());
    assert!(s.shells().stop_background_shell(&id));
    assert!(!s.shells().stop_background_shell(&id));
    assert_eq!(s.shells().background_shells()[0].status, TaskStatus::Killed);
    assert_eq!(
        listed(&events).last().map(|s| s.status),
        Some(TaskStatus::Killed)
    );
}
