//! Deferred tools and ToolSearch against the fake model server, with 200 synthetic deferred tools: sent as names
//! only (in ToolSearch's description) when their definitions would take more than 10% of the window, loaded by
//! `select:` or keywords, offered from the next request on in the pool's order, and called.

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Model};
use tandem_engine::session::{Session, SessionOptions};
use tandem_engine::testing::{
    FakeServer, Script, ScriptedApprover, ScriptedTurn, SyntheticTool, Workspace, synthetic_tools,
};
use tandem_engine::tool::{DynTool, ToolSearchMode};
use tandem_engine::tools::tool_search::search;
use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent, ToolDetail};

use super::common::{fake_config, server};

fn session_with_tools(
    ws: &Workspace,
    fake: &FakeServer,
    tools: Vec<Arc<dyn DynTool>>,
    mode: ToolSearchMode,
    events: RecordingSink,
) -> Session {
    let config = fake_config(&fake.url());
    let model: Arc<dyn Model> = Arc::new(AnthropicModel::new(config.clone()).expect("client"));
    Session::builder(&ws.root())
        .expect("builder")
        .options(SessionOptions {
            id: None,
            cwd: ws.root(),
            model: config,
            mode: PermissionMode::Default,
            // MCP tools ask even when read-only (a server's readOnlyHint does not approve a call): say yes.
            approver: Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)),
            events: Arc::new(events),
            store: None,
            watch_settings: false,
        })
        .model_client(model)
        .extra_tools(tools)
        .tool_search(mode)
        .build()
        .expect("session")
}

fn names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|t| t["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn description_of(body: &Value, name: &str) -> String {
    body["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == name))
        .and_then(|t| t["description"].as_str())
        .unwrap_or_default()
        .to_string()
}

fn two_hundred_and_one_always_loaded() -> Vec<Arc<dyn DynTool>> {
    let mut tools = synthetic_tools(200);
    tools.push(Arc::new(SyntheticTool::numbered(200).always_loaded()));
    tools
}

#[tokio::test]
async fn deferred_tools_are_names_until_tool_search_loads_them() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "q1",
            "ToolSearch",
            json!({"query": "select:mcp__github__list_item_0"}),
        ),
        ScriptedTurn::tool_use(
            "q2",
            "ToolSearch",
            json!({"query": "+slack archive", "max_results": 2}),
        ),
        ScriptedTurn::tool_use("c1", "mcp__github__list_item_0", json!({"id": "42"})),
        ScriptedTurn::text("Done."),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session_with_tools(
        &ws,
        &fake,
        two_hundred_and_one_always_loaded(),
        ToolSearchMode::Auto,
        events.clone(),
    );
    let outcome = s.send("list the github items").await.expect("turn");
    assert_eq!(outcome.final_text, "Done.");
    let listing = s.tool_list();
    let entry = |name: &str| {
        listing
            .iter()
            .find(|t| t.name == name)
            .cloned()
            .expect("listed")
    };
    assert!(entry("ToolSearch").offered && entry("ToolSearch").reason.is_none());
    assert!(
        entry("mcp__slack__list_item_2")
            .reason
            .is_some_and(|r| r.contains("deferred"))
    );
    assert!(entry("mcp__github__list_item_0").reason.is_none(), "loaded");

    let requests = fake.requests();
    let first = names(&requests[0].body);
    assert!(first.contains(&"ToolSearch".to_string()), "{first:?}");
    assert!(
        first.contains(&"mcp__github__list_item_200".to_string()),
        "always_load is never deferred"
    );
    assert!(
        !first
            .iter()
            .any(|n| n.ends_with("_item_0") || n == "mcp__slack__list_item_2")
    );
    assert_eq!(first.iter().filter(|n| n.starts_with("mcp__")).count(), 1);
    let listing = description_of(&requests[0].body, "ToolSearch");
    assert!(listing.contains("<available-deferred-tools>"), "{listing}");
    assert_eq!(
        listing.matches("mcp__").count(),
        200,
        "every deferred tool is named"
    );

    // After select: the tool's definition is offered, in the pool's order after the built-ins.
    let second = names(&requests[1].body);
    assert!(
        second.contains(&"mcp__github__list_item_0".to_string()),
        "{second:?}"
    );
    let builtins = |list: &[String]| -> Vec<String> {
        list.iter()
            .filter(|n| !n.starts_with("mcp__"))
            .cloned()
            .collect()
    };
    assert_eq!(
        builtins(&first),
        builtins(&second),
        "the built-in prefix is stable"
    );
    assert_eq!(&second[..builtins(&first).len()], &builtins(&first)[..]);
    let first_result = requests[1].body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"][0]["content"].to_string())
        .unwrap_or_default();
    assert!(
        first_result.contains("\\\"name\\\":\\\"mcp__github__list_item_0\\\"")
            || first_result.contains("mcp__github__list_item_0"),
        "{first_result}"
    );
    assert!(first_result.contains("parameters"), "{first_result}");

    // The keyword search loaded the two best slack tools, the archive one among them.
    let third = names(&requests[2].body);
    let slack: Vec<&String> = third
        .iter()
        .filter(|n| n.starts_with("mcp__slack__"))
        .collect();
    assert_eq!(slack.len(), 2, "{third:?}");
    assert!(
        slack.iter().any(|n| *n == "mcp__slack__archive_item_74"),
        "the one slack archive tool: {slack:?}"
    );
    assert!(
        !third.iter().any(|n| n.starts_with("mcp__jira__")),
        "+slack is required: {third:?}"
    );
    let call_result = requests[3].body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"][0]["content"].to_string())
        .unwrap_or_default();
    assert!(
        call_result.contains("mcp__github__list_item_0 ran with"),
        "{call_result}"
    );

    let detail = events.events().into_iter().find_map(|e| match e {
        SessionEvent::ToolCallResult {
            tool_use_id,
            detail,
            ..
        } if tool_use_id == "q1" => detail,
        _ => None,
    });
    assert_eq!(
        detail,
        Some(ToolDetail::ToolSearch {
            query: "select:mcp__github__list_item_0".into(),
            loaded: vec!["mcp__github__list_item_0".into()],
            total_deferred: 200,
        })
    );
}

