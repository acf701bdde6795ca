//! Hooks with real scripts: exit codes, JSON fields, timeouts, parallel runs, de-duplication, disagreeing hooks,
//! rewritten input, and how hook answers meet the rules in the tool-call pipeline.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tandem_engine::exec::hook_gate::{resolve, run_event, tool_call};
use tandem_engine::exec::{ToolRuntime, run_tool_use};
use tandem_engine::hooks::EventInput;
use tandem_engine::hooks::payload::PromptSubmit;
use tandem_engine::hooks::{HookDecision, HookEvent, HookSet, parse_hooks};
use tandem_engine::permission::{PermissionContext, RuleSource, evaluate};
use tandem_engine::testing::{Project, ScriptedApprover, TestRuntime};
use tandem_protocol::{ApprovalChoice, DecisionBehavior, PermissionMode, ToolOutcome};
use tokio_util::sync::CancellationToken;

fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    let mut perms = std::fs::metadata(&path).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&path, perms).expect("chmod");
    path.display().to_string()
}

fn hooks(config: Value) -> HookSet {
    let mut issues = Vec::new();
    let set = parse_hooks(
        &config,
        &RuleSource::Project(PathBuf::from("settings.json")),
        &mut issues,
    );
    assert!(issues.is_empty(), "{issues:?}");
    set
}

fn pre(commands: &[(&str, &str)]) -> HookSet {
    let groups: Vec<Value> = commands
        .iter()
        .map(|(matcher, cmd)| json!({"matcher": matcher, "hooks": [{"type": "command", "command": cmd, "timeout": 5}]}))
        .collect();
    hooks(json!({ "PreToolUse": groups }))
}

async fn pre_verdict(
    ctx: &PermissionContext,
    tool: &str,
    input: Value,
) -> Option<tandem_engine::hooks::HookVerdict> {
    run_event(
        ctx,
        "s1",
        EventInput::PreToolUse(tool_call(tool, &input, "t1")),
    )
    .await
}

#[tokio::test]
async fn exit_codes() {
    let p = Project::new().expect("project");
    let allow = script(
        &p.outside,
        "allow.sh",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}'"#,
    );
    let block = script(&p.outside, "block.sh", "echo 'no curl here' >&2; exit 2");
    let broken = script(&p.outside, "broken.sh", "echo oops >&2; exit 1");
    let plain = script(&p.outside, "plain.sh", "echo not json");
    let base = PermissionContext::new(&p.root, PermissionMode::Default);

    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &allow)])),
        "Bash",
        json!({"command": "ls"}),
    )
    .await
    .expect("ran");
    assert_eq!(v.decision, Some(HookDecision::Allow));
    assert_eq!(v.reason.as_deref(), Some("fine"));

    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &block)])),
        "Bash",
        json!({"command": "curl x"}),
    )
    .await
    .expect("ran");
    assert_eq!(v.decision, Some(HookDecision::Deny));
    assert_eq!(v.reason.as_deref(), Some("no curl here"));

    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &broken)])),
        "Bash",
        json!({"command": "ls"}),
    )
    .await
    .expect("ran");
    assert_eq!(v.decision, None);
    assert!(
        v.errors[0].contains("exit code 1") && v.errors[0].contains("oops"),
        "{:?}",
        v.errors
    );

    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &plain)])),
        "Bash",
        json!({"command": "ls"}),
    )
    .await
    .expect("ran");
    assert_eq!(v.decision, None);
    assert!(v.errors.is_empty());

    // Matchers are regular expressions on the tool name.
    assert!(
        pre_verdict(
            &base.with_hooks(pre(&[("Bash|Edit", &block)])),
            "Read",
            json!({})
        )
        .await
        .is_none()
    );
    assert!(
        pre_verdict(
            &base.with_hooks(pre(&[("Bash|Edit", &block)])),
            "NotebookEdit",
            json!({})
        )
        .await
        .is_none()
    );
    let v = pre_verdict(
        &base.with_hooks(pre(&[("mcp__memory__.*", &block)])),
        "mcp__memory__store",
        json!({}),
    )
    .await;
    assert_eq!(v.and_then(|v| v.decision), Some(HookDecision::Deny));
    let v = pre_verdict(
        &base.with_hooks(pre(&[("*", &block)])),
        "Anything",
        json!({}),
    )
    .await;
    assert_eq!(v.and_then(|v| v.decision), Some(HookDecision::Deny));
    let v = pre_verdict(
        &base.with_hooks(pre(&[("", &block)])),
        "Anything",
        json!({}),
    )
    .await;
    assert_eq!(v.and_then(|v| v.decision), Some(HookDecision::Deny));
}

