//! The Agent tool's `isolation: "remote"`: a sub-agent run as `tandem acp` on another machine over SSH — against the
//! command line's loopback sshd (`crates/cli/tests/suite/acp/sshd.rs`, reused as it is; a second account runs the
//! built `tandem` there, talking to its own fake model) while the parent session runs here on another fake model.
//! Its answer comes back as the Agent call's result naming the files it changed there, its events are tagged as a
//! sub-agent's, its questions meet the parent's rules and approver, a background one is read with TaskOutput; with
//! no `remoteAgentHost` the call is refused naming the setting, and an unreachable machine gives an error naming
//! it. The sshd tests are skipped (with the reason) without root, sshd, or a built `tandem`
//! (`cargo build -p tandem-cli`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::approver::Approver;
use tandem_engine::events::RecordingSink;
use tandem_engine::hosted::RemoteSubAgents;
use tandem_engine::session::Session;
use tandem_engine::testing::{
    FakeServer, Script, ScriptBlock, ScriptedApprover, ScriptedTurn, Workspace,
};
use tandem_engine::tools::features::Features;
use tandem_protocol::{
    ApprovalChoice, DecisionBehavior, SessionEvent, ToolOutcome, TurnStopReason,
};

use super::common::{fake_config, fake_model, server};
use super::sshd::{RemoteHome, Sshd};

/// The command line's `tandem`, built beside this test binary (`None`, said why, when it is not).
fn built_tandem() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join("tandem");
    if bin.is_file() {
        Some(bin)
    } else {
        eprintln!(
            "skipped: {} is not built (cargo build -p tandem-cli)",
            bin.display()
        );
        None
    }
}

/// A project whose local settings name `host` (when given) and hold `permissions`.
fn project(host: Option<&str>, permissions: Value) -> Workspace {
    let mut settings = json!({ "permissions": permissions });
    if let Some(host) = host {
        settings["remoteAgentHost"] = json!(host);
    }
    Workspace::new(&[(".claude/settings.local.json", &settings.to_string())]).expect("workspace")
}

/// The parent session on `root` talking to `fake`, reaching remote machines with `ssh_command`.
fn parent(
    root: &Path,
    fake: &FakeServer,
    approver: Arc<dyn Approver>,
    events: &RecordingSink,
    ssh_command: String,
) -> Session {
    Session::builder(root)
        .expect("folder")
        .model_client(fake_model(fake))
        .model(fake_config(&fake.url()))
        .approver(approver)
        .events(Arc::new(events.clone()))
        .features(Features::default())
        .remote_agents(RemoteSubAgents::with_ssh(Some(ssh_command)))
        .build()
        .expect("session")
}

fn remote_call(id: &str, prompt: &str, background: bool) -> ScriptedTurn {
    ScriptedTurn::tool_use(
        id,
        "Agent",
        json!({
            "description": "Work over there",
            "prompt": prompt,
            "isolation": "remote",
            "run_in_background": background,
        }),
    )
}

/// The far model's turns: a Write of `file`, then `answer`.
fn far_write_then(file: &Path, answer: &str) -> Script {
    Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_far1".into(),
            name: "Write".into(),
            input: json!({"file_path": file.display().to_string(), "content": "from the sub-agent\n"}),
        }]),
        ScriptedTurn::text(answer),
    ])
}

/// The result text of the parent's call `id`.
fn result_of(events: &[SessionEvent], id: &str) -> Option<(ToolOutcome, String)> {
    events.iter().find_map(|e| match e {
        SessionEvent::ToolCallResult {
            tool_use_id,
            outcome,
            content,
            ..
        } if tool_use_id == id => Some((*outcome, content.clone())),
        _ => None,
    })
}

/// The events the sub-agent started by `id` sent, unwrapped.
fn tagged(events: &[SessionEvent], id: &str) -> Vec<SessionEvent> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::SubAgent {
                parent_tool_use_id,
                event,
                ..
            } if parent_tool_use_id == id => Some((**event).clone()),
            _ => None,
        })
        .collect()
}

