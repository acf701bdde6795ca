//! Every answer of `decide()` names what decided it, typed: the rule with its scope and file, the mode, a safety
//! check, the tool itself or the working directories; `permissions check` prints it beside the old fields.

use serde_json::{Value, json};
use tandem_protocol::{DecisionBehavior, DecisionSource, PermissionMode, RuleScope, SafetyCheck};

use tandem_engine::testing::{Project, check};

fn decided(
    p: &Project,
    rules: &[(&str, &str)],
    m: &str,
    tool: &str,
    input: Value,
) -> (DecisionBehavior, DecisionSource) {
    let answer = check(
        &p.ctx(rules, PermissionMode::parse(m).expect("mode")),
        tool,
        input,
    );
    let source = answer
        .decided_by
        .unwrap_or_else(|| panic!("{tool} in {m}: no typed source ({})", answer.reason));
    (answer.decision, source)
}

fn by_mode(mode: PermissionMode) -> DecisionSource {
    DecisionSource::Mode { mode }
}

#[test]
fn a_rule_names_itself_its_scope_and_its_file() {
    let p = Project::new().expect("project");
    let answer = check(
        &p.ctx(&[("deny", "Bash(rm *)")], PermissionMode::Default),
        "Bash",
        json!({"command": "rm -rf build"}),
    );
    let file = p.root.join(".claude/settings.json").display().to_string();
    assert_eq!(answer.decision, DecisionBehavior::Deny);
    assert_eq!(
        answer.decided_by,
        Some(DecisionSource::Rule {
            rule: "Bash(rm *)".into(),
            behavior: DecisionBehavior::Deny,
            scope: RuleScope::ProjectSettings,
            file: Some(file.clone()),
        })
    );
    // The fields scripts read are still there, as they were.
    assert_eq!(answer.rule.as_deref(), Some("Bash(rm *)"));
    assert_eq!(answer.source.as_deref(), Some(file.as_str()));
    let line = serde_json::to_value(&answer).expect("serialises");
    for field in ["decision", "reason", "rule", "source"] {
        assert!(line.get(field).is_some(), "{field} is missing from {line}");
    }
    assert_eq!(line["decided_by"]["type"], "rule");
    assert_eq!(line["decided_by"]["scope"], "projectSettings");
}

#[test]
fn what_no_rule_decides_is_decided_by_the_mode() {
    let p = Project::new().expect("project");
    let install = || json!({"command": "npm install"});
    assert_eq!(
        decided(&p, &[], "default", "Bash", install()),
        (DecisionBehavior::Ask, by_mode(PermissionMode::Default))
    );
    assert_eq!(
        decided(&p, &[], "dontAsk", "Bash", install()),
        (DecisionBehavior::Deny, by_mode(PermissionMode::DontAsk))
    );
    assert_eq!(
        decided(&p, &[], "bypassPermissions", "Bash", install()),
        (
            DecisionBehavior::Allow,
            by_mode(PermissionMode::BypassPermissions)
        )
    );
    let edit = json!({"file_path": p.path("src/a.rs"), "old_string": "a", "new_string": "b"});
    assert_eq!(
        decided(&p, &[], "acceptEdits", "Edit", edit.clone()),
        (
            DecisionBehavior::Allow,
            by_mode(PermissionMode::AcceptEdits)
        )
    );
    assert_eq!(
        decided(&p, &[], "plan", "Edit", edit),
        (DecisionBehavior::Deny, by_mode(PermissionMode::Plan))
    );
}

#[test]
fn safety_checks_name_the_check() {
    let p = Project::new().expect("project");
    let git = json!({"file_path": p.path(".git/config"), "content": "x"});
    assert_eq!(
        decided(&p, &[("allow", "Write")], "acceptEdits", "Write", git),
        (
            DecisionBehavior::Ask,
            DecisionSource::SafetyCheck {
                check: SafetyCheck::ProtectedPath
            }
        )
    );
    assert_eq!(
        decided(&p, &[], "default", "Bash", json!({"command": "rm -rf /"})),
        (
            DecisionBehavior::Ask,
            DecisionSource::SafetyCheck {
                check: SafetyCheck::CriticalRemoval
            }
        )
    );
    assert_eq!(
        decided(
            &p,
            &[],
            "default",
            "Read",
            json!({"file_path": "\\\\server\\share\\a.txt"})
        ),
        (
            DecisionBehavior::Ask,
            DecisionSource::SafetyCheck {
                check: SafetyCheck::NetworkPath
            }
        )
    );
}

#[test]
fn built_in_allowances_name_the_working_directories_or_the_tool() {
    let p = Project::new().expect("project");
    assert_eq!(
        decided(
            &p,
            &[],
            "default",
            "Read",
            json!({"file_path": p.path("README.md")})
        ),
        (DecisionBehavior::Allow, DecisionSource::WorkingDirectories)
    );
    assert_eq!(
        decided(&p, &[], "default", "Bash", json!({"command": "ls -la"})),
        (DecisionBehavior::Allow, DecisionSource::WorkingDirectories)
    );
    assert_eq!(
        decided(
            &p,
            &[],
            "default",
            "AskUserQuestion",
            json!({"questions": []})
        ),
        (
            DecisionBehavior::Ask,
            DecisionSource::Tool {
                tool: "AskUserQuestion".into()
            }
        )
    );
}
