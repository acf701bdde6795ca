//! What PostToolUse hooks receive as `tool_response`: a real hook captures its stdin for each call of a turn that
//! writes, reads, edits, runs, finds, plans and starts a sub-agent; each tool's response has the fields hooks written for Claude Code
//! read (`filePath`, `structuredPatch`, `stdout`, `filenames`, ...) with the call's real values, and fits the
//! output schema the tool declares.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::model::AnthropicModel;
use tandem_engine::session::{EndReason, Session};
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_engine::tools::responses::{
    self, AgentResponse, BashResponse, EditResponse, GlobResponse, GrepResponse, ReadResponse,
    TodoWriteResponse, WriteResponse,
};
use tandem_protocol::ApprovalChoice;

use super::common::{fake_config, server};

/// The calls of the turn, by id: (tool, input).
fn calls() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "w1",
            "Write",
            json!({"file_path": "notes.txt", "content": "alpha\nbeta\n"}),
        ),
        ("r1", "Read", json!({"file_path": "notes.txt"})),
        (
            "e1",
            "Edit",
            json!({"file_path": "notes.txt", "old_string": "beta", "new_string": "gamma"}),
        ),
        (
            "w2",
            "Write",
            json!({"file_path": "notes.txt", "content": "one line\n"}),
        ),
        (
            "b1",
            "Bash",
            json!({"command": "echo hello from the shell"}),
        ),
        ("b2", "Bash", json!({"command": "grep -q absent notes.txt"})),
        ("g1", "Glob", json!({"pattern": "*.txt"})),
        (
            "g2",
            "Grep",
            json!({"pattern": "one", "output_mode": "files_with_matches"}),
        ),
        (
            "g3",
            "Grep",
            json!({"pattern": "line", "output_mode": "count"}),
        ),
        (
            "t1",
            "TodoWrite",
            json!({"todos": [{"content": "Check", "status": "in_progress", "activeForm": "Checking"}]}),
        ),
        (
            "a1",
            "Agent",
            json!({"description": "Look", "prompt": "Find the notes", "subagent_type": "Explore"}),
        ),
    ]
}

/// The schema each tool declares, to hold its response to.
fn schema_of(tool: &str) -> Value {
    match tool {
        "Write" => responses::schema::<WriteResponse>(),
        "Read" => responses::schema::<ReadResponse>(),
        "Edit" => responses::schema::<EditResponse>(),
        "Bash" => responses::schema::<BashResponse>(),
        "Glob" => responses::schema::<GlobResponse>(),
        "Grep" => responses::schema::<GrepResponse>(),
        "TodoWrite" => responses::schema::<TodoWriteResponse>(),
        "Agent" => responses::schema::<AgentResponse>(),
        other => panic!("no schema for {other}"),
    }
    .expect("a schema")
}