fn description_of(body: &Value, name: &str) -> String {
    body["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == name))
        .and_then(|t| t["description"].as_str())
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn a_remote_sub_agent_answers_with_its_tagged_transcript_and_names_the_file_it_wrote_there() {
    let Some(bin) = built_tandem() else { return };
    let Some(far) = RemoteHome::new(&bin) else {
        return;
    };
    let note = far.project().join("note.txt");
    let far_model = server(far_write_then(&note, "Wrote the note over there.")).await;
    let sshd = Sshd::start(far, &far_model.url(), true).await;
    let fake = server(Script::turns([
        remote_call("toolu_agent", "Leave a note", false),
        ScriptedTurn::text("The remote agent is done."),
    ]))
    .await;
    let ws = project(Some(&sshd.url()), json!({}));
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let events = RecordingSink::default();
    let session = parent(
        &ws.root(),
        &fake,
        approver.clone(),
        &events,
        sshd.ssh_command(),
    );
    let outcome = session.send("send an agent over").await.expect("turn");
    assert_eq!(outcome.final_text, "The remote agent is done.");

    let events = events.events();
    let (outcome, text) = result_of(&events, "toolu_agent").expect("the Agent call's result");
    assert_eq!(outcome, ToolOutcome::Success, "{text}");
    assert!(text.starts_with("Wrote the note over there."), "{text}");
    assert!(text.contains(&sshd.url()), "{text}");
    assert!(text.contains(&note.display().to_string()), "{text}");
    assert!(
        text.contains("1 tool calls, tokens counted on the remote machine"),
        "{text}"
    );
    // The far side wrote it (this side only answered its question).
    assert_eq!(
        std::fs::read_to_string(&note).expect("note"),
        "from the sub-agent\n"
    );
    // Its transcript reached the parent's sink wrapped as a sub-agent's, as a local one's does.
    let inner = tagged(&events, "toolu_agent");
    let said: String = inner
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(said.contains("Wrote the note over there."), "{inner:#?}");
    assert!(
        inner.iter().any(|e| matches!(
            e,
            SessionEvent::ToolCallResult { tool_use_id, .. } if tool_use_id == "toolu_far1"
        )),
        "{inner:#?}"
    );
    // The far side's question reached the parent's approver naming the sub-agent.
    let asked = approver.asked();
    assert_eq!(asked.len(), 1, "{asked:#?}");
    let origin = asked[0].sub_agent.as_ref().expect("names the sub-agent");
    assert_eq!(origin.parent_tool_use_id, "toolu_agent");
    // The call is shown naming where it runs.
    assert!(
        events.iter().any(|e| matches!(
            e,
            SessionEvent::ToolCallInput { tool_use_id, hints, .. }
                if tool_use_id == "toolu_agent" && hints.title.ends_with(&format!("on {})", sshd.url()))
        )),
        "{events:#?}"
    );
    // The Agent tool offers remote runs where a host is configured.
    let first = &fake.requests()[0].body;
    assert!(
        description_of(first, "Agent").contains(&sshd.url()),
        "{}",
        description_of(first, "Agent")
    );
}

#[tokio::test]
async fn a_deny_rule_of_the_parent_blocks_the_remote_sub_agents_write_without_asking() {
    let Some(bin) = built_tandem() else { return };
    let Some(far) = RemoteHome::new(&bin) else {
        return;
    };
    let note = far.project().join("denied.txt");
    let far_model = server(far_write_then(&note, "The write was refused.")).await;
    let sshd = Sshd::start(far, &far_model.url(), true).await;
    let fake = server(Script::turns([
        remote_call("toolu_agent", "Try to write", false),
        ScriptedTurn::text("Noted."),
    ]))
    .await;
    let ws = project(Some(&sshd.url()), json!({"deny": ["Edit"]}));
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let events = RecordingSink::default();
    let session = parent(
        &ws.root(),
        &fake,
        approver.clone(),
        &events,
        sshd.ssh_command(),
    );
    session.send("send an agent over").await.expect("turn");

    let events = events.events();
    let (outcome, text) = result_of(&events, "toolu_agent").expect("the Agent call's result");
    assert_eq!(outcome, ToolOutcome::Success, "{text}");
    assert!(text.starts_with("The write was refused."), "{text}");
    assert!(text.contains("It changed no files there."), "{text}");
    assert!(!note.exists(), "the denied write happened");
    assert!(approver.asked().is_empty(), "{:#?}", approver.asked());
    let inner = tagged(&events, "toolu_agent");
    assert!(
        inner.iter().any(|e| matches!(
            e,
            SessionEvent::ToolCallDecision { tool_use_id, decision }
                if tool_use_id == "toolu_far1" && decision.decision == DecisionBehavior::Deny
        )),
        "{inner:#?}"
    );
}

#[tokio::test]
async fn a_background_remote_sub_agent_is_read_with_task_output() {
    let Some(bin) = built_tandem() else { return };
    let Some(far) = RemoteHome::new(&bin) else {
        return;
    };
    // It tries a write first: in the background nobody can be asked, so it is denied without asking.
    let note = far.project().join("background.txt");
    let far_model = server(far_write_then(&note, "Counted 3 files over there.")).await;
    let sshd = Sshd::start(far, &far_model.url(), true).await;
    let fake = server(Script::turns([
        remote_call("toolu_bg", "Count the files", true),
        ScriptedTurn::tool_use(
            "toolu_read",
            "TaskOutput",
            json!({"task_id": "agent-toolu_bg", "block": true, "timeout": 600000}),
        ),
        ScriptedTurn::text("It counted them."),
    ]))
    .await;
    let ws = project(Some(&sshd.url()), json!({}));
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let events = RecordingSink::default();
    let session = parent(
        &ws.root(),
        &fake,
        approver.clone(),
        &events,
        sshd.ssh_command(),
    );
    session.send("count over there").await.expect("turn");
    assert!(approver.asked().is_empty(), "{:#?}", approver.asked());
    assert!(!note.exists(), "the background write was not denied");

    let events = events.events();
    let (_, started) = result_of(&events, "toolu_bg").expect("the Agent call's result");
    assert!(started.contains("agent-toolu_bg"), "{started}");
    let (outcome, read) = result_of(&events, "toolu_read").expect("TaskOutput's result");
    assert_eq!(outcome, ToolOutcome::Success, "{read}");
    assert!(read.contains("is completed"), "{read}");
    assert!(read.contains("Counted 3 files over there."), "{read}");
}

#[tokio::test]
async fn without_a_remote_host_the_call_is_refused_naming_the_setting_and_the_tool_does_not_offer_it()
 {
    let fake = server(Script::turns([
        remote_call("toolu_agent", "Anything", false),
        ScriptedTurn::text("Understood."),
    ]))
    .await;
    let ws = project(None, json!({}));
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let events = RecordingSink::default();
    let session = parent(
        &ws.root(),
        &fake,
        approver.clone(),
        &events,
        "ssh -F /dev/null".into(),
    );
    session.send("send an agent over").await.expect("turn");
    let (outcome, text) = result_of(&events.events(), "toolu_agent").expect("result");
    assert_eq!(outcome, ToolOutcome::Error, "{text}");
    assert!(text.contains("remoteAgentHost"), "{text}");
    assert!(approver.asked().is_empty(), "{:#?}", approver.asked());
    let first = &fake.requests()[0].body;
    assert!(
        !description_of(first, "Agent").contains("remote"),
        "{}",
        description_of(first, "Agent")
    );
    assert_eq!(fake.requests().len(), 2, "no sub-agent ran");
}

#[tokio::test]
async fn an_unreachable_remote_machine_ends_the_call_with_an_error_naming_it() {
    // A loopback port nothing listens on: ssh is refused at once.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|socket| socket.local_addr())
        .expect("port")
        .port();
    let url = format!("ssh://nobody@127.0.0.1:{port}/srv/project");
    let fake = server(Script::turns([
        remote_call("toolu_agent", "Anything", false),
        ScriptedTurn::text("It could not start."),
    ]))
    .await;
    let ws = project(Some(&url), json!({}));
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let events = RecordingSink::default();
    let session = parent(
        &ws.root(),
        &fake,
        approver,
        &events,
        "ssh -F /dev/null -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null".into(),
    );
    let outcome = session.send("send an agent over").await.expect("turn");
    assert_eq!(outcome.final_text, "It could not start.");
    let (outcome, text) = result_of(&events.events(), "toolu_agent").expect("result");
    assert_eq!(outcome, ToolOutcome::Error, "{text}");
    assert!(text.contains(&format!("nobody@127.0.0.1:{port}")), "{text}");
    assert!(text.contains("ssh could not reach"), "{text}");
}

/// Waits (polling the recorded events) until the sub-agent started by `id` has said something.
async fn until_it_speaks(events: &RecordingSink, id: &str) {
    until("the remote sub-agent to say something", || {
        tagged(&events.events(), id)
            .iter()
            .any(|e| matches!(e, SessionEvent::TextDelta { .. }))
    })
    .await;
}

/// Polls `done` until it holds; a minute without it fails the test (something hangs).
async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// A far model that starts answering, then holds the connection open without another word.
fn far_stalls() -> Script {
    let mut stalled = ScriptedTurn::text("Thinking about it for a long while, then more.");
    stalled.stall_after_chunks = Some(4);
    Script::turns([stalled])
}

#[tokio::test]
async fn a_lost_connection_ends_the_remote_sub_agents_call_with_an_error_naming_the_host() {
    let Some(bin) = built_tandem() else { return };
    let Some(far) = RemoteHome::new(&bin) else {
        return;
    };
    let far_model = server(far_stalls()).await;
    let mut sshd = Sshd::start(far, &far_model.url(), true).await;
    let fake = server(Script::turns([
        remote_call("toolu_agent", "Think it over", false),
        ScriptedTurn::text("The remote agent was cut off."),
    ]))
    .await;
    let ws = project(Some(&sshd.url()), json!({}));
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let events = RecordingSink::default();
    let session = parent(&ws.root(), &fake, approver, &events, sshd.ssh_command());
    let port = sshd.port;
    let (outcome, ()) = tokio::join!(session.send("send an agent over"), async {
        until_it_speaks(&events, "toolu_agent").await;
        sshd.kill();
    });
    assert_eq!(
        outcome.expect("turn").final_text,
        "The remote agent was cut off."
    );
    let (outcome, text) = result_of(&events.events(), "toolu_agent").expect("result");
    assert_eq!(outcome, ToolOutcome::Error, "{text}");
    assert!(
        text.contains(&format!(
            "the connection to tandem-remote@127.0.0.1:{port} was lost while the sub-agent ran there"
        )),
        "{text}"
    );
}

#[tokio::test]
async fn the_person_stops_a_remote_sub_agent_and_the_parent_turn_goes_on() {
    let Some(bin) = built_tandem() else { return };
    let Some(far) = RemoteHome::new(&bin) else {
        return;
    };
    let far_model = server(far_stalls()).await;
    let sshd = Sshd::start(far, &far_model.url(), true).await;
    let fake = server(Script::turns([
        remote_call("toolu_agent", "Think it over", false),
        ScriptedTurn::text("Stopped, as asked."),
    ]))
    .await;
    let ws = project(Some(&sshd.url()), json!({}));
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let events = RecordingSink::default();
    let session = parent(&ws.root(), &fake, approver, &events, sshd.ssh_command());
    let (outcome, stopped) = tokio::join!(session.send("send an agent over"), async {
        until_it_speaks(&events, "toolu_agent").await;
        session.agents().stop("toolu_agent")
    });
    assert!(stopped, "the remote sub-agent was not running");
    until_no_ssh_to(sshd.port).await;
    assert_eq!(outcome.expect("turn").final_text, "Stopped, as asked.");
    let (outcome, text) = result_of(&events.events(), "toolu_agent").expect("result");
    assert_eq!(outcome, ToolOutcome::Error, "{text}");
    assert!(text.contains("The user stopped"), "{text}");
}

#[tokio::test]
async fn an_agent_isolation_remote_deny_rule_refuses_the_call_before_any_connection() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|socket| socket.local_addr())
        .expect("port")
        .port();
    let url = format!("ssh://nobody@127.0.0.1:{port}/srv/project");
    let fake = server(Script::turns([
        remote_call("toolu_agent", "Anything", false),
        ScriptedTurn::tool_use(
            "toolu_local",
            "Agent",
            json!({"description": "Stay here", "prompt": "Say hi"}),
        ),
        ScriptedTurn::text("Hi from here."),
        ScriptedTurn::text("Only the local one ran."),
    ]))
    .await;
    let ws = project(Some(&url), json!({"deny": ["Agent(isolation:remote)"]}));
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let events = RecordingSink::default();
    let session = parent(
        &ws.root(),
        &fake,
        approver.clone(),
        &events,
        "ssh -F /dev/null".into(),
    );
    let outcome = session.send("send an agent over").await.expect("turn");
    assert_eq!(outcome.final_text, "Only the local one ran.");
    let events = events.events();
    let (outcome, text) = result_of(&events, "toolu_agent").expect("result");
    assert_eq!(outcome, ToolOutcome::Denied, "{text}");
    assert!(text.contains("Agent(isolation:remote)"), "{text}");
    assert!(!text.contains("ssh could not reach"), "{text}");
    // The rule names the field: a local sub-agent still runs.
    let (outcome, text) = result_of(&events, "toolu_local").expect("result");
    assert_eq!(outcome, ToolOutcome::Success, "{text}");
    assert!(text.starts_with("Hi from here."), "{text}");
    assert!(approver.asked().is_empty(), "{:#?}", approver.asked());
}

