//! A sub-agent's work reaches the editor through `tandem acp`: the model starts an Agent whose sub-agent reads a file;
//! the client sees the Agent call, the sub-agent's Read as a call of its own nested under it (`_meta.tandem`), and
//! the sub-agent's text as the Agent call's content. Every message is checked against the protocol's schema.

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::schema::{
    InitializeRequest, NewSessionRequest, PromptRequest, StopReason,
};
use serde_json::{Value, json};
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};

use super::super::commands::project;
use super::schema::{self, Wire};
use super::{Seen, agent, connect, text};

#[tokio::test]
async fn a_sub_agents_calls_reach_the_client_nested_under_its_agent_call() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let notes = root.join("notes.txt");
    std::fs::write(&notes, "the notes\n").expect("notes");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_a1".into(),
            name: "Agent".into(),
            input: json!({"description": "Read the notes", "prompt": "Read notes.txt", "subagent_type": "Explore"}),
        }]),
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "Reading them.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_r1".into(),
                name: "Read".into(),
                input: json!({"file_path": notes.display().to_string()}),
            },
        ]),
        ScriptedTurn::text("They say: the notes."),
        ScriptedTurn::text("The sub-agent read them."),
    ]))
    .await
    .expect("server");
    let wire = Wire::default();
    let seen = Seen::default();
    let cwd = root.clone();
    connect(
        agent(&server.url(), home.path(), &wire),
        &seen,
        "allow_once",
        async move |cx| {
            cx.send_request(InitializeRequest::new(ProtocolVersion::V1))
                .block_task()
                .await?;
            let new = cx
                .send_request(NewSessionRequest::new(cwd))
                .block_task()
                .await?;
            let answer = cx
                .send_request(PromptRequest::new(
                    new.session_id,
                    text("Have the notes read"),
                ))
                .block_task()
                .await?;
            assert_eq!(answer.stop_reason, StopReason::EndTurn);
            Ok(())
        },
    )
    .await;
    let updates = seen.updates();
    let inner: Vec<&Value> = updates
        .iter()
        .filter(|u| {
            u["toolCallId"]
                .as_str()
                .is_some_and(|id| id.ends_with("/toolu_r1"))
        })
        .collect();
    assert!(!inner.is_empty(), "{updates:#?}");
    assert_eq!(inner[0]["sessionUpdate"], "tool_call");
    assert!(
        inner.iter().any(|u| u["status"] == "completed"),
        "{inner:#?}"
    );
    for update in &inner {
        assert_eq!(
            update["_meta"]["tandem"]["parentToolCallId"], "toolu_a1",
            "{update}"
        );
    }
    assert!(
        updates.iter().any(|u| u["toolCallId"] == "toolu_a1"
            && u["content"][0]["content"]["text"]
                .as_str()
                .is_some_and(|t| t.contains("Reading them."))),
        "{updates:#?}"
    );
    assert!(schema::validate(&wire.lines()) > 6);
}
