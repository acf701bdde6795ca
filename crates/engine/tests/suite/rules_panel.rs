//! The rules and hooks panels' engine side: rules added (checked by the parser), removed and moved between settings
//! files keeping every other key; the listing with shadowed and contradicting rules; a session applying edits at
//! once, testing a call with its trace, and listing and trying its hooks.

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::permission::{
    RuleBehavior, add_rules, move_rule, remove_rule, rule_listing, save_allow_rules,
};
use tandem_engine::testing::{Project, Script, ScriptedApprover, check};
use tandem_protocol::{ApprovalChoice, DecisionBehavior, PermissionMode, RuleScope};

use super::common::{server, session};

fn read(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

#[test]
fn rules_are_added_removed_and_moved_keeping_every_other_key() {
    let p = Project::new().expect("project");
    let local = p.root.join(".claude/settings.local.json");
    let project = p.root.join(".claude/settings.json");
    std::fs::create_dir_all(p.root.join(".claude")).expect("mkdir");
    std::fs::write(
        &local,
        r#"{"model": "keep-me", "permissions": {"allow": ["Read"], "defaultMode": "default"}, "hooks": {}}"#,
    )
    .expect("write");

    add_rules(&local, RuleBehavior::Deny, &["Bash(rm *)".into()]).expect("adds");
    add_rules(&local, RuleBehavior::Deny, &["Bash(rm *)".into()]).expect("adds once");
    let saved = read(&local);
    assert_eq!(saved["model"], "keep-me");
    assert_eq!(saved["permissions"]["defaultMode"], "default");
    assert_eq!(saved["permissions"]["allow"], json!(["Read"]));
    assert_eq!(saved["permissions"]["deny"], json!(["Bash(rm *)"]));
    assert!(saved.get("hooks").is_some());

    // Invalid rules are refused with the parser's reason, and the file is left as it was.
    for (rule, behavior, says) in [
        ("Bash(npm", RuleBehavior::Allow, "must end with"),
        ("Read(file_path:x)", RuleBehavior::Allow, "primary"),
        ("mcp*", RuleBehavior::Allow, "wildcard"),
        ("WebFetch(example.com)", RuleBehavior::Deny, "domain:"),
    ] {
        let err = add_rules(&local, behavior, &[rule.into()]).expect_err(rule);
        let message = err.to_string();
        assert!(
            message.contains(rule) && message.contains(says),
            "{rule}: {message}"
        );
    }
    assert_eq!(read(&local), saved);

    move_rule(&local, &project, RuleBehavior::Deny, "Bash(rm *)").expect("moves");
    assert_eq!(read(&local)["permissions"]["deny"], json!([]));
    assert_eq!(read(&project)["permissions"]["deny"], json!(["Bash(rm *)"]));
    assert_eq!(read(&local)["model"], "keep-me");

    let missing = remove_rule(&local, RuleBehavior::Deny, "Bash(rm *)").expect_err("gone");
    assert!(
        missing.to_string().contains("not in the deny list"),
        "{missing}"
    );
    remove_rule(&project, RuleBehavior::Deny, "Bash(rm *)").expect("removes");
    assert_eq!(read(&project)["permissions"]["deny"], json!([]));
    let no_move = move_rule(&local, &project, RuleBehavior::Ask, "Bash(x)").expect_err("missing");
    assert!(
        no_move.to_string().contains("not in the ask list"),
        "{no_move}"
    );

    // A file that is not JSON is never overwritten.
    std::fs::write(&project, "{ not json").expect("write");
    let err = save_allow_rules(&project, &["Read".into()]).expect_err("malformed");
    assert!(err.to_string().contains("left unchanged"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&project).expect("read"),
        "{ not json"
    );
}

#[test]
fn the_listing_flags_shadowed_and_contradicting_rules() {
    let p = Project::new().expect("project");
    let ctx = p.ctx(
        &[
            ("allow", "Bash(rm -rf build)"),
            ("allow", "Bash(npm test)"),
            ("allow", "Read(./secrets/key.txt)"),
            ("allow", "WebFetch(domain:example.com)"),
            ("allow", "Bash(git push:*)"),
            ("deny", "Bash(rm *)"),
            ("deny", "Read(./secrets/**)"),
            ("deny", "WebFetch(domain:example.com)"),
            ("ask", "Bash(git push:*)"),
            ("allow", "Bash(npm"),
        ],
        PermissionMode::Default,
    );
    let listing = rule_listing(&ctx);
    let find = |rule: &str, b: DecisionBehavior| {
        listing
            .iter()
            .find(|r| r.rule == rule && r.behavior == b)
            .unwrap_or_else(|| panic!("{rule} is not listed: {listing:?}"))
    };
    let file = p.root.join(".claude/settings.json").display().to_string();
    let rm = find("Bash(rm -rf build)", DecisionBehavior::Allow);
    assert_eq!(rm.shadowed_by, vec!["deny: Bash(rm *)"]);
    assert_eq!(rm.scope, RuleScope::ProjectSettings);
    assert_eq!(rm.file.as_deref(), Some(file.as_str()));
    assert!(rm.applies && rm.contradicts.is_empty());
    assert!(
        find("Bash(npm test)", DecisionBehavior::Allow)
            .shadowed_by
            .is_empty()
    );
    assert_eq!(
        find("Read(./secrets/key.txt)", DecisionBehavior::Allow).shadowed_by,
        vec!["deny: Read(./secrets/**)"]
    );
    let fetch = find("WebFetch(domain:example.com)", DecisionBehavior::Allow);
    assert_eq!(fetch.contradicts, vec![format!("deny: {file}")]);
    assert_eq!(
        fetch.shadowed_by,
        vec!["deny: WebFetch(domain:example.com)"]
    );
    let push = find("Bash(git push:*)", DecisionBehavior::Allow);
    assert_eq!(push.shadowed_by, vec!["ask: Bash(git push:*)"]);
    assert_eq!(
        find("Bash(git push:*)", DecisionBehavior::Ask).contradicts,
        vec![format!("allow: {file}")]
    );
    let bad = find("Bash(npm", DecisionBehavior::Allow);
    assert!(!bad.applies && bad.problem.is_some());
    // The listing agrees with the decisions: the shadowed allow really is never reached.
    assert_eq!(
        check(&ctx, "Bash", json!({"command": "rm -rf build"})).decision,
        DecisionBehavior::Deny
    );
}

#[tokio::test]
async fn a_session_applies_rule_edits_at_once_tests_calls_and_tries_its_hooks() {
    let p = Project::new().expect("project");
    std::fs::create_dir_all(p.root.join(".claude")).expect("mkdir");
    std::fs::write(
        p.root.join(".claude/settings.local.json"),
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"not today\"}}'", "timeout": 5}
        ]}]}})
        .to_string(),
    )
    .expect("write");
    let fake = server(Script::turns([])).await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny));
    let s = session(&p.root, &fake, approver, RecordingSink::default());

    let before = s
        .panels()
        .check_call("Bash", &json!({"command": "rm -rf build"}));
    assert_eq!(before.decision, DecisionBehavior::Ask);
    s.panels()
        .add_rule(
            RuleScope::LocalSettings,
            DecisionBehavior::Deny,
            "Bash(rm *)",
        )
        .expect("adds");
    let after = s
        .panels()
        .check_call("Bash", &json!({"command": "rm -rf build"}));
    assert_eq!(after.decision, DecisionBehavior::Deny, "{}", after.reason);
    assert!(
        serde_json::to_string(&after.trace)
            .expect("json")
            .contains("Bash(rm *)")
    );
    let view = s.panels().rules_view();
    let listed = view
        .rules
        .iter()
        .find(|r| r.rule == "Bash(rm *)")
        .expect("listed");
    assert_eq!(listed.scope, RuleScope::LocalSettings);
    assert!(view.files.local.ends_with(".claude/settings.local.json"));

    let err = s
        .panels()
        .add_rule(
            RuleScope::LocalSettings,
            DecisionBehavior::Allow,
            "Bash(npm",
        )
        .expect_err("invalid");
    assert!(err.to_string().contains("not a valid allow rule"), "{err}");
    let err = s
        .panels()
        .add_rule(RuleScope::PolicySettings, DecisionBehavior::Deny, "Read")
        .expect_err("not editable");
    assert!(err.to_string().contains("cannot be edited"), "{err}");

    s.panels()
        .move_rule(
            RuleScope::LocalSettings,
            RuleScope::ProjectSettings,
            DecisionBehavior::Deny,
            "Bash(rm *)",
        )
        .expect("moves");
    let moved = s.panels().rules_view();
    assert!(
        moved
            .rules
            .iter()
            .any(|r| r.rule == "Bash(rm *)" && r.scope == RuleScope::ProjectSettings)
    );
    s.panels()
        .remove_rule(
            RuleScope::ProjectSettings,
            DecisionBehavior::Deny,
            "Bash(rm *)",
        )
        .expect("removes");
    assert_eq!(
        s.panels()
            .check_call("Bash", &json!({"command": "rm -rf build"}))
            .decision,
        DecisionBehavior::Ask
    );

    let hooks = s.panels().hooks_view();
    assert_eq!(hooks.len(), 1, "{hooks:?}");
    assert_eq!(hooks[0].event, "PreToolUse");
    assert_eq!(hooks[0].matcher.as_deref(), Some("Bash"));
    assert!(hooks[0].source.ends_with("settings.local.json"));
    assert_eq!(hooks[0].sample_input["tool_name"], "Bash");
    let tried = s
        .panels()
        .test_hook("PreToolUse", &hooks[0].command, &hooks[0].sample_input)
        .await
        .expect("runs");
    assert_eq!(tried.exit_code, Some(0));
    assert_eq!(tried.decision, Some(DecisionBehavior::Deny));
    assert_eq!(tried.reason.as_deref(), Some("not today"));
    assert!(tried.stdout.contains("permissionDecision"));
    let unknown = s
        .panels()
        .test_hook("PreToolUse", "nope", &json!({}))
        .await
        .expect_err("unknown");
    assert!(unknown.to_string().contains("nope"));
}

#[test]
fn the_listing_shows_which_rules_auto_mode_sets_aside_and_why() {
    let p = Project::new().expect("project");
    let rules = [("allow", "Bash(python3 *)"), ("allow", "Bash(npm test *)")];
    let auto = p.ctx(&rules, PermissionMode::Auto);
    let listing = rule_listing(&auto);
    let python = listing
        .iter()
        .find(|r| r.rule == "Bash(python3 *)")
        .expect("listed");
    assert!(!python.applies);
    assert!(
        python
            .set_aside
            .as_deref()
            .is_some_and(|why| why.contains("python") && why.contains("classifier")),
        "{python:?}"
    );
    let npm = listing
        .iter()
        .find(|r| r.rule == "Bash(npm test *)")
        .expect("listed");
    assert!(npm.applies && npm.set_aside.is_none());
    // Out of auto mode, nothing is set aside.
    for listed in rule_listing(&auto.with_mode(PermissionMode::Default)) {
        assert!(listed.applies && listed.set_aside.is_none(), "{listed:?}");
    }
}
