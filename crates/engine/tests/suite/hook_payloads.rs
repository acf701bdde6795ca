//! Hook inputs as the hooks really read them and as the hooks panel shows them: one session with a capturing hook on
//! every event (each writes its stdin to its own file) goes through a turn with an asked call, a failing call, a
//! sub-agent, a compaction and its end; every captured input must have exactly the fields docs/hooks.md lists for
//! its event, the same fields as the panel's sample for that hook, and fit the published input schema. Also: the
//! schemas in `docs/hooks/schemas/` are the ones the types generate (`TANDEM_WRITE_GENERATED=1` writes them).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::hooks::{HookEvent, input_schema, output_schema};
use tandem_engine::model::AnthropicModel;
use tandem_engine::session::{EndReason, Session};
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::ApprovalChoice;

use super::common::{fake_config, server};

/// The fields every hook input has (docs/hooks.md §4).
const COMMON: &[&str] = &[
    "session_id",
    "transcript_path",
    "cwd",
    "permission_mode",
    "hook_event_name",
];

const TOOL_CALL: &[&str] = &["tool_name", "tool_input", "tool_use_id"];

/// A hooked event, its matcher and the groups of fields the event adds.
type Hooked = (
    HookEvent,
    Option<&'static str>,
    &'static [&'static [&'static str]],
);

/// The events and matchers hooked (one capturing hook each), with the fields the event adds to [`COMMON`]: exactly
/// what existing hook scripts read, so a change here breaks them.
const HOOKED: &[Hooked] = &[
    (HookEvent::PreToolUse, Some("Write"), &[TOOL_CALL]),
    (HookEvent::PermissionRequest, None, &[TOOL_CALL]),
    (
        HookEvent::PostToolUse,
        Some("Write"),
        &[TOOL_CALL, &["tool_response"]],
    ),
    (
        HookEvent::PostToolUseFailure,
        None,
        &[TOOL_CALL, &["error"]],
    ),
    (HookEvent::UserPromptSubmit, None, &[&["prompt"]]),
    (HookEvent::Stop, None, &[&["stop_hook_active"]]),
    (
        HookEvent::SubagentStart,
        None,
        &[&["agent_id", "agent_type"]],
    ),
    (
        HookEvent::SubagentStop,
        None,
        &[&[
            "agent_id",
            "agent_type",
            "stop_hook_active",
            "agent_transcript_path",
        ]],
    ),
    (
        HookEvent::SessionStart,
        Some("startup"),
        &[&["source", "model"]],
    ),
    (HookEvent::SessionStart, Some("compact"), &[&["source"]]),
    (HookEvent::SessionEnd, None, &[&["reason"]]),
    (
        HookEvent::Notification,
        Some("permission_prompt"),
        &[&["message", "title", "notification_type"]],
    ),
    (
        HookEvent::PreCompact,
        None,
        &[&["trigger", "custom_instructions"]],
    ),
];

/// The fields of an input: [`COMMON`] and `added`.
fn fields(added: &[&[&str]]) -> BTreeSet<String> {
    COMMON
        .iter()
        .chain(added.iter().flat_map(|a| a.iter()))
        .map(|f| f.to_string())
        .collect()
}

fn capture_file(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("captured-{n}.json"))
}

async fn wait_for_json(file: &Path) -> Value {
    loop {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Ok(value) = serde_json::from_str(&text)
        {
            return value;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().expect("an object").keys().cloned().collect()
}

#[tokio::test]
async fn every_hook_reads_the_fields_its_sample_in_the_hooks_panel_shows() {
    let ws = Workspace::new(&[]).expect("workspace");
    let out = tempfile::tempdir().expect("tempdir");
    let mut hooks = serde_json::Map::new();
    for (n, (event, matcher, _)) in HOOKED.iter().enumerate() {
        let mut group = json!({"hooks": [{"type": "command",
            "command": format!("cat > '{}'", capture_file(out.path(), n).display())}]});
        if let Some(m) = matcher {
            group["matcher"] = json!(m);
        }
        hooks
            .entry(event.as_str())
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .expect("an array")
            .push(group);
    }
    std::fs::create_dir_all(ws.root().join(".claude")).expect("mkdir");
    std::fs::write(
        ws.root().join(".claude/settings.json"),
        json!({ "hooks": hooks }).to_string(),
    )
    .expect("write");
    let fake = server(Script::turns([
        // Asks (PermissionRequest, a Notification), then succeeds (PostToolUse).
        ScriptedTurn::tool_use(
            "w1",
            "Write",
            json!({"file_path": "new.txt", "content": "x"}),
        ),
        // Fails with an error for the model (PostToolUseFailure).
        ScriptedTurn::tool_use("r1", "Read", json!({"file_path": "missing.txt"})),
        // A sub-agent (SubagentStart, SubagentStop).
        ScriptedTurn::tool_use(
            "a1",
            "Agent",
            json!({"description": "Look", "prompt": "look", "subagent_type": "Explore"}),
        ),
        ScriptedTurn::text("looked"),
        ScriptedTurn::text("done"),
        // A second prompt, so that `/compact` has an earlier one to summarise.
        ScriptedTurn::text("again"),
        // `/compact` (PreCompact, SessionStart with source compact).
        ScriptedTurn::text("the summary"),
    ]))
    .await;
    let config = fake_config(&fake.url());
    let s = Session::builder(&ws.root())
        .expect("folder")
        .model_client(Arc::new(
            AnthropicModel::new(config.clone()).expect("client"),
        ))
        .model(config)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)))
        .interactive(true)
        .build()
        .expect("session");
    s.settings().assume_trusted();
    s.send("go").await.expect("turn");
    s.send("once more").await.expect("turn");
    s.send("/compact").await.expect("compacted");
    s.end(EndReason::Other).await;

    let schema = jsonschema::validator_for(&input_schema()).expect("the input schema");
    let listing = s.panels().hooks_view();
    assert_eq!(listing.len(), HOOKED.len());
    for (n, (event, matcher, added)) in HOOKED.iter().enumerate() {
        let real = wait_for_json(&capture_file(out.path(), n)).await;
        assert_eq!(real["hook_event_name"], event.as_str());
        let sample = &listing
            .iter()
            .find(|h| h.command.contains(&format!("captured-{n}.json")))
            .expect("listed")
            .sample_input;
        assert_eq!(
            keys(&real),
            fields(added),
            "{event} ({matcher:?}): the real input {real}"
        );
        assert_eq!(
            keys(sample),
            keys(&real),
            "{event} ({matcher:?}): the sample {sample} and the real input {real}"
        );
        for input in [sample, &real] {
            let problems: Vec<String> = schema.iter_errors(input).map(|e| e.to_string()).collect();
            assert!(problems.is_empty(), "{event}: {input}: {problems:?}");
        }
    }
}

/// Writes `fresh` to `path` when asked to, then fails when the file on disk differs.
fn check_generated(path: &Path, fresh: &str) {
    if std::env::var_os("TANDEM_WRITE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        std::fs::write(path, fresh).expect("write the generated file");
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == fresh,
        "{} is stale: run `TANDEM_WRITE_GENERATED=1 cargo test -p tandem-engine --test all hook_payloads`",
        path.display()
    );
}

#[test]
fn the_published_hook_schemas_are_fresh() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/hooks/schemas");
    for (file, schema) in [
        ("input.schema.json", input_schema()),
        ("output.schema.json", output_schema()),
    ] {
        let text = serde_json::to_string_pretty(&schema).expect("json") + "\n";
        check_generated(&dir.join(file), &text);
    }
}
