//! Settings sources, merging, trust, broken files, and "don't ask again" round trips.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tandem_engine::hooks::HookEvent;
use tandem_engine::permission::{
    CheckAnswer, CliSettings, ContextOptions, PermissionContext, PermissionLoader, SettingsPaths,
    TrustStore, load_settings, save_allow_rules,
};
use tandem_protocol::{DecisionBehavior, PermissionMode};

use tandem_engine::testing::{Project, check};

fn write(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, serde_json::to_string_pretty(value).expect("json")).expect("write");
}

struct Sources {
    p: Project,
    managed: std::path::PathBuf,
}

impl Sources {
    fn new() -> Self {
        let p = Project::new().expect("project");
        let managed = p.outside.join("managed-settings.json");
        Self { p, managed }
    }
    fn user(&self, v: Value) {
        write(&self.p.home.join(".claude/settings.json"), &v);
    }
    fn project(&self, v: Value) {
        write(&self.p.root.join(".claude/settings.json"), &v);
    }
    fn local(&self, v: Value) {
        write(&self.p.root.join(".claude/settings.local.json"), &v);
    }
    fn policy(&self, v: Value) {
        write(&self.managed, &v);
    }
    /// The context of the trusted project, with every standard source, `mode` and `--settings` files as the
    /// command line gives them.
    fn ctx_with(
        &self,
        mode: Option<PermissionMode>,
        flag_files: Vec<PathBuf>,
    ) -> PermissionContext {
        let mut paths = SettingsPaths::standard(&self.p.root, Some(&self.p.home));
        paths.managed = Some(self.managed.clone());
        paths.flag_files = flag_files;
        PermissionLoader {
            paths,
            cli: CliSettings {
                mode,
                ..CliSettings::default()
            },
            project_root: self.p.root.clone(),
            home: Some(self.p.home.clone()),
            trust: None,
        }
        .load(None, &[])
    }
    fn ctx(&self) -> PermissionContext {
        self.ctx_with(None, Vec::new())
    }
    fn bash(&self, command: &str) -> CheckAnswer {
        tandem_engine::testing::check_bash(&self.ctx(), command)
    }
}

/// The effective rules as `(behavior, text)`.
fn rules(ctx: &PermissionContext) -> Vec<(&'static str, String)> {
    ctx.rules
        .rules()
        .iter()
        .map(|r| (r.behavior.as_str(), r.text.clone()))
        .collect()
}

#[test]
fn every_source_contributes_and_deny_wins_across_sources() {
    let s = Sources::new();
    s.user(json!({"permissions": {"allow": ["Bash(npm test *)", "Bash(aws *)"]}}));
    s.project(json!({"permissions": {"deny": ["Bash(aws *)"], "allow": ["Bash(make *)"]}}));
    s.local(json!({"permissions": {"ask": ["Bash(make deploy *)"], "allow": ["Bash(cargo *)"]}}));
    s.policy(json!({"permissions": {"deny": ["Bash(curl *)"]}}));
    let flag = s.p.outside.join("flag.json");
    write(&flag, &json!({"permissions": {"allow": ["Bash(just *)"]}}));

    assert_eq!(s.bash("npm test").decision, DecisionBehavior::Allow);
    let a = s.bash("aws s3 ls");
    assert_eq!(a.decision, DecisionBehavior::Deny);
    assert_eq!(
        a.source.as_deref(),
        Some(
            s.p.root
                .join(".claude/settings.json")
                .display()
                .to_string()
                .as_str()
        )
    );
    assert_eq!(s.bash("make build").decision, DecisionBehavior::Allow);
    assert_eq!(s.bash("make deploy prod").decision, DecisionBehavior::Ask);
    assert_eq!(s.bash("cargo build").decision, DecisionBehavior::Allow);
    let a = s.bash("curl x");
    assert_eq!(a.decision, DecisionBehavior::Deny);
    assert_eq!(
        a.source.as_deref(),
        Some(s.managed.display().to_string().as_str())
    );
    assert_eq!(s.bash("just x").decision, DecisionBehavior::Ask);
    let a = check(
        &s.ctx_with(None, vec![flag.clone()]),
        "Bash",
        json!({"command": "just x"}),
    );
    assert_eq!(a.decision, DecisionBehavior::Allow);
    assert_eq!(
        a.source.as_deref(),
        Some(flag.display().to_string().as_str())
    );

    let ctx = s.ctx();
    let texts = rules(&ctx);
    assert!(texts.contains(&("deny", "Bash(curl *)".into())));
    assert!(texts.contains(&("ask", "Bash(make deploy *)".into())));
    assert!(texts.contains(&("allow", "Bash(npm test *)".into())));
    let kinds: Vec<&str> = ctx.rules.rules().iter().map(|r| r.source.kind()).collect();
    for k in [
        "policySettings",
        "projectSettings",
        "localSettings",
        "userSettings",
    ] {
        assert!(kinds.contains(&k), "{kinds:?}");
    }
}

