//! Sub-agents in their own git worktree: a run that changes files leaves a kept worktree on a new branch (named in
//! the result, listed for the window, merged or discarded from there); a run that changes nothing leaves nothing.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_engine::tools::worktree;
use tandem_protocol::{ApprovalChoice, SessionEvent, ToolOutcome};

use super::common::{server, session};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A workspace that is a git repository with one commit.
fn repo() -> Workspace {
    let ws = Workspace::new(&[("README.md", "hello\n")]).expect("workspace");
    let root = ws.root();
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["config", "user.name", "Test"]);
    git(&root, &["config", "user.email", "test@example.com"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "start"]);
    ws
}

/// The result of call `id`, the parent's or a sub-agent's.
fn result_of(events: &[SessionEvent], id: &str) -> (ToolOutcome, String) {
    events
        .iter()
        .map(|e| match e {
            SessionEvent::SubAgent { event, .. } => event.as_ref(),
            e => e,
        })
        .find_map(|e| match e {
            SessionEvent::ToolCallResult {
                tool_use_id,
                outcome,
                content,
                ..
            } if tool_use_id == id => Some((*outcome, content.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no result for {id}"))
}

fn isolated(id: &str) -> ScriptedTurn {
    ScriptedTurn::tool_use(
        id,
        "Agent",
        json!({"description": "Try it", "prompt": "make the change", "isolation": "worktree"}),
    )
}

#[tokio::test]
async fn a_changed_worktree_is_kept_on_its_branch_until_merged() {
    let ws = repo();
    let root = ws.root();
    let fake = server(Script::turns([
        isolated("a1"),
        ScriptedTurn::tool_use("b1", "Bash", json!({"command": "echo hi > new.txt && pwd"})),
        ScriptedTurn::text("made new.txt"),
        ScriptedTurn::text("The agent made new.txt."),
    ]))
    .await;
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = session(&root, &fake, approver, events.clone());
    s.send("try it in isolation").await.expect("turn");
    let (outcome, text) = result_of(&events.events(), "a1");
    assert_eq!(outcome, ToolOutcome::Success, "{text}");
    assert!(text.contains("on branch tandem/agent-"), "{text}");
    assert!(text.contains("Changed files: new.txt"), "{text}");
    // The working copy is untouched; the change lives in the kept worktree.
    assert!(!root.join("new.txt").exists());
    let kept = worktree::list_kept(&root).expect("list");
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].changed_files, ["new.txt"]);
    assert_eq!(
        std::fs::read_to_string(kept[0].path.join("new.txt")).expect("in the worktree"),
        "hi\n"
    );
    // The child's shell ran in the worktree.
    let (_, pwd) = result_of(&events.events(), "b1");
    assert!(pwd.contains(&*kept[0].path.to_string_lossy()), "{pwd}");

    worktree::merge(&root, &kept[0].branch).expect("merge");
    assert_eq!(
        std::fs::read_to_string(root.join("new.txt")).expect("merged"),
        "hi\n"
    );
    assert!(worktree::list_kept(&root).expect("list").is_empty());
    assert!(!kept[0].path.exists());
    assert!(
        git(&root, &["branch", "--list", "tandem/*"])
            .trim()
            .is_empty()
    );
}

#[tokio::test]
async fn an_unchanged_worktree_is_removed_with_its_branch_and_a_kept_one_can_be_discarded() {
    let ws = repo();
    let root = ws.root();
    let fake = server(Script::turns([
        isolated("a1"),
        ScriptedTurn::text("nothing to do"),
        isolated("a2"),
        ScriptedTurn::tool_use("b1", "Bash", json!({"command": "echo x >> README.md"})),
        ScriptedTurn::text("edited"),
        ScriptedTurn::text("ok"),
    ]))
    .await;
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = session(&root, &fake, approver, events.clone());
    s.send("try it").await.expect("turn");
    let (_, text) = result_of(&events.events(), "a1");
    assert!(text.contains("changed nothing"), "{text}");
    let (_, text) = result_of(&events.events(), "a2");
    assert!(text.contains("Changed files: README.md"), "{text}");
    // The window's view of the kept worktree, and its discard.
    let kept = s.agents().kept_worktrees();
    assert_eq!(kept.len(), 1, "only the changed one is kept: {kept:?}");
    assert_eq!(kept[0].changed_files, ["README.md"]);
    s.agents()
        .discard_worktree(&kept[0].branch)
        .expect("discard");
    assert!(s.agents().kept_worktrees().is_empty());
    assert!(
        git(&root, &["branch", "--list", "tandem/*"])
            .trim()
            .is_empty()
    );
    assert_eq!(
        std::fs::read_to_string(root.join("README.md")).expect("kept"),
        "hello\n"
    );
    assert_eq!(git(&root, &["worktree", "list"]).lines().count(), 1);
}

#[tokio::test]
async fn the_main_session_enters_a_worktree_works_there_and_leaves_it() {
    let ws = repo();
    let root = ws.root();
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("e1", "EnterWorktree", json!({"name": "try-this"})),
        ScriptedTurn::tool_use(
            "b1",
            "Bash",
            json!({"command": "echo new > made.txt && pwd"}),
        ),
        ScriptedTurn::tool_use("x1", "ExitWorktree", json!({"action": "remove"})),
        ScriptedTurn::tool_use("x2", "ExitWorktree", json!({"action": "keep"})),
        ScriptedTurn::tool_use("b2", "Bash", json!({"command": "pwd"})),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = session(&root, &fake, approver, events.clone());
    s.send("work in a worktree").await.expect("turn");
    let events = events.events();
    let (outcome, text) = result_of(&events, "e1");
    assert_eq!(outcome, ToolOutcome::Success, "{text}");
    assert!(text.contains("tandem/try-this"), "{text}");
    let kept = worktree::list_kept(&root).expect("list");
    assert_eq!(kept.len(), 1);
    let place = kept[0].path.to_string_lossy().into_owned();
    // Tools started in the worktree.
    assert!(result_of(&events, "b1").1.contains(&place));
    assert!(!root.join("made.txt").exists());
    // Removing a changed worktree needs discard_changes.
    let (outcome, text) = result_of(&events, "x1");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(
        text.contains("made.txt") && text.contains("discard_changes"),
        "{text}"
    );
    let (outcome, text) = result_of(&events, "x2");
    assert_eq!(outcome, ToolOutcome::Success, "{text}");
    assert!(text.contains("kept on branch tandem/try-this"), "{text}");
    // Back in the project folder.
    let (_, pwd) = result_of(&events, "b2");
    assert!(!pwd.contains(&place), "{pwd}");
    assert_eq!(kept[0].changed_files, ["made.txt"]);
    worktree::discard(&root, &kept[0].branch).expect("discard");
}
