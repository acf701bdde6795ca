//! `tandem acp` driven by the protocol SDK's own client over the binary's stdin and stdout, against the fake model:
//! a prompt whose answer writes a file (asked through `session/request_permission`, allowed) streams its updates in
//! order; a cancel ends a running prompt as `cancelled`; a stored session reopens with its history replayed and in
//! `tandem -p --resume`; closing the connection ends each session with its SessionEnd hooks. Every message of each connection is checked against the protocol's schema.

mod auth;
mod hosted;
mod remote;
mod schema;
mod sshd;
mod sub_agents;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    CancelNotification, ContentBlock, ImageContent, InitializeRequest, LoadSessionRequest,
    NewSessionRequest, PromptRequest, RequestPermissionOutcome, RequestPermissionRequest,
    RequestPermissionResponse, ResumeSessionRequest, SelectedPermissionOutcome,
    SessionNotification, SetSessionConfigOptionRequest, SetSessionModeRequest, StopReason,
    TextContent,
};
use agent_client_protocol::{AcpAgent, AcpAgentConfig, Agent, Client};
use serde_json::{Value, json};
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};

use super::commands::{project, run, tandem};
use schema::Wire;

const BIN: &str = env!("CARGO_BIN_EXE_tandem");

/// What the client received: every update as JSON, and every permission request.
#[derive(Clone, Default)]
struct Seen {
    updates: Arc<Mutex<Vec<Value>>>,
    asked: Arc<Mutex<Vec<Value>>>,
}

impl Seen {
    fn updates(&self) -> Vec<Value> {
        self.updates.lock().expect("updates").clone()
    }
    fn asked(&self) -> Vec<Value> {
        self.asked.lock().expect("asked").clone()
    }
}

/// `tandem acp` with a home of its own, pointed at the fake model.
fn agent(url: &str, home: &Path, wire: &Wire) -> AcpAgent {
    let config = AcpAgentConfig::new(BIN).arg("acp").envs([
        ("HOME", home.display().to_string()),
        (
            "XDG_CONFIG_HOME",
            home.join(".config").display().to_string(),
        ),
        (
            "XDG_DATA_HOME",
            home.join(".local/share").display().to_string(),
        ),
        ("ANTHROPIC_BASE_URL", url.to_string()),
        ("ANTHROPIC_API_KEY", "sk-acp-test".to_string()),
    ]);
    let wire = wire.clone();
    AcpAgent::new(config).with_debug(move |line, direction| wire.record(line, direction))
}

