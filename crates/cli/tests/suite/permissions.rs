//! `tandem permissions check|list` called directly: every settings source and flag reaches the answer, the list is
//! ordered deny, ask, allow with sources, and batches answer line by line (bad lines included).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tandem_cli::permissions::{CheckOptions, check, check_batch, list};
use tandem_protocol::{DecisionBehavior, PermissionMode};

struct Setup {
    _dir: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    outside: PathBuf,
}

impl Setup {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let base = std::fs::canonicalize(dir.path()).expect("canonical");
        let (root, home, outside) = (base.join("proj"), base.join("home"), base.join("elsewhere"));
        for d in [&root, &home, &outside] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        Self {
            _dir: dir,
            root,
            home,
            outside,
        }
    }

    fn write(&self, path: &Path, value: Value) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, value.to_string()).expect("write");
    }

    fn opts(&self) -> CheckOptions {
        CheckOptions {
            cwd: Some(self.root.clone()),
            home: Some(self.home.clone()),
            managed_settings: Some(self.outside.join("managed-settings.json")),
            ..CheckOptions::default()
        }
    }

    fn bash(&self, command: &str, opts: CheckOptions) -> DecisionBehavior {
        check(&CheckOptions {
            tool: "Bash".into(),
            input: json!({ "command": command }),
            ..opts
        })
        .decision
    }
}

#[test]
fn every_source_and_flag_reaches_the_answer() {
    let s = Setup::new();
    s.write(
        &s.home.join(".claude/settings.json"),
        json!({"permissions": {"allow": ["Bash(npm test *)"]}}),
    );
    s.write(
        &s.root.join(".claude/settings.json"),
        json!({"permissions": {"deny": ["Bash(aws *)"]}}),
    );
    s.write(
        &s.outside.join("managed-settings.json"),
        json!({"permissions": {"deny": ["Bash(curl *)"]}}),
    );
    let flag = s.outside.join("flag.json");
    s.write(&flag, json!({"permissions": {"allow": ["Bash(just *)"]}}));

    assert_eq!(s.bash("npm test", s.opts()), DecisionBehavior::Allow);
    let managed = check(&CheckOptions {
        tool: "Bash".into(),
        input: json!({"command": "curl x"}),
        ..s.opts()
    });
    assert_eq!(managed.decision, DecisionBehavior::Deny);
    assert_eq!(managed.rule.as_deref(), Some("Bash(curl *)"));
    assert_eq!(
        managed.source,
        Some(
            s.outside
                .join("managed-settings.json")
                .display()
                .to_string()
        )
    );
    assert_eq!(s.bash("just x", s.opts()), DecisionBehavior::Ask);
    let with_flag = CheckOptions {
        settings_files: vec![flag],
        ..s.opts()
    };
    assert_eq!(s.bash("just x", with_flag), DecisionBehavior::Allow);
    let bypass = CheckOptions {
        mode: Some(PermissionMode::BypassPermissions),
        ..s.opts()
    };
    assert_eq!(s.bash("make x", bypass), DecisionBehavior::Allow);

    let target = s.outside.join("notes.txt");
    let read = |opts: CheckOptions| {
        check(&CheckOptions {
            tool: "Read".into(),
            input: json!({"file_path": target}),
            ..opts
        })
        .decision
    };
    assert_eq!(read(s.opts()), DecisionBehavior::Ask);
    let with_dir = CheckOptions {
        add_dirs: vec![PathBuf::from("../elsewhere")],
        ..s.opts()
    };
    assert_eq!(
        read(with_dir),
        DecisionBehavior::Allow,
        "a relative --add-dir is taken from the folder"
    );
}

#[test]
fn bad_questions_are_answered_deny_with_the_reason() {
    let s = Setup::new();
    let unknown = check(&CheckOptions {
        tool: "Frobnicate".into(),
        input: json!({}),
        ..s.opts()
    });
    assert_eq!(unknown.decision, DecisionBehavior::Deny);
    assert!(
        unknown.reason.contains("unknown tool `Frobnicate`"),
        "{unknown:?}"
    );
    let invalid = check(&CheckOptions {
        tool: "Bash".into(),
        input: json!({"cmd": "ls"}),
        ..s.opts()
    });
    assert_eq!(invalid.decision, DecisionBehavior::Deny);
    assert!(
        invalid.reason.starts_with("invalid input for Bash"),
        "{invalid:?}"
    );
    let missing = check(&CheckOptions {
        tool: "Bash".into(),
        input: json!({"command": "ls"}),
        cwd: Some(s.root.join("gone")),
        ..s.opts()
    });
    assert_eq!(missing.decision, DecisionBehavior::Deny);
    assert!(missing.reason.contains("cannot be opened"), "{missing:?}");
}

