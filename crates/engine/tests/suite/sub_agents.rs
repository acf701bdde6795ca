//! Sub-agents (the Agent tool) against the fake model server: the child's own requests (its system prompt and tool
//! pool), its answer as the parent's tool result, questions bubbling to the parent's approver, custom agent files,
//! `Agent(type)` deny rules, interrupts, and the SubagentStart / SubagentStop hooks.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{FakeServer, Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, SessionEvent, ToolDetail, ToolOutcome, TurnStopReason};

use super::common::{offered, server, session};

fn deny_all() -> Arc<ScriptedApprover> {
    Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny))
}

/// The description of the tool `name` in a request.
fn description_of(body: &Value, name: &str) -> String {
    body["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == name))
        .and_then(|t| t["description"].as_str())
        .unwrap_or_default()
        .to_string()
}

fn system_text(body: &Value) -> String {
    body["system"].to_string()
}

/// The tool_result blocks of the last message of a request.
fn last_results(body: &Value) -> Vec<Value> {
    body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_array())
        .map(|c| {
            c.iter()
                .filter(|b| b["type"] == "tool_result")
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

fn result_of(
    events: &[SessionEvent],
    id: &str,
) -> Option<(ToolOutcome, String, Option<ToolDetail>)> {
    events.iter().find_map(|e| match e {
        SessionEvent::ToolCallResult {
            tool_use_id,
            outcome,
            content,
            detail,
        } if tool_use_id == id => Some((*outcome, content.clone(), detail.clone())),
        _ => None,
    })
}

fn agent_call(id: &str, input: Value) -> ScriptedTurn {
    ScriptedTurn::tool_use(id, "Agent", input)
}

fn write_file(ws: &Workspace, rel: &str, text: &str) {
    let path = ws.root().join(rel);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

#[tokio::test]
async fn explore_reads_a_file_and_its_answer_is_the_parents_tool_result() {
    let ws = Workspace::new(&[("notes.txt", "the launch code is 4321\n")]).expect("workspace");
    let notes = ws.path("notes.txt").display().to_string();
    let fake = server(Script::turns([
        agent_call(
            "a1",
            json!({"description": "Find the code", "prompt": "What is the launch code in notes.txt?", "subagent_type": "Explore"}),
        ),
        ScriptedTurn::tool_use("r1", "Read", json!({"file_path": notes})),
        ScriptedTurn::text("The launch code is 4321."),
        ScriptedTurn::text("It is 4321."),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());
    let outcome = s.send("find the launch code").await.expect("turn");
    assert_eq!(outcome.final_text, "It is 4321.");

    let requests = fake.requests();
    assert_eq!(requests.len(), 4);
    let parent = &requests[0].body;
    assert!(offered(parent).contains(&"Agent".to_string()));
    let description = description_of(parent, "Agent");
    for kind in [
        "- general-purpose:",
        "- Explore:",
        "- Plan:",
        "- verification:",
        "- claude-code-guide:",
    ] {
        assert!(description.contains(kind), "{description}");
    }
    // The child's requests: its own system prompt and only read-only tools.
    let child = &requests[1].body;
    assert!(
        system_text(child).contains("file search specialist"),
        "{}",
        system_text(child)
    );
    assert!(!system_text(child).contains("You are Tandem"));
    assert_eq!(offered(child), vec!["Glob", "Grep", "Read", "WebFetch"]);
    assert_eq!(
        child["messages"][0]["content"][0]["text"],
        "What is the launch code in notes.txt?"
    );
    assert!(
        last_results(&requests[2].body)[0]["content"]
            .to_string()
            .contains("4321")
    );
    // The parent gets the child's answer as the Agent call's result.
    let results = last_results(&requests[3].body);
    assert_eq!(results[0]["tool_use_id"], "a1");
    assert!(
        results[0]["content"]
            .to_string()
            .contains("The launch code is 4321.")
    );

    let events = events.events();
    let (result, _, detail) = result_of(&events, "a1").expect("the Agent call's result");
    assert_eq!(result, ToolOutcome::Success);
    match detail {
        Some(ToolDetail::SubAgent {
            agent_type,
            tool_calls,
            usage,
            description,
            ..
        }) => {
            assert_eq!(agent_type, "Explore");
            assert_eq!(description, "Find the code");
            assert_eq!(tool_calls, 1);
            assert_eq!(
                usage.input_tokens, 20,
                "two child requests of 10 input tokens"
            );
        }
        other => panic!("expected a SubAgent detail, got {other:?}"),
    }
    // The child's own events reach the sink wrapped, tagged with the parent's call; none leak unwrapped.
    assert!(events.iter().any(|e| matches!(e,
        SessionEvent::SubAgent { parent_tool_use_id, event, .. }
            if parent_tool_use_id == "a1" && matches!(event.as_ref(), SessionEvent::ToolCallResult { tool_use_id, .. } if tool_use_id == "r1"))));
    assert!(result_of(&events, "r1").is_none());
    let turns_started = events
        .iter()
        .filter(|e| matches!(e, SessionEvent::TurnStarted { .. }))
        .count();
    assert_eq!(
        turns_started, 1,
        "only the parent's turn is a turn of the session"
    );
}

#[tokio::test]
async fn a_general_purpose_childs_write_asks_the_parents_approver_naming_the_agent() {
    let ws = Workspace::new(&[]).expect("workspace");
    let target = ws.path("out.txt");
    let fake = server(Script::turns([
        agent_call(
            "a1",
            json!({"description": "Write a file", "prompt": "Write out.txt"}),
        ),
        ScriptedTurn::tool_use(
            "w1",
            "Write",
            json!({"file_path": target.display().to_string(), "content": "hello\n"}),
        ),
        ScriptedTurn::text("Written."),
        ScriptedTurn::text("The agent wrote it."),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new(
        [ApprovalChoice::Allow],
        ApprovalChoice::Deny,
    ));
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), events.clone());
    s.send("delegate the write").await.expect("turn");

    let asked = approver.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].tool_name, "Write");
    assert_eq!(asked[0].tool_use_id, "w1");
    let origin = asked[0].sub_agent.as_ref().expect("names the sub-agent");
    assert_eq!(origin.agent_type, "general-purpose");
    assert_eq!(origin.description, "Write a file");
    assert_eq!(origin.parent_tool_use_id, "a1");
    assert!(!origin.agent_id.is_empty());
    assert_eq!(
        std::fs::read_to_string(&target).expect("written"),
        "hello\n"
    );
    // The question is shown to the person as any other (not wrapped), naming the agent.
    assert!(events.events().iter().any(|e| matches!(e,
        SessionEvent::ApprovalRequested { request }
            if request.sub_agent.as_ref().is_some_and(|o| o.parent_tool_use_id == "a1" && o.description == "Write a file"))));
    let child_tools = offered(&fake.requests()[1].body);
    for tool in ["Bash", "Edit", "Read", "Write"] {
        assert!(child_tools.contains(&tool.to_string()), "{child_tools:?}");
    }
    for tool in ["Agent", "TaskOutput", "TaskStop"] {
        assert!(!child_tools.contains(&tool.to_string()), "{child_tools:?}");
    }
}

const READER: &str = "---\nname: reader\ndescription: Reads files and reports\ntools: Read, Grep\nmaxTurns: 5\n---\nYou are the reader agent. Only read.\n";

#[tokio::test]
async fn a_tool_outside_a_custom_agents_list_is_not_in_its_pool() {
    let ws = Workspace::new(&[]).expect("workspace");
    write_file(&ws, ".claude/agents/reader.md", READER);
    let target = ws.path("nope.txt");
    let fake = server(Script::turns([
        agent_call(
            "a1",
            json!({"description": "Read", "prompt": "Try to write", "subagent_type": "reader"}),
        ),
        ScriptedTurn::tool_use(
            "w1",
            "Write",
            json!({"file_path": target.display().to_string(), "content": "x"}),
        ),
        ScriptedTurn::text("I could not write."),
        ScriptedTurn::text("ok"),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = session(
        &ws.root(),
        &fake,
        approver.clone(),
        RecordingSink::default(),
    );
    s.send("go").await.expect("turn");

    let requests = fake.requests();
    assert!(
        description_of(&requests[0].body, "Agent")
            .contains("- reader: Reads files and reports (Tools: Read, Grep)")
    );
    assert_eq!(offered(&requests[1].body), vec!["Grep", "Read"]);
    assert!(system_text(&requests[1].body).contains("You are the reader agent."));
    let result = &last_results(&requests[2].body)[0];
    assert_eq!(result["is_error"], true);
    assert!(
        result["content"]
            .to_string()
            .contains("No such tool available: Write"),
        "{result}"
    );
    assert!(!target.exists());
    assert!(approver.asked().is_empty());
}

#[tokio::test]
async fn a_broken_agent_file_is_reported_while_the_others_load() {
    let ws = Workspace::new(&[]).expect("workspace");
    write_file(&ws, ".claude/agents/reader.md", READER);
    write_file(
        &ws,
        ".claude/agents/broken.md",
        "---\nname: broken\ndescription: never closed\n",
    );
    write_file(
        &ws,
        ".claude/agents/odd.md",
        "---\nname: odd\ndescription: Odd one\nflavour: mint\n---\nOdd.\n",
    );
    let fake = server(Script::turns([ScriptedTurn::text("hi")])).await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());
    s.send("hello").await.expect("turn");

    let notices: Vec<String> = events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::Notice { message } => Some(message),
            _ => None,
        })
        .collect();
    assert!(
        notices.iter().any(|n| n.contains("not loaded")
            && n.contains("broken.md")
            && n.contains("not closed")),
        "{notices:?}"
    );
    assert!(
        notices
            .iter()
            .any(|n| n.contains("odd.md") && n.contains("flavour")),
        "{notices:?}"
    );
    let description = description_of(&fake.requests()[0].body, "Agent");
    assert!(description.contains("- reader:"), "{description}");
    assert!(description.contains("- odd:"), "{description}");
    assert!(!description.contains("broken"), "{description}");
}

#[tokio::test]
async fn an_agent_deny_rule_removes_the_type() {
    let ws = Workspace::new(&[]).expect("workspace");
    write_file(
        &ws,
        ".claude/settings.json",
        &json!({"permissions": {"deny": ["Agent(Explore)"]}}).to_string(),
    );
    let fake = server(Script::turns([
        agent_call(
            "a1",
            json!({"description": "Look", "prompt": "look around", "subagent_type": "Explore"}),
        ),
        ScriptedTurn::text("could not"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());
    s.settings().assume_trusted();
    s.send("explore").await.expect("turn");

    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "no child request was made");
    let description = description_of(&requests[0].body, "Agent");
    assert!(!description.contains("- Explore:"), "{description}");
    assert!(description.contains("- general-purpose:"), "{description}");
    let (outcome, content, _) = result_of(&events.events(), "a1").expect("a result");
    assert_ne!(outcome, ToolOutcome::Success, "{content}");
    assert!(content.contains("Explore"), "{content}");
}

#[tokio::test]
async fn interrupting_the_parent_stops_the_child() {
    let ws = Workspace::new(&[]).expect("workspace");
    let mut slow = ScriptedTurn::text("never seen");
    slow.delay_before_ms = 60_000;
    let fake: Arc<FakeServer> = Arc::new(
        server(Script::turns([
            agent_call("a1", json!({"description": "Slow", "prompt": "take your time", "subagent_type": "Explore"})),
            slow,
            ScriptedTurn::text("spare"),
        ]))
        .await,
    );
    let events = RecordingSink::default();
    let s = Arc::new(session(&ws.root(), &fake, deny_all(), events.clone()));
    let running = {
        let s = s.clone();
        tokio::spawn(async move { s.send("go").await })
    };
    // Wait until the child's request has reached the model.
    while fake.requests().len() < 2 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    s.interrupt();
    let outcome = running.await.expect("joined").expect("turn");
    assert_eq!(outcome.stop_reason, TurnStopReason::Interrupted);
    let (result, _, _) = result_of(&events.events(), "a1").expect("a result");
    assert_eq!(result, ToolOutcome::Cancelled);
    assert_eq!(
        fake.requests().len(),
        2,
        "the child made no further request"
    );
    assert_eq!(fake.remaining(), 1);
}

#[tokio::test]
async fn subagent_start_and_stop_hooks_get_the_agents_fields() {
    let ws = Workspace::new(&[]).expect("workspace");
    let start = ws.path("start.json");
    let stop = ws.path("stop.json");
    write_file(
        &ws,
        ".claude/settings.json",
        &json!({"hooks": {
            "SubagentStart": [{"hooks": [{"type": "command", "command": format!("cat > {}", start.display())}]}],
            "SubagentStop": [{"hooks": [{"type": "command", "command": format!("cat > {}", stop.display())}]}],
        }})
        .to_string(),
    );
    let fake = server(Script::turns([
        agent_call(
            "a1",
            json!({"description": "Plan it", "prompt": "plan", "subagent_type": "Plan"}),
        ),
        ScriptedTurn::text("1. do it"),
        ScriptedTurn::text("planned"),
    ]))
    .await;
    let s = session(&ws.root(), &fake, deny_all(), RecordingSink::default());
    s.settings().assume_trusted();
    s.send("plan").await.expect("turn");

    let read = |p: &std::path::Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(p).expect("hook ran")).expect("json")
    };
    let start = read(&start);
    let stop = read(&stop);
    assert_eq!(start["hook_event_name"], "SubagentStart");
    assert_eq!(start["agent_type"], "Plan");
    assert_eq!(stop["hook_event_name"], "SubagentStop");
    assert_eq!(stop["agent_type"], "Plan");
    assert_eq!(stop["stop_hook_active"], false);
    assert!(start["agent_id"].as_str().is_some_and(|id| !id.is_empty()));
    assert_eq!(start["agent_id"], stop["agent_id"]);
}

#[tokio::test]
async fn a_background_agent_returns_a_task_id_and_taskoutput_reads_its_answer() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        agent_call(
            "a1",
            json!({"description": "Look around", "prompt": "summarise", "subagent_type": "Explore", "run_in_background": true}),
        ),
        // The parent's next request and the child's first race: both get the same answer.
        ScriptedTurn::text("all quiet"),
        ScriptedTurn::text("all quiet"),
        ScriptedTurn::tool_use(
            "t1",
            "TaskOutput",
            json!({"task_id": "agent-a1", "block": true, "timeout": 60000}),
        ),
        ScriptedTurn::text("read it"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());
    s.send("start it").await.expect("turn");
    let (outcome, content, _) = result_of(&events.events(), "a1").expect("a result");
    assert_eq!(outcome, ToolOutcome::Success);
    assert!(content.contains("agent-a1"), "{content}");
    // Wait until the child's request has been answered too.
    while fake.requests().len() < 3 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    s.send("read it").await.expect("turn");
    let (outcome, content, detail) = result_of(&events.events(), "t1").expect("a result");
    assert_eq!(outcome, ToolOutcome::Success, "{content}");
    assert!(
        content.contains("is completed") && content.contains("all quiet"),
        "{content}"
    );
    assert!(
        matches!(detail, Some(ToolDetail::SubAgent { agent_type, .. }) if agent_type == "Explore")
    );
    let child_requests = fake
        .requests()
        .iter()
        .filter(|r| system_text(&r.body).contains("file search specialist"))
        .count();
    assert_eq!(child_requests, 1);
}

#[tokio::test]
async fn a_custom_agents_permission_mode_applies_to_its_calls_only() {
    let ws = Workspace::new(&[]).expect("workspace");
    write_file(
        &ws,
        ".claude/agents/writer.md",
        "---\nname: writer\ndescription: Writes files\ntools: Write\npermissionMode: acceptEdits\n---\nWrite what you are asked.\n",
    );
    let by_child = ws.path("child.txt");
    let by_parent = ws.path("parent.txt");
    let fake = server(Script::turns([
        agent_call(
            "a1",
            json!({"description": "Write", "prompt": "write child.txt", "subagent_type": "writer"}),
        ),
        ScriptedTurn::tool_use(
            "w1",
            "Write",
            json!({"file_path": by_child.display().to_string(), "content": "c"}),
        ),
        ScriptedTurn::text("written"),
        ScriptedTurn::tool_use(
            "w2",
            "Write",
            json!({"file_path": by_parent.display().to_string(), "content": "p"}),
        ),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = session(
        &ws.root(),
        &fake,
        approver.clone(),
        RecordingSink::default(),
    );
    s.send("go").await.expect("turn");

    assert!(
        by_child.exists(),
        "acceptEdits let the writer agent write without asking"
    );
    assert!(
        !by_parent.exists(),
        "the parent still asks (and was denied)"
    );
    let asked = approver.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].tool_use_id, "w2");
    assert_eq!(
        s.runtime().permission_context().mode,
        tandem_protocol::PermissionMode::Default
    );
}

#[tokio::test]
async fn a_blocking_subagent_stop_hook_makes_the_child_go_on() {
    let ws = Workspace::new(&[]).expect("workspace");
    write_file(
        &ws,
        ".claude/settings.json",
        &json!({"hooks": {"SubagentStop": [{"hooks": [{"type": "command",
            "command": "grep -q '\"stop_hook_active\":false' && echo '{\"decision\":\"block\",\"reason\":\"check twice\"}' || true"}]}]}})
        .to_string(),
    );
    let fake = server(Script::turns([
        agent_call(
            "a1",
            json!({"description": "Look", "prompt": "look", "subagent_type": "Explore"}),
        ),
        ScriptedTurn::text("first answer"),
        ScriptedTurn::text("checked answer"),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let s = session(&ws.root(), &fake, deny_all(), RecordingSink::default());
    s.settings().assume_trusted();
    s.send("go").await.expect("turn");

    let requests = fake.requests();
    assert_eq!(requests.len(), 4);
    assert!(
        requests[2].body["messages"]
            .to_string()
            .contains("SubagentStop hook feedback: check twice")
    );
    let result = &last_results(&requests[3].body)[0];
    assert!(
        result["content"].to_string().contains("checked answer"),
        "{result}"
    );
}

#[tokio::test]
async fn a_call_may_run_its_agent_in_a_stricter_mode_and_another_folder_but_not_a_wider_mode() {
    let ws = Workspace::new(&[("pkg/web/readme.md", "web\n")]).expect("workspace");
    let target = ws.path("pkg/web/out.txt");
    let fake = server(Script::turns([
        // A wider mode than the conversation's is refused before anything runs.
        agent_call(
            "a0",
            json!({"description": "Write freely", "prompt": "Write", "mode": "bypassPermissions"}),
        ),
        // Plan mode in pkg/web: its Bash runs there, its Write is refused without asking.
        agent_call(
            "a1",
            json!({"description": "Look around", "prompt": "Where are you?", "mode": "plan", "cwd": "pkg/web"}),
        ),
        ScriptedTurn::tool_use("b1", "Bash", json!({"command": "pwd"})),
        ScriptedTurn::tool_use(
            "w1",
            "Write",
            json!({"file_path": target.display().to_string(), "content": "x\n"}),
        ),
        ScriptedTurn::text("I am in pkg/web and could not write."),
        // A folder outside the working directories is refused.
        agent_call(
            "a2",
            json!({"description": "Escape", "prompt": "Go", "cwd": "/"}),
        ),
        ScriptedTurn::text("Done."),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), events.clone());
    let outcome = s.send("use agents").await.expect("turn");
    assert_eq!(outcome.final_text, "Done.");
    let events = events.events();

    let (refused, why, _) = result_of(&events, "a0").expect("a0");
    assert_eq!(refused, ToolOutcome::Error, "{why}");
    assert!(why.contains("more permissive"), "{why}");

    let requests = fake.requests();
    let child_system = system_text(&requests[2].body);
    let folder = std::fs::canonicalize(ws.path("pkg/web")).expect("canonical");
    assert!(
        child_system.contains(&format!("Working directory: {}", folder.display())),
        "{child_system}"
    );
    let pwd = last_results(&requests[3].body)[0]["content"].to_string();
    assert!(pwd.contains("pkg/web"), "{pwd}");
    let write = last_results(&requests[4].body)[0].to_string();
    assert!(
        write.contains("plan mode") || write.contains("Plan"),
        "{write}"
    );
    assert!(!target.exists(), "plan mode kept the file unwritten");
    assert!(
        approver.asked().is_empty(),
        "nothing asked: {:?}",
        approver.asked()
    );
    let (ok, answer, _) = result_of(&events, "a1").expect("a1");
    assert_eq!(ok, ToolOutcome::Success, "{answer}");

    let (escaped, why, _) = result_of(&events, "a2").expect("a2");
    assert_eq!(escaped, ToolOutcome::Error, "{why}");
    assert!(why.contains("outside the working directories"), "{why}");
}

/// `value` without its prompt-cache marks (they sit on the last blocks of each request).
fn without_cache_marks(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "cache_control")
                .map(|(k, v)| (k.clone(), without_cache_marks(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_cache_marks).collect()),
        other => other.clone(),
    }
}

#[tokio::test]
async fn a_fork_starts_from_the_parents_conversation_with_its_instructions() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("Noted: the code word is ZEBRA-4411."),
        agent_call(
            "f1",
            json!({"description": "Spell it", "prompt": "Spell the code word backwards.", "subagent_type": "fork"}),
        ),
        ScriptedTurn::text("1144-ARBEZ"),
        ScriptedTurn::text("Backwards it is 1144-ARBEZ."),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());
    s.send("Remember the code word ZEBRA-4411.")
        .await
        .expect("first turn");
    let outcome = s
        .send("Have a fork spell it backwards.")
        .await
        .expect("turn");
    assert_eq!(outcome.final_text, "Backwards it is 1144-ARBEZ.");

    let requests = fake.requests();
    assert_eq!(requests.len(), 4);
    let parent = &requests[1].body;
    assert!(
        description_of(parent, "Agent").contains("- fork: a copy of you"),
        "{}",
        description_of(parent, "Agent")
    );
    // The fork's request: the parent's instructions and its conversation up to the step that started it, then
    // the task.
    let fork = &requests[2].body;
    assert_eq!(
        fork["system"], parent["system"],
        "the parent's instructions"
    );
    let parent_messages = without_cache_marks(&parent["messages"]);
    let parent_messages = parent_messages.as_array().expect("messages");
    let fork_messages = without_cache_marks(&fork["messages"]);
    let fork_messages = fork_messages.as_array().expect("messages");
    let n = parent_messages.len();
    assert_eq!(fork_messages.len(), n, "{fork_messages:#?}");
    assert_eq!(
        fork_messages[..n - 1],
        parent_messages[..n - 1],
        "the conversation so far, as the parent sent it"
    );
    // The task joins the parent's last user message (one user turn, its blocks first).
    let last = fork_messages[n - 1]["content"].as_array().expect("blocks");
    let parents_last = parent_messages[n - 1]["content"]
        .as_array()
        .expect("blocks");
    assert_eq!(last[..parents_last.len()], parents_last[..]);
    let task = last[parents_last.len()..]
        .iter()
        .map(|b| b.to_string())
        .collect::<String>();
    assert!(task.contains("You are now a fork"), "{task}");
    assert!(task.contains("Spell the code word backwards."), "{task}");
    assert!(
        fork_messages[0].to_string().contains("ZEBRA-4411"),
        "the fork knows what was said before"
    );
    let tools = offered(fork);
    assert!(!tools.contains(&"Agent".to_string()), "{tools:?}");
    assert!(tools.contains(&"Bash".to_string()), "{tools:?}");
    // Its answer is the parent's tool result, reported as a fork.
    let results = last_results(&requests[3].body);
    assert_eq!(results[0]["tool_use_id"], "f1");
    assert!(results[0]["content"].to_string().contains("1144-ARBEZ"));
    match result_of(&events.events(), "f1") {
        Some((ToolOutcome::Success, _, Some(ToolDetail::SubAgent { agent_type, .. }))) => {
            assert_eq!(agent_type, "fork");
        }
        other => panic!("expected the fork's report, got {other:?}"),
    }
}

#[tokio::test]
async fn a_deny_rule_on_agent_fork_refuses_forks_only() {
    let ws = Workspace::new(&[(
        ".claude/settings.json",
        r#"{"permissions": {"deny": ["Agent(fork)"]}}"#,
    )])
    .expect("workspace");
    let fake = server(Script::turns([
        agent_call(
            "f1",
            json!({"description": "Side task", "prompt": "Do it.", "subagent_type": "fork"}),
        ),
        ScriptedTurn::text("Refused."),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());
    s.send("fork").await.expect("turn");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "no fork ran");
    match result_of(&events.events(), "f1") {
        Some((ToolOutcome::Denied, message, _)) => {
            assert!(message.contains("Agent(fork)"), "{message}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}
