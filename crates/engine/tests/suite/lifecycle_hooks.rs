//! The session's own hook events against real hook scripts (each writes its stdin to a file): SessionStart with
//! its source (startup, resume, compact) and its context reaching the model, SessionEnd with its reason,
//! Notification when a dialog waits and when the model waits idle, and the transcript file every hook is given
//! (a sub-agent's own for SubagentStop), kept current as the session goes.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::approver::FixedApprover;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::AnthropicModel;
use tandem_engine::session::{EndReason, Session};
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::ApprovalChoice;

use super::common::{fake_config, server, session, stored_session};

fn settings(root: &Path, hooks: Value) {
    let dir = root.join(".claude");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(
        dir.join("settings.json"),
        json!({ "hooks": hooks }).to_string(),
    )
    .expect("write");
}

/// A hook group that writes its stdin to `file` (and prints `output`, when given).
fn capture(matcher: Option<&str>, file: &Path, output: Option<Value>) -> Value {
    let mut command = format!("cat > '{}'", file.display());
    if let Some(output) = output {
        command.push_str(&format!("; echo '{output}'"));
    }
    let mut group = json!({"hooks": [{"type": "command", "command": command}]});
    if let Some(m) = matcher {
        group["matcher"] = json!(m);
    }
    group
}

fn read(file: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(file).expect("the hook ran")).expect("json")
}

