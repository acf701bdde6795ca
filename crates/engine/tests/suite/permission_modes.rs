//! Modes beyond the tables: plan mode's memory of the previous mode, bypass availability, background agents that
//! cannot ask, auto mode's classifier in the pipeline, bare-name denies hiding tools, and shell classification.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::json;
use tandem_engine::exec::run_tool_use;
use tandem_engine::permission::{
    AutoClassifier, ClassifierHandle, ClassifierRequest, ClassifierVerdict, PermissionContext,
    parse_verdict,
};
use tandem_engine::registry::{ToolPool, builtin_tools};
use tandem_engine::shell::summary;
use tandem_engine::testing::{Project, ScriptedApprover, TestRuntime, check, check_bash as bash};
use tandem_protocol::{
    ApprovalChoice, DecisionBehavior, DecisionSource, PermissionMode, SessionEvent, ToolOutcome,
};
use tokio_util::sync::CancellationToken;

#[test]
fn plan_mode_remembers_the_mode_before_it() {
    let p = Project::new().expect("project");
    let ctx = p.ctx(&[], PermissionMode::AcceptEdits);
    let plan = ctx.with_mode(PermissionMode::Plan);
    assert_eq!(plan.pre_plan_mode, Some(PermissionMode::AcceptEdits));
    assert_eq!(
        plan.with_mode(PermissionMode::Plan).pre_plan_mode,
        Some(PermissionMode::AcceptEdits)
    );
    let back = plan.with_mode(plan.pre_plan_mode.unwrap_or_default());
    assert_eq!(back.mode, PermissionMode::AcceptEdits);
    assert_eq!(back.pre_plan_mode, None);
    // The old context is unchanged: a change makes a new one.
    assert_eq!(ctx.mode, PermissionMode::AcceptEdits);
}

#[test]
fn background_agents_turn_asks_into_denies() {
    let p = Project::new().expect("project");
    let ctx = p
        .ctx(&[("allow", "Bash(npm test *)")], PermissionMode::Default)
        .avoiding_prompts();
    assert_eq!(bash(&ctx, "npm test").decision, DecisionBehavior::Allow);
    assert_eq!(bash(&ctx, "ls").decision, DecisionBehavior::Allow);
    let a = bash(&ctx, "curl x");
    assert_eq!(a.decision, DecisionBehavior::Deny);
    assert!(a.reason.contains("background"), "{}", a.reason);
    assert_eq!(a.decided_by, Some(DecisionSource::NoPrompt));
    assert_eq!(bash(&ctx, "rm -rf /").decision, DecisionBehavior::Deny);
    // Bubble mode asks (the parent's dialog answers), like default.
    let ctx = p.ctx(&[], PermissionMode::Bubble);
    assert_eq!(bash(&ctx, "curl x").decision, DecisionBehavior::Ask);
    let ctx = p.ctx(&[], PermissionMode::Auto);
    assert_eq!(bash(&ctx, "curl x").decision, DecisionBehavior::Ask);
}

#[test]
fn every_decision_names_what_decided() {
    let p = Project::new().expect("project");
    let ctx = p.ctx(&[("deny", "Bash(rm *)")], PermissionMode::DontAsk);
    let a = bash(&ctx, "rm x");
    assert_eq!(
        (a.rule.as_deref(), a.decision),
        (Some("Bash(rm *)"), DecisionBehavior::Deny)
    );
    assert!(
        a.reason.contains("Bash(rm *)") && a.reason.contains("settings.json"),
        "{}",
        a.reason
    );
    let a = bash(&ctx, "curl x");
    assert!(a.reason.contains("dontAsk"), "{}", a.reason);
    let ctx = p.ctx(&[], PermissionMode::BypassPermissions);
    assert!(bash(&ctx, "curl x").reason.contains("bypassPermissions"));
    assert!(
        bash(&ctx, "echo x > .git/config")
            .reason
            .contains("protected")
    );
    let a = check(
        &ctx,
        "Edit",
        json!({"file_path": p.path("a.txt"), "old_string": "a", "new_string": "b"}),
    );
    assert!(a.reason.contains("bypassPermissions"), "{}", a.reason);
}

#[test]
fn bare_name_denies_hide_tools() {
    let p = Project::new().expect("project");
    let ctx = p.ctx(
        &[("deny", "Read"), ("deny", "mcp__x"), ("deny", "Bash(rm *)")],
        PermissionMode::Default,
    );
    let pool = ToolPool::assemble(&builtin_tools(), &[], |name| ctx.rules.hides(name));
    assert!(pool.find("Read").is_none());
    assert!(ctx.rules.hides("mcp__x__y"));
    assert!(!ctx.rules.hides("Bash"), "a scoped deny keeps the tool");
    let ctx = p.ctx(&[("deny", "*")], PermissionMode::Default);
    assert!(ctx.rules.hides("Bash") && ctx.rules.hides("mcp__a__b"));
}

