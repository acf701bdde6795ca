//! Config (`USER_TYPE=ant`): a read answers from the file that wins without asking; a change asks (or is allowed
//! by a `Config` rule, refused when the person says no or a deny rule names it), lands in the scope's file with
//! every other key kept, and refuses what the table does not take — rules, hooks, `bypassPermissions`, bad values,
//! a file with comments.

use std::path::Path;

use serde_json::{Value, json};
use tandem_engine::exec::ToolRuntime;
use tandem_engine::settings::SettingsPaths;
use tandem_engine::testing::{CallResult, Project, ScriptedApprover, TestRuntime, call};
use tandem_engine::tools::config::{ConfigFiles, ConfigTool};
use tandem_protocol::{ApprovalChoice, PermissionMode};

fn files(p: &Project) -> ConfigFiles {
    ConfigFiles {
        settings: SettingsPaths {
            managed: None,
            ..SettingsPaths::standard(&p.root, Some(&p.home))
        },
        app: Some(p.home.join(".config/tandem/settings.json")),
    }
}

fn runtime(p: &Project, rules: &[(&str, &str)], approver: &ScriptedApprover) -> ToolRuntime {
    TestRuntime::new(&p.root)
        .permissions(p.ctx(rules, PermissionMode::Default))
        .approver(approver.clone())
        .tools(vec![tandem_engine::tool::erase(ConfigTool::new(files(p)))])
        .build()
}

async fn config(rt: &ToolRuntime, input: Value) -> CallResult {
    call(rt, "Config", &input).await
}

fn json_of(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("file")).expect("json")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
    std::fs::write(path, text).expect("write");
}

#[tokio::test]
async fn a_read_answers_from_the_file_that_wins_without_asking() {
    let p = Project::new().expect("project");
    write(
        &p.root.join(".claude/settings.json"),
        r#"{"model": "project-model"}"#,
    );
    write(
        &p.root.join(".claude/settings.local.json"),
        "{\n  // mine\n  \"model\": \"local-model\",\n}\n",
    );
    write(
        &p.home.join(".claude/settings.json"),
        r#"{"model": "user-model"}"#,
    );
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(&p, &[], &approver);
    let read = config(&rt, json!({"setting": "model"})).await;
    assert!(read.ok, "{read:?}");
    assert!(
        read.text.starts_with("model = \"local-model\""),
        "{}",
        read.text
    );
    for scope in ["local", "project", "user"] {
        assert!(read.text.contains(&format!("- {scope} (")), "{}", read.text);
    }
    let unset = config(&rt, json!({"setting": "outputStyle"})).await;
    assert!(unset.ok && unset.text.contains("is not set"), "{unset:?}");
    assert!(approver.asked().is_empty(), "a read asks nobody");
}

