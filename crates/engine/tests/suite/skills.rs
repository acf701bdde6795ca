//! Skills against the fake model server: the system prompt names the skills without their instructions, the model
//! invokes one with the Skill tool and gets its instructions (its allowed-tools then run without asking for the rest
//! of that turn), a broken
//! skill file is reported with its path, and a `/name args` prompt invokes a skill directly.

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, SessionEvent, ToolDetail, ToolOutcome};

use super::common::{server, session};

const RELEASE: &str = "---\nname: release\ndescription: Cut a release of the project\nallowed-tools: Bash(touch *)\n---\n\
Follow RELEASE-STEPS-7731: tag $ARGUMENTS and touch the marker file.\n";

fn workspace() -> Workspace {
    Workspace::new(&[
        (".claude/skills/release/SKILL.md", RELEASE),
        (
            ".claude/skills/broken/SKILL.md",
            "---\nname: broken\n---\nno description here",
        ),
    ])
    .expect("workspace")
}

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

/// The blocks of the last message of a request, by type: `tool_result` blocks first, then the texts after them.
fn last_message_types(body: &Value) -> Vec<String> {
    body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_array())
        .map(|c| {
            c.iter()
                .filter_map(|b| b["type"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The text blocks of the last message of a request (what tools added after their results).
fn last_texts(body: &Value) -> String {
    body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_array())
        .map(|c| {
            c.iter()
                .filter(|b| b["type"] == "text")
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn the_model_invokes_a_skill_and_its_allowed_tools_run_without_asking() {
    let ws = workspace();
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("s1", "Skill", json!({"skill": "release", "args": "v1.2"})),
        ScriptedTurn::tool_use("b1", "Bash", json!({"command": "touch released.txt"})),
        ScriptedTurn::text("Released v1.2."),
        ScriptedTurn::tool_use("b2", "Bash", json!({"command": "touch later.txt"})),
        ScriptedTurn::text("Refused."),
    ]))
    .await;
    // The first question (the skill's grant) is answered yes; anything after that would be refused.
    let approver = Arc::new(ScriptedApprover::new(
        [ApprovalChoice::Allow],
        ApprovalChoice::Deny,
    ));
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver.clone(), events.clone());
    assert_eq!(
        s.skills(),
        vec![(
            "release".to_string(),
            "Cut a release of the project".to_string()
        )]
    );
    let outcome = s.send("please cut release v1.2").await.expect("turn");
    assert_eq!(outcome.final_text, "Released v1.2.");

    let requests = fake.requests();
    let system = requests[0].body["system"].to_string();
    assert!(
        system.contains("- release: Cut a release of the project"),
        "{system}"
    );
    assert!(
        !system.contains("RELEASE-STEPS-7731"),
        "the instructions wait for the invocation"
    );
    assert!(!system.contains("broken"));
    // The result says the skill started; its instructions follow the results, as the person's side speaks.
    let skill_result = &last_results(&requests[1].body)[0];
    let text = skill_result["content"].to_string();
    assert!(text.contains("Launching skill: release"), "{text}");
    assert!(!text.contains("RELEASE-STEPS-7731"), "{text}");
    assert_eq!(
        last_message_types(&requests[1].body),
        ["tool_result", "text"]
    );
    let added = last_texts(&requests[1].body);
    assert!(added.contains("RELEASE-STEPS-7731: tag v1.2"), "{added}");

    let asked = approver.asked();
    assert_eq!(asked.len(), 1, "only the skill asked: {asked:?}");
    assert_eq!(asked[0].tool_name, "Skill");
    assert!(
        asked[0].reason.contains("Bash(touch *)"),
        "{}",
        asked[0].reason
    );
    assert!(ws.path("released.txt").exists(), "the granted command ran");

    // The grant lasts for the turn the skill was used in: the next turn asks again.
    s.send("touch another file").await.expect("second turn");
    assert_eq!(approver.asked().len(), 2, "the later command asked");
    assert!(!ws.path("later.txt").exists());

    let events = events.events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, SessionEvent::Notice { message }
        if message.contains("broken/SKILL.md") && message.contains("description")))
    );
    assert!(events.iter().any(|e| matches!(e, SessionEvent::ToolCallResult { tool_use_id, outcome: ToolOutcome::Success, detail: Some(ToolDetail::Skill { name, allowed_tools, .. }), .. }
        if tool_use_id == "s1" && name == "release" && allowed_tools == &vec!["Bash(touch *)".to_string()])));
}

#[tokio::test]
async fn a_slash_prompt_gives_the_model_the_skills_instructions() {
    let ws = workspace();
    let fake = server(Script::turns([ScriptedTurn::text("Following the steps.")])).await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = session(&ws.root(), &fake, approver, RecordingSink::default());
    s.send("/release v2.0").await.expect("turn");
    let body = &fake.requests()[0].body;
    let prompt = body["messages"][0]["content"].to_string();
    assert!(
        prompt.contains("<command-name>/release</command-name>"),
        "{prompt}"
    );
    assert!(prompt.contains("RELEASE-STEPS-7731: tag v2.0"), "{prompt}");
    // An unknown name is an ordinary prompt.
    assert!(s.expand_skill_command("/nosuch x").is_none());
}

