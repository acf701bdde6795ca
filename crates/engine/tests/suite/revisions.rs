//! A file change the person revised in the diff dialog: hunks rejected or the proposed text edited. The file is
//! written as the person left it, in the file's encoding and line endings, checkpointed like any change, and the
//! model is told which hunks were rejected and how the file differs from its proposal.

use std::fs;
use std::sync::Arc;

use serde_json::json;
use tandem_engine::exec::run_tool_use;
use tandem_engine::model::{ContentBlock, ToolResultContent};
use tandem_engine::testing::{FnApprover, TestRuntime, Workspace};
use tandem_protocol::{ApprovalAnswer, ApprovalChoice, ApprovalRequest, Revision, ToolOutcome};
use tokio_util::sync::CancellationToken;

fn result_text(block: &ContentBlock) -> String {
    match block {
        ContentBlock::ToolResult { content, .. } => match content {
            ToolResultContent::Text(t) => t.clone(),
            other => format!("{other:?}"),
        },
        other => panic!("not a result: {other:?}"),
    }
}

/// Allows each request with the revision `revise` makes of the proposed text (and a message).
fn reviewer(
    revise: impl Fn(&str) -> (String, Vec<u32>, u32, bool) + Send + Sync + 'static,
) -> FnApprover {
    FnApprover::new(move |request: &ApprovalRequest| {
        let proposal = request
            .diff
            .as_ref()
            .expect("a file change carries its diff");
        let (text, rejected_hunks, total_hunks, edited) = revise(&proposal.new_text);
        let mut answer = ApprovalAnswer::new(request.id.clone(), ApprovalChoice::Allow);
        answer.message = Some("keep the old greeting".into());
        answer.revision = Some(Revision {
            text,
            rejected_hunks,
            total_hunks,
            edited,
        });
        answer
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_hunk_is_left_out_and_the_model_is_told_which() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    let old =
        "greeting = 'hi'\n\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n\nfarewell = 'bye'\n";
    fs::write(root.join("app.py"), old).expect("write");
    // The proposal changes both assignments; the person keeps the first one as it was (rejects hunk 1).
    let approver = reviewer(|proposed| {
        (
            proposed.replace("greeting = 'hello'", "greeting = 'hi'"),
            vec![1],
            2,
            false,
        )
    });
    let mut rt = TestRuntime::new(&root).build();
    rt.approver = Arc::new(approver.clone());
    let cancel = CancellationToken::new();
    run_tool_use(&rt, "r", "Read", &json!({"file_path": "app.py"}), &cancel).await;
    let input = json!({"file_path": "app.py", "content":
        "greeting = 'hello'\n\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n\nfarewell = 'goodbye'\n"});
    let out = run_tool_use(&rt, "w", "Write", &input, &cancel).await;
    assert_eq!(out.outcome, ToolOutcome::Success, "{:?}", out.block);
    assert_eq!(
        fs::read_to_string(root.join("app.py")).expect("read"),
        "greeting = 'hi'\n\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n\nfarewell = 'goodbye'\n"
    );
    let text = result_text(&out.block);
    assert!(text.contains("rejected hunk 1 of the 2"), "{text}");
    assert!(
        text.contains("-greeting = 'hello'\n+greeting = 'hi'"),
        "{text}"
    );
    assert!(
        text.contains("The user said: keep the old greeting"),
        "{text}"
    );

    // The file's read state is the written text: the next edit is not refused as stale.
    let next = json!({"file_path": "app.py", "old_string": "line 3", "new_string": "line three"});
    rt.approver = Arc::new(FnApprover::new(|r: &ApprovalRequest| {
        ApprovalAnswer::new(r.id.clone(), ApprovalChoice::Allow)
    }));
    let out = run_tool_use(&rt, "e", "Edit", &next, &cancel).await;
    assert_eq!(out.outcome, ToolOutcome::Success, "{:?}", out.block);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_proposal_keeps_the_files_crlf_endings() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    fs::write(root.join("notes.txt"), "one\r\ntwo\r\nthree\r\n").expect("write");
    // The dialog's text box hands back bare line feeds.
    let approver = reviewer(|proposed| {
        assert_eq!(proposed, "one\r\n2\r\nthree\r\n");
        (
            "one\ntwo, edited by hand\nthree\n".to_string(),
            vec![],
            1,
            true,
        )
    });
    let mut rt = TestRuntime::new(&root).build();
    rt.approver = Arc::new(approver);
    let cancel = CancellationToken::new();
    run_tool_use(
        &rt,
        "r",
        "Read",
        &json!({"file_path": "notes.txt"}),
        &cancel,
    )
    .await;
    let edit = json!({"file_path": "notes.txt", "old_string": "two", "new_string": "2"});
    let out = run_tool_use(&rt, "e", "Edit", &edit, &cancel).await;
    assert_eq!(out.outcome, ToolOutcome::Success, "{:?}", out.block);
    assert_eq!(
        fs::read(root.join("notes.txt")).expect("read"),
        b"one\r\ntwo, edited by hand\r\nthree\r\n"
    );
    let text = result_text(&out.block);
    assert!(text.contains("edited the proposed text"), "{text}");
    assert!(!text.contains("rejected"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revision_equal_to_the_proposal_is_a_plain_acceptance() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    fs::write(root.join("a.txt"), "a\n").expect("write");
    let approver = reviewer(|proposed| (proposed.to_string(), vec![], 1, false));
    let mut rt = TestRuntime::new(&root).build();
    rt.approver = Arc::new(approver);
    let cancel = CancellationToken::new();
    run_tool_use(&rt, "r", "Read", &json!({"file_path": "a.txt"}), &cancel).await;
    let out = run_tool_use(
        &rt,
        "e",
        "Edit",
        &json!({"file_path": "a.txt", "old_string": "a", "new_string": "b"}),
        &cancel,
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Success);
    assert_eq!(fs::read_to_string(root.join("a.txt")).expect("read"), "b\n");
    assert!(!result_text(&out.block).contains("reviewed"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partly_accepted_edit_is_reported_as_it_is_on_disk() {
    use tandem_engine::testing::RecordingSink;
    use tandem_protocol::{FileRevision, SessionEvent, ToolDetail};
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    let old = "greeting = 'hi'\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nfarewell = 'bye'\n";
    fs::write(root.join("app.py"), old).expect("write");
    // One Edit changes both ends of the file (two hunks); the person rejects the second.
    let approver = reviewer(|proposed| {
        (
            proposed.replace("farewell = 'goodbye'", "farewell = 'bye'"),
            vec![2],
            2,
            false,
        )
    });
    let events = RecordingSink::default();
    let mut rt = TestRuntime::new(&root)
        .events(Arc::new(events.clone()))
        .build();
    rt.approver = Arc::new(approver);
    let cancel = CancellationToken::new();
    run_tool_use(&rt, "r", "Read", &json!({"file_path": "app.py"}), &cancel).await;
    let input = json!({"file_path": "app.py", "old_string": old.trim_end(), "new_string":
        old.trim_end().replace("'hi'", "'hello'").replace("'bye'", "'goodbye'")});
    let out = run_tool_use(&rt, "e", "Edit", &input, &cancel).await;
    assert_eq!(out.outcome, ToolOutcome::Success, "{:?}", out.block);
    let on_disk = fs::read_to_string(root.join("app.py")).expect("read");
    assert_eq!(on_disk, old.replace("'hi'", "'hello'"));

    // The model's snippet shows the file as written; the rejected line appears only in the note's diff.
    let text = result_text(&out.block);
    let (snippet, note) = text
        .split_once("The user reviewed")
        .expect("the note follows the snippet");
    assert!(snippet.contains("greeting = 'hello'"), "{text}");
    assert!(!snippet.contains("goodbye"), "{text}");
    assert!(!snippet.contains("has been updated. Here's"), "{text}");
    assert!(note.contains("rejected hunk 2 of the 2"), "{note}");
    assert!(note.contains("-farewell = 'goodbye'"), "{note}");

    // The transcript's row gets the same: the diff and hunks of what is on disk, marked as revised.
    let detail = events
        .events()
        .into_iter()
        .find_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                detail,
                content,
                ..
            } if tool_use_id == "e" => Some((detail, content)),
            _ => None,
        })
        .expect("a result event");
    assert_eq!(detail.1, text, "the window shows what the model is told");
    let Some(ToolDetail::FileChange {
        hunks,
        diff,
        revised,
        ..
    }) = detail.0
    else {
        panic!("a file change: {:?}", detail.0);
    };
    let diff = diff.expect("the texts");
    assert_eq!(diff.old_text, old);
    assert_eq!(diff.new_text, on_disk);
    assert_eq!(hunks.len(), 1, "{hunks:?}");
    assert!(
        hunks[0].lines.iter().all(|l| !l.contains("goodbye")),
        "{hunks:?}"
    );
    assert_eq!(
        revised,
        Some(FileRevision {
            rejected_hunks: vec![2],
            total_hunks: 2,
            edited: false
        })
    );
}