#[test]
fn duplicates_merge_and_scalars_follow_priority() {
    let s = Sources::new();
    s.user(json!({"permissions": {"allow": ["Bash(ls *)"], "defaultMode": "acceptEdits"}}));
    s.project(json!({"permissions": {"allow": ["Bash(ls *)"], "defaultMode": "plan"}}));
    let ctx = s.ctx();
    assert_eq!(
        rules(&ctx)
            .iter()
            .filter(|(_, text)| text == "Bash(ls *)")
            .count(),
        1
    );
    assert_eq!(ctx.mode, PermissionMode::Plan);
    s.local(json!({"permissions": {"defaultMode": "bypassPermissions"}}));
    let ctx = s.ctx();
    assert_eq!(
        ctx.mode,
        PermissionMode::Plan,
        "bypass from local settings is ignored"
    );
    assert!(
        ctx.issues
            .iter()
            .any(|i| i.message.contains("bypassPermissions"))
    );
    s.policy(json!({"permissions": {"defaultMode": "dontAsk"}}));
    assert_eq!(s.ctx().mode, PermissionMode::DontAsk);
    s.policy(json!({"disableBypassPermissionsMode": "disable"}));
    let bypass = |s: &Sources| {
        check(
            &s.ctx_with(Some(PermissionMode::BypassPermissions), Vec::new()),
            "Bash",
            json!({"command": "curl x"}),
        )
    };
    let a = bypass(&s);
    assert_eq!(
        a.decision,
        DecisionBehavior::Ask,
        "bypass is unavailable: {}",
        a.reason
    );
    s.policy(json!({}));
    let a = bypass(&s);
    assert_eq!(a.decision, DecisionBehavior::Allow, "{}", a.reason);
}

#[test]
fn broken_files_and_invalid_rules_are_reported_and_the_rest_applies() {
    let s = Sources::new();
    write(
        &s.p.home.join(".claude/settings.json"),
        &json!({"permissions": {"allow": ["Bash(ls *)"]}}),
    );
    std::fs::create_dir_all(s.p.root.join(".claude")).expect("mkdir");
    std::fs::write(s.p.root.join(".claude/settings.json"), "{ not json").expect("write");
    s.local(json!({"permissions": {
        "allow": ["*", "mcp__*", "Bash(npm test", "Agent(model:opus)", "Bash(command:rm *)", "Frobnicate", 42, "WebFetch(example.com)"],
        "deny": ["Agent(model:opus)", "Read(file_path:x)"],
        "defaultMode": "sideways"
    }, "hooks": {"NotAnEvent": [], "PreToolUse": [{"matcher": "(", "hooks": [{"type": "command", "command": "x"}]}]}}));
    let ctx = s.ctx();
    let local =
        s.p.root
            .join(".claude/settings.local.json")
            .display()
            .to_string();
    let project = s.p.root.join(".claude/settings.json").display().to_string();
    assert!(
        ctx.issues
            .iter()
            .any(|i| i.file == project && i.message.contains("not valid JSON")),
        "{:#?}",
        ctx.issues
    );
    for bad in [
        "allow: *",
        "allow: mcp__*",
        "allow: Bash(npm test",
        "allow: Agent(model:opus)",
        "allow: Bash(command:rm *)",
        "allow: Frobnicate",
        "allow: WebFetch(example.com)",
        "deny: Read(file_path:x)",
    ] {
        assert!(
            ctx.issues
                .iter()
                .any(|i| i.file == local && i.rule.as_deref() == Some(bad)),
            "{bad} not reported: {:#?}",
            ctx.issues
        );
    }
    assert!(
        ctx.issues
            .iter()
            .any(|i| i.rule.as_deref() == Some("allow: 42"))
    );
    assert!(ctx.issues.iter().any(|i| i.message.contains("sideways")));
    assert!(ctx.issues.iter().any(|i| i.message.contains("NotAnEvent")));
    assert!(ctx.issues.iter().any(|i| i.message.contains("matcher")));
    // The file that cannot be parsed may hold deny rules: nothing runs without asking, reads included.
    let a = s.bash("ls");
    assert_eq!(a.decision, DecisionBehavior::Ask, "{}", a.reason);
    assert!(a.reason.contains(&project), "{}", a.reason);
    // Written as editors write it (a comment, trailing commas), it is read; the valid rules of every file apply.
    std::fs::write(
        s.p.root.join(".claude/settings.json"),
        "// shared rules\n{\"permissions\": {\"deny\": [\"Bash(rm *)\",],},}\n",
    )
    .expect("write");
    let ctx = s.ctx();
    assert!(
        ctx.unreadable_settings.is_empty(),
        "{:#?}",
        ctx.unreadable_settings
    );
    assert_eq!(s.bash("ls").decision, DecisionBehavior::Allow);
    assert_eq!(s.bash("rm -rf x").decision, DecisionBehavior::Deny);
    assert!(rules(&ctx).contains(&("deny", "Agent(model:opus)".into())));
    // An unanchored allow glob approves nothing.
    let a = check(&ctx, "mcp__x__y", json!({}));
    assert_eq!(a.decision, DecisionBehavior::Ask);
}

