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
            plugins_dir: None,
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
    // The deny rule that cannot be used is not dropped: what it might cover (reads, so the shell too) asks.
    let a = s.bash("ls");
    assert_eq!(a.decision, DecisionBehavior::Ask, "{}", a.reason);
    assert!(a.reason.contains("Read(file_path:x)"), "{}", a.reason);
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

#[test]
fn deny_and_ask_lists_that_cannot_be_read_let_nothing_run_without_asking() {
    let s = Sources::new();
    std::fs::write(s.p.root.join(".env"), "SECRET=1").expect("write");
    let env = s.p.path(".env");
    let shown =
        s.p.root
            .join(".claude/settings.local.json")
            .display()
            .to_string();
    let read = |s: &Sources| check(&s.ctx(), "Read", json!({"file_path": env}));
    // Each of these loses a deny or ask rule; the rest of the file (here an allow rule) still applies.
    for (permissions, what) in [
        (json!({"deny": "Read(.env)"}), "`permissions.deny`"),
        (json!({"ask": {"Read": ".env"}}), "`permissions.ask`"),
        (
            json!({"deny": [{"Read": ".env"}]}),
            "`permissions.deny` entry",
        ),
        (json!(["deny", "Read(.env)"]), "`permissions`"),
    ] {
        s.local(json!({"permissions": permissions, "hooks": {}}));
        s.user(json!({"permissions": {"allow": ["Bash(make *)"]}}));
        let ctx = s.ctx();
        assert!(
            ctx.unreadable_settings
                .iter()
                .any(|i| i.file == shown && i.message.contains(what)),
            "{what}: {:#?}",
            ctx.unreadable_settings
        );
        let a = read(&s);
        assert_eq!(a.decision, DecisionBehavior::Ask, "{what}: {}", a.reason);
        assert!(a.reason.contains(&shown), "{}", a.reason);
        let a = tandem_engine::testing::check_bash(
            &s.ctx_with(Some(PermissionMode::BypassPermissions), Vec::new()),
            "cat .env",
        );
        assert_eq!(a.decision, DecisionBehavior::Ask, "{what}: {}", a.reason);
    }
    // A malformed allow list only loses what it would have allowed.
    s.local(json!({"permissions": {"allow": "Bash(curl *)", "deny": ["Bash(rm *)"]}}));
    let ctx = s.ctx();
    assert!(
        ctx.unreadable_settings.is_empty(),
        "{:#?}",
        ctx.unreadable_settings
    );
    assert!(
        ctx.issues
            .iter()
            .any(|i| i.message.contains("`permissions.allow`"))
    );
    assert_eq!(read(&s).decision, DecisionBehavior::Allow);
    assert_eq!(s.bash("curl x").decision, DecisionBehavior::Ask);
    assert_eq!(s.bash("rm x").decision, DecisionBehavior::Deny);
}

#[test]
fn untrusted_folders_keep_deny_and_ask_but_not_allow_dirs_or_hooks() {
    let s = Sources::new();
    s.project(json!({
        "permissions": {"allow": ["Bash(curl *)"], "deny": ["Bash(rm *)"], "ask": ["Bash(git push *)"],
                        "additionalDirectories": [s.p.outside.display().to_string()], "defaultMode": "acceptEdits"},
        "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}
    }));
    s.user(json!({"permissions": {"allow": ["Bash(make *)"]}}));
    let trust = TrustStore::at(s.p.outside.join("trust.json"));
    let loader = PermissionLoader {
        paths: SettingsPaths {
            managed: None,
            ..SettingsPaths::standard(&s.p.root, Some(&s.p.home))
        },
        cli: CliSettings::default(),
        project_root: s.p.root.clone(),
        home: Some(s.p.home.clone()),
        trust: Some(trust.clone()),
        plugins_dir: None,
    };
    let ctx = loader.load(None, &[]);
    assert!(!ctx.trusted);
    assert_eq!(ctx.mode, PermissionMode::Default);
    assert_eq!(ctx.working_dirs.len(), 1);
    assert!(ctx.hooks.is_empty());
    let b = |ctx: &PermissionContext, c: &str| tandem_engine::testing::check_bash(ctx, c).decision;
    assert_eq!(b(&ctx, "curl x"), DecisionBehavior::Ask);
    assert_eq!(b(&ctx, "rm x"), DecisionBehavior::Deny);
    assert_eq!(b(&ctx, "git push x"), DecisionBehavior::Ask);
    assert_eq!(b(&ctx, "make x"), DecisionBehavior::Allow);
    assert!(ctx.issues.iter().any(|i| i.message.contains("trusted")));

    trust.trust(&s.p.root).expect("trust");
    assert!(trust.is_trusted(&s.p.root.join("src")));
    let ctx = loader.load(None, &[]);
    assert!(ctx.trusted);
    assert_eq!(ctx.mode, PermissionMode::AcceptEdits);
    assert_eq!(ctx.working_dirs.len(), 2);
    assert!(!ctx.hooks.is_empty());
    assert_eq!(b(&ctx, "curl x"), DecisionBehavior::Allow);
}

