//! The Workflow tool (`WORKFLOW_SCRIPTS`): offered only with its switch; a workflow's steps run in order, each
//! checked as its own call (a deny rule stops the workflow at that step and the later steps do not run; a failing
//! step with `continue_on_error` does not); inputs filled in and required; an unknown or broken workflow refused
//! before anything runs or asks; a sub-agent never gets it; and a whole turn through the fake model server.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use tandem_engine::exec::ToolRuntime;
use tandem_engine::model::{AnthropicModel, Model};
use tandem_engine::permission::PermissionContext;
use tandem_engine::registry::builtin_tools;
use tandem_engine::session::Session;
use tandem_engine::testing::{
    CallResult, Project, RecordingSink, Script, ScriptedApprover, ScriptedTurn, TestRuntime, call,
};
use tandem_engine::tool::{DynTool, erase};
use tandem_engine::tools::agent::ALL_AGENT_DISALLOWED_TOOLS;
use tandem_engine::tools::features::Features;
use tandem_engine::tools::workflow::{WORKFLOWS_DIR, WorkflowTool};
use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent};

use super::common::{fake_config, offered, server, session_answered_by, session_featuring};

const CHECK: &str = r#"
description: Builds the notes and reads them back
inputs:
  word:
    description: What to write
  file:
    default: notes.txt
steps:
  - name: write
    run: printf '%s\n' '{{word}}' > {{file}}
  - name: read back
    tool: Read
    input: { file_path: "{{file}}" }
  - name: count
    run: wc -l < {{file}}
"#;

const LENIENT: &str = r#"
steps:
  - name: fails
    run: echo broken-5120 && exit 3
    continue_on_error: true
  - name: goes on
    run: echo still-here-7781
"#;

fn project_with(workflows: &[(&str, &str)]) -> Project {
    let p = Project::new().expect("project");
    let dir = p.root.join(WORKFLOWS_DIR);
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (name, text) in workflows {
        std::fs::write(dir.join(name), text).expect("write workflow");
    }
    p
}

fn runtime(
    p: &Project,
    approver: ScriptedApprover,
    permissions: Option<PermissionContext>,
) -> (ToolRuntime, RecordingSink) {
    let mut tools: Vec<Arc<dyn DynTool>> = builtin_tools();
    tools.push(erase(WorkflowTool::new(
        p.root.clone(),
        Some(p.home.clone()),
    )));
    let rt = TestRuntime::new(&p.root).tools(tools).approver(approver);
    match permissions {
        Some(ctx) => rt.permissions(ctx),
        None => rt,
    }
    .recorded()
}

async fn workflow(rt: &ToolRuntime, input: serde_json::Value) -> CallResult {
    call(rt, "Workflow", &input).await
}

