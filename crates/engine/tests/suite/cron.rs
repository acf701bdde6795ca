//! Scheduled prompts (`AGENT_TRIGGERS`): the cron expressions CronCreate accepts and refuses, the create, list and
//! delete round trip on a real project folder (a damaged task file is reported and left alone), a due prompt firing
//! into a real session on the fake model server at an injected "now", and the tools absent when the switch is off.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use futures::StreamExt;

use chrono::{Duration, Local, TimeZone};
use serde_json::json;
use tandem_engine::model::{AnthropicModel, Model, ModelRequest, ModelStream};
use tandem_engine::session::Session;
use tandem_engine::testing::{
    Script, ScriptedApprover, ScriptedTurn, TestRuntime, Workspace, call,
};
use tandem_engine::tools::cron::{self, Schedule, ScheduleError, TASKS_FILE, TaskFile};
use tandem_engine::tools::features::Features;
use tandem_protocol::{ApprovalChoice, PermissionMode, SessionEvent};

use super::common::{fake_config, server};

#[derive(Debug, PartialEq)]
enum Want {
    Ok,
    Fields(usize),
    Invalid,
    Never,
}

#[test]
fn cron_expressions_are_checked_before_a_job_is_stored() {
    let now = Local
        .with_ymd_and_hms(2026, 1, 1, 12, 0, 0)
        .single()
        .expect("a local time");
    let cases: &[(&str, Want)] = &[
        ("*/5 * * * *", Want::Ok),
        ("0 9 * * 1-5", Want::Ok),
        ("0 9 * * MON-FRI", Want::Ok),
        ("30 14 1 JAN *", Want::Ok),
        ("  15 10 * * *  ", Want::Ok),
        ("", Want::Fields(0)),
        ("* * * *", Want::Fields(4)),
        ("0 0 * * * *", Want::Fields(6)),
        ("@daily", Want::Fields(1)),
        ("61 * * * *", Want::Invalid),
        ("* 24 * * *", Want::Invalid),
        ("* * 0 * *", Want::Invalid),
        ("* * * 13 *", Want::Invalid),
        ("a b c d e", Want::Invalid),
        ("0 0 30 2 *", Want::Never),
        ("0 0 31 4 *", Want::Never),
        // The next 29th of February is in 2028: more than a year away.
        ("0 0 29 2 *", Want::Never),
    ];
    for (expr, want) in cases {
        let got = match Schedule::checked(expr, &now) {
            Ok(_) => Want::Ok,
            Err(ScheduleError::FieldCount { count, .. }) => Want::Fields(count),
            Err(ScheduleError::Invalid { .. }) => Want::Invalid,
            Err(ScheduleError::Never { .. }) => Want::Never,
        };
        assert_eq!(&got, want, "{expr:?}");
    }
    let error = Schedule::checked("0 0 30 2 *", &now).expect_err("never fires");
    assert!(
        error.to_string().contains("never fires in the next year"),
        "{error}"
    );
    let error = Schedule::checked("* * * *", &now).expect_err("four fields");
    assert!(error.to_string().contains("five"), "{error}");
}

#[test]
fn a_schedule_steps_to_its_next_fire_in_local_time_and_says_it_in_words() {
    let at = |d: u32, h: u32, m: u32| {
        Local
            .with_ymd_and_hms(2026, 1, d, h, m, 0)
            .single()
            .expect("a local time")
    };
    // 2026-01-01 is a Thursday.
    let cases: &[(&str, chrono::DateTime<Local>)] = &[
        ("30 14 * * *", at(1, 14, 30)),
        ("* * * * *", at(1, 12, 1)),
        ("0 12 * * *", at(2, 12, 0)),
        ("0 9 * * MON", at(5, 9, 0)),
        ("*/15 * * * *", at(1, 12, 15)),
    ];
    for (expr, want) in cases {
        let schedule = Schedule::parse(expr).expect("valid");
        assert_eq!(
            schedule.next_after(&at(1, 12, 0)).as_ref(),
            Some(want),
            "{expr}"
        );
        assert!(!schedule.describe().trim().is_empty(), "{expr}");
    }
}

