//! Teams, Brief and Sleep against the fake model server: each agent of a team talks to its own fake server (its
//! requests are told apart by the system prompt naming it); the switches decide which tools are offered; Sleep ends
//! on an interrupt or when a message arrives; a sub-agent's file change names it.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, Model, ModelRequest, ModelStream};
use tandem_engine::session::Session;
use tandem_engine::testing::{FakeServer, Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_engine::tools::features::Features;
use tandem_protocol::{
    ApprovalChoice, BriefStatus, PermissionMode, SessionEvent, TeamInfo, TeamMemberStatus,
    ToolCallStatus, ToolDetail, ToolOutcome, TurnStopReason,
};

use super::common::{fake_config, offered, server};

/// The lead's requests go to `lead`; a member's (its system prompt names it) to its own server.
struct Routed {
    lead: AnthropicModel,
    members: Vec<(String, Arc<dyn Model>)>,
}

/// A model whose requests wait until `open` holds.
struct Gated {
    inner: Arc<AnthropicModel>,
    open: Arc<dyn Fn() -> bool + Send + Sync>,
}

impl Model for Gated {
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }
    fn stream(&self, request: ModelRequest) -> ModelStream {
        let (inner, open) = (self.inner.clone(), self.open.clone());
        futures::stream::once(async move {
            until(|| open()).await;
            inner.stream(request)
        })
        .flatten()
        .boxed()
    }
}

impl Model for Routed {
    fn model_name(&self) -> &str {
        self.lead.model_name()
    }
    fn stream(&self, request: ModelRequest) -> ModelStream {
        for (name, model) in &self.members {
            let me = format!("You are \"{name}\"");
            if request.system.iter().any(|s| s.contains(&me)) {
                return model.stream(request);
            }
        }
        self.lead.stream(request)
    }
}

fn client(fake: &FakeServer) -> AnthropicModel {
    AnthropicModel::new(fake_config(&fake.url())).expect("client")
}

fn member(fake: &FakeServer) -> Arc<dyn Model> {
    Arc::new(client(fake))
}

fn open(root: &Path, model: Arc<dyn Model>, events: &RecordingSink, features: Features) -> Session {
    super::common::session_featuring(root, model, events, features)
}

const ALL: Features = Features {
    teams: true,
    sleep: true,
    ..Features::OFF
};

fn result_of(events: &[SessionEvent], id: &str) -> Option<(ToolOutcome, String)> {
    events.iter().find_map(|e| match e {
        SessionEvent::ToolCallResult {
            tool_use_id,
            outcome,
            content,
            ..
        } if tool_use_id == id => Some((*outcome, content.clone())),
        _ => None,
    })
}

fn last_team(events: &[SessionEvent]) -> Option<TeamInfo> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TeamChanged { team } => Some(team.clone()),
            _ => None,
        })
        .next_back()
}

