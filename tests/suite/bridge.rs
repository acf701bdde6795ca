//! The event bridge's batching: a replayed log crosses into the webview in bounded batches, in order.

use std::sync::Mutex;

use tandem_app::bridge::{MAX_BATCH, deliver};
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
async fn delivery_stops_when_the_webview_is_gone() {
    let (tx, rx) = mpsc::unbounded_channel();
    for seq in 0..(MAX_BATCH as u64 * 3) {
        tx.send(envelope(seq)).expect("the receiver is open");
    }
    let calls = Mutex::new(0);
    // The sender is still open: `deliver` returns only because `send` reported the webview gone.
    deliver(rx, |_| {
        *calls.lock().expect("not poisoned") += 1;
        false
    })
    .await;
    assert_eq!(*calls.lock().expect("not poisoned"), 1);
    drop(tx);
}