#[tokio::test]
async fn jobs_are_created_listed_and_deleted_in_the_project_file() {
    let ws = Workspace::new(&[]).expect("workspace");
    let approver = ScriptedApprover::new([], ApprovalChoice::Allow);
    let rt = TestRuntime::new(ws.root())
        .approver(approver.clone())
        .tools(cron::tools())
        .build();

    let listed = call(&rt, "CronList", &json!({})).await;
    assert!(
        listed.ok && listed.text.contains("No scheduled jobs"),
        "{listed:?}"
    );

    let made = call(
        &rt,
        "CronCreate",
        &json!({"cron": "0 9 * * 1-5", "prompt": "check the nightly build"}),
    )
    .await;
    assert!(made.ok, "{made:?}");
    let once = call(
        &rt,
        "CronCreate",
        &json!({"cron": "*/10 * * * *", "prompt": "look at the queue", "recurring": false}),
    )
    .await;
    assert!(once.ok && once.text.contains("once"), "{once:?}");

    let tasks = TaskFile::of_project(&ws.root()).load().expect("file");
    assert_eq!(tasks.len(), 2);
    assert!(made.text.contains(&tasks[0].id), "{made:?}");
    assert_eq!(tasks[0].cron, "0 9 * * 1-5");
    assert!(tasks[0].recurring && !tasks[1].recurring);
    let on_disk = std::fs::read_to_string(ws.root().join(TASKS_FILE)).expect("file");
    assert!(on_disk.contains("check the nightly build"), "{on_disk}");

    let listed = call(&rt, "CronList", &json!({})).await;
    assert!(listed.ok, "{listed:?}");
    let jobs: serde_json::Value = serde_json::from_str(&listed.text).expect("json");
    assert_eq!(jobs.as_array().map(Vec::len), Some(2), "{jobs}");
    assert_eq!(jobs[0]["id"], tasks[0].id.as_str());
    assert_eq!(jobs[0]["prompt"], "check the nightly build");
    assert_eq!(jobs[0]["recurring"], true);
    assert_eq!(jobs[1]["recurring"], false);
    assert!(jobs[0]["nextFire"].is_string(), "{jobs}");
    assert!(
        jobs[0]["schedule"].as_str().is_some_and(|s| !s.is_empty()),
        "{jobs}"
    );

    // Creating and deleting ask (they change the project); listing only reads.
    let asked: Vec<String> = approver.asked().into_iter().map(|r| r.tool_name).collect();
    assert_eq!(asked, ["CronCreate", "CronCreate"]);

    let gone = call(&rt, "CronDelete", &json!({"id": tasks[0].id})).await;
    assert!(gone.ok, "{gone:?}");
    let unknown = call(&rt, "CronDelete", &json!({"id": "nope1234"})).await;
    assert!(!unknown.ok, "{unknown:?}");
    assert!(
        unknown.text.contains("nope1234") && unknown.text.contains(&tasks[1].id),
        "{unknown:?}"
    );
    let left = TaskFile::of_project(&ws.root()).load().expect("file");
    assert_eq!(left, vec![tasks[1].clone()]);

    let bad = call(
        &rt,
        "CronCreate",
        &json!({"cron": "0 0 30 2 *", "prompt": "never"}),
    )
    .await;
    assert!(!bad.ok && bad.text.contains("never fires"), "{bad:?}");
    let empty = call(
        &rt,
        "CronCreate",
        &json!({"cron": "* * * * *", "prompt": "  "}),
    )
    .await;
    assert!(!empty.ok, "{empty:?}");
    assert_eq!(
        TaskFile::of_project(&ws.root()).load().expect("file").len(),
        1
    );
}

