//! Plan mode and questions against the fake model server: EnterPlanMode asks and switches to plan mode, edits are
//! refused there with a pointer to ExitPlanMode, the plan reaches the approver (keep planning → feedback in the
//! result, approve → the mode before plan mode comes back), and AskUserQuestion reaches the approver in every mode
//! (dontAsk refuses it; where nobody can answer the result says so).

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{
    ApprovalChoice, PermissionMode, PlanChoice, QuestionOutcome, QuestionReply, SessionEvent,
    ToolOutcome,
};

use super::common::{server, session};

fn result_of(events: &[SessionEvent], id: &str) -> (ToolOutcome, String) {
    events
        .iter()
        .find_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                outcome,
                content,
                ..
            } if tool_use_id == id => Some((*outcome, content.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no result for {id}"))
}

fn modes(events: &[SessionEvent]) -> Vec<PermissionMode> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::ModeChanged { mode } => Some(*mode),
            _ => None,
        })
        .collect()
}

fn two_questions() -> Value {
    json!({"questions": [
        {"question": "Which database?", "header": "Database", "options": [
            {"label": "SQLite", "description": "one file"},
            {"label": "Postgres", "description": "a server"}]},
        {"question": "Which extras?", "header": "Extras", "multiSelect": true, "options": [
            {"label": "Metrics", "description": ""},
            {"label": "Tracing", "description": ""},
            {"label": "Backups", "description": ""}]}
    ]})
}

#[tokio::test]
async fn plan_mode_is_entered_refuses_edits_keeps_planning_on_feedback_and_restores_the_mode_on_approval()
 {
    let ws = Workspace::new(&[]).expect("workspace");
    let target = ws.path("new.txt").display().to_string();
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("e1", "EnterPlanMode", json!({})),
        ScriptedTurn::tool_use("w1", "Write", json!({"file_path": target, "content": "x"})),
        ScriptedTurn::tool_use("x1", "ExitPlanMode", json!({"plan": "1. Write new.txt"})),
        ScriptedTurn::tool_use(
            "x2",
            "ExitPlanMode",
            json!({"plan": "1. Write new.txt\n2. Test it"}),
        ),
        ScriptedTurn::tool_use("w2", "Write", json!({"file_path": target, "content": "x"})),
        ScriptedTurn::text("Done."),
    ]))
    .await;
    // Yes to entering plan mode; the plan: first keep planning, then approve (back to the mode before).
    let approver = Arc::new(
        ScriptedApprover::new([ApprovalChoice::Allow], ApprovalChoice::Deny).with_plan_answers([
            PlanChoice::KeepPlanning {
                feedback: "Add a test step.".into(),
            },
            PlanChoice::Approve { mode: None },
        ]),
    );
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), events.clone());
    s.set_mode(PermissionMode::AcceptEdits);
    s.send("plan, then write new.txt").await.expect("turn");
    let events = events.events();

    // EnterPlanMode asked through the ordinary permission dialog.
    let asked = approver.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].tool_name, "EnterPlanMode");
    assert_eq!(result_of(&events, "e1").0, ToolOutcome::Success);
    // In plan mode the write is refused and the model is told how to leave.
    let (outcome, text) = result_of(&events, "w1");
    assert_eq!(outcome, ToolOutcome::Denied);
    assert!(text.contains("ExitPlanMode"), "{text}");
    // Keep planning: the feedback is the result, the mode stays plan.
    let (outcome, text) = result_of(&events, "x1");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(text.contains("Add a test step."), "{text}");
    // The plans reached the approver as markdown.
    let plans = approver.plans_asked();
    assert_eq!(plans.len(), 2);
    assert_eq!(plans[1].plan, "1. Write new.txt\n2. Test it");
    assert_eq!(plans[1].tool_use_id, "x2");
    assert!(events.iter().any(|e| matches!(e,
        SessionEvent::PlanReviewRequested { request } if request.tool_use_id == "x1")));
    // Approved: back to acceptEdits, so the write runs without a question.
    let (outcome, text) = result_of(&events, "x2");
    assert_eq!(outcome, ToolOutcome::Success);
    assert!(text.contains("approved"), "{text}");
    assert_eq!(result_of(&events, "w2").0, ToolOutcome::Success);
    assert_eq!(
        modes(&events),
        [
            PermissionMode::AcceptEdits,
            PermissionMode::Plan,
            PermissionMode::AcceptEdits
        ]
    );
    assert_eq!(s.info().mode, PermissionMode::AcceptEdits);
    assert_eq!(
        std::fs::read_to_string(ws.path("new.txt")).expect("written"),
        "x"
    );
}

