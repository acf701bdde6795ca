//! RemoteTrigger with real processes: `TANDEM_SSH_COMMAND` (from the project's settings) points at a stand-in for
//! `ssh` that records its arguments and runs the remote command here, where a stand-in `tandem` answers; a trigger
//! the model creates is stored with its target in the project's task file (asking first), comes due through the
//! session's scheduler, and its exit code and final text wake the session; run-now does the same at once; a failing
//! run is reported with its exit code.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use chrono::Local;
use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Model};
use tandem_engine::session::Session;
use tandem_engine::ssh::Target;
use tandem_engine::testing::{FakeServer, Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_engine::tools::cron::TaskFile;
use tandem_engine::tools::features::Features;
use tandem_engine::tools::remote_trigger::run;
use tandem_protocol::{ApprovalChoice, PermissionMode};

use super::common::{fake_config, server};

async fn until(condition: impl Fn() -> bool) {
    while !condition() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn executable(path: &Path, text: &str) {
    std::fs::write(path, text).expect("write");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The stand-ins: an `ssh` recording its arguments (one a line) in `ssh-args` and running its last argument with
/// `sh -c` under a home whose `~/.local/bin/tandem` prints where it ran and its prompt (exit code 5 for the prompt
/// `fail`); and the far folder. Returns (the `ssh` stand-in, the record, the far folder).
fn stand_ins(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let home = dir.join("far-home");
    std::fs::create_dir_all(home.join(".local/bin")).expect("home");
    executable(
        &home.join(".local/bin/tandem"),
        "#!/bin/sh\n[ \"$2\" = fail ] && { echo 'it broke' >&2; exit 5; }\necho \"far tandem in $(pwd) ran $1: $2\"\n",
    );
    let far = dir.join("far folder");
    std::fs::create_dir_all(&far).expect("far");
    let record = dir.join("ssh-args");
    let ssh = dir.join("fake-ssh");
    executable(
        &ssh,
        &format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\nfor last; do :; done\nHOME='{}' exec sh -c \"$last\"\n",
            record.display(),
            home.display()
        ),
    );
    (ssh, record, far)
}

fn open(root: &Path, fake: &FakeServer, approver: Arc<ScriptedApprover>) -> Session {
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    Session::builder(root)
        .expect("folder")
        .model_client(model)
        .model(fake_config(&fake.url()))
        .mode(PermissionMode::Default)
        .approver(approver)
        .events(Arc::new(RecordingSink::default()))
        .features(Features {
            remote_triggers: true,
            ..Features::default()
        })
        .build()
        .expect("session")
}

fn asked_with(fake: &FakeServer, text: &str) -> bool {
    fake.requests()
        .iter()
        .any(|r| r.body["messages"].to_string().contains(text))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_created_trigger_comes_due_runs_tandem_over_ssh_and_wakes_the_session() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (ssh, record, far) = stand_ins(&ws.root());
    ws.write(
        ".claude/settings.json",
        &json!({"env": {"TANDEM_SSH_COMMAND": format!("'{}' -F /dev/null", ssh.display())}})
            .to_string(),
    )
    .expect("settings");
    let target = format!("ssh://ann@box:2222{}", far.display());
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "r1",
            "RemoteTrigger",
            json!({"action": "create", "cron": "0 9 * * *", "prompt": "check the nightly build", "target": target}),
        ),
        ScriptedTurn::text("scheduled"),
        ScriptedTurn::text("the far machine answered"),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = Arc::new(open(&ws.root(), &fake, approver.clone()));
    let waker = tokio::spawn(tandem_engine::session::wake_for_mail(Arc::downgrade(&s)));
    s.send("every morning, check the nightly build on box")
        .await
        .expect("turn");
    assert!(
        approver
            .asked()
            .iter()
            .any(|a| a.tool_name == "RemoteTrigger"),
        "creating asks: {:?}",
        approver.asked()
    );
    assert!(asked_with(&fake, "Created remote trigger"));
    let tasks = TaskFile::of_project(&ws.root()).load().expect("tasks");
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(tasks[0].target.as_deref(), Some(target.as_str()));
    assert_eq!(tasks[0].cron, "0 9 * * *");

    // Due tomorrow at nine at the latest: the scheduler starts it on the far machine.
    let fired = s
        .fire_due_prompts(Local::now() + chrono::Duration::days(2))
        .await
        .expect("fire");
    assert!(fired.is_empty(), "no local turn runs for a remote trigger");
    until(|| asked_with(&fake, "<remote-trigger-notification>")).await;
    until(|| asked_with(&fake, "finished (exit code 0)")).await;
    let far_text = format!(
        "far tandem in {} ran -p: check the nightly build",
        far.display()
    );
    assert!(
        asked_with(&fake, &far_text),
        "{:?}",
        fake.requests()
            .last()
            .map(|r| r.body["messages"].to_string())
    );
    let args = std::fs::read_to_string(&record).expect("ssh ran");
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(
        &args[..8],
        [
            "-F",
            "/dev/null",
            "-T",
            "-o",
            "BatchMode=yes",
            "-p",
            "2222",
            "ann@box"
        ]
    );
    assert_eq!(args[8], "--");
    assert!(
        args[9].starts_with(&format!("cd '{}' && ", far.display())),
        "{args:?}"
    );
    assert!(
        args[9].ends_with("exec tandem -p 'check the nightly build'"),
        "{args:?}"
    );
    drop(s);
    waker.await.expect("the waker ends with the session");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_now_reports_the_outcome_and_a_failure_has_its_exit_code() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (ssh, _record, far) = stand_ins(&ws.root());
    ws.write(
        ".claude/settings.json",
        &json!({"env": {"TANDEM_SSH_COMMAND": ssh.display().to_string()}}).to_string(),
    )
    .expect("settings");
    let target = format!("ssh://box{}", far.display());
    ws.write(
        ".claude/scheduled_tasks.json",
        &json!({"tasks": [
            {"id": "t1", "cron": "0 9 * * *", "prompt": "fail", "recurring": true, "createdAt": 0, "target": target},
            {"id": "t2", "cron": "0 9 * * *", "prompt": "local", "recurring": true, "createdAt": 0},
        ]})
        .to_string(),
    )
    .expect("tasks");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("r1", "RemoteTrigger", json!({"action": "list"})),
        ScriptedTurn::tool_use(
            "r2",
            "RemoteTrigger",
            json!({"action": "run", "trigger_id": "t2"}),
        ),
        ScriptedTurn::tool_use(
            "r3",
            "RemoteTrigger",
            json!({"action": "run", "trigger_id": "t1"}),
        ),
        ScriptedTurn::text("running"),
        ScriptedTurn::text("it failed"),
    ]))
    .await;
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = Arc::new(open(&ws.root(), &fake, approver));
    let waker = tokio::spawn(tandem_engine::session::wake_for_mail(Arc::downgrade(&s)));
    s.send("run it now").await.expect("turn");
    let listed = fake.requests()[1].body["messages"].to_string();
    assert!(
        listed.contains("t1") && !listed.contains("\\\"local\\\""),
        "{listed}"
    );
    assert!(asked_with(&fake, "no remote trigger has the id `t2`"));
    assert!(asked_with(&fake, "Remote trigger t1 is running"));
    until(|| asked_with(&fake, "failed with exit code 5")).await;
    assert!(asked_with(&fake, "it broke"));
    drop(s);
    waker.await.expect("the waker ends with the session");
}