/// Runs `body` on a connection to `tandem acp` whose client records updates and answers permission requests with
/// `choice`.
async fn connect<F>(agent: AcpAgent, seen: &Seen, choice: &'static str, body: F)
where
    F: AsyncFnOnce(ConnectionTo<Agent>) -> Result<(), agent_client_protocol::Error> + Send,
{
    let (updates, asked) = (seen.updates.clone(), seen.asked.clone());
    Client
        .v1()
        .on_receive_notification(
            async move |n: SessionNotification, _cx| {
                let value = serde_json::to_value(&n.update).expect("update serialises");
                updates.lock().expect("updates").push(value);
                Ok(())
            },
            agent_client_protocol::on_receive_notification!(),
        )
        .on_receive_request(
            async move |request: RequestPermissionRequest, responder, _cx| {
                asked
                    .lock()
                    .expect("asked")
                    .push(serde_json::to_value(&request).expect("request serialises"));
                responder.respond(RequestPermissionResponse::new(
                    RequestPermissionOutcome::Selected(SelectedPermissionOutcome::new(choice)),
                ))
            },
            agent_client_protocol::on_receive_request!(),
        )
        .connect_with(agent, body)
        .await
        .expect("the connection runs");
}

fn text(prompt: &str) -> Vec<ContentBlock> {
    vec![ContentBlock::Text(TextContent::new(prompt))]
}

/// The agent's text in `updates`, chunks joined.
fn agent_text(updates: &[Value]) -> String {
    updates
        .iter()
        .filter(|u| u["sessionUpdate"] == "agent_message_chunk")
        .filter_map(|u| u["content"]["text"].as_str())
        .collect()
}

#[tokio::test]
async fn a_prompt_that_writes_asks_the_client_and_streams_in_order() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let notes = root.join("notes.txt");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "I'll write the notes.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_w1".into(),
                name: "Write".into(),
                input: json!({"file_path": notes.display().to_string(), "content": "hello\n"}),
            },
        ]),
        ScriptedTurn::text("Done: the notes are written."),
        ScriptedTurn::text("Still here."),
    ]))
    .await
    .expect("server");
    let wire = Wire::default();
    let seen = Seen::default();
    let session_id = Arc::new(Mutex::new(String::new()));
    let keep_id = session_id.clone();
    let cwd = root.clone();
    connect(
        agent(&server.url(), home.path(), &wire),
        &seen,
        "allow_once",
        async move |cx: ConnectionTo<Agent>| {
            let init = cx
                .send_request(InitializeRequest::new(ProtocolVersion::V1))
                .block_task()
                .await?;
            assert_eq!(init.protocol_version, ProtocolVersion::V1);
            assert!(init.agent_capabilities.load_session);
            assert!(init.agent_capabilities.prompt_capabilities.embedded_context);
            let new = cx
                .send_request(NewSessionRequest::new(cwd))
                .block_task()
                .await?;
            let modes = new.modes.expect("modes");
            assert_eq!(&*modes.current_mode_id.0, "default");
            let ids: Vec<&str> = modes.available_modes.iter().map(|m| &*m.id.0).collect();
            for mode in ["default", "acceptEdits", "plan", "dontAsk"] {
                assert!(ids.contains(&mode), "{ids:?}");
            }
            *keep_id.lock().expect("id") = new.session_id.0.to_string();
            let answer = cx
                .send_request(PromptRequest::new(
                    new.session_id.clone(),
                    text("Write the notes"),
                ))
                .block_task()
                .await?;
            assert_eq!(answer.stop_reason, StopReason::EndTurn);
            Ok(())
        },
    )
    .await;

    assert_eq!(std::fs::read_to_string(&notes).expect("written"), "hello\n");
    let updates = seen.updates();
    let asked = seen.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0]["toolCall"]["toolCallId"], "toolu_w1");
    assert_eq!(asked[0]["toolCall"]["kind"], "edit");
    let options: Vec<&str> = asked[0]["options"]
        .as_array()
        .expect("options")
        .iter()
        .filter_map(|o| o["optionId"].as_str())
        .collect();
    assert!(options.contains(&"allow_once") && options.contains(&"reject_once"));
    assert!(
        asked[0]["_meta"]["tandem"]["reason"].is_string(),
        "{}",
        asked[0]
    );

    // In order: the text before the call, the call pending, its input, running, completed with the diff, the answer.
    let position = |what: &dyn Fn(&Value) -> bool| {
        updates
            .iter()
            .position(what)
            .unwrap_or_else(|| panic!("missing update in {updates:#?}"))
    };
    let first_text = position(&|u| u["sessionUpdate"] == "agent_message_chunk");
    let call = position(&|u| u["sessionUpdate"] == "tool_call" && u["toolCallId"] == "toolu_w1");
    let input =
        position(&|u| u["toolCallId"] == "toolu_w1" && u["rawInput"]["content"] == "hello\n");
    let running = position(&|u| u["toolCallId"] == "toolu_w1" && u["status"] == "in_progress");
    let done = position(&|u| u["toolCallId"] == "toolu_w1" && u["status"] == "completed");
    assert!(first_text < call && call < input && input < running && running < done);
    // `pending` is the protocol's default status, left out on the wire.
    assert_eq!(
        updates[call]["status"].as_str().unwrap_or("pending"),
        "pending"
    );
    assert_eq!(updates[input]["kind"], "edit");
    assert_eq!(updates[done]["content"][0]["type"], "diff");
    assert_eq!(updates[done]["content"][0]["newText"], "hello\n");
    let after: String = agent_text(&updates[done..]);
    assert_eq!(after, "Done: the notes are written.");
    assert_eq!(agent_text(&updates[..call]), "I'll write the notes.");
    assert!(schema::validate(&wire.lines()) > 6);
    // Usage after each response: the context filled against the model's window, and the session's cost.
    let usage: Vec<&Value> = updates
        .iter()
        .filter(|u| u["sessionUpdate"] == "usage_update")
        .collect();
    assert_eq!(usage.len(), 2, "one per response: {usage:?}");
    assert!(
        usage
            .iter()
            .all(|u| u["size"] == 200_000 && u["used"].as_u64() > Some(0))
    );
    assert_eq!(usage[0]["cost"]["currency"], "USD");
    // The slash commands, when the session opens and after the prompt.
    let commands: Vec<&Value> = updates
        .iter()
        .filter(|u| u["sessionUpdate"] == "available_commands_update")
        .collect();
    assert_eq!(commands.len(), 2, "{commands:?}");
    let names: Vec<&str> = commands[0]["availableCommands"]
        .as_array()
        .expect("commands")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert!(names.contains(&"compact"), "{names:?}");

    // An ordinary stored session: `tandem -p --resume` continues it with the editor's conversation.
    let id = session_id.lock().expect("id").clone();
    let mut cmd = tandem(Some(&server.url()), home.path());
    cmd.current_dir(&root)
        .args(["--resume", &id, "-p", "and now?"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("Still here."));
    let last = server.requests().pop().expect("requests");
    assert!(
        last.body
            .to_string()
            .contains("Done: the notes are written."),
        "the resumed run did not carry the editor's conversation"
    );

    // Reopened from the store on a new connection: the history comes back as updates.
    let wire = Wire::default();
    let seen = Seen::default();
    let cwd = root.clone();
    connect(
        agent(&server.url(), home.path(), &wire),
        &seen,
        "reject_once",
        async move |cx: ConnectionTo<Agent>| {
            cx.send_request(InitializeRequest::new(ProtocolVersion::V1))
                .block_task()
                .await?;
            cx.send_request(LoadSessionRequest::new(id.clone(), cwd))
                .block_task()
                .await?;
            cx.send_request(SetSessionModeRequest::new(id.clone(), "plan"))
                .block_task()
                .await?;
            let refused = cx
                .send_request(SetSessionModeRequest::new(id.clone(), "bubble"))
                .block_task()
                .await;
            assert!(
                refused.is_err(),
                "a mode the session does not offer was taken"
            );
            Ok(())
        },
    )
    .await;
    let replayed = seen.updates();
    let prompts: Vec<&str> = replayed
        .iter()
        .filter(|u| u["sessionUpdate"] == "user_message_chunk")
        .filter_map(|u| u["content"]["text"].as_str())
        .collect();
    assert_eq!(prompts, ["Write the notes", "and now?"]);
    assert!(agent_text(&replayed).contains("Done: the notes are written."));
    assert!(
        replayed
            .iter()
            .any(|u| u["toolCallId"] == "toolu_w1" && u["status"] == "completed")
    );
    schema::validate(&wire.lines());

    // Resumed on a third connection: no history is replayed, and the conversation goes on with all of it.
    let wire = Wire::default();
    let seen = Seen::default();
    let cwd = root.clone();
    let resumed_id = session_id.lock().expect("id").clone();
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("Resumed.")]))
        .await
        .expect("server");
    connect(
        agent(&server.url(), home.path(), &wire),
        &seen,
        "reject_once",
        async move |cx: ConnectionTo<Agent>| {
            let init = cx
                .send_request(InitializeRequest::new(ProtocolVersion::V1))
                .block_task()
                .await?;
            assert!(
                init.agent_capabilities
                    .session_capabilities
                    .resume
                    .is_some()
            );
            let resumed = cx
                .send_request(ResumeSessionRequest::new(resumed_id.clone(), cwd))
                .block_task()
                .await?;
            let options = serde_json::to_value(resumed.config_options).expect("json");
            assert_eq!(options[0]["id"], "model", "{options}");
            assert_eq!(options[0]["category"], "model", "{options}");
            let switched = cx
                .send_request(SetSessionConfigOptionRequest::new(
                    resumed_id.clone(),
                    "model",
                    "claude-haiku-4-5",
                ))
                .block_task()
                .await?;
            let options = serde_json::to_value(switched.config_options).expect("json");
            assert_eq!(options[0]["currentValue"], "claude-haiku-4-5", "{options}");
            let refused = cx
                .send_request(SetSessionConfigOptionRequest::new(
                    resumed_id.clone(),
                    "temperature",
                    "hot",
                ))
                .block_task()
                .await;
            assert!(
                refused.is_err(),
                "an option Tandem does not offer was taken"
            );
            let answer = cx
                .send_request(PromptRequest::new(resumed_id.clone(), text("one more")))
                .block_task()
                .await?;
            assert_eq!(answer.stop_reason, StopReason::EndTurn);
            Ok(())
        },
    )
    .await;
    let updates = seen.updates();
    assert!(
        !updates
            .iter()
            .any(|u| u["sessionUpdate"] == "user_message_chunk"),
        "a resume replays nothing: {updates:#?}"
    );
    assert_eq!(agent_text(&updates), "Resumed.");
    let sent = server.requests().pop().expect("request").body;
    assert_eq!(
        sent["model"], "claude-haiku-4-5",
        "the model chosen for the session is used"
    );
    let sent = sent.to_string();
    assert!(sent.contains("Done: the notes are written.") && sent.contains("one more"));
    schema::validate(&wire.lines());
}

