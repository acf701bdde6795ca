//! MCP servers' forms (elicitation) inside a session: the workspace's test server asks through a tool; the form
//! reaches the approver as typed fields, announced and then resolved; accepted values are checked before they go
//! back, declines and cancels reach the server as such, and with nobody to ask (as in `tandem -p`) the form is
//! declined with a notice.

use std::sync::Arc;

use serde_json::{Map, Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::mcp::McpCliConfig;
use tandem_engine::session::Session;
use tandem_engine::testing::{FormReply, Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{
    ApprovalChoice, ElicitationAction, EnumOption, FieldKind, PermissionMode, SessionEvent,
    StringFormat,
};

use super::common::{fake_config, server};
use super::mcp_support::*;

fn values(v: Value) -> Option<Map<String, Value>> {
    v.as_object().cloned()
}

/// Runs one turn in which the model calls the test server's `ask` tool once per reply (the last reply may be
/// missing: nobody answers); returns the approver, the events and each call's result text.
async fn ask(
    replies: Vec<FormReply>,
    calls: usize,
) -> (ScriptedApprover, Vec<SessionEvent>, Vec<String>) {
    let ws = Workspace::new(&[]).expect("workspace");
    let mut turns: Vec<ScriptedTurn> = (0..calls)
        .map(|i| ScriptedTurn::tool_use(format!("ask{i}"), "mcp__t__ask", json!({})))
        .collect();
    turns.push(ScriptedTurn::text("done"));
    let fake = server(Script::turns(turns)).await;
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny).with_form_answers(replies);
    let events = RecordingSink::default();
    let session = Session::builder(&ws.root())
        .expect("builder")
        .model(fake_config(&fake.url()))
        .mode(PermissionMode::BypassPermissions)
        .approver(Arc::new(approver.clone()))
        .events(Arc::new(events.clone()))
        .mcp_config(McpCliConfig {
            configs: vec![json!({"mcpServers": {"t": stdio(&[])}}).to_string()],
            strict: true,
        })
        .build()
        .expect("session");
    ready(session.mcp().manager(), "t").await;
    session.send("ask the user").await.expect("turn");
    let events = events.events();
    let results = (0..calls)
        .map(|i| {
            events
                .iter()
                .find_map(|e| match e {
                    SessionEvent::ToolCallResult {
                        tool_use_id,
                        content,
                        ..
                    } if *tool_use_id == format!("ask{i}") => Some(content.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| panic!("no result for ask{i}"))
        })
        .collect();
    (approver, events, results)
}

#[tokio::test]
async fn a_servers_form_reaches_the_person_and_their_answer_reaches_the_server() {
    let valid = json!({"name": "Ada", "email": "ada@example.org", "copies": 2, "urgent": true, "format": "html"});
    let (approver, events, results) = ask(
        vec![
            (ElicitationAction::Accept, values(valid)),
            (ElicitationAction::Decline, None),
            (ElicitationAction::Cancel, None),
            // An email that is not one: never sent.
            (
                ElicitationAction::Accept,
                values(json!({"name": "Ada", "email": "nope"})),
            ),
        ],
        4,
    )
    .await;
    let forms = approver.forms_asked();
    assert_eq!(forms.len(), 4);
    let form = &forms[0];
    assert_eq!(form.server, "t");
    assert_eq!(form.message, "Who should the report go to?");
    let field = |n: &str| form.fields.iter().find(|f| f.name == n).expect(n);
    assert!(field("name").required && field("email").required && !field("copies").required);
    assert!(matches!(
        field("email").kind,
        FieldKind::String {
            format: Some(StringFormat::Email),
            ..
        }
    ));
    assert!(matches!(
        field("copies").kind,
        FieldKind::Number {
            integer: true,
            minimum: Some(1.0),
            maximum: Some(5.0),
            default: Some(1.0)
        }
    ));
    assert!(
        matches!(&field("format").kind, FieldKind::Enum { options, .. }
        if options[1] == EnumOption { value: "html".into(), label: "Web page".into() })
    );

    assert!(
        results[0].contains(r#""action":"accept""#),
        "{}",
        results[0]
    );
    assert!(
        results[0].contains("ada@example.org") && results[0].contains(r#""copies":2"#),
        "{}",
        results[0]
    );
    assert!(
        results[1].contains(r#""action":"decline""#),
        "{}",
        results[1]
    );
    assert!(
        results[2].contains(r#""action":"cancel""#),
        "{}",
        results[2]
    );
    assert!(
        results[3].contains(r#""action":"decline""#),
        "{}",
        results[3]
    );
    assert!(!results[3].contains("nope"), "{}", results[3]);
    assert!(events.iter().any(|e| matches!(e,
        SessionEvent::Notice { message } if message.contains("not sent") && message.contains("email"))));

    // Each form is announced before the approver is asked, and resolved once answered.
    for form in &forms {
        let announced = events.iter().position(|e| {
            matches!(e,
            SessionEvent::ElicitationRequested { request } if request.id == form.id)
        });
        let resolved = events.iter().position(|e| {
            matches!(e,
            SessionEvent::ApprovalResolved { request_id } if *request_id == form.id)
        });
        assert!(announced.is_some() && announced < resolved, "{form:?}");
    }
}

#[tokio::test]
async fn with_nobody_to_ask_the_form_is_declined_and_the_person_is_told() {
    let (approver, events, results) = ask(Vec::new(), 1).await;
    assert_eq!(approver.forms_asked().len(), 1);
    assert!(
        results[0].contains(r#""action":"decline""#),
        "{}",
        results[0]
    );
    assert!(events.iter().any(|e| matches!(e,
        SessionEvent::Notice { message } if message.contains("MCP server t") && message.contains("declined"))));
}

/// The published reference server's entry point; the test fails loudly when it (or node) is missing.
fn everything_server() -> std::path::PathBuf {
    let entry = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        entry.is_file(),
        "{} is missing: run scripts/install-deps (it installs tests/mcp's npm packages)",
        entry.display()
    );
    entry
}

#[tokio::test]
async fn the_reference_servers_form_is_shown_and_answered() {
    let entry = everything_server();
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "form",
            "mcp__everything__trigger-elicitation-request",
            json!({}),
        ),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let answer = json!({
        "name": "Ada Lovelace", "check": true, "email": "ada@example.org", "homepage": "https://ada.example.org",
        "birthdate": "1815-12-10", "integer": 7, "number": 2.5, "untitledSingleSelectEnum": "Joey",
        "untitledMultipleSelectEnum": ["Piano", "Drums"], "titledSingleSelectEnum": "hero-3",
        "titledMultipleSelectEnum": ["fish-2"], "legacyTitledEnum": "pet-2"
    });
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny)
        .with_form_answers([(ElicitationAction::Accept, values(answer))]);
    let events = RecordingSink::default();
    let session = Session::builder(&ws.root())
        .expect("builder")
        .model(fake_config(&fake.url()))
        .mode(PermissionMode::BypassPermissions)
        .approver(Arc::new(approver.clone()))
        .events(Arc::new(events.clone()))
        .mcp_config(McpCliConfig {
            configs: vec![
                json!({"mcpServers": {"everything": {
                "command": "node", "args": [entry.display().to_string(), "stdio"]}}})
                .to_string(),
            ],
            strict: true,
        })
        .build()
        .expect("session");
    ready(session.mcp().manager(), "everything").await;
    session.send("fill in the form").await.expect("turn");
    let forms = approver.forms_asked();
    assert_eq!(forms.len(), 1);
    let kinds: Vec<(&str, &FieldKind)> = forms[0]
        .fields
        .iter()
        .map(|f| (f.name.as_str(), &f.kind))
        .collect();
    assert!(kinds.iter().any(|(n, k)| *n == "untitledMultipleSelectEnum"
        && matches!(
            k,
            FieldKind::MultiSelect {
                max_items: Some(3),
                ..
            }
        )));
    assert!(kinds.iter().any(|(n, k)| *n == "legacyTitledEnum"
        && matches!(k, FieldKind::Enum { options, .. } if options[1].label == "Dogs")));
    let result = events
        .events()
        .into_iter()
        .find_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                content,
                ..
            } if tool_use_id == "form" => Some(content),
            _ => None,
        })
        .expect("a result");
    assert!(
        result.contains("User provided the requested information"),
        "{result}"
    );
    assert!(
        result.contains("Name: Ada Lovelace") && result.contains("Favorite Integer: 7"),
        "{result}"
    );
}