async fn wait_for_inputs(dir: &Path, count: usize) -> BTreeMap<String, Value> {
    loop {
        let mut found = BTreeMap::new();
        for entry in std::fs::read_dir(dir).expect("dir").flatten() {
            if let Ok(text) = std::fs::read_to_string(entry.path())
                && let Ok(value) = serde_json::from_str::<Value>(&text)
                && let Some(id) = value["tool_use_id"].as_str()
            {
                found.insert(id.to_string(), value);
            }
        }
        if found.len() >= count {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn post_tool_use_hooks_receive_each_tools_response_in_its_own_shape() {
    let ws = Workspace::new(&[]).expect("workspace");
    let out = tempfile::tempdir().expect("tempdir");
    let hook = format!(
        "f=$(mktemp -p '{}' post-XXXXXX.json) && cat > \"$f\"",
        out.path().display()
    );
    std::fs::create_dir_all(ws.root().join(".claude")).expect("mkdir");
    std::fs::write(
        ws.root().join(".claude/settings.json"),
        json!({"hooks": {"PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": hook}]}]}})
            .to_string(),
    )
    .expect("write");
    let mut turns = Vec::new();
    for (id, tool, input) in calls() {
        turns.push(ScriptedTurn::tool_use(id, tool, input));
        if tool == "Agent" {
            // The sub-agent's own request.
            turns.push(ScriptedTurn::text("The notes are in notes.txt."));
        }
    }
    turns.push(ScriptedTurn::text("done"));
    let fake = server(Script::turns(turns)).await;
    let config = fake_config(&fake.url());
    let s = Session::builder(&ws.root())
        .expect("folder")
        .model_client(Arc::new(
            AnthropicModel::new(config.clone()).expect("client"),
        ))
        .model(config)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)))
        .build()
        .expect("session");
    s.settings().assume_trusted();
    s.send("go").await.expect("turn");
    s.end(EndReason::Other).await;

    let got = wait_for_inputs(out.path(), calls().len()).await;
    for (id, tool, _) in calls() {
        let response = &got[id]["tool_response"];
        let validator = jsonschema::validator_for(&schema_of(tool)).expect("schema");
        assert!(
            validator.is_valid(response),
            "{id} ({tool}): {response} does not fit its schema"
        );
    }
    let file = ws.root().join("notes.txt").display().to_string();
    let r = |id: &str| {
        got.get(id)
            .unwrap_or_else(|| panic!("no PostToolUse input for {id}: {:?}", got.keys()))["tool_response"]
            .clone()
    };

    let w1 = r("w1");
    assert_eq!(w1["type"], "create");
    assert_eq!(w1["filePath"], file.as_str());
    assert_eq!(w1["content"], "alpha\nbeta\n");
    assert_eq!(w1["originalFile"], Value::Null);
    assert_eq!(
        w1["structuredPatch"][0]["lines"],
        json!(["+alpha", "+beta"])
    );

    let r1 = r("r1");
    assert_eq!(r1["type"], "text");
    assert_eq!(r1["file"]["filePath"], file.as_str());
    assert_eq!(r1["file"]["content"], "alpha\nbeta");
    assert_eq!(r1["file"]["numLines"], 2);
    assert_eq!(r1["file"]["startLine"], 1);
    assert_eq!(r1["file"]["totalLines"], 2);

    let e1 = r("e1");
    assert_eq!(e1["filePath"], file.as_str());
    assert_eq!(
        (e1["oldString"].clone(), e1["newString"].clone()),
        (json!("beta"), json!("gamma"))
    );
    assert_eq!(e1["originalFile"], "alpha\nbeta\n");
    assert_eq!(e1["userModified"], false);
    assert_eq!(e1["replaceAll"], false);
    let lines = e1["structuredPatch"][0]["lines"].as_array().expect("lines");
    assert!(
        lines.contains(&json!("-beta")) && lines.contains(&json!("+gamma")),
        "{e1}"
    );

    let w2 = r("w2");
    assert_eq!(w2["type"], "update");
    assert_eq!(w2["originalFile"], "alpha\ngamma\n");

    let b1 = r("b1");
    assert_eq!(
        b1["stdout"].as_str().map(str::trim),
        Some("hello from the shell")
    );
    assert_eq!(
        (b1["stderr"].clone(), b1["interrupted"].clone()),
        (json!(""), json!(false))
    );
    assert!(b1.get("returnCodeInterpretation").is_none());
    let b2 = r("b2");
    assert!(
        b2["returnCodeInterpretation"].as_str().is_some(),
        "grep finding nothing is an answer: {b2}"
    );

    let g1 = r("g1");
    assert_eq!(g1["numFiles"], 1);
    assert!(
        g1["filenames"][0]
            .as_str()
            .expect("a name")
            .ends_with("notes.txt"),
        "{g1}"
    );
    assert_eq!(g1["truncated"], false);
    let g2 = r("g2");
    assert_eq!(g2["mode"], "files_with_matches");
    assert_eq!(g2["numFiles"], 1);
    assert!(
        g2["filenames"][0]
            .as_str()
            .expect("a name")
            .ends_with("notes.txt"),
        "{g2}"
    );
    let g3 = r("g3");
    assert_eq!(g3["mode"], "count");
    assert_eq!(g3["numMatches"], 1);

    let a1 = r("a1");
    assert_eq!(a1["status"], "completed");
    assert_eq!(a1["prompt"], "Find the notes");
    assert_eq!(
        a1["content"],
        json!([{"type": "text", "text": "The notes are in notes.txt."}])
    );
    assert_eq!(a1["totalToolUseCount"], 0);
    assert!(
        a1["agentId"].as_str().is_some_and(|id| !id.is_empty()),
        "{a1}"
    );
    assert!(a1["usage"]["input_tokens"].is_u64(), "{a1}");

    let t1 = r("t1");
    assert_eq!(t1["oldTodos"], json!([]));
    assert_eq!(
        t1["newTodos"],
        json!([{"content": "Check", "status": "in_progress", "activeForm": "Checking"}])
    );
}
