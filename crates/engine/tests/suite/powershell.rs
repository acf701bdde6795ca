//! PowerShell: offered where `pwsh` is on the PATH and listed with why where it is not; each call judged as the bare
//! tool (asks, or a `PowerShell` rule decides). This machine has no PowerShell, so the process handling — the
//! arguments pwsh is given, the working directory, output and exit codes, the timeout — is checked against a
//! stand-in `pwsh` script; where a real `pwsh` is installed, one real command runs too.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::exec::ToolRuntime;
use tandem_engine::testing::{
    CallResult, Project, Script, ScriptedApprover, ScriptedTurn, TestRuntime, Workspace, call,
};
use tandem_engine::tool::erase;
use tandem_engine::tools::powershell::{PowerShellTool, find_pwsh};
use tandem_protocol::{ApprovalChoice, PermissionMode};

use super::common::{server, session};

const STAND_IN: &str = r#"#!/bin/sh
[ "$1 $2 $3 $4" = "-NoLogo -NoProfile -NonInteractive -Command" ] || { echo "unexpected arguments: $*" >&2; exit 64; }
case "$5" in
  fail) echo oops >&2; exit 3 ;;
  hang) exec sleep 600 ;;
  *) echo "ran: $5"; pwd ;;
esac
"#;

fn stand_in(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("pwsh");
    std::fs::write(&path, STAND_IN).expect("write pwsh");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

fn runtime(
    p: &Project,
    program: PathBuf,
    rules: &[(&str, &str)],
    approver: &ScriptedApprover,
) -> ToolRuntime {
    TestRuntime::new(&p.root)
        .permissions(p.ctx(rules, PermissionMode::Default))
        .approver(approver.clone())
        .tools(vec![erase(PowerShellTool::new(program))])
        .build()
}

async fn ps(rt: &ToolRuntime, input: Value) -> CallResult {
    call(rt, "PowerShell", &input).await
}

#[tokio::test]
async fn a_command_runs_in_the_folder_and_failures_and_timeouts_say_so() {
    let p = Project::new().expect("project");
    let program = stand_in(&p.outside);
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let rt = runtime(&p, program, &[], &approver);

    let ok = ps(
        &rt,
        json!({"command": "Get-ChildItem | Select-Object Name"}),
    )
    .await;
    assert!(ok.ok, "{ok:?}");
    assert!(
        ok.text.contains("ran: Get-ChildItem | Select-Object Name"),
        "{}",
        ok.text
    );
    assert!(
        ok.text.contains(&p.root.display().to_string()),
        "{}",
        ok.text
    );
    assert_eq!(approver.asked().len(), 1, "the bare tool asks");

    let failed = ps(&rt, json!({"command": "fail"})).await;
    assert!(!failed.ok);
    assert!(
        failed.text.contains("oops") && failed.text.contains("Exit code 3"),
        "{}",
        failed.text
    );

    let hung = ps(&rt, json!({"command": "hang", "timeout": 300})).await;
    assert!(!hung.ok);
    assert!(
        hung.text.contains("still running after 300 ms"),
        "{}",
        hung.text
    );

    for bad in [
        json!({"command": "  "}),
        json!({"command": "x", "timeout": 0}),
    ] {
        let refused = ps(&rt, bad.clone()).await;
        assert!(!refused.ok, "{bad}: {refused:?}");
    }
}

#[tokio::test]
async fn a_refusal_runs_nothing_and_a_rule_for_the_tool_runs_without_asking() {
    let p = Project::new().expect("project");
    let program = stand_in(&p.outside);
    let marker = p.root.join("made.txt");
    let command = format!("touch {}", marker.display());

    let refusing = ScriptedApprover::new([], ApprovalChoice::Deny);
    let rt = runtime(&p, program.clone(), &[], &refusing);
    let refused = ps(&rt, json!({"command": command})).await;
    assert!(!refused.ok, "{refused:?}");
    assert_eq!(refusing.asked().len(), 1);

    let rt = runtime(&p, program.clone(), &[("allow", "PowerShell")], &refusing);
    let allowed = ps(&rt, json!({"command": "Write-Output hi"})).await;
    assert!(allowed.ok, "{allowed:?}");
    assert_eq!(refusing.asked().len(), 1, "the rule answered");

    let rt = runtime(
        &p,
        program,
        &[("deny", "PowerShell")],
        &ScriptedApprover::new([], ApprovalChoice::Allow),
    );
    let denied = ps(&rt, json!({"command": "Write-Output hi"})).await;
    assert!(!denied.ok, "{denied:?}");
}

#[tokio::test]
async fn it_is_offered_where_pwsh_is_installed_and_listed_with_why_where_it_is_not() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::text("hi")])).await;
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny)),
        RecordingSink::default(),
    );
    let listing = s.tool_list();
    let entry = listing
        .iter()
        .find(|t| t.name == "PowerShell")
        .expect("listed");
    match find_pwsh(std::env::var_os("PATH").as_deref()) {
        Some(_) => assert!(entry.offered, "{entry:?}"),
        None => {
            assert!(!entry.offered);
            assert!(
                entry
                    .reason
                    .as_deref()
                    .is_some_and(|r| r.contains("pwsh is not installed")),
                "{entry:?}"
            );
        }
    }
}

#[tokio::test]
async fn a_real_pwsh_runs_a_command_where_one_is_installed() {
    let Some(pwsh) = find_pwsh(std::env::var_os("PATH").as_deref()) else {
        eprintln!("skipped: pwsh is not installed on this machine");
        return;
    };
    let p = Project::new().expect("project");
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let rt = runtime(&p, pwsh, &[], &approver);
    let sum = ps(&rt, json!({"command": "Write-Output (1+41)"})).await;
    assert!(sum.ok && sum.text.trim() == "42", "{sum:?}");
}
