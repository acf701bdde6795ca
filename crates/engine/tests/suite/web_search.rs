//! WebSearch against the fake model server: the provider's search tool offered in the request, its blocks
//! streamed back shown as a call with links and kept in the history the next request carries; and an
//! OpenAI-compatible session, which is not offered the tool and says why in its tool list.

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::model::connect;
use tandem_engine::testing::{Script, ScriptBlock, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, SessionEvent, ToolDetail, ToolOutcome};

use super::common::{openai_config, server, session, session_with};

fn deny_all() -> Arc<ScriptedApprover> {
    Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny))
}

fn results() -> Value {
    json!([
        {"type": "web_search_result", "title": "Serde", "url": "https://serde.rs/", "page_age": "3 days ago",
         "encrypted_content": "EqgfCioIARgBIiQ3YTAw"},
        {"type": "web_search_result", "title": "serde - Rust", "url": "https://docs.rs/serde",
         "encrypted_content": "EpsBCioIARgBIiQ4ZjFh"}
    ])
}

#[tokio::test]
async fn the_provider_searches_and_the_results_show_as_links_and_stay_in_the_history() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::ServerToolUse {
                id: "srvtoolu_1".into(),
                name: "web_search".into(),
                input: json!({"query": "rust serde"}),
            },
            ScriptBlock::WebSearchResult {
                tool_use_id: "srvtoolu_1".into(),
                content: results(),
            },
            ScriptBlock::Text {
                text: "Serde's site is serde.rs.".into(),
            },
        ]),
        ScriptedTurn::text("You're welcome."),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());
    let outcome = s.send("where is serde documented?").await.expect("turn");
    assert_eq!(outcome.final_text, "Serde's site is serde.rs.");
    assert_eq!(
        outcome.requests, 1,
        "a server tool owes no result: one request"
    );
    s.send("thanks").await.expect("second turn");

    let requests = fake.requests();
    let tools = requests[0].body["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let search = tools
        .iter()
        .find(|t| t["name"] == "web_search")
        .expect("the search tool is offered");
    assert_eq!(search["type"], "web_search_20250305");
    assert_eq!(search["max_uses"], 8);
    assert!(search.get("input_schema").is_none(), "{search}");
    assert!(!tools.iter().any(|t| t["name"] == "WebSearch"));

    // The second request carries the provider's blocks as they came (encrypted content included).
    let history = requests[1].body["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let assistant = &history[1]["content"];
    assert_eq!(assistant[0]["type"], "server_tool_use");
    assert_eq!(assistant[0]["input"]["query"], "rust serde");
    assert_eq!(assistant[1]["type"], "web_search_tool_result");
    assert_eq!(
        assistant[1]["content"][0]["encrypted_content"],
        "EqgfCioIARgBIiQ3YTAw"
    );
    assert_eq!(assistant[2]["text"], "Serde's site is serde.rs.");

    let events = events.events();
    assert!(events.iter().any(
        |e| matches!(e, SessionEvent::ToolCallInput { tool_use_id, name, hints, .. }
        if tool_use_id == "srvtoolu_1" && name == "WebSearch" && hints.title.contains("rust serde"))
    ));
    let (outcome, content, detail) = events
        .iter()
        .find_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                outcome,
                content,
                detail,
            } if tool_use_id == "srvtoolu_1" => Some((*outcome, content.clone(), detail.clone())),
            _ => None,
        })
        .expect("the search's result");
    assert_eq!(outcome, ToolOutcome::Success);
    assert!(content.contains("[Serde](https://serde.rs/)"), "{content}");
    match detail {
        Some(ToolDetail::WebSearch {
            query,
            results,
            error,
        }) => {
            assert_eq!(query, "rust serde");
            assert_eq!(results.len(), 2);
            assert_eq!(results[0].url, "https://serde.rs/");
            assert_eq!(results[0].page_age.as_deref(), Some("3 days ago"));
            assert!(error.is_none());
        }
        other => panic!("expected a WebSearch detail, got {other:?}"),
    }
}

#[tokio::test]
async fn a_failed_search_is_an_error_in_the_transcript() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::new(vec![
        ScriptBlock::ServerToolUse {
            id: "srvtoolu_9".into(),
            name: "web_search".into(),
            input: json!({"query": "x"}),
        },
        ScriptBlock::WebSearchResult {
            tool_use_id: "srvtoolu_9".into(),
            content: json!({"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}),
        },
        ScriptBlock::Text {
            text: "The search failed.".into(),
        },
    ])]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());
    s.send("search").await.expect("turn");
    assert!(events.events().iter().any(|e| matches!(e, SessionEvent::ToolCallResult { tool_use_id, outcome: ToolOutcome::Error, content, .. }
        if tool_use_id == "srvtoolu_9" && content.contains("max_uses_exceeded"))));
}

#[tokio::test]
async fn an_openai_compatible_session_is_not_offered_the_search_and_says_why() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::text("No search here.")])).await;
    let config = openai_config(&fake.url());
    let model = connect(config.clone()).expect("client");
    let s = session_with(
        &ws.root(),
        model,
        config,
        deny_all(),
        RecordingSink::default(),
    );
    s.send("search the web").await.expect("turn");

    let body = &fake.requests()[0].body;
    let names: Vec<String> = body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        names.contains(&"Read".to_string())
            && !names
                .iter()
                .any(|n| n.contains("earch") && n != "ToolSearch"),
        "{names:?}"
    );
    let listing = s.tool_list();
    let search = listing
        .iter()
        .find(|t| t.name == "WebSearch")
        .expect("listed");
    assert!(!search.offered);
    assert!(
        search
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("OpenAI-compatible")),
        "{search:?}"
    );
    assert!(listing.iter().any(|t| t.name == "WebFetch" && t.offered));
}
