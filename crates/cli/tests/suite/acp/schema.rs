//! Every line that crossed an ACP connection, checked against the protocol's JSON schema (generated from the
//! published schema types): each request's params and each response's result by its method (the agent's methods and
//! the client's: permission, file system, terminals), each notification's params. A message of a method not listed
//! here fails the check.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent_client_protocol::LineDirection;
use agent_client_protocol::v1::schema as acp;
use serde_json::Value;

/// The lines of one connection, as the client's transport saw them.
#[derive(Clone, Default)]
pub struct Wire(Arc<Mutex<Vec<(LineDirection, String)>>>);

impl Wire {
    pub fn record(&self, line: &str, direction: LineDirection) {
        if direction != LineDirection::Stderr {
            self.0
                .lock()
                .expect("wire")
                .push((direction, line.to_string()));
        }
    }

    pub fn lines(&self) -> Vec<(LineDirection, String)> {
        self.0.lock().expect("wire").clone()
    }
}

fn validator<T: schemars::JsonSchema>() -> jsonschema::Validator {
    let schema = serde_json::to_value(schemars::schema_for!(T)).expect("schema serialises");
    jsonschema::validator_for(&schema).expect("schema compiles")
}

/// The request and response schema of each method.
fn methods() -> HashMap<&'static str, (jsonschema::Validator, Option<jsonschema::Validator>)> {
    HashMap::from([
        (
            "initialize",
            (
                validator::<acp::InitializeRequest>(),
                Some(validator::<acp::InitializeResponse>()),
            ),
        ),
        (
            "session/new",
            (
                validator::<acp::NewSessionRequest>(),
                Some(validator::<acp::NewSessionResponse>()),
            ),
        ),
        (
            "session/load",
            (
                validator::<acp::LoadSessionRequest>(),
                Some(validator::<acp::LoadSessionResponse>()),
            ),
        ),
        (
            "session/resume",
            (
                validator::<acp::ResumeSessionRequest>(),
                Some(validator::<acp::ResumeSessionResponse>()),
            ),
        ),
        (
            "session/set_config_option",
            (
                validator::<acp::SetSessionConfigOptionRequest>(),
                Some(validator::<acp::SetSessionConfigOptionResponse>()),
            ),
        ),
        (
            "session/list",
            (
                validator::<acp::ListSessionsRequest>(),
                Some(validator::<acp::ListSessionsResponse>()),
            ),
        ),
        (
            "session/prompt",
            (
                validator::<acp::PromptRequest>(),
                Some(validator::<acp::PromptResponse>()),
            ),
        ),
        (
            "session/set_mode",
            (
                validator::<acp::SetSessionModeRequest>(),
                Some(validator::<acp::SetSessionModeResponse>()),
            ),
        ),
        (
            "authenticate",
            (
                validator::<acp::AuthenticateRequest>(),
                Some(validator::<acp::AuthenticateResponse>()),
            ),
        ),
        (
            "session/request_permission",
            (
                validator::<acp::RequestPermissionRequest>(),
                Some(validator::<acp::RequestPermissionResponse>()),
            ),
        ),
        (
            "fs/read_text_file",
            (
                validator::<acp::ReadTextFileRequest>(),
                Some(validator::<acp::ReadTextFileResponse>()),
            ),
        ),
        (
            "fs/write_text_file",
            (
                validator::<acp::WriteTextFileRequest>(),
                Some(validator::<acp::WriteTextFileResponse>()),
            ),
        ),
        (
            "terminal/create",
            (
                validator::<acp::CreateTerminalRequest>(),
                Some(validator::<acp::CreateTerminalResponse>()),
            ),
        ),
        (
            "terminal/output",
            (
                validator::<acp::TerminalOutputRequest>(),
                Some(validator::<acp::TerminalOutputResponse>()),
            ),
        ),
        (
            "terminal/wait_for_exit",
            (
                validator::<acp::WaitForTerminalExitRequest>(),
                Some(validator::<acp::WaitForTerminalExitResponse>()),
            ),
        ),
        (
            "terminal/kill",
            (
                validator::<acp::KillTerminalRequest>(),
                Some(validator::<acp::KillTerminalResponse>()),
            ),
        ),
        (
            "terminal/release",
            (
                validator::<acp::ReleaseTerminalRequest>(),
                Some(validator::<acp::ReleaseTerminalResponse>()),
            ),
        ),
        (
            "session/update",
            (validator::<acp::SessionNotification>(), None),
        ),
        (
            "session/cancel",
            (validator::<acp::CancelNotification>(), None),
        ),
    ])
}

fn check(validator: &jsonschema::Validator, value: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{what} breaks the schema: {errors:?}\n{value}"
    );
}

/// Checks every line; returns how many messages were checked.
pub fn validate(lines: &[(LineDirection, String)]) -> usize {
    let methods = methods();
    // Requests by (sent by the agent, id): the method their response answers.
    let mut pending: HashMap<(bool, String), String> = HashMap::new();
    for (direction, line) in lines {
        let message: Value = serde_json::from_str(line).expect("each line is one JSON message");
        assert_eq!(message["jsonrpc"], "2.0", "{line}");
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            let (params, _) = methods
                .get(method)
                .unwrap_or_else(|| panic!("unexpected method {method}: {line}"));
            check(params, &message["params"], method);
            if let Some(id) = message.get("id") {
                pending.insert(
                    (*direction == LineDirection::Stdout, id.to_string()),
                    method.to_string(),
                );
            }
            continue;
        }
        let id = message["id"].to_string();
        // A response travels the other way from its request.
        let asker = *direction != LineDirection::Stdout;
        let method = pending
            .remove(&(asker, id))
            .unwrap_or_else(|| panic!("a response to no request: {line}"));
        if let Some(error) = message.get("error") {
            assert!(
                error["code"].is_i64() && error["message"].is_string(),
                "{line}"
            );
            continue;
        }
        let (_, result) = &methods[method.as_str()];
        check(
            result.as_ref().expect("a request method"),
            &message["result"],
            &format!("the result of {method}"),
        );
    }
    lines.len()
}
