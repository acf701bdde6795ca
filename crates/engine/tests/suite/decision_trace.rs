//! The decision trace names what actually decided and what it shadowed: deny beats allow, ask rules, safety checks,
//! the mode, hooks; approval requests carry it with the hooks that ran.

use std::path::Path;

use serde_json::{Value, json};
use tandem_engine::exec::{ToolRuntime, run_tool_use};
use tandem_engine::hooks::{HookCommand, HookEvent, HookInput, parse_hooks, test_hook};
use tandem_engine::permission::PermissionContext;
use tandem_engine::permission::RuleSource;
use tandem_engine::testing::{Project, ScriptedApprover, TestRuntime, check};
use tandem_protocol::{
    ApprovalChoice, DecisionBehavior, DecisionSource, DecisionTrace, PermissionMode, RuleRole,
    TraceStep,
};
use tokio_util::sync::CancellationToken;

/// The trace as short lines: `mode default`, `decided deny Bash(rm *)`, `shadowed allow Read`, `check protected_path`,
/// `hook PreToolUse ask`, `converted mode dontAsk`.
fn lines(trace: &DecisionTrace) -> Vec<String> {
    trace
        .steps
        .iter()
        .map(|s| match s {
            TraceStep::Mode { mode } => format!("mode {mode}"),
            TraceStep::Rule {
                rule,
                behavior,
                role,
                ..
            } => {
                let role = if *role == RuleRole::Decided {
                    "decided"
                } else {
                    "shadowed"
                };
                format!("{role} {} {rule}", word(*behavior))
            }
            TraceStep::Check { check, .. } => {
                format!(
                    "check {}",
                    serde_json::to_value(check)
                        .expect("json")
                        .as_str()
                        .unwrap_or("")
                )
            }
            TraceStep::Hook {
                event, decision, ..
            } => format!("hook {event} {}", decision.map(word).unwrap_or("none")),
            TraceStep::Classifier { .. } => "classifier".into(),
            TraceStep::AskConverted { by, .. } => format!("converted {}", source(by)),
        })
        .collect()
}

fn word(b: DecisionBehavior) -> &'static str {
    match b {
        DecisionBehavior::Allow => "allow",
        DecisionBehavior::Ask => "ask",
        DecisionBehavior::Deny => "deny",
    }
}

/// `decided_by` in short: `rule`, `mode plan`, `check protected_path`, `tool`, `working_directories`.
fn source(s: &DecisionSource) -> String {
    match s {
        DecisionSource::Mode { mode } => format!("mode {mode}"),
        DecisionSource::SafetyCheck { check } => format!(
            "check {}",
            serde_json::to_value(check)
                .expect("json")
                .as_str()
                .unwrap_or("")
        ),
        other => serde_json::to_value(other).expect("json")["type"]
            .as_str()
            .unwrap_or("")
            .to_string(),
    }
}

/// One row of the table: rules, mode, tool, input, decision, what decided, lines the trace must hold, parts no
/// line may hold.
type Case<'a> = (
    Vec<(&'a str, &'a str)>,
    &'a str,
    &'a str,
    Value,
    &'a str,
    &'a str,
    Vec<&'a str>,
    Vec<&'a str>,
);

