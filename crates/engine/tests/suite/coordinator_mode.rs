//! The coordinator mode (`CLAUDE_CODE_COORDINATOR_MODE`): the session's own agent is offered only Agent, TaskOutput
//! and TaskStop (SendMessage too with teams on) and told it coordinates; the sub-agent it starts still gets its
//! type's tools and reads the file the coordinator cannot; with the mode off, the usual tools are offered.

use std::path::Path;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::session::Session;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn, Workspace};
use tandem_engine::tools::features::Features;

use super::common::{fake_model, offered, server, session_featuring};

fn open(root: &Path, fake: &FakeServer, features: Features) -> Session {
    session_featuring(root, fake_model(fake), &RecordingSink::default(), features)
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

#[tokio::test]
async fn the_coordinator_only_starts_and_steers_sub_agents_which_do_the_work() {
    let ws = Workspace::new(&[("notes.txt", "the launch code is 4321\n")]).expect("workspace");
    let notes = ws.path("notes.txt").display().to_string();
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "a1",
            "Agent",
            json!({"description": "Find the code", "prompt": "What is the launch code in notes.txt?", "subagent_type": "Explore"}),
        ),
        ScriptedTurn::tool_use("r1", "Read", json!({"file_path": notes})),
        ScriptedTurn::text("The launch code is 4321."),
        ScriptedTurn::text("It is 4321."),
    ]))
    .await;
    let coordinator = Features {
        coordinator: true,
        ..Features::OFF
    };
    let s = open(&ws.root(), &fake, coordinator);
    let outcome = s.send("find the launch code").await.expect("turn");
    assert_eq!(outcome.final_text, "It is 4321.");
    let requests = fake.requests();
    let lead = &requests[0].body;
    assert_eq!(sorted(offered(lead)), ["Agent", "TaskOutput", "TaskStop"]);
    assert!(lead["system"].to_string().contains("You are a coordinator"));
    let child = &requests[1].body;
    let child_tools = offered(child);
    assert!(child_tools.iter().any(|t| t == "Read"), "{child_tools:?}");
    assert!(
        !child["system"]
            .to_string()
            .contains("You are a coordinator")
    );

    let with_teams = Features {
        coordinator: true,
        teams: true,
        ..Features::OFF
    };
    let fake = server(Script::turns([ScriptedTurn::text("hi")])).await;
    open(&ws.root(), &fake, with_teams)
        .send("hi")
        .await
        .expect("turn");
    assert_eq!(
        sorted(offered(&fake.requests()[0].body)),
        ["Agent", "SendMessage", "TaskOutput", "TaskStop"]
    );
}

#[tokio::test]
async fn without_the_mode_the_agent_has_its_usual_tools() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::text("hi")])).await;
    open(&ws.root(), &fake, Features::OFF)
        .send("hi")
        .await
        .expect("turn");
    let body = &fake.requests()[0].body;
    let names = offered(body);
    for tool in ["Read", "Bash", "Edit", "Agent"] {
        assert!(names.iter().any(|n| n == tool), "{tool}: {names:?}");
    }
    assert!(!body["system"].to_string().contains("You are a coordinator"));
}