#[test]
fn shell_classification_for_the_transcript() {
    assert!(summary("ls -la && cat README.md | grep x").read_only);
    assert!(summary("find . -name x | wc -l").has_search);
    assert!(!summary("echo hi > out.txt").read_only);
    assert!(summary("echo hi > /dev/null").read_only);
    assert!(!summary("npm test").read_only);
    assert!(!summary("find . -delete").read_only);
    assert!(!summary("cat $(rm x)").read_only);
    assert!(!summary("eval ls").read_only);
    assert!(!summary("").read_only);
}

struct Fixed(bool);

impl AutoClassifier for Fixed {
    fn classify(&self, request: ClassifierRequest) -> BoxFuture<'_, ClassifierVerdict> {
        let safe = self.0;
        Box::pin(async move {
            ClassifierVerdict {
                safe,
                reason: format!("judged {}", request.tool),
            }
        })
    }
}

#[tokio::test]
async fn auto_mode_consults_the_classifier() {
    let p = Project::new().expect("project");
    std::fs::write(p.outside.join("x.txt"), "x").expect("write");
    let outside = p.outside.join("x.txt").display().to_string();
    for (safe, expected, asked) in [
        (true, ToolOutcome::Success, 0),
        (false, ToolOutcome::Denied, 1),
    ] {
        let ctx = PermissionContext::new(&p.root, PermissionMode::Auto)
            .with_classifier(ClassifierHandle(Arc::new(Fixed(safe))));
        let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
        let (rt, sink) = TestRuntime::new(&p.root)
            .session_id("s")
            .permissions(ctx)
            .approver(approver.clone())
            .recorded();
        let out = run_tool_use(
            &rt,
            "t",
            "Read",
            &json!({"file_path": outside}),
            &CancellationToken::new(),
        )
        .await;
        assert_eq!(out.outcome, expected);
        assert_eq!(approver.asked().len(), asked);
        let reason = sink
            .events()
            .into_iter()
            .find_map(|e| match e {
                SessionEvent::ToolCallDecision { decision, .. } => Some(decision),
                _ => None,
            })
            .expect("a decision event");
        assert!(reason.reason.contains("judged Read"), "{}", reason.reason);
        assert_eq!(reason.source.as_deref(), Some("classifier"));
        assert_eq!(
            reason.decided_by,
            Some(DecisionSource::Classifier {
                reason: "judged Read".into()
            })
        );
    }
    assert!(parse_verdict("SAFE: only lists files").safe);
    assert_eq!(
        parse_verdict("ASK: sends data out").reason,
        "sends data out"
    );
    assert!(!parse_verdict("maybe").safe);
}

/// Records what it was shown, and judges nothing safe.
#[derive(Default)]
struct Recording(std::sync::Mutex<Vec<serde_json::Value>>);

impl AutoClassifier for Recording {
    fn classify(&self, request: ClassifierRequest) -> BoxFuture<'_, ClassifierVerdict> {
        if let Ok(mut seen) = self.0.lock() {
            seen.push(json!({"tool": request.tool, "input": request.input}));
        }
        Box::pin(async {
            ClassifierVerdict {
                safe: false,
                reason: "recorded".into(),
            }
        })
    }
}

#[tokio::test]
async fn the_classifier_sees_each_tools_own_form_of_the_call_with_long_texts_cut() {
    let p = Project::new().expect("project");
    let recording = Arc::new(Recording::default());
    let ctx = PermissionContext::new(&p.root, PermissionMode::Auto)
        .with_classifier(ClassifierHandle(recording.clone()));
    let rt = TestRuntime::new(&p.root)
        .session_id("s")
        .permissions(ctx)
        .approver(ScriptedApprover::new([], ApprovalChoice::Deny))
        .build();
    let long = format!(
        "{}SECRET-MIDDLE{}\n",
        "a\n".repeat(2_000),
        "z".repeat(3_000)
    );
    let long_line = format!("{}SECRET-MIDDLE{}", "a".repeat(3_000), "z".repeat(3_000));
    let outside = p.outside.join("big.txt").display().to_string();
    for (tool, input) in [
        ("Write", json!({"file_path": outside, "content": long})),
        (
            "Bash",
            json!({"command": "npm publish", "description": "Publish the package", "timeout": 1000}),
        ),
        (
            "Grep",
            json!({"pattern": long_line, "path": p.outside.display().to_string()}),
        ),
    ] {
        run_tool_use(&rt, "t", tool, &input, &CancellationToken::new()).await;
    }
    let seen = recording.0.lock().expect("seen").clone();
    assert_eq!(seen.len(), 3, "{seen:#?}");
    let write = &seen[0]["input"];
    assert_eq!(write["file_path"], outside.as_str());
    assert_eq!(write["content_lines"], 2_001);
    let content = write["content"].as_str().expect("content");
    assert!(
        content.contains("characters left out") && !content.contains("SECRET-MIDDLE"),
        "{content}"
    );
    assert_eq!(
        seen[1]["input"],
        json!({"command": "npm publish"}),
        "no description or timeout"
    );
    // A tool without a form of its own: its input with long texts cut.
    let pattern = seen[2]["input"]["pattern"].as_str().expect("pattern");
    assert!(
        pattern.len() < 2_200 && !pattern.contains("SECRET-MIDDLE"),
        "{pattern}"
    );
    assert_eq!(seen[2]["input"]["path"], p.outside.display().to_string());
}