#[tokio::test]
async fn a_cancel_ends_the_running_prompt_as_cancelled() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    // About a minute of answer: the cancel comes long before its end, however busy the machine.
    let mut slow = ScriptedTurn::text("tick ".repeat(240) + "THE END");
    slow.delta_chars = 4;
    slow.chunk_delay_ms = 200;
    let server = FakeServer::start(Script::turns([slow]))
        .await
        .expect("server");
    let wire = Wire::default();
    let seen = Seen::default();
    let updates = seen.updates.clone();
    connect(
        agent(&server.url(), home.path(), &wire),
        &seen,
        "reject_once",
        async move |cx: ConnectionTo<Agent>| {
            cx.send_request(InitializeRequest::new(ProtocolVersion::V1))
                .block_task()
                .await?;
            let new = cx
                .send_request(NewSessionRequest::new(root))
                .block_task()
                .await?;
            let prompt = cx.send_request(PromptRequest::new(new.session_id.clone(), text("count")));
            // The answer has begun streaming: cancel it.
            while !updates
                .lock()
                .expect("updates")
                .iter()
                .any(|u| u["sessionUpdate"] == "agent_message_chunk")
            {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            cx.send_notification(CancelNotification::new(new.session_id.clone()))?;
            let answer = prompt.block_task().await?;
            assert_eq!(answer.stop_reason, StopReason::Cancelled);
            Ok(())
        },
    )
    .await;
    assert!(!agent_text(&seen.updates()).contains("THE END"));
    schema::validate(&wire.lines());
}