async fn until(condition: impl Fn() -> bool) {
    while !condition() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn team_create(id: &str, members: &[&str]) -> ScriptedTurn {
    let members: Vec<Value> = members
        .iter()
        .map(|name| json!({"name": name, "prompt": format!("You are on the team; wait for work, {name}.")}))
        .collect();
    ScriptedTurn::tool_use(
        id,
        "TeamCreate",
        json!({"team_name": "crew", "description": "Ship the release", "members": members}),
    )
}

#[tokio::test]
async fn a_team_is_created_its_members_message_each_other_and_deleting_it_stops_them() {
    let ws = Workspace::new(&[]).expect("workspace");
    let lead = server(Script::turns([
        team_create("t1", &["alice", "bob"]),
        ScriptedTurn::text("the team is working"),
        ScriptedTurn::tool_use("p1", "ListPeers", json!({})),
        ScriptedTurn::tool_use("d1", "TeamDelete", json!({"team_name": "crew"})),
        ScriptedTurn::text("done"),
        ScriptedTurn::tool_use(
            "m1",
            "SendMessage",
            json!({"to": "alice", "message": "still there?"}),
        ),
        ScriptedTurn::text("she is gone"),
    ]))
    .await;
    let alice = server(Script::turns([
        ScriptedTurn::tool_use(
            "a1",
            "SendMessage",
            json!({"to": "bob", "message": "hello bob, the answer is 42"}),
        ),
        ScriptedTurn::text("told bob"),
    ]))
    .await;
    let bob = server(Script::turns([
        ScriptedTurn::text("ready"),
        ScriptedTurn::text("got it"),
    ]))
    .await;
    let model = Arc::new(Routed {
        lead: client(&lead),
        members: vec![
            ("alice".into(), member(&alice)),
            ("bob".into(), member(&bob)),
        ],
    });
    let events = RecordingSink::default();
    let s = open(&ws.root(), model, &events, ALL);
    s.send("make a team").await.expect("turn");
    let created = result_of(&events.events(), "t1").expect("created");
    assert_eq!(created.0, ToolOutcome::Success, "{}", created.1);
    assert!(
        created.1.contains("- alice (general-purpose)"),
        "{}",
        created.1
    );

    // Alice's message reaches bob's conversation (at his next turn boundary).
    until(|| {
        bob.requests().iter().any(|r| {
            r.body["messages"]
                .to_string()
                .contains("hello bob, the answer is 42")
        })
    })
    .await;
    let told = bob
        .requests()
        .iter()
        .map(|r| r.body["messages"].to_string())
        .find(|m| m.contains("hello bob"))
        .unwrap_or_default();
    assert!(
        told.contains("teammate-message from=\\\"alice\\\""),
        "{told}"
    );
    // Members get the team tools but cannot make teams.
    let tools = offered(&alice.requests()[0].body);
    assert!(tools.contains(&"SendMessage".to_string()), "{tools:?}");
    assert!(tools.contains(&"ListPeers".to_string()), "{tools:?}");
    assert!(!tools.contains(&"TeamCreate".to_string()), "{tools:?}");

    s.send("who is on the team? then delete it")
        .await
        .expect("turn");
    let events_now = events.events();
    let peers = result_of(&events_now, "p1").expect("peers").1;
    assert!(peers.contains("Team crew (lead: team-lead)"), "{peers}");
    assert!(peers.contains("- alice (general-purpose)"), "{peers}");
    assert!(peers.contains("- bob (general-purpose)"), "{peers}");
    let deleted = result_of(&events_now, "d1").expect("deleted");
    assert_eq!(deleted.0, ToolOutcome::Success, "{}", deleted.1);
    let team = last_team(&events_now).expect("team announced");
    assert!(team.deleted);
    assert!(
        team.members
            .iter()
            .all(|m| m.status == TeamMemberStatus::Stopped),
        "{team:?}"
    );

    s.send("say hi to alice").await.expect("turn");
    let (outcome, text) = result_of(&events.events(), "m1").expect("sent");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(text.contains("'alice' has stopped"), "{text}");
}

#[tokio::test]
async fn a_message_to_an_unknown_name_is_an_error_naming_who_can_be_messaged() {
    let ws = Workspace::new(&[]).expect("workspace");
    let lead = server(Script::turns([
        team_create("t1", &["alice"]),
        ScriptedTurn::tool_use("m1", "SendMessage", json!({"to": "carol", "message": "hi"})),
        ScriptedTurn::text("no carol"),
    ]))
    .await;
    let alice = server(Script::turns([ScriptedTurn::text("here")])).await;
    let model = Arc::new(Routed {
        lead: client(&lead),
        members: vec![("alice".into(), member(&alice))],
    });
    let events = RecordingSink::default();
    let s = open(&ws.root(), model, &events, ALL);
    s.send("message carol").await.expect("turn");
    let (outcome, text) = result_of(&events.events(), "m1").expect("sent");
    assert_eq!(outcome, ToolOutcome::Error);
    assert!(text.contains("no agent named 'carol'"), "{text}");
    assert!(text.contains("alice"), "{text}");
}

#[tokio::test]
async fn switched_off_tools_are_not_offered_and_sub_agents_get_a_checklist_but_no_lead_tools() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("plain"),
        ScriptedTurn::tool_use(
            "g1",
            "Agent",
            json!({"description": "Look", "prompt": "look around"}),
        ),
        ScriptedTurn::text("looked"),
        ScriptedTurn::text("all seen"),
    ]))
    .await;
    let events = RecordingSink::default();
    let off = open(
        &ws.root(),
        Arc::new(client(&fake)),
        &events,
        Features::default(),
    );
    off.send("hi").await.expect("turn");
    let tools = offered(&fake.requests()[0].body);
    for absent in [
        "TeamCreate",
        "TeamDelete",
        "SendMessage",
        "ListPeers",
        "Sleep",
    ] {
        assert!(
            !tools.contains(&absent.to_string()),
            "{absent} in {tools:?}"
        );
    }
    assert!(tools.contains(&"Brief".to_string()), "{tools:?}");
    let listing = off.tool_list();
    let team_create = listing
        .iter()
        .find(|t| t.name == "TeamCreate")
        .expect("listed");
    assert!(!team_create.offered);
    assert!(
        team_create
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS")),
        "{team_create:?}"
    );
    drop(off);

    let on = open(&ws.root(), Arc::new(client(&fake)), &events, ALL);
    on.send("delegate").await.expect("turn");
    let requests = fake.requests();
    let tools = offered(&requests[1].body);
    for present in [
        "TeamCreate",
        "TeamDelete",
        "SendMessage",
        "ListPeers",
        "Sleep",
        "Brief",
    ] {
        assert!(
            tools.contains(&present.to_string()),
            "{present} missing from {tools:?}"
        );
    }
    // The sub-agent's own request: its checklist, none of the lead's tools.
    let child = offered(&requests[2].body);
    assert!(child.contains(&"TodoWrite".to_string()), "{child:?}");
    for absent in [
        "TeamCreate",
        "SendMessage",
        "Sleep",
        "Brief",
        "EnterWorktree",
        "Agent",
    ] {
        assert!(
            !child.contains(&absent.to_string()),
            "{absent} in {child:?}"
        );
    }
}

