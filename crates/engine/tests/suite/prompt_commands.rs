//! The prompt's slash commands and mentions against the fake model server: a custom command from
//! `.claude/commands` reaches the model expanded while the transcript shows it as typed (a broken command file is
//! reported by path and the rest load) and the model it names answers that turn only, `@path` attaches the file as
//! Read would and leaves alone what Read would ask for, `/compact` summarises now with the person's focus, and
//! `/model` shows and switches the model.

use std::sync::Arc;

use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::session::custom_commands::{split_arguments, substitute};
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, SessionEvent, SlashCommandSource};

use super::common::{server, session};

fn deny_all() -> Arc<ScriptedApprover> {
    Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny))
}

fn started(events: &RecordingSink) -> Vec<String> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::TurnStarted { prompt, .. } => Some(prompt),
            _ => None,
        })
        .collect()
}

fn notices(events: &RecordingSink) -> Vec<String> {
    events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SessionEvent::Notice { message } => Some(message),
            _ => None,
        })
        .collect()
}

/// The text of every block of the last user message of a request.
fn last_prompt(body: &Value) -> String {
    body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_array())
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

#[test]
fn arguments_are_put_into_the_command_text() {
    let table: &[(&str, &str, &str)] = &[
        (
            "Fix issue $ARGUMENTS now",
            "#12 fast",
            "Fix issue #12 fast now",
        ),
        (
            "Review $1 for $2",
            "src/a.rs speed",
            "Review src/a.rs for speed",
        ),
        (
            "Review $1 for $2",
            "\"my file.rs\" 'memory use'",
            "Review my file.rs for memory use",
        ),
        ("Missing: [$3]", "a b", "Missing: []"),
        ("All: $ARGUMENTS; first: $1", "x y", "All: x y; first: x"),
        (
            "No placeholder",
            "extra words",
            "No placeholder\n\nARGUMENTS: extra words",
        ),
        ("No placeholder", "", "No placeholder"),
        (
            "Cost $0 and $ alone",
            "a",
            "Cost $0 and $ alone\n\nARGUMENTS: a",
        ),
        ("Tenth: $10", "1 2 3 4 5 6 7 8 9 ten", "Tenth: ten"),
        ("$ARGUMENTS", "", ""),
    ];
    for (body, args, want) in table {
        assert_eq!(substitute(body, args), *want, "{body} with {args}");
    }
    assert_eq!(
        split_arguments(r#"one "two three"  'four'"#),
        ["one", "two three", "four"]
    );
    assert!(split_arguments("   ").is_empty());
}

const REVIEW: &str = "---\ndescription: Review a file\nargument-hint: <file> [focus]\n\
allowed-tools: Bash(touch *)\nmodel: claude-haiku-4-5\n---\nREVIEW-STEPS-4411: read $1 and look at $2.\n";

#[tokio::test]
async fn a_custom_command_reaches_the_model_expanded_and_shows_as_typed() {
    let ws = Workspace::new(&[
        (".claude/commands/review.md", REVIEW),
        (
            ".claude/commands/git/commit.md",
            "# Commit the staged work\nWrite a commit message for: $ARGUMENTS",
        ),
        (".claude/commands/broken.md", "---\ndescription: x\n"),
        (".claude/commands/notes.txt", "not a command"),
    ])
    .expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("Reviewed."),
        ScriptedTurn::text("Committed."),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());

    let listed = s.slash_commands();
    let find = |name: &str| listed.iter().find(|c| c.name == name).cloned();
    let review = find("review").expect("review is listed");
    assert_eq!(review.source, SlashCommandSource::Project);
    assert_eq!(review.description, "Review a file");
    assert_eq!(review.argument_hint.as_deref(), Some("<file> [focus]"));
    let commit = find("git:commit").expect("a subfolder gives a namespace");
    assert_eq!(commit.description, "Commit the staged work");
    assert_eq!(
        find("compact").map(|c| c.source),
        Some(SlashCommandSource::Builtin)
    );
    assert!(find("broken").is_none() && find("notes").is_none());
    assert!(
        notices(&events)
            .iter()
            .any(|n| n.contains("broken.md") && n.contains("not closed")),
        "{:?}",
        notices(&events)
    );

    let outcome = s
        .send("/review src/lib.rs \"error handling\"")
        .await
        .expect("turn");
    assert_eq!(outcome.final_text, "Reviewed.");
    s.send("/git:commit the parser fix").await.expect("turn");

    let requests = fake.requests();
    let first = last_prompt(&requests[0].body);
    assert!(
        first.contains("<command-name>/review</command-name>"),
        "{first}"
    );
    assert!(
        first.contains("REVIEW-STEPS-4411: read src/lib.rs and look at error handling."),
        "{first}"
    );
    let second = last_prompt(&requests[1].body);
    assert!(
        second.contains("Write a commit message for: the parser fix"),
        "{second}"
    );
    assert_eq!(
        started(&events),
        [
            "/review src/lib.rs \"error handling\"",
            "/git:commit the parser fix"
        ],
        "the transcript shows the commands as typed"
    );
    let notes = notices(&events);
    assert!(
        notes.iter().any(|n| n.contains("/review")
            && n.contains("allowed-tools")
            && n.contains("not trusted")),
        "an untrusted folder's command grants nothing: {notes:?}"
    );
    assert_eq!(
        [&requests[0].body["model"], &requests[1].body["model"]],
        ["claude-haiku-4-5", "fake-model"],
        "a command's model answers its turn; a command naming none keeps the session's"
    );
}