const BROAD_AND_NARROW: [(&str, &str); 4] = [
    ("allow", "Bash(python3 *)"),
    ("allow", "Bash(sh:*)"),
    ("allow", "Bash(npm test *)"),
    ("allow", "Read"),
];

#[test]
fn auto_mode_sets_aside_allow_rules_that_let_any_code_run() {
    let p = Project::new().expect("project");
    for (mode, command, expected) in [
        (
            PermissionMode::Default,
            "python3 build.py",
            DecisionBehavior::Allow,
        ),
        (
            PermissionMode::Default,
            "sh run.sh",
            DecisionBehavior::Allow,
        ),
        (
            PermissionMode::AcceptEdits,
            "python3 build.py",
            DecisionBehavior::Allow,
        ),
        (
            PermissionMode::Auto,
            "python3 build.py",
            DecisionBehavior::Ask,
        ),
        (PermissionMode::Auto, "sh run.sh", DecisionBehavior::Ask),
        (PermissionMode::Auto, "npm test", DecisionBehavior::Allow),
        (PermissionMode::Auto, "ls", DecisionBehavior::Allow),
    ] {
        let ctx = p.ctx(&BROAD_AND_NARROW, mode);
        assert_eq!(bash(&ctx, command).decision, expected, "{mode}: {command}");
    }
    let auto = p.ctx(&BROAD_AND_NARROW, PermissionMode::Auto);
    // Leaving auto mode brings the rules back; entering it again sets them aside again.
    let back = auto.with_mode(PermissionMode::Default);
    assert_eq!(
        bash(&back, "python3 build.py").decision,
        DecisionBehavior::Allow
    );
    let again = back.with_mode(PermissionMode::Auto);
    assert_eq!(
        bash(&again, "python3 build.py").decision,
        DecisionBehavior::Ask
    );
    // Through plan mode and back to auto.
    let planned = auto.with_mode(PermissionMode::Plan).leaving_plan_mode(None);
    assert_eq!(planned.mode, PermissionMode::Auto);
    assert_eq!(
        bash(&planned, "python3 build.py").decision,
        DecisionBehavior::Ask
    );
    // A grant made while in auto mode is set aside too, and applies once auto mode ends.
    let granted = auto.with_session_rules(&["Bash(node *)".to_string()]);
    assert_eq!(
        bash(&granted, "node app.js").decision,
        DecisionBehavior::Ask
    );
    assert_eq!(
        bash(&granted.with_mode(PermissionMode::Default), "node app.js").decision,
        DecisionBehavior::Allow
    );
    // The whole tool, however written.
    for rule in ["Bash", "Bash(*)"] {
        let ctx = p.ctx(&[("allow", rule)], PermissionMode::Auto);
        assert_eq!(
            bash(&ctx, "curl x").decision,
            DecisionBehavior::Ask,
            "{rule}"
        );
        let ctx = ctx.with_mode(PermissionMode::Default);
        assert_eq!(
            bash(&ctx, "curl x").decision,
            DecisionBehavior::Allow,
            "{rule}"
        );
    }
    let set_aside: Vec<String> = auto
        .set_aside_rules()
        .into_iter()
        .map(|(entry, _)| entry.text)
        .collect();
    assert_eq!(set_aside, ["Bash(python3 *)", "Bash(sh:*)"]);
    assert!(back.set_aside_rules().is_empty());
}