#[test]
fn the_trust_question_lists_what_trusting_enables_and_trust_can_be_revoked() {
    let s = Sources::new();
    s.project(json!({
        "permissions": {"allow": ["Bash(curl *)"], "deny": ["Bash(rm *)"],
                        "additionalDirectories": [s.p.outside.display().to_string()]},
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}
    }));
    s.local(json!({"permissions": {"allow": ["Bash(make test)"]}}));
    s.user(json!({"permissions": {"allow": ["Bash(make *)"]},
                  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}}));
    write(
        &s.p.root.join(".mcp.json"),
        &json!({"mcpServers": {"db": {"command": "npx", "args": ["db-server", "--ro"]},
                               "docs": {"type": "http", "url": "https://docs.example/mcp"}}}),
    );
    let trust = TrustStore::at(s.p.outside.join("state").join("trust.json"));
    let loader = PermissionLoader {
        paths: SettingsPaths {
            managed: None,
            ..SettingsPaths::standard(&s.p.root, Some(&s.p.home))
        },
        cli: CliSettings::default(),
        project_root: s.p.root.clone(),
        home: Some(s.p.home.clone()),
        trust: Some(trust.clone()),
        plugins_dir: None,
    };
    let summary = loader.folder_trust();
    assert!(!summary.trusted);
    // Only what the project grants: the user's own rules and hooks apply anyway, deny rules need no trust.
    assert_eq!(summary.allow_rules, vec!["Bash(make test)", "Bash(curl *)"]);
    assert_eq!(summary.directories, vec![s.p.outside.display().to_string()]);
    assert_eq!(summary.hooks, vec!["PreToolUse (Bash): ./check.sh"]);
    assert_eq!(
        summary.mcp_servers,
        vec!["db: npx db-server --ro", "docs: https://docs.example/mcp"]
    );

    trust.trust(&s.p.root).expect("trust");
    assert!(loader.folder_trust().trusted);
    assert_eq!(
        tandem_engine::testing::check_bash(&loader.load(None, &[]), "curl x").decision,
        DecisionBehavior::Allow
    );
    // Revoking a folder also withdraws trust given to a folder above it.
    let sub = s.p.root.join("sub");
    std::fs::create_dir_all(&sub).expect("mkdir");
    trust.revoke(&sub).expect("revoke");
    assert!(!trust.is_trusted(&sub));
    assert!(!loader.folder_trust().trusted);
    assert_eq!(
        tandem_engine::testing::check_bash(&loader.load(None, &[]), "curl x").decision,
        DecisionBehavior::Ask
    );
}

#[test]
fn hooks_switches_and_reload_keeps_the_snapshot() {
    let s = Sources::new();
    let hook = json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "echo user"}]}]});
    s.user(json!({"hooks": hook}));
    s.policy(json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo managed"}]}]}}));
    let mut paths = SettingsPaths::standard(&s.p.root, Some(&s.p.home));
    paths.managed = Some(s.managed.clone());
    let loaded = load_settings(&paths, &CliSettings::default(), &s.p.root, Some(&s.p.home));
    let ctx = PermissionContext::from_settings(
        &loaded,
        ContextOptions {
            project_root: s.p.root.clone(),
            home: Some(s.p.home.clone()),
            trusted: true,
            ..ContextOptions::default()
        },
    );
    assert_eq!(
        ctx.hooks
            .commands_for(HookEvent::PreToolUse, Some("Bash"))
            .len(),
        2
    );
    s.policy(json!({"allowManagedHooksOnly": true, "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo managed"}]}]}}));
    let loaded = load_settings(&paths, &CliSettings::default(), &s.p.root, Some(&s.p.home));
    let ctx = PermissionContext::from_settings(
        &loaded,
        ContextOptions {
            project_root: s.p.root.clone(),
            trusted: true,
            ..ContextOptions::default()
        },
    );
    assert_eq!(
        ctx.hooks
            .commands_for(HookEvent::PreToolUse, Some("Bash"))
            .len(),
        1
    );
    s.user(json!({"disableAllHooks": true, "hooks": hook}));
    let loaded = load_settings(&paths, &CliSettings::default(), &s.p.root, Some(&s.p.home));
    let ctx = PermissionContext::from_settings(
        &loaded,
        ContextOptions {
            project_root: s.p.root.clone(),
            trusted: true,
            ..ContextOptions::default()
        },
    );
    assert!(ctx.hooks.is_empty());

    // A reload picks up new rules at once but keeps the hook snapshot until the change is reviewed.
    s.policy(json!({}));
    s.user(json!({"hooks": hook}));
    let loader = PermissionLoader {
        paths: paths.clone(),
        cli: CliSettings::default(),
        project_root: s.p.root.clone(),
        home: Some(s.p.home.clone()),
        trust: None,
        plugins_dir: None,
    };
    let ctx = loader
        .load(None, &["Bash(make *)".to_string()])
        .with_mode(PermissionMode::AcceptEdits);
    s.user(json!({"permissions": {"deny": ["Bash(make *)"]}, "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo changed"}]}]}}));
    let reloaded = loader.reload(&ctx);
    assert_eq!(reloaded.context.mode, PermissionMode::AcceptEdits);
    assert_eq!(
        tandem_engine::testing::check_bash(&reloaded.context, "make x").decision,
        DecisionBehavior::Deny
    );
    assert_eq!(
        reloaded
            .context
            .hooks
            .commands_for(HookEvent::PreToolUse, Some("Bash"))[0]
            .command,
        "echo user"
    );
    let pending = reloaded.changed_hooks.expect("changed hooks");
    assert_eq!(
        pending.commands_for(HookEvent::PreToolUse, Some("Bash"))[0].command,
        "echo changed"
    );
}

