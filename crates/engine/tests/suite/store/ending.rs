//! A session's end closes its recording: the store lock goes at once (while the `Session` value and its tasks are
//! still alive), what the ended session records afterwards is not written, and the reopened session is the one
//! writer.

use tandem_engine::session::EndReason;

use super::*;

#[tokio::test]
async fn an_ended_session_can_be_reopened_at_once_and_writes_nothing_more() {
    let ws = Workspace::new(&[]).expect("workspace");
    let (_dir, store) = temp_store();
    let fake = server(Script::turns([
        ScriptedTurn::text("First answer."),
        ScriptedTurn::text("Second answer."),
    ]))
    .await;
    let sink = RecordingSink::default();
    let first = stored_session(&ws.root(), &fake, &store, sink.clone());
    first.send("hello").await.expect("turn");
    let id = first.id().to_string();
    assert!(
        matches!(store.lock_session(&id), Err(StoreError::InUse(_))),
        "a running session holds its lock"
    );

    first.end(EndReason::Other).await;
    // The ended session is still alive here: its lock has gone all the same.
    store
        .lock_session(&id)
        .expect("the lock goes with the session's end, not with its last task");
    let stored = store.events_since(&id, 0).expect("events").len();
    first.runtime().events.emit(SessionEvent::Notice {
        message: "late".into(),
    });
    store.flush_async().await.expect("flush");
    assert_eq!(
        store.events_since(&id, 0).expect("events").len(),
        stored,
        "an ended session's late events are not written"
    );

    let second = Session::resuming(store.clone(), &id)
        .expect("reopened while the first value still lives")
        .options(SessionOptions {
            id: None,
            cwd: ws.root(),
            model: fake_config(&fake.url()),
            mode: PermissionMode::Default,
            approver: deny_all(),
            events: Arc::new(RecordingSink::default()),
            store: None,
            watch_settings: true,
        })
        .model_client(Arc::new(
            AnthropicModel::new(fake_config(&fake.url())).expect("client"),
        ))
        .build()
        .expect("session");
    second.send("again").await.expect("second turn");
    drop(first);
    second.end(EndReason::Other).await;
    let loaded = store.load_session(&id).expect("load").expect("stored");
    let texts: Vec<String> = loaded
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["hello", "First answer.", "again", "Second answer."]);
    let seqs: Vec<u64> = store
        .events_since(&id, 0)
        .expect("events")
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(
        seqs,
        (0..seqs.len() as u64).collect::<Vec<_>>(),
        "one writer: every event number once, in order"
    );
}