/// The `ssh` processes reaching loopback port `port` (their command lines name it after `-p`).
fn ssh_to(port: u16) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let wanted = format!("\0-p\0{port}\0");
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let line = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let line = String::from_utf8_lossy(&line);
            line.starts_with("ssh\0") && line.contains(&wanted)
        })
        .collect()
}

/// Waits (polling /proc) until no `ssh` to `port` is left.
async fn until_no_ssh_to(port: u16) {
    until("the ssh process to end", || ssh_to(port).is_empty()).await;
}

#[tokio::test]
async fn interrupting_the_parent_turn_cancels_the_remote_sub_agent_and_ends_its_ssh() {
    let Some(bin) = built_tandem() else { return };
    let Some(far) = RemoteHome::new(&bin) else {
        return;
    };
    let far_model = server(far_stalls()).await;
    let sshd = Sshd::start(far, &far_model.url(), true).await;
    let fake = server(Script::turns([remote_call(
        "toolu_agent",
        "Think it over",
        false,
    )]))
    .await;
    let ws = project(Some(&sshd.url()), json!({}));
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let events = RecordingSink::default();
    let session = parent(&ws.root(), &fake, approver, &events, sshd.ssh_command());
    let port = sshd.port;
    let (outcome, running) = tokio::join!(session.send("send an agent over"), async {
        until_it_speaks(&events, "toolu_agent").await;
        let running = ssh_to(port);
        session.interrupt();
        running
    });
    assert!(!running.is_empty(), "no ssh ran to port {port}");
    assert_eq!(
        outcome.expect("turn").stop_reason,
        TurnStopReason::Interrupted
    );
    // The far side was told and its connection closed: nothing is left running to it.
    until_no_ssh_to(port).await;
    let (outcome, _) = result_of(&events.events(), "toolu_agent").expect("result");
    assert_eq!(outcome, ToolOutcome::Cancelled);
    // Only the parent's request and the far side's one: nothing went on after the interrupt.
    assert_eq!(fake.requests().len(), 1);
}

