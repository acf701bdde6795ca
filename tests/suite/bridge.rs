//! The event bridge: a replayed log crosses into the webview in bounded batches, in order; a session's events are
//! numbered without gaps in the order they are queued, even when several tasks emit at once; the latest are kept
//! for a webview that missed some; a batch that fails to cross does not stop the ones after it.

use std::sync::{Arc, Mutex};

use tandem_app::bridge::{ChannelSink, KEPT_EVENTS, MAX_BATCH, Missed, deliver};
use tandem_engine::events::EventSink;
use tandem_protocol::{EventEnvelope, SessionEvent};
use tokio::sync::mpsc;

fn envelope(seq: u64) -> EventEnvelope {
    EventEnvelope {
        session_id: "s".into(),
        seq,
        event: SessionEvent::TextDelta {
            text: format!("delta {seq}"),
        },
    }
}

#[tokio::test]
async fn a_replayed_log_arrives_in_bounded_batches_in_order() {
    let total = MAX_BATCH as u64 * 2 + 234;
    let (tx, rx) = mpsc::unbounded_channel();
    for seq in 0..total {
        tx.send(envelope(seq)).expect("the receiver is open");
    }
    drop(tx);
    let batches = Mutex::new(Vec::new());
    deliver(rx, |batch| {
        batches.lock().expect("not poisoned").push(batch);
        true
    })
    .await;
    let batches = batches.into_inner().expect("not poisoned");
    let sizes: Vec<usize> = batches.iter().map(|b| b.events.len()).collect();
    assert_eq!(sizes, vec![MAX_BATCH, MAX_BATCH, 234]);
    let seqs: Vec<u64> = batches
        .iter()
        .flat_map(|b| b.events.iter().map(|e| e.seq))
        .collect();
    assert_eq!(seqs, (0..total).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_batch_that_does_not_cross_does_not_stop_the_later_ones() {
    let (tx, rx) = mpsc::unbounded_channel();
    for seq in 0..(MAX_BATCH as u64 * 3) {
        tx.send(envelope(seq)).expect("the receiver is open");
    }
    drop(tx);
    let calls = Mutex::new(0);
    // The first batch fails (a webview busy or reloading); the others are still sent.
    deliver(rx, |_| {
        let mut calls = calls.lock().expect("not poisoned");
        *calls += 1;
        *calls > 1
    })
    .await;
    assert_eq!(*calls.lock().expect("not poisoned"), 3);
}

fn text(n: usize) -> SessionEvent {
    SessionEvent::TextDelta {
        text: format!("{n}"),
    }
}

#[test]
fn events_emitted_from_many_threads_are_queued_in_the_order_of_their_numbers() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let sink = Arc::new(ChannelSink::queued_to("s".into(), tx));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let sink = sink.clone();
            std::thread::spawn(move || {
                for n in 0..2000 {
                    sink.emit(text(n));
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("the thread ends");
    }
    let mut seqs = Vec::new();
    while let Ok(envelope) = rx.try_recv() {
        seqs.push(envelope.seq);
    }
    assert_eq!(seqs, (0..16_000).collect::<Vec<u64>>());
}

#[test]
fn a_replayed_log_is_numbered_like_new_events_and_the_latest_are_kept_for_a_webview_that_missed_some()
 {
    let (tx, _rx) = mpsc::unbounded_channel();
    let sink = ChannelSink::queued_to("s".into(), tx);
    sink.replay((0..3).map(text));
    sink.emit(text(3));
    let all = sink.since(None).expect("kept");
    assert_eq!(
        all.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    assert_eq!(
        sink.since(Some(1))
            .expect("kept")
            .iter()
            .map(|e| e.seq)
            .collect::<Vec<_>>(),
        vec![2, 3]
    );
    assert!(sink.since(Some(3)).expect("kept").is_empty());

    // Once more than KEPT_EVENTS have passed, the oldest are gone and asking for them says so.
    for n in 0..KEPT_EVENTS {
        sink.emit(text(n));
    }
    assert_eq!(
        sink.since(Some(1)),
        Err(Missed {
            after: 1,
            oldest: 4
        })
    );
    let newest = sink.since(Some(KEPT_EVENTS as u64)).expect("kept");
    assert_eq!(
        newest.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![
            KEPT_EVENTS as u64 + 1,
            KEPT_EVENTS as u64 + 2,
            KEPT_EVENTS as u64 + 3
        ]
    );
}

#[test]
fn a_reloaded_webview_gets_every_event_again_then_the_new_ones() {
    let (tx, mut old) = mpsc::unbounded_channel();
    let sink = ChannelSink::queued_to("s".into(), tx);
    sink.emit(text(0));
    sink.emit(text(1));
    let (tx, mut new) = mpsc::unbounded_channel();
    sink.resend_to(tx).expect("every event is kept");
    sink.emit(text(2));
    let seqs = |rx: &mut mpsc::UnboundedReceiver<EventEnvelope>| {
        let mut seqs = Vec::new();
        while let Ok(envelope) = rx.try_recv() {
            seqs.push(envelope.seq);
        }
        seqs
    };
    assert_eq!(seqs(&mut old), vec![0, 1]);
    assert_eq!(seqs(&mut new), vec![0, 1, 2]);

    // Once the first events are no longer kept, the webview cannot be given the whole session again.
    for n in 0..KEPT_EVENTS {
        sink.emit(text(n));
    }
    let (tx, _rx) = mpsc::unbounded_channel();
    assert!(sink.resend_to(tx).is_err());
}