/// A one-pixel PNG in base64.
const PIXEL_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

#[tokio::test]
async fn an_image_in_the_prompt_reaches_the_model_and_one_that_is_not_is_named() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("A pixel.")]))
        .await
        .expect("server");
    let wire = Wire::default();
    let seen = Seen::default();
    let cwd = std::fs::canonicalize(dir.path()).expect("canonical");
    connect(
        agent(&server.url(), home.path(), &wire),
        &seen,
        "reject_once",
        async move |cx: ConnectionTo<Agent>| {
            let init = cx
                .send_request(InitializeRequest::new(ProtocolVersion::V1))
                .block_task()
                .await?;
            assert!(init.agent_capabilities.prompt_capabilities.image);
            let new = cx
                .send_request(NewSessionRequest::new(cwd))
                .block_task()
                .await?;
            let blocks = vec![
                ContentBlock::Image(ImageContent::new(PIXEL_BASE64, "image/png")),
                ContentBlock::Image(ImageContent::new("bm90IGFuIGltYWdl", "image/png")),
                ContentBlock::Text(TextContent::new("What is this?")),
            ];
            let answer = cx
                .send_request(PromptRequest::new(new.session_id.clone(), blocks))
                .block_task()
                .await?;
            assert_eq!(answer.stop_reason, StopReason::EndTurn);
            Ok(())
        },
    )
    .await;
    let body = &server.requests()[0].body;
    let content = body["messages"][0]["content"].as_array().expect("content");
    assert_eq!(content[0]["type"], "image", "{content:?}");
    assert_eq!(
        content[0]["source"]["data"], PIXEL_BASE64,
        "a small image is sent byte for byte"
    );
    let text = body["messages"][0].to_string();
    assert!(text.contains("What is this?"), "{text}");
    assert!(
        text.contains("an attached image could not be used: image 2"),
        "{text}"
    );
    assert_eq!(agent_text(&seen.updates()), "A pixel.");
    schema::validate(&wire.lines());
}

#[tokio::test]
async fn closing_the_connection_ends_each_session_with_its_session_end_hooks() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let ended = home.path().join("ended.log");
    std::fs::create_dir_all(home.path().join(".claude")).expect("settings folder");
    std::fs::write(
        home.path().join(".claude/settings.json"),
        json!({"hooks": {"SessionEnd": [{"hooks": [
            {"type": "command", "command": format!("cat >> {}; echo >> {}", ended.display(), ended.display())}
        ]}]}})
        .to_string(),
    )
    .expect("settings");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("Hello.")]))
        .await
        .expect("server");
    let wire = Wire::default();
    let seen = Seen::default();
    connect(
        agent(&server.url(), home.path(), &wire),
        &seen,
        "reject_once",
        async move |cx: ConnectionTo<Agent>| {
            cx.send_request(InitializeRequest::new(ProtocolVersion::V1))
                .block_task()
                .await?;
            let new = cx
                .send_request(NewSessionRequest::new(root))
                .block_task()
                .await?;
            cx.send_request(PromptRequest::new(new.session_id.clone(), text("hi")))
                .block_task()
                .await?;
            Ok(())
        },
    )
    .await;
    // The client has gone (its end of the pipe closed): the agent ends the session before it exits.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while !std::fs::read_to_string(&ended).is_ok_and(|t| t.contains("SessionEnd"))
        && std::time::Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let log = std::fs::read_to_string(&ended).expect("the SessionEnd hook ran");
    let payload: Value = serde_json::from_str(log.lines().next().expect("a line")).expect("JSON");
    assert_eq!(payload["hook_event_name"], "SessionEnd");
    assert_eq!(payload["reason"], "other");
    schema::validate(&wire.lines());
}
