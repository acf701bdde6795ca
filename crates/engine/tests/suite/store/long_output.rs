//! A command that prints a lot: the database keeps a bounded head and tail of its output, not every chunk.

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptBlock, ScriptedTurn, Workspace};
use tandem_protocol::{PermissionMode, SessionEvent};

use super::super::common::server;
use super::{stored_session, temp_store};

fn size(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

#[tokio::test]
async fn a_flood_of_output_stores_a_bounded_head_and_tail() {
    let ws = Workspace::new(&[("a.txt", "a\n")]).expect("workspace");
    let (dir, store) = temp_store();
    let fake = server(Script::turns([
        ScriptedTurn::new(vec![ScriptBlock::ToolUse {
            id: "toolu_flood".into(),
            name: "Bash".into(),
            input: json!({"command": "yes | head -c 20000000"}),
        }]),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let s = stored_session(&ws.root(), &fake, &store, RecordingSink::default());
    s.set_mode(PermissionMode::BypassPermissions);
    s.send("flood").await.expect("turn");
    store.flush().expect("stored");

    let db = dir.path().join("data/tandem/sessions.db");
    let wal = dir.path().join("data/tandem/sessions.db-wal");
    let stored = size(&db) + size(&wal);
    assert!(
        stored < 4 * 1024 * 1024,
        "the database grew by {stored} bytes"
    );

    let loaded = store.load_session(s.id()).expect("load").expect("stored");
    let progress: Vec<&str> = loaded
        .events
        .iter()
        .filter_map(|e| match &e.event {
            SessionEvent::ToolCallProgress { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let last = progress.last().expect("some output is stored");
    assert!(last.contains("bytes of output not kept here"), "{last}");
    assert!(
        last.ends_with("y\n") || last.trim_end().ends_with('y'),
        "{last}"
    );
    let file = store.output_dir(s.id()).join("toolu_flood.txt");
    assert!(
        size(&file) > 10 * 1024 * 1024,
        "the rest of the output is in its file"
    );
}