fn shown_calls(events: &RecordingSink) -> Vec<(String, String)> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::ToolCallInput {
                tool_use_id, name, ..
            } => Some((tool_use_id, name)),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_run_in_order_each_checked_as_its_own_call() {
    let p = project_with(&[("check.yaml", CHECK)]);
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let (rt, events) = runtime(&p, approver.clone(), None);
    let r = workflow(
        &rt,
        json!({"workflow": "check", "inputs": {"word": "hello-3390"}}),
    )
    .await;
    assert!(r.ok, "{}", r.text);
    assert!(
        r.text.starts_with("Workflow check ran all 3 steps."),
        "{}",
        r.text
    );
    assert!(r.text.contains("1. write (Bash): ok"), "{}", r.text);
    assert!(r.text.contains("2. read back (Read): ok"), "{}", r.text);
    assert!(
        r.text.contains("hello-3390"),
        "the Read step's output: {}",
        r.text
    );
    assert!(r.text.contains("3. count (Bash): ok\n1"), "{}", r.text);
    assert_eq!(
        std::fs::read_to_string(p.root.join("notes.txt")).expect("notes"),
        "hello-3390\n"
    );
    let asked: Vec<String> = approver
        .asked()
        .iter()
        .map(|a| a.tool_name.clone())
        .collect();
    assert_eq!(
        asked,
        ["Workflow", "Bash"],
        "the write asks; the Read inside the folder and the read-only `wc` need nobody"
    );
    let shown = shown_calls(&events);
    for (id, name) in [("call/1", "Bash"), ("call/2", "Read"), ("call/3", "Bash")] {
        assert!(
            shown.contains(&(id.to_string(), name.to_string())),
            "{id} {name} in {shown:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_step_stops_the_workflow_and_later_steps_do_not_run() {
    let p = project_with(&[(
        "leak.yaml",
        "steps:\n  - run: echo start-2281\n  - name: secret\n    tool: Read\n    input: { file_path: secret.txt }\n  - name: after\n    run: touch after.txt\n",
    )]);
    std::fs::write(p.root.join("secret.txt"), "TOKEN-8812\n").expect("secret");
    let ctx = p.ctx(
        &[
            ("allow", "Workflow"),
            ("allow", "Bash(touch:*)"),
            ("deny", "Read(./secret.txt)"),
        ],
        PermissionMode::Default,
    );
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let (rt, _) = runtime(&p, approver.clone(), Some(ctx));
    let r = workflow(&rt, json!({"workflow": "leak"})).await;
    assert!(!r.ok, "{}", r.text);
    assert!(
        r.text
            .starts_with("Workflow leak stopped at step 2 (secret), which failed."),
        "{}",
        r.text
    );
    assert!(
        r.text.contains("1. step 1 (Bash): ok\nstart-2281"),
        "{}",
        r.text
    );
    assert!(r.text.contains("denied"), "{}", r.text);
    assert!(r.text.contains("3. after (Bash): not run"), "{}", r.text);
    assert!(!r.text.contains("TOKEN-8812"), "{}", r.text);
    assert!(
        !p.root.join("after.txt").exists(),
        "a step after the refused one did not run"
    );
    assert!(
        approver.asked().is_empty(),
        "the rules answered every step: {:?}",
        approver.asked()
    );

    // A parameter ask rule names one workflow: that one asks in spite of the whole-tool allow.
    let ctx = p.ctx(
        &[("allow", "Workflow"), ("ask", "Workflow(workflow:leak)")],
        PermissionMode::Default,
    );
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let (rt, _) = runtime(&p, approver.clone(), Some(ctx));
    let r = workflow(&rt, json!({"workflow": "leak"})).await;
    assert!(!r.ok, "{}", r.text);
    let asked: Vec<String> = approver
        .asked()
        .iter()
        .map(|a| a.tool_name.clone())
        .collect();
    assert_eq!(asked, ["Workflow"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_that_may_fail_lets_the_workflow_go_on() {
    let p = project_with(&[("lenient.yml", LENIENT)]);
    let (rt, _) = runtime(&p, ScriptedApprover::new([], ApprovalChoice::Allow), None);
    let r = workflow(&rt, json!({"workflow": "lenient"})).await;
    assert!(r.ok, "{}", r.text);
    assert!(
        r.text
            .starts_with("Workflow lenient ran all 2 steps; 1 failed and were passed over."),
        "{}",
        r.text
    );
    assert!(r.text.contains("1. fails (Bash): failed"), "{}", r.text);
    assert!(r.text.contains("broken-5120"), "{}", r.text);
    assert!(r.text.contains("still-here-7781"), "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_calls_and_broken_files_are_refused_before_anything_asks() {
    let p = project_with(&[
        ("check.yaml", CHECK),
        ("broken.yaml", "steps:\n  - run: ls\n    tool: Read\n"),
    ]);
    let cases = [
        (
            json!({"workflow": "nope"}),
            "the workflows are: broken, check",
        ),
        (json!({"workflow": "../check"}), "is not a workflow name"),
        (json!({"workflow": "check"}), "needs the input `word`"),
        (
            json!({"workflow": "check", "inputs": {"word": "x", "colour": "red"}}),
            "no input `colour`",
        ),
        (json!({"workflow": "broken"}), "both `run` and `tool`"),
    ];
    for (input, expected) in cases {
        let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
        let (rt, _) = runtime(&p, approver.clone(), None);
        let r = workflow(&rt, input.clone()).await;
        assert!(!r.ok, "{input}: {}", r.text);
        assert!(r.text.contains(expected), "{input}: {}", r.text);
        assert!(approver.asked().is_empty(), "{input}: nothing asked");
    }
    assert!(!p.root.join("notes.txt").exists());
}

fn offline_session(root: &Path, features: Features) -> Session {
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config("http://127.0.0.1:9")).expect("client"));
    session_featuring(root, model, &RecordingSink::default(), features)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_switch_offers_it_and_no_sub_agent_gets_it() {
    let p = project_with(&[("check.yaml", CHECK)]);
    let off = offline_session(&p.root, Features::OFF);
    let listed = off.tool_list();
    let entry = listed
        .iter()
        .find(|t| t.name == "Workflow")
        .expect("listed");
    assert!(!entry.offered, "{entry:?}");
    assert!(
        entry
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("WORKFLOW_SCRIPTS")),
        "{entry:?}"
    );
    assert!(
        !off.runtime()
            .offered_specs()
            .iter()
            .any(|s| s.name == "Workflow")
    );
    let on = offline_session(
        &p.root,
        Features {
            workflows: true,
            ..Features::OFF
        },
    );
    let spec = on
        .runtime()
        .offered_specs()
        .into_iter()
        .find(|s| s.name == "Workflow")
        .expect("offered with the switch");
    assert!(
        spec.description
            .contains("- check (inputs: file, word): Builds the notes and reads them back"),
        "{}",
        spec.description
    );
    assert!(ALL_AGENT_DISALLOWED_TOOLS.contains(&"Workflow"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_runs_a_workflow_and_the_model_reads_its_steps() {
    let p = project_with(&[("check.yaml", CHECK)]);
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "w1",
            "Workflow",
            json!({"workflow": "check", "inputs": {"word": "turn-6604"}}),
        ),
        ScriptedTurn::text("Checked."),
    ]))
    .await;
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = session_answered_by(
        &p.root,
        &fake,
        approver.clone(),
        &events,
        Features {
            workflows: true,
            ..Features::OFF
        },
    );
    let outcome = s.send("run the checks").await.expect("turn");
    assert_eq!(outcome.final_text, "Checked.");
    let requests = fake.requests();
    assert!(offered(&requests[0].body).iter().any(|t| t == "Workflow"));
    let result = requests[1].body["messages"].to_string();
    assert!(
        result.contains("Workflow check ran all 3 steps."),
        "{result}"
    );
    assert!(result.contains("turn-6604"), "{result}");
    let shown = shown_calls(&events);
    assert!(
        shown.contains(&("w1/1".to_string(), "Bash".to_string())),
        "{shown:?}"
    );
    assert_eq!(
        std::fs::read_to_string(p.root.join("notes.txt")).expect("notes"),
        "turn-6604\n"
    );
}