#[tokio::test]
async fn sleep_ends_at_once_when_the_turn_is_interrupted() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::tool_use(
        "z1",
        "Sleep",
        json!({"seconds": 3600}),
    )]))
    .await;
    let events = RecordingSink::default();
    let s = Arc::new(open(&ws.root(), Arc::new(client(&fake)), &events, ALL));
    let turn = tokio::spawn({
        let s = s.clone();
        async move { s.send("wait").await }
    });
    until(|| {
        events.events().iter().any(
            |e| matches!(e, SessionEvent::ToolCallInput { tool_use_id, .. } if tool_use_id == "z1"),
        )
    })
    .await;
    s.interrupt();
    let outcome = turn.await.expect("joined").expect("turn");
    assert_eq!(outcome.stop_reason, TurnStopReason::Interrupted);
    let (result, _) = result_of(&events.events(), "z1").expect("result");
    assert_eq!(result, ToolOutcome::Cancelled);
}

#[tokio::test]
async fn sleep_wakes_early_when_a_team_member_reports() {
    let ws = Workspace::new(&[]).expect("workspace");
    let lead = server(Script::turns([
        team_create("t1", &["alice"]),
        ScriptedTurn::tool_use("z1", "Sleep", json!({"seconds": 3600})),
        ScriptedTurn::text("alice is done"),
    ]))
    .await;
    let alice = server(Script::turns([ScriptedTurn::text("finished my part")])).await;
    let events = RecordingSink::default();
    // Alice answers only once the lead sleeps, so her report is what wakes it.
    let sleeping = {
        let events = events.clone();
        move || {
            events.events().iter().any(|e| {
                matches!(e, SessionEvent::ToolCallStatusChanged { tool_use_id, status } if tool_use_id == "z1" && *status == ToolCallStatus::Executing)
            })
        }
    };
    let model = Arc::new(Routed {
        lead: client(&lead),
        members: vec![(
            "alice".into(),
            Arc::new(Gated {
                inner: Arc::new(client(&alice)),
                open: Arc::new(sleeping),
            }),
        )],
    });
    let s = open(&ws.root(), model, &events, ALL);
    let outcome = s.send("start and wait").await.expect("turn");
    assert_eq!(outcome.final_text, "alice is done");
    let (result, text) = result_of(&events.events(), "z1").expect("slept");
    assert_eq!(result, ToolOutcome::Success);
    assert!(text.contains("Woke after"), "{text}");
    // The report reached the lead's next request.
    let last = lead
        .requests()
        .last()
        .map(|r| r.body["messages"].to_string())
        .unwrap_or_default();
    assert!(last.contains("finished my part"), "{last}");
}