#[test]
fn dont_ask_again_round_trips() {
    let s = Sources::new();
    let file = s.p.root.join(".claude/settings.local.json");
    std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
    std::fs::write(&file, r#"{"env": {"A": "1"}, "permissions": {"allow": ["Bash(ls *)"], "deny": ["Read(.env)"]}, "hooks": {}}"#).expect("write");
    let before = s.bash("npm run test -- --watch && cargo build --release");
    assert_eq!(before.decision, DecisionBehavior::Ask);
    let ctx = s.ctx();
    let eval = tandem_engine::permission::evaluate(
        &ctx,
        &tandem_engine::permission::CallView {
            tool_name: "Bash",
            input: &json!({}),
            subject: &tandem_engine::permission::PermissionSubject::Shell {
                command: "npm run test -- --watch && cargo build --release && ls".into(),
            },
            read_only: false,
        },
    );
    assert_eq!(
        eval.suggestions,
        vec![
            "Bash(npm run test *)".to_string(),
            "Bash(cargo build *)".to_string()
        ]
    );
    save_allow_rules(&file, &eval.suggestions).expect("save");
    save_allow_rules(&file, &eval.suggestions).expect("save twice");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
    assert_eq!(saved["env"]["A"], "1");
    assert_eq!(saved["permissions"]["deny"][0], "Read(.env)");
    assert_eq!(
        saved["permissions"]["allow"],
        json!(["Bash(ls *)", "Bash(npm run test *)", "Bash(cargo build *)"])
    );
    assert_eq!(
        s.bash("npm run test -- --watch && cargo build --release")
            .decision,
        DecisionBehavior::Allow
    );
    // At most five rules, only for the parts that needed approval.
    let eval = tandem_engine::permission::evaluate(
        &ctx,
        &tandem_engine::permission::CallView {
            tool_name: "Bash",
            input: &json!({}),
            subject: &tandem_engine::permission::PermissionSubject::Shell {
                command: "a1 x; a2 x; a3 x; a4 x; a5 x; a6 x; ls".into(),
            },
            read_only: false,
        },
    );
    assert_eq!(eval.suggestions.len(), 5);
    // A malformed file is left alone.
    std::fs::write(&file, "[1, 2]").expect("write");
    assert!(save_allow_rules(&file, &["Bash(x *)".into()]).is_err());
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "[1, 2]");
}

#[test]
fn the_watcher_sees_settings_change_on_disk() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let p = Project::new().expect("project");
    let file = p.root.join(".claude/settings.local.json");
    std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    let _watcher =
        tandem_engine::permission::SettingsWatcher::start(vec![file.clone()], move || {
            counter.fetch_add(1, Ordering::SeqCst);
        })
        .expect("watch");
    std::fs::read_dir(file.parent().expect("parent")).expect("list");
    std::fs::write(&file, r#"{"permissions": {"deny": ["Bash(rm *)"]}}"#).expect("write");
    let start = std::time::Instant::now();
    while seen.load(Ordering::SeqCst) == 0 && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(seen.load(Ordering::SeqCst) > 0, "no change seen");
}