#[tokio::test]
async fn an_approved_plan_can_start_in_the_mode_the_person_picks() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("x1", "ExitPlanMode", json!({"plan": "Do it."})),
        ScriptedTurn::text("Starting."),
    ]))
    .await;
    let approver = Arc::new(
        ScriptedApprover::new([], ApprovalChoice::Deny).with_plan_answers([PlanChoice::Approve {
            mode: Some(PermissionMode::AcceptEdits),
        }]),
    );
    let s = session(&ws.root(), &fake, approver, RecordingSink::default());
    s.set_mode(PermissionMode::Plan);
    s.send("go").await.expect("turn");
    assert_eq!(s.info().mode, PermissionMode::AcceptEdits);
}

#[tokio::test]
async fn exit_plan_mode_outside_plan_mode_or_without_a_person_changes_nothing() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("x1", "ExitPlanMode", json!({"plan": "Do it."})),
        ScriptedTurn::text("ok"),
        ScriptedTurn::tool_use("x2", "ExitPlanMode", json!({"plan": "Do it."})),
        ScriptedTurn::text("ok"),
    ]))
    .await;
    // No plan answers scripted: nobody can answer.
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), events.clone());
    s.send("first").await.expect("turn");
    s.set_mode(PermissionMode::Plan);
    s.send("second").await.expect("turn");
    let events = events.events();
    let (outcome, text) = result_of(&events, "x1");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(text.contains("not in plan mode"), "{text}");
    let (outcome, text) = result_of(&events, "x2");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(text.contains("Nobody can approve it"), "{text}");
    assert_eq!(approver.plans_asked().len(), 1);
    assert_eq!(s.info().mode, PermissionMode::Plan);
}

#[tokio::test]
async fn questions_reach_the_person_and_their_answers_are_the_result() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("q1", "AskUserQuestion", two_questions()),
        ScriptedTurn::text("Thanks."),
    ]))
    .await;
    let approver = Arc::new(
        ScriptedApprover::new([], ApprovalChoice::Deny).with_question_answers([
            QuestionOutcome::Answered {
                replies: vec![
                    QuestionReply {
                        selected: vec!["SQLite".into()],
                        other: None,
                    },
                    QuestionReply {
                        selected: vec!["Metrics".into(), "Backups".into()],
                        other: Some("nightly".into()),
                    },
                ],
            },
        ]),
    );
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), events.clone());
    s.send("set it up").await.expect("turn");
    let events = events.events();
    // No permission dialog: the questions are the dialog.
    assert!(approver.asked().is_empty());
    let asked = approver.questions_asked();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].questions.len(), 2);
    assert!(asked[0].questions[1].multi_select);
    assert_eq!(asked[0].questions[1].options[2].label, "Backups");
    assert!(events.iter().any(|e| matches!(e,
        SessionEvent::QuestionsAsked { request } if request.tool_use_id == "q1")));
    assert!(events.iter().any(|e| matches!(e,
        SessionEvent::ApprovalResolved { request_id } if *request_id == asked[0].id)));
    let (outcome, text) = result_of(&events, "q1");
    assert_eq!(outcome, ToolOutcome::Success);
    assert!(text.contains("\"Which database?\"=\"SQLite\""), "{text}");
    assert!(
        text.contains("\"Which extras?\"=\"Metrics, Backups, nightly\""),
        "{text}"
    );
}

#[tokio::test]
async fn questions_are_asked_even_in_bypass_mode_and_refused_in_dont_ask_mode() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("q1", "AskUserQuestion", two_questions()),
        ScriptedTurn::text("ok"),
        ScriptedTurn::tool_use("q2", "AskUserQuestion", two_questions()),
        ScriptedTurn::text("ok"),
    ]))
    .await;
    let approver = Arc::new(
        ScriptedApprover::new([], ApprovalChoice::Allow).with_question_answers([
            QuestionOutcome::Declined {
                message: Some("later".into()),
            },
        ]),
    );
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), events.clone());
    s.set_mode(PermissionMode::BypassPermissions);
    s.send("one").await.expect("turn");
    s.set_mode(PermissionMode::DontAsk);
    s.send("two").await.expect("turn");
    let events = events.events();
    assert_eq!(approver.questions_asked().len(), 1);
    let (outcome, text) = result_of(&events, "q1");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(
        text.contains("declined") && text.contains("later"),
        "{text}"
    );
    let (outcome, text) = result_of(&events, "q2");
    assert_eq!(outcome, ToolOutcome::Denied);
    assert!(text.contains("dontAsk"), "{text}");
}