#[test]
fn the_list_orders_rules_deny_ask_allow_with_sources_and_hooks() {
    let s = Setup::new();
    let project = s.root.join(".claude/settings.json");
    s.write(
        &project,
        json!({
            "permissions": {"allow": ["Bash(ls *)", "Bash(npm test"], "ask": ["Bash(git push *)"], "deny": ["Bash(rm *)"]},
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": 5}]}]}
        }),
    );

    let listed = list(&s.opts()).expect("list");

    let rules: Vec<(&str, &str, &str)> = listed
        .rules
        .iter()
        .map(|r| (r.behavior, r.rule.as_str(), r.kind))
        .collect();
    assert_eq!(
        rules,
        [
            ("deny", "Bash(rm *)", "projectSettings"),
            ("ask", "Bash(git push *)", "projectSettings"),
            ("allow", "Bash(ls *)", "projectSettings"),
        ]
    );
    assert!(
        listed
            .rules
            .iter()
            .all(|r| r.source == project.display().to_string()),
        "{:?}",
        listed.rules
    );
    assert_eq!(listed.mode, PermissionMode::Default);
    assert_eq!(listed.working_dirs, std::slice::from_ref(&s.root));
    assert!(
        listed
            .invalid
            .iter()
            .any(|i| i.rule.as_deref() == Some("allow: Bash(npm test")),
        "{:?}",
        listed.invalid
    );
    assert_eq!(listed.hooks.len(), 1);
    let hook = &listed.hooks[0];
    assert_eq!(
        (
            hook.event.as_str(),
            hook.matcher.as_deref(),
            hook.command.as_str(),
            hook.timeout
        ),
        ("PreToolUse", Some("Bash"), "true", 5)
    );
}

#[test]
fn a_batch_answers_every_line_in_order_and_bad_lines_with_a_reason() {
    let s = Setup::new();
    s.write(
        &s.root.join(".claude/settings.json"),
        json!({"permissions": {"deny": ["Bash(rm *)"]}}),
    );
    let input = [
        json!({"tool": "Bash", "input": {"command": "rm -rf x"}}).to_string(),
        String::new(),
        "not json".to_string(),
        json!({"tool": "Bash", "input": {"command": "make"}, "mode": "sideways"}).to_string(),
        json!({"tool": "Bash", "input": {"command": "make"}, "mode": "bypassPermissions"})
            .to_string(),
        json!({"tool": "Read", "input": {"file_path": "README.md"}, "cwd": s.outside}).to_string(),
    ]
    .join("\n");
    let mut out = Vec::new();

    check_batch(input.as_bytes(), &mut out, &s.opts()).expect("batch");

    let answers: Vec<Value> = String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let decisions: Vec<&str> = answers
        .iter()
        .map(|a| a["decision"].as_str().expect("decision"))
        .collect();
    assert_eq!(decisions, ["deny", "deny", "deny", "allow", "allow"]);
    assert_eq!(answers[0]["rule"], "Bash(rm *)");
    assert!(
        answers[1]["reason"]
            .as_str()
            .expect("reason")
            .starts_with("invalid request line"),
        "{}",
        answers[1]
    );
    assert_eq!(answers[2]["reason"], "unknown mode `sideways`");
    let keys: Vec<&String> = answers[0].as_object().expect("object").keys().collect();
    assert_eq!(
        keys,
        [
            "decision",
            "reason",
            "rule",
            "source",
            "decided_by",
            "suggestions",
            "trace",
            "warnings"
        ]
    );
}

#[test]
fn check_gives_the_rules_the_dialog_would_offer() {
    let s = Setup::new();
    let answer = check(&CheckOptions {
        tool: "Bash".into(),
        input: json!({"command": "npm run test -- --watch && rm -rf dist"}),
        ..s.opts()
    });
    assert_eq!(answer.decision, DecisionBehavior::Ask);
    assert_eq!(answer.suggestions, ["Bash(npm run test *)"]);
    assert_eq!(
        answer.warnings,
        ["`rm` deletes dist and everything inside, without asking; it does not go to the trash"],
        "what the dialog warns of"
    );
}

#[test]
fn check_prints_the_trace_naming_the_deciding_rule_its_file_and_what_it_shadowed() {
    let s = Setup::new();
    let project = s.root.join(".claude/settings.json");
    let user = s.home.join(".claude/settings.json");
    s.write(&project, json!({"permissions": {"deny": ["Bash(rm *)"]}}));
    s.write(
        &user,
        json!({"permissions": {"allow": ["Bash(rm -rf build)"]}}),
    );
    let answer = check(&CheckOptions {
        tool: "Bash".into(),
        input: json!({"command": "rm -rf build"}),
        ..s.opts()
    });
    let line = serde_json::to_value(&answer).expect("json");
    let steps = line["trace"]["steps"].as_array().expect("steps");
    assert_eq!(steps[0], json!({"type": "mode", "mode": "default"}));
    assert_eq!(
        steps[1],
        json!({"type": "rule", "rule": "Bash(rm *)", "behavior": "deny", "scope": "projectSettings",
               "file": project.display().to_string(), "role": "decided"})
    );
    assert_eq!(
        steps[2],
        json!({"type": "rule", "rule": "Bash(rm -rf build)", "behavior": "allow", "scope": "userSettings",
               "file": user.display().to_string(), "role": "shadowed"})
    );
    assert_eq!(line["trace"]["decided_by"], line["decided_by"]);

    // A batch line carries it too; a bad question has none.
    let input = [
        json!({"tool": "Write", "input": {"file_path": ".git/config", "content": "x"}}).to_string(),
        "not json".to_string(),
    ]
    .join("\n");
    let mut out = Vec::new();
    check_batch(input.as_bytes(), &mut out, &s.opts()).expect("batch");
    let answers: Vec<Value> = String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let checks: Vec<&str> = answers[0]["trace"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["check"].as_str())
        .collect();
    assert_eq!(checks, vec!["protected_path"], "{}", answers[0]);
    assert_eq!(answers[1]["trace"], Value::Null);
}

