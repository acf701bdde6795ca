//! The shell sandbox: its settings read from every source (with typos reported and untrusted projects kept from
//! widening it), auto-allow and what still asks, and real sandboxed commands — curl through the proxy to a loopback
//! server for an admitted host, a refused host, a refused write — with the refusals reported and allowed in one
//! click. Tests that need bubblewrap fail when it is missing unless `TANDEM_TEST_NO_BWRAP=1` says to skip them.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::json;
use tandem_engine::permission::{ContextOptions, LoadedSettings, PermissionContext, RuleSource};
use tandem_engine::sandbox::{allow_sandbox_violation, set_bridge_program};
use tandem_engine::settings::find_bwrap;
use tandem_engine::testing::{Workspace, check};
use tandem_engine::tool::{SandboxConfig, Tool, ToolContext, ToolError, ToolOutput, ViolationSink};
use tandem_engine::tools::bash::{BashInput, BashTool, ShellSession};
use tandem_protocol::{DecisionBehavior, DecisionSource, PermissionMode, SandboxViolation};

/// bubblewrap, or `None` (with the reason printed) when `TANDEM_TEST_NO_BWRAP=1` allows skipping; panics otherwise.
fn bwrap() -> Option<PathBuf> {
    match find_bwrap() {
        Some(b) => Some(b),
        None if std::env::var("TANDEM_TEST_NO_BWRAP").as_deref() == Ok("1") => {
            eprintln!("skipped: bwrap is not installed and TANDEM_TEST_NO_BWRAP=1");
            None
        }
        None => panic!(
            "bwrap (bubblewrap) is not installed: run scripts/install-deps, or set TANDEM_TEST_NO_BWRAP=1 to skip"
        ),
    }
}

fn loaded(sources: &[(RuleSource, serde_json::Value)], base: &Path) -> LoadedSettings {
    let mut loaded = LoadedSettings::default();
    for (source, value) in sources {
        loaded.add_value(source.clone(), value, base, None);
    }
    loaded
}

fn context(loaded: &LoadedSettings, root: &Path, trusted: bool) -> PermissionContext {
    PermissionContext::from_settings(
        loaded,
        ContextOptions {
            project_root: root.to_path_buf(),
            trusted,
            ..ContextOptions::default()
        },
    )
}

#[test]
fn sandbox_settings_merge_over_sources_and_typos_are_reported() {
    let root = PathBuf::from("/p");
    let user = RuleSource::User("/home/u/.claude/settings.json".into());
    let project = RuleSource::Project("/p/.claude/settings.json".into());
    let local = RuleSource::Local("/p/.claude/settings.local.json".into());
    let l = loaded(
        &[
            (
                local.clone(),
                json!({"sandbox": {"network": {"allowedDomains": ["api.example.com"]}, "autoAllowBashIfSandboxd": true}}),
            ),
            (
                project.clone(),
                json!({"sandbox": {"enabled": true, "excludedCommands": ["docker"], "filesystem": {"allowWrite": ["out"]}}}),
            ),
            (
                user.clone(),
                json!({"sandbox": {"enabled": false, "autoAllowBashIfSandboxed": true, "failIfUnavailable": "yes",
                                   "network": {"allowedDomains": ["*.github.com", 3]}}}),
            ),
        ],
        &root,
    );
    let ctx = context(&l, &root, true);
    let s = &ctx.sandbox;
    if std::env::var("TANDEM_BASH_SANDBOX").is_err() {
        assert!(s.enabled, "the project's `enabled` wins over the user's");
    }
    assert!(s.auto_allow);
    assert!(!s.fail_if_unavailable, "a wrong type is not applied");
    assert!(s.allow_unsandboxed, "the default");
    assert_eq!(s.allowed_domains, vec!["api.example.com", "*.github.com"]);
    assert_eq!(s.excluded_commands, vec!["docker"]);
    assert_eq!(s.allow_write, vec![PathBuf::from("/p/out")]);
    let messages: Vec<&str> = ctx.issues.iter().map(|i| i.message.as_str()).collect();
    for expected in [
        "`sandbox.autoAllowBashIfSandboxd` is not a sandbox setting",
        "`sandbox.failIfUnavailable` must be true or false, not \"yes\"",
        "`sandbox.network.allowedDomains` must hold strings; 3 is ignored",
    ] {
        assert!(messages.contains(&expected), "{expected} in {messages:?}");
    }

    // An untrusted folder's project settings cannot widen the sandbox.
    let untrusted = context(&l, &root, false);
    assert_eq!(untrusted.sandbox.allowed_domains, vec!["*.github.com"]);
    assert!(untrusted.sandbox.allow_write.is_empty());
    let widen = loaded(
        &[
            (
                project,
                json!({"sandbox": {"enabled": false, "autoAllowBashIfSandboxed": true, "allowUnsandboxedCommands": true}}),
            ),
            (
                user,
                json!({"sandbox": {"enabled": true, "allowUnsandboxedCommands": false}}),
            ),
        ],
        &root,
    );
    let untrusted = context(&widen, &root, false);
    if std::env::var("TANDEM_BASH_SANDBOX").is_err() {
        assert!(untrusted.sandbox.enabled);
    }
    assert!(!untrusted.sandbox.auto_allow);
    assert!(!untrusted.sandbox.allow_unsandboxed);
    let trusted = context(&widen, &root, true);
    assert!(trusted.sandbox.auto_allow && trusted.sandbox.allow_unsandboxed);
}