#[tokio::test]
async fn a_damaged_task_file_is_reported_and_never_written_over() {
    let ws = Workspace::new(&[(TASKS_FILE, "{\"tasks\": [ {\"id\": ")]).expect("workspace");
    let rt = TestRuntime::new(ws.root()).tools(cron::tools()).build();
    let before = std::fs::read_to_string(ws.root().join(TASKS_FILE)).expect("file");
    for (tool, input) in [
        ("CronList", json!({})),
        (
            "CronCreate",
            json!({"cron": "* * * * *", "prompt": "hello"}),
        ),
        ("CronDelete", json!({"id": "abc"})),
    ] {
        let result = call(&rt, tool, &input).await;
        assert!(!result.ok, "{tool}: {result:?}");
        assert!(
            result.text.contains("cannot be parsed"),
            "{tool}: {result:?}"
        );
    }
    let due = TaskFile::of_project(&ws.root()).claim_due(Local::now().timestamp_millis());
    assert!(due.is_err());
    let after = std::fs::read_to_string(ws.root().join(TASKS_FILE)).expect("file");
    assert_eq!(before, after);
}

#[test]
fn due_jobs_are_claimed_once_and_missed_fires_are_not_replayed() {
    let ws = Workspace::new(&[]).expect("workspace");
    let file = TaskFile::of_project(&ws.root());
    let created = Local
        .with_ymd_and_hms(2026, 3, 2, 8, 30, 20)
        .single()
        .expect("a local time");
    let every_minute = Schedule::parse("* * * * *").expect("valid");
    let recurring = file
        .add(&every_minute, "tick", true, created.timestamp_millis())
        .expect("added");
    let once = file
        .add(&every_minute, "once", false, created.timestamp_millis())
        .expect("added");
    let ms = |t: chrono::DateTime<Local>| t.timestamp_millis();

    // Not yet: the first fire is the next whole minute after creation.
    assert!(
        file.claim_due(ms(created + Duration::seconds(30)))
            .expect("claim")
            .is_empty()
    );
    // Both are due once; the one-shot job is gone after it.
    let later = created + Duration::seconds(45);
    let due = file.claim_due(ms(later)).expect("claim");
    assert_eq!(
        due.iter().map(|t| t.id.clone()).collect::<Vec<_>>(),
        [recurring.id.clone(), once.id]
    );
    assert!(file.claim_due(ms(later)).expect("claim").is_empty());
    let left = file.load().expect("file");
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].last_fired_at, Some(ms(later)));
    // A day later (the app was closed): one fire, not 1440.
    let next_day = later + Duration::days(1);
    assert_eq!(file.claim_due(ms(next_day)).expect("claim").len(), 1);
    assert!(file.claim_due(ms(next_day)).expect("claim").is_empty());
}

fn session(root: &Path, model: Arc<dyn Model>, features: Features) -> Session {
    Session::builder(root)
        .expect("folder")
        .model_client(model)
        .model(fake_config("http://127.0.0.1:9"))
        .mode(PermissionMode::AcceptEdits)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)))
        .features(features)
        .build()
        .expect("session")
}