#[tokio::test]
async fn stdin_environment_and_json_fields() {
    let p = Project::new().expect("project");
    let dump = p.outside.join("stdin.json");
    let env = p.outside.join("env.txt");
    let rec = script(
        &p.outside,
        "rec.sh",
        &format!(
            "cat > {}; echo \"$CLAUDE_PROJECT_DIR\" > {}",
            dump.display(),
            env.display()
        ),
    );
    let ctx = PermissionContext::new(&p.root, PermissionMode::AcceptEdits)
        .with_hooks(pre(&[("Bash", &rec)]));
    pre_verdict(&ctx, "Bash", json!({"command": "ls"}))
        .await
        .expect("ran");
    let stdin: Value =
        serde_json::from_str(&std::fs::read_to_string(&dump).expect("dump")).expect("json");
    assert_eq!(stdin["hook_event_name"], "PreToolUse");
    assert_eq!(stdin["tool_name"], "Bash");
    assert_eq!(stdin["tool_input"]["command"], "ls");
    assert_eq!(stdin["tool_use_id"], "t1");
    assert_eq!(stdin["session_id"], "s1");
    assert_eq!(stdin["permission_mode"], "acceptEdits");
    assert_eq!(stdin["cwd"], p.root.display().to_string());
    assert!(stdin.get("transcript_path").is_some());
    assert_eq!(
        std::fs::read_to_string(&env).expect("env").trim(),
        p.root.display().to_string()
    );

    let legacy_approve = script(
        &p.outside,
        "approve.sh",
        r#"echo '{"decision":"approve","reason":"legacy ok"}'"#,
    );
    let legacy_block = script(
        &p.outside,
        "lblock.sh",
        r#"echo '{"decision":"block","reason":"legacy no"}'"#,
    );
    let stop = script(
        &p.outside,
        "stop.sh",
        r#"echo '{"continue":false,"stopReason":"enough","systemMessage":"hi user"}'"#,
    );
    let ctx1 = script(
        &p.outside,
        "c1.sh",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"first"}}'"#,
    );
    let ctx2 = script(
        &p.outside,
        "c2.sh",
        r#"sleep 0.2; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"second"}}'"#,
    );
    let base = PermissionContext::new(&p.root, PermissionMode::Default);
    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &legacy_approve)])),
        "Bash",
        json!({}),
    )
    .await
    .expect("ran");
    assert_eq!(
        (v.decision, v.reason.as_deref()),
        (Some(HookDecision::Allow), Some("legacy ok"))
    );
    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &legacy_block)])),
        "Bash",
        json!({}),
    )
    .await
    .expect("ran");
    assert_eq!(
        (v.decision, v.reason.as_deref()),
        (Some(HookDecision::Deny), Some("legacy no"))
    );
    let v = pre_verdict(&base.with_hooks(pre(&[("Bash", &stop)])), "Bash", json!({}))
        .await
        .expect("ran");
    assert_eq!(v.stop.as_deref(), Some("enough"));
    assert_eq!(v.system_messages, vec!["hi user".to_string()]);
    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &ctx2), ("Bash", &ctx1)])),
        "Bash",
        json!({}),
    )
    .await
    .expect("ran");
    assert_eq!(
        v.additional_context,
        vec!["second".to_string(), "first".to_string()]
    );
}