#[test]
fn a_settings_file_that_is_not_a_regular_file_is_reported_not_read() {
    let s = Sources::new();
    std::fs::create_dir_all(s.p.root.join(".claude")).expect("mkdir");
    let fifo = s.p.root.join(".claude/settings.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    s.local(json!({"permissions": {"deny": ["Bash(rm *)"]}}));

    // Opening a FIFO for reading would wait for a writer for ever: the file is reported instead.
    let ctx = s.ctx();

    let shown = fifo.display().to_string();
    assert!(
        ctx.issues
            .iter()
            .any(|i| i.file == shown && i.message.contains("not a regular file")),
        "{:#?}",
        ctx.issues
    );
    assert!(rules(&ctx).contains(&("deny", "Bash(rm *)".into())));
}

#[test]
fn a_settings_file_that_cannot_be_read_lets_nothing_run_without_asking() {
    let s = Sources::new();
    let broken = s.p.root.join(".claude/settings.local.json");
    std::fs::create_dir_all(broken.parent().expect("a parent")).expect("mkdir");
    std::fs::write(s.p.root.join(".env"), "SECRET=1").expect("write");
    s.user(json!({"permissions": {"allow": ["Bash(make *)"]}}));
    let shown = broken.display().to_string();
    let env = s.p.path(".env");
    // A byte-order mark, comments and trailing commas are read: the deny rule holds.
    std::fs::write(
        &broken,
        "\u{feff}{\n  // secrets\n  \"permissions\": {\"deny\": [\"Read(.env)\",]},\n}\n",
    )
    .expect("write");
    let read = |mode: PermissionMode| {
        check(
            &s.ctx_with(Some(mode), Vec::new()),
            "Read",
            json!({"file_path": env}),
        )
    };
    assert_eq!(
        read(PermissionMode::Default).decision,
        DecisionBehavior::Deny
    );

    // Cut off, or unreadable: nothing the lost rules might deny runs without asking, reads inside the project
    // included, in every mode; where no one can be asked it is refused.
    std::fs::write(&broken, "{\"permissions\": {\"deny\": [\"Read(.en").expect("write");
    let ctx = s.ctx();
    assert!(
        ctx.issues
            .iter()
            .any(|i| i.file == shown && i.message.contains("line 1")),
        "the file and the line are reported: {:#?}",
        ctx.issues
    );
    let bash = |mode: PermissionMode, command: &str| {
        tandem_engine::testing::check_bash(&s.ctx_with(Some(mode), Vec::new()), command)
    };
    for (mode, command) in [
        (PermissionMode::BypassPermissions, "rm -rf build"),
        (PermissionMode::AcceptEdits, "echo x > out.txt"),
        (PermissionMode::Default, "make all"),
        (PermissionMode::Default, "cat .env"),
        (PermissionMode::BypassPermissions, "ls"),
    ] {
        let a = bash(mode, command);
        assert_eq!(
            a.decision,
            DecisionBehavior::Ask,
            "{mode:?} {command}: {}",
            a.reason
        );
        assert!(a.reason.contains(&shown), "{}", a.reason);
    }
    let a = read(PermissionMode::Default);
    assert_eq!(a.decision, DecisionBehavior::Ask, "{}", a.reason);
    assert!(a.reason.contains("line 1"), "{}", a.reason);
    assert_eq!(
        bash(PermissionMode::DontAsk, "make all").decision,
        DecisionBehavior::Deny
    );

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(&broken, "{\"permissions\": {\"deny\": [\"Read(.env)\"]}}").expect("write");
        std::fs::set_permissions(&broken, std::fs::Permissions::from_mode(0o000)).expect("chmod");
        // Root reads any file: only check when the permission really stops the read.
        if std::fs::read(&broken).is_err() {
            assert_eq!(
                read(PermissionMode::BypassPermissions).decision,
                DecisionBehavior::Ask
            );
        }
        std::fs::set_permissions(&broken, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    }
}
