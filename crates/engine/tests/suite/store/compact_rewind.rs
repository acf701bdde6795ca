//! `/compact` and rewinds: the `/compact` row is named by the place of the summary it wrote, so the window finds
//! its rewind point; rewinding to it empties the conversation (the messages the summary replaced are kept nowhere)
//! and is stored like any rewind; a `/compact` that compacted nothing names no point.

use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptedTurn, Workspace};
use tandem_protocol::{RewindScope, SessionEvent};

use super::super::common::server;
use super::{stored_session, temp_store};

/// The rows of the transcript: each prompt as typed with its rewind id.
fn rows(events: &[SessionEvent]) -> Vec<(String, Option<String>)> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::TurnStarted { prompt, prompt_id } => {
                Some((prompt.clone(), prompt_id.clone()))
            }
            _ => None,
        })
        .collect()
}

fn row(prompt: &str, id: Option<&str>) -> (String, Option<String>) {
    (prompt.to_string(), id.map(str::to_string))
}

#[tokio::test]
async fn the_compact_row_names_the_summary_and_rewinding_to_it_empties_the_conversation() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (_dir, store) = temp_store();
    let fake = server(Script::turns([
        ScriptedTurn::text("one"),
        ScriptedTurn::text("two"),
        ScriptedTurn::text("SUMMARY-4471"),
        ScriptedTurn::text("three"),
        ScriptedTurn::text("fresh"),
    ]))
    .await;
    let sink = RecordingSink::default();
    let s = stored_session(&ws.root(), &fake, &store, sink.clone());

    s.send("/compact").await.expect("nothing to compact");
    s.send("first").await.expect("turn");
    s.send("second").await.expect("turn");
    let compacted = s.send("/compact keep names").await.expect("compact");
    assert!(
        compacted.final_text.starts_with("Compacted"),
        "{}",
        compacted.final_text
    );
    s.send("third").await.expect("turn");

    let events = sink.events();
    assert_eq!(
        rows(&events),
        [
            row("/compact", None),
            row("first", Some("0")),
            row("second", Some("2")),
            row("/compact keep names", Some("0")),
            row("third", Some("2")),
        ],
        "a /compact that compacted nothing names no point; one that did names the summary's place"
    );
    let at = |wanted: &dyn Fn(&SessionEvent) -> bool| events.iter().position(wanted);
    let compact_row = at(
        &|e| matches!(e, SessionEvent::TurnStarted { prompt, .. } if prompt == "/compact keep names"),
    );
    let compact_notice =
        at(&|e| matches!(e, SessionEvent::Notice { message } if message.starts_with("Compacted")));
    assert!(
        compact_row.is_some() && compact_row < compact_notice,
        "the row comes before what it did: {events:?}"
    );

    let points = s.rewind_points().await;
    let ids: Vec<&str> = points.iter().map(|p| p.prompt_id.as_str()).collect();
    assert_eq!(ids, ["0", "2"]);
    assert!(
        points[0].prompt.contains("SUMMARY-4471"),
        "the /compact row's point is the summary: {}",
        points[0].prompt
    );

    let outcome = s
        .rewind("0", RewindScope::Conversation, false)
        .await
        .expect("rewind to the /compact row");
    assert_eq!(
        outcome.messages_removed, 4,
        "the summary with the prompt it kept, its answer, and the turn after"
    );
    assert!(s.history().await.is_empty());
    s.send("again").await.expect("turn");
    let requests = fake.requests();
    let last = requests.last().expect("a request");
    assert_eq!(
        last.body["messages"].as_array().map(Vec::len),
        Some(1),
        "only the new prompt: {}",
        last.body
    );
    assert!(!last.body.to_string().contains("SUMMARY-4471"));

    let stored = store.load_session(s.id()).expect("load").expect("stored");
    assert!(stored.events.iter().any(|e| e.event
        == SessionEvent::ConversationRewound {
            prompt_id: "0".into()
        }));
    assert_eq!(stored.messages.len(), 2, "the new prompt and its answer");
}