#[tokio::test]
async fn timeouts_parallel_runs_and_deduplication() {
    let p = Project::new().expect("project");
    let slow = script(&p.outside, "slow.sh", "sleep 30");
    let set = hooks(json!({"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": slow, "timeout": 1}]}
    ]}));
    let ctx = PermissionContext::new(&p.root, PermissionMode::Default).with_hooks(set);
    let v = pre_verdict(&ctx, "Bash", json!({})).await.expect("ran");
    assert_eq!(v.decision, None, "a timed-out hook is a non-blocking error");
    assert!(v.errors[0].contains("timed out"), "{:?}", v.errors);

    // Each hook waits for the other's mark: only hooks that run at the same time both finish in time.
    let counter = p.outside.join("count");
    let (mark_a, mark_b) = (p.outside.join("a"), p.outside.join("b"));
    let meet = |name: &str, mine: &Path, theirs: &Path, line: &str| {
        script(
            &p.outside,
            name,
            &format!(
                "echo {line} >> {}; touch {}; while [ ! -e {} ]; do sleep 0.05; done",
                counter.display(),
                mine.display(),
                theirs.display()
            ),
        )
    };
    let count = meet("count.sh", &mark_a, &mark_b, "x");
    let count2 = meet("count2.sh", &mark_b, &mark_a, "y");
    let set = hooks(json!({"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": count, "timeout": 60}, {"type": "command", "command": count2, "timeout": 60}]},
        {"matcher": "*", "hooks": [{"type": "command", "command": count, "timeout": 60}]}
    ]}));
    let ctx = PermissionContext::new(&p.root, PermissionMode::Default).with_hooks(set);
    let v = pre_verdict(&ctx, "Bash", json!({})).await.expect("ran");
    assert!(v.errors.is_empty(), "hooks run in parallel: {:?}", v.errors);
    let lines = std::fs::read_to_string(&counter).expect("count");
    assert_eq!(
        lines.lines().count(),
        2,
        "identical commands run once: {lines:?}"
    );
}

#[tokio::test]
async fn a_hook_that_leaves_a_process_holding_its_output_still_answers() {
    let p = Project::new().expect("project");
    let pid_file = p.outside.join("child.pid");
    // The background sleep inherits stdout and keeps it open long after the hook has answered.
    let lingering = script(
        &p.outside,
        "lingering.sh",
        &format!(
            r#"sleep 600 & echo $! > {}
echo '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}}}'"#,
            pid_file.display()
        ),
    );
    let set = hooks(json!({"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": lingering, "timeout": 600}]}
    ]}));
    let ctx = PermissionContext::new(&p.root, PermissionMode::Default).with_hooks(set);

    let v = tokio::time::timeout(
        Duration::from_secs(300),
        pre_verdict(&ctx, "Bash", json!({})),
    )
    .await
    .expect("the hook's answer does not wait for its lingering child")
    .expect("ran");

    assert_eq!(v.decision, Some(HookDecision::Deny), "{v:?}");
    if let Ok(pid) = std::fs::read_to_string(&pid_file) {
        let _ = std::process::Command::new("kill").arg(pid.trim()).status();
    }
}

#[tokio::test]
async fn a_timed_out_hook_is_stopped_with_everything_it_started() {
    let p = Project::new().expect("project");
    let pid_file = p.outside.join("child.pid");
    let stuck = script(
        &p.outside,
        "stuck.sh",
        &format!("sleep 600 & echo $! > {}; wait", pid_file.display()),
    );
    let set = hooks(json!({"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": stuck, "timeout": 1}]}
    ]}));
    let ctx = PermissionContext::new(&p.root, PermissionMode::Default).with_hooks(set);

    let v = pre_verdict(&ctx, "Bash", json!({})).await.expect("ran");

    assert!(v.errors[0].contains("timed out"), "{:?}", v.errors);
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .expect("the hook wrote its child's pid")
        .trim()
        .parse()
        .expect("pid");
    let until = Instant::now() + Duration::from_secs(60);
    while process_alive(pid) && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        !process_alive(pid),
        "the hook's child {pid} outlived the timeout"
    );
}

/// Whether `pid` runs (a zombie does not count).
fn process_alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