#[tokio::test]
async fn an_unknown_skill_is_an_error_naming_the_available_ones() {
    let ws = workspace();
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("s1", "Skill", json!({"skill": "deploy"})),
        ScriptedTurn::text("No such skill."),
    ]))
    .await;
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        RecordingSink::default(),
    );
    s.send("deploy").await.expect("turn");
    let result = &last_results(&fake.requests()[1].body)[0];
    assert_eq!(result["is_error"], true);
    assert!(
        result["content"]
            .to_string()
            .contains("Available skills: release"),
        "{result}"
    );
}

#[tokio::test]
async fn a_skills_model_answers_the_rest_of_the_turn_it_runs_in() {
    let ws = Workspace::new(&[(
        ".claude/skills/deep/SKILL.md",
        "---\nname: deep\ndescription: Think deeply\nmodel: skill-model\n---\nDEEP-STEPS-6620\n",
    )])
    .expect("workspace");
    let fake = server(Script::turns([
        // The model invokes the skill: the requests after it in that turn use the skill's model.
        ScriptedTurn::tool_use("s1", "Skill", json!({"skill": "deep"})),
        ScriptedTurn::text("Deep answer."),
        ScriptedTurn::text("Plain answer."),
        // The person types the skill: its whole turn.
        ScriptedTurn::text("Typed answer."),
        ScriptedTurn::text("Plain again."),
    ]))
    .await;
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        RecordingSink::default(),
    );
    s.send("think about it").await.expect("turn");
    s.send("and now?").await.expect("turn");
    s.send("/deep now").await.expect("typed skill");
    s.send("and after?").await.expect("turn");
    let models: Vec<String> = fake
        .requests()
        .iter()
        .map(|r| r.body["model"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        models,
        [
            "fake-model",
            "skill-model",
            "fake-model",
            "skill-model",
            "fake-model"
        ]
    );
}

#[tokio::test]
async fn skills_nested_below_the_project_are_found_when_a_file_under_them_is_read() {
    const DEPLOY: &str =
        "---\nname: deploy-web\ndescription: Deploy the web package\n---\nRun DEPLOY-WEB-5521.\n";
    const SHADOW: &str =
        "---\nname: release\ndescription: A second release skill\n---\nShadowed.\n";
    const VENDORED: &str = "---\nname: vendored\ndescription: From a dependency\n---\nNo.\n";
    let ws = Workspace::new(&[
        (".claude/skills/release/SKILL.md", RELEASE),
        (".gitignore", "build/\n"),
        ("packages/web/.claude/skills/deploy/SKILL.md", DEPLOY),
        ("packages/web/.claude/skills/release/SKILL.md", SHADOW),
        ("packages/web/src/app.ts", "export const app = 1;\n"),
        (
            "node_modules/dep/.claude/skills/vendored/SKILL.md",
            VENDORED,
        ),
        ("node_modules/dep/index.js", "module.exports = 1;\n"),
        ("build/out/.claude/skills/vendored/SKILL.md", VENDORED),
        ("build/out/main.js", "1;\n"),
    ])
    .expect("workspace");
    let read = |id: &str, path: &str| {
        ScriptedTurn::tool_use(
            id,
            "Read",
            json!({"file_path": ws.path(path).display().to_string()}),
        )
    };
    let fake = server(Script::turns([
        read("r1", "node_modules/dep/index.js"),
        read("r2", "build/out/main.js"),
        read("r3", "packages/web/src/app.ts"),
        ScriptedTurn::tool_use("s1", "Skill", json!({"skill": "deploy-web"})),
        ScriptedTurn::text("Deployed."),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, approver, events.clone());
    let names = |s: &tandem_engine::session::Session| -> Vec<String> {
        s.skills().into_iter().map(|(name, _)| name).collect()
    };
    assert_eq!(names(&s), ["release"]);
    let outcome = s.send("read around, then deploy").await.expect("turn");
    assert_eq!(outcome.final_text, "Deployed.");

    // Only the folder above the file read counts; node_modules and ignored folders are not looked in, and the
    // nested `release` does not replace the project's.
    assert_eq!(names(&s), ["deploy-web", "release"]);
    let requests = fake.requests();
    let after = |n: usize| requests[n].body["messages"].to_string();
    assert!(
        !after(2).contains("deploy-web"),
        "not found before the file under it was read"
    );
    assert!(
        after(3).contains("deploy-web: Deploy the web package"),
        "{}",
        after(3)
    );
    assert!(
        !requests
            .iter()
            .any(|r| r.body.to_string().contains("vendored"))
    );
    assert!(
        last_texts(&requests[4].body).contains("DEPLOY-WEB-5521"),
        "{}",
        requests[4].body
    );
    let notices: Vec<String> = events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::Notice { message } => Some(message),
            _ => None,
        })
        .collect();
    assert!(
        notices.iter().any(|n| n.contains("Skills found in")
            && n.contains("deploy-web")
            && n.contains("already available")),
        "{notices:?}"
    );
}