#[tokio::test]
async fn subagent_start_and_stop_hooks_run_here_for_a_remote_sub_agent() {
    let Some(bin) = built_tandem() else { return };
    let Some(far) = RemoteHome::new(&bin) else {
        return;
    };
    let far_model = server(Script::turns([ScriptedTurn::text("Heron noted.")])).await;
    let sshd = Sshd::start(far, &far_model.url(), true).await;
    let fake = server(Script::turns([
        remote_call("toolu_agent", "Note the bird", false),
        ScriptedTurn::text("Done."),
    ]))
    .await;
    let dir = tempfile::tempdir().expect("hook folder");
    let (start, stop) = (dir.path().join("start.json"), dir.path().join("stop.json"));
    let added = r#"{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"The codeword is heron."}}"#;
    let ws = Workspace::new(&[(
        ".claude/settings.local.json",
        &json!({
            "remoteAgentHost": sshd.url(),
            "hooks": {
                "SubagentStart": [{"hooks": [{"type": "command", "command": format!("cat > {}; echo '{added}'", start.display())}]}],
                "SubagentStop": [{"hooks": [{"type": "command", "command": format!("cat > {}", stop.display())}]}],
            },
        })
        .to_string(),
    )])
    .expect("workspace");
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let events = RecordingSink::default();
    let session = parent(&ws.root(), &fake, approver, &events, sshd.ssh_command());
    session.settings().assume_trusted();
    session.send("send an agent over").await.expect("turn");

    let read = |p: &Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(p).expect("hook ran")).expect("json")
    };
    let (start, stop) = (read(&start), read(&stop));
    assert_eq!(start["hook_event_name"], "SubagentStart");
    assert_eq!(start["agent_type"], "general-purpose");
    assert_eq!(stop["hook_event_name"], "SubagentStop");
    assert_eq!(start["agent_id"], stop["agent_id"]);
    // The far side got the task with the type's instructions and what the hook added.
    let far_prompt = far_model.requests()[0].body["messages"][0].to_string();
    for part in [
        "<agent-instructions>",
        "Note the bird",
        "The codeword is heron.",
    ] {
        assert!(far_prompt.contains(part), "{part}: {far_prompt}");
    }
}