#[tokio::test]
async fn where_nobody_can_answer_the_model_is_told_so_and_bad_questions_are_refused_before_asking()
{
    let ws = Workspace::new(&[]).expect("workspace");
    let one_option = json!({"questions": [{"question": "Sure?", "header": "Sure", "options": [
        {"label": "Yes", "description": ""}]}]});
    let same_labels = json!({"questions": [{"question": "Sure?", "header": "Sure", "options": [
        {"label": "Yes", "description": ""}, {"label": "Yes", "description": ""}]}]});
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("bad1", "AskUserQuestion", one_option),
        ScriptedTurn::tool_use("bad2", "AskUserQuestion", same_labels),
        ScriptedTurn::tool_use("q1", "AskUserQuestion", two_questions()),
        ScriptedTurn::text("ok"),
    ]))
    .await;
    // No question answers: like a headless run, nobody can answer.
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), events.clone());
    s.send("ask").await.expect("turn");
    let events = events.events();
    let (outcome, text) = result_of(&events, "bad1");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(text.contains("1 options"), "{text}");
    let (_, text) = result_of(&events, "bad2");
    assert!(text.contains("unique"), "{text}");
    let (outcome, text) = result_of(&events, "q1");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(text.contains("Nobody can answer"), "{text}");
    // Only the valid call reached the approver.
    assert_eq!(approver.questions_asked().len(), 1);
}

#[tokio::test]
async fn auto_mode_is_offered_where_the_classifier_can_reach_its_model() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::default()).await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = session(&ws.root(), &fake, approver, RecordingSink::default());
    assert!(s.info().auto_mode_available);
    s.set_mode(PermissionMode::Auto);
    assert_eq!(s.info().mode, PermissionMode::Auto);
}

/// The last message of request `n` as JSON text.
fn last_message(fake: &tandem_engine::testing::FakeServer, n: usize) -> String {
    let requests = fake.requests();
    requests[n].body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(Value::to_string)
        .unwrap_or_default()
}

#[tokio::test]
async fn the_model_is_told_when_the_person_switches_into_and_out_of_plan_mode() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("planning"),
        ScriptedTurn::text("still planning"),
        ScriptedTurn::text("building"),
        ScriptedTurn::text("building more"),
        ScriptedTurn::tool_use("e1", "EnterPlanMode", json!({})),
        ScriptedTurn::text("planning on my own"),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let session = session(&ws.root(), &fake, approver, RecordingSink::default());

    session.set_mode(PermissionMode::Plan);
    session.send("design the cache").await.expect("turn 1");
    let first = last_message(&fake, 0);
    assert!(first.contains("design the cache"), "{first}");
    assert!(first.contains("Plan mode is on"), "{first}");
    assert!(first.contains("ExitPlanMode"), "{first}");
    session.send("and the eviction").await.expect("turn 2");
    assert!(last_message(&fake, 1).contains("Plan mode is still on"));

    session.set_mode(PermissionMode::AcceptEdits);
    session.send("build it").await.expect("turn 3");
    let left = last_message(&fake, 2);
    assert!(left.contains("Plan mode has ended"), "{left}");
    assert!(left.contains("acceptEdits"), "{left}");
    session.send("more").await.expect("turn 4");
    assert!(!last_message(&fake, 3).contains("system-reminder"));

    // A switch the model made with its own tool is told by that tool's result, not again.
    session.send("plan the next part").await.expect("turn 5");
    assert_eq!(
        session.runtime().permission_context().mode,
        PermissionMode::Plan
    );
    let after_tool = last_message(&fake, 5);
    assert!(after_tool.contains("Entered plan mode"), "{after_tool}");
    assert!(!after_tool.contains("Plan mode is on"), "{after_tool}");
}