#[tokio::test]
async fn a_brief_reaches_the_window_as_its_own_event() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "b1",
            "Brief",
            json!({"message": "Tests pass; **one** flaky test skipped.", "status": "proactive"}),
        ),
        ScriptedTurn::text("ok"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = open(
        &ws.root(),
        Arc::new(client(&fake)),
        &events,
        Features::default(),
    );
    s.send("report").await.expect("turn");
    let brief = events.events().iter().find_map(|e| match e {
        SessionEvent::Brief { message, status } => Some((message.clone(), *status)),
        _ => None,
    });
    assert_eq!(
        brief,
        Some((
            "Tests pass; **one** flaky test skipped.".to_string(),
            BriefStatus::Proactive
        ))
    );
}

#[tokio::test]
async fn a_sub_agents_write_names_it_in_the_events_and_the_changes_view() {
    let ws = Workspace::new(&[]).expect("workspace");
    let target = ws.root().join("notes.txt");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use(
            "g1",
            "Agent",
            json!({"description": "Write the notes", "prompt": "write notes.txt"}),
        ),
        ScriptedTurn::tool_use(
            "w1",
            "Write",
            json!({"file_path": target.display().to_string(), "content": "notes\n"}),
        ),
        ScriptedTurn::text("written"),
        ScriptedTurn::text("the agent wrote it"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = Session::builder(&ws.root())
        .expect("folder")
        .model_client(Arc::new(client(&fake)))
        .model(fake_config(&fake.url()))
        .mode(PermissionMode::AcceptEdits)
        .events(Arc::new(events.clone()))
        .features(Features::default())
        .build()
        .expect("session");
    s.send("have notes written").await.expect("turn");
    let changed_by = events.events().iter().find_map(|e| match e {
        SessionEvent::SubAgent { event, .. } => match event.as_ref() {
            SessionEvent::ToolCallResult {
                tool_use_id,
                detail: Some(ToolDetail::FileChange { changed_by, .. }),
                ..
            } if tool_use_id == "w1" => changed_by.clone(),
            _ => None,
        },
        _ => None,
    });
    let origin = changed_by.expect("the write names its sub-agent");
    assert_eq!(origin.agent_type, "general-purpose");
    assert_eq!(origin.description, "Write the notes");
    assert_eq!(origin.parent_tool_use_id, "g1");

    let changes = s.checkpoints().changes().expect("changes");
    let file = changes
        .iter()
        .find(|c| Path::new(&c.path).ends_with("notes.txt"))
        .expect("listed");
    assert_eq!(file.changed_by.len(), 1, "{file:?}");
    assert_eq!(file.changed_by[0].agent_id, origin.agent_id);
}

#[tokio::test]
async fn a_members_write_asks_the_person_naming_the_member() {
    let ws = Workspace::new(&[]).expect("workspace");
    let target = ws.root().join("plan.md");
    let lead = server(Script::turns([
        team_create("t1", &["alice"]),
        ScriptedTurn::text("started"),
    ]))
    .await;
    let alice = server(Script::turns([
        ScriptedTurn::tool_use(
            "w1",
            "Write",
            json!({"file_path": target.display().to_string(), "content": "plan\n"}),
        ),
        ScriptedTurn::text("wrote the plan"),
    ]))
    .await;
    let model = Arc::new(Routed {
        lead: client(&lead),
        members: vec![("alice".into(), member(&alice))],
    });
    let events = RecordingSink::default();
    let approver = Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow));
    let s = Session::builder(&ws.root())
        .expect("folder")
        .model_client(model)
        .model(fake_config(&lead.url()))
        .mode(PermissionMode::Default)
        .approver(approver.clone())
        .events(Arc::new(events.clone()))
        .features(ALL)
        .build()
        .expect("session");
    s.send("plan it").await.expect("turn");
    until(|| target.exists()).await;
    let asked = approver.asked();
    let origin = asked
        .iter()
        .find_map(|r| r.sub_agent.clone())
        .expect("the member asked");
    assert_eq!(origin.name.as_deref(), Some("alice"));
    assert_eq!(
        origin.label(),
        "teammate alice (general-purpose): member of team crew"
    );
    assert_eq!(std::fs::read_to_string(&target).expect("written"), "plan\n");
}