#[tokio::test]
async fn a_commands_model_answers_every_request_of_its_turn_and_that_turn_only() {
    let ws = Workspace::new(&[
        (
            ".claude/commands/deep.md",
            "---\nmodel: some-model\n---\nLook at notes.txt: $ARGUMENTS\n",
        ),
        (
            ".claude/commands/plain.md",
            "---\nmodel:   \n---\nJust answer.\n",
        ),
        ("notes.txt", "NOTES-7314\n"),
    ])
    .expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("r1", "Read", json!({"file_path": ws.path("notes.txt")})),
        ScriptedTurn::text("Deep answer."),
        ScriptedTurn::text("Plain answer."),
        ScriptedTurn::text("Blank answer."),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());

    let outcome = s.send("/deep closely").await.expect("command turn");
    assert_eq!(outcome.final_text, "Deep answer.");
    assert_eq!(outcome.requests, 2, "the tool result was sent back");
    s.send("and now?").await.expect("plain turn");
    s.send("/plain").await.expect("blank model turn");

    let requests = fake.requests();
    let models: Vec<&Value> = requests.iter().map(|r| &r.body["model"]).collect();
    assert_eq!(
        models,
        ["some-model", "some-model", "fake-model", "fake-model"],
        "the command's model for its whole turn, tool results included; the session's model after it and for \
         a blank name"
    );
    assert!(
        requests[1].body.to_string().contains("NOTES-7314"),
        "the second request carries the tool result"
    );
    assert_eq!(s.info().model, "fake-model");
    assert_eq!(s.model_config().model, "fake-model");
    assert!(
        !notices(&events).iter().any(|n| n.contains("model")),
        "{:?}",
        notices(&events)
    );
}

#[tokio::test]
async fn a_file_mention_attaches_the_file_as_read_would_and_nothing_read_would_ask_for() {
    let ws = Workspace::new(&[
        ("src/notes.txt", "alpha line\nbeta line MENTION-5521\n"),
        ("docs/my plan.md", "PLAN-TEXT-8812"),
    ])
    .expect("workspace");
    std::fs::write(ws.path("logo.bin"), [0u8, 159, 146, 150, 0, 1, 2]).expect("binary");
    let outside = tempfile::tempdir().expect("outside");
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "OUTSIDE-SECRET-3301").expect("secret");
    let fake = server(Script::turns([ScriptedTurn::text("Read them.")])).await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());

    let prompt = format!(
        "compare @src/notes.txt with @\"docs/my plan.md\", @logo.bin, @{} and ask @alice",
        secret.display()
    );
    s.send(&prompt).await.expect("turn");

    let sent = last_prompt(&fake.requests()[0].body);
    assert!(
        sent.starts_with(&prompt),
        "the typed text goes first: {sent}"
    );
    assert!(sent.contains("[Attached @src/notes.txt"), "{sent}");
    assert!(
        sent.contains("2\tbeta line MENTION-5521") || sent.contains("2→beta line MENTION-5521"),
        "numbered like Read's output: {sent}"
    );
    assert!(
        sent.contains("PLAN-TEXT-8812"),
        "a quoted path with a space: {sent}"
    );
    assert!(
        !sent.contains("OUTSIDE-SECRET-3301"),
        "a path Read would ask for is not read"
    );
    assert_eq!(started(&events), [prompt]);
    let notes = notices(&events);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("secret.txt") && n.contains("left as text")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("@logo.bin") && n.contains("not attached")),
        "{notes:?}"
    );
    assert!(
        !notes.iter().any(|n| n.contains("alice")),
        "a word naming no file is left alone: {notes:?}"
    );
    assert!(
        s.complete_mention("notes", 10)
            .iter()
            .any(|c| c.text == "src/notes.txt")
    );
    assert!(
        s.complete_mention("plan", 10)
            .iter()
            .any(|c| c.text == "\"docs/my plan.md\""),
        "a path with a space is offered quoted"
    );
}