fn sandboxed(ctx: &PermissionContext, config: SandboxConfig) -> PermissionContext {
    ctx.with_sandbox(config)
}

#[test]
fn auto_allow_runs_sandboxed_commands_but_rules_and_checks_still_apply() {
    let ws = Workspace::new(&[("a.txt", "x")]).expect("workspace");
    let mut l = LoadedSettings::default();
    l.add_value(
        RuleSource::Local(ws.path(".claude/settings.local.json")),
        &json!({"permissions": {"deny": ["Bash(curl *)"], "ask": ["Bash(git push *)"]}}),
        &ws.root(),
        None,
    );
    let base = context(&l, &ws.root(), true);
    let on = SandboxConfig {
        enabled: true,
        auto_allow: true,
        allow_unsandboxed: true,
        excluded_commands: vec!["docker *".into(), "make".into()],
        bwrap: Some("/usr/bin/bwrap".into()),
        ..SandboxConfig::default()
    };
    let strict = SandboxConfig {
        allow_unsandboxed: false,
        ..on.clone()
    };
    let missing = SandboxConfig {
        bwrap: None,
        ..on.clone()
    };
    let manual = SandboxConfig {
        auto_allow: false,
        ..on.clone()
    };
    use DecisionBehavior::*;
    let sandbox = Some(DecisionSource::Sandbox);
    // (config, command, dangerouslyDisableSandbox, decision, decided by the sandbox)
    let table: Vec<(&SandboxConfig, &str, bool, DecisionBehavior, bool)> = vec![
        (&on, "npm install", false, Allow, true),
        (&on, "make build && ./run.sh", false, Allow, true),
        (&on, "echo hi > out.txt", false, Allow, true),
        (&on, "ls", false, Allow, false),
        (&on, "curl https://example.com", false, Deny, false),
        (&on, "git push origin main", false, Ask, false),
        (&on, "rm -rf /", false, Ask, false),
        (&on, "echo x > ~/.bashrc", false, Ask, false),
        (&on, "docker run alpine", false, Ask, false),
        (&on, "sudo docker ps", false, Ask, false),
        // An exclusion without a wildcard is that command alone, as a rule is.
        (&on, "make", false, Ask, false),
        (&on, "make install", false, Allow, true),
        (&on, "npm install", true, Ask, false),
        (&strict, "npm install", true, Allow, true),
        (&missing, "npm install", false, Ask, false),
        (&manual, "npm install", false, Ask, false),
        (&on, "eval \"$(cat x)\"", false, Ask, false),
    ];
    for (config, command, disable, want, by_sandbox) in table {
        let ctx = sandboxed(&base, config.clone());
        let a = check(
            &ctx,
            "Bash",
            json!({"command": command, "dangerouslyDisableSandbox": disable}),
        );
        assert_eq!(a.decision, want, "{command} ({disable}): {}", a.reason);
        assert_eq!(
            a.decided_by == sandbox,
            by_sandbox,
            "{command}: {:?} {}",
            a.decided_by,
            a.reason
        );
        if by_sandbox {
            assert!(a.reason.contains("runs in the sandbox"), "{}", a.reason);
        }
    }
    let plan = sandboxed(&base, on.clone()).with_mode(PermissionMode::Plan);
    let a = check(&plan, "Bash", json!({"command": "npm install"}));
    assert_eq!(a.decision, Ask, "plan mode still asks: {}", a.reason);
}