#[tokio::test]
async fn disagreeing_hooks_and_rules() {
    let p = Project::new().expect("project");
    let allow = script(
        &p.outside,
        "allow.sh",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"#,
    );
    let ask = script(
        &p.outside,
        "ask.sh",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"look"}}'"#,
    );
    let deny = script(
        &p.outside,
        "deny.sh",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"nope"}}'"#,
    );
    let base = PermissionContext::new(&p.root, PermissionMode::Default);
    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &allow), ("Bash", &deny)])),
        "Bash",
        json!({}),
    )
    .await
    .expect("ran");
    assert_eq!(
        (v.decision, v.reason.as_deref()),
        (Some(HookDecision::Deny), Some("nope"))
    );
    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &allow), ("Bash", &ask)])),
        "Bash",
        json!({}),
    )
    .await
    .expect("ran");
    assert_eq!(v.decision, Some(HookDecision::Ask));

    // How a hook answer meets the rules.
    type Row<'a> = (
        &'a str,
        &'a [(&'a str, &'a str)],
        &'a str,
        &'a str,
        DecisionBehavior,
        &'a str,
    );
    let cases: &[Row<'_>] = &[
        (
            &allow,
            &[("deny", "Bash(curl *)")],
            "default",
            "curl x",
            DecisionBehavior::Deny,
            "rule",
        ),
        (
            &allow,
            &[("ask", "Bash(curl *)")],
            "default",
            "curl x",
            DecisionBehavior::Ask,
            "rule",
        ),
        (
            &allow,
            &[],
            "default",
            "curl x",
            DecisionBehavior::Allow,
            "hook",
        ),
        (
            &allow,
            &[],
            "dontAsk",
            "curl x",
            DecisionBehavior::Allow,
            "hook",
        ),
        (
            &allow,
            &[],
            "default",
            "rm -rf /",
            DecisionBehavior::Ask,
            "safety_check",
        ),
        (
            &ask,
            &[("deny", "Bash(curl *)")],
            "default",
            "curl x",
            DecisionBehavior::Deny,
            "rule",
        ),
        (
            &ask,
            &[("allow", "Bash(curl *)")],
            "bypassPermissions",
            "curl x",
            DecisionBehavior::Ask,
            "hook",
        ),
        (&ask, &[], "dontAsk", "ls", DecisionBehavior::Deny, "mode"),
        (
            &deny,
            &[("allow", "Bash(curl *)")],
            "bypassPermissions",
            "curl x",
            DecisionBehavior::Deny,
            "hook",
        ),
        (&deny, &[], "default", "ls", DecisionBehavior::Deny, "hook"),
    ];
    for (hook, rules, m, command, expected, decided_by) in cases {
        let ctx = p
            .ctx(rules, PermissionMode::parse(m).expect("mode"))
            .with_hooks(pre(&[("Bash", hook)]));
        let input = json!({"command": command});
        let verdict = pre_verdict(&ctx, "Bash", input.clone()).await;
        let subject = tandem_engine::permission::PermissionSubject::Shell {
            command: command.to_string(),
        };
        let eval = evaluate(
            &ctx,
            &tandem_engine::permission::CallView {
                tool_name: "Bash",
                input: &input,
                subject: &subject,
                read_only: false,
            },
        );
        let out = resolve(verdict.as_ref(), eval, ctx.mode);
        assert_eq!(
            out.decision.decision, *expected,
            "{hook} {rules:?} {m} {command}: {}",
            out.decision.reason
        );
        let source = serde_json::to_value(&out.decision.decided_by).expect("serialises");
        assert_eq!(
            source["type"], *decided_by,
            "{hook} {rules:?} {m} {command}: decided by {source}"
        );
        if *decided_by == "hook" {
            assert_eq!(source["command"], *hook, "the hook names its command");
        }
    }
}

fn runtime(ctx: PermissionContext, approver: ScriptedApprover) -> ToolRuntime {
    TestRuntime::new(&ctx.cwd)
        .session_id("s1")
        .permissions(ctx)
        .approver(approver)
        .build()
}

#[tokio::test]
async fn pipeline_rechecks_rewritten_input_and_runs_post_hooks() {
    let p = Project::new().expect("project");
    std::fs::write(p.outside.join("secret.txt"), "secret").expect("write");
    let rewrite = script(
        &p.outside,
        "rewrite.sh",
        &format!(
            r#"echo '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{{"file_path":"{}"}}}}}}'"#,
            p.outside.join("secret.txt").display()
        ),
    );
    let post = script(
        &p.outside,
        "post.sh",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"checked by post hook"}}'"#,
    );
    let set = hooks(json!({
        "PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": rewrite}]}],
        "PostToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": post}]}]
    }));
    // The rewritten path is outside the project: the hook's allow stands only if no rule stops it; here nothing
    // does, so it runs and the post hook's context reaches the model.
    let ctx = PermissionContext::new(&p.root, PermissionMode::Default).with_hooks(set.clone());
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(ctx, approver.clone());
    let out = run_tool_use(
        &rt,
        "t1",
        "Read",
        &json!({"file_path": p.path("README.md")}),
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Success);
    let text = format!("{:?}", out.block);
    assert!(
        text.contains("secret") && text.contains("checked by post hook"),
        "{text}"
    );

    // With a deny rule on the rewritten path, the rewritten input is refused.
    let deny = format!("Read(/{}/**)", p.outside.display());
    let ctx = p
        .ctx(&[("deny", deny.as_str())], PermissionMode::Default)
        .with_hooks(set);
    let rt = runtime(ctx, approver.clone());
    let out = run_tool_use(
        &rt,
        "t2",
        "Read",
        &json!({"file_path": p.path("README.md")}),
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Denied, "{:?}", out.block);
    assert!(approver.asked().is_empty());
}