#[tokio::test]
async fn without_deferral_every_definition_is_sent_and_tool_search_is_not_offered() {
    for (mode, count) in [(ToolSearchMode::Never, 200), (ToolSearchMode::Auto, 3)] {
        let ws = Workspace::new(&[]).expect("workspace");
        let fake = server(Script::turns([ScriptedTurn::text("ok")])).await;
        let s = session_with_tools(
            &ws,
            &fake,
            synthetic_tools(count),
            mode,
            RecordingSink::default(),
        );
        s.send("hi").await.expect("turn");
        let sent = names(&fake.requests()[0].body);
        assert_eq!(
            sent.iter().filter(|n| n.starts_with("mcp__")).count(),
            count,
            "{mode:?}"
        );
        assert!(
            !sent.contains(&"ToolSearch".to_string()),
            "{mode:?}: {sent:?}"
        );
    }
    // Forced on, even three small tools are deferred.
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::text("ok")])).await;
    let s = session_with_tools(
        &ws,
        &fake,
        synthetic_tools(3),
        ToolSearchMode::Always,
        RecordingSink::default(),
    );
    s.send("hi").await.expect("turn");
    let sent = names(&fake.requests()[0].body);
    assert!(
        sent.contains(&"ToolSearch".to_string()) && !sent.iter().any(|n| n.starts_with("mcp__")),
        "{sent:?}"
    );
}

fn found_names(found: &[Arc<dyn DynTool>]) -> Vec<String> {
    found.iter().map(|t| t.name().to_string()).collect()
}

#[test]
fn select_loads_by_name_and_keywords_rank_name_over_description() {
    let tools = synthetic_tools(40);
    assert_eq!(
        found_names(&search(
            &tools,
            "select:mcp__jira__list_item_1, MCP__SLACK__LIST_ITEM_2,nope",
            5
        )),
        ["mcp__jira__list_item_1", "mcp__slack__list_item_2"]
    );
    // `get` is a name part of eight tools (8 to 15): they outrank tools that only mention it.
    let found = found_names(&search(&tools, "get", 3));
    assert_eq!(found.len(), 3);
    assert!(found.iter().all(|n| n.contains("__get_item_")), "{found:?}");
    // A required word filters; the best match comes first.
    let found = found_names(&search(&tools, "+postgres get", 10));
    assert!(
        found.iter().all(|n| n.starts_with("mcp__postgres__")),
        "{found:?}"
    );
    assert_eq!(
        found.first().map(String::as_str),
        Some("mcp__postgres__get_item_11")
    );
    assert!(search(&tools, "+nothing-matches", 5).is_empty());
}

/// Tools that arrive while the session runs (an MCP server that became ready) are deferred as soon as they would
/// take too much of the window, and deferral stops when they leave; what was loaded stays loaded.
#[test]
fn deferral_follows_tools_arriving_and_leaving() {
    let deferred = tandem_engine::tool::DeferredTools::default();
    let fixed: Vec<Arc<dyn DynTool>> = Vec::new();
    deferred.configure(&fixed, ToolSearchMode::Auto, 200_000);
    assert!(!deferred.is_active());

    let arrived = synthetic_tools(200);
    deferred.follow(&arrived);
    assert!(
        deferred.is_active(),
        "200 definitions are over 10% of the window"
    );
    let first = arrived[0].name().to_string();
    assert!(deferred.withholds(&first));
    deferred.load(std::slice::from_ref(&first));
    assert!(!deferred.withholds(&first));

    deferred.follow(&arrived[..1]);
    assert!(!deferred.is_active(), "one tool alone is sent in full");
    deferred.follow(&arrived);
    assert!(deferred.is_active());
    assert!(!deferred.withholds(&first), "a loaded tool stays loaded");
}