#[tokio::test]
async fn a_set_aside_rule_leaves_the_call_to_the_classifier() {
    let p = Project::new().expect("project");
    let ctx = p
        .ctx(&BROAD_AND_NARROW, PermissionMode::Auto)
        .with_classifier(ClassifierHandle(Arc::new(Fixed(false))));
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let (rt, sink) = TestRuntime::new(&p.root)
        .session_id("s")
        .permissions(ctx)
        .approver(approver.clone())
        .recorded();
    let out = run_tool_use(
        &rt,
        "t",
        "Bash",
        &json!({"command": "python3 missing-script.py"}),
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Denied);
    assert_eq!(approver.asked().len(), 1);
    let decision = sink
        .events()
        .into_iter()
        .find_map(|e| match e {
            SessionEvent::ToolCallDecision { decision, .. } => Some(decision),
            _ => None,
        })
        .expect("a decision event");
    assert_eq!(
        decision.decided_by,
        Some(DecisionSource::Classifier {
            reason: "judged Bash".into()
        })
    );
}

/// Leaves a mark when a question reaches it, and judges safe only the commands it was told.
struct Marking {
    mark: std::path::PathBuf,
    safe: &'static [&'static str],
    asked: std::sync::Mutex<Vec<String>>,
}

impl AutoClassifier for Marking {
    fn classify(&self, request: ClassifierRequest) -> BoxFuture<'_, ClassifierVerdict> {
        let command = request.input["command"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if let Ok(mut asked) = self.asked.lock() {
            asked.push(command.clone());
        }
        let _ = std::fs::write(&self.mark, &command);
        let safe = self.safe.contains(&command.as_str());
        Box::pin(async move {
            ClassifierVerdict {
                safe,
                reason: format!("judged {command}"),
            }
        })
    }
}

/// A PreToolUse hook on Bash that waits (up to 30 s) for the classifier's mark and notes whether it saw it, then
/// prints `output`.
fn waiting_hook(p: &Project, output: &str) -> serde_json::Value {
    let script = p.root.join("wait-for-mark.sh");
    std::fs::write(
        &script,
        format!(
            "for i in $(seq 1 600); do if [ -f classifier.mark ]; then touch hook.saw-mark; break; fi; sleep 0.05; done\nprintf '%s' '{output}'\n"
        ),
    )
    .expect("hook script");
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("sh {}", script.display()), "timeout": 60}
    ]}]}})
}

/// Runs a Bash `command` in auto mode in `p`, whose PreToolUse hook waits for the classifier's mark and then prints
/// `hook_output`; the classifier judges safe only `safe`. Returns the outcome, the commands the classifier was asked
/// about, and whether anyone was asked.
async fn auto_call_with_waiting_hook(
    p: &Project,
    hook_output: &str,
    safe: &'static [&'static str],
    command: &str,
) -> (ToolOutcome, Vec<String>, bool) {
    let marking = Arc::new(Marking {
        mark: p.root.join("classifier.mark"),
        safe,
        asked: Default::default(),
    });
    let ctx = p
        .ctx_with(waiting_hook(p, hook_output), PermissionMode::Auto)
        .with_classifier(ClassifierHandle(marking.clone()));
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = TestRuntime::new(&p.root)
        .session_id("s")
        .permissions(ctx)
        .approver(approver.clone())
        .build();
    let out = run_tool_use(
        &rt,
        "t",
        "Bash",
        &json!({ "command": command }),
        &CancellationToken::new(),
    )
    .await;
    let asked = marking.asked.lock().expect("asked").clone();
    (out.outcome, asked, !approver.asked().is_empty())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_mode_puts_the_question_to_the_classifier_while_the_hooks_run() {
    let p = Project::new().expect("project");
    let (outcome, classified, person_asked) =
        auto_call_with_waiting_hook(&p, "{}", &["npm run lint-4410"], "npm run lint-4410").await;
    assert!(
        p.root.join("hook.saw-mark").exists(),
        "the classifier had the question while the hook still ran"
    );
    assert_ne!(
        outcome,
        ToolOutcome::Denied,
        "the classifier's safe answer was used"
    );
    assert!(!person_asked);
    assert_eq!(
        classified,
        ["npm run lint-4410"],
        "asked once: the early answer was used"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_input_a_hook_rewrote_is_put_to_the_classifier_again() {
    let p = Project::new().expect("project");
    let rewrite = r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "npm run fixed-5530"}}}"#;
    let (outcome, classified, person_asked) =
        auto_call_with_waiting_hook(&p, rewrite, &["npm run fixed-5530"], "npm run risky-5530")
            .await;
    assert_ne!(
        outcome,
        ToolOutcome::Denied,
        "the rewritten call was judged, not the early question"
    );
    assert!(!person_asked);
    assert_eq!(
        classified,
        ["npm run risky-5530", "npm run fixed-5530"],
        "the early question, then the rewritten call"
    );
}