#[tokio::test]
async fn pipeline_permission_request_hook_and_allow_always() {
    let p = Project::new().expect("project");
    std::fs::write(p.outside.join("notes.txt"), "notes").expect("write");
    let outside_file = p.outside.join("notes.txt").display().to_string();
    // No hook: the person is asked, with the rule "don't ask again" would save and where.
    std::process::Command::new("git")
        .arg("init")
        .arg("-q")
        .arg(&p.root)
        .status()
        .expect("git init");
    std::fs::create_dir_all(p.root.join(".claude")).expect("mkdir");
    std::fs::write(
        p.root.join(".claude/settings.local.json"),
        r#"{"model": "keep-me", "permissions": {"deny": ["Bash(rm *)"]}}"#,
    )
    .expect("write");
    let approver = ScriptedApprover::new([ApprovalChoice::AllowAlways], ApprovalChoice::Deny);
    let ctx = p.ctx(&[], PermissionMode::Default);
    let rt = runtime(ctx, approver.clone());
    let out = run_tool_use(
        &rt,
        "t1",
        "Read",
        &json!({"file_path": outside_file}),
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Success);
    let asked = approver.asked();
    let suggestion = asked[0].suggestion.clone().expect("a suggestion");
    assert_eq!(
        suggestion.rules,
        vec![format!("Read(/{}/**)", p.outside.display())]
    );
    assert_eq!(
        suggestion.destination,
        p.root
            .join(".claude/settings.local.json")
            .display()
            .to_string()
    );
    let saved: Value = serde_json::from_str(
        &std::fs::read_to_string(p.root.join(".claude/settings.local.json")).expect("read"),
    )
    .expect("json");
    assert_eq!(saved["model"], "keep-me");
    assert_eq!(saved["permissions"]["deny"][0], "Bash(rm *)");
    assert_eq!(
        saved["permissions"]["allow"][0],
        suggestion.rules[0].as_str()
    );
    // The saved rules are the person's own: git now ignores the file (through the clone's .git/info/exclude).
    let ignored = std::process::Command::new("git")
        .arg("-C")
        .arg(&p.root)
        .args(["check-ignore", "-q", ".claude/settings.local.json"])
        .status()
        .expect("git check-ignore");
    assert!(ignored.success(), "git does not ignore the local settings");
    assert!(
        std::fs::read_to_string(p.root.join(".git/info/exclude"))
            .expect("exclude")
            .contains("/.claude/settings.local.json")
    );
    // The grant applies at once: the second read is not asked.
    let out = run_tool_use(
        &rt,
        "t2",
        "Read",
        &json!({"file_path": outside_file}),
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Success);
    assert_eq!(approver.asked().len(), 1);

    // A PermissionRequest hook answers instead of the dialog.
    let yes = script(
        &p.outside,
        "yes.sh",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'"#,
    );
    let no = script(
        &p.outside,
        "no.sh",
        r#"echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not today"}}}'"#,
    );
    for (cmd, expected) in [(&yes, ToolOutcome::Success), (&no, ToolOutcome::Denied)] {
        let set = hooks(
            json!({"PermissionRequest": [{"matcher": "Read", "hooks": [{"type": "command", "command": cmd}]}]}),
        );
        let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
        let rt = runtime(
            PermissionContext::new(&p.root, PermissionMode::Default).with_hooks(set),
            approver.clone(),
        );
        let out = run_tool_use(
            &rt,
            "t3",
            "Read",
            &json!({"file_path": outside_file}),
            &CancellationToken::new(),
        )
        .await;
        assert_eq!(out.outcome, expected, "{:?}", out.block);
        assert!(approver.asked().is_empty());
    }
}