#[tokio::test]
async fn compact_summarises_now_with_the_persons_focus() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::text("answer one"),
        ScriptedTurn::text("answer two"),
        ScriptedTurn::text("SUMMARY-6620 of turn one"),
        ScriptedTurn::text("answer three"),
    ]))
    .await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());

    let nothing = s.send("/compact").await.expect("nothing yet");
    assert!(
        nothing.final_text.contains("Nothing to compact"),
        "{}",
        nothing.final_text
    );
    s.send("one").await.expect("turn 1");
    s.send("two").await.expect("turn 2");
    let outcome = s
        .send("/compact keep the API names")
        .await
        .expect("compact");
    assert!(
        outcome.final_text.contains("Compacted"),
        "{}",
        outcome.final_text
    );
    s.send("three").await.expect("turn 3");

    let requests = fake.requests();
    assert_eq!(
        requests.len(),
        4,
        "/compact with nothing to do asks nothing"
    );
    let ask = last_prompt(&requests[2].body);
    assert!(ask.contains("focus on: keep the API names"), "{ask}");
    let after = requests[3].body["messages"].as_array().expect("messages");
    let first = after[0]["content"][0]["text"].as_str().expect("text");
    assert!(first.contains("SUMMARY-6620 of turn one"), "{first}");
    assert_eq!(
        after[0]["content"][1]["text"], "two",
        "the latest prompt is kept"
    );
    assert!(
        !requests
            .iter()
            .any(|r| r.body.to_string().contains("/compact")),
        "the command itself never reaches the model"
    );
    assert_eq!(
        started(&events),
        [
            "/compact",
            "one",
            "two",
            "/compact keep the API names",
            "three"
        ]
    );
    assert!(
        notices(&events)
            .iter()
            .any(|n| n.contains("compacted") || n.contains("Compacted"))
    );
}

#[tokio::test]
async fn model_shows_the_choices_and_switches_the_sessions_model() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::text("from the other model")])).await;
    let events = RecordingSink::default();
    let s = session(&ws.root(), &fake, deny_all(), events.clone());

    let shown = s.send("/model").await.expect("show");
    assert!(
        shown.final_text.contains("Model: fake-model"),
        "{}",
        shown.final_text
    );
    assert!(
        shown.final_text.contains("claude-sonnet-4-5"),
        "{}",
        shown.final_text
    );
    let switched = s.send("/model other-model").await.expect("switch");
    assert!(
        switched.final_text.contains("to other-model"),
        "{}",
        switched.final_text
    );
    assert!(s.send("/model two words").await.is_err());
    s.send("hello").await.expect("turn");

    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].body["model"], "other-model");
    assert_eq!(s.info().model, "other-model");
    assert!(
        events
            .events()
            .iter()
            .any(|e| matches!(e, SessionEvent::ModelChanged { model } if model == "other-model"))
    );
}

#[tokio::test]
async fn sub_agents_of_a_commands_turn_run_on_its_model_unless_they_name_their_own() {
    let ws = Workspace::new(&[
        (
            ".claude/commands/deep.md",
            "---\nmodel: haiku\n---\nDelegate: $ARGUMENTS\n",
        ),
        (
            ".claude/agents/thinker.md",
            "---\nname: thinker\ndescription: Thinks hard\nmodel: opus\n---\nThink.\n",
        ),
        (
            ".claude/agents/follower.md",
            "---\nname: follower\ndescription: Follows\nmodel: inherit\n---\nFollow.\n",
        ),
    ])
    .expect("workspace");
    let agent = |id: &str, input: Value| ScriptedTurn::tool_use(id, "Agent", input);
    let fake = server(Script::turns([
        agent("a1", json!({"description": "look", "prompt": "Look."})),
        ScriptedTurn::text("sub one"),
        agent(
            "a2",
            json!({"description": "think", "prompt": "Think.", "subagent_type": "thinker"}),
        ),
        ScriptedTurn::text("sub two"),
        agent(
            "a3",
            json!({"description": "follow", "prompt": "Follow.", "subagent_type": "follower"}),
        ),
        ScriptedTurn::text("sub three"),
        agent(
            "a4",
            json!({"description": "quick", "prompt": "Quick.", "model": "sonnet"}),
        ),
        ScriptedTurn::text("sub four"),
        ScriptedTurn::text("Done."),
        agent("a5", json!({"description": "later", "prompt": "Later."})),
        ScriptedTurn::text("sub five"),
        ScriptedTurn::text("Plain."),
    ]))
    .await;
    let mut config = super::common::fake_config(&fake.url());
    config.model = "claude-test-model".into();
    let model =
        Arc::new(tandem_engine::model::AnthropicModel::new(config.clone()).expect("client"));
    let s = super::common::session_with(
        &ws.root(),
        model,
        config,
        deny_all(),
        RecordingSink::default(),
    );

    s.send("/deep the parser").await.expect("command turn");
    s.send("and now?").await.expect("plain turn");

    let models: Vec<String> = fake
        .requests()
        .iter()
        .map(|r| r.body["model"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        models,
        [
            "claude-haiku-4-5",
            "claude-haiku-4-5",
            "claude-haiku-4-5",
            "claude-opus-4-1",
            "claude-haiku-4-5",
            "claude-haiku-4-5",
            "claude-haiku-4-5",
            "claude-sonnet-4-5",
            "claude-haiku-4-5",
            "claude-test-model",
            "claude-test-model",
            "claude-test-model",
        ],
        "a sub-agent runs on the model its call names, else its type's (`inherit`: none), else the command's, \
         and after the command's turn on the session's"
    );
}