/// The tools the model is offered: their definitions, and those it is told of by name to load through ToolSearch.
fn offered(session: &Session) -> Vec<String> {
    let runtime = session.runtime();
    let mut names: Vec<String> = runtime
        .offered_specs()
        .into_iter()
        .map(|spec| spec.name)
        .collect();
    names.extend(
        runtime
            .deferred
            .tools()
            .iter()
            .map(|t| t.name().to_string()),
    );
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_due_prompt_starts_a_turn_in_the_session_and_a_one_shot_job_is_gone_after() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "c1",
            "CronCreate",
            json!({"cron": "* * * * *", "prompt": "CRON-PING-4417", "recurring": false}),
        ),
        ScriptedTurn::text("scheduled"),
        ScriptedTurn::text("pong"),
    ]))
    .await;
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    let events = tandem_engine::events::RecordingSink::default();
    let s = Session::builder(&ws.root())
        .expect("folder")
        .model_client(model)
        .model(fake_config(&fake.url()))
        .mode(PermissionMode::Default)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)))
        .events(Arc::new(events.clone()))
        .features(Features {
            triggers: true,
            ..Features::default()
        })
        .build()
        .expect("session");
    assert!(s.schedules_prompts());
    s.send("ping me in a minute").await.expect("turn");
    let tasks = TaskFile::of_project(&ws.root()).load().expect("file");
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    // The window is shown the job when the turn that made it ends.
    let shown =
        |events: &tandem_engine::events::RecordingSink| -> Vec<Vec<(String, String, bool, bool)>> {
            events
                .events()
                .iter()
                .filter_map(|e| match e {
                    SessionEvent::ScheduledPrompts { prompts } => Some(
                        prompts
                            .iter()
                            .map(|p| {
                                (
                                    p.id.clone(),
                                    p.prompt.clone(),
                                    p.recurring,
                                    p.next_fire_ms.is_some(),
                                )
                            })
                            .collect(),
                    ),
                    _ => None,
                })
                .collect()
        };
    assert_eq!(
        shown(&events),
        [vec![(
            tasks[0].id.clone(),
            "CRON-PING-4417".to_string(),
            false,
            true
        )]]
    );

    // Nothing is due before the next minute.
    let now = Local::now();
    assert!(s.fire_due_prompts(now).await.expect("fire").is_empty());
    // Two minutes on, the prompt is sent as a turn of its own.
    let fired = s
        .fire_due_prompts(now + Duration::minutes(2))
        .await
        .expect("fire");
    assert_eq!(fired.len(), 1);
    let outcome = fired[0].1.as_ref().expect("turn");
    assert_eq!(outcome.final_text, "pong");
    let last = fake.requests().pop().expect("a request");
    assert!(
        last.body["messages"].to_string().contains("CRON-PING-4417"),
        "{}",
        last.body
    );
    let started: Vec<String> = events
        .events()
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TurnStarted { prompt, .. } => Some(prompt.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(started, ["ping me in a minute", "CRON-PING-4417"]);
    // Once fired, the one-shot job leaves the window's list; an unchanged list is not sent again.
    s.announce_scheduled_prompts();
    s.announce_scheduled_prompts();
    let lists = shown(&events);
    assert_eq!(lists.len(), 2, "{lists:?}");
    assert!(lists[1].is_empty());
    // Fired once: gone from the file, and nothing more fires.
    assert!(
        TaskFile::of_project(&ws.root())
            .load()
            .expect("file")
            .is_empty()
    );
    assert!(
        s.fire_due_prompts(now + Duration::minutes(3))
            .await
            .expect("fire")
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tools_are_offered_only_with_the_switch_on() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("hello"),
        ScriptedTurn::text("hello again"),
    ]))
    .await;
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    let off = session(&ws.root(), model.clone(), Features::default());
    let names = offered(&off);
    for name in ["CronCreate", "CronDelete", "CronList"] {
        assert!(!names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    assert!(!off.schedules_prompts());
    // Nothing the model is sent names them.
    off.send("hi").await.expect("turn");
    let body = fake.requests()[0].body.to_string();
    assert!(!body.contains("Cron"), "{body}");
    // The tool list people see names them as switched off, with the switch.
    let listing = off.tool_list();
    for name in ["CronCreate", "CronDelete", "CronList"] {
        let entry = listing
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} is listed: {listing:?}"));
        assert!(!entry.offered, "{entry:?}");
        assert!(
            entry
                .reason
                .as_deref()
                .is_some_and(|r| r.contains("AGENT_TRIGGERS")),
            "{entry:?}"
        );
    }

    let on = session(
        &ws.root(),
        model,
        Features {
            triggers: true,
            ..Features::default()
        },
    );
    let names = offered(&on);
    for name in ["CronCreate", "CronDelete", "CronList"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    on.send("hi").await.expect("turn");
    let body = fake.requests()[1].body.to_string();
    assert!(body.contains("CronCreate"), "{body}");
}

async fn until(condition: impl Fn() -> bool) {
    while !condition() {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scheduler_beside_a_session_fires_a_job_overdue_since_the_app_was_closed_once() {
    let ws = Workspace::new(&[]).expect("workspace");
    let every_minute = Schedule::parse("* * * * *").expect("valid");
    let an_hour_ago = (Local::now() - Duration::hours(1)).timestamp_millis();
    let job = TaskFile::of_project(&ws.root())
        .add(&every_minute, "CRON-CATCH-UP-2291", true, an_hour_ago)
        .expect("added");
    let fake = server(Script::turns([ScriptedTurn::text("caught up")])).await;
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    let s = Arc::new(session(
        &ws.root(),
        model,
        Features {
            triggers: true,
            ..Features::default()
        },
    ));
    let scheduler = tokio::spawn(tandem_engine::session::run_scheduled_prompts(
        Arc::downgrade(&s),
    ));
    until(|| {
        fake.requests().iter().any(|r| {
            r.body["messages"]
                .to_string()
                .contains("CRON-CATCH-UP-2291")
        })
    })
    .await;
    until(|| {
        TaskFile::of_project(&ws.root())
            .load()
            .is_ok_and(|tasks| tasks.first().is_some_and(|t| t.last_fired_at.is_some()))
    })
    .await;
    // Sixty missed fires, one turn; the job stays (it recurs) and counts its next fire from now.
    assert_eq!(fake.requests().len(), 1);
    let left = TaskFile::of_project(&ws.root()).load().expect("file");
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].id, job.id);
    // The scheduler ends with the session.
    drop(s);
    scheduler.await.expect("scheduler ends");
}

#[tokio::test]
async fn without_the_switch_the_scheduler_does_nothing() {
    let ws = Workspace::new(&[]).expect("workspace");
    let every_minute = Schedule::parse("* * * * *").expect("valid");
    let an_hour_ago = (Local::now() - Duration::hours(1)).timestamp_millis();
    TaskFile::of_project(&ws.root())
        .add(&every_minute, "never sent", false, an_hour_ago)
        .expect("added");
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config("http://127.0.0.1:9")).expect("client"));
    let s = Arc::new(session(&ws.root(), model, Features::default()));
    // Returns at once: the session does not schedule prompts.
    tandem_engine::session::run_scheduled_prompts(Arc::downgrade(&s)).await;
    assert_eq!(
        TaskFile::of_project(&ws.root()).load().expect("file").len(),
        1
    );
}