fn transcript_lines(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("the transcript")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

async fn wait_for_file(file: &Path) -> Value {
    loop {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Ok(value) = serde_json::from_str(&text)
        {
            return value;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn last_user_text(body: &Value) -> String {
    let messages = body["messages"].as_array().expect("messages");
    messages
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .map(|m| m["content"].to_string())
        .unwrap_or_default()
}

#[tokio::test]
async fn session_start_fires_once_with_its_source_and_its_context_reaches_the_model() {
    let ws = Workspace::new(&[]).expect("workspace");
    let start = ws.path("start.json");
    let compact = ws.path("compact.json");
    let context = json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx-from-start"}});
    let compacted = json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx-after-compact"}});
    settings(
        &ws.root(),
        json!({"SessionStart": [
            capture(Some("startup"), &start, Some(context)),
            capture(Some("compact"), &compact, Some(compacted)),
        ]}),
    );
    let fake = server(Script::turns([
        ScriptedTurn::text("one"),
        ScriptedTurn::text("two"),
        ScriptedTurn::text("the summary"),
        ScriptedTurn::text("three"),
    ]))
    .await;
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        RecordingSink::default(),
    );
    s.settings().assume_trusted();
    s.send("hello").await.expect("turn");
    let stdin = read(&start);
    assert_eq!(stdin["hook_event_name"], "SessionStart");
    assert_eq!(stdin["source"], "startup");
    assert_eq!(stdin["session_id"], s.id());
    assert!(
        !compact.exists(),
        "the compact matcher does not match a start-up"
    );
    let first = last_user_text(&fake.requests()[0].body);
    assert!(
        first.contains("ctx-from-start") && first.contains("hello"),
        "{first}"
    );

    std::fs::remove_file(&start).expect("rm");
    s.send("again").await.expect("turn");
    assert!(!start.exists(), "SessionStart fires once");
    let second = last_user_text(&fake.requests()[1].body);
    assert!(!second.contains("ctx-from-start"), "{second}");

    // A compaction starts the conversation again from its summary.
    s.send("/compact").await.expect("compacted");
    let stdin = read(&compact);
    assert_eq!(stdin["source"], "compact");
    s.send("after").await.expect("turn");
    let requests = fake.requests();
    let after = requests.last().expect("a request").body["messages"][0].to_string();
    assert!(after.contains("ctx-after-compact"), "{after}");
}

#[tokio::test]
async fn a_reopened_session_starts_with_source_resume_and_session_end_fires_once_with_its_reason() {
    let ws = Workspace::new(&[]).expect("workspace");
    let start = ws.path("start.json");
    let end = ws.path("end.json");
    settings(
        &ws.root(),
        json!({
            "SessionStart": [capture(None, &start, None)],
            "SessionEnd": [capture(None, &end, None)],
        }),
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SessionStore::open(&dir.path().join("sessions.db")).expect("store"));
    let fake = server(Script::turns([
        ScriptedTurn::text("first"),
        ScriptedTurn::text("second"),
    ]))
    .await;
    let id = {
        let s = stored_session(ws.root(), store.clone(), &fake, None);
        s.settings().assume_trusted();
        s.send("hello").await.expect("turn");
        assert_eq!(read(&start)["source"], "startup");
        s.end(EndReason::Clear).await;
        let stdin = read(&end);
        assert_eq!(stdin["hook_event_name"], "SessionEnd");
        assert_eq!(stdin["reason"], "clear");
        std::fs::remove_file(&end).expect("rm");
        s.end(EndReason::Other).await;
        assert!(!end.exists(), "SessionEnd fires once");
        s.id().to_string()
    };
    tandem_engine::testing::wait_released(&store, &id).await;
    let s = stored_session(ws.root(), store.clone(), &fake, Some(&id));
    s.settings().assume_trusted();
    s.send("back").await.expect("turn");
    assert_eq!(read(&start)["source"], "resume");
    // The reopened session's transcript holds the stored conversation and the new turn.
    let path = read(&start)["transcript_path"]
        .as_str()
        .expect("a path")
        .to_string();
    let texts: Vec<String> = transcript_lines(&path)
        .iter()
        .map(|l| l["message"]["content"].to_string())
        .collect();
    assert_eq!(texts.len(), 4, "{texts:?}");
    assert!(
        texts[0].contains("hello") && texts[3].contains("second"),
        "{texts:?}"
    );
}

#[tokio::test]
async fn every_hook_gets_the_transcript_kept_current_and_a_sub_agents_own_for_subagent_stop() {
    let ws = Workspace::new(&[]).expect("workspace");
    let pre = ws.path("pre.json");
    let snapshot = ws.path("at-pre.jsonl");
    let stop = ws.path("stop.json");
    let sub_stop = ws.path("sub-stop.json");
    // The PreToolUse hook copies the transcript as it is while the call waits.
    let copy = format!(
        "in=$(cat); printf '%s' \"$in\" > '{}'; p=$(printf '%s' \"$in\" | sed -n 's/.*\"transcript_path\":\"\\([^\"]*\\)\".*/\\1/p'); cp \"$p\" '{}'",
        pre.display(),
        snapshot.display()
    );
    settings(
        &ws.root(),
        json!({
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": copy}]}],
            "Stop": [capture(None, &stop, None)],
            "SubagentStop": [capture(None, &sub_stop, None)],
        }),
    );
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("b1", "Bash", json!({"command": "echo hi"})),
        ScriptedTurn::tool_use(
            "a1",
            "Agent",
            json!({"description": "Look", "prompt": "look around", "subagent_type": "Explore"}),
        ),
        ScriptedTurn::text("nothing to see"),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(FixedApprover(ApprovalChoice::Allow)),
        RecordingSink::default(),
    );
    s.settings().assume_trusted();
    s.send("look").await.expect("turn");

    let path = read(&pre)["transcript_path"]
        .as_str()
        .expect("a path")
        .to_string();
    assert!(
        path.ends_with(&format!("{}/transcript.jsonl", s.id())),
        "{path}"
    );
    // While the call waited, the transcript held the prompt and the message that asked for the call.
    let at_pre: Vec<Value> = std::fs::read_to_string(&snapshot)
        .expect("copied")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(at_pre.len(), 2, "{at_pre:?}");
    assert_eq!(at_pre[0]["message"]["content"], "look");
    assert_eq!(at_pre[1]["type"], "assistant");
    assert_eq!(at_pre[1]["message"]["content"][0]["type"], "tool_use");
    assert_eq!(at_pre[1]["message"]["content"][0]["id"], "b1");
    assert_eq!(at_pre[1]["parentUuid"], at_pre[0]["uuid"]);

    // The Stop hook reads the whole turn, its last line the final answer.
    let stop = read(&stop);
    assert_eq!(stop["transcript_path"], path);
    let lines = transcript_lines(&path);
    let last = lines.last().expect("lines");
    assert_eq!(last["type"], "assistant");
    assert_eq!(last["message"]["content"][0]["text"], "done");
    assert_eq!(last["message"]["stop_reason"], "end_turn");

    // The sub-agent's own transcript: its prompt and its answer, as a sidechain.
    let sub = read(&sub_stop);
    assert_eq!(sub["transcript_path"], path);
    let own = sub["agent_transcript_path"].as_str().expect("its path");
    let agent_id = sub["agent_id"].as_str().expect("its id");
    assert!(
        own.ends_with(&format!("subagents/agent-{agent_id}.jsonl")),
        "{own}"
    );
    let own = transcript_lines(own);
    assert_eq!(own.len(), 2, "{own:?}");
    assert_eq!(own[0]["message"]["content"], "look around");
    assert_eq!(own[1]["message"]["content"][0]["text"], "nothing to see");
    assert!(
        own.iter()
            .all(|l| l["isSidechain"] == true && l["agentId"] == agent_id)
    );
}

/// An interactive session (as the window opens them) on `root`.
fn interactive(root: &Path, url: &str, idle: Duration) -> Session {
    let config = fake_config(url);
    Session::builder(root)
        .expect("folder")
        .model_client(Arc::new(
            AnthropicModel::new(config.clone()).expect("client"),
        ))
        .model(config)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)))
        .interactive(true)
        .idle_notification_after(idle)
        .build()
        .expect("session")
}