#[tokio::test]
async fn the_agent_tool_adds_a_named_member_to_a_team() {
    let ws = Workspace::new(&[]).expect("workspace");
    let lead = server(Script::turns([
        team_create("t1", &["alice"]),
        ScriptedTurn::tool_use(
            "j1",
            "Agent",
            json!({"description": "Review", "prompt": "review the docs", "subagent_type": "Explore", "name": "carl", "team_name": "crew"}),
        ),
        ScriptedTurn::tool_use(
            "j2",
            "Agent",
            json!({"description": "Nobody", "prompt": "x", "name": "dave", "team_name": "nope"}),
        ),
        ScriptedTurn::text("two of us"),
    ]))
    .await;
    let alice = server(Script::turns([ScriptedTurn::text("here")])).await;
    let carl = server(Script::turns([ScriptedTurn::text("reviewing")])).await;
    let model = Arc::new(Routed {
        lead: client(&lead),
        members: vec![
            ("alice".into(), member(&alice)),
            ("carl".into(), member(&carl)),
        ],
    });
    let events = RecordingSink::default();
    let s = open(&ws.root(), model, &events, ALL);
    s.send("grow the team").await.expect("turn");
    let all = events.events();
    let (joined, text) = result_of(&all, "j1").expect("joined");
    assert_eq!(joined, ToolOutcome::Success, "{text}");
    assert!(text.contains("carl joined team crew (2 members)"), "{text}");
    let (failed, text) = result_of(&all, "j2").expect("refused");
    assert_eq!(failed, ToolOutcome::Error);
    assert!(
        text.contains("no team named 'nope' (teams: crew)"),
        "{text}"
    );
    until(|| !carl.requests().is_empty()).await;
    // Carl runs as its type: Explore's read-only tools plus the team's.
    let tools = offered(&carl.requests()[0].body);
    assert!(tools.contains(&"SendMessage".to_string()), "{tools:?}");
    assert!(!tools.contains(&"Write".to_string()), "{tools:?}");
}

#[tokio::test]
async fn a_message_to_the_idle_lead_starts_a_turn_carrying_it() {
    let ws = Workspace::new(&[]).expect("workspace");
    let lead = server(Script::turns([
        team_create("t1", &["alice"]),
        ScriptedTurn::text("the team is working"),
        ScriptedTurn::text("thanks, alice"),
        ScriptedTurn::text("noted"),
    ]))
    .await;
    let alice = server(Script::turns([
        ScriptedTurn::tool_use(
            "a1",
            "SendMessage",
            json!({"to": "team-lead", "message": "BUILD-GREEN-5150"}),
        ),
        ScriptedTurn::text("reported"),
    ]))
    .await;
    let model = Arc::new(Routed {
        lead: client(&lead),
        members: vec![("alice".into(), member(&alice))],
    });
    let events = RecordingSink::default();
    let s = Arc::new(open(&ws.root(), model, &events, ALL));
    assert!(s.answer_mail().await.is_none(), "no mail, no turn");
    let waker = tokio::spawn(tandem_engine::session::wake_for_mail(Arc::downgrade(&s)));
    s.send("make a team").await.expect("turn");

    // Nobody prompts again: the message starts the lead's next turn by itself.
    until(|| {
        lead.requests()
            .iter()
            .skip(2)
            .any(|r| r.body["messages"].to_string().contains("BUILD-GREEN-5150"))
    })
    .await;
    until(|| {
        events
            .events()
            .iter()
            .filter(|e| matches!(e, SessionEvent::TurnEnded { .. }))
            .count()
            >= 2
    })
    .await;
    let started: Vec<String> = events
        .events()
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TurnStarted { prompt, .. } => Some(prompt.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(started[0], "make a team");
    assert!(
        started[1..]
            .iter()
            .any(|p| p.contains("teammate-message from=\"alice\"")),
        "{started:?}"
    );
    // The waker holds the session only while a turn runs, and ends with it.
    drop(s);
    waker.await.expect("the waker ends with the session");
}