/// A loopback HTTP server answering `hello from <path>`.
async fn server() -> u16 {
    use axum::Router;
    use axum::extract::Path as AxPath;
    use axum::routing::get;
    let app = Router::new().route(
        "/{*rest}",
        get(|AxPath(rest): AxPath<String>| async move { format!("hello from {rest}") }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    port
}

fn input(command: &str) -> BashInput {
    serde_json::from_value(json!({ "command": command })).expect("input")
}

fn text(result: &Result<ToolOutput, ToolError>) -> String {
    match result {
        Ok(out) => out.content.as_text(),
        Err(ToolError::ToModel(m)) => m.clone(),
        Err(e) => panic!("{e:?}"),
    }
}

struct Run {
    tool: BashTool,
    ctx: ToolContext,
    seen: Arc<Mutex<Vec<SandboxViolation>>>,
    _ws: Workspace,
}

fn sandboxed_run(config: SandboxConfig) -> Run {
    set_bridge_program(PathBuf::from(env!("CARGO_BIN_EXE_tandem-sandbox-bridge")));
    let ws = Workspace::new(&[("f.txt", "x")]).expect("workspace");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let ctx = ToolContext {
        sandbox: Arc::new(config),
        violations: ViolationSink::new(move |v| sink.lock().expect("lock").push(v)),
        ..ToolContext::new(ws.root())
    };
    Run {
        tool: BashTool::new(Arc::new(ShellSession::temporary())),
        ctx,
        seen,
        _ws: ws,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn traffic_leaves_only_through_the_proxy_for_allowed_hosts() {
    let Some(bwrap) = bwrap() else { return };
    let port = server().await;
    let r = sandboxed_run(SandboxConfig {
        enabled: true,
        allowed_domains: vec!["localhost".into()],
        bwrap: Some(bwrap),
        ..SandboxConfig::default()
    });
    // http (absolute-form through the proxy) and a CONNECT tunnel (-p) to the admitted host.
    let out = r
        .tool
        .call(
            &input(&format!(
                "curl -sS http://localhost:{port}/plain; echo; curl -sS -p http://localhost:{port}/tunnel; echo; \
                 echo \"$HTTPS_PROXY\""
            )),
            &r.ctx,
        )
        .await;
    let shown = text(&out);
    assert!(out.is_ok(), "{shown}");
    assert!(shown.contains("hello from plain"), "{shown}");
    assert!(shown.contains("hello from tunnel"), "{shown}");
    assert!(shown.contains("http://127.0.0.1:"), "{shown}");
    assert!(r.seen.lock().expect("lock").is_empty());

    // The loopback address itself is not admitted, and going around the proxy finds no network.
    let out = r
        .tool
        .call(
            &input(&format!(
                "curl -sS --noproxy '*' http://127.0.0.1:{port}/direct || echo DIRECT-FAILED; \
                 curl -sS -o /dev/null -w '%{{http_code}}\\n' http://blocked.example/; \
                 curl -sS https://tls.blocked.example/ || echo TLS-REFUSED"
            )),
            &r.ctx,
        )
        .await;
    let shown = text(&out);
    assert!(shown.contains("DIRECT-FAILED"), "{shown}");
    assert!(!shown.contains("hello from direct"), "{shown}");
    assert!(shown.contains("403"), "{shown}");
    assert!(shown.contains("TLS-REFUSED"), "{shown}");
    assert!(!shown.contains("hello from"), "{shown}");
    assert!(
        shown.contains("connecting to blocked.example (not in sandbox.network.allowedDomains)"),
        "the model is told: {shown}"
    );
    let seen = r.seen.lock().expect("lock").clone();
    assert_eq!(
        seen,
        vec![
            SandboxViolation::Network {
                host: "blocked.example".into()
            },
            SandboxViolation::Network {
                host: "tls.blocked.example".into()
            },
        ]
    );
}

/// A folder outside /tmp (which the sandbox replaces, hiding what is there rather than refusing writes): /var/tmp,
/// not the build's own temporary folder, which is under /tmp when the checkout is.
fn outside_tmp() -> tempfile::TempDir {
    tempfile::tempdir_in("/var/tmp").expect("a folder in /var/tmp")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_write_is_reported_and_allowed_in_one_click() {
    let Some(bwrap) = bwrap() else { return };
    let outside = tempfile::tempdir().expect("outside");
    let probe = outside_tmp();
    let target = probe.path().to_path_buf();
    let r = sandboxed_run(SandboxConfig {
        enabled: true,
        bwrap: Some(bwrap.clone()),
        ..SandboxConfig::default()
    });
    let file = target.join("x.txt");
    let out = r
        .tool
        .call(&input(&format!("touch {}", file.display())), &r.ctx)
        .await;
    let shown = text(&out);
    assert!(out.is_err(), "{shown}");
    assert!(shown.contains("Read-only file system"), "{shown}");
    assert!(!file.exists());
    let seen = r.seen.lock().expect("lock").clone();
    let violation = SandboxViolation::Write {
        path: file.display().to_string(),
    };
    assert_eq!(seen, vec![violation.clone()]);

    let settings = outside.path().join(".claude/settings.local.json");
    std::fs::create_dir_all(settings.parent().expect("parent")).expect("mkdir");
    std::fs::write(&settings, r#"{"permissions": {"allow": ["Bash(ls)"]}}"#).expect("write");
    let added = allow_sandbox_violation(&settings, &violation).expect("allowed");
    assert_eq!(
        added.value,
        target.display().to_string(),
        "the existing folder"
    );
    let host = allow_sandbox_violation(
        &settings,
        &SandboxViolation::Network {
            host: "API.Example.com".into(),
        },
    )
    .expect("allowed");
    assert_eq!(host.value, "api.example.com");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).expect("read")).expect("json");
    assert_eq!(
        saved,
        json!({"permissions": {"allow": ["Bash(ls)"]},
               "sandbox": {"filesystem": {"allowWrite": [target.display().to_string()]},
                           "network": {"allowedDomains": ["api.example.com"]}}})
    );

    // Read back as settings, the folder is writable in the sandbox.
    let mut l = LoadedSettings::default();
    l.add_file(
        RuleSource::Local(settings.clone()),
        &settings,
        outside.path(),
        None,
    );
    let ctx = context(&l, outside.path(), true);
    let r2 = sandboxed_run(SandboxConfig {
        enabled: true,
        bwrap: Some(bwrap),
        ..(*ctx.sandbox).clone()
    });
    let out = r2
        .tool
        .call(&input(&format!("touch {}", file.display())), &r2.ctx)
        .await;
    assert!(out.is_ok(), "{}", text(&out));
    assert!(file.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_processes_and_daemon_sockets_are_out_of_reach() {
    let Some(bwrap) = bwrap() else { return };
    let r = sandboxed_run(SandboxConfig {
        enabled: true,
        bwrap: Some(bwrap),
        ..SandboxConfig::default()
    });
    let host_pid = std::process::id();
    let out = r
        .tool
        .call(
            &input(&format!(
                "test -e /proc/{host_pid} && echo HOST-VISIBLE; ls /run | wc -l"
            )),
            &r.ctx,
        )
        .await;
    let shown = text(&out);
    assert!(!shown.contains("HOST-VISIBLE"), "{shown}");
    assert_eq!(shown.trim(), "0", "/run is empty: {shown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_sandbox_fails_when_required_and_warns_once_otherwise() {
    let ws = Workspace::new(&[]).expect("workspace");
    let required = ToolContext {
        sandbox: Arc::new(SandboxConfig {
            enabled: true,
            fail_if_unavailable: true,
            bwrap: None,
            ..SandboxConfig::default()
        }),
        ..ToolContext::new(ws.root())
    };
    let tool = BashTool::new(Arc::new(ShellSession::temporary()));
    let out = tool.call(&input("touch ran.txt"), &required).await;
    let shown = text(&out);
    assert!(out.is_err());
    assert!(
        shown.contains("bubblewrap (bwrap) is not installed"),
        "{shown}"
    );
    assert!(!ws.path("ran.txt").exists(), "nothing ran");

    let lenient = ToolContext {
        sandbox: Arc::new(SandboxConfig {
            enabled: true,
            bwrap: None,
            ..SandboxConfig::default()
        }),
        ..ToolContext::new(ws.root())
    };
    let first = text(&tool.call(&input("echo one"), &lenient).await);
    assert!(
        first.contains("one") && first.contains("commands run without it"),
        "{first}"
    );
    let second = text(&tool.call(&input("echo two"), &lenient).await);
    assert_eq!(second, "two", "the warning is given once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn through_the_pipeline_a_sandboxed_call_runs_unasked_and_its_refusal_is_an_event() {
    let Some(bwrap) = bwrap() else { return };
    let ws = Workspace::new(&[]).expect("workspace");
    let probe = outside_tmp();
    let file = probe.path().join("out.txt");
    let permissions =
        PermissionContext::new(ws.root(), PermissionMode::Default).with_sandbox(SandboxConfig {
            enabled: true,
            auto_allow: true,
            bwrap: Some(bwrap),
            ..SandboxConfig::default()
        });
    let (rt, events) = tandem_engine::testing::TestRuntime::new(ws.root())
        .permissions(permissions)
        .recorded();
    let result = tandem_engine::testing::call(
        &rt,
        "Bash",
        &json!({"command": format!("echo hi > {}", file.display())}),
    )
    .await;
    assert!(!result.ok, "{}", result.text);
    assert!(
        result.text.contains("The sandbox refused"),
        "{}",
        result.text
    );
    assert!(!file.exists());
    let events = events.events();
    let decided_by_sandbox = events.iter().any(|e| {
        matches!(e, tandem_protocol::SessionEvent::ToolCallDecision { decision, .. }
            if decision.decided_by == Some(DecisionSource::Sandbox))
    });
    assert!(decided_by_sandbox, "{events:?}");
    let violation = events.iter().find_map(|e| match e {
        tandem_protocol::SessionEvent::SandboxViolation {
            tool_use_id,
            violation,
        } => Some((tool_use_id.clone(), violation.clone())),
        _ => None,
    });
    assert_eq!(
        violation,
        Some((
            "call".to_string(),
            SandboxViolation::Write {
                path: file.display().to_string()
            }
        ))
    );
}