#[test]
fn hook_settings_of_the_wrong_type_are_reported_by_key_and_expected_type() {
    let command = json!({"type": "command", "command": "true"});
    // (the PreToolUse groups, what the report says, how many groups still apply)
    let cases = [
        (
            json!([{"matcher": 42, "hooks": [command]}]),
            "hooks.PreToolUse[0].matcher must be a string (a regular expression over tool names), not a number (42)",
            0,
        ),
        (
            json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": "30"}]}]),
            "hooks.PreToolUse[0].hooks[0].timeout must be a positive number of seconds, not a string (\"30\"); the default of 600 s applies",
            1,
        ),
        (
            json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": ["ls"]}]}]),
            "hooks.PreToolUse[0].hooks[0].command must be a string, not an array",
            0,
        ),
        (
            json!([{"matcher": "Bash", "hooks": {"type": "command", "command": "true"}}]),
            "hooks.PreToolUse[0].hooks must be an array of hooks, not an object",
            0,
        ),
        (json!(["true"]), "hooks.PreToolUse[0] must be an object", 0),
    ];
    for (groups, report, applied) in cases {
        let mut issues = Vec::new();
        let set = parse_hooks(
            &json!({ "PreToolUse": groups }),
            &RuleSource::Project(PathBuf::from("/p/.claude/settings.json")),
            &mut issues,
        );
        assert!(
            issues
                .iter()
                .any(|i| i.message.contains(report) && i.file.contains("settings.json")),
            "{report}: {issues:?}"
        );
        let groups = set.events.get(&HookEvent::PreToolUse).map_or(0, Vec::len);
        assert_eq!(groups, applied, "{report}");
    }
    // A string timeout falls back to the default rather than to none.
    let mut issues = Vec::new();
    let set = parse_hooks(
        &json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "true", "timeout": "30"}]}]}),
        &RuleSource::Project(PathBuf::from("settings.json")),
        &mut issues,
    );
    assert_eq!(
        set.commands_for(HookEvent::PreToolUse, Some("Bash"))[0].timeout_secs,
        600
    );
}

#[tokio::test]
async fn hook_output_that_does_not_fit_the_format_is_reported_and_ignored() {
    let p = Project::new().expect("project");
    let base = PermissionContext::new(&p.root, PermissionMode::Default);
    // (what the hook prints, what the report says)
    let cases = [
        (
            r#"{"continue": "false", "stopReason": "stop now"}"#,
            "`continue` must be true or false, not a string (\"false\")",
        ),
        (
            r#"{"decision": "deny", "reason": "no"}"#,
            "`decision` must be \"approve\" or \"block\", not a string (\"deny\")",
        ),
        (
            r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}}"#,
            "`hookSpecificOutput.permissionDecision` must be \"allow\", \"deny\" or \"ask\", not a string (\"maybe\")",
        ),
        (
            r#"{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "allow"}}"#,
            "`hookSpecificOutput.hookEventName` is \"PostToolUse\", but the hook ran for PreToolUse",
        ),
    ];
    for (n, (printed, report)) in cases.into_iter().enumerate() {
        let hook = script(
            &p.outside,
            &format!("bad{n}.sh"),
            &format!("echo '{printed}'"),
        );
        let v = pre_verdict(
            &base.with_hooks(pre(&[("Bash", &hook)])),
            "Bash",
            json!({"command": "ls"}),
        )
        .await
        .expect("ran");
        assert!(
            v.errors
                .iter()
                .any(|e| e.contains(report) && e.contains("ignored")),
            "{printed}: {:?}",
            v.errors
        );
        assert_eq!(v.decision, None, "{printed}");
        assert_eq!(v.stop, None, "{printed}");
    }
}

#[tokio::test]
async fn a_flood_from_a_hook_is_cut_with_a_marker_before_it_goes_anywhere() {
    let p = Project::new().expect("project");
    let base = PermissionContext::new(&p.root, PermissionMode::Default);
    let flood = "head -c 10000000 /dev/zero | tr '\\0' x";
    let blocker = script(&p.outside, "flood_err.sh", &format!("{flood} >&2; exit 2"));
    let v = pre_verdict(
        &base.with_hooks(pre(&[("Bash", &blocker)])),
        "Bash",
        json!({"command": "ls"}),
    )
    .await
    .expect("ran");
    assert_eq!(v.decision, Some(HookDecision::Deny));
    let reason = v.reason.expect("a reason");
    assert!(reason.len() < 11_000, "{} bytes", reason.len());
    assert!(reason.contains("characters were cut"), "{}", &reason[..200]);

    let context = script(&p.outside, "flood_out.sh", flood);
    let set =
        hooks(json!({"UserPromptSubmit": [{"hooks": [{"type": "command", "command": context}]}]}));
    let prompt = EventInput::UserPromptSubmit(PromptSubmit {
        prompt: "hello".into(),
    });
    let v = run_event(&base.with_hooks(set), "s1", prompt)
        .await
        .expect("ran");
    assert_eq!(v.additional_context.len(), 1);
    assert!(
        v.additional_context[0].len() < 11_000
            && v.additional_context[0].contains("characters were cut"),
        "{} bytes",
        v.additional_context[0].len()
    );
}