#[test]
fn the_trace_names_the_deciding_rule_the_shadowed_ones_the_checks_and_the_mode() {
    let p = Project::new().expect("project");
    let secret = p.path("secrets/key.txt");
    let outside = p.outside.join("notes.txt").display().to_string();
    let git_config = p.path(".git/config");
    let readme = p.path("README.md");
    // (rules, mode, tool, input, decision, decided_by, lines the trace must hold, lines it must not hold)
    let cases: Vec<Case<'_>> = vec![
        (
            vec![("allow", "Bash(rm -rf build)"), ("deny", "Bash(rm *)")],
            "default",
            "Bash",
            json!({"command": "rm -rf build"}),
            "deny",
            "rule",
            vec![
                "mode default",
                "decided deny Bash(rm *)",
                "shadowed allow Bash(rm -rf build)",
            ],
            vec![],
        ),
        (
            vec![
                ("allow", "Bash(git push origin main)"),
                ("ask", "Bash(git push:*)"),
            ],
            "acceptEdits",
            "Bash",
            json!({"command": "git push origin main"}),
            "ask",
            "rule",
            vec![
                "mode acceptEdits",
                "decided ask Bash(git push:*)",
                "shadowed allow Bash(git push origin main)",
            ],
            vec![],
        ),
        (
            vec![
                ("deny", "Bash(git push --force:*)"),
                ("ask", "Bash(git push:*)"),
            ],
            "default",
            "Bash",
            json!({"command": "git push --force origin"}),
            "deny",
            "rule",
            vec![
                "decided deny Bash(git push --force:*)",
                "shadowed ask Bash(git push:*)",
            ],
            vec![],
        ),
        (
            vec![("allow", "Bash(npm test)")],
            "default",
            "Bash",
            json!({"command": "npm test"}),
            "allow",
            "rule",
            vec!["mode default", "decided allow Bash(npm test)"],
            vec!["shadowed"],
        ),
        (
            vec![
                ("allow", "Read(./secrets/key.txt)"),
                ("deny", "Read(./secrets/**)"),
            ],
            "default",
            "Read",
            json!({"file_path": secret}),
            "deny",
            "rule",
            vec![
                "decided deny Read(./secrets/**)",
                "shadowed allow Read(./secrets/key.txt)",
            ],
            vec![],
        ),
        (
            vec![],
            "default",
            "Bash",
            json!({"command": "npm install"}),
            "ask",
            "mode default",
            vec!["mode default"],
            vec!["decided", "check"],
        ),
        (
            vec![],
            "acceptEdits",
            "Write",
            json!({"file_path": p.path("src/new.rs"), "content": "x"}),
            "allow",
            "mode acceptEdits",
            vec!["mode acceptEdits"],
            vec!["check"],
        ),
        (
            vec![("allow", "Edit")],
            "plan",
            "Write",
            json!({"file_path": p.path("src/new.rs"), "content": "x"}),
            "deny",
            "mode plan",
            vec!["mode plan"],
            vec![],
        ),
        (
            vec![],
            "dontAsk",
            "Bash",
            json!({"command": "npm install"}),
            "deny",
            "mode dontAsk",
            vec!["mode dontAsk", "converted mode dontAsk"],
            vec!["decided"],
        ),
        (
            vec![
                ("allow", "Bash(git push origin main)"),
                ("ask", "Bash(git push:*)"),
            ],
            "dontAsk",
            "Bash",
            json!({"command": "git push origin main"}),
            "deny",
            "mode dontAsk",
            vec![
                "mode dontAsk",
                "decided ask Bash(git push:*)",
                "shadowed allow Bash(git push origin main)",
                "converted mode dontAsk",
            ],
            vec![],
        ),
        (
            vec![("deny", "Bash(rm *)"), ("ask", "Bash(rm -rf build)")],
            "dontAsk",
            "Bash",
            json!({"command": "rm -rf build"}),
            "deny",
            "rule",
            vec!["decided deny Bash(rm *)", "shadowed ask Bash(rm -rf build)"],
            vec!["converted"],
        ),
        (
            vec![("allow", "Edit")],
            "dontAsk",
            "Write",
            json!({"file_path": git_config, "content": "x"}),
            "deny",
            "mode dontAsk",
            vec![
                "check protected_path",
                "shadowed allow Edit",
                "converted mode dontAsk",
            ],
            vec!["decided"],
        ),
        (
            vec![],
            "dontAsk",
            "Bash",
            json!({"command": "rm -rf /"}),
            "deny",
            "mode dontAsk",
            vec!["check critical_removal", "converted mode dontAsk"],
            vec!["decided"],
        ),
        (
            vec![("allow", "Edit")],
            "acceptEdits",
            "Write",
            json!({"file_path": git_config, "content": "x"}),
            "ask",
            "check protected_path",
            vec!["check protected_path", "shadowed allow Edit"],
            vec!["decided"],
        ),
        (
            vec![],
            "default",
            "Read",
            json!({"file_path": outside}),
            "ask",
            "mode default",
            vec!["check outside_working_directories"],
            vec![],
        ),
        (
            vec![],
            "default",
            "Read",
            json!({"file_path": readme}),
            "allow",
            "working_directories",
            vec!["mode default"],
            vec!["check"],
        ),
        (
            vec![("allow", "Bash(eval:*)")],
            "bypassPermissions",
            "Bash",
            json!({"command": "eval \"$CMD\""}),
            "ask",
            "tool",
            vec!["mode bypassPermissions", "check unanalysable_command"],
            vec![],
        ),
        (
            vec![
                ("allow", "WebFetch"),
                ("deny", "WebFetch(domain:example.com)"),
            ],
            "default",
            "WebFetch",
            json!({"url": "https://example.com/a", "prompt": "p"}),
            "deny",
            "rule",
            vec![
                "decided deny WebFetch(domain:example.com)",
                "shadowed allow WebFetch",
            ],
            vec![],
        ),
    ];
    for (rules, mode, tool, input, decision, decided_by, must, must_not) in cases {
        let ctx = p.ctx(&rules, PermissionMode::parse(mode).expect("mode"));
        let answer = check(&ctx, tool, input.clone());
        let trace = answer.trace.clone().expect("a trace");
        let got = lines(&trace);
        let what = format!(
            "{tool} {input} in {mode} with {rules:?}: {got:?} ({})",
            answer.reason
        );
        assert_eq!(word(answer.decision), decision, "{what}");
        assert_eq!(trace.decided_by, answer.decided_by, "{what}");
        assert_eq!(
            source(trace.decided_by.as_ref().expect("decided_by")),
            decided_by,
            "{what}"
        );
        for line in must {
            assert!(got.iter().any(|g| g == line), "missing `{line}`: {what}");
        }
        for part in must_not {
            assert!(
                !got.iter().any(|g| g.contains(part)),
                "unexpected `{part}`: {what}"
            );
        }
    }
}

