//! The file tools in the pipeline: an edit that cannot apply is refused before the person is asked, an applied
//! edit carries a structured patch for the UI, and every tool declares its behaviour truthfully.

use std::fs;
use std::sync::Arc;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::exec::run_tool_use;
use tandem_engine::registry::builtin_tools;
use tandem_engine::testing::{ScriptedApprover, TestRuntime, Workspace};
use tandem_engine::tool::InterruptBehavior;
use tandem_protocol::{
    ApprovalChoice, DecisionSource, PermissionMode, SessionEvent, ToolDetail, ToolKind,
};
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_edit_never_asks_and_a_good_one_carries_its_patch() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    let text: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    fs::write(root.join("a.txt"), &text).expect("write");
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let events = RecordingSink::default();
    let mut rt = TestRuntime::new(&root).build();
    rt.approver = Arc::new(approver.clone());
    rt.events = Arc::new(events.clone());
    let cancel = CancellationToken::new();

    run_tool_use(&rt, "r", "Read", &json!({"file_path": "a.txt"}), &cancel).await;
    let bad = json!({"file_path": "a.txt", "old_string": "line 99", "new_string": "x"});
    run_tool_use(&rt, "bad", "Edit", &bad, &cancel).await;
    assert!(
        approver.asked().is_empty(),
        "a failing edit is refused before anyone is asked"
    );

    let good = json!({"file_path": "a.txt", "old_string": "line 15\n", "new_string": "line fifteen\nline 15.5\n"});
    run_tool_use(&rt, "good", "Edit", &good, &cancel).await;
    let asked = approver.asked();
    assert_eq!(asked.len(), 1);
    assert_eq!(
        asked[0].kind,
        ToolKind::Edit,
        "the dialog is told the kind of work"
    );
    assert_eq!(
        asked[0].decided_by,
        Some(DecisionSource::Mode {
            mode: PermissionMode::Default
        }),
        "the default mode asks for edits no rule allows"
    );
    let detail = events
        .events()
        .into_iter()
        .find_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                detail,
                ..
            } if tool_use_id == "good" => detail,
            _ => None,
        })
        .expect("detail");
    let ToolDetail::FileChange {
        hunks,
        created: false,
        replacements: Some(1),
        cell: None,
        ..
    } = detail
    else {
        panic!("not an edit's file change: {detail:?}");
    };
    let hunk = &hunks[0];
    assert_eq!(hunk.old_start, 12);
    assert_eq!(hunk.old_lines, 7);
    assert_eq!(hunk.new_lines, 8);
    assert_eq!(
        hunk.lines,
        [
            " line 12",
            " line 13",
            " line 14",
            "-line 15",
            "+line fifteen",
            "+line 15.5",
            " line 16",
            " line 17",
            " line 18"
        ]
    );
}

#[test]
fn tools_declare_their_behaviour_truthfully() {
    let cwd = std::env::temp_dir();
    let ctx = tandem_engine::tool::ToolContext::new(&cwd);
    let cases = [
        (
            "Read",
            json!({"file_path": "a"}),
            true,
            InterruptBehavior::Cancel,
        ),
        (
            "Glob",
            json!({"pattern": "*"}),
            true,
            InterruptBehavior::Cancel,
        ),
        (
            "Grep",
            json!({"pattern": "x"}),
            true,
            InterruptBehavior::Cancel,
        ),
        (
            "Edit",
            json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
            false,
            InterruptBehavior::Block,
        ),
        (
            "Write",
            json!({"file_path": "a", "content": ""}),
            false,
            InterruptBehavior::Block,
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "a.ipynb", "cell_id": "c", "new_source": ""}),
            false,
            InterruptBehavior::Block,
        ),
    ];
    let tools = builtin_tools();
    for (name, input, read_only, interrupt) in cases {
        let tool = tools.iter().find(|t| t.name() == name).expect("registered");
        let call = tool.prepare(&input).expect("valid input");
        assert_eq!(call.is_read_only(), read_only, "{name} read-only");
        assert_eq!(
            call.is_concurrency_safe(),
            read_only,
            "{name} concurrency-safe"
        );
        assert_eq!(call.is_destructive(), !read_only, "{name} destructive");
        assert_eq!(tool.interrupt_behavior(), interrupt, "{name} interrupt");
        assert_eq!(
            call.render_hints(&ctx).collapsible,
            read_only,
            "{name} collapsible"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_over_one_gib_are_never_edited() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    let big = fs::File::create(root.join("huge.log")).expect("create");
    big.set_len((1 << 30) + 1).expect("sparse file");
    let rt = TestRuntime::new(&root).build();
    let input = json!({"file_path": "huge.log", "old_string": "a", "new_string": "b"});
    let r = tandem_engine::testing::call(&rt, "Edit", &input).await;
    assert!(!r.ok && r.text.contains("over 1 GiB"), "{}", r.text);
}