#[tokio::test]
async fn notification_hooks_hear_of_a_waiting_dialog_and_of_the_model_waiting_idle() {
    let ws = Workspace::new(&[]).expect("workspace");
    let asked = ws.path("asked.json");
    let idle = ws.path("idle.json");
    settings(
        &ws.root(),
        json!({"Notification": [
            capture(Some("permission_prompt"), &asked, None),
            capture(Some("idle_prompt"), &idle, None),
        ]}),
    );
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "w1",
            "Write",
            json!({"file_path": "new.txt", "content": "x"}),
        ),
        ScriptedTurn::text("could not"),
    ]))
    .await;
    let s = interactive(&ws.root(), &fake.url(), Duration::from_millis(200));
    s.settings().assume_trusted();
    s.send("write it").await.expect("turn");

    let stdin = wait_for_file(&asked).await;
    assert_eq!(stdin["hook_event_name"], "Notification");
    assert_eq!(stdin["notification_type"], "permission_prompt");
    assert_eq!(
        stdin["message"],
        "Tandem needs your permission to use Write"
    );
    let stdin = wait_for_file(&idle).await;
    assert_eq!(stdin["notification_type"], "idle_prompt");
    assert_eq!(stdin["message"], "Tandem is waiting for your input");
}

#[tokio::test]
async fn an_agents_own_hooks_apply_while_it_runs_and_its_stop_is_a_subagent_stop() {
    let ws = Workspace::new(&[]).expect("workspace");
    let pre = ws.path("agent-pre.json");
    let stop = ws.path("agent-stop.json");
    std::fs::create_dir_all(ws.root().join(".claude/agents")).expect("mkdir");
    std::fs::write(
        ws.root().join(".claude/agents/guarded.md"),
        format!(
            "---\nname: guarded\ndescription: Runs commands under a guard\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: \"cat > '{}'; echo 'the guard says no' >&2; exit 2\"\n  Stop:\n    - hooks:\n        - type: command\n          command: \"cat > '{}'\"\n---\nYou run commands.\n",
            pre.display(),
            stop.display()
        ),
    )
    .expect("agent file");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "a1",
            "Agent",
            json!({"description": "Run it", "prompt": "run echo", "subagent_type": "guarded"}),
        ),
        ScriptedTurn::tool_use("cb1", "Bash", json!({"command": "echo child"})),
        ScriptedTurn::text("the guard stopped me"),
        ScriptedTurn::tool_use("pb1", "Bash", json!({"command": "echo parent"})),
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
    s.settings().assume_trusted();
    s.send("go").await.expect("turn");

    assert!(
        !events.events().iter().any(|e| matches!(e,
            tandem_protocol::SessionEvent::Notice { message } if message.contains("guarded.md"))),
        "the agent file loads without warnings"
    );
    // The agent's PreToolUse hook ran for its own call (and blocked it), not for the parent's later one.
    let stdin = read(&pre);
    assert_eq!(stdin["tool_use_id"], "cb1");
    let child_result = fake.requests()[2].body.to_string();
    assert!(child_result.contains("the guard says no"), "{child_result}");
    let parent_result = fake.requests()[4].body.to_string();
    assert!(parent_result.contains("parent"), "{parent_result}");
    assert!(
        !parent_result.contains("the guard says no"),
        "{parent_result}"
    );
    // Its Stop hook ran as SubagentStop when it ended.
    let stdin = read(&stop);
    assert_eq!(stdin["hook_event_name"], "SubagentStop");
    assert_eq!(stdin["agent_type"], "guarded");
}