#[tokio::test]
async fn an_ssh_that_cannot_start_is_reported_not_panicked() {
    let dir = tempfile::tempdir().expect("dir");
    let target = Target::parse("ssh://box/srv").expect("target");
    let missing = dir.path().join("no-such-ssh");
    let end = run::run(&target, Some(&missing.display().to_string()), "hi").await;
    assert!(
        matches!(&end, run::RunEnd::NotStarted(why) if why.contains("could not be started")),
        "{end:?}"
    );
}

#[test]
fn the_scheduler_claims_remote_triggers_and_local_prompts_apart() {
    let ws = Workspace::new(&[]).expect("workspace");
    ws.write(
        ".claude/scheduled_tasks.json",
        &json!({"tasks": [
            {"id": "far", "cron": "* * * * *", "prompt": "p", "recurring": true, "createdAt": 0, "target": "ssh://box/srv"},
            {"id": "here", "cron": "* * * * *", "prompt": "p", "recurring": false, "createdAt": 0},
        ]})
        .to_string(),
    )
    .expect("tasks");
    let file = TaskFile::of_project(&ws.root());
    let now = Local::now().timestamp_millis();
    let local = file.claim_due(now).expect("claim");
    assert_eq!(
        local.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
        ["here"]
    );
    let remote = file.claim_due_of(now, true).expect("claim");
    assert_eq!(
        remote.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
        ["far"]
    );
    // The recurring trigger stays, marked fired; the one-shot prompt is gone.
    let left = file.load().expect("load");
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].last_fired_at, Some(now));
}