#[tokio::test]
async fn a_change_asks_and_lands_in_the_scopes_file_keeping_every_other_key() {
    let p = Project::new().expect("project");
    let local = p.root.join(".claude/settings.local.json");
    write(
        &local,
        r#"{"permissions": {"allow": ["Bash(npm test)"]}, "model": "old"}"#,
    );
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let rt = runtime(&p, &[], &approver);

    let set = config(
        &rt,
        json!({"setting": "permissions.defaultMode", "value": "plan"}),
    )
    .await;
    assert!(set.ok, "{set:?}");
    assert_eq!(approver.asked().len(), 1, "a change asks");
    let saved = json_of(&local);
    assert_eq!(saved["permissions"]["defaultMode"], "plan");
    assert_eq!(saved["permissions"]["allow"], json!(["Bash(npm test)"]));
    assert_eq!(saved["model"], "old");

    let set = config(
        &rt,
        json!({"setting": "includeCoAuthoredBy", "value": "false", "scope": "project"}),
    )
    .await;
    assert!(set.ok, "{set:?}");
    assert_eq!(
        json_of(&p.root.join(".claude/settings.json"))["includeCoAuthoredBy"],
        false
    );

    let set = config(
        &rt,
        json!({"setting": "cleanupPeriodDays", "value": 30, "scope": "user"}),
    )
    .await;
    assert!(set.ok, "{set:?}");
    assert_eq!(
        json_of(&p.home.join(".claude/settings.json"))["cleanupPeriodDays"],
        30
    );

    let app = p.home.join(".config/tandem/settings.json");
    write(&app, r#"{"provider": "anthropic", "theme": "dark"}"#);
    let set = config(&rt, json!({"setting": "theme", "value": "light"})).await;
    assert!(set.ok && set.text.contains("it was \"dark\""), "{set:?}");
    assert_eq!(
        json_of(&app),
        json!({"provider": "anthropic", "theme": "light"})
    );
}

#[tokio::test]
async fn a_change_the_person_refuses_or_a_deny_rule_names_changes_nothing() {
    let p = Project::new().expect("project");
    let local = p.root.join(".claude/settings.local.json");
    let refusing = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(&p, &[], &refusing);
    let set = config(&rt, json!({"setting": "model", "value": "other"})).await;
    assert!(!set.ok, "{set:?}");
    assert!(!local.exists());

    let allowing = ScriptedApprover::new([], ApprovalChoice::Allow);
    let rt = runtime(&p, &[("deny", "Config")], &allowing);
    let set = config(&rt, json!({"setting": "model", "value": "other"})).await;
    assert!(!set.ok, "{set:?}");
    let read = config(&rt, json!({"setting": "model"})).await;
    assert!(
        !read.ok,
        "a deny rule naming the tool refuses reads too: {read:?}"
    );
    assert!(allowing.asked().is_empty());
    assert!(!local.exists());
}

#[tokio::test]
async fn an_allow_rule_for_config_changes_without_asking() {
    let p = Project::new().expect("project");
    let approver = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(&p, &[("allow", "Config")], &approver);
    let set = config(
        &rt,
        json!({"setting": "alwaysThinkingEnabled", "value": true}),
    )
    .await;
    assert!(set.ok, "{set:?}");
    assert!(approver.asked().is_empty());
    assert_eq!(
        json_of(&p.root.join(".claude/settings.local.json"))["alwaysThinkingEnabled"],
        true
    );
}

#[tokio::test]
async fn what_the_table_does_not_take_is_refused_before_anyone_is_asked() {
    let p = Project::new().expect("project");
    let local = p.root.join(".claude/settings.local.json");
    write(
        &p.root.join(".claude/settings.json"),
        "{\n  // keep me\n  \"model\": \"m\"\n}\n",
    );
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let rt = runtime(&p, &[], &approver);
    let refused: &[(Value, &str)] = &[
        (
            json!({"setting": "permissions.allow", "value": ["Bash(*)"]}),
            "does not know",
        ),
        (json!({"setting": "hooks", "value": {}}), "does not know"),
        (
            json!({"setting": "env.PATH", "value": "/tmp"}),
            "does not know",
        ),
        (
            json!({"setting": "permissions.defaultMode", "value": "bypassPermissions"}),
            "takes one of",
        ),
        (json!({"setting": "fontSize", "value": 99}), "from 10 to 24"),
        (
            json!({"setting": "theme", "value": "dark", "scope": "project"}),
            "give no scope",
        ),
        (
            json!({"setting": "model", "value": "m2", "scope": "everywhere"}),
            "",
        ),
    ];
    for (input, why) in refused {
        let result = config(&rt, input.clone()).await;
        assert!(!result.ok, "{input}: {result:?}");
        assert!(result.text.contains(why), "{input}: {}", result.text);
    }
    assert!(approver.asked().is_empty(), "{:?}", approver.asked());
    assert!(!local.exists());

    let commented = config(
        &rt,
        json!({"setting": "model", "value": "m2", "scope": "project"}),
    )
    .await;
    assert!(
        !commented.ok && commented.text.contains("comments"),
        "{commented:?}"
    );
    assert!(
        std::fs::read_to_string(p.root.join(".claude/settings.json"))
            .expect("file")
            .contains("// keep me")
    );
}