/// In dontAsk mode what would ask is denied, and the trace still names what asked — the ask rule with its file and
/// scope, or the safety check — then says the mode turned the ask into a deny; a deny rule needs no conversion.
#[test]
fn check_in_dont_ask_mode_names_what_asked_and_the_conversion() {
    let s = Setup::new();
    let project = s.root.join(".claude/settings.json");
    s.write(
        &project,
        json!({"permissions": {"ask": ["Bash(git push *)"], "deny": ["Bash(rm *)"]}}),
    );
    let rule = json!({"type": "rule", "rule": "Bash(git push *)", "behavior": "ask", "scope": "projectSettings",
                      "file": project.display().to_string(), "role": "decided"});
    let check_step = |check: &str| Value::String(check.into());
    let converted = json!({"type": "ask_converted", "by": {"type": "mode", "mode": "dontAsk"},
                           "detail": "dontAsk mode denies what would ask"});
    // (tool, input, decided_by type, a step the trace holds, whether the mode converted an ask)
    let cases = [
        (
            "Bash",
            json!({"command": "git push origin main"}),
            "mode",
            rule.clone(),
            true,
        ),
        (
            "Write",
            json!({"file_path": ".git/config", "content": "x"}),
            "mode",
            check_step("protected_path"),
            true,
        ),
        (
            "Bash",
            json!({"command": "rm -rf build"}),
            "rule",
            json!({"type": "rule", "rule": "Bash(rm *)", "behavior": "deny", "scope": "projectSettings",
                   "file": project.display().to_string(), "role": "decided"}),
            false,
        ),
    ];
    for (tool, input, decided_by, step, was_converted) in cases {
        let answer = check(&CheckOptions {
            tool: tool.into(),
            input: input.clone(),
            mode: Some(PermissionMode::DontAsk),
            ..s.opts()
        });
        let line = serde_json::to_value(&answer).expect("json");
        let what = format!("{tool} {input}: {line}");
        assert_eq!(line["decision"], "deny", "{what}");
        assert_eq!(line["decided_by"]["type"], decided_by, "{what}");
        let steps = line["trace"]["steps"].as_array().expect("steps");
        assert_eq!(
            steps[0],
            json!({"type": "mode", "mode": "dontAsk"}),
            "{what}"
        );
        assert!(
            steps.iter().any(|s| *s == step || s["check"] == step),
            "{what}"
        );
        assert_eq!(steps.last() == Some(&converted), was_converted, "{what}");
    }
}

/// The check answers with the tools a session on the folder offers: a skill of the folder that grants tools asks
/// (a session would ask before granting them), one that only gives instructions is allowed, and an agent type the
/// folder defines is judged by the Agent tool's own subject.
#[test]
fn check_judges_the_folders_skills_and_agents_as_a_session_would() {
    let s = Setup::new();
    let skill = |name: &str, grants: &str| {
        let path = s.root.join(format!(".claude/skills/{name}/SKILL.md"));
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(
            &path,
            format!("---\nname: {name}\ndescription: the {name} skill\n{grants}---\nDo it.\n"),
        )
        .expect("write");
    };
    skill("release", "allowed-tools: Bash(git push *)\n");
    skill("notes", "");
    let answer = |tool: &str, input: Value| {
        check(&CheckOptions {
            tool: tool.into(),
            input,
            ..s.opts()
        })
    };
    let release = answer("Skill", json!({"skill": "release"}));
    assert_eq!(release.decision, DecisionBehavior::Ask, "{release:?}");
    assert!(release.reason.contains("Bash(git push *)"), "{release:?}");
    let notes = answer("Skill", json!({"skill": "notes"}));
    assert_eq!(notes.decision, DecisionBehavior::Allow, "{notes:?}");

    s.write(
        &s.root.join(".claude/settings.json"),
        json!({"permissions": {"deny": ["Agent(reviewer)"]}}),
    );
    let denied = answer(
        "Agent",
        json!({"description": "review", "prompt": "look", "subagent_type": "reviewer"}),
    );
    assert_eq!(denied.decision, DecisionBehavior::Deny, "{denied:?}");
}
