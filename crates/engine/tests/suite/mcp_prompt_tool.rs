//! `--permission-prompt-tool`: the test MCP server's `approve` tool answers the questions real Bash calls would ask
//! — allowing, refusing with its message, replacing the input (which the rules still check), and failing in ways
//! that refuse the call with the reason.

use std::sync::Arc;

use serde_json::json;
use tandem_engine::approver::{Approver, FixedApprover};
use tandem_engine::mcp::PromptToolApprover;
use tandem_engine::model::ContentBlock;
use tandem_engine::testing::{Project, TestRuntime};
use tandem_protocol::{ApprovalChoice, PermissionMode, ToolOutcome};
use tokio_util::sync::CancellationToken;

use super::mcp_support::*;

/// A row: the tool answering, the command, the outcome, text the result holds, files there after, files not there.
type Row<'a> = (
    &'a str,
    &'a str,
    ToolOutcome,
    &'a str,
    &'a [&'a str],
    &'a [&'a str],
);

fn result_text(block: &ContentBlock) -> String {
    serde_json::to_string(block).expect("json")
}

#[tokio::test]
async fn an_mcp_tool_answers_what_would_ask() {
    let project = Project::new().expect("project");
    let (manager, _) = start(&project.root, json!({"perms": stdio(&[])}), patient());
    ready(&manager, "perms").await;
    std::fs::write(project.root.join("keep.txt"), "keep").expect("keep.txt");
    let others: Arc<dyn Approver> = Arc::new(FixedApprover(ApprovalChoice::Allow));

    let rows: &[Row<'_>] = &[
        (
            "mcp__perms__approve",
            "echo hi > a.txt",
            ToolOutcome::Success,
            "",
            &["a.txt"],
            &[],
        ),
        (
            "mcp__perms__approve",
            "echo forbidden > b.txt",
            ToolOutcome::Denied,
            "forbidden by policy (\\\"Bash\\\")",
            &[],
            &["b.txt"],
        ),
        (
            "mcp__perms__approve",
            "echo rewrite-me > c.txt",
            ToolOutcome::Success,
            "",
            &["rewritten.txt"],
            &["c.txt"],
        ),
        // The replaced input is checked against the rules: a deny rule still refuses it.
        (
            "mcp__perms__approve",
            "echo rewrite-to-rm > d.txt",
            ToolOutcome::Denied,
            "Bash(rm *)",
            &["keep.txt"],
            &["d.txt"],
        ),
        (
            "mcp__perms__approve",
            "echo garbage > e.txt",
            ToolOutcome::Denied,
            "sure, go ahead",
            &[],
            &["e.txt"],
        ),
        (
            "mcp__perms__nothing",
            "echo hi > f.txt",
            ToolOutcome::Denied,
            "has no tool answering to",
            &[],
            &["f.txt"],
        ),
        (
            "mcp__elsewhere__approve",
            "echo hi > g.txt",
            ToolOutcome::Denied,
            "no MCP server of this session provides",
            &[],
            &["g.txt"],
        ),
    ];
    let mut failures = Vec::new();
    for (i, (tool, command, want, text, present, absent)) in rows.iter().enumerate() {
        let approver = PromptToolApprover::new(tool, others.clone()).expect("approver");
        approver.bind(manager.all_links());
        let rt = TestRuntime::new(&project.root)
            .permissions(project.ctx(&[("deny", "Bash(rm *)")], PermissionMode::Default))
            .approver(approver)
            .build();
        let outcome = tandem_engine::exec::run_tool_use(
            &rt,
            &format!("toolu_{i}"),
            "Bash",
            &json!({ "command": command }),
            &CancellationToken::new(),
        )
        .await;
        let body = result_text(&outcome.block);
        if outcome.outcome != *want || !body.contains(text) {
            failures.push(format!(
                "row {i} ({command}): want {want:?} with {text:?}, got {:?}: {body}",
                outcome.outcome
            ));
        }
        for file in *present {
            if !project.root.join(file).exists() {
                failures.push(format!("row {i} ({command}): {file} is missing"));
            }
        }
        for file in *absent {
            if project.root.join(file).exists() {
                failures.push(format!("row {i} ({command}): {file} was written"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