#[test]
fn a_rule_step_names_its_settings_file_and_the_json_has_the_trace() {
    let p = Project::new().expect("project");
    let ctx = p.ctx(&[("deny", "Bash(rm *)")], PermissionMode::Default);
    let answer = check(&ctx, "Bash", json!({"command": "rm -rf x"}));
    let file = p.root.join(".claude/settings.json").display().to_string();
    let json = serde_json::to_value(&answer).expect("json");
    assert_eq!(json["trace"]["steps"][0]["type"], "mode");
    assert_eq!(json["trace"]["steps"][1]["type"], "rule");
    assert_eq!(json["trace"]["steps"][1]["file"], file.as_str());
    assert_eq!(json["trace"]["steps"][1]["scope"], "projectSettings");
    assert_eq!(json["trace"]["steps"][1]["role"], "decided");
    assert_eq!(json["trace"]["decided_by"]["type"], "rule");
}

/// An ask that no one may answer is denied, and the trace still names what asked: the ask rule with its file and
/// scope, then the conversion (dontAsk mode, or a background agent with no one to ask).
#[test]
fn an_ask_turned_into_a_deny_names_the_ask_rule_and_the_conversion() {
    let p = Project::new().expect("project");
    let file = p.root.join(".claude/settings.json").display().to_string();
    let rules = [("ask", "Bash(git push:*)")];
    let command = json!({"command": "git push origin main"});
    let mut background = p.ctx(&rules, PermissionMode::Default);
    background.avoid_prompts = true;
    let cases = [
        (
            p.ctx(&rules, PermissionMode::DontAsk),
            json!({"type": "mode", "mode": "dontAsk"}),
        ),
        (background, json!({"type": "no_prompt"})),
    ];
    for (ctx, by) in cases {
        let answer = check(&ctx, "Bash", command.clone());
        assert_eq!(answer.decision, DecisionBehavior::Deny, "{}", answer.reason);
        let json = serde_json::to_value(&answer).expect("json");
        let steps = json["trace"]["steps"].as_array().expect("steps");
        let rule = steps
            .iter()
            .find(|s| s["type"] == "rule")
            .unwrap_or_else(|| panic!("the ask rule is named: {steps:?}"));
        assert_eq!(rule["rule"], "Bash(git push:*)");
        assert_eq!(rule["behavior"], "ask");
        assert_eq!(rule["role"], "decided");
        assert_eq!(rule["scope"], "projectSettings");
        assert_eq!(rule["file"], file.as_str());
        let last = steps.last().expect("a step");
        assert_eq!(last["type"], "ask_converted", "{steps:?}");
        assert_eq!(last["by"], by);
        assert!(
            last["detail"]
                .as_str()
                .is_some_and(|d| d.contains("denied") || d.contains("denies")),
            "{last}"
        );
        assert_eq!(json["trace"]["decided_by"], by);
        assert_eq!(json["decided_by"], by);
    }
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    let mut perms = std::fs::metadata(&path).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).expect("chmod");
    path.display().to_string()
}

fn runtime(ctx: PermissionContext, approver: ScriptedApprover) -> ToolRuntime {
    TestRuntime::new(&ctx.cwd)
        .session_id("s1")
        .permissions(ctx)
        .approver(approver)
        .build()
}

fn pre_hooks(command: &str) -> tandem_engine::hooks::HookSet {
    let mut issues = Vec::new();
    let set = parse_hooks(
        &json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 5}]}]}),
        &RuleSource::Project("/p/.claude/settings.json".into()),
        &mut issues,
    );
    assert!(issues.is_empty(), "{issues:?}");
    set
}

#[tokio::test]
async fn an_approval_request_carries_the_trace_with_the_hook_that_asked() {
    let p = Project::new().expect("project");
    let asks = script(
        &p.outside,
        "asks.sh",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"deploys need a look"}}'"#,
    );
    let ctx = p
        .ctx(&[("allow", "Bash(echo deploy)")], PermissionMode::Default)
        .with_hooks(pre_hooks(&asks));
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(ctx, approver.clone());
    run_tool_use(
        &rt,
        "t1",
        "Bash",
        &json!({"command": "echo deploy"}),
        &CancellationToken::new(),
    )
    .await;
    let asked = approver.asked();
    let trace = asked[0].trace.clone().expect("the request carries a trace");
    let got = lines(&trace);
    assert_eq!(
        got,
        vec![
            "mode default",
            "hook PreToolUse ask",
            "shadowed allow Bash(echo deploy)"
        ],
        "{trace:?}"
    );
    assert!(
        matches!(&trace.decided_by, Some(DecisionSource::Hook { command }) if *command == asks)
    );
    let Some(TraceStep::Hook {
        source,
        outcome,
        reason,
        ..
    }) = trace.steps.get(1)
    else {
        panic!("no hook step: {trace:?}");
    };
    assert_eq!(source, "/p/.claude/settings.json");
    assert_eq!(outcome, "exit 0");
    assert_eq!(reason.as_deref(), Some("deploys need a look"));
}

