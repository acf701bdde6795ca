//! VerifyPlanExecution (`CLAUDE_CODE_VERIFY_PLAN`): after the person approved a plan and the agent carried it out,
//! a verification sub-agent gets the plan and the agent's summary, runs a check with its shell, and its verdict is
//! the tool's result; before any plan was approved the call is refused; with the switch off the tool is not offered.

use std::sync::Arc;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Model};
use tandem_engine::session::Session;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_engine::tools::features::Features;
use tandem_protocol::{ApprovalChoice, PermissionMode, PlanChoice, SessionEvent, ToolOutcome};

use super::common::{fake_config, server};

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

#[tokio::test]
async fn a_verification_agent_checks_the_work_against_the_approved_plan() {
    let ws = Workspace::new(&[]).expect("workspace");
    let target = ws.path("greeting.txt").display().to_string();
    let fake = server(Script::turns([
        // Before any plan: refused.
        ScriptedTurn::tool_use(
            "v0",
            "VerifyPlanExecution",
            json!({"summary": "nothing yet"}),
        ),
        ScriptedTurn::tool_use(
            "x1",
            "ExitPlanMode",
            json!({"plan": "1. Write greeting.txt with PLAN-STEP-8812."}),
        ),
        ScriptedTurn::tool_use(
            "w1",
            "Write",
            json!({"file_path": target, "content": "PLAN-STEP-8812\n"}),
        ),
        ScriptedTurn::tool_use(
            "v1",
            "VerifyPlanExecution",
            json!({"summary": "Wrote greeting.txt."}),
        ),
        // The verification agent: one check, then its verdict.
        ScriptedTurn::tool_use("c1", "Bash", json!({"command": "cat greeting.txt"})),
        ScriptedTurn::text("PASS: step 1 done, greeting.txt holds PLAN-STEP-8812."),
        ScriptedTurn::text("Verified."),
    ]))
    .await;
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    let approver = Arc::new(
        ScriptedApprover::new([], ApprovalChoice::Allow).with_plan_answers([PlanChoice::Approve {
            mode: Some(PermissionMode::AcceptEdits),
        }]),
    );
    let events = RecordingSink::default();
    let s = Session::builder(&ws.root())
        .expect("folder")
        .model_client(model)
        .model(fake_config(&fake.url()))
        .mode(PermissionMode::Plan)
        .approver(approver)
        .events(Arc::new(events.clone()))
        .features(Features {
            verify_plan: true,
            ..Features::default()
        })
        .build()
        .expect("session");
    let outcome = s.send("plan it, do it, check it").await.expect("turn");
    assert_eq!(outcome.final_text, "Verified.");
    let events = events.events();

    let (refused, why) = result_of(&events, "v0").expect("v0");
    assert_eq!(refused, ToolOutcome::Error, "{why}");
    assert!(why.contains("No plan has been approved"), "{why}");

    let requests = fake.requests();
    let child = requests
        .iter()
        .find(|r| {
            r.body["system"]
                .to_string()
                .contains("verification specialist")
        })
        .expect("the verification agent's request");
    let task = child.body["messages"][0].to_string();
    assert!(
        task.contains("PLAN-STEP-8812") && task.contains("Wrote greeting.txt."),
        "{task}"
    );
    let tools: Vec<&str> = child.body["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        tools.contains(&"Bash") && !tools.contains(&"Write") && !tools.contains(&"Edit"),
        "{tools:?}"
    );
    let (ok, verdict) = result_of(&events, "v1").expect("v1");
    assert_eq!(ok, ToolOutcome::Success, "{verdict}");
    assert!(verdict.contains("PASS: step 1 done"), "{verdict}");
}

#[tokio::test]
async fn without_the_switch_the_tool_is_not_offered() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::text("hi")])).await;
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    let s = Session::builder(&ws.root())
        .expect("folder")
        .model_client(model)
        .model(fake_config(&fake.url()))
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)))
        .features(Features::default())
        .build()
        .expect("session");
    s.send("hello").await.expect("turn");
    let body = fake.requests()[0].body.to_string();
    assert!(
        !body.contains("VerifyPlanExecution"),
        "the tool is not mentioned"
    );
}