#[tokio::test]
async fn a_settings_file_can_switch_the_tools_on() {
    if std::env::var_os("AGENT_TRIGGERS").is_some() {
        // The environment decides over the settings files; this test is about the files.
        return;
    }
    let ws = Workspace::new(&[(
        ".claude/settings.json",
        r#"{"env": {"AGENT_TRIGGERS": "true"}}"#,
    )])
    .expect("workspace");
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config("http://127.0.0.1:9")).expect("client"));
    let s = session(&ws.root(), model, Features::default());
    let names = offered(&s);
    assert!(names.iter().any(|n| n == "CronCreate"), "{names:?}");
    assert!(s.schedules_prompts());
}

/// A model whose requests wait until the gate opens, counting those that started waiting.
struct Gated {
    inner: Arc<AnthropicModel>,
    open: Arc<AtomicBool>,
    waiting: Arc<AtomicUsize>,
}

impl Model for Gated {
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }
    fn stream(&self, request: ModelRequest) -> ModelStream {
        let (inner, open, waiting) = (self.inner.clone(), self.open.clone(), self.waiting.clone());
        futures::stream::once(async move {
            waiting.fetch_add(1, Ordering::SeqCst);
            until(|| open.load(Ordering::SeqCst)).await;
            inner.stream(request)
        })
        .flatten()
        .boxed()
    }
}