#[tokio::test]
async fn a_hook_that_denies_is_named_with_its_exit_and_reason() {
    let p = Project::new().expect("project");
    let denies = script(
        &p.outside,
        "denies.sh",
        "echo 'no deploys on friday' >&2\nexit 2",
    );
    let hook = HookCommand {
        command: denies.clone(),
        timeout_secs: 5,
        source: RuleSource::User(p.home.join(".claude/settings.json")),
        plugin_root: None,
    };
    let input = HookInput {
        session_id: "s".into(),
        transcript_path: String::new(),
        cwd: p.root.clone(),
        permission_mode: "default".into(),
        project_dir: p.root.clone(),
    };
    let stdin = tandem_engine::hooks::sample_input(HookEvent::PreToolUse, Some("Bash"), &input);
    assert_eq!(stdin["tool_name"], "Bash");
    assert_eq!(stdin["hook_event_name"], "PreToolUse");
    let result = test_hook(&hook, HookEvent::PreToolUse, &stdin, &p.root, &p.root).await;
    assert_eq!(result.exit_code, Some(2));
    assert_eq!(result.outcome, "exit 2");
    assert_eq!(result.decision, Some(DecisionBehavior::Deny));
    assert_eq!(result.reason.as_deref(), Some("no deploys on friday"));
    // The same hook in the pipeline: the call is denied and never asked.
    let ctx = p
        .ctx(&[], PermissionMode::Default)
        .with_hooks(pre_hooks(&denies));
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let rt = runtime(ctx, approver.clone());
    let out = run_tool_use(
        &rt,
        "t1",
        "Bash",
        &json!({"command": "echo deploy"}),
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(out.outcome, tandem_protocol::ToolOutcome::Denied);
    assert!(approver.asked().is_empty());
}

/// The details of the trace's check steps of one kind.
fn details(trace: &DecisionTrace, kind: tandem_protocol::TraceCheck) -> Vec<String> {
    trace
        .steps
        .iter()
        .filter_map(|s| match s {
            TraceStep::Check { check, detail } if *check == kind => Some(detail.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_trace_names_carried_commands_and_folders_read_past_a_rule() {
    use tandem_protocol::TraceCheck;
    let p = Project::new().expect("project");
    std::fs::create_dir_all(p.root.join("secrets")).expect("mkdir");
    std::fs::write(p.root.join("secrets/key.pem"), "k").expect("write");
    let ctx = p.ctx(
        &[("deny", "Bash(rm *)"), ("deny", "Read(secrets/**)")],
        PermissionMode::BypassPermissions,
    );
    let bash = |command: &str| check(&ctx, "Bash", json!({ "command": command }));

    let a = bash("git rebase --exec 'rm -rf x' HEAD~2");
    let trace = a.trace.expect("a trace");
    assert!(
        lines(&trace).contains(&"decided deny Bash(rm *)".to_string()),
        "{trace:?}"
    );
    let carried = details(&trace, TraceCheck::CarriedCommand);
    assert!(
        carried
            .iter()
            .any(|d| d.contains("rm -rf x") && d.contains("--exec")),
        "{carried:?}"
    );

    let a = bash("PAGER='rm -rf x' git log");
    let carried = details(&a.trace.expect("a trace"), TraceCheck::CarriedCommand);
    assert!(carried.iter().any(|d| d.contains("PAGER")), "{carried:?}");

    let a = bash("grep -r KEY .");
    assert_eq!(a.decision, DecisionBehavior::Ask, "{}", a.reason);
    let walks = details(&a.trace.expect("a trace"), TraceCheck::WalksCoveredFiles);
    assert!(
        walks
            .iter()
            .any(|d| d.contains("Read(secrets/**)") && d.contains("key.pem")),
        "{walks:?}"
    );

    let a = check(&ctx, "Glob", json!({"pattern": "**/*"}));
    assert_eq!(a.decision, DecisionBehavior::Allow, "{}", a.reason);
    let walks = details(&a.trace.expect("a trace"), TraceCheck::WalksCoveredFiles);
    assert!(
        walks.iter().any(|d| d.contains("Read(secrets/**)")),
        "{walks:?}"
    );
}
