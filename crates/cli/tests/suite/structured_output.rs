//! `tandem -p --json-schema`: the model answers through StructuredOutput, an answer that does not fit the schema
//! goes back to the model with the reasons, a turn that ends without an answer is reminded, and a run that never
//! answers fails. Against the fake model server through the real binary.

use serde_json::{Value, json};
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::commands::{project, run, tandem};

const SCHEMA: &str =
    r#"{"type": "object", "properties": {"answer": {"type": "integer"}}, "required": ["answer"]}"#;

async fn answered(turns: Vec<ScriptedTurn>, format: &str) -> (super::commands::Output, FakeServer) {
    let dir = project();
    let server = FakeServer::start(Script::turns(turns))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.args(["--output-format", format, "--json-schema", SCHEMA, "--cwd"])
        .arg(dir.path())
        .args(["-p", "what is the answer in the README?"]);
    (run(cmd).await, server)
}

/// The tools the model was offered in request `n`.
fn offered(server: &FakeServer, n: usize) -> Vec<Value> {
    server.requests()[n].body["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn the_answer_comes_through_the_tool_and_a_wrong_one_is_sent_back_with_why() {
    let (out, server) = answered(
        vec![
            ScriptedTurn::tool_use(
                "toolu_1",
                "StructuredOutput",
                json!({"answer": "forty-two"}),
            ),
            ScriptedTurn::tool_use("toolu_2", "StructuredOutput", json!({"answer": 42})),
            ScriptedTurn::text("Done."),
        ],
        "json",
    )
    .await;
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let result: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    assert_eq!(result["structured_output"], json!({"answer": 42}));
    assert_eq!(result["is_error"], false);
    let tool = offered(&server, 0)
        .into_iter()
        .find(|t| t["name"] == "StructuredOutput")
        .expect("the tool is offered");
    assert_eq!(tool["input_schema"]["required"], json!(["answer"]));
    let refused = &server.requests()[1].body["messages"][2]["content"][0];
    assert_eq!(refused["is_error"], true, "{refused}");
    assert!(
        refused["content"].to_string().contains("answer"),
        "{refused}"
    );
}

#[tokio::test]
async fn a_turn_without_the_answer_is_reminded_and_text_mode_prints_the_answer() {
    let (out, server) = answered(
        vec![
            ScriptedTurn::text("The answer is 42."),
            ScriptedTurn::tool_use("toolu_1", "StructuredOutput", json!({"answer": 42})),
            ScriptedTurn::text("Done."),
        ],
        "text",
    )
    .await;
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let printed: Value = serde_json::from_str(out.stdout.trim()).expect("the answer as JSON");
    assert_eq!(printed, json!({"answer": 42}));
    let reminder = server.requests()[1].body["messages"].to_string();
    assert!(reminder.contains("StructuredOutput tool"), "{reminder}");
}

#[tokio::test]
async fn a_run_that_never_answers_fails_and_says_why() {
    let (out, server) = answered(
        vec![
            ScriptedTurn::text("42"),
            ScriptedTurn::text("Still 42."),
            ScriptedTurn::text("I said 42."),
        ],
        "json",
    )
    .await;
    assert_eq!(out.code, 1, "stdout: {}", out.stdout);
    assert!(out.stderr.contains("--json-schema"), "{}", out.stderr);
    let result: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    assert_eq!(result["structured_output"], Value::Null);
    assert_eq!(result["is_error"], true);
    assert_eq!(server.requests().len(), 3, "the prompt and two reminders");
}

#[tokio::test]
async fn an_unusable_schema_is_refused_before_anything_runs() {
    let dir = project();
    for (schema, says) in [
        ("{not json", "not JSON"),
        (r#"{"type": "array"}"#, "describe a JSON object"),
        (
            r#"{"type": "object", "properties": {"a": {"type": 12}}}"#,
            "not valid JSON Schema",
        ),
        ("/nonexistent/schema.json", "cannot be read"),
    ] {
        let mut cmd = tandem(Some("http://127.0.0.1:9"), dir.path());
        cmd.args(["--json-schema", schema, "--cwd"])
            .arg(dir.path())
            .args(["-p", "hi"]);
        let out = run(cmd).await;
        assert_eq!(out.code, 2, "{schema}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{schema}: {}", out.stderr);
    }
}

#[tokio::test]
async fn without_the_flag_the_tool_is_never_offered() {
    let dir = project();
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("hi")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.arg("--cwd").arg(dir.path()).args(["-p", "hi"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        offered(&server, 0)
            .iter()
            .all(|t| t["name"] != "StructuredOutput")
    );
}