fn turns(events: &tandem_engine::events::RecordingSink) -> Vec<String> {
    events
        .events()
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TurnStarted { prompt, .. } => Some(format!("start {prompt}")),
            SessionEvent::TurnEnded { .. } => Some("end".to_string()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_due_while_the_session_is_busy_waits_for_the_turn_to_end() {
    let ws = Workspace::new(&[]).expect("workspace");
    let every_minute = Schedule::parse("* * * * *").expect("valid");
    TaskFile::of_project(&ws.root())
        .add(
            &every_minute,
            "CRON-LATER-8080",
            false,
            Local::now().timestamp_millis(),
        )
        .expect("added");
    let fake = server(Script::turns([
        ScriptedTurn::text("long work done"),
        ScriptedTurn::text("scheduled work done"),
    ]))
    .await;
    let open = Arc::new(AtomicBool::new(false));
    let waiting = Arc::new(AtomicUsize::new(0));
    let model: Arc<dyn Model> = Arc::new(Gated {
        inner: Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client")),
        open: open.clone(),
        waiting: waiting.clone(),
    });
    let events = tandem_engine::events::RecordingSink::default();
    let s = Arc::new(
        Session::builder(&ws.root())
            .expect("folder")
            .model_client(model)
            .model(fake_config(&fake.url()))
            .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)))
            .events(Arc::new(events.clone()))
            .features(Features {
                triggers: true,
                ..Features::default()
            })
            .build()
            .expect("session"),
    );
    let person = {
        let s = s.clone();
        tokio::spawn(async move { s.send("a long task").await })
    };
    until(|| waiting.load(Ordering::SeqCst) == 1).await;
    let scheduler = {
        let s = s.clone();
        tokio::spawn(async move {
            s.fire_due_prompts(Local::now() + Duration::minutes(2))
                .await
        })
    };
    // The person's turn holds the session: the job stays in the file and its turn waits behind the running one.
    assert_eq!(
        TaskFile::of_project(&ws.root()).load().expect("file").len(),
        1
    );
    assert_eq!(turns(&events), ["start a long task"]);
    open.store(true, Ordering::SeqCst);
    person.await.expect("joined").expect("turn");
    let fired = scheduler.await.expect("joined").expect("fired");
    assert_eq!(fired.len(), 1);
    assert_eq!(
        turns(&events),
        ["start a long task", "end", "start CRON-LATER-8080", "end"]
    );
    assert!(
        TaskFile::of_project(&ws.root())
            .load()
            .expect("file")
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scheduler_tells_the_window_once_when_the_task_file_is_damaged() {
    let ws = Workspace::new(&[(TASKS_FILE, "not json")]).expect("workspace");
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config("http://127.0.0.1:9")).expect("client"));
    let events = tandem_engine::events::RecordingSink::default();
    let s = Arc::new(
        Session::builder(&ws.root())
            .expect("folder")
            .model_client(model)
            .events(Arc::new(events.clone()))
            .features(Features {
                triggers: true,
                ..Features::default()
            })
            .build()
            .expect("session"),
    );
    let scheduler = tokio::spawn(tandem_engine::session::run_scheduled_prompts(
        Arc::downgrade(&s),
    ));
    let notices = || -> Vec<String> {
        events
            .events()
            .iter()
            .filter_map(|e| match e {
                SessionEvent::Notice { message } if message.contains("scheduled") => {
                    Some(message.clone())
                }
                _ => None,
            })
            .collect()
    };
    until(|| !notices().is_empty()).await;
    let notice = notices().remove(0);
    assert!(
        notice.contains("cannot be parsed") && notice.contains(TASKS_FILE),
        "{notice}"
    );
    assert_eq!(
        std::fs::read_to_string(ws.root().join(TASKS_FILE)).expect("file"),
        "not json"
    );
    drop(s);
    scheduler.await.expect("scheduler ends");
}

#[tokio::test]
async fn an_ended_session_takes_no_job() {
    let ws = Workspace::new(&[]).expect("workspace");
    let every_minute = Schedule::parse("* * * * *").expect("valid");
    TaskFile::of_project(&ws.root())
        .add(
            &every_minute,
            "not for a closed session",
            false,
            Local::now().timestamp_millis(),
        )
        .expect("added");
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config("http://127.0.0.1:9")).expect("client"));
    let s = session(
        &ws.root(),
        model,
        Features {
            triggers: true,
            ..Features::default()
        },
    );
    s.end(tandem_engine::session::EndReason::Other).await;
    let fired = s
        .fire_due_prompts(Local::now() + Duration::minutes(2))
        .await
        .expect("fire");
    assert!(fired.is_empty());
    assert_eq!(
        TaskFile::of_project(&ws.root()).load().expect("file").len(),
        1
    );
}
